#include "archive/CheckedEntryStream.h"

#include "common/Logging.h"

#include <algorithm>
#include <utility>

namespace cudnnsetup {

namespace {
// Large enough that the per-read cost of the unzip libraries does not count.
constexpr qint64 kInputChunk = 256 * 1024;
// The libraries' reads take an unsigned length.
constexpr qint64 kMaxRawRead = 1 << 30;
constexpr quint16 kDeflated = 8;

const char *const kShorter =
    QT_TRANSLATE_NOOP("cudnnsetup", "%1 ends before the size the archive's table of contents gives.");
const char *const kLonger =
    QT_TRANSLATE_NOOP("cudnnsetup", "%1 holds more data than the archive's table of contents says.");
const char *const kUnreadable = QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be read from the archive.");
const char *const kClosed =
    QT_TRANSLATE_NOOP("cudnnsetup", "%1 was closed because another entry of the archive was opened.");
} // namespace

CheckedEntryStream::CheckedEntryStream(const ZipEntry &entry, std::weak_ptr<RawEntryReader> raw)
    : m_entry(entry)
    , m_raw(std::move(raw))
{
    if (m_entry.method == kDeflated) {
        m_inflater = std::make_unique<RawInflater>();
        if (!m_inflater->isValid())
            fail(kUnreadable, QStringLiteral("the inflater could not be set up"));
    }
}

CheckedEntryStream::~CheckedEntryStream() = default;

qint64 CheckedEntryStream::read(char *data, qint64 maxSize)
{
    if (m_failed)
        return -1;
    if (m_finished || maxSize <= 0)
        return 0;
    if (m_raw.expired()) // checked before buffered input is used up, too
        return fail(kClosed, QStringLiteral("the ZipSource opened another entry or was destroyed"));

    const qint64 remaining = m_entry.uncompressedSize - m_produced;
    if (remaining > 0) {
        const qint64 count = produce(data, std::min(maxSize, remaining));
        if (count < 0)
            return -1;
        if (count == 0) {
            return fail(kShorter,
                        QStringLiteral("%1 of %2 bytes").arg(m_produced).arg(m_entry.uncompressedSize));
        }
        m_produced += count;
        m_crc = RawInflater::crc32(m_crc, data, count);
        return count;
    }

    // All the declared bytes are out: the data must end here, and the compressed bytes with it.
    char probe = 0;
    const qint64 more = produce(&probe, 1);
    if (more < 0)
        return -1;
    const bool longer = more > 0 || rawBytesLeft();
    if (m_failed)
        return -1;
    if (longer) {
        return fail(kLonger, QStringLiteral("more than %1 bytes").arg(m_entry.uncompressedSize));
    }
    m_finished = true;
    if (m_crc != m_entry.crc32) {
        qCDebug(lcCore).noquote() << QStringLiteral("zip entry %1: CRC-32 %2, the central directory says %3")
                                         .arg(m_entry.index)
                                         .arg(m_crc, 8, 16, QLatin1Char('0'))
                                         .arg(m_entry.crc32, 8, 16, QLatin1Char('0'));
    }
    return 0;
}

qint64 CheckedEntryStream::produce(char *data, qint64 maxSize)
{
    if (m_inflater)
        return inflateInto(data, maxSize);
    return readRaw(data, maxSize);
}

qint64 CheckedEntryStream::inflateInto(char *data, qint64 maxSize)
{
    if (m_dataEnded)
        return 0;
    for (;;) {
        if (m_inflater->inputLeft() == 0 && !m_rawEnded) {
            m_input.resize(kInputChunk);
            const qint64 count = readRaw(m_input.data(), m_input.size());
            if (count < 0)
                return -1;
            m_rawEnded = count == 0;
            m_inflater->setInput(m_input.constData(), count);
        }
        qint64 produced = 0;
        const RawInflater::Status status = m_inflater->inflate(data, maxSize, produced);
        if (status == RawInflater::Status::Damaged) {
            return fail(QT_TRANSLATE_NOOP("cudnnsetup", "The compressed data of %1 is damaged."),
                        m_inflater->errorString());
        }
        if (status == RawInflater::Status::End)
            m_dataEnded = true;
        if (produced > 0 || m_dataEnded)
            return produced;
        if (m_inflater->inputLeft() == 0 && m_rawEnded)
            return fail(kShorter, QStringLiteral("the compressed data ends inside the deflate stream"));
    }
}

qint64 CheckedEntryStream::readRaw(char *data, qint64 maxSize)
{
    const std::shared_ptr<RawEntryReader> raw = m_raw.lock();
    if (!raw)
        return fail(kClosed, QStringLiteral("the ZipSource opened another entry or was destroyed"));
    const qint64 count = raw->readRaw(data, std::min(maxSize, kMaxRawRead));
    if (count < 0)
        return fail(kUnreadable, QStringLiteral("the unzip library's read failed"));
    return count;
}

bool CheckedEntryStream::rawBytesLeft()
{
    if (!m_inflater)
        return false; // stored data ended because the raw bytes did
    if (m_inflater->bytesAfterEnd())
        return true;
    char probe = 0;
    return !m_rawEnded && readRaw(&probe, 1) != 0;
}

qint64 CheckedEntryStream::fail(const char *message, const QString &details)
{
    m_failed = true;
    m_error = Text(message).arg(QString::fromUtf8(m_entry.rawName));
    qCDebug(lcCore).noquote() << QStringLiteral("zip entry %1 (%2): %3")
                                     .arg(m_entry.index)
                                     .arg(QString::fromUtf8(m_entry.rawName), details);
    return -1;
}

} // namespace cudnnsetup
