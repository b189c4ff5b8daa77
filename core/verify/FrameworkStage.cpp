// The framework stage: torch, in the Python the user will use, runs a convolution through cuDNN.
#include "verify/VerifyStages.h"

#include "detect/PythonProbe.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QTemporaryDir>

namespace cudnnsetup {

namespace verifystages {

FrameworkCheck askFramework(const SystemContext &context, const QString &python, const VerifySubject &subject,
                            const ProbeEnvironment &environment, const VerifyOptions &options)
{
    FrameworkCheck check;
    check.python = python;
    // In an empty folder of its own: Python puts the current folder first on sys.path for -c, and
    // Windows searches it for DLLs (a torch/ or cudnn64_9.dll where the user stands would win).
    const QTemporaryDir emptyFolder;
    const ProcessResult result = context.processes().run(
        context.files().toHost(python),
        {QStringLiteral("-c"), pythonProbeScript(), QStringLiteral("--convolution")}, options.pythonTimeoutMs,
        environment.environment, options.cancel, emptyFolder.isValid() ? emptyFolder.path() : QString());
    check.milliseconds = double(result.elapsedMs);
    const std::optional<QJsonObject> object = probeOutputObject(result.standardOutput);
    if (!object) {
        check.error = result.summary();
        return check;
    }
    PythonInstall install;
    readProbeOutput(result.standardOutput, install);
    if (!install.torch) {
        check.error = QStringLiteral("torch is not installed for this interpreter");
        return check;
    }
    const TorchInfo &torch = *install.torch;
    check.torchVersion = torch.version;
    check.torchCuda = torch.cuda;
    check.cudaAvailable = torch.cudaAvailable;
    check.cudnnVersion = torch.cudnn;
    check.cudnnLoadedFrom = torch.cudnnLoadedFrom;
    check.error = install.probeError;
    if (!check.cudnnLoadedFrom.isEmpty())
        check.usesCheckedCudnn =
            sameFolder(context, folderOf(context, check.cudnnLoadedFrom), subject.directory);
    const QJsonObject convolution =
        object->value(QStringLiteral("torch")).toObject().value(QStringLiteral("convolution")).toObject();
    if (!convolution.isEmpty()) {
        check.convolutionPassed = convolution.value(QStringLiteral("passed")).toBool();
        if (!*check.convolutionPassed && check.error.isEmpty())
            check.error = convolution.value(QStringLiteral("error"))
                              .toString(QStringLiteral("max error %1")
                                            .arg(convolution.value(QStringLiteral("maxError")).toDouble()));
    }
    return check;
}

VerifyStage frameworkStage(const QList<FrameworkCheck> &checks, Findings &findings)
{
    if (checks.isEmpty()) {
        return makeStage(QStringLiteral("framework"), VerifyStage::Status::Skipped,
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "No Python with torch was found or named.")));
    }
    QStringList lines;
    bool failed = false;
    double milliseconds = 0;
    for (const FrameworkCheck &check : checks) {
        milliseconds += check.milliseconds;
        const QString python = QDir::toNativeSeparators(check.python);
        if (check.torchVersion.isEmpty()) {
            failed = true;
            lines.append(QStringLiteral("%1: %2").arg(python, check.error));
            findings.append(Finding::error(
                QStringLiteral("verify.framework-unavailable"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch could not be asked in %1.")).arg(python),
                check.error));
            continue;
        }
        lines.append(
            QStringLiteral("%1: torch %2, CUDA %3, cuDNN %4 from %5, GPU %6, convolution %7")
                .arg(python, check.torchVersion,
                     check.torchCuda.isEmpty() ? QStringLiteral("none (CPU-only build)") : check.torchCuda,
                     check.cudnnVersion.isEmpty() ? QStringLiteral("?") : check.cudnnVersion,
                     check.cudnnLoadedFrom.isEmpty() ? QStringLiteral("?")
                                                     : QDir::toNativeSeparators(check.cudnnLoadedFrom),
                     check.cudaAvailable ? (*check.cudaAvailable ? QStringLiteral("available")
                                                                 : QStringLiteral("not available"))
                                         : QStringLiteral("?"),
                     check.convolutionPassed
                         ? (*check.convolutionPassed ? QStringLiteral("passed") : QStringLiteral("failed"))
                         : QStringLiteral("not run")));
        if (check.torchCuda.isEmpty()) {
            failed = true;
            findings.append(Finding::error(
                QStringLiteral("verify.torch-cpu-only"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "torch %1 in %2 is a CPU-only build: it never uses cuDNN."))
                    .arg(check.torchVersion, python),
                {},
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "Install a CUDA build of torch; cudnnctl doctor names the exact pip command "
                    "for this driver."))));
        } else if (check.convolutionPassed == false || check.cudaAvailable == false) {
            failed = true;
            findings.append(Finding::error(
                QStringLiteral("verify.torch-gpu-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch %1 in %2 cannot run a convolution on the GPU."))
                    .arg(check.torchVersion, python),
                check.error));
        }
        if (check.usesCheckedCudnn == false) {
            findings.append(Finding::info(
                QStringLiteral("verify.torch-own-cudnn"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "torch in %1 uses its own cuDNN (%2), not the one checked "
                                       "here: a working torch says nothing about that one."))
                    .arg(python, QDir::toNativeSeparators(check.cudnnLoadedFrom))));
        }
    }
    const QString details = lines.join(QLatin1Char('\n'));
    if (failed) {
        return makeStage(QStringLiteral("framework"), VerifyStage::Status::Failed,
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch cannot use the GPU through cuDNN.")),
                         details, {}, milliseconds);
    }
    return makeStage(
        QStringLiteral("framework"), VerifyStage::Status::Passed,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch runs a convolution through cuDNN on the GPU.")), details,
        {}, milliseconds);
}

} // namespace verifystages

} // namespace cudnnsetup
