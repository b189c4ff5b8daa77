#include "session/UnattendedRun.h"

#include "common/Logging.h"
#include "compat/Matcher.h"
#include "detect/Detector.h"
#include "doctor/Doctor.h"
#include "doctor/RepairSteps.h"
#include "download/ArchiveDownload.h"
#include "install/Operations.h"
#include "install/StateFolders.h"
#include "install/TargetChecks.h"
#include "install/TargetSpec.h"
#include "platform/DurableFiles.h"
#include "session/InstallRequest.h"
#include "verify/InstallStatus.h"
#include "verify/VerificationRecord.h"
#include "verify/Verifier.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

namespace cudnnsetup {

namespace {

constexpr int kInvalidParameter = 87;
constexpr int kFatalError = 1603;

Finding answerFileProblem(const Text &message, const QString &details = {})
{
    return Finding::error(QStringLiteral("unattended.answer-file"), message, details);
}

void logFindings(const Findings &findings)
{
    for (const Finding &finding : findings)
        qCInfo(lcInstall).noquote() << QStringLiteral("finding [%1] %2: %3%4")
                                           .arg(severityName(finding.severity), finding.id,
                                                finding.message.toString(),
                                                finding.details.isEmpty()
                                                    ? QString()
                                                    : QStringLiteral(" (%1)").arg(finding.details));
}

void logOutcome(const QString &what, const ChangeOutcome &outcome)
{
    qCInfo(lcInstall).noquote()
        << QStringLiteral("%1: %2 (exit %3)").arg(what, outcome.statusName()).arg(outcome.exitCode());
    for (const QString &step : outcome.plan)
        qCInfo(lcInstall).noquote() << QStringLiteral("operation: %1").arg(step);
    if (outcome.receipt)
        qCInfo(lcInstall).noquote() << QStringLiteral("receipt %1: %2")
                                           .arg(outcome.receipt->id,
                                                QDir::toNativeSeparators(outcome.receiptPath));
    logFindings(outcome.findings);
}

void logVerification(const VerifyReport &report)
{
    qCInfo(lcInstall).noquote() << QStringLiteral("verification of %1: %2")
                                       .arg(QDir::toNativeSeparators(report.directory),
                                            report.passed() ? QStringLiteral("passed")
                                                            : QStringLiteral("failed"));
    for (const VerifyStage &stage : report.stages)
        qCInfo(lcInstall).noquote() << QStringLiteral("stage %1: %2 - %3%4")
                                           .arg(stage.id, VerifyStage::statusName(stage.status),
                                                stage.message.toString(),
                                                stage.details.isEmpty()
                                                    ? QString()
                                                    : QStringLiteral(" (%1)").arg(stage.details));
    logFindings(report.findings);
}

DetectOptions quietDetection()
{
    DetectOptions detect;
    detect.probePythons = false; // a venv or conda target is named by its folder
    return detect;
}

// The receipt's subject verified as imaging checks it (GPU stage on, no framework) and the result
// recorded beside the receipt; a subject that cannot be made is a failed verification.
VerifyReport verifyInstalled(const Receipt &receipt, const QString &receiptPath, const SystemContext &context,
                             const QString &cudnnctl)
{
    const Expected<VerifySubject> subject = subjectFromReceipt(context, receipt);
    VerifyReport report;
    if (!subject) {
        report.createdAt = QDateTime::currentDateTimeUtc();
        report.receiptId = receipt.id;
        VerifyStage stage;
        stage.id = QStringLiteral("load");
        stage.status = VerifyStage::Status::Failed;
        stage.message = subject.error().message;
        stage.details = subject.error().details;
        report.stages.append(stage);
        report.findings.append(subject.error());
    } else {
        VerifyOptions options;
        options.probeProgram = cudnnctl;
        options.framework = false;
        options.gpu = true;
        report = verify(context, detectSystem(context, quietDetection()), *subject, options);
    }
    VerificationRecord record = VerificationRecord::of(report);
    record.receiptId = receipt.id;
    if (const SystemResult written = writeVerificationRecord(receiptPath, record); !written)
        qCWarning(lcInstall).noquote() << QStringLiteral("the verification record could not be written: %1")
                                              .arg(written.error().message);
    logVerification(report);
    return report;
}

UnattendedResult invalidInput(UnattendedResult result, const Finding &finding)
{
    result.exitCode = kInvalidParameter;
    result.findings.append(finding);
    logFindings(result.findings);
    return result;
}

// No archive given: the one check recommends for this machine, downloaded from the archive source
// into the state folder's downloads (the machine's for an administrator) and verified.
Expected<QString> downloadRecommended(const UnattendedSettings &settings, const SystemContext &context,
                                      const KnowledgeBase &kb)
{
    const auto refused = [](const Finding &finding) {
        logFindings({finding});
        return finding;
    };
    const auto source = ArchiveSource::parse(settings.archiveSource);
    if (!source)
        return refused(source.error());
    const MatchResult verdict = match(MatchFacts::fromSnapshot(detectSystem(context, quietDetection())), kb);
    const auto recommended =
        verdict.recommendation ? requestForArchive(verdict.recommendation->archiveFile) : std::nullopt;
    if (!recommended)
        return refused(Finding::error(
            QStringLiteral("unattended.nothing-to-download"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No archive was given and none fits this computer, so "
                                                 "there is nothing to download and install."))));
    DownloadRequest request = *recommended;
    request.source = *source;
    const StateFolders folders = StateFolders::of(context);
    // An administrator's download goes where only administrators write: the machine folder, made
    // ready (and its downloads folder checked) first.
    if (context.elevation().isElevated()) {
        Findings setAside;
        const Expected<void> prepared =
            folders.prepare(folders.machine, context, context.elevation(), &setAside);
        logFindings(setAside);
        if (!prepared)
            return refused(prepared.error());
    }
    request.outFolder = folders.downloads(context.elevation().isElevated() ? folders.machine : folders.user);
    qCInfo(lcInstall).noquote() << QStringLiteral("no archive given: downloading %1 from %2 into %3")
                                       .arg(verdict.recommendation->archiveFile, source->location(),
                                            QDir::toNativeSeparators(request.outFolder));
    const DownloadReport report = downloadArchive(request, kb);
    logFindings(report.findings);
    if (!report.ok()) {
        const auto error =
            std::find_if(report.findings.cbegin(), report.findings.cend(),
                         [](const Finding &finding) { return finding.severity == Severity::Error; });
        return *error;
    }
    qCInfo(lcInstall).noquote()
        << QStringLiteral("downloaded and checked: %1").arg(QDir::toNativeSeparators(report.path));
    return report.path;
}

UnattendedResult runInstall(UnattendedSettings settings, const SystemContext &context,
                            std::shared_ptr<PersistentEnvironment> environment, const KnowledgeBase &kb,
                            const QString &cudnnctl, UnattendedResult result)
{
    if (settings.archive.isEmpty()) {
        const Expected<QString> downloaded = downloadRecommended(settings, context, kb);
        if (!downloaded) {
            // Nothing to download, or a source that is not there, is bad input (87); a source that
            // could not deliver, a failure (1603).
            static const QStringList badInput{QStringLiteral("unattended.nothing-to-download"),
                                              QStringLiteral("download.source-invalid"),
                                              QStringLiteral("download.source-missing")};
            result.exitCode = badInput.contains(downloaded.error().id) ? kInvalidParameter : kFatalError;
            result.findings.append(downloaded.error());
            return result;
        }
        settings.archive = *downloaded;
    }
    const Expected<TargetConfig> target =
        TargetConfig::fromOptions(settings.target, settings.path, settings.variables, settings.ifInUse);
    if (!target)
        return invalidInput(result, target.error());
    InstallRequest request;
    request.archive = settings.archive;
    request.target = *target;
    request.detect = quietDetection();
    qCInfo(lcInstall).noquote() << QStringLiteral("install %1 into %2")
                                       .arg(QDir::toNativeSeparators(settings.archive),
                                            settings.target.isEmpty() ? QStringLiteral("(default target)")
                                                                      : settings.target);
    // No UAC prompt (no elevatedProgram): nobody is there to answer it. Deployment tools run this as
    // SYSTEM or an administrator; a run without the rights fails (1603) and rolls back.
    const Expected<ChangeOutcome> installed = installRequested(request, {}, context, environment, kb);
    if (!installed)
        return invalidInput(result, installed.error());
    result.change = *installed;
    result.exitCode = installed->exitCode();
    logOutcome(QStringLiteral("install"), *installed);
    if (!settings.verify || !installed->receipt || !installed->succeeded()) {
        if (!settings.verify)
            qCInfo(lcInstall) << "verification skipped (--no-verify)";
        return result;
    }
    result.verification = verifyInstalled(*installed->receipt, installed->receiptPath, context, cudnnctl);
    if (result.verification->passed())
        return result;
    result.exitCode = kFatalError;
    if (installed->changedNow()) {
        qCInfo(lcInstall) << "a verification stage failed: rolling the install back";
        ChangeOptions undo;
        result.rollback = uninstallWithParts(installed->receipt->id, undo, context, environment);
        logOutcome(QStringLiteral("rollback"), *result.rollback);
    }
    return result;
}

// A repair file of a baseline whose PATH drifted names the target and the PATH scope (Drift): the
// install's DLL folder goes back to the front of that scope's PATH, and another cuDNN before it
// there moves behind it (nothing leaves PATH). Whoever applies the file gets the baseline's scope,
// not the doctor's user PATH of that account (SYSTEM, under Intune). nullopt: nothing to do.
Expected<std::optional<Repair>> baselinePathRepair(const UnattendedSettings &settings,
                                                   const SystemSnapshot &snapshot,
                                                   const SystemContext &context,
                                                   const PersistentEnvironment &environment,
                                                   const KnowledgeBase &kb)
{
    if (settings.path.isEmpty() || settings.target.isEmpty())
        return std::optional<Repair>();
    const std::optional<PathScope> scope = pathScopeFromName(settings.path);
    if (!scope)
        return answerFileProblem(Text(QT_TRANSLATE_NOOP("cudnnsetup", "path= in the answer file takes user, "
                                                                      "system or none, not \"%1\"."))
                                     .arg(settings.path));
    if (*scope == PathScope::None || context.family() != OsFamily::Windows)
        return std::optional<Repair>(); // Linux: the loader's file is the install's, reinstalled
    const Expected<InstallTarget> wanted =
        targetFromSpec(settings.target, scope, snapshot, ArchiveReport{}, context, kb);
    if (!wanted)
        return wanted.error();
    StatusQuery query;
    query.target = *wanted;
    const InstallStatus status = installStatus(context, query);
    if (!status.installed() || !status.receipt->target)
        return Finding::error(
            QStringLiteral("unattended.path-without-install"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The answer file puts the DLL folder of %1 back on PATH, "
                                                 "but cuDNN Setup has no intact install there."))
                .arg(wanted->root),
            status.reason.message.toString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Write the repair file again (cudnnctl status --against "
                                                 "BASELINE --repair-file FILE): it installs cuDNN there.")));
    // What goes on a PATH must be no one else's to change, as when it is installed there.
    InstallTarget onPath = *status.receipt->target;
    onPath.pathScope = *scope;
    Findings unsafe;
    checkSystemPathFolder(onPath, context, unsafe);
    if (hasErrors(unsafe))
        return unsafe.first();
    const QString folder = onPath.dllFolder();
    const EnvironmentScope where = environmentScopeOf(*scope).value_or(EnvironmentScope::System);
    const auto stored = environment.read(where, QStringLiteral("PATH"));
    if (!stored)
        return stored.error();
    const QString before = *stored ? (*stored)->text : QString();
    const PathEditor editor =
        PathEditor::forStoredPath(context.family(), where, environment, sessionVariablesOf(context));
    const auto otherCudnn = [&](const QString &directory) {
        return !context.paths().equal(directory, folder) &&
               std::any_of(snapshot.cudnn.cbegin(), snapshot.cudnn.cend(), [&](const CudnnCopy &copy) {
                   return context.paths().equal(copy.directory, directory);
               });
    };
    const PathAnalysis analysis = editor.analyse(before, folder, otherCudnn, PathEditor::Position::Front);
    QList<PathFix> fixes;
    for (const PathProblem &problem : analysis.problems) {
        if (problem.kind == PathProblem::Kind::OtherCudnn && problem.beforeOurs)
            fixes.append({PathFix::Action::MoveBehindOurs, problem.index, problem.entry});
    }
    if (!analysis.needsAdding && fixes.isEmpty())
        return std::optional<Repair>();
    const Expected<QString> after = editor.edited(before, folder, PathEditor::Position::Front, fixes);
    if (!after)
        return after.error();
    return std::optional<Repair>(repairs::pathChange(
        QStringLiteral("repair.restore-path-entry"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put %1 first on PATH, as the baseline has it.")).arg(folder),
        where, before, *after, *operations::addPathEntry(context.family(), where, folder, true, fixes)));
}

