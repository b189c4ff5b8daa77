// LoadLibraryExW through our LibraryLoader, with stand-in cuDNN DLLs: which file is loaded, what a
// missing dependency or a 32-bit DLL does, and how PATH order decides between two copies.
#include "BuildPaths.h"
#include "Suite.h"
#include "platform/LibraryLoader.h"

#include <qt_windows.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kStandins = BuildPaths::standins();

// A folder holding the given stand-in folders' DLLs side by side, as an install would.
QString assemble(const QTemporaryDir &dir, const QString &name, const QStringList &families)
{
    const QString target = dir.filePath(name);
    QDir().mkpath(target);
    for (const QString &family : families) {
        const QDir source(kStandins + QLatin1Char('/') + family);
        for (const QString &file : source.entryList({QStringLiteral("*.dll")}, QDir::Files))
            QFile::copy(source.filePath(file), target + QLatin1Char('/') + file);
    }
    return QFileInfo(target).absoluteFilePath();
}

bool samePath(const QString &a, const QString &b)
{
    return QDir::cleanPath(a).compare(QDir::cleanPath(b), Qt::CaseInsensitive) == 0;
}

using VersionFn = size_t (*)();
using CreateFn = int (*)(void **);
using DestroyFn = int (*)(void *);

} // namespace

class TestWinLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsTheFileItWasGivenWithItsDependencies()
    {
        QTemporaryDir dir;
        const QString folder = assemble(dir, QStringLiteral("v9.18"),
                                        {QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("cuda-12.2")});
        const QString path = folder + QStringLiteral("/cudnn64_9.dll");
        const LoadResult result = LibraryLoader().load(path, LibraryLoader::Search::Safe);
        QVERIFY2(result.library, qPrintable(result.errorString));
        QVERIFY2(samePath(result.library->loadedPath(), path), qPrintable(result.library->loadedPath()));
        QCOMPARE(result.library->function<VersionFn>("cudnnGetVersion")(), size_t(91800));
        QCOMPARE(result.library->function<VersionFn>("cudnnGetCudartVersion")(), size_t(12020));
    }

    void handleNeedsAGpu()
    {
        QTemporaryDir dir;
        const QString folder = assemble(dir, QStringLiteral("v9.18"),
                                        {QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("cuda-12.2")});
        const LoadResult result = LibraryLoader().load(folder + QStringLiteral("/cudnn64_9.dll"));
        QVERIFY2(result.library, qPrintable(result.errorString));
        // The main library loads cudnn_graph64_9.dll by name when a handle is made, as NVIDIA's does:
        // the folder is on no search path here, so it is loaded first (by name it is then found).
        const LoadResult graph = LibraryLoader().load(folder + QStringLiteral("/cudnn_graph64_9.dll"));
        QVERIFY2(graph.library, qPrintable(graph.errorString));
        const auto create = result.library->function<CreateFn>("cudnnCreate");
        const auto destroy = result.library->function<DestroyFn>("cudnnDestroy");
        void *handle = nullptr;
        qunsetenv("CUDNN_STANDIN_GPUS");
        QCOMPARE(create(&handle), 1); // CUDNN_STATUS_NOT_INITIALIZED: no GPU
        qputenv("CUDNN_STANDIN_GPUS", "1");
        QCOMPARE(create(&handle), 0);
        QCOMPARE(destroy(handle), 0);
        qunsetenv("CUDNN_STANDIN_GPUS");
        // The main library's own load of cudnn_graph64_9.dll is never undone (nor is NVIDIA's):
        // undone here, so that both leave this process with the results above.
        QVERIFY(FreeLibrary(GetModuleHandleW(L"cudnn_graph64_9.dll")));
    }

    // 126: the DLL is there, one it imports is not (cudart beside it; zlibwapi for 9.1).
    void missingDependencyIs126()
    {
        QTemporaryDir dir;
        const QString alone = assemble(dir, QStringLiteral("alone"), {QStringLiteral("cudnn-9.18.0.77")});
        LoadResult result = LibraryLoader().load(alone + QStringLiteral("/cudnn64_9.dll"));
        QVERIFY(!result.library);
        QCOMPARE(result.errorCode, 126);
        QVERIFY(result.errorString.contains(QLatin1String("cudnn64_9.dll"), Qt::CaseInsensitive));

        const QString noZlib = assemble(dir, QStringLiteral("nozlib"),
                                        {QStringLiteral("cudnn-9.1.0.70"), QStringLiteral("cuda-12.2")});
        result = LibraryLoader().load(noZlib + QStringLiteral("/cudnn64_9.dll"));
        QCOMPARE(result.errorCode, 126);
        const QString withZlib = assemble(
            dir, QStringLiteral("zlib"),
            {QStringLiteral("cudnn-9.1.0.70"), QStringLiteral("cuda-12.2"), QStringLiteral("zlib-1.2.3")});
        result = LibraryLoader().load(withZlib + QStringLiteral("/cudnn64_9.dll"));
        QVERIFY2(result.library, qPrintable(result.errorString));
        QCOMPARE(result.library->function<VersionFn>("cudnnGetVersion")(), size_t(90100));
    }

    // A sub-library loads its main library by name, and finds it beside itself.
    void subLibraryFindsItsMainLibrary()
    {
        QTemporaryDir dir;
        const QString folder = assemble(
            dir, QStringLiteral("v8"),
            {QStringLiteral("cudnn-8.9.7.29"), QStringLiteral("cuda-12.2"), QStringLiteral("zlib-1.2.3")});
        const LoadResult result = LibraryLoader().load(folder + QStringLiteral("/cudnn_cnn_infer64_8.dll"));
        QVERIFY2(result.library, qPrintable(result.errorString));
        using CheckFn = int (*)();
        QCOMPARE(result.library->function<CheckFn>("cudnnCnnInferVersionCheck")(), 0);
    }

    // 193: a 32-bit DLL cannot load into a 64-bit process; the message names the file.
    void wrongArchitectureIs193()
    {
        if (!QFileInfo::exists(kStandins + QStringLiteral("/x86/zlibwapi.dll")))
            QSKIP("no 32-bit stand-in (built only where a 32-bit MinGW compiler exists)");
        const QString x86 = QFileInfo(kStandins + QStringLiteral("/x86/zlibwapi.dll")).absoluteFilePath();
        const LoadResult result = LibraryLoader().load(x86);
        QVERIFY(!result.library);
        QCOMPARE(result.errorCode, 193);
        QVERIFY2(result.errorString.contains(QLatin1String("zlibwapi.dll"), Qt::CaseInsensitive),
                 qPrintable(result.errorString));
        QVERIFY(!result.errorString.contains(QLatin1String("%1")));
    }

    // By name, the standard search walks PATH: the first copy wins, whatever is newer.
    void pathOrderDecidesWhichCopyLoads()
    {
        QTemporaryDir dir;
        const QString old = assemble(
            dir, QStringLiteral("v9.1"),
            {QStringLiteral("cudnn-9.1.0.70"), QStringLiteral("cuda-12.2"), QStringLiteral("zlib-1.2.3")});
        const QString fresh = assemble(dir, QStringLiteral("v9.18"),
                                       {QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("cuda-12.2")});
        const QByteArray savedPath = qgetenv("PATH");
        qputenv("PATH", (QDir::toNativeSeparators(old) + QLatin1Char(';') + QDir::toNativeSeparators(fresh) +
                         QLatin1Char(';'))
                                .toLocal8Bit() +
                            savedPath);
        {
            const LoadResult result =
                LibraryLoader().load(QStringLiteral("cudnn64_9.dll"), LibraryLoader::Search::Standard);
            QVERIFY2(result.library, qPrintable(result.errorString));
            QVERIFY2(samePath(result.library->loadedPath(), old + QStringLiteral("/cudnn64_9.dll")),
                     qPrintable(result.library->loadedPath()));
            QCOMPARE(result.library->function<VersionFn>("cudnnGetVersion")(), size_t(90100));
        }
        // The safe search ignores PATH altogether.
        QCOMPARE(LibraryLoader().load(QStringLiteral("cudnn64_9.dll"), LibraryLoader::Search::Safe).errorCode,
                 126);
        qputenv("PATH", savedPath);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinLoader)
#include "tst_win_loader.moc"
