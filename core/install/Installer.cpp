#include "install/Installer.h"

#include "archive/ArchiveHasher.h"
#include "common/Logging.h"
#include "install/FilePlacement.h"
#include "install/Operations.h"
#include "install/PathEditor.h"
#include "install/StateTrust.h"
#include "install/TargetChecks.h"
#include "install/Zlibwapi.h"
#include "platform/DurableFiles.h"
#include "platform/InstallLock.h"
#include "platform/Sha256.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>

#include <algorithm>
#include <utility>

namespace cudnnsetup {

namespace {

constexpr char kTool[] = "cudnn-setup " CUDNNSETUP_VERSION;

QString hostOf(const SystemContext &context, const QString &path)
{
    return context.files().toHost(path);
}

// The host path of a symbolic link itself: its folder's, and its own name (hostOf follows links
// inside a --system-root tree, and would name what the link reads).
QString linkHostOf(const SystemContext &context, const QString &path)
{
    return hostOf(context, context.paths().parent(path)) + QLatin1Char('/') + context.paths().fileName(path);
}

// Where a file of `receipt` is on the host: a link it made as itself.
QString placedHostOf(const SystemContext &context, const Receipt &receipt, const QString &path)
{
    return receipt.links.contains(path) ? linkHostOf(context, path) : hostOf(context, path);
}

std::optional<StoredEnvironmentValue> readValue(PersistentEnvironment &environment, EnvironmentScope scope,
                                                const QString &name)
{
    const auto value = environment.read(scope, name);
    return value ? *value : std::nullopt;
}

// CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY for `target` in `scope` (for building OpenCV,
// ONNX Runtime or TensorFlow from source), as steps and as the receipt's record of them.
void addCudnnVariables(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                       EnvironmentScope scope, const InstallTarget &target, const SystemContext &context,
                       PersistentEnvironment &environment)
{
    const QList<std::pair<QString, QString>> variables = {
        {QStringLiteral("CUDNN_PATH"), target.root},
        {QStringLiteral("CUDNN_INCLUDE_DIR"), target.pathOf(target.includeFolder)},
        {QStringLiteral("CUDNN_LIBRARY"),
         context.paths().join(target.pathOf(target.libFolder), target.family == OsFamily::Windows
                                                                   ? QStringLiteral("cudnn.lib")
                                                                   : QStringLiteral("libcudnn.so"))}};
    for (const auto &[name, value] : variables) {
        transaction.add(operations::setEnvironmentValue(scope, name, StoredEnvironmentValue{value, false}));
        changes.append({operations::scopeName(scope), name, QString(), readValue(environment, scope, name),
                        StoredEnvironmentValue{value, false}});
    }
}

ChangeOutcome failed(const Findings &findings)
{
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::Failed;
    outcome.findings = findings;
    return outcome;
}

ChangeOutcome finished(Transaction::Result result, ChangeOutcome outcome)
{
    outcome.findings += result.findings;
    switch (result.outcome) {
    case Transaction::Outcome::Committed:
        outcome.status = ChangeOutcome::Status::Done;
        break;
    case Transaction::Outcome::Cancelled:
        outcome.status = ChangeOutcome::Status::Cancelled;
        break;
    case Transaction::Outcome::RolledBack:
        outcome.status = ChangeOutcome::Status::Failed;
        break;
    case Transaction::Outcome::Crashed:
        outcome.status = ChangeOutcome::Status::Crashed;
        break;
    }
    return outcome;
}

QStringList describe(const Transaction &transaction)
{
    QStringList plan;
    for (int i = 0; i < transaction.size(); ++i)
        plan.append(transaction.at(i).description().toString());
    return plan;
}

// Folders deepest first, so each is empty when its turn comes.
QStringList deepestFirst(QSet<QString> folders)
{
    QStringList sorted(folders.cbegin(), folders.cend());
    std::sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) {
        return a.size() > b.size() || (a.size() == b.size() && a < b);
    });
    return sorted;
}

} // namespace

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
        OperationContext operationContext;
        operationContext.environment = environment;
        operationContext.sessionVariable = sessionVariablesOf(context);
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
        if (QFileInfo::exists(hostOf(context, file.destination)))
            existing.append(hostOf(context, file.destination));
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

// The receipts of the installs into `target`, with the paths they were read from.
QList<std::pair<Receipt, QString>> receiptsOfTarget(const InstallTarget &target, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    QList<std::pair<Receipt, QString>> ofTarget;
    for (const auto &entry : installedReceipts(context)) {
        const Receipt &receipt = entry.first;
        if (receipt.target && receipt.target->kind == target.kind &&
            paths.normalize(receipt.target->root)
                    .compare(paths.normalize(target.root), paths.caseSensitivity()) == 0)
            ofTarget.append(entry);
    }
    return ofTarget;
}

