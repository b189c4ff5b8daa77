// `cudnnctl download` as a user runs it, against a mirror on 127.0.0.1: stopped halfway (the
// process killed, as a closed laptop or Ctrl+C stops it), then run again, which continues from the
// .part it left; the text and JSON it prints; a source without the file.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "LoopbackHttpServer.h"
#include "Suite.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kFile = QStringLiteral("cudnn-windows-x86_64-9.10.0.56_cuda12-archive.zip");

QStringList downloadArguments(const testtools::LoopbackHttpServer &server, const QString &out,
                              const QString &database)
{
    return {QStringLiteral("download"),
            QStringLiteral("--cudnn"),
            QStringLiteral("9.10.0"),
            QStringLiteral("--cuda"),
            QStringLiteral("12"),
            QStringLiteral("--platform"),
            QStringLiteral("windows-x86_64"),
            QStringLiteral("--source"),
            server.baseUrl().toString(),
            QStringLiteral("--out"),
            out,
            QStringLiteral("--compat-db"),
            database,
            QStringLiteral("--lang"),
            QStringLiteral("en")};
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
        const QString made = work.filePath(QStringLiteral("made/") + kFile);
        QDir().mkpath(QFileInfo(made).path());
        QFile madeFile(made);
        QVERIFY(madeFile.open(QIODevice::WriteOnly));
        madeFile.write(content);
        madeFile.close();
        const QString database =
            archives::writeDatabaseKnowing(work.filePath(QStringLiteral("db.json")), {made});
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
