#include "archive/RawInflater.h"

#include <zlib.h>

#ifdef CUDNNSETUP_HAVE_ISAL
#include <isa-l.h>
#endif

#include <algorithm>

namespace cudnnsetup {

namespace {
// zlib counts in uInt, ISA-L in uint32_t.
constexpr qint64 kMaxStep = 1 << 30;
} // namespace

#ifdef CUDNNSETUP_HAVE_ISAL

struct RawInflater::State
{
    inflate_state isal{};
    int status = ISAL_DECOMP_OK;
};

RawInflater::RawInflater()
    : m_state(std::make_unique<State>())
{
    isal_inflate_init(&m_state->isal);
    m_state->isal.crc_flag = ISAL_DEFLATE; // raw data: zip keeps the CRC in its headers
}

RawInflater::~RawInflater() = default;

bool RawInflater::isValid() const
{
    return true;
}

void RawInflater::setInput(const char *data, qint64 size)
{
    m_state->isal.next_in = reinterpret_cast<uint8_t *>(const_cast<char *>(data));
    m_state->isal.avail_in = static_cast<uint32_t>(std::min(size, kMaxStep));
}

qint64 RawInflater::inputLeft() const
{
    return m_state->isal.avail_in;
}

RawInflater::Status RawInflater::inflate(char *out, qint64 room, qint64 &produced)
{
    inflate_state &isal = m_state->isal;
    isal.next_out = reinterpret_cast<uint8_t *>(out);
    isal.avail_out = static_cast<uint32_t>(std::min(room, kMaxStep));
    const uint32_t before = isal.avail_out;
    m_state->status = isal_inflate(&isal);
    produced = before - isal.avail_out;
    if (m_state->status < 0)
        return Status::Damaged;
    return isal.block_state == ISAL_BLOCK_FINISH ? Status::End : Status::Progress;
}

bool RawInflater::bytesAfterEnd() const
{
    // ISA-L reads ahead into a bit buffer: whole bytes still there were never part of the stream.
    const inflate_state &isal = m_state->isal;
    return isal.avail_in > 0 || isal.read_in_length >= 8;
}

QString RawInflater::errorString() const
{
    return QStringLiteral("isal_inflate: %1").arg(m_state->status);
}

quint32 RawInflater::crc32(quint32 crc, const char *data, qint64 size)
{
    for (qint64 done = 0; done < size;) {
        const qint64 step = std::min(size - done, kMaxStep);
        crc = crc32_gzip_refl(crc, reinterpret_cast<const unsigned char *>(data + done),
                              static_cast<uint64_t>(step));
        done += step;
    }
    return crc;
}

#else

struct RawInflater::State
{
    z_stream zlib{};
    bool initialised = false;
    int status = Z_OK;
};

RawInflater::RawInflater()
    : m_state(std::make_unique<State>())
{
    // Negative window bits: raw deflate data, as zip stores it (no zlib header).
    m_state->initialised = inflateInit2(&m_state->zlib, -MAX_WBITS) == Z_OK;
}

RawInflater::~RawInflater()
{
    if (m_state->initialised)
        inflateEnd(&m_state->zlib);
}

bool RawInflater::isValid() const
{
    return m_state->initialised;
}

void RawInflater::setInput(const char *data, qint64 size)
{
    m_state->zlib.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
    m_state->zlib.avail_in = static_cast<uInt>(std::min(size, kMaxStep));
}

qint64 RawInflater::inputLeft() const
{
    return m_state->zlib.avail_in;
}

RawInflater::Status RawInflater::inflate(char *out, qint64 room, qint64 &produced)
{
    z_stream &zlib = m_state->zlib;
    zlib.next_out = reinterpret_cast<Bytef *>(out);
    zlib.avail_out = static_cast<uInt>(std::min(room, kMaxStep));
    const uInt before = zlib.avail_out;
    m_state->status = ::inflate(&zlib, Z_NO_FLUSH);
    produced = before - zlib.avail_out;
    if (m_state->status == Z_STREAM_END)
        return Status::End;
    // Z_BUF_ERROR only says no progress was possible: more input or room is needed.
    return m_state->status == Z_OK || m_state->status == Z_BUF_ERROR ? Status::Progress : Status::Damaged;
}

bool RawInflater::bytesAfterEnd() const
{
    return m_state->zlib.avail_in > 0;
}

QString RawInflater::errorString() const
{
    return QStringLiteral("inflate: %1 (%2)")
        .arg(m_state->status)
        .arg(QString::fromLatin1(m_state->zlib.msg ? m_state->zlib.msg : ""));
}

quint32 RawInflater::crc32(quint32 crc, const char *data, qint64 size)
{
    for (qint64 done = 0; done < size;) {
        const qint64 step = std::min(size - done, kMaxStep);
        crc = quint32(::crc32(crc, reinterpret_cast<const Bytef *>(data + done), static_cast<uInt>(step)));
        done += step;
    }
    return crc;
}

#endif

} // namespace cudnnsetup
