#pragma once

#include <QByteArray>
#include <QtEndian>

namespace cudnnsetup {

// Little-endian fields of binary formats (PE, zip), read at `at`; 0 where the bytes end first.
template <typename T>
T littleEndianAt(const QByteArray &data, qint64 at)
{
    if (at < 0 || at + qint64(sizeof(T)) > data.size())
        return 0;
    return qFromLittleEndian<T>(data.constData() + at);
}

inline quint16 le16(const QByteArray &data, qint64 at)
{
    return littleEndianAt<quint16>(data, at);
}

inline quint32 le32(const QByteArray &data, qint64 at)
{
    return littleEndianAt<quint32>(data, at);
}

inline quint64 le64(const QByteArray &data, qint64 at)
{
    return littleEndianAt<quint64>(data, at);
}

} // namespace cudnnsetup
