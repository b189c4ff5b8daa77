#include "session/InstallJob.h"

#include "common/Logging.h"
#include "session/InstallRequest.h"
#include "verify/Verifier.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cudnnsetup {

namespace {

// Progress in thousandths: finer than any bar draws, coarse enough that a 700 MB archive does not
// post an event per block it unpacks.
constexpr int kSteps = 1000;
// Below this much done, or this soon, the pace says nothing yet.
constexpr double kLeastFraction = 0.02;
constexpr qint64 kLeastElapsedMs = 1000;

} // namespace

InstallJob::InstallJob(Request request, SystemContext context,
                       std::shared_ptr<PersistentEnvironment> environment, QObject *parent)
    : BackgroundJob(QStringLiteral("install"), parent)
    , m_request(std::move(request))
    , m_context(std::move(context))
    , m_environment(std::move(environment))
{
}

double InstallJob::fraction(int stepsDone, int stepsTotal, qint64 bytesDone, qint64 bytesTotal)
{
    const double steps = stepsTotal > 0 ? std::clamp(double(stepsDone) / stepsTotal, 0.0, 1.0) : 0.0;
    // Until the unpacking says how much there is, the steps stand in for the bytes.
    const double bytes =
        bytesTotal > 0 ? std::clamp(double(bytesDone) / double(bytesTotal), 0.0, 1.0) : steps;
    return kBytesWeight * bytes + (1.0 - kBytesWeight) * steps;
}

int InstallJob::secondsLeft(double fraction, qint64 elapsedMs)
{
    if (fraction < kLeastFraction || elapsedMs < kLeastElapsedMs)
        return -1;
    if (fraction >= 1.0)
        return 0;
    return int(std::ceil(double(elapsedMs) * (1.0 - fraction) / fraction / 1000.0));
}

void InstallJob::start()
{
    if (isRunning())
        return;
    m_stepsDone = m_stepsTotal = 0;
    m_bytesDone = m_bytesTotal = 0;
    m_step = Text();
    m_fraction = 0;

    ChangeOptions options;
    options.ownerWindow = m_request.ownerWindow;
    options.progress = [this](int done, int total, const Text &step) {
        post([this, done, total, step] { report(done, total, step, m_bytesDone, m_bytesTotal); });
    };
    auto lastStep = std::make_shared<std::atomic<qint64>>(-1);
    options.bytesProgress = [this, lastStep](qint64 done, qint64 total) {
        const qint64 step = total > 0 ? done * kSteps / total : 0;
        if (lastStep->exchange(step) != step)
            post([this, done, total] { report(m_stepsDone, m_stepsTotal, m_step, done, total); });
    };
    const InstallTarget &target = m_request.plan.target;
    qCInfo(lcSession) << "installing" << m_request.archive.path << "into" << target.kindName() << target.root
                      << "PATH" << pathScopeName(target.pathScope);
    // Where the plan needs an administrator, an elevated cudnnctl installs it (Windows asks first);
    // its steps cannot be followed from here, so the bar waits for its end.
    run(
        [request = m_request, context = m_context, environment = m_environment, options,
         helper = cudnnctlBesideThisProgram(),
         extra = elevatedHelperArguments()](const CancelToken &token) mutable {
            options.cancelled = token.asked();
            ChangeOutcome outcome =
                installPlanned(request.plan, request.archive, options, helper, extra, context, environment);
            const bool changedEnvironment = !outcome.receipt.value_or(Receipt()).environment.isEmpty();
            QStringList running = changedEnvironment ? context.runningPrograms().names() : QStringList();
            return std::pair(std::move(outcome), std::move(running));
        },
        [this](const std::pair<ChangeOutcome, QStringList> &result) {
            const ChangeOutcome &outcome = result.first;
            qCInfo(lcSession) << "install finished:" << outcome.statusName() << "exit code"
                              << outcome.exitCode() << (outcome.receipt ? outcome.receipt->id : QString());
            Q_EMIT finished(outcome, result.second);
        });
}

void InstallJob::report(int stepsDone, int stepsTotal, const Text &step, qint64 bytesDone, qint64 bytesTotal)
{
    m_stepsDone = stepsDone;
    m_stepsTotal = stepsTotal;
    m_step = step;
    m_bytesDone = bytesDone;
    m_bytesTotal = bytesTotal;
    m_fraction = std::max(m_fraction, fraction(stepsDone, stepsTotal, bytesDone, bytesTotal));
    Q_EMIT progress(m_fraction, step.toString(), secondsLeft(m_fraction, elapsedMs()));
}

} // namespace cudnnsetup
