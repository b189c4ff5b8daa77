#include "VerifyCommands.h"
#include "BaselineCommands.h"
#include "CommandContext.h"

#include "archive/ArchiveInspector.h"
#include "common/ExitCodes.h"
#include "common/Logging.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/Matcher.h"
#include "detect/Detector.h"
#include "doctor/Doctor.h"
#include "install/ElevatedExchange.h"
#include "install/InstallTarget.h"
#include "install/Installer.h"
#include "install/TargetSpec.h"
#include "platform/Console.h"
#include "platform/HostInfo.h"
#include "report/MachineReport.h"
#include "report/ReportFiles.h"
#include "report/TextTable.h"
#include "report/VerifyText.h"
#include "session/InstallRequest.h"
#include "verify/ConsumerVerify.h"
#include "verify/InstallStatus.h"
#include "verify/VerificationRecord.h"
#include "verify/Verifier.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

using namespace cudnnsetup;

namespace {

void printJson(const QJsonObject &object)
{
    console::out(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

int usage(const QString &message)
{
    console::error(message + QLatin1Char('\n'));
    return exitcode::UsageError;
}

QList<Receipt> receiptsOf(const SystemContext &context)
{
    QList<Receipt> receipts;
    for (const auto &[receipt, path] : installedReceipts(context))
        receipts.append(receipt);
    return receipts;
}

// The install to check: --target, else the newest install cuDNN Setup made, else what a freshly
// started program loads.
Expected<VerifySubject> chooseSubject(const VerifyRequest &request, const SystemContext &context,
                                      const SystemSnapshot &snapshot, const QList<Receipt> &receipts,
                                      const KnowledgeBase &kb)
{
    if (!request.target.isEmpty()) {
        const Expected<InstallTarget> target =
            targetFromSpec(request.target, std::nullopt, snapshot, ArchiveReport{}, context, kb);
        if (!target)
            return target.error();
        Expected<VerifySubject> subject =
            subjectInFolder(context, target->dllFolder(), QStringLiteral("target"));
        // "dir:FOLDER" may name the folder that holds the libraries itself.
        if (!subject && target->kind == InstallTarget::Kind::Folder)
            subject = subjectInFolder(context, target->root, QStringLiteral("target"));
        if (!subject)
            return subject;
        VerifySubject chosen = *subject;
        if (target->kind == InstallTarget::Kind::Venv) {
            chosen.loadModel = LoadModel::PythonDllDirectories;
            chosen.dllDirectories = {chosen.directory};
        } else if (target->kind == InstallTarget::Kind::Conda || target->kind == InstallTarget::Kind::App) {
            // A program loads what lies beside it first, as a library loaded by its full path does.
            chosen.loadModel = LoadModel::CondaActivated;
        }
        if (target->toolkitVersion.isValid()) {
            chosen.toolkitVersion = target->toolkitVersion.toString();
            chosen.cudaMajor = target->toolkitVersion.major();
        }
        return chosen;
    }
    const Receipt *newest = nullptr;
    for (const Receipt &receipt : receipts) {
        if (receipt.partOf.isEmpty() && receipt.result == QLatin1String("installed") &&
            (!newest || receipt.created > newest->created))
            newest = &receipt;
    }
    if (newest)
        return subjectFromReceipt(context, *newest);
    if (const std::optional<VerifySubject> detected = subjectFromSnapshot(context, snapshot))
        return *detected;
    return Finding::error(
        QStringLiteral("verify.nothing"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system.")), {},
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install one first: cudnnctl install --archive FILE.zip")));
}

std::optional<VerifyReport> verifyDefault(const VerifyRequest &request, const SystemContext &context,
                                          const SystemSnapshot &snapshot, const QList<Receipt> &receipts,
                                          const KnowledgeBase &kb, bool framework)
{
    const Expected<VerifySubject> subject = chooseSubject(request, context, snapshot, receipts, kb);
    if (!subject)
        return std::nullopt;
    VerifyOptions options;
    options.pythons = request.pythons;
    options.gpu = request.gpu;
    options.framework = framework;
    return verify(context, snapshot, *subject, options);
}

bool confirm(const Repair &repair)
{
    console::out(QCoreApplication::translate("cudnnctl", "Apply: %1? [y/N] ").arg(repair.summary.toString()));
    const QString answer = console::readLine().trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes") || answer == QStringLiteral("是");
}

// The elevated helper of a doctor --fix that needs administrator rights: the repairs it was handed,
// checked and applied, its outcome written back; no detection, so it starts no program of the
// user's PATH.
int runHandedOverRepairs(const VerifyRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    // A journal a crashed change left is settled first: the repairs' own transaction needs its place.
    const Findings recovered = recoverUnfinished(context, environment);
    ChangeOptions options;
    if (!request.cancelFile.isEmpty()) {
        const QString cancelFile = request.cancelFile;
        options.cancelled = [cancelFile] { return QFileInfo::exists(cancelFile); };
    }
    ChangeOutcome outcome = applyHandedOverRepairs(request.requestFile, context, environment, kb, options);
    outcome.findings = recovered + outcome.findings;
    const QByteArray json = QJsonDocument(outcome.toJson()).toJson();
    if (!request.exchangeNonce.isEmpty()) {
        if (const SystemResult answered = exchange::writeResult(
                json, request.exchangeNonce, request.requesterSid, context, context.elevation());
            !answered)
            qCWarning(lcApp).noquote() << "the outcome cannot be handed back:" << answered.error().message;
    }
    if (request.json)
        console::out(QString::fromUtf8(json));
    return outcome.exitCode();
}

int runDoctor(const VerifyRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    if (!request.requestFile.isEmpty())
        return runHandedOverRepairs(request, context, kb);
    std::optional<ErrorLog> pasted;
    if (!request.fromLog.isEmpty()) {
        Expected<ErrorLog> read = readErrorLogFrom(request.fromLog);
        if (!read)
            return usage(read.error().message.toString());
        pasted = *read;
    }
    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    const Findings recovered = recoverUnfinished(context, environment);
    const auto examine = [&] {
        DoctorInput input;
        input.snapshot = detectSystem(context, request.detect);
        input.receipts = receiptsOf(context);
        input.archive = request.archive;
        input.log = pasted;
        // The framework is asked through the snapshot's own probe; the verification here is the
        // fresh process's view of the copy in use.
        input.verify = verifyDefault(request, context, input.snapshot, input.receipts, kb, false);
        DoctorReport report = diagnose(input, context, *environment, kb);
        for (const Finding &finding : recovered)
            report.diagnoses.prepend(Diagnosis{finding, 0, std::nullopt});
        return report;
    };
    const DoctorReport before = examine();
    if (!request.fix) {
        if (request.json)
            printJson(before.toJson());
        else
            console::out(doctorText(before));
        return before.healthy() ? exitcode::Success : exitcode::ProblemsFound;
    }

    QList<Repair> chosen;
    if (!request.json)
        console::out(doctorText(before));
    for (const Diagnosis &diagnosis : before.diagnoses) {
        if (!diagnosis.repair)
            continue;
        if (request.yes || (!request.json && confirm(*diagnosis.repair)))
            chosen.append(*diagnosis.repair);
    }
    if (chosen.isEmpty()) {
        if (request.json)
            printJson(QJsonObject{{QStringLiteral("schema"), QStringLiteral("cudnn-setup/doctor-fix/1")},
                                  {QStringLiteral("before"), before.toJson()},
                                  {QStringLiteral("applied"), QJsonArray()}});
        else
            console::out(QCoreApplication::translate("cudnnctl", "Nothing was changed.") + QLatin1Char('\n'));
        return before.healthy() ? exitcode::Success : exitcode::ProblemsFound;
    }
    const ChangeOutcome outcome =
        repairWithElevation(chosen, ChangeOptions(), context, environment,
                            QCoreApplication::applicationFilePath(), elevatedHelperArguments());
    const DoctorReport after = examine();
    if (request.json) {
        QJsonArray applied;
        for (const Repair &repair : std::as_const(chosen))
            applied.append(repair.toJson());
        printJson(QJsonObject{{QStringLiteral("schema"), QStringLiteral("cudnn-setup/doctor-fix/1")},
                              {QStringLiteral("before"), before.toJson()},
                              {QStringLiteral("applied"), applied},
                              {QStringLiteral("change"), outcome.toJson()},
                              {QStringLiteral("after"), after.toJson()}});
    } else {
        QString text = QLatin1Char('\n') + QCoreApplication::translate("cudnnctl", "After the repairs:") +
                       QLatin1Char('\n') + doctorText(after);
        if (outcome.receipt)
            text += QCoreApplication::translate("cudnnctl", "Undo them with: cudnnctl uninstall %1")
                        .arg(outcome.receipt->id) +
                    QLatin1Char('\n');
        for (const Finding &finding : outcome.findings)
            text += QStringLiteral("  [%1] ").arg(severityLabel(finding.severity)) +
                    finding.message.toString() + QLatin1Char('\n');
        console::out(text);
    }
    return outcome.exitCode();
}

int runStatus(const VerifyRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    StatusQuery query;
    query.cudnnVersion = request.cudnnVersion;
    if (!request.target.isEmpty()) {
        DetectOptions detect = request.detect;
        detect.probePythons = false; // a venv or conda target is named by its folder
        const Expected<InstallTarget> target = targetFromSpec(
            request.target, std::nullopt, detectSystem(context, detect), ArchiveReport{}, context, kb);
        if (!target)
            return usage(target.error().message.toString());
        query.target = *target;
    }
    const InstallStatus status = installStatus(context, query);
    if (request.json)
        printJson(status.toJson());
    else if (status.installed())
        console::out(status.line() + QLatin1Char('\n'));
    if (!status.installed())
        console::error(status.reason.message.toString() + QLatin1Char('\n'));
    return status.installed() ? exitcode::Success : exitcode::ProblemsFound;
}

// `report --to FOLDER`: this machine's report for the lab's share, from what `status` answers here
// and the doctor's open findings. The probe is not run: the report carries the last verification.
int writeShareReport(const VerifyRequest &request, const SystemContext &context,
                     const SystemSnapshot &snapshot, const QList<Receipt> &receipts, const KnowledgeBase &kb)
{
    MachineReportInput input;
    input.machine = request.machine.isEmpty() ? hostinfo::machineName() : request.machine;
    input.writtenAt = QDateTime::currentDateTimeUtc();
    input.tool = QStringLiteral("cudnnctl %1").arg(QCoreApplication::applicationVersion());
    input.snapshot = snapshot;
    input.status = installStatus(context, StatusQuery());
    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    DoctorInput doctorInput;
    doctorInput.snapshot = snapshot;
    doctorInput.receipts = receipts;
    for (const Diagnosis &diagnosis : diagnose(doctorInput, context, *environment, kb).diagnoses)
        input.findings.append(diagnosis.finding);
    const Expected<QString> written = writeMachineReport(machineReportJson(input), request.toFolder);
    if (!written)
        return usage(written.error().message.toString() + QLatin1Char('\n') + written.error().details);
    console::out(QDir::toNativeSeparators(*written) + QLatin1Char('\n'));
    return exitcode::Success;
}

// verify --for: the programs check --for chooses, each loaded by its own rules in a fresh process.
int runVerifyFor(const VerifyRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    const SystemSnapshot snapshot = detectSystem(context, request.detect);
    const Expected<QList<JudgedConsumer>> judged =
        judgeFor(request.forWhat, snapshot.consumers, MatchFacts::fromSnapshot(snapshot), kb);
    if (!judged)
        return usage(judged.error().message.toString());
    QList<ConsumerInfo> consumers;
    for (const JudgedConsumer &entry : *judged) {
        if (entry.found)
            consumers.append(entry.consumer);
    }
    const ConsumerVerifyReport report =
        verifyConsumers(context, snapshot, request.forWhat, consumers, VerifyOptions());
    if (request.json)
        printJson(report.toJson());
    else
        console::out(consumerVerifyText(report));
    return report.passed() ? exitcode::Success : exitcode::ProblemsFound;
}

} // namespace

int runVerifyCommand(const VerifyRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    if (request.command == QLatin1String("doctor"))
        return runDoctor(request, context, kb);
    if (request.command == QLatin1String("status"))
        return runStatus(request, context, kb);
    if (request.command == QLatin1String("verify") && !request.forWhat.isEmpty())
        return runVerifyFor(request, context, kb);

    DetectOptions detect = request.detect;
    // The framework stage asks the interpreters itself; detection only needs to know which have torch.
    detect.probePythons = request.command == QLatin1String("report") && detect.probePythons;
    const SystemSnapshot snapshot = detectSystem(context, detect);
    const QList<Receipt> receipts = receiptsOf(context);

    if (request.command == QLatin1String("report")) {
        if (request.outFolder.isEmpty() && request.toFolder.isEmpty())
            return usage(QCoreApplication::translate(
                "cudnnctl", "report needs a folder: cudnnctl report --out DIR, or --to FOLDER for a share"));
        if (!request.toFolder.isEmpty()) {
            const int shared = writeShareReport(request, context, snapshot, receipts, kb);
            if (shared != exitcode::Success || request.outFolder.isEmpty())
                return shared;
        }
        ReportInput input;
        input.snapshot = snapshot;
        input.receipts = receipts;
        input.tool = QStringLiteral("cudnnctl %1").arg(QCoreApplication::applicationVersion());
        input.createdAt = QDateTime::currentDateTimeUtc();
        input.verify = verifyDefault(request, context, snapshot, receipts, kb, request.framework);
        const std::shared_ptr<PersistentEnvironment> environment =
            context.isLive() ? PersistentEnvironment::forRunningSystem()
                             : PersistentEnvironment::unavailable();
        DoctorInput doctorInput;
        doctorInput.snapshot = snapshot;
        doctorInput.receipts = receipts;
        doctorInput.verify = input.verify;
        input.doctor = diagnose(doctorInput, context, *environment, kb);
        const Expected<QStringList> written = writeReport(input, QDir(request.outFolder).absolutePath());
        if (!written)
            return usage(written.error().message.toString() + QLatin1Char('\n') + written.error().details);
        for (const QString &file : *written)
            console::out(QDir::toNativeSeparators(file) + QLatin1Char('\n'));
        return exitcode::Success;
    }

    const Expected<VerifySubject> subject = chooseSubject(request, context, snapshot, receipts, kb);
    if (!subject) {
        if (subject.error().id == QLatin1String("verify.nothing")) {
            if (request.json)
                printJson(QJsonObject{{QStringLiteral("schema"), QString::fromLatin1(VerifyReport::kSchema)},
                                      {QStringLiteral("findings"), QJsonArray{subject.error().toJson()}}});
            else
                console::out(findingsText({subject.error()}));
            return exitcode::ProblemsFound;
        }
        return usage(subject.error().message.toString());
    }
    VerifyOptions options;
    options.pythons = request.pythons;
    options.gpu = request.gpu;
    options.framework = request.framework;
    const VerifyReport report = verify(context, snapshot, *subject, options);
    // `cudnnctl status` says when the install last passed.
    if (const SystemResult recorded = recordVerification(context, report); !recorded)
        console::error(
            QCoreApplication::translate("cudnnctl", "The result could not be recorded beside the receipt: %1")
                .arg(recorded.error().message) +
            QLatin1Char('\n'));
    if (request.json)
        printJson(report.toJson());
    else
        console::out(verifyText(report));
    return report.passed() ? exitcode::Success : exitcode::ProblemsFound;
}

namespace {

VerifyRequest verifyRequest(const CommandContext &context, const QCommandLineParser &parser)
{
    VerifyRequest request;
    request.command = context.positional.first();
    request.target = parser.value(QStringLiteral("target"));
    request.forWhat = context.forConsumer;
    request.pythons = parser.values(QStringLiteral("python"));
    request.gpu = !parser.isSet(QStringLiteral("no-gpu"));
    request.framework = !parser.isSet(QStringLiteral("no-framework"));
    request.fix = parser.isSet(QStringLiteral("fix"));
    request.yes = parser.isSet(QStringLiteral("yes"));
    request.archive = absolutePath(parser, QStringLiteral("archive"));
    request.fromLog = parser.value(QStringLiteral("from-log")) == QLatin1String("-")
                          ? parser.value(QStringLiteral("from-log"))
                          : absolutePath(parser, QStringLiteral("from-log"));
    request.outFolder = absolutePath(parser, QStringLiteral("out"));
    request.toFolder = absolutePath(parser, QStringLiteral("to"));
    request.machine = parser.value(QStringLiteral("machine"));
    request.cudnnVersion = parser.value(QStringLiteral("cudnn"));
    request.requestFile = absolutePath(parser, QStringLiteral("request"));
    request.exchangeNonce = parser.value(QStringLiteral("exchange"));
    request.requesterSid = parser.value(QStringLiteral("requester"));
    request.cancelFile = absolutePath(parser, QStringLiteral("cancel-file"));
    request.json = context.json;
    request.detect = context.detect;
    return request;
}

} // namespace

int verifyCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    return runVerifyCommand(verifyRequest(context, parser), context.system(), context.database.database);
}

int statusCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    const bool against = parser.isSet(QStringLiteral("against"));
    if (!against && (parser.isSet(QStringLiteral("format")) || parser.isSet(QStringLiteral("repair-file"))))
        return usageError(
            QCoreApplication::translate("cudnnctl", "--format and --repair-file go with --against."));
    if (against && (parser.isSet(QStringLiteral("cudnn")) || parser.isSet(QStringLiteral("target"))))
        return usageError(QCoreApplication::translate(
            "cudnnctl",
            "--against takes the version and the target from the baseline: leave out --cudnn and --target."));
    if (against)
        return runStatusAgainst(baselineRequest(context, parser), context.system(),
                                context.database.database);
    return verifyCommand(context, parser);
}
