#pragma once

#include "common/Expected.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace cudnnsetup {

// One entry of a zip's central directory as stored: nothing decoded, nothing trusted. Safety rules
// and name decoding live above this layer (archive/ArchiveSafety, archive/EntryName).
struct ZipEntry
{
    int index = -1;            // position in the central directory
    QByteArray rawName;        // the name's bytes exactly as stored in the central directory
    quint16 flags = 0;         // general purpose bit flag
    quint16 versionMadeBy = 0; // high byte: host system (0 MS-DOS, 3 Unix, 10 NTFS, 19 OS X)
    quint16 method = 0;        // 0 stored, 8 deflated; anything else cannot be read
    quint32 crc32 = 0;
    qint64 compressedSize = 0; // Zip64 values where the entry has them
    qint64 uncompressedSize = 0;
    qint64 localHeaderOffset = 0;
    quint32 externalAttributes = 0;
    // A tar entry (TarSource): read in order from a stream, with no CRC or compressed size of its own.
    bool streamed = false;
    // Tar only (a zip keeps a link's target as its data): what a symbolic or hard link names.
    QByteArray linkTarget;
    bool hardLink = false;

    bool utf8Name() const { return flags & 0x0800; }
    bool encrypted() const { return flags & 0x0001; }
    bool isDirectory() const;
    bool isSymlink() const; // a Unix host and S_IFLNK in the high 16 bits of the attributes
    // A device, fifo or socket: a Unix host and such a type in the high 16 bits of the attributes.
    bool isSpecialFile() const;
};

// What `entries` unpack to, as the central directory says: at most the largest qint64, which
// forged Zip64 sizes would otherwise add up past.
qint64 declaredUnpackedSize(const QList<ZipEntry> &entries);

// Sees every range of the archive file the backend reads, in the order it reads them: how the
// archive's SHA-256 is computed while it is read.
using ReadObserver = std::function<void(qint64 offset, const char *data, qint64 size)>;

// The inflated bytes of one entry, read front to back.
class ZipEntryStream
{
public:
    virtual ~ZipEntryStream() = default;
    // Up to `maxSize` bytes; 0 at the end of the entry; -1 when the data is corrupt, truncated or
    // longer than the central directory says (errorString() says which).
    virtual qint64 read(char *data, qint64 maxSize) = 0;
    // After read() returned 0: whether the CRC-32 of every byte matched the central directory.
    virtual bool crcMatches() const = 0;
    virtual QString errorString() const = 0;
};

// A zip archive opened for reading, behind one small interface with two backends: QuaZip (Linux,
// and Windows builds that have it) and zlib's minizip used directly (the MinGW build, and Linux
// where it is installed). Both do their file I/O through Qt (Unicode paths on Windows) and report
// it to the ReadObserver.
class ZipSource
{
public:
    enum class Backend
    {
        QuaZip,
        Minizip,
        Libarchive, // tar and tar.xz (TarSource), chosen by the file's content, never by backends()
    };
    // The backends compiled into this build, the default first.
    static QList<Backend> backends();
    static QString backendName(Backend backend); // "quazip", "minizip", "libarchive"

    // Opens the file and reads its central directory. Errors: "archive.unreadable" (cannot open
    // the file), "archive.not-zip" (no zip end record), "archive.corrupt" (a central directory
    // that contradicts itself or the file's size), "archive.empty" (a valid zip of no entries),
    // "archive.split" (one part of a split archive), "archive.tar-unsupported" (a tar archive in a
    // build without libarchive: Windows),
    // "archive.unsafe-size" (an end record declaring
    // more entries than ArchiveLimits allows: refused before the directory is read).
    // A tar or tar.xz file is read by the libarchive backend whatever `backend` says.
    static Expected<std::unique_ptr<ZipSource>> open(const QString &hostPath, Backend backend,
                                                     const ReadObserver &observer = {});

    virtual ~ZipSource() = default;
    virtual Backend backend() const = 0;
    const QList<ZipEntry> &entries() const { return m_entries; }
    qint64 archiveSize() const { return m_archiveSize; }

    // One stream at a time per source (a new one ends the previous); open another ZipSource on
    // the same file to read in parallel. Errors: "archive.entry-unsupported" (a method other than
    // stored/deflated, encryption), "archive.corrupt" (a local header that does not match).
    virtual Expected<std::unique_ptr<ZipEntryStream>> openEntry(int index) = 0;

protected:
    QList<ZipEntry> m_entries;
    qint64 m_archiveSize = 0;
};

} // namespace cudnnsetup