UnattendedResult runRepair(const UnattendedSettings &settings, const SystemContext &context,
                           std::shared_ptr<PersistentEnvironment> environment, const KnowledgeBase &kb,
                           const QString &cudnnctl, UnattendedResult result)
{
    DoctorInput input;
    input.snapshot = detectSystem(context, quietDetection());
    input.archive = settings.archive;
    // The baseline's PATH first, in a change of its own: the doctor then judges the PATH it left.
    const Expected<std::optional<Repair>> pathRepair =
        baselinePathRepair(settings, input.snapshot, context, *environment, kb);
    if (!pathRepair) {
        result.exitCode = pathRepair.error().id == QLatin1String("unattended.answer-file") ? kInvalidParameter
                                                                                           : kFatalError;
        result.findings.append(pathRepair.error());
        logFindings(result.findings);
        return result;
    }
    std::optional<ChangeOutcome> restored;
    if (*pathRepair) {
        qCInfo(lcInstall).noquote() << QStringLiteral("repair: %1").arg((*pathRepair)->summary.toString());
        restored = applyRepairs({**pathRepair}, context, environment);
        logOutcome(QStringLiteral("PATH as the baseline has it"), *restored);
        if (!restored->changedNow()) {
            result.change = restored;
            result.exitCode = restored->exitCode();
            return result;
        }
        input.snapshot = detectSystem(context, quietDetection());
    }
    const std::pair<Receipt, QString> *newest = nullptr;
    const QList<std::pair<Receipt, QString>> receipts = installedReceipts(context);
    for (const auto &entry : receipts) {
        input.receipts.append(entry.first);
        if (entry.first.partOf.isEmpty() && entry.first.result == QLatin1String("installed") &&
            (!newest || entry.first.created > newest->first.created))
            newest = &entry;
    }
    if (newest && settings.verify)
        input.verify = verifyInstalled(newest->first, newest->second, context, cudnnctl);
    const DoctorReport report = diagnose(input, context, *environment, kb);
    QList<Repair> repairs;
    for (const Diagnosis &diagnosis : report.diagnoses) {
        logFindings({diagnosis.finding});
        if (diagnosis.repair) {
            qCInfo(lcInstall).noquote()
                << QStringLiteral("repair: %1").arg(diagnosis.repair->summary.toString());
            repairs.append(*diagnosis.repair);
        }
    }
    if (repairs.isEmpty()) {
        qCInfo(lcInstall) << "no repair offered";
        // The baseline's PATH put back is what the repair file was for.
        result.change = restored;
        result.exitCode = restored ? restored->exitCode() : report.healthy() ? 0 : kFatalError;
        return result;
    }
    result.change = applyRepairs(repairs, context, environment);
    result.exitCode = result.change->exitCode();
    logOutcome(QStringLiteral("repair"), *result.change);
    return result;
}

} // namespace

