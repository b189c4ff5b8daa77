#include "install/Installer.h"

#include "archive/ArchiveHasher.h"
#include "common/Logging.h"
#include "install/ArchiveCustody.h"
#include "install/ChangeSteps.h"
#include "install/FilePlacement.h"
#include "install/InstallSteps.h"
#include "install/Operations.h"
#include "install/StateTrust.h"
#include "install/TargetChecks.h"
#include "install/TargetReceipts.h"
#include "platform/DurableFiles.h"
#include "platform/InstallLock.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>

#include <algorithm>
#include <memory>
#include <utility>

namespace cudnnsetup {

Findings recoverUnfinished(const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment)
{
    const Elevation &elevation = context.elevation();
    const StateFolders folders = StateFolders::of(context);
    const QStringList settled = folders.settledBy(context, elevation);
    // Nothing to settle: no lock is taken, so a query (doctor, the wizard's start) leaves no state
    // folder behind on a machine where nothing was ever installed.
    if (std::none_of(settled.cbegin(), settled.cend(),
                     [&](const QString &folder) { return QFileInfo::exists(folders.journal(folder)); }))
        return {};
    StateFolders::LockNotes notes;
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation, &notes);
    // Held: a running install's journal is not unfinished. Or the machine folder cannot be made
    // ready: nothing in it is replayed.
    if (!lock)
        return notes.unprepared ? notes.setAside + Findings{*notes.unprepared} : notes.setAside;
    Findings findings = notes.setAside;
    for (const QString &folder : settled) {
        const QString journal = folders.journal(folder);
        if (!QFileInfo::exists(journal))
            continue;
        OperationContext operationContext = OperationContext::of(context, environment);
        const auto contents = Journal::read(journal);
        if (!contents) {
            findings.append(contents.error());
            continue;
        }
        if (const std::optional<QString> doubt =
                StateTrust(context, folder, elevation).journalDoubt(journal, *contents, operationContext)) {
            findings.append(StateTrust::setAsideJournal(journal, *doubt));
            continue;
        }
        findings += Transaction::recover(journal, *contents, operationContext);
    }
    return findings;
}

namespace {

// The files to replace that running programs hold (a python.exe that loaded cudnn64_8.dll): an
// error naming the programs unless the user chose to replace them anyway, which takes a process
// that may have Windows remove what stays loaded at its next start (an administrator or
// LocalSystem). Asked before anything is unpacked.
Expected<QSet<QString>> filesToReplaceInUse(const QList<PlannedFile> &planned, const SystemContext &context,
                                            const ChangeOptions &options, Findings &findings)
{
    QStringList existing;
    for (const PlannedFile &file : planned) {
        if (QFileInfo::exists(installer::hostOf(context, file.destination)))
            existing.append(installer::hostOf(context, file.destination));
    }
    if (existing.isEmpty() || options.dryRun)
        return QSet<QString>();
    const FilesInUse &files = context.filesInUse();
    const auto holders = files.processesUsing(existing);
    if (!holders || holders->isEmpty())
        return QSet<QString>();
    QStringList names;
    for (const ProcessUsingFile &process : *holders)
        names.append(QStringLiteral("%1 (%2)").arg(process.name).arg(process.pid));
    names.removeDuplicates();
    const Elevation &elevation = context.elevation();
    const bool mayRemoveAtRestart = elevation.isElevated() || elevation.isLocalSystem();
    if (!options.replaceInUse || !mayRemoveAtRestart) {
        return Finding::error(
            QStringLiteral("install.files-in-use"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN files that would be replaced are in use by: %1."))
                .arg(Text::list(names)),
            existing.join(QStringLiteral(", ")),
            options.replaceInUse
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Close these programs and try again: only an administrator "
                                         "may replace files that are in use, because Windows "
                                         "removes the old ones only at its next start."))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Close these programs and try again, or replace the files "
                                         "anyway: these programs keep the old ones until they are "
                                         "restarted.")));
    }
    QSet<QString> inUse;
    for (const QString &path : existing) {
        // Which of them are held: the ones the system will not let go of now.
        const auto one = files.processesUsing({path});
        if (one && !one->isEmpty())
            inUse.insert(path);
    }
    findings.append(Finding::warning(
        QStringLiteral("install.replaced-in-use"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 are in use: the new cuDNN files are in place for every program "
                               "started from now on, and these programs keep the old ones until "
                               "they are restarted (or Windows is)."))
            .arg(Text::list(names))));
    return inUse;
}

