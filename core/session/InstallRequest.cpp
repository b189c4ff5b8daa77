#include "session/InstallRequest.h"

#include "archive/ArchiveInspector.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "detect/Detector.h"
#include "doctor/RepairSteps.h"
#include "install/ElevatedChange.h"
#include "install/TargetSpec.h"
#include "platform/DurableFiles.h"
#include "platform/FileSecurity.h"
#include "platform/Volumes.h"
#include "verify/VerificationRecord.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace cudnnsetup {

namespace {

Finding invalid(const Text &message)
{
    return Finding::error(QStringLiteral("request.invalid"), message);
}

// The archive as an install inspects it first: every CRC is checked, and its SHA-256 taken, in the
// pass that unpacks it.
Expected<ArchiveReport> inspectForInstall(const QString &archive, const KnowledgeBase &kb)
{
    InspectOptions options;
    options.verifyData = false;
    options.hashArchive = false;
    return inspectArchive(archive, kb.publishedArchives(), options);
}

} // namespace

Expected<ChangeOutcome> installRequested(const InstallRequest &request, const ChangeOptions &options,
                                         const SystemContext &context,
                                         std::shared_ptr<PersistentEnvironment> environment,
                                         const KnowledgeBase &kb)
{
    if (request.archive.isEmpty())
        return invalid(
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "install needs the archive: --archive FILE.zip")));
    const auto report = inspectForInstall(request.archive, kb);
    if (!report)
        return report.error();
    TargetConfig config = request.target;
    config.setFacts(detectSystem(context, request.detect), *report, context, kb);
    const Expected<InstallPlan> plan = config.plan();
    if (!plan)
        return plan.error();
    ChangeOptions planned = config.changeOptions(options);
    planned.dryRun = request.dryRun;
    ChangeOutcome outcome = installPlanned(*plan, *report, planned, request.elevatedProgram,
                                           request.elevatedArguments, context, environment, kb);
    outcome.findings = report->findings + outcome.findings;
    return outcome;
}

ChangeOutcome installPlanned(const InstallPlan &plan, const ArchiveReport &report, ChangeOptions options,
                             const QString &elevatedProgram, const QStringList &elevatedArguments,
                             const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                             const KnowledgeBase &kb)
{
    options.cudnnVariables = plan.cudnnVariables;
    options.replaceInUse = plan.replaceInUse;
    options.pathFixes = plan.pathFixes;
    const Elevation &elevation = context.elevation();
    if (!options.dryRun && !elevatedProgram.isEmpty() &&
        needsElevation(plan.target, report, options, context, elevation)) {
        // A folder only administrators may write: the same plan by an elevated cudnnctl (Windows
        // asks first).
        qCInfo(lcSession) << "asking for administrator rights to run" << elevatedProgram;
        return installElevated(elevatedProgram, plan, options, elevatedArguments, context, environment,
                               elevation);
    }
    return install(report.path, report, plan.target, context, environment, options, kb);
}

ChangeOutcome installHandedOverPlan(const QString &planFile, const QString &seal,
                                    const SystemContext &context,
                                    std::shared_ptr<PersistentEnvironment> environment, ChangeOptions options,
                                    const DetectOptions &detect, const KnowledgeBase &kb)
{
    // A plan is a few hundred bytes; what is much longer is no plan of ours.
    constexpr qint64 kLongestPlan = 64 * 1024;
    QByteArray bytes;
    QFile file(planFile);
    if (!planFile.isEmpty() && file.open(QIODevice::ReadOnly))
        bytes = file.read(kLongestPlan + 1);
    Expected<InstallPlan> plan = InstallPlan::unsealed(bytes, seal);
    if (!plan) {
        ChangeOutcome refused; // a failure
        refused.findings.append(plan.error());
        return refused;
    }
    return installPlan(*plan, context, std::move(environment), std::move(options), detect, kb);
}

