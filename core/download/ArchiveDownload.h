#pragma once

#include "common/CancelToken.h"
#include "common/Finding.h"
#include "common/Version.h"
#include "download/ArchiveSource.h"

#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <functional>

namespace cudnnsetup {

class KnowledgeBase;

// How far a download is, as the Install page and cudnnctl show it.
struct DownloadProgress
{
    qint64 done = 0;
    qint64 total = -1; // -1: not known yet
    double bytesPerSecond = 0;
    qint64 secondsLeft = -1; // -1: not known yet
};

// Which archive to get, from where, into which folder.
struct DownloadRequest
{
    QString platform = QStringLiteral("windows-x86_64");
    Version cudnn;     // 3 or 4 parts
    int cudaMajor = 0; // the archive's _cudaNN
    ArchiveSource source = ArchiveSource::nvidia();
    QString outFolder;          // host path; created when missing
    QString caFile;             // more certificates to trust (a lab mirror's own CA)
    int attempts = 6;           // connections tried for one file before giving up
    int retryDelayMs = 1000;    // before the second attempt, doubled for each one after
    int stallTimeoutMs = 30000; // a connection silent this long is dropped and tried again
    CancelToken cancel;
    std::function<void(const DownloadProgress &)> progress;
};

// What is known of the file before it is fetched: its name, where it is, what it must hash to.
struct DownloadPlan
{
    enum class ChecksumFrom
    {
        BuiltIn,        // NVIDIA's list built into this program (the knowledge base)
        NvidiaManifest, // NVIDIA's own redistrib manifest, for a release newer than the program
        Source,         // a mirror's or a folder's manifest: all there is for such a release
    };
    QString fileName;
    QString relativePath; // below the source's base: cudnn/<platform>/<file>
    Version cudnn;
    QString cudaVariant;
    qint64 size = -1;
    QString sha256;
    ChecksumFrom checksumFrom = ChecksumFrom::BuiltIn;
    QUrl url;          // Web sources
    QString hostPath;  // Folder sources
    Findings findings; // notes made while planning
};

// The outcome, for people and for programs (cudnn-setup/download/1).
struct DownloadReport
{
    static constexpr char kSchema[] = "cudnn-setup/download/1";

    DownloadRequest request;
    DownloadPlan plan;
    QString path;                // the verified archive; empty when there is none
    qint64 resumedFrom = 0;      // bytes a .part file held from an earlier try
    int attempts = 0;            // connections made (or copies started)
    bool alreadyPresent = false; // the verified file was there already: nothing fetched
    Findings findings;

    bool ok() const { return !path.isEmpty() && !hasErrors(findings); }
    QJsonObject toJson() const;
};

// Works out which file the request means and what it must hash to: NVIDIA's checksum from the
// knowledge base where it lists the file; otherwise the source's manifest, and the plan says so. A
// source whose manifest contradicts NVIDIA's checksum is refused (an altered mirror).
Expected<DownloadPlan> planDownload(const DownloadRequest &request, const KnowledgeBase &knowledge);

// Plans, then fetches into <outFolder>/<file>.part (continuing a part left by an earlier run, and
// after a dropped connection), checks size and SHA-256, and only then renames it to <file>. A
// file under the final name that already matches is kept as it is. Nothing but a verified
// archive ever has the final name; a cancelled or failed run leaves its .part to resume from,
// except one whose content proved wrong.
DownloadReport downloadArchive(const DownloadRequest &request, const KnowledgeBase &knowledge);

// Where a download goes unless the user names a folder: the user's Downloads folder, never the current
// folder (System32 in an elevated prompt). Empty when the system names none.
QString defaultDownloadFolder();

// The archive the machine needs, as `check` recommends it: the request for it (platform, version,
// CUDA major) taken from an NVIDIA file name; nullopt when the name is not one.
std::optional<DownloadRequest> requestForArchive(const QString &fileName);

} // namespace cudnnsetup
