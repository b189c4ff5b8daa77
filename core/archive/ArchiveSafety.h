#pragma once

#include "common/Finding.h"

#include <QList>
#include <QString>

namespace cudnnsetup {

struct ZipEntry;
class EntryNames;

// The limits an archive must stay within before a byte of it is inflated. cuDNN's largest archive
// entry is a DLL of about a gigabyte; the limits leave room for growth and stop bombs. The sizes
// are the ones declared; the entry streams hold every entry to its declared size while inflating,
// so a lying archive stops within a buffer's length of the limit too.
struct ArchiveLimits
{
    qint64 maxEntrySize = 8LL << 30;  // declared uncompressed size of one entry
    qint64 maxTotalSize = 32LL << 30; // all entries together
    int maxEntries = 10000;
    // DEFLATE cannot expand beyond 1032:1; a larger declared ratio is a lie (a bomb).
    double maxDeflateRatio = 1032.0;
    // An archive that unpacks to more than `ratioCheckedAbove` bytes may expand at most this much
    // as a whole: cuDNN's compiled GPU code packs about 2:1, a bomb a hundredfold and more.
    double maxOverallRatio = 10.0;
    qint64 ratioCheckedAbove = 256LL << 20;

    // Sized from the largest archive NVIDIA published (the knowledge base knows each one's size):
    // no file of it unpacks to more than three times that, the whole to no more than four times.
    // The defaults when the size is unknown (0).
    static ArchiveLimits forLargestArchive(qint64 largestArchiveBytes);
};

// One entry's path once it is known to be safe: components joined with '/', never empty, never
// "." or "..", never absolute, every component a name Windows and Linux can both create.
struct SafePath
{
    QString path; // "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/cudnn64_9.dll"
    bool directory = false;
};

// Why an entry's path is refused, or nothing when it is fine: `..` and `.` components, absolute
// paths, drive letters (`C:\`, `C:x`), UNC and device paths (`\\server`, `\\?\`, `\\.\`), a
// backslash used as a separator to hide any of these, Windows reserved names (CON, NUL, COM1, …,
// with or without an extension), reserved characters (< > : " | ? * and controls, so no alternate
// data streams), and components ending in a dot or a space (Windows would silently strip them).
// `name` is the decoded name; '\' counts as a separator. Empty when the path is fine.
Text pathProblem(const QString &name);
// The safe form of a decoded name that pathProblem() accepts.
SafePath safePath(const QString &name);

// Every rule of the archive as a whole, each broken one an error finding (severity Error, id
// "archive.unsafe-*"): unsafe paths, symbolic links, encrypted entries, compression methods other
// than stored and deflated, names that are not valid in their encoding, names that collide on a
// case-insensitive file system (or a file where another entry needs a folder), declared sizes,
// ratios and counts beyond `limits`, entries whose data overlaps another's or runs past the end of
// the file. `archiveSize` is the zip file's size in bytes.
Findings archiveSafetyProblems(const QList<ZipEntry> &entries, const EntryNames &names, qint64 archiveSize,
                               const ArchiveLimits &limits = {});

} // namespace cudnnsetup
