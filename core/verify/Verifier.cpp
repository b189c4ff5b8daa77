#include "verify/Verifier.h"

#include "common/Logging.h"
#include "common/Surface.h"
#include "detect/PythonProbe.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"
#include "verify/ErrorLog.h"
#include "verify/LoadErrors.h"
#include "verify/ReleaseMix.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>

namespace cudnnsetup {

namespace {

// The library a program names to the loader: Windows cudnn_ops64_9.dll; Linux the soname
// (libcudnn_ops.so.9), not the development link (libcudnn.so) nor the versioned file.
bool isLoadableName(const QString &name, OsFamily family)
{
    if (!versions::isCudnnLibraryName(name))
        return false;
    if (family == OsFamily::Windows)
        return name.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive);
    static const QRegularExpression soname(QStringLiteral("^libcudnn[a-z_]*\\.so\\.\\d+$"));
    return soname.match(name).hasMatch();
}

int majorOfLibraries(const QStringList &libraries)
{
    for (const QString &name : libraries) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (version.isValid())
            return version.major();
    }
    return 0;
}

std::optional<int> leadingNumber(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("^(\\d+)"));
    const auto match = number.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return match.captured(1).toInt();
}

VerifyStage makeStage(const QString &id, VerifyStage::Status status, const Text &message,
                      const QString &details = {}, const Text &fix = {}, double milliseconds = 0)
{
    VerifyStage stage;
    stage.id = id;
    stage.status = status;
    stage.message = message;
    stage.details = details;
    stage.fix = fix;
    stage.milliseconds = milliseconds;
    return stage;
}

// Run-time CUDA library names the GPU stage may load, the subject's CUDA major first, then the
// toolkits' own files by full path (a toolkit's lib64 is not always on the loader's path).
QStringList cudartCandidates(const SystemContext &context, const SystemSnapshot &snapshot,
                             const VerifySubject &subject)
{
    const bool windows = context.family() == OsFamily::Windows;
    QList<int> majors;
    if (subject.cudaMajor)
        majors.append(*subject.cudaMajor);
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
        if (const auto major = leadingNumber(toolkit.version); major && !majors.contains(*major))
            majors.append(*major);
    }
    for (int major : {13, 12, 11}) {
        if (!majors.contains(major))
            majors.append(major);
    }
    const auto fileName = [windows](int major) {
        // CUDA 11's runtime DLL is cudart64_110.dll.
        return windows ? QStringLiteral("cudart64_%1.dll").arg(major == 11 ? 110 : major)
                       : QStringLiteral("libcudart.so.%1").arg(major);
    };
    QStringList candidates;
    for (int major : std::as_const(majors))
        candidates.append(fileName(major));
    for (int major : std::as_const(majors)) {
        for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
            const QString folder = windows ? toolkit.binDir : toolkit.libDir;
            if (leadingNumber(toolkit.version) != major || folder.isEmpty())
                continue;
            const QString file = context.paths().join(folder, fileName(major));
            if (context.files().isFile(file))
                candidates.append(context.files().toHost(file));
        }
    }
    return candidates;
}

} // namespace

ProbeRun runProbeChild(const SystemContext &context, const ProbeRequest &request,
                       const ProbeEnvironment &environment, const VerifyOptions &options)
{
    ProbeRun run;
    const QString program = options.probeProgram.isEmpty() ? defaultProbeProgram() : options.probeProgram;
    if (program.isEmpty()) {
        run.failure = QStringLiteral("cudnnctl, which runs the probe, is not beside this program");
        return run;
    }
    QTemporaryDir folder;
    const QString requestFile = folder.filePath(QStringLiteral("probe-request.json"));
    QFile file(requestFile);
    if (!folder.isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(request.toJson()).toJson(QJsonDocument::Compact)) < 0 || !file.flush()) {
        run.failure = QStringLiteral("the probe request cannot be written to %1").arg(requestFile);
        return run;
    }
    file.close();
    // It starts in the request's own folder, which holds nothing to load: Windows searches the
    // current folder before PATH, and the caller's may be an unpacked archive's bin.
    const ProcessResult result = context.processes().run(
        program, {QStringLiteral("probe"), QStringLiteral("--request"), requestFile}, options.probeTimeoutMs,
        environment.environment, options.cancel, folder.path());
    run.milliseconds = double(result.elapsedMs);
    const QByteArray output = result.standardOutput.trimmed();
    const QJsonDocument document = QJsonDocument::fromJson(output.mid(output.lastIndexOf('\n') + 1));
    if (!result.succeeded() || !document.isObject()) {
        run.failure = QStringLiteral("the probe process %1 ended without a result: %2")
                          .arg(QDir::toNativeSeparators(program), result.summary());
        run.said = readErrorLog(QString::fromLocal8Bit(result.standardError + '\n' + result.standardOutput));
        return run;
    }
    const Expected<ProbeResult> probe = ProbeResult::fromJson(document.object());
    if (!probe) {
        run.failure =
            probe.error().details.isEmpty() ? probe.error().message.toEnglish() : probe.error().details;
        return run;
    }
    run.result = *probe;
    return run;
}