Expected<UnattendedSettings> UnattendedSettings::withAnswerFile(const QString &answerFile) const
{
    QFile file(answerFile);
    if (!file.open(QIODevice::ReadOnly))
        return answerFileProblem(Text(QT_TRANSLATE_NOOP("cudnnsetup", "The answer file %1 cannot be read."))
                                     .arg(QDir::toNativeSeparators(answerFile)),
                                 file.errorString());
    // Read by hand rather than with QSettings, whose INI format takes '\\' as an escape and ',' as a
    // list separator: Windows paths are written here as they are.
    QMap<QString, QString> values;
    QString section;
    int lineNumber = 0;
    for (QString line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        ++lineNumber;
        line = line.trimmed();
        if (line.startsWith(QChar(0xFEFF)))
            line = line.mid(1).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char(';')) || line.startsWith(QLatin1Char('#')))
            continue;
        if (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) {
            section = line.mid(1, line.size() - 2).trimmed().toLower();
            continue;
        }
        const int equals = line.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return answerFileProblem(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Line %1 of the answer file is not "
                                                                          "\"key=value\"."))
                                         .arg(lineNumber),
                                     line);
        if (section != QLatin1String("setup"))
            continue;
        QString value = line.mid(equals + 1).trimmed();
        if (value.size() >= 2 && value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
            value = value.mid(1, value.size() - 2);
        values.insert(line.left(equals).trimmed().toLower(), value);
    }

    UnattendedSettings settings = *this;
    // Files named relative to the answer file, as a deployment share hands them out.
    const QDir base = QFileInfo(answerFile).absoluteDir();
    const QMap<QString, QString *> strings{{QStringLiteral("action"), &settings.action},
                                           {QStringLiteral("archive"), &settings.archive},
                                           {QStringLiteral("archive_source"), &settings.archiveSource},
                                           {QStringLiteral("archivesource"), &settings.archiveSource},
                                           {QStringLiteral("target"), &settings.target},
                                           {QStringLiteral("path"), &settings.path},
                                           {QStringLiteral("cudnn_variables"), &settings.variables},
                                           {QStringLiteral("if_in_use"), &settings.ifInUse},
                                           {QStringLiteral("receipt"), &settings.receiptId},
                                           {QStringLiteral("log"), &settings.logFile}};
    for (auto value = values.cbegin(); value != values.cend(); ++value) {
        if (value.key() == QLatin1String("verify")) {
            const QString verify = value.value().toLower();
            if (verify != QLatin1String("true") && verify != QLatin1String("false"))
                return answerFileProblem(
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "verify= in the answer file takes true or false.")),
                    value.value());
            settings.verify = verify == QLatin1String("true");
        } else if (QString *field = strings.value(value.key())) {
            *field = value.value();
            const bool isFile = field == &settings.archive || field == &settings.logFile;
            // A folder source is a path too; a web address is not.
            const bool isFolder = field == &settings.archiveSource &&
                                  !field->contains(QLatin1String("://")) &&
                                  field->compare(QLatin1String("nvidia"), Qt::CaseInsensitive) != 0;
            if ((isFile || isFolder) && !field->isEmpty() && QDir::isRelativePath(*field))
                *field = base.absoluteFilePath(*field);
        } else {
            return answerFileProblem(
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The answer file has a key this version does not know: %1."))
                    .arg(value.key()));
        }
    }
    return settings;
}

