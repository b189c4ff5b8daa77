#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// Writes zip archives entry by entry with every field under the test's control, so tests build real
// and hostile archives without fixture files. Nothing is checked: what the entry says is written.
class ZipWriter
{
public:
    struct Entry
    {
        QByteArray name;                     // raw bytes, as stored
        QByteArray data;                     // the uncompressed content
        quint16 method = 8;                  // 8 deflates `data`; any other number stores it as it is
        bool utf8Name = false;               // general purpose bit 11
        bool encrypted = false;              // bit 0 only: the data stays as it is
        quint16 versionMadeBy = 0x031e;      // high byte: host (3 Unix, 0 MS-DOS); low: zip 3.0
        quint32 externalAttributes = 0;      // Unix mode in the high 16 bits, MS-DOS attributes below
        bool zip64 = false;                  // sizes and offset in Zip64 extra fields, however small
        std::optional<quint32> crc32;        // default: the data's
        std::optional<quint64> declaredSize; // the uncompressed size both headers give; default: the data's
        std::optional<QByteArray> localName; // the local header's name; default: `name`

        static Entry file(const QByteArray &name, const QByteArray &data, quint16 method = 8);
        // "name/" with the Unix mode 040755 and the MS-DOS directory attribute.
        static Entry directory(const QByteArray &name);
        // A Unix symbolic link (mode 0120777) whose data is the target, as Info-ZIP stores it.
        static Entry symlink(const QByteArray &name, const QByteArray &target);
    };

    ZipWriter() = default;
    // A writer with `entries` added in order.
    explicit ZipWriter(const QList<Entry> &entries);

    // Appends the entry's local header and data; returns the local header's offset.
    qint64 add(const Entry &entry);
    // Where the central directory starts: everything before it is local headers and data.
    qint64 centralDirectoryOffset() const { return m_local.size(); }
    // The whole archive: local headers and data, the central directory and the end records (with
    // the Zip64 ones when an entry is Zip64).
    QByteArray finish() const;
    // Writes finish() to `hostPath`, creating its folder.
    bool save(const QString &hostPath) const;

private:
    QByteArray m_local;
    QByteArray m_central;
    quint16 m_count = 0;
    bool m_zip64 = false;
};