namespace {

QString folderOf(const SystemContext &context, const QString &hostPath)
{
    return context.paths().parent(context.files().fromHost(hostPath));
}

// One folder under two names is one folder: /lib is /usr/lib on merged-/usr systems.
bool sameFolder(const SystemContext &context, const QString &a, const QString &b)
{
    const auto resolved = [&context](const QString &folder) {
        const QString canonical = context.files().canonical(folder);
        return canonical.isEmpty() ? folder : canonical;
    };
    return context.paths().equal(a, b) || context.paths().equal(resolved(a), resolved(b));
}

Finding incompleteSetFinding(const VerifySubject &subject, const QStringList &missing, int cudnnMajor)
{
    return Finding::error(
        QStringLiteral("verify.libraries-missing"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 is missing from %2 (%3 of cuDNN %4's libraries in all). cuDNN loads it "
                               "when a program first needs it and, not finding it, ends that program with "
                               "\"Could not locate %1\"; so nothing was loaded to try."))
            .arg(Text::verbatim(missing.first()), Text::verbatim(QDir::toNativeSeparators(subject.directory)),
                 Text::verbatim(QString::number(missing.size())),
                 Text::verbatim(QString::number(cudnnMajor))),
        QStringLiteral("missing: %1").arg(missing.join(QStringLiteral(", "))),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install cuDNN again from its complete archive, which holds "
                                             "every one of these libraries.")));
}

// cuDNN ended the probe itself: say which file it did not find, where a program looks, and the fix.
Finding cudnnEndedTheProbe(const SystemContext &context, const VerifySubject &subject,
                           const LogSignature &failure, const QStringList &searchPath)
{
    const QString folder = QDir::toNativeSeparators(subject.directory);
    const QString searched = folder + QStringLiteral(" | ") +
                             QDir::toNativeSeparators(searchPath.join(context.paths().listSeparator()));
    const int errorCode = int(failure.code.value_or(0));
    const ErrorExplanation explained =
        explainLoaderError(errorCode ? errorCode : (context.family() == OsFamily::Windows ? 126 : 0),
                           failure.excerpt, failure.library);
    const bool ownLibrary = versions::isCudnnLibraryName(failure.library);
    return Finding::error(
        QStringLiteral("verify.cudnn-could-not-load"),
        errorCode == 0
            ? Text(QT_TRANSLATE_NOOP(
                       "cudnnsetup",
                       "cuDNN looked for %1 and did not find it, and ended the program (NVIDIA's "
                       "words: \"%2\"). A program looks for it in %3 and then along PATH."))
                  .arg(Text::verbatim(failure.library), Text::verbatim(failure.excerpt),
                       Text::verbatim(folder))
            : Text(
                  QT_TRANSLATE_NOOP("cudnnsetup",
                                    "cuDNN could not load %1 and ended the program (NVIDIA's words: \"%2\"): "
                                    "%3"))
                  .arg(Text::verbatim(failure.library), Text::verbatim(failure.excerpt), explained.cause),
        QStringLiteral("searched: %1").arg(searched),
        errorCode == 0 && ownLibrary
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "Install cuDNN again from its complete archive, so that %1 "
                                     "is beside cuDNN's other libraries."))
                  .arg(Text::verbatim(failure.library))
            : explained.fix);
}

// The probe ended without a result: what it printed, read as a pasted error log is, says why; a set
// of mixed releases is the cause where the files show one.
VerifyStage probeEndedStage(const SystemContext &context, const VerifySubject &subject, const ProbeRun &run,
                            const std::optional<Finding> &mixed, const QStringList &searchPath,
                            Findings &findings)
{
    QStringList said;
    for (const LogSignature &signature : run.said.signatures)
        said.append(signature.excerpt);
    const QString details =
        said.isEmpty()
            ? run.failure
            : QStringLiteral("%1; it printed: %2").arg(run.failure, said.join(QStringLiteral(" | ")));
    if (mixed) // already among the findings
        return makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, mixed->message,
                         mixed->details + QLatin1Char('\n') + details, mixed->fix, run.milliseconds);
    const auto named = std::find_if(
        run.said.signatures.cbegin(), run.said.signatures.cend(), [](const LogSignature &signature) {
            return signature.kind == QLatin1String("missing-library") && !signature.library.isEmpty();
        });
    Finding finding;
    if (named != run.said.signatures.cend()) {
        finding = cudnnEndedTheProbe(context, subject, *named, searchPath);
    } else if (!run.said.signatures.isEmpty()) {
        finding = explainSignature(run.said.signatures.first());
        finding.id = QStringLiteral("verify.probe-ended");
    } else {
        finding = Finding::error(
            QStringLiteral("verify.probe-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The libraries could not be tried in a fresh process.")),
            QString());
    }
    finding.details = finding.details.isEmpty() ? details : finding.details + QStringLiteral("; ") + details;
    findings.append(finding);
    return makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, finding.message, finding.details,
                     finding.fix, run.milliseconds);
}

