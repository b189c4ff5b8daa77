#include "download/ArchiveDownload.h"

#include "common/Logging.h"
#include "common/Sizes.h"
#include "compat/ArchiveName.h"
#include "download/DownloadFindings.h"
#include "platform/DurableFiles.h"
#include "platform/HttpTransfer.h"
#include "platform/Sha256.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace cudnnsetup {

namespace {

QString checksumFromName(DownloadPlan::ChecksumFrom from)
{
    return from == DownloadPlan::ChecksumFrom::BuiltIn ? QStringLiteral("built-in")
                                                       : QStringLiteral("source");
}

// Bytes per second over the last few seconds, and the time left at that pace.
class TransferPace
{
public:
    DownloadProgress update(qint64 done, qint64 total)
    {
        const qint64 now = m_clock.isValid() ? m_clock.elapsed() : (m_clock.start(), 0);
        m_samples.push_back({now, done});
        while (m_samples.size() > 2 && now - m_samples.front().first > 3000)
            m_samples.pop_front();
        DownloadProgress progress;
        progress.done = done;
        progress.total = total;
        const auto &[firstTime, firstDone] = m_samples.front();
        if (now - firstTime >= 200 && done > firstDone) {
            progress.bytesPerSecond = double(done - firstDone) * 1000.0 / double(now - firstTime);
            if (total >= done)
                progress.secondsLeft = qint64(double(total - done) / progress.bytesPerSecond + 0.5);
        }
        return progress;
    }

private:
    QElapsedTimer m_clock;
    std::deque<std::pair<qint64, qint64>> m_samples;
};

// Copies `from` (a folder source's file) into `file` from `offset` on, as fetchInto does.
TransferResult copyInto(const QString &from, QFile &file, qint64 offset,
                        const HttpTransfer::Callbacks &callbacks, const CancelToken &cancel)
{
    TransferResult result;
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly) || (offset > 0 && !source.seek(offset))) {
        result.failure = TransferFailure::Offline;
        result.detail = source.errorString();
        return result;
    }
    result.totalSize = source.size();
    result.rangeHonoured = true;
    qint64 inFile = offset;
    ReusableBuffers buffers(4 << 20);
    for (;;) {
        if (cancel.requested()) {
            result.failure = TransferFailure::Cancelled;
            return result;
        }
        QByteArray &buffer = buffers.free();
        const qint64 read = source.read(buffer.data(), buffer.size());
        if (read < 0) {
            result.failure = TransferFailure::Dropped;
            result.detail = source.errorString();
            return result;
        }
        if (read == 0)
            break;
        if (file.write(buffer.constData(), read) != read) {
            result.failure = TransferFailure::WriteFailed;
            result.detail = file.errorString();
            return result;
        }
        result.bytesWritten += read;
        inFile += read;
        callbacks.onData(buffer, read);
        callbacks.onProgress(inFile, *result.totalSize);
    }
    if (!file.flush()) {
        result.failure = TransferFailure::WriteFailed;
        result.detail = file.errorString();
    }
    return result;
}

// Gives what `path` holds (an earlier part, a file under the final name) to `add` as fetchInto's
// onData does; false when it cannot be read.
bool readFileInto(const std::function<void(const QByteArray &, qint64)> &add, const QString &path,
                  qint64 *size)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    ReusableBuffers buffers(4 << 20);
    *size = 0;
    for (;;) {
        QByteArray &buffer = buffers.free();
        const qint64 read = file.read(buffer.data(), buffer.size());
        if (read <= 0)
            break;
        add(buffer, read);
        *size += read;
    }
    return true;
}

// SHA-256 on a thread of its own, so that hashing overlaps receiving and writing: on the thread
// that writes, they took turns, and 700 MB took 1.7 times curl's time. add() queues a copy of the
// buffer, not the bytes (at most 16 MB wait; a slower hash holds the writer back), hex() waits for
// the queue.
class HashingThread
{
public:
    HashingThread()
        : m_thread([this] { run(); })
    {
    }
    ~HashingThread() { finish(); }
    HashingThread(const HashingThread &) = delete;
    HashingThread &operator=(const HashingThread &) = delete;

