#pragma once

#include <QString>
#include <QtGlobal>

#include <memory>

namespace cudnnsetup {

// Raw DEFLATE data (as zip stores it, no zlib header) inflated chunk by chunk, and the CRC-32 zip
// checks it with. Intel's ISA-L where the build has it (several times zlib's speed on the large
// cuDNN DLLs), zlib otherwise; both give the same bytes and the same checksums.
class RawInflater
{
public:
    enum class Status
    {
        Progress, // some output, or all input used up: give more input or room
        End,      // the deflate stream is complete
        Damaged,
    };

    RawInflater();
    ~RawInflater();
    RawInflater(const RawInflater &) = delete;
    RawInflater &operator=(const RawInflater &) = delete;

    bool isValid() const;
    // The next compressed bytes; they must stay until inputLeft() is 0.
    void setInput(const char *data, qint64 size);
    qint64 inputLeft() const;
    // Inflates into `out` (at most `room` bytes); `produced` is how many it wrote.
    Status inflate(char *out, qint64 room, qint64 &produced);
    // After End: whether compressed bytes followed the end of the stream.
    bool bytesAfterEnd() const;
    QString errorString() const;

    static quint32 crc32(quint32 crc, const char *data, qint64 size);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace cudnnsetup