// The load stage: every library loaded, each from the subject's folder.
VerifyStage loadStage(const SystemContext &context, const VerifySubject &subject, const ProbeResult &probe,
                      Findings &findings)
{
    QStringList lines;
    QStringList failed;
    QStringList shadowed;
    double milliseconds = 0;
    std::optional<ErrorExplanation> firstError;
    QString firstShadow;
    for (const ProbeLoad &load : probe.loads) {
        milliseconds += load.milliseconds;
        if (!load.loaded()) {
            failed.append(load.name);
            lines.append(
                QStringLiteral("%1: not loaded (%2%3)")
                    .arg(load.name,
                         load.errorCode ? QStringLiteral("error %1: ").arg(load.errorCode) : QString(),
                         load.errorString));
            if (!firstError)
                firstError = explainLoaderError(load.errorCode, load.errorString, load.name);
            continue;
        }
        const QString from = context.files().fromHost(load.loadedFrom);
        lines.append(QStringLiteral("%1: %2").arg(load.name, QDir::toNativeSeparators(from)));
        if (!sameFolder(context, context.paths().parent(from), subject.directory)) {
            shadowed.append(QDir::toNativeSeparators(from));
            if (firstShadow.isEmpty())
                firstShadow = QDir::toNativeSeparators(from);
        }
    }
    const QString details = lines.join(QLatin1Char('\n'));
    if (!failed.isEmpty()) {
        const Text message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 of %2 cuDNN libraries did not load: %3. %4"))
                .arg(QString::number(failed.size()), QString::number(probe.loads.size()), Text::list(failed))
                .arg(firstError->cause);
        findings.append(
            Finding::error(QStringLiteral("verify.load-failed"), message, details, firstError->fix));
        return makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, message, details,
                         firstError->fix, milliseconds);
    }
    if (!shadowed.isEmpty()) {
        const Text message =
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "A freshly started program loads another cuDNN copy: %1 instead of the one in %2."))
                .arg(firstShadow, QDir::toNativeSeparators(subject.directory));
        const Text fix =
            (surface() == Surface::Wizard
                 ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                          "Remove the older copy or its folder from PATH, or put "
                                          "%1 before it: Repair… below offers both."))
                 : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                          "Remove the older copy or its folder from PATH, or put "
                                          "%1 before it (cudnnctl doctor offers both).")))
                .arg(QDir::toNativeSeparators(subject.directory));
        findings.append(Finding::error(QStringLiteral("verify.shadowed"), message, details, fix));
        return makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, message, details, fix,
                         milliseconds);
    }
    return makeStage(
        QStringLiteral("load"), VerifyStage::Status::Passed,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "All %1 cuDNN libraries load from %2."))
            .arg(QString::number(probe.loads.size()), QDir::toNativeSeparators(subject.directory)),
        details, {}, milliseconds);
}

