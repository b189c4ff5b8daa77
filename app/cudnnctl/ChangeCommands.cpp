#include "ChangeCommands.h"
#include "CommandContext.h"

#include "common/Logging.h"
#include "install/ElevatedChange.h"
#include "install/ElevatedExchange.h"
#include "install/Installer.h"
#include "install/StateFolders.h"
#include "platform/Console.h"
#include "platform/Elevation.h"
#include "report/TextTable.h"
#include "session/InstallRequest.h"
#include "session/UnattendedRun.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTextStream>

#include <cstdlib>

using namespace cudnnsetup;

namespace {

constexpr int kInvalidParameter = 87;

int invalid(const QString &message, bool json)
{
    if (json) {
        const QJsonObject object{{QStringLiteral("schema"), QStringLiteral("cudnn-setup/change/1")},
                                 {QStringLiteral("status"), QStringLiteral("invalid")},
                                 {QStringLiteral("exitCode"), kInvalidParameter},
                                 {QStringLiteral("message"), message}};
        console::out(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    }
    console::error(message + QLatin1Char('\n'));
    return kInvalidParameter;
}

// Tests of crash safety kill this process at a chosen point of the transaction, as a power cut
// would: CUDNNSETUP_CRASH_AT="SEQUENCE:STAGE" (stage: before, after, copy, commit). Builds without
// the test suites have no such hook.
std::function<bool(const FaultPoint &)> crashHookFromEnvironment()
{
#ifndef CUDNNSETUP_TEST_HOOKS
    return {};
#else
    const QString spec = qEnvironmentVariable("CUDNNSETUP_CRASH_AT");
    if (spec.isEmpty())
        return {};
    const int sequence = spec.section(QLatin1Char(':'), 0, 0).toInt();
    const QString stage = spec.section(QLatin1Char(':'), 1);
    const FaultPoint::Stage wanted = stage == QLatin1String("after")    ? FaultPoint::Stage::AfterPerform
                                     : stage == QLatin1String("copy")   ? FaultPoint::Stage::InsideCopy
                                     : stage == QLatin1String("commit") ? FaultPoint::Stage::AfterCommit
                                                                        : FaultPoint::Stage::BeforePerform;
    return [sequence, wanted](const FaultPoint &point) {
        if (point.sequence == sequence && point.stage == wanted)
            std::_Exit(70);
        return false;
    };
#endif
}

QString text(const ChangeOutcome &outcome, const QString &command)
{
    QString out;
    QTextStream stream(&out);
    switch (outcome.status) {
    case ChangeOutcome::Status::Done:
        stream << (command == QLatin1String("install")
                       ? QCoreApplication::translate("cudnnctl", "Installed.")
                       : QCoreApplication::translate("cudnnctl", "Uninstalled."));
        break;
    case ChangeOutcome::Status::DoneRestartNeeded:
        stream << QCoreApplication::translate("cudnnctl",
                                              "Installed; restart Windows to finish (the findings say why).");
        break;
    case ChangeOutcome::Status::AlreadyDone:
        stream << QCoreApplication::translate("cudnnctl", "Already installed there; nothing to do.");
        break;
    case ChangeOutcome::Status::DryRun:
        stream << QCoreApplication::translate("cudnnctl",
                                              "Dry run: nothing was changed. The steps would be:");
        break;
    case ChangeOutcome::Status::Cancelled:
        stream << QCoreApplication::translate("cudnnctl", "Cancelled; everything done was undone.");
        break;
    case ChangeOutcome::Status::Failed:
    case ChangeOutcome::Status::Crashed:
        stream << QCoreApplication::translate("cudnnctl", "Failed; nothing was changed.");
        break;
    case ChangeOutcome::Status::Busy:
        stream << QCoreApplication::translate("cudnnctl", "Another install is running.");
        break;
    }
    stream << '\n';
    if (outcome.status == ChangeOutcome::Status::DryRun) {
        for (const QString &step : outcome.plan)
            stream << QStringLiteral("  ") << step << '\n';
    }
    if (outcome.receipt && command == QLatin1String("install") &&
        outcome.status != ChangeOutcome::Status::DryRun) {
        stream << QCoreApplication::translate("cudnnctl", "Receipt %1: %2")
                      .arg(outcome.receipt->id, QDir::toNativeSeparators(outcome.receiptPath))
               << '\n';
    }
    for (const Finding &finding : outcome.findings) {
        stream << QStringLiteral("  [%1] ").arg(severityLabel(finding.severity)) << finding.message.toString()
               << '\n';
        if (!finding.fix.isEmpty())
            stream << QStringLiteral("      ") << finding.fix.toString() << '\n';
    }
    return out;
}

} // namespace

int runPrepareState(const SystemContext &context)
{
    const StateFolders folders = StateFolders::of(context);
    Findings setAside;
    const Expected<void> prepared = folders.prepare(folders.machine, context, context.elevation(), &setAside);
    for (const Finding &finding : setAside)
        console::error(finding.message.toString() + QLatin1Char('\n'));
    if (!prepared) {
        console::error(prepared.error().message.toString() + QLatin1Char('\n') + prepared.error().details +
                       QLatin1Char('\n'));
        ChangeOutcome failed;
        failed.status = ChangeOutcome::Status::Failed;
        return failed.exitCode(); // 1603, as Windows Installer reads a failed custom action
    }
    console::out(QDir::toNativeSeparators(folders.machine) + QLatin1Char('\n'));
    return 0;
}

int runChange(const ChangeRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    ChangeOptions options;
    options.dryRun = request.dryRun;
    options.crashAt = crashHookFromEnvironment();
    // With --exchange this is the elevated helper of another process, which vouches for nothing.
    const bool helper = !request.exchangeNonce.isEmpty();
    options.archiveVouching.actingForAnother = helper;
    options.archiveVouching.allowUnverified = request.allowUnverifiedArchive && !helper;
    if (!request.cancelFile.isEmpty()) {
        const QString cancelFile = request.cancelFile;
        options.cancelled = [cancelFile] { return QFileInfo::exists(cancelFile); };
    }
    InstallRequest install;
    install.archive = request.archive;
    install.dryRun = request.dryRun;
    install.detect = request.detect;
    install.elevatedProgram = QCoreApplication::applicationFilePath();
    install.elevatedArguments = elevatedHelperArguments();
    if (request.command == QLatin1String("install")) {
        const Expected<TargetConfig> target =
            TargetConfig::fromOptions(request.target, request.path, request.variables, request.ifInUse);
        if (!target)
            return invalid(target.error().message.toString(), request.json);
        install.target = *target;
    }

    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    Findings recovered = recoverUnfinished(context, environment);

    ChangeOutcome outcome;
    if (request.command == QLatin1String("install") && (helper || !request.planFile.isEmpty())) {
        // Another process's helper installs nothing but the plan it was handed, sealed.
        outcome = installHandedOverPlan(request.planFile, request.planSeal, context, environment, options,
                                        request.detect, kb);
    } else if (request.command == QLatin1String("install")) {
        const Expected<ChangeOutcome> installed =
            installRequested(install, options, context, environment, kb);
        if (!installed)
            return invalid(installed.error().message.toString(), request.json);
        outcome = *installed;
    } else {
        outcome = uninstallWithParts(request.receiptId, options, context, environment,
                                     QCoreApplication::applicationFilePath(), install.elevatedArguments);
    }
    outcome.findings = recovered + outcome.findings;
    if (helper) {
        if (const SystemResult answered =
                exchange::writeResult(QJsonDocument(outcome.toJson()).toJson(), request.exchangeNonce,
                                      request.requesterSid, context, context.elevation());
            !answered)
            qCWarning(lcApp).noquote() << "the outcome cannot be handed back:" << answered.error().message;
    }
    if (request.json)
        console::out(QString::fromUtf8(QJsonDocument(outcome.toJson()).toJson(QJsonDocument::Indented)));
    else
        console::out(text(outcome, request.command));
    return outcome.exitCode();
}

int runApply(const QString &answerFile, const QString &logFile, const SystemContext &context,
             const KnowledgeBase &kb)
{
    const Expected<UnattendedSettings> answered = UnattendedSettings().withAnswerFile(answerFile);
    if (!answered)
        return invalid(answered.error().message.toString(), false);
    UnattendedSettings settings = *answered;
    if (!logFile.isEmpty())
        settings.logFile = logFile;
    if (settings.logFile.isEmpty())
        settings.logFile =
            defaultUnattendedLog(context, context.elevation().isElevated(), QDateTime::currentDateTimeUtc());
    const int exitCode =
        runUnattendedLogged(settings, context, kb, QCoreApplication::applicationFilePath(),
                            WizardLogHeader::ofThisRun(context, QCoreApplication::arguments()));
    const QFileInfo log(settings.logFile);
    console::out(QCoreApplication::translate("cudnnctl", "%1: exit code %2. The log is %3, the result %4.")
                     .arg(settings.action)
                     .arg(exitCode)
                     .arg(QDir::toNativeSeparators(log.absoluteFilePath()),
                          QDir::toNativeSeparators(log.absolutePath() + QLatin1Char('/') +
                                                   log.completeBaseName() + QStringLiteral(".json"))) +
                 QLatin1Char('\n'));
    return exitCode;
}

int changeCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    ChangeRequest request;
    request.command = context.positional.first();
    request.receiptId =
        request.command == QLatin1String("uninstall") ? context.positional.value(1) : QString();
    request.archive = absolutePath(parser, QStringLiteral("archive"));
    request.target = parser.value(QStringLiteral("target"));
    request.path = parser.value(QStringLiteral("path"));
    request.variables = parser.value(QStringLiteral("cudnn-variables"));
    request.ifInUse = parser.value(QStringLiteral("if-in-use"));
    request.allowUnverifiedArchive = parser.isSet(QStringLiteral("allow-unverified-archive"));
    request.exchangeNonce = parser.value(QStringLiteral("exchange"));
    request.requesterSid = parser.value(QStringLiteral("requester"));
    request.cancelFile = absolutePath(parser, QStringLiteral("cancel-file"));
    request.planFile = absolutePath(parser, QStringLiteral("request"));
    request.planSeal = parser.value(QStringLiteral("plan-sha256"));
    request.dryRun = parser.isSet(QStringLiteral("dry-run"));
    request.json = context.json;
    request.detect = context.detect;
    request.detect.probePythons = false; // a venv or conda target is named by its folder
    return runChange(request, context.system(), context.database.database);
}

int applyCommand(const CommandContext &context, const QCommandLineParser &)
{
    if (context.positional.size() < 2)
        return usageError(
            QCoreApplication::translate("cudnnctl", "apply needs the answer file: cudnnctl apply FILE.ini"));
    return runApply(QDir::cleanPath(QFileInfo(context.positional.at(1)).absoluteFilePath()), context.logFile,
                    context.system(), context.database.database);
}

int prepareStateCommand(const CommandContext &, const QCommandLineParser &)
{
    return runPrepareState(SystemContext::running());
}
