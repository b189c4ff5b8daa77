#pragma once

#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "session/BackgroundJob.h"

namespace cudnnsetup {

// An archive inspected on a worker thread: progress(fraction) while it reads, finished(report) or
// failed(finding) at the end; a cancelled job emits cancelled() instead.
class InspectionJob final : public BackgroundJob
{
    Q_OBJECT

public:
    InspectionJob(QString hostPath, KnowledgeBase database, QObject *parent = nullptr);

    void start();
    QString path() const { return m_path; }

Q_SIGNALS:
    void progress(double fraction);
    void finished(const cudnnsetup::ArchiveReport &report);
    void failed(const cudnnsetup::Finding &problem);

private:
    QString m_path;
    KnowledgeBase m_database;
};

} // namespace cudnnsetup
