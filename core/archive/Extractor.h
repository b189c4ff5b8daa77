#pragma once

#include "archive/ArchiveInspector.h"
#include "archive/ZipSource.h"
#include "common/Expected.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace cudnnsetup {

struct ExtractedFile
{
    QString path; // relative to the staging folder: stagedPath()
    qint64 size = 0;
    QString sha256; // for the receipt
};

struct ExtractionProgress
{
    qint64 bytesDone = 0; // unpacked bytes inflated, written or only checked
    qint64 bytesTotal = 0;
    int filesDone = 0;
    int filesTotal = 0;
    double secondsLeft = -1; // -1 until it can be estimated
};

struct ExtractOptions
{
    std::optional<ZipSource::Backend> backend; // the build's default when not set
    int workers = 0;                           // 0: one per core, at most two
    // Called from the worker threads (one call at a time), a few times a second at most.
    std::function<void(const ExtractionProgress &)> progress;
    std::function<bool()> cancelled;
    // Entries inflated and held to their CRC like the others, but not written: the rest of the
    // archive, so that what an inspection would call damaged is refused by an install too.
    QList<ArchiveFile> checkOnly;
    // Also take the SHA-256 of the whole archive file, on a thread of its own beside the workers:
    // an install that inspected without it reads the archive once.
    bool hashArchive = false;
};

struct Extraction
{
    QString stagingFolder;
    QList<ExtractedFile> files; // in the order of `files` given
    qint64 bytesWritten = 0;
    QString archiveSha256; // with ExtractOptions::hashArchive
};

// Where the `index`th of the files an extraction writes lies under the staging folder: flat and
// short ("3-cudnn_engines_runtime_compiled64_9.dll"), without the archive's folders, so that staged
// paths stay far below Windows' MAX_PATH wherever the target is.
QString stagedPath(int index, const QString &archivePath);

// Unpacks `files` (an inspection's, whose verdict was ok) into `stagingFolder`, each at stagedPath(), which
// must not exist yet (it should be on the target's volume, so placing the files later is a rename). Streams
// every entry through a bounded buffer, checks its CRC against the central directory (which must still be the
// inspected one) and records its SHA-256; entries are shared among worker threads, each with its own
// ZipSource. Nothing is left behind on failure or cancel: the staging folder is removed, and so are the
// folders made above it. Errors: "extract.staging-exists", "extract.write-failed", "archive.changed" (also
// when the file is no zip any more), "archive.corrupt", "archive.crc-mismatch", "archive.cancelled",
// "archive.unreadable".
Expected<Extraction> extractArchive(const QString &archivePath, const QList<ArchiveFile> &files,
                                    const QString &stagingFolder, const ExtractOptions &options = {});

} // namespace cudnnsetup