Finding archiveRefused(const QString &archivePath, const ArchiveReport &archive)
{
    return Finding::error(
        QStringLiteral("install.archive-refused"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The archive %1 did not pass its check, so nothing is installed."))
            .arg(QDir::toNativeSeparators(archivePath)),
        archive.verdictName(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run \"cudnnctl inspect\" on it to see why.")));
}

// The archive's bytes differed between two reads: someone is writing to it.
Finding archiveChanged(const QString &archivePath, const QString &before, const QString &after)
{
    return Finding::error(
        QStringLiteral("install.archive-changed"),
        Text(QT_TRANSLATE_NOOP(
                 "cudnnsetup",
                 "The archive %1 changed while it was being installed, so nothing is installed."))
            .arg(QDir::toNativeSeparators(archivePath)),
        QStringLiteral("sha256 %1, then %2").arg(before, after),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Make sure no other program is writing to the archive (a download still "
                               "running?), then try again.")));
}

// As SYSTEM (a deployment tool, in session 0) the notice of an environment change reaches no one's
// desktop: Explorer, and all it starts, keep the old environment until the next sign-in.
Finding takesEffectAfterSignIn()
{
    return Finding::warning(
        QStringLiteral("install.takes-effect-after-sign-in"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "PATH and the variables were changed by the system account, whose notice "
                               "reaches no one's desktop: programs see the change once their user signs "
                               "out and in again, or after a restart.")),
        QString(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Restart the PC, or have each user sign out and in again.")));
}

// CUDNN_PATH and its kin asked for an install beside one program.
Finding appVariablesRefused()
{
    return Finding::error(
        QStringLiteral("install.app-variables"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDNN_PATH and its kin are for building programs, "
                                             "which needs the headers and import libraries that an "
                                             "install beside one program leaves out.")),
        QString(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Leave out --cudnn-variables, or install into a folder "
                                             "of its own (--target dir) to build with cuDNN.")));
}