QByteArray UnattendedSettings::toAnswerFile() const
{
    QStringList lines{
        QStringLiteral("; cuDNN Setup answer file: cudnn-setup --unattended --answer-file THIS-FILE"),
        QStringLiteral("[setup]")};
    const QList<std::pair<QString, QString>> keys{{QStringLiteral("action"), action},
                                                  {QStringLiteral("archive"), archive},
                                                  {QStringLiteral("archive_source"), archiveSource},
                                                  {QStringLiteral("target"), target},
                                                  {QStringLiteral("path"), path},
                                                  {QStringLiteral("cudnn_variables"), variables},
                                                  {QStringLiteral("if_in_use"), ifInUse},
                                                  {QStringLiteral("receipt"), receiptId},
                                                  {QStringLiteral("log"), logFile}};
    for (const auto &[key, value] : keys) {
        if (!value.isEmpty())
            lines.append(key + QLatin1Char('=') + value);
    }
    lines.append(QStringLiteral("verify=") + (verify ? QStringLiteral("true") : QStringLiteral("false")));
    // CRLF, as Notepad and deployment tools on Windows expect.
    return lines.join(QStringLiteral("\r\n")).toUtf8() + "\r\n";
}

QJsonObject UnattendedResult::toJson() const
{
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    return {
        {QStringLiteral("schema"), QLatin1String(kSchema)},
        {QStringLiteral("action"), action},
        {QStringLiteral("exitCode"), exitCode},
        {QStringLiteral("change"), change ? QJsonValue(change->toJson()) : QJsonValue()},
        {QStringLiteral("verification"), verification ? QJsonValue(verification->toJson()) : QJsonValue()},
        {QStringLiteral("rollback"), rollback ? QJsonValue(rollback->toJson()) : QJsonValue()},
        {QStringLiteral("findings"), findingArray}};
}