VerifyStage dependencyStage(const DependencyWalk &walk, bool windows, double milliseconds, Findings &findings)
{
    QStringList lines;
    const DependencyProblem *first = nullptr;
    for (const DependencyProblem &problem : walk.problems) {
        lines.append(QStringLiteral("%1 (%2, needed by %3)%4; looked in: %5")
                         .arg(problem.library, DependencyProblem::kindName(problem.kind),
                              QDir::toNativeSeparators(problem.neededBy),
                              problem.foundAt.isEmpty()
                                  ? QString()
                                  : QStringLiteral(" at %1 [%2]")
                                        .arg(QDir::toNativeSeparators(problem.foundAt), problem.machine),
                              problem.searched.join(QStringLiteral("; "))));
        if (!first && !problem.delayLoaded)
            first = &problem;
    }
    const QString details = lines.join(QLatin1Char('\n'));
    if (!first) {
        for (const DependencyProblem &problem : walk.problems) {
            findings.append(Finding::warning(
                QStringLiteral("verify.delay-import-missing"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 is not found; %2 asks for it only when a feature needs it."))
                    .arg(problem.library, QFileInfo(problem.neededBy).fileName()),
                details));
        }
        // Nothing looked for proves nothing: never "passed (0 checked)".
        if (walk.resolved.isEmpty())
            return makeStage(QStringLiteral("dependencies"), VerifyStage::Status::Skipped,
                             Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: the cuDNN libraries here name no "
                                                                  "other library, so none was looked for.")),
                             details, {}, milliseconds);
        return makeStage(
            QStringLiteral("dependencies"), VerifyStage::Status::Passed,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Every library they need is found (%1 checked)."))
                .arg(QString::number(walk.resolved.size())),
            details, {}, milliseconds);
    }
    const bool wrongArchitecture = first->kind == DependencyProblem::Kind::WrongArchitecture;
    // The loader's own answer for the problem: a Windows error code, or the words of Linux's dlerror().
    const ErrorExplanation explanation =
        windows
            ? explainLoaderError(wrongArchitecture ? 193 : 126, QString(), first->library)
            : explainLoaderError(0,
                                 wrongArchitecture
                                     ? QStringLiteral("%1: wrong ELF class").arg(first->library)
                                     : QStringLiteral("%1: cannot open shared object file: No such file or "
                                                      "directory")
                                           .arg(first->library),
                                 first->library);
    const QString neededBy = QFileInfo(first->neededBy).fileName();
    Text message;
    if (wrongArchitecture) {
        message =
            (windows
                 ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1, which %2 needs, is a %3 file at %4: a 64-bit "
                                                        "program cannot load it (error 193)."))
                 : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1, which %2 needs, is a %3 file at %4: a 64-bit "
                                                        "program cannot load it.")))
                .arg(first->library, neededBy, first->machine, QDir::toNativeSeparators(first->foundAt));
    } else if (first->kind == DependencyProblem::Kind::Unreadable) {
        message = first->neededBy.isEmpty()
                      ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is damaged or not a library: %2."))
                            .arg(first->library, QDir::toNativeSeparators(first->foundAt))
                      : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "%1, which %2 needs, is damaged or not a library: %3."))
                            .arg(first->library, neededBy, QDir::toNativeSeparators(first->foundAt));
    } else {
        message =
            (windows ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1, which %2 needs, is not found anywhere the "
                                                            "loader looks (error 126)."))
                     : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1, which %2 needs, is not found anywhere the "
                                                            "loader looks.")))
                .arg(first->library, neededBy);
    }
    findings.append(
        Finding::error(QStringLiteral("verify.dependency-") + DependencyProblem::kindName(first->kind),
                       message, details, explanation.fix));
    return makeStage(QStringLiteral("dependencies"), VerifyStage::Status::Failed, message, details,
                     explanation.fix, milliseconds);
}

VerifyStage versionStage(const VerifySubject &subject, const ProbeResult &probe, VerifyReport &report,
                         Findings &findings)
{
    if (!probe.cudnnVersion) {
        return makeStage(
            QStringLiteral("version"), VerifyStage::Status::Skipped,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The version could not be asked: the main library did not load.")));
    }
    const Version loaded = versions::fromCudnnVersionNumber(*probe.cudnnVersion);
    report.cudnnVersion = loaded.isValid() ? loaded.toString() : QString::number(*probe.cudnnVersion);
    // cudnnGetCudartVersion(): 12020 for CUDA 12.2; 0 when the library does not know.
    const int cudartMajor = probe.cudnnCudartVersion ? int(*probe.cudnnCudartVersion / 1000) : 0;
    const QString details = QStringLiteral("cudnnGetVersion() = %1, cudnnGetCudartVersion() = %2")
                                .arg(QString::number(*probe.cudnnVersion),
                                     probe.cudnnCudartVersion ? QString::number(*probe.cudnnCudartVersion)
                                                              : QStringLiteral("unknown"));
    const Version expected = Version::parse(subject.expectedVersion);
    if (expected.isValid() && loaded.isValid() && loaded.truncated(3) != expected.truncated(3)) {
        const Text message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN that loaded is %1, but %2 was expected there."))
                .arg(loaded.toString(), expected.truncated(3).toString());
        const Text fix =
            surface() == Surface::Wizard
                ? Text(QT_TRANSLATE_NOOP(
                      "cudnnsetup", "Another copy loads first, or the files were replaced: press Repair… "
                                    "below."))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Another copy loads first, or the files were replaced: "
                                         "run cudnnctl doctor."));
        findings.append(Finding::error(QStringLiteral("verify.version-mismatch"), message, details, fix));
        return makeStage(QStringLiteral("version"), VerifyStage::Status::Failed, message, details, fix);
    }
    if (subject.cudaMajor && cudartMajor > 0 && *subject.cudaMajor != cudartMajor) {
        const Text message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "This cuDNN was built for CUDA %1, but it sits with CUDA %2."))
                .arg(QString::number(cudartMajor), QString::number(*subject.cudaMajor));
        const Text fix =
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Install the cuDNN archive made for CUDA %1 (its name ends in _cuda%1-archive.zip)."))
                .arg(QString::number(*subject.cudaMajor));
        findings.append(Finding::error(QStringLiteral("verify.cuda-mismatch"), message, details, fix));
        return makeStage(QStringLiteral("version"), VerifyStage::Status::Failed, message, details, fix);
    }
    return makeStage(QStringLiteral("version"), VerifyStage::Status::Passed,
                     cudartMajor > 0
                         ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1, built for CUDA %2."))
                               .arg(report.cudnnVersion, QString::number(cudartMajor))
                         : Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1.")).arg(report.cudnnVersion),
                     details);
}

