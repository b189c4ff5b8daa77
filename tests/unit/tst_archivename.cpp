#include "Suite.h"
#include "compat/ArchiveName.h"

#include <QTest>

using namespace cudnnsetup;

class TestArchiveName : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("8.5+ Windows") << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"
                                      << "windows-x86_64"
                                      << "8.9.7.29"
                                      << "12"
                                      << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip";
        QTest::newRow("Linux tarball") << "cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz"
                                       << "linux-x86_64"
                                       << "9.28.1.4"
                                       << "13"
                                       << "cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz";
        QTest::newRow("8.3 with a minor") << "cudnn-windows-x86_64-8.3.2.44_cuda11.5-archive.zip"
                                          << "windows-x86_64"
                                          << "8.3.2.44"
                                          << "11.5"
                                          << "cudnn-windows-x86_64-8.3.2.44_cuda11.5-archive.zip";
        QTest::newRow("sbsa") << "cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz"
                              << "linux-sbsa"
                              << "9.1.0.70"
                              << "12"
                              << "cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz";
        QTest::newRow("blog hyphens") << "cudnn-windows-x86-64-8.9.7.29-cuda12-archive.zip"
                                      << "windows-x86_64"
                                      << "8.9.7.29"
                                      << "12"
                                      << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip";
        QTest::newRow("browser copy") << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive (1).zip"
                                      << "windows-x86_64"
                                      << "9.1.0.70"
                                      << "12"
                                      << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip";
        QTest::newRow("capitals and folder")
            << "C:\\Users\\张三\\Downloads\\CUDNN-Windows-X86_64-9.1.0.70_CUDA12-Archive.ZIP"
            << "windows-x86_64"
            << "9.1.0.70"
            << "12"
            << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip";
        QTest::newRow("old era") << "cudnn-11.2-windows-x64-v8.1.0.77.zip"
                                 << "windows-x86_64"
                                 << "8.1.0.77"
                                 << "11.2"
                                 << "cudnn-11.2-windows-x64-v8.1.0.77.zip";
        QTest::newRow("old windows10") << "cudnn-10.2-windows10-x64-v7.6.5.32.zip"
                                       << "windows-x86_64"
                                       << "7.6.5.32"
                                       << "10.2"
                                       << "cudnn-10.2-windows10-x64-v7.6.5.32.zip";
        QTest::newRow("old Linux") << "cudnn-11.4-linux-x64-v8.2.4.15.tgz"
                                   << "linux-x86_64"
                                   << "8.2.4.15"
                                   << "11.4"
                                   << "cudnn-11.4-linux-x64-v8.2.4.15.tgz";
    }
    void parses()
    {
        QFETCH(QString, name);
        QFETCH(QString, platform);
        QFETCH(QString, cudnn);
        QFETCH(QString, cuda);
        QFETCH(QString, canonical);
        const auto archive = ArchiveName::parse(name);
        QVERIFY(archive);
        QCOMPARE(archive->platform, platform);
        QCOMPARE(archive->cudnn.toString(), cudnn);
        QCOMPARE(archive->cudaVariant, cuda);
        QCOMPARE(archive->cudaMajor(), cuda.section(QLatin1Char('.'), 0, 0).toInt());
        QCOMPARE(archive->canonicalFileName(), canonical);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("not cudnn") << "cuda_12.2.2_537.13_windows.exe";
        QTest::newRow("no version") << "cudnn-windows-x86_64-_cuda12-archive.zip";
        QTest::newRow("installer") << "cudnn_9.1.0_windows.exe";
        QTest::newRow("other extension") << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.7z";
        QTest::newRow("empty") << "";
    }
    void refuses()
    {
        QFETCH(QString, name);
        QVERIFY(!ArchiveName::parse(name));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestArchiveName)
#include "tst_archivename.moc"
