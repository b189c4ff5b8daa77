#include "archive/Extractor.h"

#include "archive/ArchiveHasher.h"
#include "archive/TarSource.h"
#include "common/Logging.h"
#include "platform/DurableFiles.h"
#include "platform/Sha256.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QThread>

#include <algorithm>
#include <array>
#include <atomic>
#include <future>
#include <optional>
#include <thread>

namespace cudnnsetup {

namespace {

// Large enough that per-call overheads vanish, small enough for two per worker in 64 MiB.
constexpr qint64 kBufferBytes = 4 << 20;
constexpr qint64 kProgressIntervalMs = 100;

// The staging folder and the folders above it that were made for it (deepest first), each of
// those only while it is empty: nothing this extraction made stays behind.
void removeStaging(const QString &staging, const QStringList &madeParents)
{
    durable::discardTree(staging);
    for (const QString &folder : madeParents) {
        if (!QDir().rmdir(folder))
            break;
    }
}

// The folders above `folder` that do not exist yet, deepest first.
QStringList missingParents(const QString &folder)
{
    QStringList missing;
    QString path = QFileInfo(folder).absolutePath();
    while (!QFileInfo::exists(path)) {
        missing.append(path);
        const QString parent = QFileInfo(path).absolutePath();
        if (parent == path)
            break;
        path = parent;
    }
    return missing;
}

class ExtractionRun
{
public:
    ExtractionRun(const QString &archivePath, const QList<ArchiveFile> &files, const QString &staging,
                  const QStringList &madeParents, const ExtractOptions &options)
        : m_archivePath(archivePath)
        , m_files(files + options.checkOnly)
        , m_written(int(files.size()))
        , m_staging(staging)
        , m_madeParents(madeParents)
        , m_options(options)
        , m_results(files.size())
    {
        for (const ArchiveFile &file : m_files)
            m_bytesTotal += file.size;
        // Largest first: the big DLLs start at once, the small files fill the gaps at the end.
        for (int i = 0; i < m_files.size(); ++i)
            m_order.append(i);
        std::sort(m_order.begin(), m_order.end(),
                  [&](int a, int b) { return m_files.at(a).size > m_files.at(b).size; });
    }

    Expected<Extraction> run()
    {
        m_clock.start();
        const ZipSource::Backend backend = m_options.backend.value_or(ZipSource::backends().first());
        int workers =
            m_options.workers > 0 ? m_options.workers : std::clamp(QThread::idealThreadCount(), 1, 2);
        workers = std::max(1, std::min(workers, int(m_files.size())));
        // A tar is read front to back: one worker, in the archive's order, reads it once.
        if (looksLikeTar(m_archivePath)) {
            workers = 1;
            std::sort(m_order.begin(), m_order.end(),
                      [&](int a, int b) { return m_files.at(a).entry < m_files.at(b).entry; });
        }

        std::vector<std::thread> threads;
        for (int i = 0; i < workers; ++i)
            threads.emplace_back([this, backend] { work(backend); });
        if (m_options.hashArchive)
            threads.emplace_back([this] { hashArchive(); });
        for (std::thread &thread : threads)
            thread.join();

        if (!m_error && m_options.cancelled && m_options.cancelled())
            failCancelled();
        if (m_error) {
            removeStaging(m_staging, m_madeParents);
            return *m_error;
        }
        Extraction extraction;
        extraction.stagingFolder = m_staging;
        extraction.files = m_results;
        extraction.bytesWritten = m_bytesWritten.load();
        extraction.archiveSha256 = m_archiveSha256;
        qCInfo(lcCore) << "extracted" << m_written << "files," << extraction.bytesWritten
                       << "bytes, and checked" << m_files.size() - m_written << "more, in"
                       << m_clock.elapsed() << "ms with" << workers << "workers";
        return extraction;
    }

private:
    // A cancel is recorded when a worker sees it: a callback that says so only once still stops
    // the extraction, instead of letting it end "done" with the files it skipped missing.
    bool stopping()
    {
        if (m_failed.load())
            return true;
        if (m_options.cancelled && m_options.cancelled()) {
            failCancelled();
            return true;
        }
        return false;
    }

