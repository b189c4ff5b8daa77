#include "compat/PublishedArchives.h"

#include <algorithm>
#include <utility>

namespace cudnnsetup {

PublishedArchives::PublishedArchives(QList<KnownArchive> archives, QString databaseVersion)
    : m_archives(std::move(archives))
    , m_databaseVersion(std::move(databaseVersion))
{
}

const KnownArchive *PublishedArchives::bySha256(const QString &sha256) const
{
    const QString wanted = sha256.toLower();
    for (const KnownArchive &archive : m_archives) {
        if (archive.sha256 == wanted)
            return &archive;
    }
    return nullptr;
}

const KnownArchive *PublishedArchives::byFile(const QString &fileName) const
{
    for (const KnownArchive &archive : m_archives) {
        if (archive.file.compare(fileName, Qt::CaseInsensitive) == 0)
            return &archive;
    }
    return nullptr;
}

qint64 PublishedArchives::largestSize() const
{
    qint64 largest = 0;
    for (const KnownArchive &archive : m_archives)
        largest = std::max(largest, archive.size);
    return largest;
}

} // namespace cudnnsetup
