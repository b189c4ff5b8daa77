#include "install/ElevatedChange.h"

#include "archive/ArchiveHasher.h"
#include "common/Logging.h"
#include "install/ElevatedExchange.h"
#include "install/TargetChecks.h"
#include "platform/DurableFiles.h"
#include "platform/Sha256.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <algorithm>

namespace cudnnsetup {

bool needsElevation(const InstallTarget &target, const ArchiveReport &archive, const ChangeOptions &options,
                    const SystemContext &context, const Elevation &elevation)
{
    if (!context.isLive() || elevation.isElevated())
        return false;
    if (target.needsAdmin(context) || options.cudnnVariables == EnvironmentScope::System)
        return true;
    const Findings findings = checkTarget(target, archive, context);
    return std::any_of(findings.cbegin(), findings.cend(), [](const Finding &finding) {
        return finding.id == QLatin1String("target.needs-admin");
    });
}

Findings withElevationOffered(Findings findings, const InstallTarget &target, const ChangeOptions &,
                              const SystemContext &context, const Elevation &elevation)
{
    const bool needsAdmin = std::any_of(findings.cbegin(), findings.cend(), [](const Finding &finding) {
        return finding.id == QLatin1String("target.needs-admin");
    });
    if (!needsAdmin || !context.isLive() || elevation.isElevated() || elevation.whyElevationCannotWork())
        return findings;
    Findings offered;
    for (const Finding &finding : findings) {
        if (finding.id != QLatin1String("target.needs-admin")) {
            offered.append(finding);
            continue;
        }
        offered.append(Finding::info(
            QStringLiteral("install.asks-for-admin"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Windows will ask for administrator rights when the installation "
                                   "starts: %1 is writable only for administrators."))
                .arg(target.root),
            finding.details));
    }
    return offered;
}

Expected<InstallPlan> planForAnotherProcess(const InstallPlan &plan)
{
    InstallPlan handed = plan;
    if (handed.archive.sha256.isEmpty()) {
        const Expected<QString> digest = ArchiveHasher(plan.archive.path).finish();
        if (!digest)
            return digest.error();
        handed.archive.sha256 = *digest;
    }
    if (plan.target.kind != InstallTarget::Kind::CudaToolkit)
        handed.target.root = QDir::toNativeSeparators(Volumes::pathForOtherSessions(plan.target.root));
    handed.archive.path = QDir::toNativeSeparators(Volumes::pathForOtherSessions(plan.archive.path));
    return handed;
}

QStringList planArguments(const QByteArray &sealed)
{
    return {QStringLiteral("install"), QStringLiteral("--plan-sha256"), Sha256::of(sealed),
            QStringLiteral("--json")};
}

ChangeOutcome changeOutcomeFromJson(const QJsonObject &object)
{
    ChangeOutcome outcome;
    const QString status = object.value(QStringLiteral("status")).toString();
    for (const auto candidate :
         {ChangeOutcome::Status::Done, ChangeOutcome::Status::DoneRestartNeeded,
          ChangeOutcome::Status::AlreadyDone, ChangeOutcome::Status::DryRun, ChangeOutcome::Status::Cancelled,
          ChangeOutcome::Status::Failed, ChangeOutcome::Status::Busy, ChangeOutcome::Status::Crashed}) {
        ChangeOutcome probe;
        probe.status = candidate;
        if (probe.statusName() == status)
            outcome.status = candidate;
    }
    if (object.value(QStringLiteral("receipt")).isObject()) {
        const auto receipt = Receipt::fromJson(object.value(QStringLiteral("receipt")).toObject());
        if (receipt)
            outcome.receipt = *receipt;
    }
    outcome.receiptPath = object.value(QStringLiteral("receiptPath")).toString();
    for (const QJsonValue &step : object.value(QStringLiteral("plan")).toArray())
        outcome.plan.append(step.toString());
    for (const QJsonValue &finding : object.value(QStringLiteral("findings")).toArray())
        outcome.findings.append(Finding::fromJson(finding.toObject()));
    return outcome;
}