    void add(const QByteArray &buffer, qint64 size)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_room.wait(lock, [this] { return m_queued < (16 << 20); });
        m_queue.emplace_back(buffer, size);
        m_queued += size;
        m_ready.notify_one();
    }
    QString hex()
    {
        finish();
        return m_hex;
    }

private:
    void run()
    {
        Sha256 hash;
        for (;;) {
            std::pair<QByteArray, qint64> next;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_ready.wait(lock, [this] { return !m_queue.empty() || m_finishing; });
                if (m_queue.empty())
                    break;
                next = std::move(m_queue.front());
                m_queue.pop_front();
                m_queued -= next.second;
                m_room.notify_one();
            }
            hash.add(next.first.constData(), next.second);
        }
        m_hex = hash.hex();
    }
    void finish()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_finishing = true;
            m_ready.notify_one();
        }
        if (m_thread.joinable())
            m_thread.join();
    }

    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_room;
    std::deque<std::pair<QByteArray, qint64>> m_queue;
    qint64 m_queued = 0;
    bool m_finishing = false;
    QString m_hex;
    std::thread m_thread; // last: it starts once the members above exist
};

// Whether the bytes hashed to `digest` are the planned file.
bool matchesPlan(const DownloadPlan &plan, const QString &digest, qint64 size)
{
    return digest == plan.sha256 && (plan.size < 0 || size == plan.size);
}

// A file already under the final name: kept when it is the archive (true), replaced only by one
// that is.
bool keepPresentArchive(DownloadReport &report, const QString &finalPath)
{
    qint64 size = 0;
    Sha256 hash;
    const auto add = [&](const QByteArray &buffer, qint64 read) { hash.add(buffer.constData(), read); };
    if (readFileInto(add, finalPath, &size) && matchesPlan(report.plan, hash.hex(), size)) {
        report.alreadyPresent = true;
        report.path = finalPath;
        return true;
    }
    report.findings.append(Finding::warning(
        QStringLiteral("download.replacing-damaged"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 is there already but is not NVIDIA's file (its checksum differs); it is "
                               "replaced once the download is checked."))
            .arg(QDir::toNativeSeparators(finalPath))));
    return false;
}

// What an earlier run left: continued when it can still be the start of the file. The hash holds
// what `inPart` bytes of it hashed to.
std::unique_ptr<HashingThread> resumePart(const QString &partPath, const DownloadPlan &plan, qint64 *inPart)
{
    auto hash = std::make_unique<HashingThread>();
    if (QFileInfo(partPath).isFile()) {
        const auto add = [&](const QByteArray &buffer, qint64 read) { hash->add(buffer, read); };
        if (!readFileInto(add, partPath, inPart) || (plan.size >= 0 && *inPart > plan.size)) {
            durable::discard(partPath);
            hash = std::make_unique<HashingThread>();
            *inPart = 0;
        }
    }
    return hash;
}