// Whether the same cuDNN release is among the installs into the target: then the archive may be the
// one installed, which only its SHA-256 tells.
bool releaseInstalledBefore(const ArchiveReport &archive, const QList<std::pair<Receipt, QString>> &receipts)
{
    return std::any_of(receipts.cbegin(), receipts.cend(), [&](const auto &entry) {
        return entry.first.archive.cudnn.truncated(3) == archive.cudnn.truncated(3);
    });
}

// Among the installs into the target, the receipt of the same archive whose files are all intact,
// with the path it was read from.
std::optional<std::pair<Receipt, QString>> intactInstallOf(const ArchiveReport &archive,
                                                           const QList<std::pair<Receipt, QString>> &receipts,
                                                           const SystemContext &context)
{
    for (const auto &[receipt, path] : receipts) {
        if (archive.sha256.isEmpty() || receipt.archive.sha256 != archive.sha256)
            continue;
        const bool intact =
            std::all_of(receipt.files.cbegin(), receipt.files.cend(), [&](const Receipt::File &file) {
                return Sha256::ofFile(hostOf(context, file.path)) == file.sha256;
            });
        if (intact)
            return std::pair{receipt, path};
    }
    return std::nullopt;
}

// Whether a change to the loader's configuration rebuilds its cache: on the running Linux system;
// another system's files (--system-root) are that system's to rebuild.
bool rebuildsLibraryCache(const SystemContext &context)
{
    return context.isLive() && context.family() == OsFamily::Linux;
}

// What the file steps of an install will have done, for its receipt: filled in as the
// transaction runs (the unpacked files' hashes, whether zlibwapi.dll was needed).
struct PlacedFiles
{
    struct Placed
    {
        QString destination; // the inspected system's path
        QString kept;        // host path of the replaced file's keeping place, or empty
        QString linkTarget;  // a symbolic link made again (after the unpacked files), or empty
    };
    QList<Placed> placed; // in the order of the archive's files that were unpacked
    std::shared_ptr<Extraction> extraction = std::make_shared<Extraction>();
    QSet<QString> createdFolders; // the inspected system's folders the install makes
    QString zlibwapi;             // the inspected system's path where zlibwapi.dll would go
    std::shared_ptr<bool> zlibwapiPlaced = std::make_shared<bool>(false);
    QByteArray pth;      // the venv's .pth file, or empty
    QByteArray ldSoConf; // Linux, system scope: the /etc/ld.so.conf.d file, or empty
};