double stepMilliseconds(const ProbeGpu &gpu, const QStringList &steps)
{
    double total = 0;
    for (const auto &[step, milliseconds] : gpu.milliseconds) {
        if (steps.contains(step))
            total += milliseconds;
    }
    return total;
}

// The handle and convolution stages from the probe's GPU part.
QList<VerifyStage> gpuStages(const ProbeResult &probe, int cudnnMajor, bool asked, Findings &findings)
{
    const ProbeGpu &gpu = probe.gpu;
    const QStringList handleSteps{QStringLiteral("cudart"), QStringLiteral("device"),
                                  QStringLiteral("handle")};
    const QStringList convolutionSteps{QStringLiteral("convolution"), QStringLiteral("compare")};
    const double handleMs = stepMilliseconds(gpu, handleSteps);
    const double convolutionMs = stepMilliseconds(gpu, convolutionSteps);
    QString details = gpu.reason;
    if (!gpu.deviceName.isEmpty())
        details += (details.isEmpty() ? QString() : QStringLiteral("\n")) + QStringLiteral("GPU 0: ") +
                   gpu.deviceName;
    if (!gpu.cudartLoadedFrom.isEmpty())
        details += QStringLiteral("\nCUDA runtime: ") + QDir::toNativeSeparators(gpu.cudartLoadedFrom);

    const bool stoppedBeforeHandle =
        gpu.stage == QLatin1String("cudart") || gpu.stage == QLatin1String("device");
    if (gpu.status == ProbeGpu::Status::Skipped ||
        (gpu.status == ProbeGpu::Status::Failed && stoppedBeforeHandle)) {
        Text reason;
        Text fix;
        if (!asked) {
            reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped, as asked (--no-gpu)."));
        } else if (probe.loads.isEmpty() || !probe.loads.first().loaded()) {
            reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: cuDNN itself did not load."));
        } else if (gpu.cudaDriverVersion == 0) {
            // cudaDriverGetVersion answers 0 when no driver is installed; the runtime then calls
            // it "insufficient", which would send the user to update something that is not there.
            reason = Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no NVIDIA driver is installed on this machine."));
            fix = Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "Install the NVIDIA driver for the GPU, then verify again."));
        } else if (gpu.cudaError) {
            const ErrorExplanation explanation = explainCudaError(*gpu.cudaError);
            reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: the GPU cannot be used here (%1). %2"))
                         .arg(gpu.cudaErrorName.isEmpty() ? explanation.name : gpu.cudaErrorName)
                         .arg(explanation.cause);
            fix = explanation.fix;
        } else if (gpu.stage == QLatin1String("cudart")) {
            reason = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                            "Skipped: no CUDA runtime library (cudart) could be loaded."));
            fix = Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "Install the CUDA toolkit cuDNN was built for, or put its bin folder on PATH."));
        } else {
            reason = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no NVIDIA GPU answers on this machine."));
        }
        findings.append(Finding::info(QStringLiteral("verify.gpu-skipped"), reason, details, fix));
        VerifyStage handle =
            makeStage(QStringLiteral("handle"), VerifyStage::Status::Skipped, reason, details, fix, handleMs);
        VerifyStage convolution =
            makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped, reason);
        return {handle, convolution};
    }
    if (gpu.status == ProbeGpu::Status::Failed && gpu.stage == QLatin1String("handle")) {
        const ErrorExplanation explanation = explainCudnnStatus(gpu.cudnnStatus.value_or(-1), cudnnMajor);
        const Text message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "cudnnCreate failed with %1. %2"))
                                 .arg(gpu.cudnnStatusName.isEmpty() ? explanation.name : gpu.cudnnStatusName)
                                 .arg(explanation.cause);
        findings.append(
            Finding::error(QStringLiteral("verify.handle-failed"), message, details, explanation.fix));
        return {makeStage(QStringLiteral("handle"), VerifyStage::Status::Failed, message, details,
                          explanation.fix, handleMs),
                makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: there is no cuDNN handle.")))};
    }
    if (gpu.status == ProbeGpu::Status::Failed && gpu.stage != QLatin1String("convolution") &&
        gpu.stage != QLatin1String("compare")) {
        // "symbols" (a function the check calls is exported by none of the libraries), "destroy",
        // or a step this version does not know.
        Text message;
        Text fix;
        if (gpu.cudnnStatus) {
            const ErrorExplanation explanation = explainCudnnStatus(*gpu.cudnnStatus, cudnnMajor);
            message =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN check failed at %1 with %2. %3"))
                    .arg(gpu.stage, gpu.cudnnStatusName.isEmpty() ? explanation.name : gpu.cudnnStatusName)
                    .arg(explanation.cause);
            fix = explanation.fix;
        } else {
            message =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN check could not run: %1.")).arg(gpu.reason);
            fix = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Reinstall cuDNN from NVIDIA's archive: its libraries do not "
                                         "offer what every cuDNN offers."));
        }
        findings.append(Finding::error(QStringLiteral("verify.handle-failed"), message, details, fix));
        return {
            makeStage(QStringLiteral("handle"), VerifyStage::Status::Failed, message, details, fix, handleMs),
            makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped,
                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: there is no cuDNN handle.")))};
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
    return {handle, makeStage(QStringLiteral("convolution"), VerifyStage::Status::Failed, message, details,
                              fix, convolutionMs)};
}

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
        return makeStage(
            QStringLiteral("framework"), VerifyStage::Status::Skipped,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped: no Python with torch was found or named.")));
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

} // namespace

