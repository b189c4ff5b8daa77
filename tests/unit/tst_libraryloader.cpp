#include "Suite.h"
#include "platform/LibraryLoader.h"
#include "platform/SystemPaths.h"

#include <QFileInfo>
#include <QTest>

using namespace cudnnsetup;

class TestLibraryLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsByNameAndSaysWhichFile()
    {
        if (hostOsFamily() == OsFamily::Windows) {
            const LoadResult result =
                LibraryLoader().load(QStringLiteral("kernel32.dll"), LibraryLoader::Search::Standard);
            QVERIFY2(result.library, qPrintable(result.errorString));
            QVERIFY2(result.library->loadedPath().contains(QLatin1String("system32/kernel32.dll"),
                                                           Qt::CaseInsensitive),
                     qPrintable(result.library->loadedPath()));
            QVERIFY(result.library->symbol("GetTickCount"));
            QVERIFY(!result.library->symbol("noSuchSymbolAnywhere"));
            return;
        }
        const LoadResult result =
            LibraryLoader().load(QStringLiteral("libz.so.1"), LibraryLoader::Search::Standard);
        QVERIFY2(result.library, qPrintable(result.errorString));
        QVERIFY(QFileInfo(result.library->loadedPath()).isAbsolute());
        QVERIFY(result.library->loadedPath().contains(QLatin1String("libz.so")));
        using VersionFn = const char *(*)();
        const auto zlibVersion = result.library->function<VersionFn>("zlibVersion");
        QVERIFY(zlibVersion);
        QVERIFY(QByteArray(zlibVersion()).startsWith("1."));
        QVERIFY(!result.library->symbol("noSuchSymbolAnywhere"));
    }

    void failureSaysWhy()
    {
        const LoadResult result = LibraryLoader().load(QStringLiteral("libcudnn_does_not_exist.so.9"));
        QVERIFY(!result.library);
        QVERIFY(result.errorString.contains(QLatin1String("libcudnn_does_not_exist")));
    }

    void realCudnnReportsItsVersion()
    {
        // The image's real CUDA 13 toolkit carries cuDNN 9.19; cudnnGetVersion needs no GPU.
        const QString path = QStringLiteral("/usr/local/cuda-13.0/lib/libcudnn.so.9");
        if (hostOsFamily() != OsFamily::Linux || !QFileInfo::exists(path))
            QSKIP("no cuDNN in /usr/local/cuda-13.0 on this machine");
        const LoadResult result = LibraryLoader().load(path);
        QVERIFY2(result.library, qPrintable(result.errorString));
        QCOMPARE(result.library->loadedPath(), path);
        using GetVersionFn = size_t (*)();
        const auto getVersion = result.library->function<GetVersionFn>("cudnnGetVersion");
        QVERIFY(getVersion);
        QVERIFY(getVersion() >= 90000);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestLibraryLoader)
#include "tst_libraryloader.moc"