    void failCancelled()
    {
        fail(Finding::error(QStringLiteral("archive.cancelled"),
                            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Reading the archive was cancelled."))));
    }

    void fail(const Finding &problem)
    {
        QMutexLocker lock(&m_mutex);
        if (!m_error)
            m_error = problem;
        m_failed.store(true);
    }

    void work(ZipSource::Backend backend)
    {
        auto source = ZipSource::open(m_archivePath, backend);
        if (!source) {
            // It was a sound zip when it was inspected: one that is no zip now was replaced or cut.
            if (source.error().id == QLatin1String("archive.unreadable"))
                fail(source.error());
            else
                fail(changedFinding(QStringLiteral("%1: %2").arg(source.error().id, source.error().details)));
            return;
        }
        if (const std::optional<Finding> changed = changedSinceInspection(**source)) {
            fail(*changed);
            return;
        }
        std::array<QByteArray, 2> buffers{QByteArray(kBufferBytes, Qt::Uninitialized),
                                          QByteArray(kBufferBytes, Qt::Uninitialized)};
        for (;;) {
            const int slot = m_next.fetch_add(1);
            if (slot >= m_order.size() || stopping())
                return;
            const int index = m_order.at(slot);
            if (!extractOne(**source, index, buffers, index < m_written ? &m_results[index] : nullptr))
                return;
            m_filesDone.fetch_add(1);
            report(true);
        }
    }

    // One sequential read of the file: the workers' reads jump between entries.
    void hashArchive()
    {
        ArchiveHasher hasher(m_archivePath);
        const Expected<QString> digest = hasher.finish([this] { return stopping(); });
        if (!digest) {
            if (digest.error().id != QLatin1String("archive.cancelled"))
                fail(digest.error());
            return;
        }
        m_archiveSha256 = *digest;
    }

    // Every entry must be as the inspection saw it: the CRCs checked while unpacking are the
    // central directory's, so they vouch for the inspected archive only if that is unchanged.
    std::optional<Finding> changedSinceInspection(const ZipSource &source) const
    {
        const QList<ZipEntry> &entries = source.entries();
        for (const ArchiveFile &file : m_files) {
            if (file.entry < 0 || file.entry >= entries.size() ||
                entries.at(file.entry).uncompressedSize != file.size ||
                entries.at(file.entry).crc32 != file.crc32) {
                return changedFinding(QStringLiteral("entry %1 (%2)").arg(file.entry).arg(file.path));
            }
        }
        return std::nullopt;
    }

    static Finding changedFinding(const QString &details)
    {
        return Finding::error(
            QStringLiteral("archive.changed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive changed after it was checked; it is not "
                                                 "used. Choose it again to check it anew.")),
            details);
    }

    // Writes the entry to the staging folder and fills `result`; without a result, only inflates it
    // and checks its CRC. Hashing and writing a block overlap with inflating the next (two buffers
    // in turn), so the largest entry, which bounds the whole extraction, costs little more than
    // its inflation.
    bool extractOne(ZipSource &source, int index, std::array<QByteArray, 2> &buffers, ExtractedFile *result)
    {
        const bool write = result != nullptr;
        const ArchiveFile &file = m_files.at(index);
        auto stream = source.openEntry(file.entry);
        if (!stream) {
            fail(stream.error());
            return false;
        }
        const QString target = m_staging + QLatin1Char('/') + stagedPath(index, file.path);
        QFile out(target);
        // NewOnly: a name that is already there (a collision the safety rules missed) is an error,
        // never an overwrite.
        if (write && !out.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
            writeFailed(target, out.errorString());
            return false;
        }
        Sha256 hash;
        std::future<bool> written; // the block before, hashed and written meanwhile
        const auto previousWritten = [&] {
            if (!written.valid() || written.get())
                return true;
            writeFailed(target, out.errorString());
            return false;
        };
        for (int turn = 0;; turn ^= 1) {
            QByteArray &buffer = buffers.at(size_t(turn));
            if (stopping()) {
                if (written.valid())
                    written.wait();
                return false;
            }
            const qint64 got = (*stream)->read(buffer.data(), buffer.size());
            if (got < 0) {
                fail(Finding::error(
                    QStringLiteral("archive.corrupt"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "\"%1\" cannot be unpacked: the archive "
                                                         "is damaged or incomplete."))
                        .arg(file.path),
                    (*stream)->errorString()));
                if (written.valid())
                    written.wait();
                return false;
            }
            if (!previousWritten())
                return false;
            if (got == 0)
                break;
            m_bytesDone.fetch_add(got);
            report(false);
            if (!write)
                continue;
            written = std::async(std::launch::async, [this, &hash, &out, &buffer, got] {
                hash.add(buffer.constData(), got);
                if (out.write(buffer.constData(), got) != got)
                    return false;
                m_bytesWritten.fetch_add(got);
                return true;
            });
        }
        if (!(*stream)->crcMatches()) {
            fail(Finding::error(QStringLiteral("archive.crc-mismatch"),
                                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The data of \"%1\" does not match its "
                                                                     "checksum: the archive is damaged."))
                                    .arg(file.path)));
            return false;
        }
        if (!write)
            return true;
        if (!out.flush()) {
            writeFailed(target, out.errorString());
            return false;
        }
        *result = {stagedPath(index, file.path), out.size(), hash.hex()};
        return true;
    }

