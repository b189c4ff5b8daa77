// The stages that use the GPU: a cuDNN handle and a small convolution.
#include "verify/VerifyStages.h"

#include "verify/LoadErrors.h"

#include <QDir>

namespace cudnnsetup {

namespace verifystages {

namespace {

double stepMilliseconds(const ProbeGpu &gpu, const QStringList &steps)
{
    double total = 0;
    for (const auto &[step, milliseconds] : gpu.milliseconds) {
        if (steps.contains(step))
            total += milliseconds;
    }
    return total;
}

// What the probe says of the GPU and the CUDA runtime, for every stage's details.
QString gpuDetails(const ProbeGpu &gpu)
{
    QString details = gpu.reason;
    if (!gpu.deviceName.isEmpty())
        details += (details.isEmpty() ? QString() : QStringLiteral("\n")) + QStringLiteral("GPU 0: ") +
                   gpu.deviceName;
    if (!gpu.cudartLoadedFrom.isEmpty())
        details += QStringLiteral("\nCUDA runtime: ") + QDir::toNativeSeparators(gpu.cudartLoadedFrom);
    return details;
}

// Why the GPU was not used at all: not asked, no cuDNN, no driver, no runtime, no GPU.
QList<VerifyStage> skippedGpuStages(const ProbeResult &probe, bool asked, const QString &details,
                                    double handleMs, Findings &findings)
{
    const ProbeGpu &gpu = probe.gpu;
    Text reason;
    Text fix;
    if (!asked) {
        reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped, as asked (--no-gpu)."));
    } else if (probe.loads.isEmpty() || !probe.loads.first().loaded()) {
        reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: cuDNN itself did not load."));
    } else if (gpu.cudaDriverVersion == 0) {
        // cudaDriverGetVersion answers 0 when no driver is installed; the runtime then calls
        // it "insufficient", which would send the user to update something that is not there.
        reason =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no NVIDIA driver is installed on this machine."));
        fix = Text(
            QT_TRANSLATE_NOOP("cudnnsetup", "Install the NVIDIA driver for the GPU, then verify again."));
    } else if (gpu.cudaError) {
        const ErrorExplanation explanation = explainCudaError(*gpu.cudaError);
        reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: the GPU cannot be used here (%1). %2"))
                     .arg(gpu.cudaErrorName.isEmpty() ? explanation.name : gpu.cudaErrorName)
                     .arg(explanation.cause);
        fix = explanation.fix;
    } else if (gpu.stage == QLatin1String("cudart")) {
        reason = Text(
            QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no CUDA runtime library (cudart) could be loaded."));
        fix = Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Install the CUDA toolkit cuDNN was built for, or put its bin folder on PATH."));
    } else {
        reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no NVIDIA GPU answers on this machine."));
    }
    findings.append(Finding::info(QStringLiteral("verify.gpu-skipped"), reason, details, fix));
    VerifyStage handle =
        makeStage(QStringLiteral("handle"), VerifyStage::Status::Skipped, reason, details, fix, handleMs);
    VerifyStage convolution = makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped, reason);
    return {handle, convolution};
}

// cudnnCreate itself failed.
QList<VerifyStage> createFailedStages(const ProbeGpu &gpu, int cudnnMajor, const QString &details,
                                      double handleMs, Findings &findings)
{
    const ErrorExplanation explanation = explainCudnnStatus(gpu.cudnnStatus.value_or(-1), cudnnMajor);
    const Text message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "cudnnCreate failed with %1. %2"))
                             .arg(gpu.cudnnStatusName.isEmpty() ? explanation.name : gpu.cudnnStatusName)
                             .arg(explanation.cause);
    findings.append(
        Finding::error(QStringLiteral("verify.handle-failed"), message, details, explanation.fix));
    return {makeStage(QStringLiteral("handle"), VerifyStage::Status::Failed, message, details,
                      explanation.fix, handleMs),
            makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped,
                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "There is no cuDNN handle.")))};
}

// Another step of the check failed, before the convolution ran.
QList<VerifyStage> checkFailedStages(const ProbeGpu &gpu, int cudnnMajor, const QString &details,
                                     double handleMs, Findings &findings)
{
    // "symbols" (a function the check calls is exported by none of the libraries), "destroy",
    // or a step this version does not know.
    Text message;
    Text fix;
    if (gpu.cudnnStatus) {
        const ErrorExplanation explanation = explainCudnnStatus(*gpu.cudnnStatus, cudnnMajor);
        message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN check failed at %1 with %2. %3"))
                      .arg(gpu.stage, gpu.cudnnStatusName.isEmpty() ? explanation.name : gpu.cudnnStatusName)
                      .arg(explanation.cause);
        fix = explanation.fix;
    } else {
        message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN check could not run: %1.")).arg(gpu.reason);
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "Reinstall cuDNN from NVIDIA's archive: its libraries do not "
                                     "offer what every cuDNN offers."));
    }
    findings.append(Finding::error(QStringLiteral("verify.handle-failed"), message, details, fix));
    return {makeStage(QStringLiteral("handle"), VerifyStage::Status::Failed, message, details, fix, handleMs),
            makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped,
                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "There is no cuDNN handle.")))};
}

