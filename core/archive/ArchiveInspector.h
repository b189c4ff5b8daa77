#pragma once

#include "archive/CudnnLayout.h"
#include "archive/ZipSource.h"
#include "common/Expected.h"
#include "common/Finding.h"
#include "common/Version.h"
#include "compat/ArchiveName.h"
#include "compat/PublishedArchives.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace cudnnsetup {

// One file the archive holds, as the inspection saw it.
struct ArchiveFile
{
    enum class Kind
    {
        Library, // a cuDNN DLL or shared library
        OtherDll,
        Header,
        ImportLibrary,
        Other,
    };
    QString path;      // the safe, '/'-separated path
    int entry = -1;    // its index in the zip's central directory
    quint32 crc32 = 0; // as the central directory says: extraction holds the archive to it
    Kind kind = Kind::Other;
    qint64 size = 0;
    QString machine; // DLLs: "x64", "x86", "arm64", …
    // A tar's symbolic link (libcudnn.so -> libcudnn.so.9): the file name it names beside it, which
    // ArchiveSafety checked; empty for a file. An install makes it a link again; it has no data.
    QString linkTarget;
};

// What `cudnnctl inspect` and the Archive page show: whether the archive may be installed, what
// it truly holds, and whether it is the very file NVIDIA published.
struct ArchiveReport
{
    static constexpr char kSchema[] = "cudnn-setup/archive/1";

    enum class Verdict
    {
        Ok,
        Unsafe,   // a rule of ArchiveSafety broken, or a DLL for another processor
        Corrupt,  // truncated, damaged, a CRC that does not match
        Altered,  // named like an archive NVIDIA published, with another SHA-256
        NotCudnn, // not a zip, or no cuDNN in it
    };
    enum class Official
    {
        Match,    // the SHA-256 is one NVIDIA published
        Mismatch, // named like an NVIDIA archive whose published SHA-256 differs
        Unknown,  // NVIDIA's checksum for this file is not in the database
    };

    QString path;
    qint64 size = 0;
    QString sha256;
    Official official = Official::Unknown;
    QString officialFile;               // NVIDIA's name for the file whose checksum matched
    QString backend;                    // "quazip", "minizip", "libarchive"
    std::optional<ArchiveName> claimed; // what the file name says

    // What the content says.
    Version cudnn;          // the header's x.y.z, with the build number from the library's stamp,
                            // NVIDIA's record or the name; the stamp's alone when there is no header
    Version libraryVersion; // the main library's version resource, when it names a cuDNN release
    QString cudaVariant;    // from the archive's own top folder or NVIDIA's record; empty if unknown
    QString platform;       // "windows-x86_64" for DLLs, "linux-x86_64" for shared libraries
    CudnnLayout layout;
    QString nameEncoding; // "ascii", "cp437", "gbk"
    int entryCount = 0;
    qint64 unpackedSize = 0;
    QList<ArchiveFile> files;

    Findings findings;
    Verdict verdict = Verdict::Ok;

    QString verdictName() const;  // "ok", "unsafe", "corrupt", "altered", "not-cudnn"
    QString officialName() const; // "match", "mismatch", "unknown"
    QJsonObject toJson() const;
};

struct InspectOptions
{
    std::optional<ZipSource::Backend> backend; // the build's default when not set
    // Inflate every entry and check its CRC (a full verdict on a damaged download). Off, only the
    // DLLs' headers and the version header are read, and the CRCs are left to the extraction.
    bool verifyData = true;
    // Take the archive's SHA-256 and judge it against NVIDIA's. Off (an install, which takes the hash in
    // the pass that unpacks), sha256 stays empty and official Unknown until judgeChecksum(), which
    // turns the verdict to Altered for a file named like a published one with another SHA-256.
    bool hashArchive = true;
    // (bytes done, bytes in all) as the archive is read; may be called from another thread.
    std::function<void(qint64, qint64)> progress;
    std::function<bool()> cancelled;
};

// Reads the whole archive once: the central directory, the safety rules, every entry inflated and
// its CRC checked (unless !verifyData), every DLL's PE headers, the version header; the archive's
// SHA-256 from the same reads, and from one sequential read of whatever they skipped. The error is only for a
// file that cannot be read at all ("archive.unreadable") or a cancelled inspection ("archive.cancelled");
// every problem of the archive itself is in the report's findings and verdict.
// `published`: NVIDIA's archives as the caller's database records them
// (KnowledgeBase::publishedArchives()).
Expected<ArchiveReport> inspectArchive(const QString &hostPath, const PublishedArchives &published,
                                       const InspectOptions &options = {});

// What the archive's SHA-256 tells, added to a report made without it: whether it is the very file
// NVIDIA published (a renamed one included, or one named like NVIDIA's that differs), and the build
// number NVIDIA's record gives. Sets sha256 and official, adds notes, and refuses (verdict Altered,
// an error) a file named like a published one whose SHA-256 differs.
void judgeChecksum(ArchiveReport &report, const QString &sha256, const PublishedArchives &published);

} // namespace cudnnsetup