    void writeFailed(const QString &target, const QString &why)
    {
        fail(Finding::error(QStringLiteral("extract.write-failed"),
                            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be written. Is the disk full?"))
                                .arg(QDir::toNativeSeparators(target)),
                            why));
    }

    // At most every kProgressIntervalMs, and always when a file is done.
    void report(bool fileDone)
    {
        if (!m_options.progress)
            return;
        const qint64 now = m_clock.elapsed();
        qint64 last = m_lastReportMs.load();
        if (!fileDone && now - last < kProgressIntervalMs)
            return;
        if (!m_lastReportMs.compare_exchange_strong(last, now) && !fileDone)
            return;
        // One call at a time, whichever worker makes it. The counts are read inside the lock, so a
        // worker that waited for it never reports less than the one before: they only grow.
        QMutexLocker lock(&m_progressMutex);
        const qint64 elapsed = m_clock.elapsed();
        ExtractionProgress progress;
        progress.bytesDone = m_bytesDone.load();
        progress.bytesTotal = m_bytesTotal;
        progress.filesDone = m_filesDone.load();
        progress.filesTotal = int(m_files.size());
        if (progress.bytesDone > 0 && elapsed > 500)
            progress.secondsLeft = double(elapsed) / 1000.0 * double(m_bytesTotal - progress.bytesDone) /
                                   double(progress.bytesDone);
        m_options.progress(progress);
    }

    const QString m_archivePath;
    const QList<ArchiveFile> m_files; // those written first, then those only checked
    const int m_written;
    const QString m_staging;
    const QStringList m_madeParents;
    const ExtractOptions &m_options;
    QList<int> m_order;
    QList<ExtractedFile> m_results;
    qint64 m_bytesTotal = 0;
    std::atomic<int> m_next{0};
    std::atomic<qint64> m_bytesDone{0}; // inflated, written or only checked
    std::atomic<qint64> m_bytesWritten{0};
    std::atomic<int> m_filesDone{0};
    std::atomic<qint64> m_lastReportMs{0};
    std::atomic<bool> m_failed{false};
    QMutex m_mutex;
    QMutex m_progressMutex;
    std::optional<Finding> m_error;
    QString m_archiveSha256;
    QElapsedTimer m_clock;
};

} // namespace

QString stagedPath(int index, const QString &archivePath)
{
    return QString::number(index) + QLatin1Char('-') + archivePath.section(QLatin1Char('/'), -1);
}

Expected<Extraction> extractArchive(const QString &archivePath, const QList<ArchiveFile> &files,
                                    const QString &stagingFolder, const ExtractOptions &options)
{
    if (QFileInfo::exists(stagingFolder)) {
        return Finding::error(
            QStringLiteral("extract.staging-exists"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The staging folder %1 exists already; it is "
                                                 "left as it is."))
                .arg(QDir::toNativeSeparators(stagingFolder)));
    }
    // Every folder first, so the workers only create files.
    const QStringList madeParents = missingParents(stagingFolder);
    QDir dir;
    const auto cannotCreate = [&](const QString &folder) {
        removeStaging(stagingFolder, madeParents);
        return Finding::error(QStringLiteral("extract.write-failed"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be written. Is the disk full?"))
                                  .arg(QDir::toNativeSeparators(folder)),
                              QStringLiteral("mkpath failed"));
    };
    if (!dir.mkpath(stagingFolder))
        return cannotCreate(stagingFolder);
    return ExtractionRun(archivePath, files, stagingFolder, madeParents, options).run();
}

} // namespace cudnnsetup
