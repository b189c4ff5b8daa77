// Times `cudnnctl download` of an archive the size of NVIDIA's largest Windows zip (700 MB by
// default) from a mirror on 127.0.0.1 in NVIDIA's layout, its manifest beside it, the SHA-256
// check and the rename included, against peers fetching the same URL from the same server in the
// same run (default: curl, when installed). The server is a process of its own, as a mirror is:
// Python's http.server (python3, or $PYTHON).
//
// Peers get $URL and $OUT (a fresh folder) in their environment. The default peers are curl alone
// and curl followed by sha256sum (the same work: fetched, then checked). The bench also times the
// SHA-256 of the archive alone, in this process from the page cache: SHA-256 cannot be split over
// cores, so no download that checks the hash can finish sooner than that, whatever curl does.
//
// usage: bench_download [--size MB] [--runs N] [--dir DIR] [--peer COMMAND]...
#include "BenchRuns.h"
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "platform/DiskFlush.h"
#include "platform/Sha256.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

#include <algorithm>

namespace {

// `megabytes` of bytes that do not compress (the archives are compressed), written once.
bool writeArchive(const QString &path, qint64 megabytes, QString *sha256)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    cudnnsetup::Sha256 hash;
    QByteArray block(1 << 20, Qt::Uninitialized);
    quint64 state = 20261203;
    for (qint64 written = 0; written < megabytes; ++written) {
        auto *words = reinterpret_cast<quint64 *>(block.data());
        for (int i = 0; i < block.size() / 8; ++i) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            words[i] = state;
        }
        hash.add(block);
        if (file.write(block) != block.size())
            return false;
    }
    *sha256 = hash.hex();
    file.close();
    // On disk before anything is timed: its writeback would otherwise slow whichever run comes first.
    return cudnnsetup::flushFileToDisk(path);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStringList arguments = QCoreApplication::arguments().mid(1);
    QTextStream out(stdout);
    QTextStream err(stderr);
    const auto take = [&](const QString &option, const QString &fallback) {
        const qsizetype at = arguments.indexOf(option);
        if (at < 0 || at + 1 >= arguments.size())
            return fallback;
        const QString value = arguments.at(at + 1);
        arguments.remove(at, 2);
        return value;
    };
    const qint64 megabytes = take(QStringLiteral("--size"), QStringLiteral("700")).toLongLong();
    const int runs = take(QStringLiteral("--runs"), QStringLiteral("3")).toInt();
    const QString dir = take(QStringLiteral("--dir"), QDir::tempPath());
    QStringList peers;
    for (QString peer = take(QStringLiteral("--peer"), QString()); !peer.isEmpty();
         peer = take(QStringLiteral("--peer"), QString()))
        peers.append(peer);
    if (!arguments.isEmpty() || runs < 1 || megabytes < 1) {
        err << "usage: bench_download [--size MB] [--runs N] [--dir DIR] [--peer COMMAND]...\n";
        return 2;
    }
    if (peers.isEmpty() && !QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty()) {
        peers.append(QStringLiteral("curl -sS -o \"$OUT/archive.zip\" \"$URL\""));
        if (!QStandardPaths::findExecutable(QStringLiteral("sha256sum")).isEmpty())
            peers.append(QStringLiteral(
                "curl -sS -o \"$OUT/archive.zip\" \"$URL\" && sha256sum \"$OUT/archive.zip\" >/dev/null"));
    }

    QTemporaryDir scratch(dir + QStringLiteral("/bench-download-XXXXXX"));
    // A release the database knows: over plain http only a checksum built into the program is taken,
    // here the made archive's, from a database that takes it for NVIDIA's file.
    const QString version = QStringLiteral("9.10.0.56");
    const QString file = QStringLiteral("cudnn-windows-x86_64-%1_cuda12-archive.zip").arg(version);
    const QString archive = scratch.filePath(QStringLiteral("mirror/cudnn/windows-x86_64/") + file);
    QDir().mkpath(QFileInfo(archive).path());
    QString sha256;
    if (!writeArchive(archive, megabytes, &sha256)) {
        err << "cannot write " << archive << '\n';
        return 1;
    }
    QFile manifest(scratch.filePath(QStringLiteral("mirror/redistrib_9.10.0.json")));
    if (!manifest.open(QIODevice::WriteOnly) ||
        manifest.write(archives::redistManifest(version, file, sha256, megabytes << 20)) < 0)
        return 1;
    manifest.close();
    const QString database =
        archives::writeDatabaseKnowing(scratch.filePath(QStringLiteral("db.json")), {archive});
    QProcess server;
    server.setWorkingDirectory(scratch.filePath(QStringLiteral("mirror")));
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const QString python = qEnvironmentVariable("PYTHON", QStringLiteral("python3"));
    // Port 0: the system picks a free one, and the server prints it.
    server.start(python, {QStringLiteral("-c"),
                          QStringLiteral("import http.server, sys\n"
                                         "class Quiet(http.server.SimpleHTTPRequestHandler):\n"
                                         "    def log_message(self, *args): pass\n"
                                         "s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Quiet)\n"
                                         "print(s.server_address[1], flush=True)\n"
                                         "s.serve_forever()\n")});
    if (!server.waitForReadyRead(10000)) {
        err << "the loopback server (" << python << " http.server) did not start\n";
        return 1;
    }
    const QString base = QStringLiteral("http://127.0.0.1:%1/").arg(server.readLine().trimmed().toInt());
    out << QStringLiteral("%1 MB archive served from %2\n").arg(megabytes).arg(base);

    // Runs alternate (cudnnctl, then each peer), so that whatever the system does meanwhile (the
    // page cache, writeback of what the runs before wrote) falls on all of them alike.
    const QString url = base + QStringLiteral("cudnn/windows-x86_64/") + file;
    QList<double> ownSeconds;
    QList<double> hashSeconds;
    QList<QList<double>> peerSeconds(peers.size());
    for (int run = 0; run < runs; ++run) {
        const QString target = scratch.filePath(QStringLiteral("own-%1").arg(run));
        ownSeconds.append(
            bench::timeRun(BuildPaths::cudnnctl(),
                           {QStringLiteral("download"), QStringLiteral("--cudnn"), version,
                            QStringLiteral("--cuda"), QStringLiteral("12"), QStringLiteral("--platform"),
                            QStringLiteral("windows-x86_64"), QStringLiteral("--source"), base,
                            QStringLiteral("--out"), target, QStringLiteral("--compat-db"), database},
                           QProcessEnvironment::systemEnvironment(), 0) /
            1e3);
        if (cudnnsetup::Sha256::ofFile(target + QLatin1Char('/') + file) != sha256) {
            err << "the downloaded file is not the archive\n";
            return 1;
        }
        QDir(target).removeRecursively();
        QElapsedTimer hashing;
        hashing.start();
        if (cudnnsetup::Sha256::ofFile(archive) != sha256)
            return 1;
        hashSeconds.append(hashing.nsecsElapsed() / 1e9);
        out << QStringLiteral("run %1: cudnnctl download %2 s (SHA-256 alone %3 s)")
                   .arg(run + 1)
                   .arg(ownSeconds.last(), 0, 'f', 3)
                   .arg(hashSeconds.last(), 0, 'f', 3);
        for (int peer = 0; peer < peers.size(); ++peer) {
            const QString peerTarget = scratch.filePath(QStringLiteral("peer-%1").arg(run));
            QDir().mkpath(peerTarget);
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("URL"), url);
            environment.insert(QStringLiteral("OUT"), peerTarget);
            peerSeconds[peer].append(bench::timeRun(QStringLiteral("/bin/sh"),
                                                    {QStringLiteral("-c"), peers.at(peer)}, environment, 0) /
                                     1e3);
            QDir(peerTarget).removeRecursively();
            out << QStringLiteral(", peer %1 %2 s").arg(peer + 1).arg(peerSeconds[peer].last(), 0, 'f', 3);
        }
        out << '\n';
        out.flush();
    }
    const double own = bench::median(ownSeconds);
    const double hashOnly = bench::median(hashSeconds);
    out << QStringLiteral("median: cudnnctl download %1 s (%2 MB/s), checksum and rename included\n")
               .arg(own, 0, 'f', 3)
               .arg(megabytes / std::max(own, 1e-6), 0, 'f', 0);
    out << QStringLiteral("SHA-256 of the archive alone, one core: %1 s (%2 MB/s); cudnnctl download takes "
                          "%3x that floor\n")
               .arg(hashOnly, 0, 'f', 3)
               .arg(megabytes / std::max(hashOnly, 1e-6), 0, 'f', 0)
               .arg(own / std::max(hashOnly, 1e-6), 0, 'f', 2);
    for (int peer = 0; peer < peers.size(); ++peer) {
        const double peerMedian = bench::median(peerSeconds.at(peer));
        out << QStringLiteral(
                   "peer %1: %2\n  median %3 s; cudnnctl download takes %4x its time (goal: at most 1.1x)\n")
                   .arg(peer + 1)
                   .arg(peers.at(peer))
                   .arg(peerMedian, 0, 'f', 3)
                   .arg(own / std::max(peerMedian, 1e-6), 0, 'f', 2);
    }
    server.kill();
    server.waitForFinished();
    return 0;
}