QString defaultUnattendedLog(const SystemContext &context, bool administrator, const QDateTime &started)
{
    const StateFolders folders = StateFolders::of(context);
    return folders.logs(administrator ? folders.machine : folders.user) + QStringLiteral("/unattended-") +
           started.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")) + QStringLiteral(".log");
}

UnattendedResult runUnattended(const UnattendedSettings &settings, const SystemContext &context,
                               const KnowledgeBase &kb, const QString &cudnnctl)
{
    UnattendedResult result;
    result.action = settings.action;
    qCInfo(lcInstall).noquote() << QStringLiteral("cudnn-setup %1 unattended: action %2, verify %3")
                                       .arg(QStringLiteral(CUDNNSETUP_VERSION), settings.action,
                                            settings.verify ? QStringLiteral("on") : QStringLiteral("off"));
    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    const Findings recovered = recoverUnfinished(context, environment);
    logFindings(recovered);
    if (settings.action == QLatin1String("install"))
        result = runInstall(settings, context, environment, kb, cudnnctl, result);
    else if (settings.action == QLatin1String("repair"))
        result = runRepair(settings, context, environment, kb, cudnnctl, result);
    else if (settings.action == QLatin1String("uninstall")) {
        result.change = uninstallWithParts(settings.receiptId, {}, context, environment);
        result.exitCode = result.change->exitCode();
        logOutcome(QStringLiteral("uninstall"), *result.change);
    } else {
        result = invalidInput(
            result,
            Finding::error(QStringLiteral("request.invalid"),
                           Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                  "The action is install, repair or uninstall, not \"%1\"."))
                               .arg(settings.action)));
    }
    result.findings = recovered + result.findings;
    qCInfo(lcInstall).noquote() << QStringLiteral("exit code %1").arg(result.exitCode);
    return result;
}

