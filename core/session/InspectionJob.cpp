#include "session/InspectionJob.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

InspectionJob::InspectionJob(QString hostPath, KnowledgeBase database, QObject *parent)
    : QObject(parent)
    , m_path(std::move(hostPath))
    , m_database(std::move(database))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    connect(&m_watcher, &QFutureWatcher<Expected<ArchiveReport>>::finished, this, [this] {
        const Expected<ArchiveReport> result = m_watcher.result();
        if (m_cancel->load())
            Q_EMIT cancelled();
        else if (result)
            Q_EMIT finished(*result);
        else
            Q_EMIT failed(result.error());
    });
}

InspectionJob::~InspectionJob()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

void InspectionJob::start()
{
    if (isRunning())
        return;
    m_cancel->store(false);
    InspectOptions options;
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    options.cancelled = [cancel] { return cancel->load(); };
    // Whole percents only: a 700 MB archive would otherwise post thousands of events. The
    // destructor waits for the worker, so `this` outlives every call.
    auto lastPercent = std::make_shared<std::atomic<int>>(-1);
    options.progress = [this, lastPercent](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(done * 100 / total) : 0;
        if (lastPercent->exchange(percent) == percent)
            return;
        QMetaObject::invokeMethod(
            this, [this, percent] { Q_EMIT progress(percent / 100.0); }, Qt::QueuedConnection);
    };
    const QString path = m_path;
    const KnowledgeBase database = m_database;
    m_watcher.setFuture(
        QtConcurrent::run([path, database, options] { return inspectArchive(path, database, options); }));
}

void InspectionJob::cancel()
{
    m_cancel->store(true);
}

} // namespace cudnnsetup
