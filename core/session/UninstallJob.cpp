#include "session/UninstallJob.h"

#include "common/Logging.h"
#include "session/InstallRequest.h"
#include "verify/Verifier.h"

namespace cudnnsetup {

UninstallJob::UninstallJob(QString receiptId, SystemContext context,
                           std::shared_ptr<PersistentEnvironment> environment, quintptr ownerWindow,
                           QObject *parent)
    : BackgroundJob(QStringLiteral("uninstall"), parent)
    , m_receiptId(std::move(receiptId))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
    , m_ownerWindow(ownerWindow)
{
}

void UninstallJob::start()
{
    qCInfo(lcSession) << "uninstalling receipt" << m_receiptId;
    // A machine-wide install goes through an elevated cudnnctl (Windows asks first); this user's
    // PATH entry and variables then by this process.
    ChangeOptions options;
    options.ownerWindow = m_ownerWindow;
    run(
        [id = m_receiptId, context = m_context, environment = m_environment,
         helper = cudnnctlBesideThisProgram(), extra = elevatedHelperArguments(),
         options](const CancelToken &) {
            return uninstallWithParts(id, options, context, environment, helper, extra);
        },
        [this](const ChangeOutcome &outcome) {
            qCInfo(lcSession) << "uninstall of" << m_receiptId << "finished:" << outcome.statusName()
                              << "exit code" << outcome.exitCode();
            Q_EMIT finished(outcome);
        });
}

} // namespace cudnnsetup
