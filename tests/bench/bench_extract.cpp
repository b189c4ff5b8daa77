// Times what installing an archive costs, as `cudnnctl install` reads it: the quick inspection
// (central directory, safety rules, every DLL's PE headers, the version header) and the extraction
// (every entry inflated, its CRC checked, its SHA-256 recorded, written to a staging folder; the
// archive's own SHA-256 taken beside it), together, as a user waits for them. The flush to disk an
// install does before committing is timed apart.
//
// Peer tools (--peer 'bsdtar -xf "$ARCHIVE" -C "$OUT"', repeatable) are timed in the same run, each
// run into a fresh $OUT, and compared with inspect + extract together.
//
// usage: bench_extract ARCHIVE.zip [--runs N] [--workers N] [--backend quazip|minizip] [--out DIR]
//                      [--peer COMMAND]...
#include "BenchRuns.h"
#include "archive/ArchiveInspector.h"
#include "archive/Extractor.h"
#include "compat/KnowledgeBase.h"
#include "platform/DiskFlush.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>

using namespace cudnnsetup;

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
    const int runs = take(QStringLiteral("--runs"), QStringLiteral("3")).toInt();
    const int workers = take(QStringLiteral("--workers"), QStringLiteral("0")).toInt();
    const QString backendName = take(QStringLiteral("--backend"), QString());
    const QString outFolder = take(QStringLiteral("--out"), QString());
    QStringList peers;
    for (QString peer = take(QStringLiteral("--peer"), QString()); !peer.isEmpty();
         peer = take(QStringLiteral("--peer"), QString()))
        peers.append(peer);
    if (arguments.size() != 1 || runs < 1) {
        err << "usage: bench_extract ARCHIVE.zip [--runs N] [--workers N] [--backend quazip|minizip] [--out "
               "DIR] [--peer COMMAND]...\n";
        return 2;
    }
    const QString archive = arguments.first();
    InspectOptions inspectOptions;
    inspectOptions.verifyData = false;
    inspectOptions.hashArchive = false;
    ExtractOptions extractOptions;
    extractOptions.workers = workers;
    extractOptions.hashArchive = true;
    for (const ZipSource::Backend backend : ZipSource::backends()) {
        if (ZipSource::backendName(backend) == backendName) {
            inspectOptions.backend = backend;
            extractOptions.backend = backend;
        }
    }
    QTemporaryDir scratch(outFolder.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench-extract-XXXXXX")
                                              : outFolder + QStringLiteral("/bench-extract-XXXXXX"));

    QList<double> inspectSeconds;
    QList<double> extractSeconds;
    QList<double> totalSeconds;
    QList<double> flushSeconds;
    for (int run = 0; run < runs; ++run) {
        const QString staging = scratch.path() + QStringLiteral("/staging-%1").arg(run);
        QElapsedTimer clock;
        clock.start();
        const auto report =
            inspectArchive(archive, KnowledgeBase::embedded().publishedArchives(), inspectOptions);
        if (!report || report->verdict != ArchiveReport::Verdict::Ok) {
            err << "inspection failed: "
                << (report ? report->verdictName() : report.error().message.toEnglish()) << '\n';
            return 1;
        }
        const qint64 inspected = clock.nsecsElapsed();
        const auto extraction = extractArchive(archive, report->files, staging, extractOptions);
        if (!extraction) {
            err << "extraction failed: " << extraction.error().message.toEnglish() << ' '
                << extraction.error().details << '\n';
            return 1;
        }
        const qint64 done = clock.nsecsElapsed();
        QElapsedTimer flushClock;
        flushClock.start();
        for (const ExtractedFile &file : extraction->files)
            flushFileToDisk(staging + QLatin1Char('/') + file.path);
        flushSeconds.append(flushClock.nsecsElapsed() / 1e9);
        inspectSeconds.append(inspected / 1e9);
        extractSeconds.append((done - inspected) / 1e9);
        totalSeconds.append(done / 1e9);
        out << QStringLiteral(
                   "run %1: inspect %2 s, extract %3 s, total %4 s (%5 files, %6 bytes), flush %7 s\n")
                   .arg(run + 1)
                   .arg(inspected / 1e9, 0, 'f', 3)
                   .arg((done - inspected) / 1e9, 0, 'f', 3)
                   .arg(done / 1e9, 0, 'f', 3)
                   .arg(extraction->files.size())
                   .arg(extraction->bytesWritten)
                   .arg(flushSeconds.last(), 0, 'f', 3);
        out.flush();
        QDir(staging).removeRecursively();
    }
    const double total = bench::median(totalSeconds);
    const long ownPeakKiB = bench::peakRssKiB();
    out << QStringLiteral("median: inspect %1 s, extract %2 s, total %3 s; flush %4 s; peak RSS %5 MiB\n")
               .arg(bench::median(inspectSeconds), 0, 'f', 3)
               .arg(bench::median(extractSeconds), 0, 'f', 3)
               .arg(total, 0, 'f', 3)
               .arg(bench::median(flushSeconds), 0, 'f', 3)
               .arg(ownPeakKiB / 1024.0, 0, 'f', 1);

    // Each peer unpacks the same archive into a fresh folder of the same volume.
    for (const QString &peer : peers) {
        QList<double> peerSeconds;
        for (int run = 0; run < runs; ++run) {
            const QString target = scratch.path() + QStringLiteral("/peer-%1").arg(run);
            QDir().mkpath(target);
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("ARCHIVE"), QFileInfo(archive).absoluteFilePath());
            environment.insert(QStringLiteral("OUT"), target);
            peerSeconds.append(
                bench::timeRun(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), peer}, environment, 0) /
                1e3);
            QDir(target).removeRecursively();
        }
        const double peerMedian = bench::median(peerSeconds);
        out << QStringLiteral("peer %1\n  median %2 s; inspect + extract take %3x its time\n")
                   .arg(peer)
                   .arg(peerMedian, 0, 'f', 3)
                   .arg(total / std::max(peerMedian, 1e-6), 0, 'f', 2);
    }
    if (!peers.isEmpty())
        out << QStringLiteral("peak RSS of the largest peer process: %1 MiB\n")
                   .arg(bench::peakRssKiB(true) / 1024.0, 0, 'f', 1);
    return 0;
}
