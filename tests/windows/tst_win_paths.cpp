// Windows path rules as Windows itself applies them: our SystemPaths and running-system FileSystem
// checked against GetFullPathNameW, ExpandEnvironmentStringsW and the real file system.
#include "Suite.h"
#include "platform/DurableFiles.h"
#include "platform/FileSystem.h"
#include "platform/SystemPaths.h"
#include "platform/Win32Paths.h"

#include <qt_windows.h>

#include <QDir>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

QString fullPath(const QString &path)
{
    wchar_t buffer[4096];
    const DWORD length =
        GetFullPathNameW(reinterpret_cast<const wchar_t *>(path.utf16()), 4096, buffer, nullptr);
    return QString::fromWCharArray(buffer, int(length));
}

QString expand(const QString &text)
{
    wchar_t buffer[8192];
    const DWORD length =
        ExpandEnvironmentStringsW(reinterpret_cast<const wchar_t *>(text.utf16()), buffer, 8192);
    return QString::fromWCharArray(buffer, int(length) - 1);
}

QString systemDirectory()
{
    wchar_t buffer[MAX_PATH];
    return QString::fromWCharArray(buffer, int(GetSystemDirectoryW(buffer, MAX_PATH)));
}

} // namespace

class TestWinPaths : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void normalizeAgreesWithWindows_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("dot dot") << "C:\\CUDA\\v12.2\\bin\\..\\lib\\x64";
        QTest::newRow("forward slashes") << "C:/Program Files/NVIDIA/CUDNN/v9.1/bin/12.4";
        QTest::newRow("doubled separators") << "C:\\\\CUDA\\\\bin";
        QTest::newRow("trailing separator") << "C:\\CUDA\\v13.0\\bin\\x64\\";
        QTest::newRow("lower-case drive") << "c:\\windows\\system32";
        QTest::newRow("dot") << "C:\\.\\CUDA\\.\\bin";
        QTest::newRow("above the root") << "C:\\..\\..\\CUDA";
        QTest::newRow("UNC") << "\\\\server\\share\\cudnn\\bin";
        QTest::newRow("Chinese") << "C:\\Users\\张三\\miniconda3\\Library\\bin";
    }
    void normalizeAgreesWithWindows()
    {
        QFETCH(QString, path);
        const SystemPaths paths(OsFamily::Windows);
        QString windows = fullPath(path);
        // Windows keeps a trailing separator and a lower-case drive; both mean the same folder.
        if (windows.size() > 3 && windows.endsWith(QLatin1Char('\\')))
            windows.chop(1);
        QVERIFY2(paths.equal(paths.normalize(path), windows),
                 qPrintable(paths.normalize(path) + QStringLiteral(" vs ") + windows));
    }

    void expansionAgreesWithWindows_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("system root") << "%SystemRoot%\\system32";
        QTest::newRow("two references") << "%SystemRoot%;%windir%\\x";
        QTest::newRow("unknown kept") << "%CUDNN_SETUP_NO_SUCH_VARIABLE%\\bin";
        QTest::newRow("case") << "%systemroot%\\System32";
        QTest::newRow("lone percent") << "50% of %SystemRoot%";
        QTest::newRow("doubled percents") << "%%SystemRoot%%";
        QTest::newRow("trailing percent") << "100%";
    }
    void expansionAgreesWithWindows()
    {
        QFETCH(QString, text);
        const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        const QString ours = SystemPaths(OsFamily::Windows).expandVariables(text, [&](const QString &name) {
            const QStringList keys = environment.keys();
            for (const QString &key : keys) {
                if (key.compare(name, Qt::CaseInsensitive) == 0)
                    return environment.value(key);
            }
            return QString();
        });
        QCOMPARE(ours, expand(text));
    }

    void runningFileSystemIgnoresCase()
    {
        const FileSystem files(OsFamily::Windows, QString());
        const QString system = systemDirectory();
        QVERIFY(files.isDir(system.toUpper()));
        QVERIFY(files.isFile(system.toLower() + QStringLiteral("\\KERNEL32.DLL")));
        QVERIFY(files.entries(system, {QStringLiteral("KERNEL32.*")}, FileSystem::Files)
                    .contains(QStringLiteral("kernel32.dll"), Qt::CaseInsensitive));
        QVERIFY(files.canonical(system + QStringLiteral("\\..\\system32"))
                    .compare(files.paths().normalize(system), Qt::CaseInsensitive) == 0);
        const auto head = files.readHead(system + QStringLiteral("\\kernel32.dll"), 2);
        QCOMPARE(head.value(), QByteArray("MZ"));
    }

    // A reserved name is a device in every folder: writing "NUL" creates no file.
    void reservedNamesAreDevices()
    {
        QTemporaryDir dir;
        const SystemPaths paths(OsFamily::Windows);
        QVERIFY(paths.isReservedName(QStringLiteral("NUL")));
        const std::wstring device =
            QDir::toNativeSeparators(dir.filePath(QStringLiteral("NUL"))).toStdWString();
        HANDLE handle = CreateFileW(device.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                                    FILE_ATTRIBUTE_NORMAL, nullptr);
        QVERIFY(handle != INVALID_HANDLE_VALUE);
        DWORD written = 0;
        QVERIFY(WriteFile(handle, "x", 1, &written, nullptr));
        CloseHandle(handle);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).isEmpty());
    }

    void listSeparatorsAndQuotes()
    {
        const SystemPaths paths(OsFamily::Windows);
        QCOMPARE(paths.splitList(QStringLiteral("C:\\a;\"C:\\with;semicolon\";;C:\\b")),
                 (QStringList{QStringLiteral("C:\\a"), QStringLiteral("C:\\with;semicolon"),
                              QStringLiteral("C:\\b")}));
        QVERIFY(paths.isAbsolute(QStringLiteral("C:\\x")));
        QVERIFY(paths.isAbsolute(QStringLiteral("\\\\server\\share")));
        QVERIFY(!paths.isAbsolute(QStringLiteral("C:x"))); // drive-relative
        QVERIFY(!paths.isAbsolute(QStringLiteral("cuda\\bin")));
    }

    // Past MAX_PATH the direct Win32 calls get the "\\?\" form: a file 300 characters deep is
    // renamed, secured and removed like any other.
    void longPathsReachTheWin32Calls()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString folder = dir.path();
        while (folder.size() < 280)
            folder += QStringLiteral("/a-folder-name-of-forty-characters-each_");
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + QStringLiteral("/cudnn_engines_runtime_compiled64_9.dll");
        QFile written(file);
        QVERIFY(written.open(QIODevice::WriteOnly));
        written.write("x");
        written.close();
        QVERIFY(win32PathText(file).startsWith(QLatin1String("\\\\?\\")));
        QVERIFY(!win32PathText(dir.path()).startsWith(QLatin1String("\\\\?\\")));
        const QString moved =
            folder + QStringLiteral("/cudnn_engines_runtime_compiled64_9.dll.cudnn-setup-replaced");
        const SystemResult renamed = durable::rename(file, moved);
        QVERIFY2(renamed, qPrintable(renamed ? QString() : renamed.error().message));
        QVERIFY(QFileInfo::exists(moved) && !QFileInfo::exists(file));
        const SystemResult removed = durable::remove(moved);
        QVERIFY2(removed, qPrintable(removed ? QString() : removed.error().message));
        QVERIFY(!QFileInfo::exists(moved));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinPaths)
#include "tst_win_paths.moc"
