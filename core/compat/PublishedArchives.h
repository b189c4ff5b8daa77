#pragma once

#include "common/Version.h"
#include "compat/SourcedRecord.h"

#include <QList>
#include <QString>

namespace cudnnsetup {

struct KnownArchive : SourcedRecord
{
    QString file;
    QString platform;
    Version cudnn;
    QString cuda;
    QString sha256;
    qint64 size = -1;
    QString url;
    QString confidence;
};

// The archives NVIDIA published, as one version of the compatibility database records them: all
// the archive inspector judges a file against. Its caller hands it over
// (KnowledgeBase::publishedArchives()), so the inspector reads no database.
class PublishedArchives final
{
public:
    PublishedArchives() = default;
    PublishedArchives(QList<KnownArchive> archives, QString databaseVersion);

    const QList<KnownArchive> &all() const { return m_archives; }
    // The archive with this SHA-256 (any case), or null.
    const KnownArchive *bySha256(const QString &sha256) const;
    // The archive NVIDIA published under this file name (any case), or null.
    const KnownArchive *byFile(const QString &fileName) const;
    // The size of the largest archive recorded; 0 when none has a size.
    qint64 largestSize() const;
    QString databaseVersion() const { return m_databaseVersion; }

private:
    QList<KnownArchive> m_archives;
    QString m_databaseVersion;
};

} // namespace cudnnsetup