int runUnattendedLogged(const UnattendedSettings &settings, const SystemContext &context,
                        const KnowledgeBase &kb, const QString &cudnnctl, const WizardLogHeader &header)
{
    const QFileInfo log(settings.logFile);
    // A log in the machine's state folder goes where only administrators can write.
    const StateFolders folders = StateFolders::of(context);
    Findings setAside; // told in the log and the result, once they are open
    if (QDir::cleanPath(log.absolutePath()).startsWith(QDir::cleanPath(folders.machine) + QLatin1Char('/'))) {
        const Expected<void> prepared =
            folders.prepare(folders.machine, context, context.elevation(), &setAside);
        if (!prepared) {
            qCWarning(lcInstall).noquote() << prepared.error().message.toString() << prepared.error().details;
            return kInvalidParameter;
        }
    }
    if (!QDir().mkpath(log.absolutePath()) || !logging::writeTo(log.absoluteFilePath())) {
        qCWarning(lcInstall).noquote() << QStringLiteral("the log file %1 cannot be written")
                                              .arg(QDir::toNativeSeparators(settings.logFile));
        return kInvalidParameter;
    }
    header.log();
    logFindings(setAside);
    UnattendedResult result = runUnattended(settings, context, kb, cudnnctl);
    result.findings = setAside + result.findings;
    const QString resultFile =
        log.absolutePath() + QLatin1Char('/') + log.completeBaseName() + QStringLiteral(".json");
    if (const SystemResult written = durable::write(QJsonDocument(result.toJson()).toJson(),
                                                    resultFile + QStringLiteral(".partial"), resultFile);
        !written)
        qCWarning(lcInstall).noquote()
            << QStringLiteral("the result %1 cannot be written: %2")
                   .arg(QDir::toNativeSeparators(resultFile), written.error().message);
    return result.exitCode;
}

} // namespace cudnnsetup