// The loader's configuration written for a system whose cache this process does not rebuild.
Finding ldconfigNotRun(const InstallTarget &target)
{
    return Finding::warning(
        QStringLiteral("install.ldconfig-not-run"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 names the library folder, but the loader's cache is "
                                             "rebuilt only when ldconfig runs on that system."))
            .arg(target.ldSoConfFile()),
        QString(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run ldconfig as root on that system once it runs.")));
}

// What the steps of one install share: its inputs, the state folder and id it writes under, the
// archive as its SHA-256 judges it, and the findings so far.
struct InstallRun final
{
    const QString &archivePath;
    const ArchiveReport &archive;
    const InstallTarget &target;
    const SystemContext &context;
    const ChangeOptions &options;
    const KnowledgeBase &kb;
    StateFolders folders;
    Findings findings;
    // The archive as its SHA-256 judges it, for the receipt: now, or while it is unpacked.
    std::shared_ptr<ArchiveReport> judged = std::make_shared<ArchiveReport>(archive);
    QString stateFolder;
    QString id;

    InstallRun(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
               const SystemContext &context, const ChangeOptions &options, const KnowledgeBase &kb)
        : archivePath(archivePath)
        , archive(archive)
        , target(target)
        , context(context)
        , options(options)
        , kb(kb)
        , folders(StateFolders::of(context))
    {
    }

    // What judging the archive's SHA-256 found (it comes first in the outcome's findings).
    Findings checksumFindings() const { return judged->findings.mid(archive.findings.size()); }
    QString receiptsFolder() const { return folders.receipts(stateFolder); }
    QString receiptPath() const { return receiptsFolder() + QLatin1Char('/') + id + QStringLiteral(".json"); }
    void judge(const QString &sha256)
    {
        judgeChecksum(*judged, sha256, kb.publishedArchives());
        findings = checksumFindings() + findings;
    }
};

// What must hold before anything else is looked at: the target's checks, and the choices that do
// not go together.
Findings checksBeforeInstall(const InstallRun &run)
{
    const Elevation &elevation = run.context.elevation();
    Findings findings = checkTarget(run.target, run.archive, run.context);
    // SYSTEM's own user PATH belongs to no person: an unattended deployment must say --path system.
    if (run.target.pathScope == PathScope::User && elevation.isLocalSystem())
        findings.append(Elevation::userTargetAsSystem());
    if (run.target.kind == InstallTarget::Kind::App && run.options.cudnnVariables)
        findings.append(appVariablesRefused());
    return findings;
}

// What every program would load, or an elevated process installs, is unpacked from a copy only
// administrators can change, hashed as it is made: what the user's file holds after that never
// reaches the target.
bool takesArchiveIntoCustody(const InstallRun &run)
{
    const Elevation &elevation = run.context.elevation();
    return needsNvidiasArchive(run.target, run.context, run.options.archiveVouching) ||
           loadsMachineWide(run.target, run.context) ||
           !run.options.archiveVouching.approvedSha256.isEmpty() ||
           (run.context.isLive() && (elevation.isElevated() || elevation.isLocalSystem()));
}

// The archive's SHA-256 taken now, from the user's file, and judged.
Expected<void> hashNow(InstallRun &run)
{
    const Expected<QString> digest = ArchiveHasher(run.archivePath).finish();
    if (!digest)
        return digest.error();
    run.judge(*digest);
    return {};
}

// The state folder made ready (not for a dry run) and, `withCustody`, the archive copied into its
// custody folder, hashed as it is copied: the copy must hold the bytes judged or approved, and is
// judged now when none were. The archive to unpack: the copy, or the user's file.
Expected<QString> prepareAndTakeCustody(InstallRun &run, bool withCustody)
{
    const Elevation &elevation = run.context.elevation();
    if (const Expected<void> prepared = run.options.dryRun
                                            ? Expected<void>()
                                            : run.folders.prepare(run.stateFolder, run.context, elevation);
        !prepared)
        return prepared.error();
    if (!withCustody)
        return run.archivePath;
    const QString custodyFolder = run.folders.custody(run.stateFolder);
    QDir().mkpath(custodyFolder); // made protected by prepare() in the machine folder
    const Expected<ArchiveInCustody> custody = takeIntoCustody(
        run.archivePath, custodyFolder + QStringLiteral("/archive-") + run.id + QStringLiteral(".zip"));
    if (!custody)
        return custody.error();
    for (const QString &expected : {run.judged->sha256, run.options.archiveVouching.approvedSha256}) {
        if (!expected.isEmpty() && expected != custody->sha256) {
            durable::discard(custody->path);
            return archiveChanged(run.archivePath, expected, custody->sha256);
        }
    }
    if (run.judged->sha256.isEmpty())
        run.judge(custody->sha256);
    return custody->path;
}

ChangeOutcome alreadyDone(const std::pair<Receipt, QString> &installed, const Findings &findings)
{
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::AlreadyDone;
    outcome.receipt = installed.first;
    outcome.receiptPath = installed.second;
    outcome.findings = findings;
    return outcome;
}

QString installId(const ArchiveReport &archive)
{
    return QStringLiteral("cudnn-%1-cuda%2-%3")
        .arg(archive.cudnn.toString(),
             archive.cudaVariant.isEmpty() ? QStringLiteral("x") : archive.cudaVariant,
             QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
}

// The transaction of an install: its undo's backups beside the target, its roots the target's
// folder and the loader files it writes.
Transaction installTransaction(const InstallRun &run, std::shared_ptr<PersistentEnvironment> environment)
{
    const SystemContext &context = run.context;
    const InstallTarget &target = run.target;
    OperationContext operationContext = OperationContext::of(context, environment);
    operationContext.backupFolder = installer::hostOf(context, target.backupFolder());
    operationContext.crashAt = run.options.crashAt;
    operationContext.bytesProgress = run.options.bytesProgress;
    QStringList roots{installer::hostOf(context, target.root)};
    if (!target.pthFile().isEmpty())
        roots.append(installer::hostOf(context, target.pthFile()));
    if (!target.ldSoConfFile().isEmpty())
        roots.append(installer::hostOf(context, target.ldSoConfFile()));
    return Transaction(run.id, QStringLiteral("install"), run.folders.journal(run.stateFolder),
                       operationContext, roots);
}

// The judgement of the SHA-256 taken while the archive is unpacked.
operations::ArchiveHashed judgeWhileUnpacking(std::shared_ptr<ArchiveReport> judged, const KnowledgeBase &kb)
{
    return [judged, &kb](const QString &sha256) -> Expected<void> {
        judgeChecksum(*judged, sha256, kb.publishedArchives());
        for (const Finding &finding : judged->findings) {
            if (finding.severity == Severity::Error)
                return finding; // before any file leaves staging: the transaction rolls back
        }
        return {};
    };
}

// Done, but some programs see the change only once they restart, or their user signs in again.
ChangeOutcome withRestartNeeded(ChangeOutcome outcome, bool replacedInUse, bool environmentChangedAsSystem)
{
    if (outcome.status == ChangeOutcome::Status::Done && replacedInUse)
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    if (outcome.status == ChangeOutcome::Status::Done && environmentChangedAsSystem) {
        outcome.findings.append(takesEffectAfterSignIn());
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    }
    return outcome;
}

// The install's plan; unless it is a dry run, the transaction run and what came of it.
ChangeOutcome planAndRun(Transaction &transaction, const InstallRun &run,
                         const std::shared_ptr<Receipt> &receipt, bool hashWhileUnpacking, bool replacedInUse,
                         bool changedEnvironment)
{
    ChangeOutcome outcome;
    outcome.plan = installer::describe(transaction);
    outcome.findings = run.findings;
    if (run.options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        return outcome;
    }
    const Transaction::Result result = transaction.run(run.options.progress, run.options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed) {
        outcome.receipt = *receipt;
        outcome.receiptPath = run.receiptPath();
    }
    if (hashWhileUnpacking)
        outcome.findings = run.checksumFindings() + outcome.findings;
    return withRestartNeeded(installer::finished(result, outcome), replacedInUse,
                             run.context.elevation().isLocalSystem() && changedEnvironment);
}

} // namespace

ChangeOutcome install(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
                      const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                      const ChangeOptions &options, const KnowledgeBase &kb)
{
    if (archive.verdict != ArchiveReport::Verdict::Ok)
        return installer::failed({archiveRefused(archivePath, archive)});
    InstallRun run(archivePath, archive, target, context, options, kb);
    Findings &findings = run.findings;
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(run.folders, context, elevation);
    if (!lock)
        return lock.error();
    findings = lock->setAside + checksBeforeInstall(run);
    if (hasErrors(findings))
        return installer::failed(findings);
    const QList<PlannedFile> planned = placeFiles(archive, target);
    const Expected<QSet<QString>> inUse = filesToReplaceInUse(planned, context, options, findings);
    if (!inUse)
        return installer::failed(findings + Findings{inUse.error()});
    const QList<std::pair<Receipt, QString>> receipts = installer::receiptsOfTarget(target, context);
    const bool takesCustody = !options.dryRun && takesArchiveIntoCustody(run);
    // Whether an install of this archive may be there intact, which only its SHA-256 tells: taken
    // now, from the copy taken into custody where there is one, so the archive is read once. (A dry
    // run is hashed before its plan.)
    const bool hashFirst =
        archive.sha256.isEmpty() && (options.dryRun || installer::releaseInstalledBefore(archive, receipts));
    const bool custodyFirst = takesCustody && hashFirst;
    if (hashFirst && !custodyFirst) {
        if (const Expected<void> hashed = hashNow(run); !hashed)
            return installer::failed(findings + Findings{hashed.error()});
        if (run.judged->verdict != ArchiveReport::Verdict::Ok)
            return installer::failed(findings);
    }
    run.stateFolder = run.folders.forTarget(target, context, elevation);
    run.id = installId(archive);
    QString unpackedArchive = archivePath;
    // Unpacked or not, the copy goes when the install ends.
    const auto leaveCustody = qScopeGuard([&] {
        if (unpackedArchive != archivePath)
            durable::discard(unpackedArchive);
    });
    if (custodyFirst) {
        const Expected<QString> taken = prepareAndTakeCustody(run, true);
        if (!taken)
            return installer::failed(findings + Findings{taken.error()});
        unpackedArchive = *taken;
        if (run.judged->verdict != ArchiveReport::Verdict::Ok)
            return installer::failed(findings);
    }
    if (const auto installed = installer::intactInstallOf(*run.judged, receipts, context))
        return alreadyDone(*installed, findings);
    if (!custodyFirst) {
        const Expected<QString> taken = prepareAndTakeCustody(run, takesCustody);
        if (!taken)
            return installer::failed(findings + Findings{taken.error()});
        unpackedArchive = *taken;
    }
    if (run.judged->verdict != ArchiveReport::Verdict::Ok)
        return installer::failed(findings);
    if (const std::optional<Finding> refusal =
            unverifiedArchiveRefusal(*run.judged, target, context, options.archiveVouching))
        return installer::failed(findings + Findings{*refusal});
    const QString keptFolder = keptFilesFolder(run.receiptsFolder(), run.id);
    findings += checkKeepingSpace(planned, keptFolder, target, context, context.volumes());
    findings += checkWorkingPathLengths(planned, context.files().fromHost(keptFolder), target, context);
    if (hasErrors(findings))
        return installer::failed(findings);
    const QString staging = installer::hostOf(context, target.stagingFolder());
    if (QFileInfo::exists(staging) && !options.dryRun)
        durable::discardTree(staging); // ours by its name: what a crash during unpacking left

    Transaction transaction = installTransaction(run, environment);
    const bool hashWhileUnpacking = run.judged->sha256.isEmpty();
    const installer::PlacedFiles files = installer::addFileSteps(
        transaction, unpackedArchive, archive,
        hashWhileUnpacking ? judgeWhileUnpacking(run.judged, kb) : operations::ArchiveHashed(), target,
        planned, *inUse, staging, keptFolder, context);
    QList<Receipt::EnvironmentChange> changes;
    if (const Expected<void> added =
            installer::addPathStep(transaction, changes, target, context, *environment, options, findings);
        !added)
        return installer::failed(findings + Findings{added.error()});
    if (!target.ldSoConfFile().isEmpty() && !installer::rebuildsLibraryCache(context))
        findings.append(ldconfigNotRun(target));
    if (hasErrors(findings))
        return installer::failed(findings);
    if (options.cudnnVariables)
        installer::addCudnnVariables(transaction, changes, *options.cudnnVariables, target, context,
                                     *environment);
    transaction.add(operations::makeDirectory(run.receiptsFolder()));
    auto receipt = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(
        run.receiptPath(), [=, &context, &target, judged = run.judged, id = run.id]() {
            return installer::receiptOf(id, archivePath, *judged, target, files, changes, context,
                                        *environment, *receipt);
        }));

    return planAndRun(transaction, run, receipt, hashWhileUnpacking, !inUse->isEmpty(), !changes.isEmpty());
}