// Fetches or copies into `part`, connecting again after a dropped connection, at most
// request.attempts times; `hash` takes the bytes as they arrive.
TransferResult transferWithRetries(const DownloadRequest &request, const DownloadPlan &plan, QFile &part,
                                   std::unique_ptr<HashingThread> &hash, int *attempts)
{
    TransferPace pace;
    HttpTransfer::Callbacks callbacks;
    callbacks.onData = [&](const QByteArray &buffer, qint64 size) { hash->add(buffer, size); };
    callbacks.onRestart = [&] { hash = std::make_unique<HashingThread>(); };
    callbacks.onProgress = [&](qint64 inFile, qint64 total) {
        if (request.progress)
            request.progress(pace.update(inFile, total >= 0 ? total : plan.size));
    };
    const HttpTransfer transfer({HttpTransfer::certificatesFromFile(request.caFile), request.source.base,
                                 request.stallTimeoutMs, request.stallTimeoutMs, request.cancel.asked()});
    TransferResult result;
    for (int attempt = 1;; ++attempt) {
        *attempts = attempt;
        const qint64 offset = part.size();
        result = plan.url.isEmpty() ? copyInto(plan.hostPath, part, offset, callbacks, request.cancel)
                                    : transfer.fetchInto(plan.url, part, offset, callbacks);
        // Asked for bytes past the end: the part may hold the whole file already.
        if (result.httpStatus == 416 && offset > 0 && (plan.size < 0 || offset == plan.size)) {
            result = TransferResult();
            break;
        }
        if (result.ok() || result.failure != TransferFailure::Dropped || attempt >= request.attempts)
            break;
        qCInfo(lcCore) << "download of" << plan.fileName << "dropped at" << part.size() << "bytes, attempt"
                       << attempt << ":" << result.detail;
        QElapsedTimer waited;
        waited.start();
        const qint64 delay = qint64(request.retryDelayMs) << qMin(attempt - 1, 5);
        while (waited.elapsed() < delay && !request.cancel.requested())
            QThread::msleep(20);
    }
    return result;
}

// The downloaded bytes are not the planned file.
Finding checksumMismatchFinding(const DownloadPlan &plan, const QString &where, const QString &digest,
                                qint64 inFile)
{
    return Finding::error(
        QStringLiteral("download.checksum-mismatch"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "What %1 sent is not the file it should be: its checksum or size differs. "
                               "It was deleted."))
            .arg(where),
        QStringLiteral("expected sha256 %1 (%2), size %3\ngot sha256 %4, size %5")
            .arg(plan.sha256, checksumFromName(plan.checksumFrom))
            .arg(plan.size)
            .arg(digest)
            .arg(inFile),
        otherSourceAdvice());
}

} // namespace

QJsonObject DownloadReport::toJson() const
{
    QJsonObject source{{QStringLiteral("kind"), request.source.kind == ArchiveSource::Kind::Folder
                                                    ? QStringLiteral("folder")
                                                : request.source.isNvidia() ? QStringLiteral("nvidia")
                                                                            : QStringLiteral("mirror")},
                       {QStringLiteral("location"), request.source.location()}};
    QJsonArray findingsJson;
    for (const Finding &finding : findings)
        findingsJson.append(finding.toJson());
    return QJsonObject{
        {QStringLiteral("schema"), QString::fromLatin1(kSchema)},
        {QStringLiteral("ok"), ok()},
        {QStringLiteral("file"), plan.fileName.isEmpty() ? QJsonValue() : QJsonValue(plan.fileName)},
        {QStringLiteral("path"), path.isEmpty() ? QJsonValue() : QJsonValue(QDir::toNativeSeparators(path))},
        {QStringLiteral("platform"), request.platform},
        {QStringLiteral("cudnn"), (plan.cudnn.isValid() ? plan.cudnn : request.cudnn).toString()},
        {QStringLiteral("cuda"),
         plan.cudaVariant.isEmpty() ? QString::number(request.cudaMajor) : plan.cudaVariant},
        {QStringLiteral("size"), plan.size >= 0 ? QJsonValue(double(plan.size)) : QJsonValue()},
        {QStringLiteral("sha256"), plan.sha256.isEmpty() ? QJsonValue() : QJsonValue(plan.sha256)},
        {QStringLiteral("checksumFrom"),
         plan.sha256.isEmpty() ? QJsonValue() : QJsonValue(checksumFromName(plan.checksumFrom))},
        {QStringLiteral("source"), source},
        {QStringLiteral("from"), !plan.url.isEmpty() ? QJsonValue(plan.url.toDisplayString())
                                 : !plan.hostPath.isEmpty()
                                     ? QJsonValue(QDir::toNativeSeparators(plan.hostPath))
                                     : QJsonValue()},
        {QStringLiteral("alreadyPresent"), alreadyPresent},
        {QStringLiteral("resumedFrom"), double(resumedFrom)},
        {QStringLiteral("attempts"), attempts},
        {QStringLiteral("findings"), findingsJson},
    };
}