ChangeOutcome installPlan(const InstallPlan &plan, const SystemContext &context,
                          std::shared_ptr<PersistentEnvironment> environment, ChangeOptions options,
                          const DetectOptions &detect, const KnowledgeBase &kb)
{
    ChangeOutcome refused; // a failure until it is installed
    const auto report = inspectForInstall(plan.archive.path, kb);
    if (!report) {
        refused.findings.append(report.error());
        return refused;
    }
    // The plan's folders are taken from no one: this process derives the target itself, and
    // analyses the PATH it goes into as this process reads it.
    TargetConfig config = TargetConfig::fromPlan(plan);
    config.setFacts(detectSystem(context, detect), *report, context, kb, environment);
    if (!config.isReady()) {
        refused.findings += config.findings();
        return refused;
    }
    const InstallTarget &derived = config.target();
    if (derived.toJson() != plan.target.toJson()) {
        refused.findings.append(InstallPlan::invalid(
            QStringLiteral("planned %1, derived here %2")
                .arg(QString::fromUtf8(QJsonDocument(plan.target.toJson()).toJson(QJsonDocument::Compact)),
                     QString::fromUtf8(QJsonDocument(derived.toJson()).toJson(QJsonDocument::Compact)))));
        return refused;
    }
    // A PATH fix must be one this process's own analysis offers: an entry named by another is not
    // taken out of a PATH every program on the machine uses.
    config.setPathFixes(plan.pathFixes);
    config.analysePath();
    for (const PathFix &fix : plan.pathFixes) {
        if (config.pathFixes().contains(fix) && plan.pathFixes.count(fix) == 1)
            continue;
        refused.findings.append(InstallPlan::invalid(
            QStringLiteral("PATH fix %1: not offered by the analysis of PATH here, or given twice")
                .arg(QString::fromUtf8(QJsonDocument(fix.toJson()).toJson(QJsonDocument::Compact)))));
        return refused;
    }
    for (const QString &folder : {derived.root, derived.pthFile()}) {
        const std::optional<WritableFolder> writable =
            folder.isEmpty() ? std::nullopt : firstWritableFolder(context, folder);
        if (!writable)
            continue;
        refused.findings.append(Finding::error(
            QStringLiteral("install.target-others-may-change"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Nothing is installed into %1 with administrator rights: %2 can be "
                                   "changed by %3, who could swap a folder for a link to a system folder "
                                   "while it is written."))
                .arg(derived.root, writable->folder, Text::list(writable->audit.whoMayChange())),
            writable->audit.summary(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Install into a folder under Program Files (the default), or into a "
                                   "folder of yours without administrator rights."))));
        return refused;
    }
    options.archiveVouching.actingForAnother = true;
    options.archiveVouching.allowUnverified = false;
    options.archiveVouching.approvedSha256 = plan.archive.sha256;
    InstallPlan checked = plan;
    checked.target = derived;
    ChangeOutcome outcome =
        installPlanned(checked, *report, options, QString(), {}, context, environment, kb);
    outcome.findings = report->findings + outcome.findings;
    return outcome;
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
    const Elevation &elevation = context.elevation();
    const bool elevated =
        !elevatedProgram.isEmpty() &&
        uninstallNeedsElevation(id, installedReceipts(context), options, context, elevation);
    ChangeOutcome outcome = elevated ? uninstallElevated(elevatedProgram, id, elevatedArguments, context,
                                                         environment, elevation, options)
                                     : uninstall(id, context, environment, options);
    if (options.dryRun || outcome.status != ChangeOutcome::Status::Done || !outcome.receipt)
        return outcome;
    if (!elevated) // uninstallElevated removed them
        outcome.findings += uninstallUserParts(outcome.receipt->id, context, environment);
    const StateFolders folders = StateFolders::of(context);
    for (const QString &folder : {folders.machine, folders.user}) {
        const QString receiptPath =
            folders.receipts(folder) + QLatin1Char('/') + outcome.receipt->id + QStringLiteral(".json");
        if (const SystemResult removed = removeVerificationRecord(receiptPath, outcome.receipt->id); !removed)
            outcome.findings.append(Finding::warning(
                QStringLiteral("status.record-left"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The record of the last verification could not be removed.")),
                removed.error().message));
    }
    return outcome;
}

namespace {

constexpr char kRepairRequestSchema[] = "cudnn-setup/repair-request/1";

} // namespace

ChangeOutcome repairWithElevation(const QList<Repair> &repairs, const ChangeOptions &options,
                                  const SystemContext &context,
                                  std::shared_ptr<PersistentEnvironment> environment,
                                  const QString &elevatedProgram, const QStringList &elevatedArguments)
{
    const Elevation &elevation = context.elevation();
    const bool machineWide = std::any_of(repairs.cbegin(), repairs.cend(),
                                         [](const Repair &repair) { return repair.needsAdministrator; });
    if (machineWide && !elevatedProgram.isEmpty() && !options.dryRun && context.isLive() &&
        !elevation.isElevated())
        return repairElevated(elevatedProgram, repairs, elevatedArguments, options, context, environment,
                              elevation);
    return applyRepairs(repairs, context, environment, options);
}

ChangeOutcome repairElevated(const QString &program, const QList<Repair> &repairs,
                             const QStringList &extraArguments, const ChangeOptions &options,
                             const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                             const Elevation &elevation)
{
    QJsonArray machine;
    QList<Repair> own;
    for (Repair repair : repairs) {
        if (!repair.needsAdministrator) {
            own.append(repair);
            continue;
        }
        // An archive on this session's subst or network drive, as the elevated session sees it.
        for (QJsonObject &step : repair.steps) {
            QJsonObject arguments = step.value(QStringLiteral("arguments")).toObject();
            if (step.value(QStringLiteral("operation")).toString() != QLatin1String("unpack-archive"))
                continue;
            arguments.insert(
                QStringLiteral("archive"),
                Volumes::pathForOtherSessions(arguments.value(QStringLiteral("archive")).toString()));
            step.insert(QStringLiteral("arguments"), arguments);
        }
        machine.append(repair.toJson());
    }
    const QByteArray request =
        QJsonDocument(QJsonObject{{QStringLiteral("schema"), QLatin1String(kRepairRequestSchema)},
                                  {QStringLiteral("repairs"), machine}})
            .toJson();
    ChangeOutcome outcome = runChangeElevated(program, QStringList{QStringLiteral("doctor")} + extraArguments,
                                              elevation, context, options, request);
    if (!outcome.changedNow() || own.isEmpty())
        return outcome;
    const ChangeOutcome ownOutcome = applyRepairs(own, context, environment, options);
    outcome.plan += ownOutcome.plan;
    outcome.findings += ownOutcome.findings;
    if (!ownOutcome.changedNow())
        outcome.status = ownOutcome.status; // the machine-wide part stays; its receipt undoes it
    return outcome;
}

