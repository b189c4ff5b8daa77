#include "session/RepairJob.h"

#include "common/Logging.h"
#include "detect/Detector.h"
#include "session/InstallRequest.h"
#include "verify/Verifier.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

namespace {

bool changedSomething(const ChangeOutcome &outcome)
{
    return outcome.status == ChangeOutcome::Status::Done ||
           outcome.status == ChangeOutcome::Status::DoneRestartNeeded;
}

} // namespace

RepairJob::RepairJob(Request request, SystemContext context,
                     std::shared_ptr<PersistentEnvironment> environment, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
    , m_stop(std::make_shared<std::atomic<bool>>(false))
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        const Result result = m_watcher.result();
        m_running = false;
        m_repairing = false;
        if (result.outcome) {
            qCInfo(lcWizard) << "repairs finished:" << result.outcome->statusName() << "exit code"
                             << result.outcome->exitCode() << "after" << m_clock.elapsed() << "ms"
                             << (result.outcome->receipt ? result.outcome->receipt->id : QString());
            Q_EMIT repaired(*result.outcome);
        }
        if (result.report) {
            qCInfo(lcWizard) << "diagnosis:" << result.report->diagnoses.size() << "findings,"
                             << (result.report->healthy() ? "healthy" : "not healthy");
            Q_EMIT diagnosed(*result.report);
        }
    });
}

RepairJob::~RepairJob()
{
    m_stop->store(true);
    m_watcher.waitForFinished();
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

void RepairJob::run(const QList<Repair> &repairs)
{
    if (isRunning())
        return;
    m_running = true;
    m_repairing = !repairs.isEmpty();
    m_cancel->store(false);
    m_clock.start();
    const Request request = m_request;
    const SystemContext context = m_context;
    const std::shared_ptr<PersistentEnvironment> environment = m_environment;
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    const std::shared_ptr<std::atomic<bool>> stop = m_stop;
    // The snapshot is detected anew each time: the one the Hardware page took predates the install,
    // and a repair changes which copy programs load. It reads PATH as the repairs left it stored.
    const auto examine = [request, context = context.withStoredEnvironment(environment), environment,
                          stop](const std::optional<VerifyReport> &verified) {
        DoctorInput input;
        DetectOptions detect = request.detect;
        detect.progress = {};
        detect.cancel = stop.get();
        input.snapshot = detectSystem(context, detect);
        for (const auto &[receipt, path] : installedReceipts(context))
            input.receipts.append(receipt);
        input.verify = verified;
        if (!verified && request.subject) {
            VerifyOptions options = request.verifyOptions;
            options.framework = false;
            options.stageDone = {};
            options.cancel = stop.get();
            input.verify = verify(context, input.snapshot, *request.subject, options);
        }
        return cudnnsetup::diagnose(input, context, *environment, request.database);
    };
    if (repairs.isEmpty()) {
        qCInfo(lcWizard) << "diagnosing";
        m_watcher.setFuture(QtConcurrent::run([examine, request] {
            return Result{std::nullopt, examine(request.verify)};
        }));
        return;
    }
    QStringList ids;
    for (const Repair &repair : repairs)
        ids.append(repair.id);
    qCInfo(lcWizard).noquote() << "applying the repairs" << ids.join(QStringLiteral(", "));
    m_watcher.setFuture(QtConcurrent::run([examine, repairs, context, environment, cancel, stop, request] {
        ChangeOptions options;
        options.cancelled = [cancel, stop] { return cancel->load() || stop->load(); };
        options.ownerWindow = request.ownerWindow;
        Result result;
        // Machine-wide repairs through an elevated cudnnctl (Windows asks first), the rest here.
        result.outcome = repairWithElevation(repairs, options, context, environment,
                                             cudnnctlBesideThisProgram(), elevatedHelperArguments());
        // What a repair that changed nothing leaves is what the last diagnosis saw.
        if (changedSomething(*result.outcome) && !stop->load())
            result.report = examine(std::nullopt);
        return result;
    }));
}

void RepairJob::cancel()
{
    if (isRepairing() && !m_cancel->exchange(true))
        qCInfo(lcWizard) << "repairs cancelled by the user; rolling back";
}

} // namespace cudnnsetup
