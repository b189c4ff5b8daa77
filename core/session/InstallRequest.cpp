#include "session/InstallRequest.h"

#include "archive/ArchiveInspector.h"
#include "common/Translations.h"
#include "detect/Detector.h"
#include "install/ElevatedChange.h"
#include "verify/VerificationRecord.h"

#include <QCoreApplication>
#include <QDir>

namespace cudnnsetup {

namespace {

Finding invalid(const Text &message)
{
    return Finding::error(QStringLiteral("request.invalid"), message);
}

} // namespace

Expected<ChangeOptions> changeOptionsFor(const InstallRequest &request, ChangeOptions options)
{
    if (!request.path.isEmpty() && !pathScopeFromName(request.path))
        return invalid(Text(QT_TRANSLATE_NOOP("cudnnsetup", "--path takes user, system or none.")));
    if (request.variables == QLatin1String("user"))
        options.cudnnVariables = EnvironmentScope::User;
    else if (request.variables == QLatin1String("system"))
        options.cudnnVariables = EnvironmentScope::Machine;
    else if (!request.variables.isEmpty())
        return invalid(Text(QT_TRANSLATE_NOOP("cudnnsetup", "--cudnn-variables takes user or system.")));
    if (request.ifInUse == QLatin1String("restart"))
        options.replaceInUseAtReboot = true;
    else if (!request.ifInUse.isEmpty() && request.ifInUse != QLatin1String("fail"))
        return invalid(Text(QT_TRANSLATE_NOOP("cudnnsetup", "--if-in-use takes fail or restart.")));
    options.dryRun = request.dryRun;
    return options;
}

Expected<ChangeOutcome> installRequested(const InstallRequest &request, const ChangeOptions &options,
                                         const SystemContext &context,
                                         std::shared_ptr<PersistentEnvironment> environment,
                                         const KnowledgeBase &kb)
{
    if (request.archive.isEmpty())
        return invalid(
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "install needs the archive: --archive FILE.zip")));
    const std::optional<PathScope> pathScope =
        request.path.isEmpty() ? std::nullopt : pathScopeFromName(request.path);
    InspectOptions inspectOptions;
    inspectOptions.verifyData = false; // every CRC is checked while unpacking
    const auto report = inspectArchive(request.archive, kb, inspectOptions);
    if (!report)
        return report.error();
    const SystemSnapshot snapshot = detectSystem(context, request.detect);
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
        if (context.isLive() &&
            (kind == QLatin1String("dir") || kind == QLatin1String("user") ||
             kind == QLatin1String("venv")) &&
            !folder.isEmpty() && QDir::isRelativePath(folder))
            spec =
                kind + QLatin1Char(':') + QDir::toNativeSeparators(QDir::current().absoluteFilePath(folder));
        const auto chosen = targetFromSpec(spec, pathScope, snapshot, *report, context, kb);
        if (!chosen)
            return chosen.error();
        target = *chosen;
    }
    ChangeOutcome outcome;
    const Elevation &elevation = options.elevation ? *options.elevation : Elevation::host();
    if (!request.dryRun && !request.elevatedProgram.isEmpty() &&
        needsElevation(target, *report, options, context, elevation)) {
        QStringList extra = request.elevatedArguments;
        if (!request.ifInUse.isEmpty())
            extra << QStringLiteral("--if-in-use") << request.ifInUse;
        outcome = installElevated(request.elevatedProgram, request.archive, target, options, extra, context,
                                  environment, elevation);
    } else {
        outcome = install(request.archive, *report, target, context, environment, options);
    }
    outcome.findings = report->findings + outcome.findings;
    return outcome;
}

QString elevatedHelper()
{
#ifdef Q_OS_WIN
    const QString name = QStringLiteral("cudnnctl.exe");
#else
    const QString name = QStringLiteral("cudnnctl");
#endif
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QStringList elevatedHelperArguments()
{
    return {QStringLiteral("--lang"), Translations::current()};
}

ChangeOutcome uninstallWithParts(const QString &id, const ChangeOptions &options,
                                 const SystemContext &context,
                                 std::shared_ptr<PersistentEnvironment> environment,
                                 const QString &elevatedProgram, const QStringList &elevatedArguments)
{
    const Elevation &elevation = options.elevation ? *options.elevation : Elevation::host();
    const bool elevated =
        !elevatedProgram.isEmpty() && uninstallNeedsElevation(id, options, context, elevation);
    ChangeOutcome outcome =
        elevated ? uninstallElevated(elevatedProgram, id, elevatedArguments, context, environment, elevation)
                 : uninstall(id, context, environment, options);
    if (options.dryRun || outcome.status != ChangeOutcome::Status::Done || !outcome.receipt)
        return outcome;
    if (!elevated) // uninstallElevated removed them
        outcome.findings += uninstallUserParts(outcome.receipt->id, context, environment);
    const StateFolders folders = StateFolders::of(context);
    for (const QString &folder : {folders.machine, folders.user}) {
        const QString receiptPath =
            folders.receipts(folder) + QLatin1Char('/') + outcome.receipt->id + QStringLiteral(".json");
        if (const std::optional<QString> error = removeVerificationRecord(receiptPath, outcome.receipt->id))
            outcome.findings.append(Finding::warning(
                QStringLiteral("status.record-left"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The record of the last verification could not be removed.")),
                *error));
    }
    return outcome;
}

} // namespace cudnnsetup
