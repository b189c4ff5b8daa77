#include "ZipWriter.h"

#include <zlib.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {
constexpr quint32 kZip64Marker = 0xFFFFFFFF;
constexpr quint16 kDosDate = (1 << 5) | 1; // 1980-01-01

void put16(QByteArray &out, quint16 value)
{
    out.append(char(value & 0xFF)).append(char(value >> 8));
}

void put32(QByteArray &out, quint32 value)
{
    put16(out, quint16(value & 0xFFFF));
    put16(out, quint16(value >> 16));
}

void put64(QByteArray &out, quint64 value)
{
    put32(out, quint32(value & 0xFFFFFFFF));
    put32(out, quint32(value >> 32));
}

QByteArray rawDeflate(const QByteArray &data)
{
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&stream, uLong(data.size()))), Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}
} // namespace

ZipWriter::Entry ZipWriter::Entry::file(const QByteArray &name, const QByteArray &data, quint16 method)
{
    Entry entry;
    entry.name = name;
    entry.data = data;
    entry.method = method;
    entry.externalAttributes = 0100644u << 16;
    return entry;
}

ZipWriter::Entry ZipWriter::Entry::directory(const QByteArray &name)
{
    Entry entry = file(name, {}, 0);
    entry.externalAttributes = (040755u << 16) | 0x10;
    return entry;
}

ZipWriter::Entry ZipWriter::Entry::symlink(const QByteArray &name, const QByteArray &target)
{
    Entry entry = file(name, target, 0);
    entry.externalAttributes = 0120777u << 16;
    return entry;
}

ZipWriter::ZipWriter(const QList<Entry> &entries)
{
    for (const Entry &entry : entries)
        add(entry);
}

qint64 ZipWriter::add(const Entry &entry)
{
    const QByteArray stored = entry.method == 8 ? rawDeflate(entry.data) : entry.data;
    const quint32 crc = entry.crc32.value_or(quint32(
        ::crc32(0, reinterpret_cast<const Bytef *>(entry.data.constData()), uInt(entry.data.size()))));
    const quint64 size = entry.declaredSize.value_or(quint64(entry.data.size()));
    const quint64 compressedSize = quint64(stored.size());
    const qint64 offset = m_local.size();
    const quint16 flags = (entry.utf8Name ? 0x0800 : 0) | (entry.encrypted ? 0x0001 : 0);
    const quint16 versionNeeded = entry.zip64 ? 45 : 20;
    const QByteArray localName = entry.localName.value_or(entry.name);
    m_zip64 = m_zip64 || entry.zip64;

    // The fields both headers share, from "version needed" to the sizes.
    auto common = [&](QByteArray &out) {
        put16(out, versionNeeded);
        put16(out, flags);
        put16(out, entry.method);
        put16(out, 0); // time
        put16(out, kDosDate);
        put32(out, crc);
        put32(out, entry.zip64 ? kZip64Marker : quint32(compressedSize));
        put32(out, entry.zip64 ? kZip64Marker : quint32(size));
    };

    QByteArray localExtra;
    QByteArray centralExtra;
    if (entry.zip64) {
        put16(localExtra, 0x0001);
        put16(localExtra, 16);
        put64(localExtra, size);
        put64(localExtra, compressedSize);
        put16(centralExtra, 0x0001);
        put16(centralExtra, 24);
        put64(centralExtra, size);
        put64(centralExtra, compressedSize);
        put64(centralExtra, quint64(offset));
    }

    put32(m_local, 0x04034b50);
    common(m_local);
    put16(m_local, quint16(localName.size()));
    put16(m_local, quint16(localExtra.size()));
    m_local.append(localName).append(localExtra).append(stored);

    put32(m_central, 0x02014b50);
    put16(m_central, entry.versionMadeBy);
    common(m_central);
    put16(m_central, quint16(entry.name.size()));
    put16(m_central, quint16(centralExtra.size()));
    put16(m_central, 0); // comment
    put16(m_central, 0); // disk
    put16(m_central, 0); // internal attributes
    put32(m_central, entry.externalAttributes);
    put32(m_central, entry.zip64 ? kZip64Marker : quint32(offset));
    m_central.append(entry.name).append(centralExtra);
    ++m_count;
    return offset;
}

QByteArray ZipWriter::finish() const
{
    QByteArray archive = m_local + m_central;
    const quint64 centralOffset = quint64(m_local.size());
    if (m_zip64) {
        const quint64 zip64EndOffset = quint64(archive.size());
        put32(archive, 0x06064b50);
        put64(archive, 44); // the size of the rest of this record
        put16(archive, 0x031e);
        put16(archive, 45);
        put32(archive, 0); // this disk
        put32(archive, 0); // the central directory's disk
        put64(archive, m_count);
        put64(archive, m_count);
        put64(archive, quint64(m_central.size()));
        put64(archive, centralOffset);
        put32(archive, 0x07064b50); // the locator
        put32(archive, 0);
        put64(archive, zip64EndOffset);
        put32(archive, 1); // disks
    }
    put32(archive, 0x06054b50);
    put16(archive, 0);
    put16(archive, 0);
    put16(archive, m_count);
    put16(archive, m_count);
    put32(archive, quint32(m_central.size()));
    put32(archive, quint32(centralOffset));
    put16(archive, 0); // comment
    return archive;
}

bool ZipWriter::save(const QString &hostPath) const
{
    QDir().mkpath(QFileInfo(hostPath).absolutePath());
    QFile file(hostPath);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(finish()) >= 0;
}