// The convolution ran and failed, or differs from the CPU's result.
VerifyStage convolutionFailedStage(const ProbeGpu &gpu, int cudnnMajor, const QString &details,
                                   double convolutionMs, Findings &findings)
{
    Text message;
    Text fix;
    if (gpu.stage == QLatin1String("compare") && gpu.maxAbsoluteError) {
        message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The GPU's convolution differs from the CPU's by %1 (allowed "
                                   "%2): this cuDNN computes wrong results here."))
                .arg(QString::number(*gpu.maxAbsoluteError, 'g', 3), QString::number(gpu.tolerance, 'g', 3));
        fix =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the NVIDIA driver and reinstall cuDNN from NVIDIA's "
                                                 "archive; report it if it stays."));
    } else if (gpu.cudnnStatus) {
        const ErrorExplanation explanation = explainCudnnStatus(*gpu.cudnnStatus, cudnnMajor);
        message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "The convolution failed with %1. %2"))
                      .arg(gpu.cudnnStatusName.isEmpty() ? explanation.name : gpu.cudnnStatusName)
                      .arg(explanation.cause);
        fix = explanation.fix;
    } else if (gpu.cudaError) {
        const ErrorExplanation explanation = explainCudaError(*gpu.cudaError);
        message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "The convolution failed in CUDA with %1. %2"))
                      .arg(gpu.cudaErrorName.isEmpty() ? explanation.name : gpu.cudaErrorName)
                      .arg(explanation.cause);
        fix = explanation.fix;
    } else {
        message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The convolution could not be run: %1.")).arg(gpu.reason);
    }
    findings.append(Finding::error(QStringLiteral("verify.convolution-failed"), message, details, fix));
    return makeStage(QStringLiteral("convolution"), VerifyStage::Status::Failed, message, details, fix,
                     convolutionMs);
}

} // namespace

QList<VerifyStage> gpuStages(const ProbeResult &probe, int cudnnMajor, bool asked, Findings &findings)
{
    const ProbeGpu &gpu = probe.gpu;
    const QStringList handleSteps{QStringLiteral("cudart"), QStringLiteral("device"),
                                  QStringLiteral("handle")};
    const QStringList convolutionSteps{QStringLiteral("convolution"), QStringLiteral("compare")};
    const double handleMs = stepMilliseconds(gpu, handleSteps);
    const double convolutionMs = stepMilliseconds(gpu, convolutionSteps);
    const QString details = gpuDetails(gpu);

    const bool stoppedBeforeHandle =
        gpu.stage == QLatin1String("cudart") || gpu.stage == QLatin1String("device");
    if (gpu.status == ProbeGpu::Status::Skipped ||
        (gpu.status == ProbeGpu::Status::Failed && stoppedBeforeHandle)) {
        return skippedGpuStages(probe, asked, details, handleMs, findings);
    }
    if (gpu.status == ProbeGpu::Status::Failed && gpu.stage == QLatin1String("handle"))
        return createFailedStages(gpu, cudnnMajor, details, handleMs, findings);
    if (gpu.status == ProbeGpu::Status::Failed && gpu.stage != QLatin1String("convolution") &&
        gpu.stage != QLatin1String("compare")) {
        return checkFailedStages(gpu, cudnnMajor, details, handleMs, findings);
    }
    VerifyStage handle =
        makeStage(QStringLiteral("handle"), VerifyStage::Status::Passed,
                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN works with %1.")).arg(gpu.deviceName), details,
                  {}, handleMs);
    if (gpu.status == ProbeGpu::Status::Passed) {
        const QString error =
            gpu.maxAbsoluteError ? QString::number(*gpu.maxAbsoluteError, 'g', 3) : QString();
        return {handle,
                makeStage(QStringLiteral("convolution"), VerifyStage::Status::Passed,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "A convolution on the GPU matches the CPU's "
                                                               "result (largest difference %1)."))
                              .arg(error),
                          details, {}, convolutionMs)};
    }
    return {handle, convolutionFailedStage(gpu, cudnnMajor, details, convolutionMs, findings)};
}

} // namespace verifystages

} // namespace cudnnsetup