ChangeOutcome runChangeElevated(const QString &program, const QStringList &arguments,
                                const Elevation &elevation, const SystemContext &context,
                                const ChangeOptions &options, const QByteArray &request)
{
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::Failed;
    if (std::optional<Finding> impossible = elevation.whyElevationCannotWork()) {
        outcome.findings.append(*impossible);
        return outcome;
    }
    const FileSecurity &security = context.fileSecurity();
    if (const std::optional<WritableFolder> writable =
            context.isLive() ? firstWritableFolder(context, QFileInfo(program).absolutePath())
                             : std::nullopt) {
        outcome.findings.append(Finding::error(
            QStringLiteral("elevation.helper-writable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "%1 is not run with administrator rights: %2 may be changed by %3, who "
                                   "could put another program in its place."))
                .arg(QDir::toNativeSeparators(program), QDir::toNativeSeparators(writable->folder),
                     Text::list(writable->audit.whoMayChange())),
            writable->audit.summary(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Install cuDNN Setup with its installer, which puts it under "
                                   "Program Files, and start it from there."))));
        return outcome;
    }
    // What this process hands over (a repair request, a cancel) lies in a folder of its own, which
    // the elevated run only reads. Its answer it leaves in a folder it makes itself, under the machine
    // state folder, named by a nonce from here: it writes nothing through a path this process chose.
    QTemporaryDir handOver;
    const QString account = elevation.accountSid();
    if (!account.isEmpty()) {
        if (const SystemResult protectedFolder =
                security.protect(handOver.path(), security::exchangeSddl(account));
            !protectedFolder)
            qCWarning(lcInstall).noquote() << "the hand-over folder" << handOver.path()
                                           << "keeps its own permissions:" << protectedFolder.error().message;
    }
    const QString nonce = exchange::newNonce();
    QStringList handedOver = arguments + QStringList{QStringLiteral("--exchange"), nonce};
    if (!account.isEmpty())
        handedOver << QStringLiteral("--requester") << account;
    if (!request.isEmpty()) {
        const QString requestFile = handOver.filePath(QStringLiteral("request.json"));
        if (const SystemResult written =
                durable::write(request, requestFile + QStringLiteral(".partial"), requestFile);
            !written) {
            outcome.findings.append(Finding::error(
                QStringLiteral("elevation.failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "What the part with administrator rights is to do "
                                                     "cannot be written down.")),
                written.error().message));
            return outcome;
        }
        handedOver << QStringLiteral("--request") << QDir::toNativeSeparators(requestFile);
    }
    // A cancel reaches the elevated run as a file it looks for between its steps: it rolls back, and
    // its outcome still comes back here.
    const QString cancelFile = handOver.filePath(QStringLiteral("cancel"));
    bool cancelSent = false;
    const auto passCancelOn = [&] {
        if (cancelSent || !options.cancelled || !options.cancelled())
            return;
        QFile cancel(cancelFile);
        cancelSent = cancel.open(QIODevice::WriteOnly);
        qCInfo(lcInstall) << "cancel passed on to the run with administrator rights:" << cancelSent;
    };
    if (options.cancelled) {
        handedOver << QStringLiteral("--cancel-file") << QDir::toNativeSeparators(cancelFile);
        passCancelOn(); // one that came before the start stops it before its first step
    }
    ElevatedStart start;
    start.ownerWindow = options.ownerWindow;
    start.whileWaiting = passCancelOn;
    const auto exitCode = elevation.runElevated(program, handedOver, Elevation::helperStartFolder(), start);
    if (!exitCode) {
        if (exitCode.error().id == QLatin1String("elevation.declined"))
            outcome.status = ChangeOutcome::Status::Cancelled;
        outcome.findings.append(exitCode.error());
        return outcome;
    }
    const QString resultFile = exchange::resultFile(context, nonce);
    QFile file(resultFile);
    if (!file.open(QIODevice::ReadOnly)) {
        outcome.findings.append(Finding::error(
            QStringLiteral("elevation.no-result"),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "The part that ran with administrator rights left no result (exit code %1)."))
                .arg(QString::number(*exitCode)),
            QDir::toNativeSeparators(resultFile)));
        return outcome;
    }
    return changeOutcomeFromJson(QJsonDocument::fromJson(file.readAll()).object());
}

