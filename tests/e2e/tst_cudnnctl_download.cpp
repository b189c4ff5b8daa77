// `cudnnctl download` as a user runs it, against a mirror on 127.0.0.1: stopped halfway (the
// process killed, as a closed laptop or Ctrl+C stops it), then run again, which continues from the
// .part it left; the text and JSON it prints; a source without the file.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "LoopbackHttpServer.h"
#include "Sandbox.h"
#include "Suite.h"
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
#include "TarWriter.h"
#endif
#include "platform/SystemPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kFile = QStringLiteral("cudnn-windows-x86_64-9.10.0.56_cuda12-archive.zip");

// The test-made archive saved in `work` under NVIDIA's name `file`, and a database (in `work`) for which
// it is NVIDIA's file; the database's path.
QString databaseKnowingMade(const QTemporaryDir &work, const QByteArray &content, const QString &file = kFile)
{
    const QString made = work.filePath(QStringLiteral("made/") + file);
    QDir().mkpath(QFileInfo(made).path());
    QFile madeFile(made);
    if (!madeFile.open(QIODevice::WriteOnly) || madeFile.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(made));
    madeFile.close();
    return archives::writeDatabaseKnowing(work.filePath(QStringLiteral("db.json")), {made});
}

// Without --out when `out` is empty.
QStringList downloadArguments(const testtools::LoopbackHttpServer &server, const QString &out,
                              const QString &database)
{
    QStringList arguments{
        QStringLiteral("download"),       QStringLiteral("--cudnn"),  QStringLiteral("9.10.0"),
        QStringLiteral("--cuda"),         QStringLiteral("12"),       QStringLiteral("--platform"),
        QStringLiteral("windows-x86_64"), QStringLiteral("--source"), server.baseUrl().toString()};
    if (!out.isEmpty())
        arguments << QStringLiteral("--out") << out;
    return arguments << QStringLiteral("--compat-db") << database << QStringLiteral("--lang")
                     << QStringLiteral("en");
}

} // namespace

