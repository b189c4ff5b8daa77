#pragma once

#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace cudnnsetup {

// Inspects an archive on a worker thread and reports back on the thread that started it:
// progress(fraction) while it reads, finished(report) or failed(finding) at the end. A cancelled
// job emits cancelled() instead.
class InspectionJob final : public QObject
{
    Q_OBJECT

public:
    InspectionJob(QString hostPath, KnowledgeBase database, QObject *parent = nullptr);
    ~InspectionJob() override;

    void start();
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }
    QString path() const { return m_path; }

Q_SIGNALS:
    void progress(double fraction);
    void finished(const cudnnsetup::ArchiveReport &report);
    void failed(const cudnnsetup::Finding &problem);
    void cancelled();

private:
    QString m_path;
    KnowledgeBase m_database;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<Expected<ArchiveReport>> m_watcher;
};

} // namespace cudnnsetup
