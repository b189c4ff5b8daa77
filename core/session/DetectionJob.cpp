#include "session/DetectionJob.h"

#include "detect/Detector.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

DetectionJob::DetectionJob(SystemContext context, DetectOptions options, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_options(std::move(options))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    connect(&m_watcher, &QFutureWatcher<SystemSnapshot>::finished, this, [this] {
        if (m_cancel->load())
            Q_EMIT cancelled();
        else
            Q_EMIT finished(m_watcher.result());
    });
}

DetectionJob::~DetectionJob()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

void DetectionJob::start()
{
    if (isRunning())
        return;
    m_cancel->store(false);
    DetectOptions options = m_options;
    options.cancel = m_cancel.get();
    // The destructor waits for the worker, so `this` outlives every call; a call still queued
    // when the job is deleted is dropped with it.
    options.progress = [this](double fraction, const QString &text) {
        QMetaObject::invokeMethod(
            this, [this, fraction, text] { Q_EMIT progress(fraction, text); }, Qt::QueuedConnection);
    };
    const SystemContext context = m_context;
    m_watcher.setFuture(QtConcurrent::run([context, options] { return detectSystem(context, options); }));
}

void DetectionJob::cancel()
{
    m_cancel->store(true);
}

} // namespace cudnnsetup
