#include "download/ArchiveDownload.h"

#include "common/Logging.h"
#include "common/Sizes.h"
#include "common/Surface.h"
#include "compat/ArchiveName.h"
#include "compat/KnowledgeBase.h"
#include "download/RedistManifest.h"
#include "platform/DurableFiles.h"
#include "platform/HttpTransfer.h"
#include "platform/Sha256.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
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

Text otherSourceAdvice()
{
    return surface() == Surface::Wizard
               ? Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup", "Choose another source under Download settings (a lab mirror or a shared "
                                   "folder), or get the archive another way and open it with Browse."))
               : Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Give another source with --source (a lab mirror or a shared folder), or get "
                     "the archive another way and check it with cudnnctl inspect."));
}

// What a transfer that stopped short means to the user, with what to do about it.
Finding transferFinding(const TransferResult &result, const QString &where, const QString &partPath,
                        qint64 partBytes, qint64 totalBytes)
{
    const QString details = result.detail;
    // A connection fails with a server, not with one file on it.
    const QUrl url(where);
    const QString server = url.host().isEmpty() ? where : url.host();
    switch (result.failure) {
    case TransferFailure::Offline:
        return Finding::error(
            QStringLiteral("download.offline"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be reached from this computer.")).arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check the internet connection and the proxy settings. %1"))
                .arg(otherSourceAdvice()));
    case TransferFailure::NotFound:
        return Finding::error(
            QStringLiteral("download.not-found"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not there (the server answered %2)."))
                .arg(where, QString::number(result.httpStatus)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The source may not have this release: choose another "
                                                 "version or another source.")));
    case TransferFailure::ProxyCredentials:
        return Finding::error(
            QStringLiteral("download.proxy-credentials"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The proxy server between this computer and %1 asks for a "
                                                 "user name and password."))
                .arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put them in the proxy address (HTTPS_PROXY=http://user:"
                                                 "password@proxy:port), or ask IT for a mirror inside the "
                                                 "network. %1"))
                .arg(otherSourceAdvice()));
    case TransferFailure::Tls:
        return Finding::error(
            QStringLiteral("download.tls"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The connection to %1 could not be secured.")).arg(server),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Check the computer's date and time. A network that inspects "
                                   "HTTPS, or a mirror with its own certificate authority, needs "
                                   "that authority's certificate trusted by this computer.")));
    case TransferFailure::Dropped:
        return Finding::error(
            QStringLiteral("download.dropped"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The connection to %1 kept breaking. %2 of %3 are kept in %4; "
                                   "the next try continues from there."))
                .arg(server, shownSize(partBytes),
                     totalBytes >= 0 ? shownSize(totalBytes) : QStringLiteral("?"),
                     QDir::toNativeSeparators(partPath)),
            details, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Try again later.")));
    case TransferFailure::WriteFailed:
        return Finding::error(
            QStringLiteral("download.write-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be written."))
                .arg(QDir::toNativeSeparators(partPath)),
            details,
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup",
                                  "Free space on that drive (the archive needs %1), or download into another "
                                  "folder."))
                .arg(totalBytes >= 0 ? shownSize(totalBytes) : QStringLiteral("?")));
    case TransferFailure::Cancelled:
        return Finding::error(
            QStringLiteral("download.cancelled"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The download was cancelled. %1 are kept in %2; the next "
                                                 "download continues from there."))
                .arg(shownSize(partBytes), QDir::toNativeSeparators(partPath)));
    case TransferFailure::TooLarge:
    case TransferFailure::HttpStatus:
    case TransferFailure::None:
        break;
    }
    return Finding::error(
        QStringLiteral("download.http-error"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be downloaded (the server answered %2)."))
            .arg(where, result.httpStatus ? QString::number(result.httpStatus) : details),
        details, otherSourceAdvice());
}

// Whether a manifest's relative_path may be used: plain folder names below the source's base (no
// "..", drive, scheme or backslash), then a name of the shape of NVIDIA's archives, which leaves no
// separator, colon or control character in the file name written here.
bool isUsableRelativePath(const QString &relativePath)
{
    static const QRegularExpression shape(
        QStringLiteral("^([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*cudnn-[A-Za-z0-9_.-]+\\.(zip|tar\\.xz)$"));
    const QString fileName = relativePath.section(QLatin1Char('/'), -1);
    return fileName.size() <= 255 && !fileName.contains(QLatin1String("..")) &&
           shape.match(relativePath).hasMatch();
}

