#include "session/RepairJob.h"

#include "common/Logging.h"
#include "detect/Detector.h"
#include "session/InstallRequest.h"
#include "verify/Verifier.h"

namespace cudnnsetup {

RepairJob::RepairJob(Request request, SystemContext context,
                     std::shared_ptr<PersistentEnvironment> environment, QObject *parent)
    : BackgroundJob(QStringLiteral("doctor"), parent)
    , m_request(std::move(request))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
{
}

void RepairJob::diagnose()
{
    run({});
}

void RepairJob::repair(const QList<Repair> &repairs)
{
    if (!repairs.isEmpty())
        run(repairs);
}

void RepairJob::cancelRepair()
{
    if (isRepairing())
        cancel();
}

void RepairJob::run(const QList<Repair> &repairs)
{
    if (isRunning())
        return;
    m_repairing = !repairs.isEmpty();
    // The snapshot is detected anew each time: the one the Hardware page took predates the install,
    // and a repair changes which copy programs load. It reads PATH as the repairs left it stored.
    // A cancel that came before it (the repair's, at its very end) does not cut it short.
    const auto examine = [request = m_request, context = m_context.withStoredEnvironment(m_environment),
                          environment = m_environment](const CancelToken &token,
                                                       const std::optional<VerifyReport> &verified) {
        const std::atomic<bool> *stop = token.requested() ? nullptr : token.flag();
        DoctorInput input;
        DetectOptions detect = request.detect;
        detect.progress = {};
        detect.cancel = stop;
        input.snapshot = detectSystem(context, detect);
        for (const auto &[receipt, path] : installedReceipts(context))
            input.receipts.append(receipt);
        input.verify = verified;
        input.log = request.log;
        if (!verified && request.subject) {
            VerifyOptions options = request.verifyOptions;
            options.framework = false;
            options.stageDone = {};
            options.cancel = stop;
            input.verify = verify(context, input.snapshot, *request.subject, options);
        }
        return cudnnsetup::diagnose(input, context, *environment, request.database);
    };
    const auto done = [this](const Result &result) {
        m_repairing = false;
        if (result.outcome) {
            qCInfo(lcSession) << "repairs finished:" << result.outcome->statusName() << "exit code"
                              << result.outcome->exitCode()
                              << (result.outcome->receipt ? result.outcome->receipt->id : QString());
            Q_EMIT repaired(*result.outcome);
        }
        if (result.report) {
            qCInfo(lcSession) << "diagnosis:" << result.report->diagnoses.size() << "findings,"
                              << (result.report->healthy() ? "healthy" : "not healthy");
            Q_EMIT diagnosed(*result.report);
        }
    };
    if (repairs.isEmpty()) {
        qCInfo(lcSession) << "diagnosing";
        BackgroundJob::run(
            [examine, verified = m_request.verify](const CancelToken &token) {
                return Result{std::nullopt, examine(token, verified)};
            },
            done);
        return;
    }
    QStringList ids;
    for (const Repair &repair : repairs)
        ids.append(repair.id);
    qCInfo(lcSession).noquote() << "applying the repairs" << ids.join(QStringLiteral(", "));
    ChangeOptions options;
    options.ownerWindow = m_request.ownerWindow;
    BackgroundJob::run(
        [examine, repairs, context = m_context, environment = m_environment, options,
         helper = cudnnctlBesideThisProgram(),
         extra = elevatedHelperArguments()](const CancelToken &token) mutable {
            options.cancelled = token.asked();
            Result result;
            // Machine-wide repairs through an elevated cudnnctl (Windows asks first), the rest here.
            result.outcome = repairWithElevation(repairs, options, context, environment, helper, extra);
            // What a repair that changed nothing leaves is what the last diagnosis saw.
            if (result.outcome->changedNow())
                result.report = examine(token, std::nullopt);
            return result;
        },
        done);
}

} // namespace cudnnsetup
