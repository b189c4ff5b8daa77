#include "archive/ZipSource.h"

#ifdef CUDNNSETUP_HAVE_MINIZIP
#include "archive/MinizipSource.h"
#endif
#ifdef CUDNNSETUP_HAVE_QUAZIP
#include "archive/QuaZipSource.h"
#endif

#include "archive/ArchiveSafety.h"
#include "archive/TarSource.h"
#include "common/LittleEndian.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <limits>

namespace cudnnsetup {

namespace {
constexpr quint32 kEndRecordSignature = 0x06054b50;
constexpr quint32 kZip64LocatorSignature = 0x07064b50;
constexpr quint32 kZip64EndRecordSignature = 0x06064b50;
constexpr qint64 kEndRecordSize = 22;
constexpr qint64 kZip64LocatorSize = 20;
constexpr qint64 kMaxCommentSize = 0xFFFF;

// What the end of central directory record says: how many entries the archive has, and which part
// of a split archive this file is (0 for a whole one). The Zip64 record's values where the classic
// one holds its markers.
struct EndRecord
{
    quint64 entries = 0;
    quint32 disk = 0;
};

// The end record, read from the file's last 64 KiB (and the Zip64 record), so that a count no cuDNN
// archive has is refused before a million entries are listed; nullopt when there is none, which
// the backend then reports.
std::optional<EndRecord> endRecordOf(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const qint64 tailStart = std::max<qint64>(0, file.size() - kEndRecordSize - kMaxCommentSize);
    if (!file.seek(tailStart))
        return std::nullopt;
    const QByteArray tail = file.read(file.size() - tailStart);
    for (qint64 at = tail.size() - kEndRecordSize; at >= 0; --at) {
        if (le32(tail, at) != kEndRecordSignature)
            continue;
        const EndRecord classic{le16(tail, at + 10), le16(tail, at + 4)};
        const qint64 locator = at - kZip64LocatorSize;
        if (classic.entries != 0xFFFF || le32(tail, locator) != kZip64LocatorSignature)
            return classic;
        QByteArray record;
        if (file.seek(qint64(le64(tail, locator + 8))))
            record = file.read(56);
        if (le32(record, 0) != kZip64EndRecordSignature)
            return classic;
        return EndRecord{le64(record, 32), le32(record, 16)};
    }
    return std::nullopt;
}

// Host systems whose external attributes carry a Unix mode in their high 16 bits.
constexpr int kHostUnix = 3;
constexpr int kHostOsX = 19;
constexpr quint32 kFileTypeMask = 0170000;
constexpr quint32 kDirectoryType = 0040000;
constexpr quint32 kSymlinkType = 0120000;
constexpr quint32 kRegularType = 0100000;
constexpr quint32 kDosDirectoryAttribute = 0x10;

bool unixHost(quint16 versionMadeBy)
{
    const int host = versionMadeBy >> 8;
    return host == kHostUnix || host == kHostOsX;
}
} // namespace

bool ZipEntry::isDirectory() const
{
    if (rawName.endsWith('/') || (externalAttributes & kDosDirectoryAttribute))
        return true;
    return unixHost(versionMadeBy) && ((externalAttributes >> 16) & kFileTypeMask) == kDirectoryType;
}

bool ZipEntry::isSymlink() const
{
    return unixHost(versionMadeBy) && ((externalAttributes >> 16) & kFileTypeMask) == kSymlinkType;
}

bool ZipEntry::isSpecialFile() const
{
    const quint32 type = (externalAttributes >> 16) & kFileTypeMask;
    return unixHost(versionMadeBy) && type != 0 && type != kRegularType && type != kDirectoryType &&
           type != kSymlinkType;
}

qint64 declaredUnpackedSize(const QList<ZipEntry> &entries)
{
    constexpr qint64 largest = std::numeric_limits<qint64>::max();
    qint64 total = 0;
    for (const ZipEntry &entry : entries) {
        const qint64 size = std::max<qint64>(entry.uncompressedSize, 0);
        total = size > largest - total ? largest : total + size;
    }
    return total;
}

QList<ZipSource::Backend> ZipSource::backends()
{
    QList<Backend> compiled;
#ifdef CUDNNSETUP_HAVE_QUAZIP
    compiled.append(Backend::QuaZip);
#endif
#ifdef CUDNNSETUP_HAVE_MINIZIP
    compiled.append(Backend::Minizip);
#endif
    return compiled;
}

QString ZipSource::backendName(Backend backend)
{
    switch (backend) {
    case Backend::QuaZip:
        return QStringLiteral("quazip");
    case Backend::Minizip:
        return QStringLiteral("minizip");
    case Backend::Libarchive:
        return QStringLiteral("libarchive");
    }
    return {};
}

Expected<std::unique_ptr<ZipSource>> ZipSource::open(const QString &hostPath, Backend backend,
                                                     const ReadObserver &observer)
{
    if (looksLikeTar(hostPath)) {
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
        return openWithLibarchive(hostPath, observer);
#else
        return Finding::error(
            QStringLiteral("archive.tar-unsupported"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a tar archive, NVIDIA's format for Linux: this build "
                                                 "of cuDNN Setup reads only zip archives."))
                .arg(QDir::toNativeSeparators(hostPath)),
            QStringLiteral("built without libarchive"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "On Windows, download the cuDNN archive for Windows "
                                                 "(cudnn-windows-x86_64-…-archive.zip).")));
#endif
    }
    const ArchiveLimits limits;
    const std::optional<EndRecord> end = endRecordOf(hostPath);
    // Without an end record, the first part of a split archive starts with the split marker.
    const auto startsAsSplitPart = [&] {
        QFile file(hostPath);
        return file.open(QIODevice::ReadOnly) && file.read(4) == QByteArray("PK\x07\x08", 4);
    };
    if ((end && end->disk > 0) || (!end && startsAsSplitPart())) {
        return Finding::error(
            QStringLiteral("archive.split"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is one part of a zip archive split into several files "
                                                 "(.z01, .z02, …, .zip): it cannot be read alone."))
                .arg(QDir::toNativeSeparators(hostPath)),
            end ? QStringLiteral("the end record names part %1").arg(end->disk)
                : QStringLiteral("it starts with the split archive marker"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the cuDNN archive as one .zip file, as NVIDIA "
                                                 "publishes it.")));
    }
    if (end && end->entries == 0) {
        return Finding::error(
            QStringLiteral("archive.empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is an empty zip archive: it holds no files."))
                .arg(QDir::toNativeSeparators(hostPath)),
            QStringLiteral("the end of central directory record declares no entries"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the cuDNN archive again: the download may have "
                                                 "stopped before it began.")));
    }
    if (end && end->entries > quint64(limits.maxEntries)) {
        return Finding::error(
            QStringLiteral("archive.unsafe-size"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive declares %1 entries, beyond the %2 any cuDNN archive "
                                   "stays within, so its list of entries is not read."))
                .arg(QString::number(end->entries), QString::number(limits.maxEntries)),
            QStringLiteral("%1 entries in the end of central directory record").arg(end->entries));
    }
#ifdef CUDNNSETUP_HAVE_QUAZIP
    if (backend == Backend::QuaZip)
        return openWithQuaZip(hostPath, observer);
#endif
#ifdef CUDNNSETUP_HAVE_MINIZIP
    if (backend == Backend::Minizip)
        return openWithMinizip(hostPath, observer);
#endif
    Q_UNUSED(observer)
    return Finding::error(
        QStringLiteral("archive.unreadable"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
            .arg(QDir::toNativeSeparators(hostPath)),
        QStringLiteral("the %1 backend is not part of this build").arg(backendName(backend)));
}

} // namespace cudnnsetup
