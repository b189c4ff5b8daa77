#include "session/UninstallJob.h"

#include "common/Logging.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

UninstallJob::UninstallJob(QString receiptId, SystemContext context,
                           std::shared_ptr<PersistentEnvironment> environment, QObject *parent)
    : QObject(parent)
    , m_receiptId(std::move(receiptId))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
{
    connect(&m_watcher, &QFutureWatcher<ChangeOutcome>::finished, this, [this] {
        const ChangeOutcome outcome = m_watcher.result();
        m_running = false;
        qCInfo(lcWizard) << "uninstall of" << m_receiptId << "finished:" << outcome.statusName()
                         << "exit code" << outcome.exitCode() << "after" << m_clock.elapsed() << "ms";
        Q_EMIT finished(outcome);
    });
}

UninstallJob::~UninstallJob()
{
    m_watcher.waitForFinished();
}

void UninstallJob::start()
{
    if (isRunning())
        return;
    m_running = true;
    m_clock.start();
    qCInfo(lcWizard) << "uninstalling receipt" << m_receiptId;
    const QString id = m_receiptId;
    const SystemContext context = m_context;
    const std::shared_ptr<PersistentEnvironment> environment = m_environment;
    m_watcher.setFuture(
        QtConcurrent::run([id, context, environment] { return uninstall(id, context, environment); }));
}

} // namespace cudnnsetup