class TestCudnnctlDownload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stoppedHalfwayThenContinued()
    {
        QTemporaryDir work;
        const QByteArray content = archives::windowsZip(QStringLiteral("9.10.0.56"), QStringLiteral("12"));
        const QString database = databaseKnowingMade(work, content);
        const QString out = work.filePath(QStringLiteral("downloads"));
        const QString part = out + QLatin1Char('/') + kFile + QStringLiteral(".part");

        testtools::LoopbackHttpServer server;
        testtools::LoopbackHttpServer::Resource slow;
        slow.content = content;
        slow.bytesPerSecond = 2000; // about five seconds for the whole file
        server.serve(QStringLiteral("/cudnn/windows-x86_64/") + kFile, slow);
        QProcess first;
        first.start(BuildPaths::cudnnctl(), downloadArguments(server, out, database));
        QVERIFY(first.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(part).size() >= 1000, 20000);
        first.kill();
        QVERIFY(first.waitForFinished());
        const qint64 kept = QFileInfo(part).size();
        QVERIFY(kept > 0 && kept < content.size());
        QVERIFY(!QFile::exists(out + QLatin1Char('/') + kFile));

        testtools::LoopbackHttpServer::Resource fast;
        fast.content = content;
        server.serve(QStringLiteral("/cudnn/windows-x86_64/") + kFile, fast);
        const CudnnctlRun again =
            runCudnnctl(downloadArguments(server, out, database) << QStringLiteral("--json"));
        QVERIFY2(again.exitCode == 0, again.out + again.err);
        const QJsonObject report = outputJson(again);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/download/1"));
        QVERIFY(report.value(QStringLiteral("ok")).toBool());
        // What the killed run had written may have grown a little after it was measured.
        QVERIFY(report.value(QStringLiteral("resumedFrom")).toDouble() >= double(kept));
        QCOMPARE(report.value(QStringLiteral("checksumFrom")).toString(), QStringLiteral("built-in"));
        QCOMPARE(QDir::fromNativeSeparators(report.value(QStringLiteral("path")).toString()),
                 out + QLatin1Char('/') + kFile);
        QVERIFY(server.requests().last().range.startsWith("bytes="));
        QFile result(out + QLatin1Char('/') + kFile);
        QVERIFY(result.open(QIODevice::ReadOnly));
        QCOMPARE(result.readAll(), content);
        QVERIFY(!QFile::exists(part));

        // Asked again in text: nothing fetched, and where its checksum came from.
        const CudnnctlRun text = runCudnnctl(downloadArguments(server, out, database));
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Already downloaded and intact"), text.out);
        QVERIFY2(text.out.contains("(NVIDIA's, built into cuDNN Setup)"), text.out);
    }

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
    // Issue 34: on Linux the archive NVIDIA publishes for Linux, a tar.xz, is the one fetched (from
    // the mirror's cudnn/linux-x86_64/), checked against NVIDIA's checksum, and judged sound.
    void linuxGetsTheTarXz()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "the host's own platform");
        QTemporaryDir work;
        const QString file = QStringLiteral("cudnn-linux-x86_64-9.10.0.56_cuda12-archive.tar.xz");
        const QByteArray content = archives::linuxTarXz(QStringLiteral("9.10.0.56"), QStringLiteral("12"));
        const QString database = databaseKnowingMade(work, content, file);
        testtools::LoopbackHttpServer server;
        testtools::LoopbackHttpServer::Resource archive;
        archive.content = content;
        server.serve(QStringLiteral("/cudnn/linux-x86_64/") + file, archive);
        const QString out = work.filePath(QStringLiteral("downloads"));
        const CudnnctlRun run = runCudnnctl(
            {QStringLiteral("download"), QStringLiteral("--cudnn"), QStringLiteral("9.10.0"),
             QStringLiteral("--cuda"), QStringLiteral("12"), QStringLiteral("--source"),
             server.baseUrl().toString(), QStringLiteral("--out"), out, QStringLiteral("--compat-db"),
             database, QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        const QJsonObject report = outputJson(run);
        QVERIFY(report.value(QStringLiteral("ok")).toBool());
        QCOMPARE(QDir::fromNativeSeparators(report.value(QStringLiteral("path")).toString()),
                 out + QLatin1Char('/') + file);
        QFile result(out + QLatin1Char('/') + file);
        QVERIFY(result.open(QIODevice::ReadOnly));
        QCOMPARE(result.readAll(), content);

        // And the downloaded file inspects as NVIDIA's Linux archive.
        const CudnnctlRun inspected =
            runCudnnctl({QStringLiteral("inspect"), out + QLatin1Char('/') + file, QStringLiteral("--json"),
                         QStringLiteral("--compat-db"), database});
        QVERIFY2(inspected.exitCode == 0, inspected.out + inspected.err);
        const QJsonObject judged = outputJson(inspected);
        QCOMPARE(judged.value(QStringLiteral("verdict")).toString(), QStringLiteral("ok"));
        QCOMPARE(judged.value(QStringLiteral("official")).toString(), QStringLiteral("match"));
        QCOMPARE(
            judged.value(QStringLiteral("content")).toObject().value(QStringLiteral("layout")).toString(),
            QStringLiteral("linux"));
    }
#endif

    // Without --out the archive goes to the user's Downloads folder, never the current folder (which
    // in an elevated prompt is System32).
    void defaultsToTheDownloadsFolder()
    {
        QTemporaryDir work;
        const QByteArray content = archives::windowsZip(QStringLiteral("9.10.0.56"), QStringLiteral("12"));
        const QString database = databaseKnowingMade(work, content);
        testtools::LoopbackHttpServer server;
        testtools::LoopbackHttpServer::Resource archive;
        archive.content = content;
        server.serve(QStringLiteral("/cudnn/windows-x86_64/") + kFile, archive);

        const QString current = work.filePath(QStringLiteral("current"));
        QVERIFY(QDir().mkpath(current));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        QString downloads;
        if (cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows) {
            // The known folder of the account the tests run as; the file is removed below.
            downloads = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
        } else {
            // A home of its own, whose user-dirs.dirs names the Downloads folder, as a desktop does.
            const QString home = work.filePath(QStringLiteral("home"));
            QDir().mkpath(home + QStringLiteral("/.config"));
            QFile userDirs(home + QStringLiteral("/.config/user-dirs.dirs"));
            QVERIFY(userDirs.open(QIODevice::WriteOnly));
            userDirs.write("XDG_DOWNLOAD_DIR=\"$HOME/Fetched\"\n");
            userDirs.close();
            environment.insert(QStringLiteral("HOME"), home);
            environment.remove(QStringLiteral("XDG_CONFIG_HOME"));
            downloads = home + QStringLiteral("/Fetched");
        }
        const CudnnctlRun run =
            runCudnnctl(downloadArguments(server, QString(), database) << QStringLiteral("--json"),
                        environment, BuildPaths::cudnnctl(), current);
        const QString path =
            QDir::fromNativeSeparators(outputJson(run).value(QStringLiteral("path")).toString());
        if (cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows)
            QFile::remove(path);
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QCOMPARE(path, downloads + QLatin1Char('/') + kFile);
        QCOMPARE(QDir(current).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
    }

    void sourceWithoutTheFile()
    {
        QTemporaryDir work;
        testtools::LoopbackHttpServer server;
        const CudnnctlRun run = runCudnnctl(downloadArguments(server, work.path(), QString()).mid(0, 11)
                                            << QStringLiteral("--json"));
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(findingIds(outputJson(run)), QStringList{QStringLiteral("download.not-found")});
        QVERIFY(QDir(work.path()).entryList(QDir::Files).isEmpty());
        const CudnnctlRun usage = runCudnnctl({QStringLiteral("download"), QStringLiteral("--source"),
                                               work.filePath(QStringLiteral("missing"))});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY2(usage.err.contains("cannot be found"), usage.err);
    }
};

CUDNNSETUP_TEST_MAIN(TestCudnnctlDownload)
#include "tst_cudnnctl_download.moc"
