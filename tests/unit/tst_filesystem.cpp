#include "Sandbox.h"
#include "Suite.h"
#include "platform/FileSystem.h"

#include <QTest>

using namespace cudnnsetup;

class TestFileSystem : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runningSystemIsIdentity()
    {
        const FileSystem files(OsFamily::Linux, QString());
        QVERIFY(!files.isRooted());
        QCOMPARE(files.toHost(QStringLiteral("/usr/lib/../lib")), QStringLiteral("/usr/lib"));
        QVERIFY(files.isDir(QStringLiteral("/")));
        QVERIFY(files.toHost(QStringLiteral("relative/path")).isEmpty());
    }

    void rootMapsEveryPathInside()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/etc/os-release"), "NAME=Test\n");
        const FileSystem files(OsFamily::Linux, sandbox.root());
        QCOMPARE(files.toHost(QStringLiteral("/etc/os-release")),
                 sandbox.root() + QStringLiteral("/etc/os-release"));
        QCOMPARE(files.read(QStringLiteral("/etc/os-release")).value(), QByteArray("NAME=Test\n"));
        QCOMPARE(files.fromHost(sandbox.root() + QStringLiteral("/etc")), QStringLiteral("/etc"));
        QCOMPARE(files.fromHost(sandbox.root()), QStringLiteral("/"));
        // ".." cannot climb out of the root.
        QCOMPARE(files.toHost(QStringLiteral("/../../etc/os-release")),
                 sandbox.root() + QStringLiteral("/etc/os-release"));
    }

    void absoluteLinksResolveInsideTheRoot()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links");
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/usr/local/cuda-13.0/version.json"), "{}");
        // An image's absolute link names a path of the image, never of the host.
        sandbox.symlink(QStringLiteral("/usr/local/cuda-13.0"), QStringLiteral("/usr/local/cuda"));
        sandbox.symlink(QStringLiteral("../usr"), QStringLiteral("/opt/up"));
        const FileSystem files(OsFamily::Linux, sandbox.root());
        QCOMPARE(files.toHost(QStringLiteral("/usr/local/cuda/version.json")),
                 sandbox.root() + QStringLiteral("/usr/local/cuda-13.0/version.json"));
        QCOMPARE(files.canonical(QStringLiteral("/usr/local/cuda")), QStringLiteral("/usr/local/cuda-13.0"));
        QVERIFY(files.isFile(QStringLiteral("/opt/up/local/cuda/version.json")));
    }

    void linkLoopsEnd()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links");
        Sandbox sandbox;
        sandbox.symlink(QStringLiteral("/b"), QStringLiteral("/a"));
        sandbox.symlink(QStringLiteral("/a"), QStringLiteral("/b"));
        const FileSystem files(OsFamily::Linux, sandbox.root());
        QVERIFY(!files.exists(QStringLiteral("/a/x")));
    }

    void windowsTreeIgnoresCase()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\nvml.dll"), "MZ");
        sandbox.write(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4\\cudnn64_9.dll"),
                      "MZ");
        QCOMPARE(FileSystem::detectFamily(sandbox.root()), OsFamily::Windows);
        const FileSystem files(OsFamily::Windows, sandbox.root());
        QVERIFY(files.isFile(QStringLiteral("c:\\windows\\system32\\NVML.DLL")));
        QVERIFY(files.isFile(QStringLiteral("C:/Program Files/nvidia/cudnn/V9.1/BIN/12.4/cudnn64_9.dll")));
        QCOMPARE(files.entries(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4"),
                               {QStringLiteral("CUDNN*.DLL")}),
                 QStringList{QStringLiteral("cudnn64_9.dll")});
        QVERIFY(files.toHost(QStringLiteral("\\\\server\\share\\x.dll")).isEmpty());
        QCOMPARE(files.fromHost(sandbox.root() + QStringLiteral("/Windows/System32")),
                 QStringLiteral("C:\\Windows\\System32"));
    }

    void linuxTreeIsNotWindows()
    {
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/usr/lib"));
        QCOMPARE(FileSystem::detectFamily(sandbox.root()), OsFamily::Linux);
    }

    void readRefusesHugeAndMissingFiles()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/big"), QByteArray(5000, 'x'));
        const FileSystem files(OsFamily::Linux, sandbox.root());
        const auto big = files.read(QStringLiteral("/big"), 4096);
        QVERIFY(!big.ok());
        QCOMPARE(big.error().id, QStringLiteral("file.too-large"));
        const auto missing = files.read(QStringLiteral("/missing"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().id, QStringLiteral("file.unreadable"));
        QCOMPARE(files.readHead(QStringLiteral("/big"), 10).value().size(), 10);
    }

    void entriesFilterByKind()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/d/libcudnn.so.9"));
        sandbox.mkdir(QStringLiteral("/d/libcudnn.dir"));
        const FileSystem files(OsFamily::Linux, sandbox.root());
        QCOMPARE(files.entries(QStringLiteral("/d"), {QStringLiteral("libcudnn*")}, FileSystem::Files),
                 QStringList{QStringLiteral("libcudnn.so.9")});
        QCOMPARE(files.entries(QStringLiteral("/d"), {}, FileSystem::Dirs),
                 QStringList{QStringLiteral("libcudnn.dir")});
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestFileSystem)
#include "tst_filesystem.moc"
