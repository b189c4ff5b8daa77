#include "platform/ObservedFile.h"

#include <utility>

namespace cudnnsetup {

ObservedFile::ObservedFile(const QString &hostPath, Observer observer)
    : m_file(hostPath)
    , m_observer(std::move(observer))
{
}

ObservedFile::~ObservedFile() = default;

bool ObservedFile::open(OpenMode mode)
{
    if ((mode & ReadWrite) != ReadOnly) {
        setErrorString(QStringLiteral("ObservedFile is read-only"));
        return false;
    }
    if (!m_file.open(ReadOnly)) {
        setErrorString(m_file.errorString());
        return false;
    }
    return QIODevice::open(ReadOnly | Unbuffered);
}

void ObservedFile::close()
{
    QIODevice::close();
    m_file.close();
}

qint64 ObservedFile::size() const
{
    return m_file.size();
}

bool ObservedFile::seek(qint64 offset)
{
    return m_file.seek(offset) && QIODevice::seek(offset);
}

QByteArray ObservedFile::readAt(qint64 offset, qint64 size)
{
    if (!seek(offset))
        return {};
    return read(size);
}

qint64 ObservedFile::readData(char *data, qint64 maxSize)
{
    const qint64 offset = m_file.pos();
    const qint64 count = m_file.read(data, maxSize);
    if (count > 0 && m_observer)
        m_observer(offset, data, count);
    return count;
}

qint64 ObservedFile::writeData(const char *, qint64)
{
    return -1;
}

} // namespace cudnnsetup