// The steps that put the archive's files in place: the root (protected where it goes on the
// system PATH), the unpacking into staging, the folders, each file moved into place (or, for one
// in use, swapped at the next start), zlibwapi.dll where needed, a venv's .pth file.
PlacedFiles addFileSteps(Transaction &transaction, const QString &archivePath, const ArchiveReport &archive,
                         const operations::ArchiveHashed &archiveHashed, const InstallTarget &target,
                         const QList<PlannedFile> &planned, const QSet<QString> &inUse,
                         const QString &staging, const QString &keptFolder, const SystemContext &context)
{
    PlacedFiles result;
    // A folder on the system PATH is the administrators' alone (checkTarget refused one that is not).
    const bool onSystemPath = target.pathScope == PathScope::System && target.family == OsFamily::Windows;
    transaction.add(operations::makeDirectory(hostOf(context, target.root),
                                              onSystemPath ? security::adminsOnlySddl() : QString()));
    // What is not installed is still inflated and held to its CRC, in the same pass: an archive
    // the inspection would call damaged is not installed in part.
    // Links have no data: they are made again after the files (placeFiles puts them last).
    QList<ArchiveFile> toUnpack; // in the planned order, which the receipt follows
    for (const PlannedFile &file : planned) {
        for (const ArchiveFile &archiveFile : archive.files) {
            if (archiveFile.entry == file.entry && archiveFile.linkTarget.isEmpty())
                toUnpack.append(archiveFile);
        }
    }
    QList<ArchiveFile> toCheck;
    for (const ArchiveFile &archiveFile : archive.files) {
        if (archiveFile.linkTarget.isEmpty() &&
            std::none_of(planned.cbegin(), planned.cend(),
                         [&](const PlannedFile &file) { return file.entry == archiveFile.entry; }))
            toCheck.append(archiveFile);
    }
    transaction.add(
        operations::unpackArchive(archivePath, toUnpack, toCheck, staging, result.extraction, archiveHashed));

    QSet<QString> folderSet;
    const auto noteMissing = [&](const QString &folder) {
        for (QString up = folder; !up.isEmpty() && !QFileInfo::exists(hostOf(context, up));) {
            result.createdFolders.insert(up);
            const QString parent = context.paths().parent(up);
            if (parent == up)
                break;
            up = parent;
        }
    };
    noteMissing(target.root);
    for (const PlannedFile &file : planned) {
        folderSet.insert(QFileInfo(hostOf(context, file.destination)).absolutePath());
        noteMissing(context.paths().parent(file.destination));
    }
    QStringList foldersTopDown(folderSet.cbegin(), folderSet.cend());
    std::sort(foldersTopDown.begin(), foldersTopDown.end());
    for (const QString &folder : foldersTopDown)
        transaction.add(operations::makeDirectory(folder));

    // The files it replaces go straight to where the receipt keeps them, in a folder undone with
    // the rest.
    const bool replacing = std::any_of(planned.cbegin(), planned.cend(), [&](const PlannedFile &file) {
        return QFileInfo::exists(hostOf(context, file.destination));
    });
    if (replacing)
        transaction.add(operations::makeDirectory(keptFolder));
    QStringList placedDlls;
    for (int i = 0; i < planned.size(); ++i) {
        const PlannedFile &file = planned.at(i);
        const QString destination = file.linkTarget.isEmpty() ? hostOf(context, file.destination)
                                                              : linkHostOf(context, file.destination);
        const QString staged = staging + QLatin1Char('/') + stagedPath(i, file.archivePath);
        const QString kept =
            QFileInfo::exists(destination)
                ? keptFolder + QLatin1Char('/') +
                      keptFileName(int(result.placed.size()), QFileInfo(destination).fileName())
                : QString();
        if (!file.linkTarget.isEmpty()) {
            transaction.add(operations::makeSymlink(file.linkTarget, destination, kept));
        } else if (inUse.contains(destination)) {
            transaction.add(operations::replaceInUse(staged, destination, kept, &context.filesInUse()));
        } else {
            transaction.add(operations::moveIntoPlace(staged, destination, kept));
        }
        result.placed.append({file.destination, kept, file.linkTarget});
        if (file.archivePath.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive))
            placedDlls.append(destination); // read there: the step runs after they were moved
    }

    result.zlibwapi = context.paths().join(target.dllFolder(), QLatin1String(kZlibwapiName));
    if (target.family == OsFamily::Windows && !placedDlls.isEmpty()) {
        transaction.add(
            operations::placeZlibwapi(hostOf(context, result.zlibwapi), placedDlls, target.dllFolder(),
                                      std::make_shared<SystemContext>(context), result.zlibwapiPlaced));
    }
    if (target.kind == InstallTarget::Kind::Venv) {
        result.pth = venvPthContent(target.dllFolder());
        transaction.add(operations::writeFile(hostOf(context, target.pthFile()), result.pth));
    }
    if (!target.ldSoConfFile().isEmpty()) {
        result.ldSoConf = target.ldSoConfContent();
        transaction.add(operations::refreshingLibraryCache(
            operations::writeFile(hostOf(context, target.ldSoConfFile()), result.ldSoConf),
            rebuildsLibraryCache(context)));
    }
    return result;
}

// The step that puts the target's DLL folder on the PATH its pathScope names, and its record for
// the receipt. Refused (nothing added) when that PATH would grow past what a variable holds;
// warnings when it grows long.
Expected<void> addPathStep(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                           const InstallTarget &target, const SystemContext &context,
                           PersistentEnvironment &environment, const ChangeOptions &options,
                           Findings &findings)
{
    const auto scope = target.pathScope == PathScope::User     ? std::optional(EnvironmentScope::User)
                       : target.pathScope == PathScope::System ? std::optional(EnvironmentScope::Machine)
                                                               : std::nullopt;
    // Linux finds libraries through the loader's cache, not PATH: its system scope is the
    // ld.so.conf.d file the file steps write, and there is nothing per user to write.
    if (target.family == OsFamily::Linux && target.pathScope == PathScope::User)
        return Finding::error(
            QStringLiteral("install.linux-user-path"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "On Linux a library folder cannot be made known to one user "
                                                 "only: programs find libraries through the system's loader "
                                                 "configuration or LD_LIBRARY_PATH.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Name the folder for the whole system instead (as root: it "
                                                 "goes into /etc/ld.so.conf.d), or add it to LD_LIBRARY_PATH "
                                                 "in your shell's profile.")));
    if (!scope || target.family == OsFamily::Linux)
        return {};
    // Long PATHs are worth a word (some tools cut them at 2,047 characters); one beyond what an
    // environment variable holds stops the install before it starts.
    const std::optional<StoredEnvironmentValue> current =
        readValue(environment, *scope, QStringLiteral("PATH"));
    const PathEditor editor =
        PathEditor::forStoredPath(target.family, *scope, environment, sessionVariablesOf(context));
    const auto longer = editor.edited(current ? current->text : QString(), target.dllFolder(),
                                      PathEditor::Position::Front, options.pathFixes);
    if (!longer)
        return longer.error();
    findings += editor.lengthWarnings(*longer);
    transaction.add(
        operations::addPathEntry(target.family, *scope, target.dllFolder(), true, options.pathFixes));
    changes.append(
        {operations::scopeName(*scope), QStringLiteral("PATH"), target.dllFolder(), current, std::nullopt});
    return {};
}

