#include "session/VerifyJob.h"

#include "common/Logging.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

VerifyJob::VerifyJob(SystemContext context, SystemSnapshot snapshot, VerifySubject subject,
                     VerifyOptions options, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_snapshot(std::move(snapshot))
    , m_subject(std::move(subject))
    , m_options(std::move(options))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    connect(&m_watcher, &QFutureWatcher<VerifyReport>::finished, this, [this] {
        m_running = false;
        if (m_cancel->load()) {
            qCInfo(lcWizard) << "verification cancelled after" << m_clock.elapsed() << "ms";
            Q_EMIT cancelled();
            return;
        }
        const VerifyReport report = m_watcher.result();
        qCInfo(lcWizard) << "verification of" << report.directory << (report.passed() ? "passed" : "failed")
                         << "after" << m_clock.elapsed() << "ms";
        Q_EMIT finished(report);
    });
}

VerifyJob::~VerifyJob()
{
    m_cancel->store(true);
    m_watcher.waitForFinished();
}

void VerifyJob::start()
{
    if (isRunning())
        return;
    m_running = true;
    m_cancel->store(false);
    m_clock.start();
    VerifyOptions options = m_options;
    options.cancel = m_cancel.get();
    // The destructor waits for the worker, so `this` outlives every call; a call still queued when
    // the job is deleted is dropped with it.
    options.stageDone = [this](const VerifyStage &stage) {
        QMetaObject::invokeMethod(
            this, [this, stage] { Q_EMIT stageFinished(stage); }, Qt::QueuedConnection);
    };
    qCInfo(lcWizard) << "verifying" << m_subject.directory << "from the" << m_subject.source
                     << m_subject.receiptId;
    const SystemContext context = m_context;
    const SystemSnapshot snapshot = m_snapshot;
    const VerifySubject subject = m_subject;
    m_watcher.setFuture(QtConcurrent::run(
        [context, snapshot, subject, options] { return verify(context, snapshot, subject, options); }));
}

void VerifyJob::cancel()
{
    if (isRunning() && !m_cancel->exchange(true))
        qCInfo(lcWizard) << "verification cancelled by the user";
}

} // namespace cudnnsetup
