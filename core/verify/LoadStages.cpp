// The stages that load cuDNN: the load itself, the dependencies, the version, and a probe that
// ended before it answered.
#include "verify/VerifyStages.h"

#include "common/Surface.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"
#include "verify/ErrorLog.h"
#include "verify/LoadErrors.h"
#include "verify/ReleaseMix.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace cudnnsetup {

namespace verifystages {

namespace {

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

} // namespace

QString folderOf(const SystemContext &context, const QString &hostPath)
{
    return context.paths().parent(context.files().fromHost(hostPath));
}

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
                             Text(QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN libraries here name no "
                                                                  "other library, so none was looked for.")),
                             details, {}, milliseconds);
        return makeStage(
            QStringLiteral("dependencies"), VerifyStage::Status::Passed,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Every library cuDNN needs is found (%1 checked)."))
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
    const Version expected = Version::parse(subject.expectedVersion);
    // Named as the Archive, Install and Finish pages name this copy: "9.28.1.4", not "9.28.1".
    const Version copy = versions::copyVersion(loaded, expected);
    report.cudnnVersion = copy.isValid() ? copy.toString() : QString::number(*probe.cudnnVersion);
    // cudnnGetCudartVersion(): 12020 for CUDA 12.2; 0 when the library does not know.
    const int cudartMajor = probe.cudnnCudartVersion ? int(*probe.cudnnCudartVersion / 1000) : 0;
    const QString details = QStringLiteral("cudnnGetVersion() = %1, cudnnGetCudartVersion() = %2")
                                .arg(QString::number(*probe.cudnnVersion),
                                     probe.cudnnCudartVersion ? QString::number(*probe.cudnnCudartVersion)
                                                              : QStringLiteral("unknown"));
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

} // namespace verifystages

} // namespace cudnnsetup