// The receipt of a committed install: what the archive was, where its files went (with the files
// they replaced, kept), the folders it made and the environment it changed.
QByteArray receiptOf(const QString &id, const QString &archivePath, const ArchiveReport &archive,
                     const InstallTarget &target, const PlacedFiles &files,
                     const QList<Receipt::EnvironmentChange> &changes, const SystemContext &context,
                     PersistentEnvironment &environment, Receipt &receipt)
{
    receipt.id = id;
    receipt.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    receipt.tool = QLatin1String(kTool);
    receipt.archive = ArchiveIdentity::of(archivePath, archive);
    receipt.target = target;
    const QList<ExtractedFile> &unpacked = files.extraction->files;
    // A link is recorded with the content it reads (what each check of the receipt hashes through it).
    QHash<QString, Receipt::File> byPath;
    for (int i = 0, file = 0; i < files.placed.size(); ++i) {
        const PlacedFiles::Placed &placed = files.placed.at(i);
        const QString kept = placed.kept.isEmpty() ? QString() : context.files().fromHost(placed.kept);
        Receipt::File entry{placed.destination, QString(), 0, kept};
        if (placed.linkTarget.isEmpty()) {
            if (file >= unpacked.size())
                break;
            entry.sha256 = unpacked.at(file).sha256;
            entry.size = unpacked.at(file++).size;
        } else {
            const Receipt::File named = byPath.value(
                context.paths().join(context.paths().parent(placed.destination), placed.linkTarget));
            entry.sha256 = named.sha256;
            entry.size = named.size;
            receipt.links.insert(entry.path, placed.linkTarget);
        }
        byPath.insert(entry.path, entry);
        receipt.files.append(entry);
    }
    if (*files.zlibwapiPlaced)
        receipt.files.append(
            {files.zlibwapi, embeddedZlibwapiSha256(), qint64(embeddedZlibwapi().size()), QString()});
    if (!files.pth.isEmpty())
        receipt.files.append({target.pthFile(), Sha256::of(files.pth), qint64(files.pth.size()), QString()});
    if (!files.ldSoConf.isEmpty())
        receipt.files.append(
            {target.ldSoConfFile(), Sha256::of(files.ldSoConf), qint64(files.ldSoConf.size()), QString()});
    receipt.folders = deepestFirst(files.createdFolders);
    receipt.environment = changes;
    for (Receipt::EnvironmentChange &change : receipt.environment) {
        if (change.name == QLatin1String("PATH"))
            change.after = readValue(environment, *operations::scopeFromName(change.scope), change.name);
    }
    return QJsonDocument(receipt.toJson()).toJson();
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

} // namespace