ChangeOutcome installUserPart(const Receipt &machineWide, const InstallTarget &target,
                              std::optional<EnvironmentScope> userVariables, const SystemContext &context,
                              std::shared_ptr<PersistentEnvironment> environment,
                              const ChangeOptions &options)
{
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(folders, context, elevation);
    if (!lock)
        return lock.error();
    const QString id = machineWide.id + QStringLiteral("-user");
    const QString receiptsFolder = folders.receipts(folders.user);
    const QString receiptPath = receiptsFolder + QLatin1Char('/') + id + QStringLiteral(".json");
    OperationContext operationContext = OperationContext::of(context, environment);
    operationContext.backupFolder = folders.user + QStringLiteral("/") + id + QStringLiteral("-backup");
    operationContext.crashAt = options.crashAt;
    Transaction transaction(id, QStringLiteral("install"), folders.journal(folders.user), operationContext);
    QList<Receipt::EnvironmentChange> changes;
    if (target.pathScope == PathScope::User) {
        transaction.add(operations::addPathEntry(target.family, EnvironmentScope::User, target.dllFolder(),
                                                 true, options.pathFixes));
        changes.append({operations::scopeName(EnvironmentScope::User), QStringLiteral("PATH"),
                        target.dllFolder(),
                        installer::readValue(*environment, EnvironmentScope::User, QStringLiteral("PATH")),
                        std::nullopt});
    }
    if (userVariables == EnvironmentScope::User)
        installer::addCudnnVariables(transaction, changes, EnvironmentScope::User, target, context,
                                     *environment);
    transaction.add(operations::makeDirectory(receiptsFolder));
    auto receiptHolder = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(receiptPath, [=, &target]() {
        Receipt &receipt = *receiptHolder;
        receipt.id = id;
        receipt.partOf = machineWide.id;
        receipt.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        receipt.tool = QLatin1String(installer::kTool);
        receipt.archive = machineWide.archive;
        receipt.target = target;
        receipt.environment = changes;
        for (Receipt::EnvironmentChange &change : receipt.environment) {
            if (change.name == QLatin1String("PATH"))
                change.after = installer::readValue(*environment, EnvironmentScope::User, change.name);
        }
        return QJsonDocument(receipt.toJson()).toJson();
    }));
    ChangeOutcome outcome;
    outcome.findings = lock->setAside;
    outcome.plan = installer::describe(transaction);
    outcome.receiptPath = receiptPath;
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed)
        outcome.receipt = *receiptHolder;
    return installer::finished(result, outcome);
}

} // namespace cudnnsetup
