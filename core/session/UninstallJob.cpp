#include "session/UninstallJob.h"

#include "common/Logging.h"
#include "session/InstallRequest.h"
#include "verify/Verifier.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

UninstallJob::UninstallJob(QString receiptId, SystemContext context,
                           std::shared_ptr<PersistentEnvironment> environment, quintptr ownerWindow,
                           QObject *parent)
    : QObject(parent)
    , m_receiptId(std::move(receiptId))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
    , m_ownerWindow(ownerWindow)
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
    // A machine-wide install goes through an elevated cudnnctl (Windows asks first); this user's
    // PATH entry and variables then by this process.
    const QString helper = cudnnctlBesideThisProgram();
    const QStringList extra = elevatedHelperArguments();
    ChangeOptions options;
    options.ownerWindow = m_ownerWindow;
    m_watcher.setFuture(QtConcurrent::run([id, context, environment, helper, extra, options] {
        return uninstallWithParts(id, options, context, environment, helper, extra);
    }));
}

} // namespace cudnnsetup
