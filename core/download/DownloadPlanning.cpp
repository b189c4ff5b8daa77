#include "download/ArchiveDownload.h"

#include <algorithm>
#include <optional>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

#include "compat/KnowledgeBase.h"
#include "download/DownloadFindings.h"
#include "download/RedistManifest.h"
#include "platform/HttpTransfer.h"

namespace cudnnsetup {

namespace {

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

// Over plain http the manifest can be changed on the way as easily as the archive: only a
// checksum built into the program tells NVIDIA's file from someone else's.
Finding insecureSourceFinding(const DownloadRequest &request, const QString &wanted)
{
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
}

// Why the file the source lists (or its absence) cannot be used; null when it can.
std::optional<Finding> listingProblem(const DownloadRequest &request, const KnownArchive *known,
                                      const RedistManifest::File *listed, const QString &wanted)
{
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
    return std::nullopt;
}

// What the knowledge base says of the file: NVIDIA's name, checksum, size and place.
void takeKnownArchive(DownloadPlan &plan, const KnownArchive &known)
{
    plan.fileName = known.file;
    plan.cudnn = known.cudnn;
    plan.cudaVariant = known.cuda;
    plan.sha256 = known.sha256.toLower();
    plan.size = known.size;
    if (known.url.startsWith(QString::fromLatin1(ArchiveSource::kNvidiaRedist)))
        plan.relativePath = known.url.mid(int(qstrlen(ArchiveSource::kNvidiaRedist)));
}

// What the source's manifest adds: all of it for a release the knowledge base does not list.
void takeListedFile(DownloadPlan &plan, const RedistManifest::File &listed, const Version &release,
                    const DownloadRequest &request)
{
    if (plan.fileName.isEmpty()) {
        plan.fileName = listed.fileName();
        plan.cudnn = release;
        plan.cudaVariant = listed.cudaVariant;
    }
    plan.relativePath = listed.relativePath;
    if (plan.size < 0)
        plan.size = listed.size;
    if (plan.sha256.isEmpty() && !listed.sha256.isEmpty()) {
        plan.sha256 = listed.sha256;
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
                      Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                             "%1 is newer than NVIDIA's list built into this program: it is "
                                             "checked against the checksum the source itself lists, not "
                                             "against NVIDIA's."))
                          .arg(plan.fileName),
                      QStringLiteral("sha256 %1 from %2").arg(plan.sha256, request.source.location())));
    }
}

// Refuses a plan without a checksum, then finds the file: its address on the web, or its path in
// the folder.
std::optional<Finding> placeArchive(DownloadPlan &plan, const DownloadRequest &request,
                                    const KnownArchive *known)
{
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
    return std::nullopt;
}

} // namespace

Expected<DownloadPlan> planDownload(const DownloadRequest &request, const KnowledgeBase &knowledge)
{
    const KnownArchive *known = knownArchive(request, knowledge);
    const QString wanted =
        QStringLiteral("cuDNN %1 for CUDA %2 (%3)")
            .arg(request.cudnn.toString(), QString::number(request.cudaMajor), request.platform);
    if (request.source.isPlainHttp() && (!known || known->sha256.isEmpty()))
        return insecureSourceFinding(request, wanted);
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
    if (std::optional<Finding> problem = listingProblem(request, known, listed, wanted))
        return *problem;

    DownloadPlan plan;
    if (known)
        takeKnownArchive(plan, *known);
    if (listed)
        takeListedFile(plan, *listed, manifest->version, request);
    if (std::optional<Finding> problem = placeArchive(plan, request, known))
        return *problem;
    return plan;
}

} // namespace cudnnsetup