ChangeOutcome applyHandedOverRepairs(const QString &requestFile, const SystemContext &context,
                                     std::shared_ptr<PersistentEnvironment> environment,
                                     const KnowledgeBase &kb, const ChangeOptions &options)
{
    const auto refused = [](const QString &why) {
        ChangeOutcome outcome;
        outcome.status = ChangeOutcome::Status::Failed;
        outcome.findings.append(Finding::error(
            QStringLiteral("repair.refused"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The repairs handed over for administrator rights were not "
                                                 "applied: they are not what the diagnosis offers.")),
            why,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Diagnose again and choose the repairs from what the diagnosis "
                                   "offers then."))));
        return outcome;
    };
    QFile file(requestFile);
    if (!file.open(QIODevice::ReadOnly))
        return refused(QStringLiteral("%1: %2").arg(requestFile, file.errorString()));
    const QJsonObject request = QJsonDocument::fromJson(file.readAll()).object();
    if (request.value(QStringLiteral("schema")).toString() != QLatin1String(kRepairRequestSchema))
        return refused(QStringLiteral("%1 is no repair request").arg(requestFile));
    QList<Repair> chosen;
    QString archivePath;
    for (const QJsonValue &value : request.value(QStringLiteral("repairs")).toArray()) {
        Repair repair = Repair::fromJson(value.toObject());
        if (!repair.needsAdministrator)
            continue; // the process that handed it over applies it itself
        for (const QJsonObject &step : std::as_const(repair.steps)) {
            if (step.value(QStringLiteral("operation")).toString() != QLatin1String("unpack-archive"))
                continue;
            const QString archive = step.value(QStringLiteral("arguments"))
                                        .toObject()
                                        .value(QStringLiteral("archive"))
                                        .toString();
            if (!archivePath.isEmpty() && archive != archivePath)
                return refused(QStringLiteral("the repairs unpack more than one archive"));
            archivePath = archive;
        }
        chosen.append(repair);
    }
    if (chosen.isEmpty())
        return refused(QStringLiteral("no repair needs administrator rights"));

    // The archive as the user's process named it may change after it is checked: a copy that only
    // administrators can change is what is checked and unpacked.
    std::optional<ArchiveReport> archive;
    QString stagedArchive;
    const StateFolders folders = StateFolders::of(context);
    if (!archivePath.isEmpty()) {
        if (const Expected<void> prepared = folders.prepare(folders.machine, context, context.elevation());
            !prepared) {
            ChangeOutcome outcome;
            outcome.status = ChangeOutcome::Status::Failed;
            outcome.findings.append(prepared.error());
            return outcome;
        }
        QDir().mkpath(folders.custody(folders.machine)); // made protected by prepare() where ACLs are kept
        stagedArchive = folders.custody(folders.machine) + QStringLiteral("/repair-archive-") +
                        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                        QStringLiteral(".zip");
        if (const SystemResult copied =
                durable::copy(archivePath, stagedArchive + QStringLiteral(".partial"), stagedArchive);
            !copied)
            return refused(
                QStringLiteral("%1 cannot be copied: %2").arg(archivePath, copied.error().message));
        const Expected<ArchiveReport> report = inspectArchive(stagedArchive, kb.publishedArchives());
        if (!report || report->verdict != ArchiveReport::Verdict::Ok) {
            durable::discard(stagedArchive);
            return refused(QStringLiteral("the archive %1 did not pass its check").arg(archivePath));
        }
        archive = *report;
        for (Repair &repair : chosen) {
            for (QJsonObject &step : repair.steps) {
                if (step.value(QStringLiteral("operation")).toString() != QLatin1String("unpack-archive"))
                    continue;
                QJsonObject arguments = step.value(QStringLiteral("arguments")).toObject();
                arguments.insert(QStringLiteral("archive"), stagedArchive);
                step.insert(QStringLiteral("arguments"), arguments);
            }
        }
    }
    for (const Repair &repair : std::as_const(chosen)) {
        if (const std::optional<QString> doubt =
                repairs::handedOverDoubt(repair, context, stagedArchive, archive ? &*archive : nullptr)) {
            if (!stagedArchive.isEmpty())
                durable::discard(stagedArchive);
            qCWarning(lcInstall).noquote() << "handed-over repair refused:" << *doubt;
            return refused(*doubt);
        }
    }
    const ChangeOutcome outcome = applyRepairs(chosen, context, environment, options);
    if (!stagedArchive.isEmpty())
        durable::discard(stagedArchive);
    return outcome;
}

} // namespace cudnnsetup
