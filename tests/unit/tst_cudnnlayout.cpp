// Where cuDNN sits in the archives of every era, from the file lists alone.
#include "CudnnArchiveLists.h"
#include "Suite.h"
#include "archive/CudnnLayout.h"

#include <QTest>

using namespace cudnnsetup;

class TestCudnnLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eras_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("libraryFolder");
        QTest::addColumn<int>("libraries");

        const QString v8 = QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive");
        QTest::newRow("8.2 and earlier") << archives::cudaRootFiles(8) << "cuda-root"
                                         << "cuda"
                                         << "cuda/bin" << 7;
        QStringList cudaOnly = archives::cudaRootFiles(8);
        cudaOnly.removeLast(); // without the licence beside cuda\ too
        QTest::newRow("8.2 and earlier, cuda root only") << cudaOnly << "cuda-root"
                                                         << "cuda"
                                                         << "cuda/bin" << 7;
        QTest::newRow("8.5.0.96") << archives::windowsFiles(QStringLiteral("8.5.0.96"), QStringLiteral("11"))
                                  << "archive-root"
                                  << "cudnn-windows-x86_64-8.5.0.96_cuda11-archive"
                                  << "cudnn-windows-x86_64-8.5.0.96_cuda11-archive/bin" << 7;
        QTest::newRow("8.9.7.29") << archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12"))
                                  << "archive-root" << v8 << v8 + QStringLiteral("/bin") << 7;
        QTest::newRow("9.1.0.70") << archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"))
                                  << "archive-root"
                                  << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive"
                                  << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin" << 8;
        QTest::newRow("9.18.0.77") << archives::windowsFiles(QStringLiteral("9.18.0.77"),
                                                             QStringLiteral("13"))
                                   << "archive-root-x64"
                                   << "cudnn-windows-x86_64-9.18.0.77_cuda13-archive"
                                   << "cudnn-windows-x86_64-9.18.0.77_cuda13-archive/bin/x64" << 8;
        QTest::newRow("Linux 9.19.0.56")
            << archives::linuxFiles(QStringLiteral("9.19.0.56"), QStringLiteral("13")) << "linux"
            << "cudnn-linux-x86_64-9.19.0.56_cuda13-archive"
            << "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib" << 8;
        QStringList repacked;
        for (const QString &file : archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")))
            repacked.append(QStringLiteral("我的下载/") + file);
        QTest::newRow("re-packed in another folder")
            << repacked << "other"
            << "我的下载"
            << "我的下载/cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin" << 8;
        QTest::newRow("not cuDNN") << QStringList{QStringLiteral("readme.txt"),
                                                  QStringLiteral("bin/zlibwapi.dll")}
                                   << "not-cudnn" << QString() << QString() << 0;
    }
    void eras()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, kind);
        QFETCH(QString, root);
        QFETCH(QString, libraryFolder);
        QFETCH(int, libraries);
        const CudnnLayout layout = CudnnLayout::recognise(files);
        QCOMPARE(layout.kindName(), kind);
        QCOMPARE(layout.root, root);
        QCOMPARE(layout.libraryFolder, libraryFolder);
        QCOMPARE(layout.libraries.size(), libraries);
        if (layout.isCudnn()) {
            QVERIFY(layout.mainLibrary >= 0);
            QVERIFY(files.at(layout.versionHeader).endsWith(QLatin1String("/cudnn_version.h")));
        }
    }

    void version7KeepsItsVersionInCudnnH()
    {
        const CudnnLayout layout = CudnnLayout::recognise({QStringLiteral("cuda/bin/cudnn64_7.dll"),
                                                           QStringLiteral("cuda/include/cudnn.h"),
                                                           QStringLiteral("cuda/lib/x64/cudnn.lib")});
        QCOMPARE(layout.kind, CudnnLayout::Kind::CudaRoot);
        QCOMPARE(layout.versionHeader, 1);
        QCOMPARE(layout.importLibraryFolder, QStringLiteral("cuda/lib/x64"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnLayout)
#include "tst_cudnnlayout.moc"