ChangeOutcome install(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
                      const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                      const ChangeOptions &options, const KnowledgeBase &kb)
{
    if (archive.verdict != ArchiveReport::Verdict::Ok)
        return failed({archiveRefused(archivePath, archive)});
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(folders, context, elevation);
    if (!lock)
        return lock.error();
    Findings findings = lock->setAside + checkTarget(target, archive, context);
    // SYSTEM's own user PATH belongs to no person: an unattended deployment must say --path system.
    if (target.pathScope == PathScope::User && elevation.isLocalSystem())
        findings.append(Elevation::userTargetAsSystem());
    if (target.kind == InstallTarget::Kind::App && options.cudnnVariables)
        findings.append(Finding::error(
            QStringLiteral("install.app-variables"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDNN_PATH and its kin are for building programs, "
                                                 "which needs the headers and import libraries that an "
                                                 "install beside one program leaves out.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Leave out --cudnn-variables, or install into a folder "
                                                 "of its own (--target dir) to build with cuDNN."))));
    if (hasErrors(findings))
        return failed(findings);
    const QList<PlannedFile> planned = placeFiles(archive, target);
    const Expected<QSet<QString>> inUse = filesToReplaceInUse(planned, context, options, findings);
    if (!inUse)
        return failed(findings + Findings{inUse.error()});
    // The archive as its SHA-256 judges it, for the receipt: now, or while it is unpacked.
    const auto judged = std::make_shared<ArchiveReport>(archive);
    const auto checksumFindings = [&judged, inspected = archive.findings.size()] {
        return judged->findings.mid(inspected);
    };
    const QList<std::pair<Receipt, QString>> receipts = receiptsOfTarget(target, context);
    // What every program would load, or an elevated process installs, is unpacked from a copy only
    // administrators can change, hashed as it is made: what the user's file holds after that never
    // reaches the target. (A dry run is hashed before its plan.)
    const bool mustBeNvidias = needsNvidiasArchive(target, context, options.archiveVouching);
    const QString &approved = options.archiveVouching.approvedSha256;
    const bool takesCustody =
        !options.dryRun && (mustBeNvidias || loadsMachineWide(target, context) || !approved.isEmpty() ||
                            (context.isLive() && (elevation.isElevated() || elevation.isLocalSystem())));
    bool hashWhileUnpacking = archive.sha256.isEmpty();
    // Whether an install of this archive may be there intact, which only its SHA-256 tells: taken
    // now, from the copy taken into custody where there is one, so the archive is read once.
    const bool hashFirst =
        hashWhileUnpacking && (options.dryRun || releaseInstalledBefore(archive, receipts));
    const bool custodyFirst = takesCustody && hashFirst;
    if (hashFirst && !custodyFirst) {
        const Expected<QString> digest = ArchiveHasher(archivePath).finish();
        if (!digest)
            return failed(findings + Findings{digest.error()});
        judgeChecksum(*judged, *digest, kb.publishedArchives());
        findings = checksumFindings() + findings;
        if (judged->verdict != ArchiveReport::Verdict::Ok)
            return failed(findings);
        hashWhileUnpacking = false;
    }

    const QString stateFolder = folders.forTarget(target, context, elevation);
    const QString id =
        QStringLiteral("cudnn-%1-cuda%2-%3")
            .arg(archive.cudnn.toString(),
                 archive.cudaVariant.isEmpty() ? QStringLiteral("x") : archive.cudaVariant,
                 QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    QString unpackedArchive = archivePath;
    // Unpacked or not, the copy goes when the install ends.
    const auto leaveCustody = qScopeGuard([&] {
        if (unpackedArchive != archivePath)
            durable::discard(unpackedArchive);
    });
    const auto prepareAndTakeCustody = [&](bool withCustody) -> Expected<void> {
        if (const Expected<void> prepared =
                options.dryRun ? Expected<void>() : folders.prepare(stateFolder, context, elevation);
            !prepared)
            return prepared.error();
        if (!withCustody)
            return {};
        QDir().mkpath(folders.custody(stateFolder)); // made protected by prepare() in the machine folder
        const Expected<ArchiveInCustody> custody =
            takeIntoCustody(archivePath, folders.custody(stateFolder) + QStringLiteral("/archive-") + id +
                                             QStringLiteral(".zip"));
        if (!custody)
            return custody.error();
        unpackedArchive = custody->path;
        for (const QString &expected : {judged->sha256, approved}) {
            if (!expected.isEmpty() && expected != custody->sha256)
                return archiveChanged(archivePath, expected, custody->sha256);
        }
        if (judged->sha256.isEmpty()) {
            judgeChecksum(*judged, custody->sha256, kb.publishedArchives());
            findings = checksumFindings() + findings;
        }
        hashWhileUnpacking = false;
        return {};
    };
    if (custodyFirst) {
        if (const Expected<void> taken = prepareAndTakeCustody(true); !taken)
            return failed(findings + Findings{taken.error()});
        if (judged->verdict != ArchiveReport::Verdict::Ok)
            return failed(findings);
    }
    if (const auto installed = intactInstallOf(*judged, receipts, context)) {
        ChangeOutcome outcome;
        outcome.status = ChangeOutcome::Status::AlreadyDone;
        outcome.receipt = installed->first;
        outcome.receiptPath = installed->second;
        outcome.findings = findings;
        return outcome;
    }
    if (!custodyFirst) {
        if (const Expected<void> taken = prepareAndTakeCustody(takesCustody); !taken)
            return failed(findings + Findings{taken.error()});
    }
    if (judged->verdict != ArchiveReport::Verdict::Ok)
        return failed(findings);
    if (const std::optional<Finding> refusal =
            unverifiedArchiveRefusal(*judged, target, context, options.archiveVouching))
        return failed(findings + Findings{*refusal});
    const QString receiptsFolder = folders.receipts(stateFolder);
    const QString receiptPath = receiptsFolder + QLatin1Char('/') + id + QStringLiteral(".json");
    const QString keptFolder = keptFilesFolder(receiptsFolder, id);
    findings += checkKeepingSpace(planned, keptFolder, target, context, context.volumes());
    findings += checkWorkingPathLengths(planned, context.files().fromHost(keptFolder), target, context);
    if (hasErrors(findings))
        return failed(findings);
    const QString staging = hostOf(context, target.stagingFolder());
    if (QFileInfo::exists(staging) && !options.dryRun)
        durable::discardTree(staging); // ours by its name: what a crash during unpacking left

    OperationContext operationContext;
    operationContext.environment = environment;
    operationContext.sessionVariable = sessionVariablesOf(context);
    operationContext.backupFolder = hostOf(context, target.backupFolder());
    operationContext.fileSecurity = &context.fileSecurity();
    operationContext.crashAt = options.crashAt;
    operationContext.bytesProgress = options.bytesProgress;
    QStringList roots{hostOf(context, target.root)};
    if (!target.pthFile().isEmpty())
        roots.append(hostOf(context, target.pthFile()));
    if (!target.ldSoConfFile().isEmpty())
        roots.append(hostOf(context, target.ldSoConfFile()));
    Transaction transaction(id, QStringLiteral("install"), folders.journal(stateFolder), operationContext,
                            roots);
    operations::ArchiveHashed archiveHashed;
    if (hashWhileUnpacking)
        archiveHashed = [judged, &kb](const QString &sha256) -> Expected<void> {
            judgeChecksum(*judged, sha256, kb.publishedArchives());
            for (const Finding &finding : judged->findings) {
                if (finding.severity == Severity::Error)
                    return finding; // before any file leaves staging: the transaction rolls back
            }
            return {};
        };
    const PlacedFiles files = addFileSteps(transaction, unpackedArchive, archive, archiveHashed, target,
                                           planned, *inUse, staging, keptFolder, context);
    QList<Receipt::EnvironmentChange> changes;
    if (const Expected<void> added =
            addPathStep(transaction, changes, target, context, *environment, options, findings);
        !added)
        return failed(findings + Findings{added.error()});
    if (!target.ldSoConfFile().isEmpty() && !rebuildsLibraryCache(context))
        findings.append(Finding::warning(
            QStringLiteral("install.ldconfig-not-run"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 names the library folder, but the loader's cache is "
                                                 "rebuilt only when ldconfig runs on that system."))
                .arg(target.ldSoConfFile()),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run ldconfig as root on that system once it runs."))));
    if (hasErrors(findings))
        return failed(findings);
    if (options.cudnnVariables)
        addCudnnVariables(transaction, changes, *options.cudnnVariables, target, context, *environment);
    transaction.add(operations::makeDirectory(receiptsFolder));
    auto receipt = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(receiptPath, [=, &context, &target]() {
        return receiptOf(id, archivePath, *judged, target, files, changes, context, *environment, *receipt);
    }));

    ChangeOutcome outcome;
    outcome.plan = describe(transaction);
    outcome.findings = findings;
    if (options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        return outcome;
    }
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed) {
        outcome.receipt = *receipt;
        outcome.receiptPath = receiptPath;
    }
    if (hashWhileUnpacking)
        outcome.findings = checksumFindings() + outcome.findings;
    outcome = finished(result, outcome);
    if (outcome.status == ChangeOutcome::Status::Done && !inUse->isEmpty())
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    if (outcome.status == ChangeOutcome::Status::Done && elevation.isLocalSystem() && !changes.isEmpty()) {
        outcome.findings.append(takesEffectAfterSignIn());
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    }
    return outcome;
}