Expected<VerifySubject> subjectInFolder(const SystemContext &context, const QString &folder,
                                        const QString &source)
{
    const bool windows = context.family() == OsFamily::Windows;
    QStringList libraries;
    for (const QString &name : context.files().entries(
             folder, {windows ? QStringLiteral("cudnn*.dll") : QStringLiteral("libcudnn*.so*")},
             FileSystem::Files)) {
        if (isLoadableName(name, context.family()))
            libraries.append(name);
    }
    if (libraries.isEmpty()) {
        return Finding::error(QStringLiteral("verify.no-cudnn"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "There is no cuDNN library in %1."))
                                  .arg(QDir::toNativeSeparators(folder)));
    }
    // Several majors side by side: the newest is the one checked.
    int newest = 0;
    for (const QString &name : std::as_const(libraries))
        newest = std::max(newest, versions::fromCudnnLibraryName(name).major());
    libraries.erase(std::remove_if(libraries.begin(), libraries.end(),
                                   [&](const QString &name) {
                                       return versions::fromCudnnLibraryName(name).major() != newest;
                                   }),
                    libraries.end());
    VerifySubject subject;
    subject.directory = context.paths().normalize(folder);
    subject.libraries = versions::cudnnLibrariesInLoadOrder(libraries);
    subject.source = source;
    return subject;
}

Expected<VerifySubject> subjectFromReceipt(const SystemContext &context, const Receipt &receipt)
{
    QString folder;
    for (const Receipt::File &file : receipt.files) {
        if (versions::isMainCudnnLibraryName(context.paths().fileName(file.path))) {
            folder = context.paths().parent(file.path);
            break;
        }
    }
    if (folder.isEmpty() && receipt.target)
        folder = receipt.target->dllFolder();
    const Expected<VerifySubject> found = subjectInFolder(context, folder, QStringLiteral("receipt"));
    if (!found)
        return found;
    VerifySubject subject = *found;
    subject.receiptId = receipt.id;
    subject.expectedVersion = receipt.archive.cudnn.toString();
    subject.cudaMajor = leadingNumber(receipt.archive.cudaVariant);
    if (!receipt.target)
        return subject;
    if (receipt.target->toolkitVersion.isValid())
        subject.toolkitVersion = receipt.target->toolkitVersion.toString();
    if (receipt.target->kind == InstallTarget::Kind::Venv) {
        subject.loadModel = LoadModel::PythonDllDirectories;
        subject.dllDirectories = {subject.directory};
    } else if (receipt.target->kind == InstallTarget::Kind::Conda ||
               receipt.target->kind == InstallTarget::Kind::App) {
        // A program loads what lies beside it first, as a library loaded by its full path does.
        subject.loadModel = LoadModel::CondaActivated;
    }
    return subject;
}

std::optional<VerifySubject> subjectFromSnapshot(const SystemContext &context, const SystemSnapshot &snapshot)
{
    const CudnnCopy *copy = snapshot.cudnnLoadedByDefault();
    if (!copy)
        return std::nullopt;
    const Expected<VerifySubject> found =
        subjectInFolder(context, copy->directory, QStringLiteral("detected"));
    if (!found)
        return std::nullopt;
    VerifySubject subject = *found;
    subject.expectedVersion = copy->version;
    subject.cudaMajor = copy->cudaMajor;
    return subject;
}

ProbeEnvironment probeEnvironment(const SystemContext &context)
{
    ProbeEnvironment probe;
    const EnvironmentStore &store = context.environment();
    if (const std::optional<QProcessEnvironment> fresh = store.freshEnvironment()) {
        probe.environment = *fresh;
        probe.source = QStringLiteral("registry");
        probe.path = *store.freshPath();
        return probe;
    }
    probe.environment = store.processEnvironment();
    probe.source = QStringLiteral("process");
    probe.path = context.family() == OsFamily::Windows
                     ? store.processPath()
                     : context.paths().splitList(store.value(QStringLiteral("LD_LIBRARY_PATH")));
    return probe;
}

