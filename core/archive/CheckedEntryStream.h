#pragma once

#include "archive/RawInflater.h"
#include "archive/ZipSource.h"
#include "common/Text.h"

#include <QByteArray>

#include <memory>

namespace cudnnsetup {

// The still compressed bytes of the entry a backend has open, as its library hands them out (no
// more than the central directory's compressed size). It goes away when the entry is closed.
class RawEntryReader
{
public:
    virtual ~RawEntryReader() = default;
    // 0 at the end of the entry's bytes, -1 when they cannot be read.
    virtual qint64 readRaw(char *data, qint64 maxSize) = 0;
};

// Inflates an entry's raw bytes (or passes stored ones through) and holds them to the central
// directory: never more bytes than its uncompressed size, exactly that many, and at the end its
// CRC-32. The libraries' own inflating readers stop quietly at the declared size, so a longer
// entry would pass unnoticed; this is why both backends hand out raw bytes only.
class CheckedEntryStream final : public ZipEntryStream
{
public:
    CheckedEntryStream(const ZipEntry &entry, std::weak_ptr<RawEntryReader> raw);
    ~CheckedEntryStream() override;

    qint64 read(char *data, qint64 maxSize) override;
    bool crcMatches() const override { return m_finished && m_crc == m_entry.crc32; }
    QString errorString() const override { return m_error.toString(); }

private:
    // Up to `maxSize` bytes of the entry's data, 0 where it ends, -1 on an error.
    qint64 produce(char *data, qint64 maxSize);
    qint64 inflateInto(char *data, qint64 maxSize);
    qint64 readRaw(char *data, qint64 maxSize);
    // Whether raw bytes follow the end of the deflated data.
    bool rawBytesLeft();
    qint64 fail(const char *message, const QString &details);

    ZipEntry m_entry;
    std::weak_ptr<RawEntryReader> m_raw;
    std::unique_ptr<RawInflater> m_inflater; // deflated entries only
    QByteArray m_input;
    bool m_rawEnded = false;
    bool m_dataEnded = false;
    qint64 m_produced = 0;
    quint32 m_crc = 0;
    bool m_finished = false;
    bool m_failed = false;
    Text m_error;
};

} // namespace cudnnsetup