ChangeOutcome installElevated(const QString &program, const InstallPlan &plan, const ChangeOptions &options,
                              const QStringList &extraArguments, const SystemContext &context,
                              std::shared_ptr<PersistentEnvironment> environment, const Elevation &elevation)
{
    InstallPlan machineWide = plan;
    const bool userPath = plan.target.pathScope == PathScope::User;
    const bool userVariables = plan.cudnnVariables == EnvironmentScope::User;
    if (userPath) { // with its fixes: this process edits this user's PATH itself
        machineWide.target.pathScope = PathScope::None;
        machineWide.pathFixes.clear();
    }
    if (userVariables)
        machineWide.cudnnVariables.reset();
    const Expected<InstallPlan> handed = planForAnotherProcess(machineWide);
    if (!handed) {
        ChangeOutcome failed;
        failed.status = ChangeOutcome::Status::Failed;
        failed.findings.append(handed.error());
        return failed;
    }
    const QByteArray sealed = handed->sealedBytes();
    ChangeOutcome outcome = runChangeElevated(program, planArguments(sealed) + extraArguments, elevation,
                                              context, options, sealed);
    if (!outcome.succeeded() || (!userPath && !userVariables) || !outcome.receipt)
        return outcome;
    const ChangeOutcome userPart =
        installUserPart(*outcome.receipt, plan.target, plan.cudnnVariables, context, environment, options);
    outcome.plan += userPart.plan;
    outcome.findings += userPart.findings;
    if (userPart.status == ChangeOutcome::Status::Done)
        return outcome;
    // All or nothing: the files go again when the PATH or variables could not follow.
    const ChangeOutcome undone =
        uninstallElevated(program, outcome.receipt->id, extraArguments, context, environment, elevation);
    outcome.findings += undone.findings;
    outcome.status = ChangeOutcome::Status::Failed;
    outcome.receipt.reset();
    outcome.receiptPath.clear();
    return outcome;
}

bool uninstallNeedsElevation(const QString &id, const QList<std::pair<Receipt, QString>> &receipts,
                             const ChangeOptions &options, const SystemContext &context,
                             const Elevation &elevation)
{
    if (options.dryRun || !context.isLive() || elevation.isElevated())
        return false;
    const QString machine = QDir::cleanPath(StateFolders::of(context).machine) + QLatin1Char('/');
    return std::any_of(receipts.cbegin(), receipts.cend(), [&](const std::pair<Receipt, QString> &entry) {
        const bool meant = id.isEmpty() ? entry.first.partOf.isEmpty() : entry.first.id == id;
        return meant && QDir::cleanPath(entry.second).startsWith(machine);
    });
}

ChangeOutcome uninstallElevated(const QString &program, const QString &id, const QStringList &extraArguments,
                                const SystemContext &context,
                                std::shared_ptr<PersistentEnvironment> environment,
                                const Elevation &elevation, const ChangeOptions &options)
{
    QStringList arguments{QStringLiteral("uninstall")};
    if (!id.isEmpty())
        arguments << id;
    arguments << QStringLiteral("--json");
    ChangeOutcome outcome =
        runChangeElevated(program, arguments + extraArguments, elevation, context, options);
    if (outcome.status == ChangeOutcome::Status::Done && outcome.receipt)
        outcome.findings += uninstallUserParts(outcome.receipt->id, context, environment);
    return outcome;
}

Findings uninstallUserParts(const QString &id, const SystemContext &context,
                            std::shared_ptr<PersistentEnvironment> environment)
{
    Findings findings;
    for (const auto &[receipt, path] : installedReceipts(context)) {
        if (receipt.partOf != id)
            continue;
        const ChangeOutcome removed = uninstall(receipt.id, context, environment);
        findings += removed.findings;
    }
    return findings;
}

} // namespace cudnnsetup
