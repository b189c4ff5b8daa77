#include "archive/ArchiveHasher.h"

#include <QDir>
#include <QFile>
#include <QMutexLocker>

#include <algorithm>

namespace cudnnsetup {

ArchiveHasher::ArchiveHasher(QString hostPath)
    : m_path(std::move(hostPath))
{
}

ReadObserver ArchiveHasher::observer()
{
    return [this](qint64 offset, const char *data, qint64 size) { seen(offset, data, size); };
}

void ArchiveHasher::seen(qint64 offset, const char *data, qint64 size)
{
    QMutexLocker lock(&m_mutex);
    if (offset > m_next || offset + size <= m_next)
        return; // a gap before it, or nothing new
    const qint64 skip = m_next - offset;
    m_hash.add(data + skip, size - skip);
    m_hashedWhileReading += size - skip;
    m_next = offset + size;
}

qint64 ArchiveHasher::hashedWhileReading() const
{
    QMutexLocker lock(&m_mutex);
    return m_hashedWhileReading;
}

Expected<QString> ArchiveHasher::finish(const std::function<bool()> &cancelled,
                                        const std::function<void(qint64, qint64)> &progress)
{
    QMutexLocker lock(&m_mutex);
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(m_next)) {
        return Finding::error(QStringLiteral("archive.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
                                  .arg(QDir::toNativeSeparators(m_path)),
                              file.errorString());
    }
    // No larger than what is left: a small archive costs no large allocation.
    QByteArray block(std::clamp<qint64>(file.size() - m_next, 1, 4 << 20), Qt::Uninitialized);
    for (;;) {
        if (cancelled && cancelled())
            return Finding::error(
                QStringLiteral("archive.cancelled"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Reading the archive was cancelled.")));
        const qint64 got = file.read(block.data(), block.size());
        if (got < 0) {
            return Finding::error(QStringLiteral("archive.unreadable"),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
                                      .arg(QDir::toNativeSeparators(m_path)),
                                  file.errorString());
        }
        if (got == 0)
            break;
        m_hash.add(block.constData(), got);
        m_next += got;
        if (progress)
            progress(m_next, file.size());
    }
    return m_hash.hex();
}

} // namespace cudnnsetup