std::optional<DownloadRequest> requestForArchive(const QString &fileName)
{
    const auto name = ArchiveName::parse(fileName);
    if (!name || !name->modernNaming)
        return std::nullopt;
    DownloadRequest request;
    request.platform = name->platform;
    request.cudnn = name->cudnn;
    request.cudaMajor = name->cudaMajor();
    return request;
}

QString defaultDownloadFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
}

DownloadReport downloadArchive(const DownloadRequest &request, const KnowledgeBase &knowledge)
{
    DownloadReport report;
    report.request = request;
    auto plan = planDownload(request, knowledge);
    if (!plan) {
        report.findings.append(plan.error());
        return report;
    }
    report.plan = *plan;
    report.findings = plan->findings;
    const QString where =
        plan->url.isEmpty() ? QDir::toNativeSeparators(plan->hostPath) : plan->url.toDisplayString();

    if (!QDir().mkpath(request.outFolder)) {
        report.findings.append(
            Finding::error(QStringLiteral("download.write-failed"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be written."))
                               .arg(QDir::toNativeSeparators(request.outFolder))));
        return report;
    }
    const QString finalPath = QDir(request.outFolder).filePath(plan->fileName);
    const QString partPath = finalPath + QStringLiteral(".part");

    if (QFileInfo(finalPath).isFile() && keepPresentArchive(report, finalPath))
        return report;

    qint64 inPart = 0;
    std::unique_ptr<HashingThread> hash = resumePart(partPath, *plan, &inPart);
    report.resumedFrom = inPart;

    const qint64 free = Volumes().freeBytes(request.outFolder);
    if (plan->size >= 0 && free >= 0 && free < plan->size - inPart) {
        report.findings.append(
            Finding::error(QStringLiteral("download.disk-full"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has %2 free; the archive needs %3 more."))
                               .arg(QDir::toNativeSeparators(request.outFolder), shownSize(free),
                                    shownSize(plan->size - inPart)),
                           {},
                           Text(QT_TRANSLATE_NOOP(
                               "cudnnsetup", "Free space on that drive, or download into another folder."))));
        return report;
    }

    QFile part(partPath);
    // Unbuffered: what arrived is on disk at once, for the run after a killed one to continue from.
    if (!part.open(QIODevice::ReadWrite | QIODevice::Append | QIODevice::Unbuffered)) {
        report.findings.append(
            Finding::error(QStringLiteral("download.write-failed"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be written."))
                               .arg(QDir::toNativeSeparators(partPath)),
                           part.errorString()));
        return report;
    }
    const TransferResult result = transferWithRetries(request, *plan, part, hash, &report.attempts);
    const qint64 inFile = part.size();
    part.close();
    if (!result.ok()) {
        if (inFile == 0)
            durable::discard(partPath); // nothing to continue from
        report.findings.append(transferFinding(result, where, partPath, inFile, plan->size));
        return report;
    }
    const QString digest = hash->hex();
    if (!matchesPlan(*plan, digest, inFile)) {
        // Wrong bytes cannot be continued from: the part goes, and the next try starts over.
        durable::discard(partPath);
        report.findings.append(checksumMismatchFinding(*plan, where, digest, inFile));
        return report;
    }
    // A plain rename, not a durable one: flushing 700 MB to disk first takes seconds, and the
    // archive's checksum is taken again whenever it is inspected or installed, so a file a power cut
    // left short is refused then.
    QFile::remove(finalPath); // a damaged copy, said above
    if (QFile renamed(partPath); !renamed.rename(finalPath)) {
        report.findings.append(
            Finding::error(QStringLiteral("download.write-failed"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be written."))
                               .arg(QDir::toNativeSeparators(finalPath)),
                           renamed.errorString()));
        return report;
    }
    report.path = finalPath;
    qCInfo(lcCore) << "downloaded" << plan->fileName << "from" << where << inFile << "bytes in"
                   << report.attempts << "attempt(s), resumed from" << report.resumedFrom;
    return report;
}

} // namespace cudnnsetup