#include "ChangeCommands.h"

#include "archive/ArchiveInspector.h"
#include "common/Translations.h"
#include "detect/Detector.h"
#include "install/ElevatedChange.h"
#include "install/Installer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
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
        QTextStream(stdout) << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
    }
    QTextStream(stderr) << message << '\n';
    return kInvalidParameter;
}

// Tests of crash safety kill this process at a chosen point of the transaction, as a power cut
// would: CUDNNSETUP_CRASH_AT="SEQUENCE:STAGE" (stage: before, after, copy, commit).
std::function<bool(const FaultPoint &)> crashHookFromEnvironment()
{
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
                                              "Installed; restart Windows to finish: the files in use are "
                                              "replaced when it starts.");
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
        stream << QStringLiteral("  [%1] ").arg(severityName(finding.severity)) << finding.message.toString()
               << '\n';
        if (!finding.fix.isEmpty())
            stream << QStringLiteral("      ") << finding.fix.toString() << '\n';
    }
    return out;
}

} // namespace

int runChange(const ChangeRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    std::optional<PathScope> pathScope;
    if (!request.path.isEmpty()) {
        pathScope = pathScopeFromName(request.path);
        if (!pathScope)
            return invalid(QCoreApplication::translate("cudnnctl", "--path takes user, system or none."),
                           request.json);
    }
    std::optional<EnvironmentScope> variables;
    if (request.variables == QLatin1String("user"))
        variables = EnvironmentScope::User;
    else if (request.variables == QLatin1String("system"))
        variables = EnvironmentScope::Machine;
    else if (!request.variables.isEmpty())
        return invalid(QCoreApplication::translate("cudnnctl", "--cudnn-variables takes user or system."),
                       request.json);

    const std::shared_ptr<PersistentEnvironment> environment =
        context.isLive() ? PersistentEnvironment::forRunningSystem() : PersistentEnvironment::unavailable();
    Findings recovered = recoverUnfinished(context, environment);

    ChangeOptions options;
    options.dryRun = request.dryRun;
    options.cudnnVariables = variables;
    options.crashAt = crashHookFromEnvironment();
    if (request.ifInUse == QLatin1String("restart"))
        options.replaceInUseAtReboot = true;
    else if (!request.ifInUse.isEmpty() && request.ifInUse != QLatin1String("fail"))
        return invalid(QCoreApplication::translate("cudnnctl", "--if-in-use takes fail or restart."),
                       request.json);

    ChangeOutcome outcome;
    if (request.command == QLatin1String("install")) {
        if (request.archive.isEmpty())
            return invalid(
                QCoreApplication::translate("cudnnctl", "install needs the archive: --archive FILE.zip"),
                request.json);
        InspectOptions inspectOptions;
        inspectOptions.verifyData = false; // every CRC is checked while unpacking
        const auto report = inspectArchive(request.archive, kb, inspectOptions);
        if (!report)
            return invalid(report.error().message.toString(), request.json);
        DetectOptions detectOptions = request.detect;
        const SystemSnapshot snapshot = detectSystem(context, detectOptions);
        InstallTarget target;
        if (request.target.isEmpty()) {
            target = defaultTarget(snapshot, *report, context, kb);
            if (pathScope)
                target.pathScope = *pathScope;
        } else {
            // A folder given relative to where the command runs, as shells pass them.
            QString spec = request.target;
            const QString kind = spec.section(QLatin1Char(':'), 0, 0);
            const QString folder = spec.mid(kind.size() + 1);
            if (context.isLive() && (kind == QLatin1String("dir") || kind == QLatin1String("venv")) &&
                !folder.isEmpty() && QDir::isRelativePath(folder))
                spec = kind + QLatin1Char(':') +
                       QDir::toNativeSeparators(QDir::current().absoluteFilePath(folder));
            const auto chosen = targetFromSpec(spec, pathScope, snapshot, *report, context, kb);
            if (!chosen)
                return invalid(chosen.error().message.toString(), request.json);
            target = *chosen;
        }
        const Elevation &elevation = Elevation::host();
        if (!request.dryRun && needsElevation(target, options, context, elevation)) {
            QStringList extra{QStringLiteral("--lang"), Translations::current()};
            if (!request.ifInUse.isEmpty())
                extra << QStringLiteral("--if-in-use") << request.ifInUse;
            outcome = installElevated(QCoreApplication::applicationFilePath(), request.archive, target,
                                      options, extra, context, environment, elevation);
        } else {
            outcome = install(request.archive, *report, target, context, environment, options);
        }
        outcome.findings = report->findings + outcome.findings;
    } else {
        const Elevation &elevation = Elevation::host();
        bool machineWide = false;
        for (const auto &[receipt, path] : installedReceipts(context)) {
            if ((request.receiptId.isEmpty() || receipt.id == request.receiptId) &&
                QDir::cleanPath(path).startsWith(QDir::cleanPath(StateFolders::of(context).machine)))
                machineWide = true;
        }
        if (!request.dryRun && context.isLive() && machineWide && !elevation.isElevated())
            outcome = runChangeElevated(QCoreApplication::applicationFilePath(),
                                        QCoreApplication::arguments().mid(1), elevation);
        else
            outcome = uninstall(request.receiptId, context, environment, options);
        // This user's PATH and variables of a machine-wide install go with it, changed by this process.
        if (!request.dryRun && outcome.status == ChangeOutcome::Status::Done && outcome.receipt)
            outcome.findings += uninstallUserParts(outcome.receipt->id, context, environment);
    }
    outcome.findings = recovered + outcome.findings;
    if (!request.resultFile.isEmpty()) {
        QFile result(request.resultFile);
        if (result.open(QIODevice::WriteOnly | QIODevice::Truncate))
            result.write(QJsonDocument(outcome.toJson()).toJson());
    }
    if (request.json)
        QTextStream(stdout) << QString::fromUtf8(
            QJsonDocument(outcome.toJson()).toJson(QJsonDocument::Indented));
    else
        QTextStream(stdout) << text(outcome, request.command);
    return outcome.exitCode();
}