ChangeOutcome uninstall(const QString &id, const SystemContext &context,
                        std::shared_ptr<PersistentEnvironment> environment, const ChangeOptions &options)
{
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(folders, context, elevation);
    if (!lock)
        return lock.error();
    const QList<std::pair<Receipt, QString>> receipts = installedReceipts(context);
    QList<std::pair<Receipt, QString>> matching;
    for (const auto &entry : receipts) {
        // Without an id, the installs a person made: a per-user part goes with its machine-wide one.
        if ((id.isEmpty() && entry.first.partOf.isEmpty()) || entry.first.id == id)
            matching.append(entry);
    }
    if (matching.size() != 1) {
        QStringList ids;
        for (const auto &entry : receipts) {
            if (entry.first.partOf.isEmpty())
                ids.append(entry.first.id);
        }
        return failed(
            lock->setAside +
            Findings{matching.isEmpty() && !id.isEmpty()
                         ? Finding::error(
                               QStringLiteral("uninstall.no-receipt"),
                               Text(QT_TRANSLATE_NOOP("cudnnsetup", "No install with the id %1 was found."))
                                   .arg(id),
                               ids.join(QStringLiteral(", ")))
                     : matching.isEmpty()
                         ? Finding::error(QStringLiteral("uninstall.nothing"),
                                          Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                                 "cuDNN Setup has installed nothing here.")))
                         : Finding::error(
                               QStringLiteral("uninstall.which"),
                               Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                      "There are %1 installs; say which one to remove: %2."))
                                   .arg(QString::number(ids.size()), Text::list(ids)))});
    }
    const Receipt receipt = matching.first().first;
    const QString receiptPath = matching.first().second;

    QStringList changed;
    for (const Receipt::File &file : receipt.files) {
        const QString host = placedHostOf(context, receipt, file.path);
        const std::optional<QString> now = Sha256::ofFile(host);
        // A link must still be the link made, not a file or a link elsewhere put in its place.
        const QString link = receipt.links.value(file.path);
        const bool linkChanged =
            !link.isEmpty() && now &&
            (!QFileInfo(host).isSymLink() ||
             QFileInfo(host).symLinkTarget() !=
                 QFileInfo(QFileInfo(host).absolutePath() + QLatin1Char('/') + link).absoluteFilePath());
        if ((now && *now != file.sha256) || linkChanged)
            changed.append(file.path);
    }
    if (!changed.isEmpty()) {
        return failed(
            lock->setAside +
            Findings{Finding::error(
                QStringLiteral("uninstall.file-changed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "These files changed since cuDNN Setup installed them, so nothing is "
                                       "removed: %1"))
                    .arg(Text::list(changed)),
                receipt.id,
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "Put the files back as they were, or remove them yourself if you changed them on "
                    "purpose.")))});
    }

    const QString staging =
        QFileInfo(receiptPath).absolutePath() + QLatin1Char('/') + receipt.id + QStringLiteral("-uninstall");
    OperationContext operationContext;
    operationContext.environment = environment;
    operationContext.sessionVariable = sessionVariablesOf(context);
    operationContext.backupFolder = staging + QStringLiteral("-backup");
    operationContext.crashAt = options.crashAt;
    const QString stateFolder = QFileInfo(QFileInfo(receiptPath).absolutePath()).absolutePath();
    QStringList roots;
    for (const QString &root : StateTrust::rootsOf(receipt, context.paths()))
        roots.append(hostOf(context, root));
    Transaction transaction(receipt.id, QStringLiteral("uninstall"), folders.journal(stateFolder),
                            operationContext, roots);

    QSet<QString> folderSet;
    ChangeOutcome outcome;
    outcome.findings = lock->setAside;
    const QString ldSoConf = receipt.target ? receipt.target->ldSoConfFile() : QString();
    if (!ldSoConf.isEmpty()) {
        // ldconfig made soname links beside the libraries whose file names were not their sonames;
        // they go first, while what they point to is still there to recognise them by.
        QSet<QString> placed;
        QSet<QString> folders;
        for (const Receipt::File &file : receipt.files) {
            placed.insert(QFileInfo(placedHostOf(context, receipt, file.path)).absoluteFilePath());
            folders.insert(QFileInfo(placedHostOf(context, receipt, file.path)).absolutePath());
        }
        for (const QString &folder : std::as_const(folders)) {
            for (const QFileInfo &entry : QDir(folder).entryInfoList(QDir::Files | QDir::System |
                                                                     QDir::Hidden | QDir::NoDotAndDotDot)) {
                if (entry.isSymLink() && placed.contains(entry.symLinkTarget()) &&
                    !placed.contains(entry.absoluteFilePath()))
                    transaction.add(operations::removeFile(entry.absoluteFilePath()));
            }
        }
    }
    for (const Receipt::File &file : receipt.files) {
        const QString host = placedHostOf(context, receipt, file.path);
        if (!ldSoConf.isEmpty() && context.paths().equal(file.path, ldSoConf))
            transaction.add(operations::refreshingLibraryCache(operations::removeFile(host),
                                                               rebuildsLibraryCache(context)));
        else
            transaction.add(operations::removeFile(host));
        if (!file.replaced.isEmpty() && QFileInfo::exists(hostOf(context, file.replaced))) {
            transaction.add(operations::copyFile(hostOf(context, file.replaced), host));
            transaction.add(operations::removeFile(hostOf(context, file.replaced)));
        }
        folderSet.insert(QFileInfo(host).absolutePath());
    }
    const OsFamily family = context.family();
    for (const Receipt::EnvironmentChange &change : receipt.environment) {
        const auto scope = operations::scopeFromName(change.scope);
        if (!scope)
            continue;
        if (!change.entry.isEmpty()) {
            // A PATH the install made (the user had none of their own) goes with our entry when
            // nothing else was added to it since: never left behind empty.
            const std::optional<StoredEnvironmentValue> now = readValue(*environment, *scope, change.name);
            const PathEditor editor =
                PathEditor::forStoredPath(family, *scope, *environment, sessionVariablesOf(context));
            if (!change.before && now && editor.withoutEntry(now->text, change.entry).isEmpty())
                transaction.add(operations::setEnvironmentValue(*scope, change.name, std::nullopt));
            else
                transaction.add(operations::removePathEntry(family, *scope, change.entry));
        } else if (readValue(*environment, *scope, change.name) == change.after) {
            transaction.add(operations::setEnvironmentValue(*scope, change.name, change.before));
        } else {
            outcome.findings.append(Finding::warning(
                QStringLiteral("uninstall.variable-changed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 was changed since the install, so it is left as it is."))
                    .arg(change.name)));
        }
    }
    // The folders the install made, deepest first, each removed only if nothing else is in it.
    for (const QString &folder : receipt.folders)
        folderSet.insert(hostOf(context, folder));
    // An app folder was the program's before the install and stays its after it, empty or not.
    const bool intoProgramFolder = receipt.target && receipt.target->kind == InstallTarget::Kind::App;
    for (const QString &folder : deepestFirst(folderSet)) {
        if (receipt.folders.contains(context.files().fromHost(folder)) ||
            (receipt.folders.isEmpty() && !intoProgramFolder))
            transaction.add(operations::removeEmptyDirectory(folder));
    }
    transaction.add(operations::removeFile(receiptPath));
    const QString kept = keptFilesFolder(QFileInfo(receiptPath).absolutePath(), receipt.id);
    transaction.add(operations::removeEmptyDirectory(kept));
    transaction.add(operations::removeEmptyDirectory(QFileInfo(kept).absolutePath()));

    outcome.plan = describe(transaction);
    outcome.receipt = receipt;
    outcome.receiptPath = receiptPath;
    if (options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        return outcome;
    }
    return finished(transaction.run(options.progress, options.cancelled), outcome);
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
    OperationContext operationContext;
    operationContext.environment = environment;
    operationContext.sessionVariable = sessionVariablesOf(context);
    operationContext.backupFolder = folders.user + QStringLiteral("/") + id + QStringLiteral("-backup");
    operationContext.crashAt = options.crashAt;
    Transaction transaction(id, QStringLiteral("install"), folders.journal(folders.user), operationContext);
    QList<Receipt::EnvironmentChange> changes;
    if (target.pathScope == PathScope::User) {
        transaction.add(operations::addPathEntry(target.family, EnvironmentScope::User, target.dllFolder(),
                                                 true, options.pathFixes));
        changes.append(
            {operations::scopeName(EnvironmentScope::User), QStringLiteral("PATH"), target.dllFolder(),
             readValue(*environment, EnvironmentScope::User, QStringLiteral("PATH")), std::nullopt});
    }
    if (userVariables == EnvironmentScope::User)
        addCudnnVariables(transaction, changes, EnvironmentScope::User, target, context, *environment);
    transaction.add(operations::makeDirectory(receiptsFolder));
    auto receiptHolder = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(receiptPath, [=, &target]() {
        Receipt &receipt = *receiptHolder;
        receipt.id = id;
        receipt.partOf = machineWide.id;
        receipt.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        receipt.tool = QLatin1String(kTool);
        receipt.archive = machineWide.archive;
        receipt.target = target;
        receipt.environment = changes;
        for (Receipt::EnvironmentChange &change : receipt.environment) {
            if (change.name == QLatin1String("PATH"))
                change.after = readValue(*environment, EnvironmentScope::User, change.name);
        }
        return QJsonDocument(receipt.toJson()).toJson();
    }));
    ChangeOutcome outcome;
    outcome.findings = lock->setAside;
    outcome.plan = describe(transaction);
    outcome.receiptPath = receiptPath;
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed)
        outcome.receipt = *receiptHolder;
    return finished(result, outcome);
}

} // namespace cudnnsetup
