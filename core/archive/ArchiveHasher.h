#pragma once

#include "archive/ZipSource.h"
#include "common/Expected.h"
#include "platform/Sha256.h"

#include <QMutex>
#include <QString>

#include <functional>

namespace cudnnsetup {

// The SHA-256 of a whole archive, taken from the reads the zip backend makes anyway: every range
// that continues the hashed prefix is hashed as it goes by, so reading the entries front to back
// (as an extraction does) hashes the file in the same pass. finish() reads only what no read
// covered: the central directory, and the entries an inspection skipped.
class ArchiveHasher
{
public:
    explicit ArchiveHasher(QString hostPath);

    // For ZipSource::open; safe to call from several threads (parallel extraction).
    ReadObserver observer();
    // The digest; `cancelled` is asked and `progress(offset, fileSize)` told between blocks.
    // Errors: "archive.unreadable", "archive.cancelled".
    Expected<QString> finish(const std::function<bool()> &cancelled = {},
                             const std::function<void(qint64, qint64)> &progress = {});
    // Bytes hashed from the backend's own reads, as opposed to by finish().
    qint64 hashedWhileReading() const;

private:
    void seen(qint64 offset, const char *data, qint64 size);

    QString m_path;
    mutable QMutex m_mutex;
    Sha256 m_hash;
    qint64 m_next = 0;
    qint64 m_hashedWhileReading = 0;
};

} // namespace cudnnsetup