// The newest archive the knowledge base lists for the request.
const KnownArchive *knownArchive(const DownloadRequest &request, const KnowledgeBase &knowledge)
{
    const KnownArchive *best = nullptr;
    for (const KnownArchive &archive : knowledge.archives()) {
        if (archive.platform != request.platform ||
            archive.cudnn.truncated(request.cudnn.size()) != request.cudnn ||
            archive.cuda.section(QLatin1Char('.'), 0, 0).toInt() != request.cudaMajor)
            continue;
        if (!best || archive.cudnn > best->cudnn)
            best = &archive;
    }
    return best;
}

// The source's manifest of the release, when it has one; an error only when the source cannot be
// asked at all (offline, refused) or answers with something that is not a manifest.
Expected<std::optional<RedistManifest>> sourceManifest(const DownloadRequest &request, const Version &release,
                                                       const HttpTransfer &transfer)
{
    for (const QString &name : RedistManifest::fileNames(release)) {
        QByteArray json;
        QString origin;
        if (request.source.kind == ArchiveSource::Kind::Web) {
            const QUrl url = request.source.url(name);
            origin = url.toDisplayString();
            const TransferResult result = transfer.get(url, &json);
            if (result.failure == TransferFailure::NotFound || result.httpStatus == 403)
                continue;
            if (result.failure == TransferFailure::TooLarge)
                return Finding::error(
                    QStringLiteral("download.manifest-invalid"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a cuDNN redistrib manifest."))
                        .arg(origin),
                    result.detail);
            if (!result.ok())
                return transferFinding(result, request.source.location(), {}, 0, -1);
        } else {
            const QStringList paths = request.source.candidatePaths(name);
            const auto found = std::find_if(paths.begin(), paths.end(),
                                            [](const QString &path) { return QFileInfo(path).isFile(); });
            if (found == paths.end())
                continue;
            QFile file(*found);
            origin = QDir::toNativeSeparators(*found);
            if (!file.open(QIODevice::ReadOnly))
                return Finding::error(QStringLiteral("download.source-unreadable"),
                                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be read.")).arg(origin),
                                      file.errorString());
            json = file.read(16 << 20);
        }
        auto manifest = RedistManifest::parse(json, origin);
        if (!manifest)
            return manifest.error();
        return std::optional<RedistManifest>(*manifest);
    }
    return std::optional<RedistManifest>();
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

Expected<DownloadPlan> planDownload(const DownloadRequest &request, const KnowledgeBase &knowledge)
{
    const KnownArchive *known = knownArchive(request, knowledge);
    const QString wanted =
        QStringLiteral("cuDNN %1 for CUDA %2 (%3)")
            .arg(request.cudnn.toString(), QString::number(request.cudaMajor), request.platform);
    // Over plain http the manifest can be changed on the way as easily as the archive: only a
    // checksum built into the program tells NVIDIA's file from someone else's.
    if (request.source.isPlainHttp() && (!known || known->sha256.isEmpty()))
        return Finding::error(
            QStringLiteral("download.insecure-source"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The source %1 is a plain http:// address, and the checksum of %2 is not "
                                   "built into this program: only that source could say what the file must "
                                   "be, and anyone on the network in between could change both. It is not "
                                   "downloaded."))
                .arg(request.source.location(), wanted),
            QStringLiteral("source %1; built-in sha256: none").arg(request.source.location()),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use the mirror's https:// address, or a cuDNN release "
                                                 "this program knows.")));
    HttpTransfer transfer({HttpTransfer::certificatesFromFile(request.caFile), request.source.base,
                           request.stallTimeoutMs, request.stallTimeoutMs, request.cancel.asked()});
    // NVIDIA's own redist and a file NVIDIA's checksum is built in for: nothing to ask first.
    std::optional<RedistManifest> manifest;
    if (!request.source.isNvidia() || !known || known->sha256.isEmpty()) {
        auto found = sourceManifest(request, known ? known->cudnn : request.cudnn, transfer);
        if (!found)
            return found.error();
        manifest = *found;
    }
    const RedistManifest::File *listed = !manifest ? nullptr
                                         : known   ? manifest->file(known->file)
                                                   : manifest->file(request.platform, request.cudaMajor);
    if (!known && !listed)
        return Finding::error(
            QStringLiteral("download.unknown-archive"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "No archive of %1 is known to this program, and the source lists none."))
                .arg(wanted),
            QStringLiteral("source %1").arg(request.source.location()),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Check the version and the CUDA major. For a release newer than this program, "
                     "the source must serve NVIDIA's redistrib_%1.json beside the archives."))
                .arg(request.cudnn.truncated(3).toString()));
    if (known && listed && !known->sha256.isEmpty() && !listed->sha256.isEmpty() &&
        known->sha256.compare(listed->sha256, Qt::CaseInsensitive) != 0)
        return Finding::error(
            QStringLiteral("download.source-contradicts-nvidia"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The source %1 lists %2 with another checksum than NVIDIA publishes: its "
                                   "copy is not NVIDIA's file, and is not downloaded."))
                .arg(request.source.location(), known->file),
            QStringLiteral("NVIDIA: %1\nsource: %2").arg(known->sha256, listed->sha256),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Tell whoever runs the mirror; use NVIDIA's own download meanwhile.")));

    if (listed && !isUsableRelativePath(listed->relativePath))
        return Finding::error(
            QStringLiteral("download.bad-name"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The source %1 lists %2 under a name that is not one of NVIDIA's archive "
                                   "names, and could put the file outside the download folder: it is not "
                                   "downloaded."))
                .arg(request.source.location(), wanted),
            // Percent-encoded: the name may hold control characters meant for a terminal.
            QStringLiteral("relative_path \"%1\"")
                .arg(QString::fromLatin1(QUrl::toPercentEncoding(listed->relativePath, "/\\:"))),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Tell whoever runs the source: NVIDIA names the archives "
                                   "cudnn/<platform>/cudnn-<platform>-<version>_cuda<major>-archive.zip "
                                   "(or .tar.xz). %1"))
                .arg(otherSourceAdvice()));

    DownloadPlan plan;
    if (known) {
        plan.fileName = known->file;
        plan.cudnn = known->cudnn;
        plan.cudaVariant = known->cuda;
        plan.sha256 = known->sha256.toLower();
        plan.size = known->size;
        if (known->url.startsWith(QString::fromLatin1(ArchiveSource::kNvidiaRedist)))
            plan.relativePath = known->url.mid(int(qstrlen(ArchiveSource::kNvidiaRedist)));
    }
    if (listed) {
        if (plan.fileName.isEmpty()) {
            plan.fileName = listed->fileName();
            plan.cudnn = manifest->version;
            plan.cudaVariant = listed->cudaVariant;
        }
        plan.relativePath = listed->relativePath;
        if (plan.size < 0)
            plan.size = listed->size;
        if (plan.sha256.isEmpty() && !listed->sha256.isEmpty()) {
            plan.sha256 = listed->sha256;
            plan.checksumFrom = request.source.isNvidia() ? DownloadPlan::ChecksumFrom::NvidiaManifest
                                                          : DownloadPlan::ChecksumFrom::Source;
            // NVIDIA's own manifest is NVIDIA's word, only newer than the program; a mirror's is the
            // mirror's.
            plan.findings.append(
                request.source.isNvidia()
                    ? Finding::info(
                          QStringLiteral("download.checksum-from-nvidia-manifest"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                 "%1 is newer than NVIDIA's list built into this "
                                                 "program: it is checked against the checksum NVIDIA's "
                                                 "download server lists for it."))
                              .arg(plan.fileName),
                          QStringLiteral("sha256 %1 from %2").arg(plan.sha256, request.source.location()))
                    : Finding::warning(
                          QStringLiteral("download.checksum-from-source"),
                          Text(QT_TRANSLATE_NOOP(
                                   "cudnnsetup",
                                   "%1 is newer than NVIDIA's list built into this program: it is "
                                   "checked against the checksum the source itself lists, not "
                                   "against NVIDIA's."))
                              .arg(plan.fileName),
                          QStringLiteral("sha256 %1 from %2").arg(plan.sha256, request.source.location())));
        }
    }
    if (plan.sha256.isEmpty())
        return Finding::error(
            QStringLiteral("download.no-checksum"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No checksum of %1 is known, so a download could not be "
                                                 "checked; it is not made."))
                .arg(plan.fileName),
            {}, otherSourceAdvice());
    if (plan.relativePath.isEmpty()) {
        // A file from before NVIDIA's redist (8.2 and earlier): only a folder can hold it.
        if (request.source.kind == ArchiveSource::Kind::Web)
            return Finding::error(
                QStringLiteral("download.not-redistributed"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "NVIDIA offers %1 only after signing in, not for download by programs."))
                    .arg(plan.fileName),
                known->url,
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "Download it in a browser from NVIDIA's cuDNN archive page, or give a folder "
                    "that holds it as the source.")));
        plan.relativePath = plan.fileName;
    }
    if (request.source.kind == ArchiveSource::Kind::Web) {
        plan.url = request.source.url(plan.relativePath);
    } else {
        for (const QString &candidate : request.source.candidatePaths(plan.relativePath)) {
            if (QFileInfo(candidate).isFile()) {
                plan.hostPath = candidate;
                break;
            }
        }
        if (plan.hostPath.isEmpty())
            return Finding::error(QStringLiteral("download.not-found"),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not in %2."))
                                      .arg(plan.fileName, request.source.location()),
                                  request.source.candidatePaths(plan.relativePath).join(QLatin1Char('\n')),
                                  otherSourceAdvice());
    }
    return plan;
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
    const auto verified = [&](const QString &digest, qint64 size) {
        return digest == plan->sha256 && (plan->size < 0 || size == plan->size);
    };

    // A file already under the final name: kept when it is the archive, replaced only by one that is.
    if (QFileInfo(finalPath).isFile()) {
        qint64 size = 0;
        Sha256 hash;
        const auto add = [&](const QByteArray &buffer, qint64 read) { hash.add(buffer.constData(), read); };
        if (readFileInto(add, finalPath, &size) && verified(hash.hex(), size)) {
            report.alreadyPresent = true;
            report.path = finalPath;
            return report;
        }
        report.findings.append(Finding::warning(
            QStringLiteral("download.replacing-damaged"),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "%1 is there already but is not NVIDIA's file (its checksum differs); it is "
                     "replaced once the download is checked."))
                .arg(QDir::toNativeSeparators(finalPath))));
    }

    // What an earlier run left: continued when it can still be the start of the file.
    qint64 inPart = 0;
    auto hash = std::make_unique<HashingThread>();
    if (QFileInfo(partPath).isFile()) {
        const auto add = [&](const QByteArray &buffer, qint64 read) { hash->add(buffer, read); };
        if (!readFileInto(add, partPath, &inPart) || (plan->size >= 0 && inPart > plan->size)) {
            durable::discard(partPath);
            hash = std::make_unique<HashingThread>();
            inPart = 0;
        }
    }
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
    TransferPace pace;
    HttpTransfer::Callbacks callbacks;
    callbacks.onData = [&](const QByteArray &buffer, qint64 size) { hash->add(buffer, size); };
    callbacks.onRestart = [&] { hash = std::make_unique<HashingThread>(); };
    callbacks.onProgress = [&](qint64 inFile, qint64 total) {
        if (request.progress)
            request.progress(pace.update(inFile, total >= 0 ? total : plan->size));
    };
    const HttpTransfer transfer({HttpTransfer::certificatesFromFile(request.caFile), request.source.base,
                                 request.stallTimeoutMs, request.stallTimeoutMs, request.cancel.asked()});
    TransferResult result;
    for (int attempt = 1;; ++attempt) {
        report.attempts = attempt;
        const qint64 offset = part.size();
        result = plan->url.isEmpty() ? copyInto(plan->hostPath, part, offset, callbacks, request.cancel)
                                     : transfer.fetchInto(plan->url, part, offset, callbacks);
        // Asked for bytes past the end: the part may hold the whole file already.
        if (result.httpStatus == 416 && offset > 0 && (plan->size < 0 || offset == plan->size)) {
            result = TransferResult();
            break;
        }
        if (result.ok() || result.failure != TransferFailure::Dropped || attempt >= request.attempts)
            break;
        qCInfo(lcCore) << "download of" << plan->fileName << "dropped at" << part.size() << "bytes, attempt"
                       << attempt << ":" << result.detail;
        QElapsedTimer waited;
        waited.start();
        const qint64 delay = qint64(request.retryDelayMs) << qMin(attempt - 1, 5);
        while (waited.elapsed() < delay && !request.cancel.requested())
            QThread::msleep(20);
    }
    const qint64 inFile = part.size();
    part.close();
    if (!result.ok()) {
        if (inFile == 0)
            durable::discard(partPath); // nothing to continue from
        report.findings.append(transferFinding(result, where, partPath, inFile, plan->size));
        return report;
    }
    const QString digest = hash->hex();
    if (!verified(digest, inFile)) {
        // Wrong bytes cannot be continued from: the part goes, and the next try starts over.
        durable::discard(partPath);
        report.findings.append(Finding::error(
            QStringLiteral("download.checksum-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "What %1 sent is not the file it should be: its checksum or size differs. "
                                   "It was deleted."))
                .arg(where),
            QStringLiteral("expected sha256 %1 (%2), size %3\ngot sha256 %4, size %5")
                .arg(plan->sha256, checksumFromName(plan->checksumFrom))
                .arg(plan->size)
                .arg(digest)
                .arg(inFile),
            otherSourceAdvice()));
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