QString cudnnctlBesideThisProgram()
{
#ifdef Q_OS_WIN
    const QString name = QStringLiteral("cudnnctl.exe");
#else
    const QString name = QStringLiteral("cudnnctl");
#endif
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QString defaultProbeProgram()
{
    const QString program = cudnnctlBesideThisProgram();
    return QFileInfo(program).isExecutable() ? program : QString();
}

namespace {

bool hasFinding(const Findings &findings, const QString &id)
{
    return std::any_of(findings.cbegin(), findings.cend(),
                       [&id](const Finding &finding) { return finding.id == id; });
}

// The variable a program's library search reads: PATH on Windows, LD_LIBRARY_PATH on Linux.
QString searchVariable(const SystemContext &context)
{
    return context.family() == OsFamily::Windows ? QStringLiteral("PATH") : QStringLiteral("LD_LIBRARY_PATH");
}

// The probe again, `subject`'s folder first on the search path; its result only when every
// library then came from that folder.
std::optional<ProbeResult> probeWithFolderFirst(const SystemContext &context, const VerifySubject &subject,
                                                const ProbeRequest &request,
                                                const ProbeEnvironment &environment,
                                                const VerifyOptions &options)
{
    ProbeEnvironment first = environment;
    const QString variable = searchVariable(context);
    const QString folder = QDir::toNativeSeparators(context.files().toHost(subject.directory));
    const QString rest = first.environment.value(variable);
    first.environment.insert(variable,
                             rest.isEmpty() ? folder : folder + context.paths().listSeparator() + rest);
    first.path.prepend(subject.directory);
    const ProbeRun run = runProbeChild(context, request, first, options);
    if (!run.result || run.result->loads.isEmpty())
        return std::nullopt;
    for (const ProbeLoad &load : run.result->loads) {
        if (!load.loaded() || !sameFolder(context, folderOf(context, load.loadedFrom), subject.directory))
            return std::nullopt;
    }
    return run.result;
}

} // namespace

VerifyReport verify(const SystemContext &context, const SystemSnapshot &snapshot,
                    const VerifySubject &subject, const VerifyOptions &options)
{
    QElapsedTimer total;
    total.start();
    VerifyReport report;
    report.createdAt = QDateTime::currentDateTimeUtc();
    report.directory = subject.directory;
    report.libraries = subject.libraries;
    report.subjectSource = subject.source;
    report.receiptId = subject.receiptId;
    report.expectedVersion = subject.expectedVersion;
    if (report.expectedVersion.isEmpty()) {
        // A folder named by the user: what detection read of the copy there (its header, its DLLs'
        // version resource).
        for (const CudnnCopy &copy : snapshot.cudnn) {
            if (context.paths().equal(copy.directory, subject.directory) && !copy.version.isEmpty())
                report.expectedVersion = copy.version;
        }
    }
    report.cudaToolkitVersion = subject.toolkitVersion;
    // Another system's files (an offline image, --system-root): nothing of them runs here.
    const bool loadsHere = context.isLive() && context.family() == hostOsFamily();
    const ProbeEnvironment environment = probeEnvironment(context);
    report.probePath = environment.path;
    report.probeEnvironmentSource = environment.source;
    const auto done = [&](const VerifyStage &stage) {
        report.stages.append(stage);
        if (options.stageDone)
            options.stageDone(stage);
    };
    const int cudnnMajor = majorOfLibraries(subject.libraries);

    // The probe loads the inspected system's libraries into a process of this machine: only for
    // the running system, never for another system's tree; and not an incomplete set, which
    // cuDNN itself would end the process over.
    // cuDNN's main library loads the others by name when a program first needs them and, when one
    // is not found, ends the program.
    const QStringList missing =
        versions::missingCudnnLibraries(subject.libraries, context.family() == OsFamily::Windows, cudnnMajor);
    // Libraries of two releases in one set: cuDNN's main library does not find its functions in the
    // others, whether or not this machine can load them.
    const std::optional<Finding> mixed = mixedReleaseFinding(
        subject.directory, libraryReleases(context, subject.directory, subject.libraries));
    if (mixed)
        report.findings.append(*mixed);
    if (!missing.isEmpty()) {
        const Finding finding = incompleteSetFinding(subject, missing, cudnnMajor);
        report.findings.append(finding);
        done(makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, finding.message, finding.details,
                       finding.fix));
    } else if (loadsHere) {
        ProbeRequest request;
        for (const QString &library : subject.libraries) {
            request.libraries.append(
                subject.loadModel != LoadModel::Program
                    ? context.files().toHost(context.paths().join(subject.directory, library))
                    : library);
        }
        request.model = subject.loadModel;
        for (const QString &folder : subject.dllDirectories)
            request.dllDirectories.append(context.files().toHost(folder));
        request.cudartCandidates = cudartCandidates(context, snapshot, subject);
        request.gpu = options.gpu;
        const ProbeRun run = runProbeChild(context, request, environment, options);
        if (run.result) {
            report.probe = *run.result;
            done(loadStage(context, subject, report.probe, report.findings));
            if (hasFinding(report.findings, QStringLiteral("verify.shadowed")) &&
                subject.loadModel == LoadModel::Program)
                report.targetProbe = probeWithFolderFirst(context, subject, request, environment, options);
        } else {
            done(probeEndedStage(context, subject, run, mixed, environment.path, report.findings));
        }
    } else {
        done(makeStage(QStringLiteral("load"), VerifyStage::Status::Skipped,
                       Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: another system's "
                                                            "libraries are not loaded on this one."))));
    }

    QElapsedTimer walkTimer;
    walkTimer.start();
    QStringList files;
    for (const QString &library : subject.libraries)
        files.append(context.paths().join(subject.directory, library));
    report.dependencies =
        walkDependencies(context, files, environment.path, subject.loadModel, subject.dllDirectories);
    done(dependencyStage(report.dependencies, context.family() == OsFamily::Windows,
                         double(walkTimer.nsecsElapsed()) / 1e6, report.findings));

    if (report.targetProbe) { // only ever run here
        // What a fresh program loads first is not the copy asked about: that copy's own answers,
        // each stage saying how they were had, and one finding that says both.
        const QString shadowVersion =
            report.probe.cudnnVersion
                ? versions::fromCudnnVersionNumber(*report.probe.cudnnVersion).toString()
                : QString();
        QList<VerifyStage> stages{versionStage(subject, *report.targetProbe, report, report.findings)};
        stages += gpuStages(*report.targetProbe, cudnnMajor, options.gpu, report.findings);
        const QString variable = searchVariable(context);
        bool works = true;
        for (VerifyStage &stage : stages) {
            works = works && stage.status != VerifyStage::Status::Failed;
            stage.message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (measured with %2 first on %3)"))
                                .arg(stage.message)
                                .arg(QDir::toNativeSeparators(subject.directory), variable);
            done(stage);
        }
        if (works) {
            const QString checked =
                report.cudnnVersion.isEmpty() ? report.expectedVersion : report.cudnnVersion;
            const QString winner = QDir::toNativeSeparators(context.files().fromHost(report.loadedFrom()));
            report.findings.append(Finding::warning(
                QStringLiteral("verify.works-when-first"),
                shadowVersion.isEmpty()
                    ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                             "cuDNN %1 in %2 works when it is found first, but a "
                                             "freshly started program finds %3 before it."))
                          .arg(checked, QDir::toNativeSeparators(subject.directory), winner)
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                             "cuDNN %1 in %2 works when it is found first, but a freshly "
                                             "started program finds %3 (cuDNN %4) before it."))
                          .arg(checked, QDir::toNativeSeparators(subject.directory), winner, shadowVersion),
                QStringLiteral("%1 first on %2").arg(QDir::toNativeSeparators(subject.directory), variable)));
        }
    } else if (loadsHere) {
        done(versionStage(subject, report.probe, report, report.findings));
        for (const VerifyStage &stage : gpuStages(report.probe, cudnnMajor, options.gpu, report.findings))
            done(stage);
    } else {
        done(makeStage(
            QStringLiteral("version"), VerifyStage::Status::Skipped,
            report.expectedVersion.isEmpty()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: only a loaded library can be "
                                                       "asked, and its files do not name the version."))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: only a loaded library can be "
                                                       "asked; its files say cuDNN %1."))
                      .arg(report.expectedVersion)));
        const Text noGpu(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: the GPU of another system's "
                                                         "files cannot be used from this one."));
        done(makeStage(QStringLiteral("handle"), VerifyStage::Status::Skipped, noGpu));
        done(makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped, noGpu));
    }

    if (options.framework && loadsHere) {
        QStringList pythons = options.pythons;
        if (pythons.isEmpty()) {
            for (const PythonInstall &python : snapshot.pythons) {
                if (python.torch && !pythons.contains(python.path))
                    pythons.append(python.path);
            }
        }
        for (const QString &python : std::as_const(pythons)) {
            if (options.cancel && options.cancel->load())
                break;
            report.frameworks.append(askFramework(context, python, subject, environment, options));
        }
        done(frameworkStage(report.frameworks, report.findings));
    } else {
        done(makeStage(QStringLiteral("framework"), VerifyStage::Status::Skipped,
                       options.framework
                           ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: another system's "
                                                                  "Python is not run on this one."))
                           : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped, as asked (--no-framework)."))));
    }
    report.totalMilliseconds = double(total.nsecsElapsed()) / 1e6;
    qCInfo(lcDetect) << "verify" << subject.directory << (report.passed() ? "passed" : "failed") << "in"
                     << report.totalMilliseconds << "ms";
    return report;
}

} // namespace cudnnsetup
