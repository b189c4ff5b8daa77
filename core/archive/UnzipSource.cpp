#include "archive/UnzipSource.h"

#include "common/LittleEndian.h"

#include <QDir>

namespace cudnnsetup {

namespace {
constexpr qint64 kCentralRecordSize = 46;
constexpr qint64 kLocalHeaderSize = 30;
constexpr quint32 kCentralRecordSignature = 0x02014b50;
constexpr quint32 kLocalHeaderSignature = 0x04034b50;
constexpr quint32 kZip64Marker = 0xFFFFFFFF;
constexpr quint16 kZip64ExtraId = 0x0001;

// The sizes and local header offset of a central record. Those whose 32-bit fields are 0xFFFFFFFF
// come from its Zip64 extra field, which holds them in this order; nullopt when it lacks one.
struct RecordValues
{
    quint64 uncompressedSize = 0;
    quint64 compressedSize = 0;
    quint64 localHeaderOffset = 0;
    bool zip64 = false;
};

std::optional<RecordValues> recordValues(const QByteArray &record, const QByteArray &extra)
{
    RecordValues values{le32(record, 24), le32(record, 20), le32(record, 42)};
    QByteArray zip64Field;
    for (qsizetype at = 0; at + 4 <= extra.size() && zip64Field.isNull();) {
        const quint16 size = le16(extra, at + 2);
        if (le16(extra, at) == kZip64ExtraId)
            zip64Field = extra.mid(at + 4, size);
        at += 4 + size;
    }
    qsizetype at = 0;
    for (quint64 *field : {&values.uncompressedSize, &values.compressedSize, &values.localHeaderOffset}) {
        if (*field != kZip64Marker)
            continue;
        if (at + 8 > zip64Field.size())
            return std::nullopt;
        *field = le64(zip64Field, at);
        at += 8;
        values.zip64 = true;
    }
    return values;
}
} // namespace

UnzipSourceBase::UnzipSourceBase(const QString &hostPath, const ReadObserver &observer)
    : m_hostPath(hostPath)
    , m_file(hostPath, observer)
{
}

std::optional<Finding> UnzipSourceBase::openFile()
{
    if (!m_file.open(QIODevice::ReadOnly)) {
        return Finding::error(
            QStringLiteral("archive.unreadable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
                .arg(QDir::toNativeSeparators(m_hostPath)),
            QStringLiteral("%1: %2").arg(m_hostPath, m_file.errorString()),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check that the file exists and that you may read it.")));
    }
    m_archiveSize = m_file.size();
    return std::nullopt;
}

Finding UnzipSourceBase::notOpened(const QString &details)
{
    const QByteArray head = m_file.readAt(0, 4);
    const bool startsAsZip = head == QByteArray("PK\x03\x04", 4) || head == QByteArray("PK\x05\x06", 4) ||
                             head == QByteArray("PK\x07\x08", 4);
    if (startsAsZip)
        return corrupt(QStringLiteral("no readable end of central directory record (%1)").arg(details));
    return Finding::error(QStringLiteral("archive.not-zip"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a zip archive."))
                              .arg(QDir::toNativeSeparators(m_hostPath)),
                          QStringLiteral("%1: no end of central directory record (%2), first bytes %3")
                              .arg(m_hostPath, details, QString::fromLatin1(head.toHex(' '))),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose the .zip archive itself.")));
}

std::optional<Finding> UnzipSourceBase::addEntry(ZipEntry entry, qint64 centralRecordOffset,
                                                 const QByteArray &centralExtra)
{
    entry.index = m_entries.size();
    const QByteArray record = m_file.readAt(centralRecordOffset, kCentralRecordSize);
    if (record.size() != kCentralRecordSize || le32(record, 0) != kCentralRecordSignature ||
        le16(record, 28) != entry.rawName.size()) {
        return corrupt(QStringLiteral("entry %1: no central directory record at offset %2 "
                                      "(data before the archive is not supported)")
                           .arg(entry.index)
                           .arg(centralRecordOffset));
    }
    const std::optional<RecordValues> values = recordValues(record, centralExtra);
    if (!values) {
        return corrupt(QStringLiteral("entry %1: its Zip64 extra field lacks a value the record leaves to it")
                           .arg(entry.index));
    }
    // minizip 1.1 takes a Zip64 value where the 32-bit field equals (unsigned long)-1, which is
    // 0xFFFFFFFF only where long has 32 bits (Windows): elsewhere it keeps the markers, the local
    // header's offset's too, and cannot open the entry. So on every build, one way everywhere, an
    // entry with a Zip64 marker is listed with the record's values and read without the library
    // (checkBeforeReading does the library's checks of its local header).
    const bool zip64 = values->zip64;
    if (zip64) {
        entry.uncompressedSize = static_cast<qint64>(values->uncompressedSize);
        entry.compressedSize = static_cast<qint64>(values->compressedSize);
    }
    if (static_cast<quint64>(entry.uncompressedSize) != values->uncompressedSize ||
        static_cast<quint64>(entry.compressedSize) != values->compressedSize) {
        return corrupt(QStringLiteral("entry %1: the library reads sizes %2/%3, the central record %4/%5")
                           .arg(entry.index)
                           .arg(entry.compressedSize)
                           .arg(entry.uncompressedSize)
                           .arg(values->compressedSize)
                           .arg(values->uncompressedSize));
    }
    if (entry.compressedSize < 0 || entry.uncompressedSize < 0 ||
        values->localHeaderOffset > static_cast<quint64>(m_archiveSize)) {
        return corrupt(QStringLiteral("entry %1: sizes %2/%3 or offset %4 out of range")
                           .arg(entry.index)
                           .arg(entry.compressedSize)
                           .arg(entry.uncompressedSize)
                           .arg(values->localHeaderOffset));
    }
    entry.localHeaderOffset = static_cast<qint64>(values->localHeaderOffset);
    const qint64 dataStart = entry.localHeaderOffset + kLocalHeaderSize + entry.rawName.size();
    if (dataStart > m_archiveSize || entry.compressedSize > m_archiveSize - dataStart) {
        return corrupt(
            QStringLiteral("entry %1: its local header at %2 and %3 compressed bytes run past the end "
                           "of the %4-byte file")
                .arg(entry.index)
                .arg(entry.localHeaderOffset)
                .arg(entry.compressedSize)
                .arg(m_archiveSize));
    }
    m_entries.append(std::move(entry));
    m_centralRecords.append({centralRecordOffset, zip64});
    return std::nullopt;
}

Expected<qint64> UnzipSourceBase::checkBeforeReading(int index)
{
    const QString archive = QDir::toNativeSeparators(m_hostPath);
    if (index < 0 || index >= m_entries.size()) {
        return Finding::error(QStringLiteral("archive.entry-unsupported"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 has no entry number %2."))
                                  .arg(archive)
                                  .arg(index),
                              QStringLiteral("%1 entries").arg(m_entries.size()));
    }
    const ZipEntry &entry = m_entries.at(index);
    const QString name = QString::fromUtf8(entry.rawName);
    if (entry.encrypted()) {
        return Finding::error(
            QStringLiteral("archive.entry-unsupported"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 in the archive %2 is encrypted and cannot be read."))
                .arg(name, archive),
            QStringLiteral("entry %1: general purpose flags 0x%2")
                .arg(index)
                .arg(entry.flags, 4, 16, QLatin1Char('0')));
    }
    if (entry.method != 0 && entry.method != 8) {
        return Finding::error(
            QStringLiteral("archive.entry-unsupported"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 in the archive %2 is compressed with method %3; only "
                                                 "stored and deflated entries can be read."))
                .arg(name, archive)
                .arg(entry.method),
            QStringLiteral("entry %1: compression method %2").arg(index).arg(entry.method));
    }
    const QByteArray header = m_file.readAt(entry.localHeaderOffset, kLocalHeaderSize);
    if (header.size() != kLocalHeaderSize || le32(header, 0) != kLocalHeaderSignature) {
        return corrupt(
            QStringLiteral("entry %1: no local header at offset %2").arg(index).arg(entry.localHeaderOffset));
    }
    // What the library checks when it opens an entry, for those it cannot open: the local header's
    // method, and (unless a data descriptor follows the data) its CRC and sizes, each either the
    // central record's or the Zip64 marker.
    if (m_centralRecords.at(index).zip64) {
        const quint16 flags = le16(header, 6);
        const auto sizeAgrees = [](quint32 local, qint64 central) {
            return local == kZip64Marker || local == static_cast<quint32>(central);
        };
        const bool agrees = le16(header, 8) == entry.method &&
                            ((flags & 8) != 0 || (le32(header, 14) == entry.crc32 &&
                                                  sizeAgrees(le32(header, 18), entry.compressedSize) &&
                                                  sizeAgrees(le32(header, 22), entry.uncompressedSize)));
        if (!agrees)
            return corrupt(
                QStringLiteral("entry %1: the local header disagrees with the central directory").arg(index));
    }
    // The extra field is read with the name so that the observer sees the whole header.
    const qint64 nameSize = le16(header, 26);
    const qint64 nameAndExtraSize = nameSize + le16(header, 28);
    const QByteArray nameAndExtra =
        m_file.readAt(entry.localHeaderOffset + kLocalHeaderSize, nameAndExtraSize);
    if (nameAndExtra.left(nameSize) != entry.rawName) {
        return corrupt(QStringLiteral("entry %1: the local header names it %2, the central directory %3")
                           .arg(index)
                           .arg(QString::fromLatin1(nameAndExtra.left(nameSize).toHex(' ')),
                                QString::fromLatin1(entry.rawName.toHex(' '))));
    }
    return entry.localHeaderOffset + kLocalHeaderSize + nameAndExtraSize;
}

Finding UnzipSourceBase::corrupt(const QString &details) const
{
    return Finding::error(QStringLiteral("archive.corrupt"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 is damaged or incomplete."))
                              .arg(QDir::toNativeSeparators(m_hostPath)),
                          QStringLiteral("%1 (%2): %3").arg(m_hostPath, backendName(backend()), details),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the archive again.")));
}

void UnzipSourceBase::logOpened() const
{
    qCDebug(lcCore).noquote() << QStringLiteral("zip %1 opened with %2: %3 entries, %4 bytes")
                                     .arg(m_hostPath, backendName(backend()))
                                     .arg(m_entries.size())
                                     .arg(m_archiveSize);
}

} // namespace cudnnsetup
