#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include "archive/ArchiveInspector.h"
#include "common/Version.h"

namespace cudnnsetup {

class ZipSource;

// Reads every entry once, in file order, so the backend's reads also hash the archive.
class EntryPass final
{
public:
    EntryPass(ZipSource &source, ArchiveReport &report, const QList<int> &fileIndexOfEntry,
              const InspectOptions &options);

    // False when cancelled.
    bool run();

    Version headerVersion() const { return m_headerVersion; }
    // The main library's version resource; invalid when it has none.
    Version libraryVersion() const { return m_libraryVersion; }

private:
    void corrupt(const QString &path, const QString &why);
    void checkDll(ArchiveFile &file, const QByteArray &head);
    void reportDlls();

    ZipSource &m_source;
    ArchiveReport &m_report;
    const QList<int> &m_fileOfEntry;
    const InspectOptions &m_options;
    QStringList m_notX64;
    QStringList m_notPe;
    Version m_headerVersion;
    Version m_libraryVersion;
};

} // namespace cudnnsetup
