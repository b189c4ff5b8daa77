// Our PE reader on real PE files: the MinGW-built stand-ins, the programs themselves, Windows' own.
#include "BuildPaths.h"
#include "Suite.h"
#include "binary/PeReader.h"

#include <qt_windows.h>

#include <QCoreApplication>
#include <QDir>
#include <QTest>

using namespace cudnnsetup;

namespace {
const QString kStandins = BuildPaths::standins();

PeInfo read(const QString &path)
{
    const auto info = pe::readFile(QFileInfo(path).absoluteFilePath());
    if (!info)
        qWarning() << path << info.error().details;
    return info ? *info : PeInfo();
}

QStringList lower(QStringList names)
{
    for (QString &name : names)
        name = name.toLower();
    return names;
}
} // namespace

class TestWinPe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standInCudnnDlls()
    {
        const PeInfo main918 = read(kStandins + QStringLiteral("/cudnn-9.18.0.77/cudnn64_9.dll"));
        QCOMPARE(main918.machineName(), QStringLiteral("x64"));
        QVERIFY(main918.pe32Plus);
        QVERIFY(main918.isDll);
        QCOMPARE(main918.fileVersion.toString(), QStringLiteral("9.18.0.77"));
        QVERIFY(lower(main918.imports).contains(QStringLiteral("cudart64_12.dll")));
        QVERIFY(
            !lower(main918.imports).contains(QStringLiteral("zlibwapi.dll"))); // zlib is built in from 9.2

        const PeInfo main91 = read(kStandins + QStringLiteral("/cudnn-9.1.0.70/cudnn64_9.dll"));
        QVERIFY(lower(main91.imports).contains(QStringLiteral("zlibwapi.dll")));
        QCOMPARE(main91.fileVersion.toString(), QStringLiteral("9.1.0.70"));

        const PeInfo sub = read(kStandins + QStringLiteral("/cudnn-8.9.7.29/cudnn_ops_infer64_8.dll"));
        QVERIFY(lower(sub.imports).contains(QStringLiteral("cudnn64_8.dll")));
        QCOMPARE(sub.fileVersion.toString(), QStringLiteral("8.9.7.29"));

        // A sub-library that imports another, as NVIDIA's cudnn_cnn64_9.dll does.
        const PeInfo cnn = read(kStandins + QStringLiteral("/cudnn-9.18.0.77/cudnn_cnn64_9.dll"));
        QVERIFY(lower(cnn.imports).contains(QStringLiteral("cudnn_ops64_9.dll")));
        QVERIFY(lower(cnn.imports).contains(QStringLiteral("cudnn64_9.dll")));
    }

    void x86Dll()
    {
        if (!QFileInfo::exists(kStandins + QStringLiteral("/x86/zlibwapi.dll")))
            QSKIP("no 32-bit stand-in (built only where a 32-bit MinGW compiler exists)");
        const PeInfo x86 = read(kStandins + QStringLiteral("/x86/zlibwapi.dll"));
        QCOMPARE(x86.machineName(), QStringLiteral("x86"));
        QVERIFY(!x86.pe32Plus);
        QCOMPARE(x86.bits(), 32);
        QVERIFY(x86.isDll);
    }

    void ourOwnPrograms()
    {
        const PeInfo console = read(BuildPaths::cudnnctl());
        QCOMPARE(console.machineName(), QStringLiteral("x64"));
        QVERIFY(!console.isDll);
        QCOMPARE(console.subsystem, quint16(3)); // IMAGE_SUBSYSTEM_WINDOWS_CUI
        const PeInfo gui = read(BuildPaths::cudnnSetup());
        QCOMPARE(gui.subsystem, quint16(2)); // IMAGE_SUBSYSTEM_WINDOWS_GUI: no console window
        // Static builds: nothing but the system's own DLLs beside them.
        for (const QString &dll : lower(gui.imports + console.imports)) {
            QVERIFY2(!dll.startsWith(QLatin1String("qt6")) && !dll.startsWith(QLatin1String("libstdc++")) &&
                         !dll.startsWith(QLatin1String("libgcc")) &&
                         !dll.startsWith(QLatin1String("libwinpthread")),
                     qPrintable(dll));
        }
        QVERIFY(gui.fileVersion.isValid());
        QCOMPARE(gui.fileVersion.truncated(3).toString(), QStringLiteral(CUDNNSETUP_VERSION));
    }

    // The manifest Windows reads when it starts the program.
    void manifestsSayAsInvokerDpiAwareLongPaths()
    {
        for (const QString &program : {BuildPaths::cudnnSetup(), BuildPaths::cudnnctl()}) {
            const std::wstring path =
                QDir::toNativeSeparators(QFileInfo(program).absoluteFilePath()).toStdWString();
            HMODULE image = LoadLibraryExW(path.c_str(), nullptr,
                                           LOAD_LIBRARY_AS_DATAFILE | LOAD_LIBRARY_AS_IMAGE_RESOURCE);
            QVERIFY2(image, qPrintable(program));
            HRSRC resource = FindResourceW(image, MAKEINTRESOURCEW(1), MAKEINTRESOURCEW(24));
            QVERIFY2(resource, qPrintable(program));
            const QByteArray manifest(static_cast<const char *>(LockResource(LoadResource(image, resource))),
                                      int(SizeofResource(image, resource)));
            FreeLibrary(image);
            QVERIFY(manifest.contains("level=\"asInvoker\""));
            QVERIFY(manifest.contains(">PerMonitorV2<"));
            QVERIFY(manifest.contains("<longPathAware"));
        }
    }

    void windowsOwnDll()
    {
        wchar_t system[MAX_PATH] = {};
        QVERIFY(GetSystemDirectoryW(system, MAX_PATH) > 0);
        const PeInfo kernel32 = read(QString::fromWCharArray(system) + QStringLiteral("\\kernel32.dll"));
        QCOMPARE(kernel32.machineName(), QStringLiteral("x64"));
        QVERIFY(kernel32.isDll);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinPe)
#include "tst_win_pe.moc"
