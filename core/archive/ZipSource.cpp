#include "archive/ZipSource.h"

#ifdef CUDNNSETUP_HAVE_MINIZIP
#include "archive/MinizipSource.h"
#endif
#ifdef CUDNNSETUP_HAVE_QUAZIP
#include "archive/QuaZipSource.h"
#endif

#include "archive/ArchiveSafety.h"
#include "common/LittleEndian.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace cudnnsetup {

namespace {
constexpr quint32 kEndRecordSignature = 0x06054b50;
constexpr quint32 kZip64LocatorSignature = 0x07064b50;
constexpr quint32 kZip64EndRecordSignature = 0x06064b50;
constexpr qint64 kEndRecordSize = 22;
constexpr qint64 kZip64LocatorSize = 20;
constexpr qint64 kMaxCommentSize = 0xFFFF;

// How many entries the end of central directory record says the archive has (the Zip64 record's
// count where the classic one holds 0xFFFF); nullopt when there is no such record, which the
// backend then reports. Read from the file's last 64 KiB (and the Zip64 record), so that a count
// no cuDNN archive has is refused before a million entries are listed.
std::optional<quint64> declaredEntryCount(const QString &hostPath)
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
        const quint64 count = le16(tail, at + 10);
        const qint64 locator = at - kZip64LocatorSize;
        if (count != 0xFFFF || le32(tail, locator) != kZip64LocatorSignature)
            return count;
        QByteArray record;
        if (file.seek(qint64(le64(tail, locator + 8))))
            record = file.read(56);
        return le32(record, 0) == kZip64EndRecordSignature ? le64(record, 32) : count;
    }
    return std::nullopt;
}

// Host systems whose external attributes carry a Unix mode in their high 16 bits.
constexpr int kHostUnix = 3;
constexpr int kHostOsX = 19;
constexpr quint32 kFileTypeMask = 0170000;
constexpr quint32 kDirectoryType = 0040000;
constexpr quint32 kSymlinkType = 0120000;
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
    }
    return {};
}

Expected<std::unique_ptr<ZipSource>> ZipSource::open(const QString &hostPath, Backend backend,
                                                     const ReadObserver &observer)
{
    const ArchiveLimits limits;
    const std::optional<quint64> count = declaredEntryCount(hostPath);
    if (count == std::optional<quint64>(0)) {
        return Finding::error(
            QStringLiteral("archive.empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is an empty zip archive: it holds no files."))
                .arg(QDir::toNativeSeparators(hostPath)),
            QStringLiteral("the end of central directory record declares no entries"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the cuDNN archive again: the download may have "
                                                 "stopped before it began.")));
    }
    if (count && *count > quint64(limits.maxEntries)) {
        return Finding::error(
            QStringLiteral("archive.unsafe-size"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive declares %1 entries, beyond the %2 any cuDNN archive "
                                   "stays within, so its list of entries is not read."))
                .arg(QString::number(*count), QString::number(limits.maxEntries)),
            QStringLiteral("%1 entries in the end of central directory record").arg(*count));
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
