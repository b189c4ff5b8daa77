#include "install/Installer.h"

#include "common/Logging.h"
#include "install/Operations.h"
#include "install/PathEditor.h"
#include "install/StateTrust.h"
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

// Performs `inner` as a piece of the operation that is running: what the inner one would remember
// is already known to the outer one's undo, and must not take the place of what it remembered.
Expected<void> performAsPartOf(Operation &inner, OperationContext &context)
{
    const auto remember = std::exchange(context.remember, [](const QJsonObject &) {});
    Expected<void> done = inner.perform(context);
    context.remember = remember;
    return done;
}

// zlibwapi.dll beside the cuDNN DLLs when, once they are unpacked, their imports ask for it and the
// loader would find no 64-bit copy first. Decided while the transaction runs (the imports are read
// from the unpacked files, where a random access is cheap), undone like any other file.
class PlaceZlibwapi final : public Operation
{
public:
    PlaceZlibwapi(QString destination, QStringList dlls, QString dllFolder,
                  std::shared_ptr<const SystemContext> context, std::shared_ptr<bool> placed)
        : m_destination(std::move(destination))
        , m_dlls(std::move(dlls))
        , m_dllFolder(std::move(dllFolder))
        , m_context(std::move(context))
        , m_placed(std::move(placed))
    {
    }

    QString name() const override { return QStringLiteral("place-zlibwapi"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("destination"), m_destination},
                {QStringLiteral("dlls"), QJsonArray::fromStringList(m_dlls)},
                {QStringLiteral("dllFolder"), m_dllFolder}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Checking whether the DLLs need zlibwapi.dll"));
    }

    Expected<void> perform(OperationContext &context) override
    {
        QList<DllImage> images;
        for (const QString &dll : m_dlls) {
            QFile file(dll);
            images.append(DllImage::fromBuffer(
                QFileInfo(dll).fileName(), file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray()));
        }
        Findings findings;
        const QStringList importers = dllsImportingZlibwapi(images, &findings);
        const bool present = QFileInfo::exists(m_destination) ||
                             (m_context && existingZlibwapi(*m_context, m_dllFolder, &findings));
        const bool needed = !importers.isEmpty() && !present;
        if (needed && !embeddedZlibwapiAvailable())
            return zlibwapiUnavailable(importers);
        context.remember({{QStringLiteral("written"), needed}});
        if (!needed)
            return {};
        // What the write would remember is known: nothing was there to replace.
        if (Expected<void> written =
                performAsPartOf(*operations::writeFile(m_destination, embeddedZlibwapi()), context);
            !written)
            return written;
        if (m_placed)
            *m_placed = true;
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.value(QStringLiteral("written")).toBool())
            return {};
        // The file write was this operation's own: undone as that write would be.
        return operations::writeFile(m_destination, {})->undo(context, {{QStringLiteral("replaced"), false}});
    }

    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        return operations::writeFile(m_destination, {})->changedPaths(remembered);
    }

    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        QStringList dlls;
        for (const QJsonValue &dll : arguments.value(QStringLiteral("dlls")).toArray())
            dlls.append(dll.toString());
        return std::make_unique<PlaceZlibwapi>(arguments.value(QStringLiteral("destination")).toString(),
                                               dlls, arguments.value(QStringLiteral("dllFolder")).toString(),
                                               nullptr, nullptr);
    }

private:
    QString m_destination;
    QStringList m_dlls;
    QString m_dllFolder;
    std::shared_ptr<const SystemContext> m_context;
    std::shared_ptr<bool> m_placed;
};

// The new file of one in use goes beside it, and Windows swaps them at its next start
// (MoveFileEx with MOVEFILE_DELAY_UNTIL_REBOOT). Undo removes the waiting file, so the swap at
// the next start finds nothing to do.
class SwapAtRestart final : public Operation
{
public:
    SwapAtRestart(QString staged, QString destination, const FilesInUse *files)
        : m_staged(std::move(staged))
        , m_destination(std::move(destination))
        , m_files(files)
    {
    }
    QString name() const override { return QStringLiteral("swap-at-restart"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("staged"), m_staged}, {QStringLiteral("destination"), m_destination}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Replacing %1 at the next start"))
            .arg(QDir::toNativeSeparators(m_destination));
    }
    Expected<void> perform(OperationContext &context) override
    {
        context.remember({{QStringLiteral("waiting"), waiting()}});
        if (Expected<void> moved = performAsPartOf(*operations::moveIntoPlace(m_staged, waiting()), context);
            !moved)
            return moved;
        if (std::optional<QString> refused =
                (m_files ? *m_files : FilesInUse::host()).replaceAtReboot(waiting(), m_destination)) {
            return Finding::error(
                QStringLiteral("install.restart-swap-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be replaced at the next start."))
                    .arg(QDir::toNativeSeparators(m_destination)),
                *refused);
        }
        return {};
    }
    Expected<void> undo(OperationContext &, const QJsonObject &remembered) override
    {
        if (!remembered.isEmpty() && QFileInfo::exists(waiting()) && !QFileInfo::exists(m_staged)) {
            if (const std::optional<QString> error = durable::rename(waiting(), m_staged))
                return operations::fileFailure(waiting(), *error);
        }
        return {};
    }
    QStringList changedPaths(const QJsonObject &) const override
    {
        return {m_staged, waiting(), m_destination};
    }
    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        return std::make_unique<SwapAtRestart>(arguments.value(QStringLiteral("staged")).toString(),
                                               arguments.value(QStringLiteral("destination")).toString(),
                                               nullptr);
    }

private:
    QString waiting() const { return m_destination + QStringLiteral(".cudnn-setup-new"); }

    QString m_staged;
    QString m_destination;
    const FilesInUse *m_files;
};

void registerInstallerOperations()
{
    static const bool registered = [] {
        Operation::registerFactory(QStringLiteral("place-zlibwapi"), &PlaceZlibwapi::fromJson);
        Operation::registerFactory(QStringLiteral("swap-at-restart"), &SwapAtRestart::fromJson);
        return true;
    }();
    Q_UNUSED(registered)
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

std::optional<Receipt> readReceipt(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const auto receipt = Receipt::fromJson(QJsonDocument::fromJson(file.readAll()).object());
    return receipt ? std::optional<Receipt>(*receipt) : std::nullopt;
}

} // namespace

StateFolders StateFolders::of(const SystemContext &context)
{
    const EnvironmentStore &environment = context.environment();
    const SystemPaths &paths = context.paths();
    StateFolders folders;
    folders.lockScope = context.isLive() ? InstallLock::Scope::RunningSystem : InstallLock::Scope::RootedTree;
    if (paths.isWindows()) {
        QString programData = environment.value(QStringLiteral("ProgramData"));
        if (programData.isEmpty())
            programData = QStringLiteral("C:\\ProgramData");
        QString localAppData = environment.value(QStringLiteral("LOCALAPPDATA"));
        if (localAppData.isEmpty() && !environment.value(QStringLiteral("USERPROFILE")).isEmpty())
            localAppData = paths.join(environment.value(QStringLiteral("USERPROFILE")),
                                      QStringLiteral("AppData\\Local"));
        folders.machine = hostOf(context, paths.join(programData, QStringLiteral("cuDNN Setup")));
        folders.user = localAppData.isEmpty()
                           ? folders.machine
                           : hostOf(context, paths.join(localAppData, QStringLiteral("cuDNN Setup")));
    } else {
        folders.machine = hostOf(context, QStringLiteral("/var/lib/cudnn-setup"));
        QString data = environment.value(QStringLiteral("XDG_DATA_HOME"));
        if (data.isEmpty() && !environment.value(QStringLiteral("HOME")).isEmpty())
            data = paths.join(environment.value(QStringLiteral("HOME")), QStringLiteral(".local/share"));
        folders.user = data.isEmpty() ? folders.machine
                                      : hostOf(context, paths.join(data, QStringLiteral("cudnn-setup")));
    }
    return folders;
}

QString StateFolders::forTarget(const InstallTarget &target, const SystemContext &context,
                                const Elevation &elevation) const
{
    // What an elevated process changed on the running system, only an elevated one may undo.
    return target.needsAdmin(context) || (context.isLive() && elevation.isElevated()) ? machine : user;
}

QString StateFolders::lockFile() const
{
    const QFileInfo machineFolder(machine);
    return (machineFolder.isDir() && machineFolder.isWritable() ? machine : user) +
           QStringLiteral("/install.lock");
}

std::unique_ptr<InstallLock> StateFolders::tryLock(const SystemContext &context, const Elevation &elevation,
                                                   bool *shutOut) const
{
    if (elevation.isElevated()) {
        if (const Expected<void> prepared = prepare(machine, context, elevation); !prepared)
            qCWarning(lcInstall).noquote() << prepared.error().message.toString() << prepared.error().details;
    }
    return InstallLock::tryAcquire(lockFile(), lockScope, shutOut);
}

Expected<void> StateFolders::prepare(const QString &folder, const SystemContext &context,
                                     const Elevation &elevation) const
{
    const QString shown = QDir::toNativeSeparators(context.files().fromHost(folder));
    const auto cannotMake = [&](const QString &details) {
        return Finding::error(
            QStringLiteral("state.folder-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup's folder %1 cannot be made ready.")).arg(shown),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Check that the disk is not full and that %1 is a plain folder, then try "
                                   "again."))
                .arg(shown));
    };
    const QFileInfo info(folder);
    if (info.isSymLink() || info.isJunction())
        return cannotMake(QStringLiteral("it is a link to %1").arg(info.symLinkTarget()));
    const FileSecurity &security = context.fileSecurity();
    // Where the folder above has an owner and an ACL, so does everything: Windows.
    const bool keepsAcls =
        folder == machine && security.descriptorOf(QFileInfo(folder).absolutePath()).has_value();
    if (info.isDir()) {
        if (!keepsAcls || !elevation.isElevated())
            return {};
        const std::optional<SecurityDescriptor> descriptor = security.descriptorOf(folder);
        const WriteAudit audit = descriptor ? security::auditWriters(*descriptor, ObjectRole::Folder,
                                                                     StateTrust::trustedAccounts(elevation))
                                            : WriteAudit{};
        if (descriptor && audit.trusted())
            return {};
        // Made by an older version or by hand: what others put in it is doubted file by file.
        qCWarning(lcInstall).noquote() << "state folder" << folder << "could be changed by others ("
                                       << audit.summary() << "); it is made the administrators' alone";
        if (const std::optional<QString> error = security.protect(folder, security::adminsOnlySddl()))
            return cannotMake(*error);
        return {};
    }
    if (keepsAcls && !elevation.isElevated()) {
        return Finding::error(
            QStringLiteral("state.needs-administrator"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "This change is recorded in %1, which only an administrator may create."))
                .arg(shown),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Run cuDNN Setup as an administrator, or choose a target in your own "
                                   "folder with PATH for your account.")));
    }
    if (!QDir().mkpath(folder))
        return cannotMake(QStringLiteral("mkpath failed"));
    if (keepsAcls) {
        if (const std::optional<QString> error = security.protect(folder, security::adminsOnlySddl())) {
            QDir().rmdir(folder);
            return cannotMake(*error);
        }
    }
    return {};
}

ChangeOutcome ChangeOutcome::busy(bool shutOut)
{
    ChangeOutcome outcome;
    outcome.status = Status::Busy;
    if (!shutOut) {
        outcome.findings.append(Finding::error(
            QStringLiteral("install.busy"),
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "Another install, uninstall or repair of cuDNN is running.")),
            QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Wait until it has finished, then try again."))));
        return outcome;
    }
    outcome.findings.append(Finding::error(
        QStringLiteral("install.busy"),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Another account holds cuDNN Setup's lock, and this one may not even open it: a "
                          "change may be running under that account, or a program is keeping the lock "
                          "to block installs.")),
        QStringLiteral("the lock shuts this account out"),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Wait until it has finished. If it stays so after a restart of Windows, ask an "
                          "administrator to find the program that holds cuDNN-Setup-Install (Process "
                          "Explorer: Find Handle) and end it."))));
    return outcome;
}

int ChangeOutcome::exitCode() const
{
    switch (status) {
    case Status::Done:
    case Status::AlreadyDone:
    case Status::DryRun:
        return 0;
    case Status::DoneRestartNeeded:
        return 3010;
    case Status::Cancelled:
        return 1602;
    case Status::Busy:
        return 1618;
    case Status::Failed:
    case Status::Crashed:
        return 1603;
    }
    return 1603;
}

QString ChangeOutcome::statusName() const
{
    switch (status) {
    case Status::Done:
        return QStringLiteral("done");
    case Status::DoneRestartNeeded:
        return QStringLiteral("done-restart-needed");
    case Status::AlreadyDone:
        return QStringLiteral("already-done");
    case Status::DryRun:
        return QStringLiteral("dry-run");
    case Status::Cancelled:
        return QStringLiteral("cancelled");
    case Status::Failed:
        return QStringLiteral("failed");
    case Status::Busy:
        return QStringLiteral("busy");
    case Status::Crashed:
        return QStringLiteral("crashed");
    }
    return {};
}

QJsonObject ChangeOutcome::toJson() const
{
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    return {{QStringLiteral("schema"), QStringLiteral("cudnn-setup/change/1")},
            {QStringLiteral("status"), statusName()},
            {QStringLiteral("exitCode"), exitCode()},
            {QStringLiteral("receipt"), receipt ? QJsonValue(receipt->toJson()) : QJsonValue()},
            {QStringLiteral("receiptPath"), receiptPath.isEmpty() ? QJsonValue() : QJsonValue(receiptPath)},
            {QStringLiteral("plan"), QJsonArray::fromStringList(plan)},
            {QStringLiteral("findings"), findingArray}};
}

QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context, Findings *refused,
                                                     const Elevation &elevation)
{
    const StateFolders folders = StateFolders::of(context);
    QList<std::pair<Receipt, QString>> found;
    QSet<QString> seen;
    for (const QString &folder : {folders.machine, folders.user}) {
        const StateTrust trust(context, folder, elevation);
        const QDir receipts(folders.receipts(folder));
        for (const QFileInfo &info :
             receipts.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            if (seen.contains(info.absoluteFilePath()))
                continue;
            seen.insert(info.absoluteFilePath());
            const std::optional<Receipt> receipt = readReceipt(info.absoluteFilePath());
            if (!receipt)
                continue;
            if (const std::optional<QString> doubt = trust.receiptDoubt(info.absoluteFilePath(), *receipt)) {
                const Finding finding = StateTrust::setAsideReceipt(info.absoluteFilePath(), *doubt);
                if (refused)
                    refused->append(finding);
                continue;
            }
            found.append({*receipt, info.absoluteFilePath()});
        }
    }
    return found;
}

Findings recoverUnfinished(const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                           const Elevation &elevation)
{
    registerInstallerOperations();
    const StateFolders folders = StateFolders::of(context);
    // Nothing to settle: no lock is taken, so a query (doctor, the wizard's start) leaves no state
    // folder behind on a machine where nothing was ever installed.
    if (!QFileInfo::exists(folders.journal(folders.machine)) &&
        !QFileInfo::exists(folders.journal(folders.user)))
        return {};
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation);
    if (!lock)
        return {}; // a running install holds it: its journal is not unfinished
    Findings findings;
    QStringList stateFolders{folders.machine, folders.user};
    stateFolders.removeDuplicates(); // one folder where the user has none of their own
    for (const QString &folder : std::as_const(stateFolders)) {
        const QString journal = folders.journal(folder);
        if (!QFileInfo::exists(journal))
            continue;
        OperationContext operationContext;
        operationContext.environment = environment;
        const auto contents = Journal::read(journal);
        if (!contents) {
            findings.append(contents.error());
            continue;
        }
        // A journal written elevated is replayed elevated, one written by the user's own process
        // by that process: neither may act for the other.
        if (contents->header.value(QStringLiteral("elevated")).toBool() != elevation.isElevated()) {
            qCInfo(lcInstall).noquote()
                << "journal" << journal << "left for a process at the level that wrote it";
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

ChangeOutcome install(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
                      const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                      const ChangeOptions &options)
{
    registerInstallerOperations();
    if (archive.verdict != ArchiveReport::Verdict::Ok) {
        return failed({Finding::error(
            QStringLiteral("install.archive-refused"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive %1 did not pass its check, so nothing is installed."))
                .arg(QDir::toNativeSeparators(archivePath)),
            archive.verdictName(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run \"cudnnctl inspect\" on it to see why.")))});
    }
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = options.elevation ? *options.elevation : Elevation::host();
    bool shutOut = false;
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation, &shutOut);
    if (!lock)
        return ChangeOutcome::busy(shutOut);
    Findings findings = checkTarget(target, archive, context);
    // SYSTEM's own user PATH belongs to no person: an unattended deployment must say --path system.
    if (target.pathScope == PathScope::User && elevation.isLocalSystem())
        findings.append(Elevation::userTargetAsSystem());
    if (hasErrors(findings))
        return failed(findings);
    const QList<PlannedFile> planned = placeFiles(archive, target);

    // Files to be replaced that running programs hold: named, and either the install stops or the
    // swap waits for the next start.
    QStringList existing;
    for (const PlannedFile &file : planned) {
        if (QFileInfo::exists(hostOf(context, file.destination)))
            existing.append(hostOf(context, file.destination));
    }
    QSet<QString> inUse;
    if (!existing.isEmpty() && !options.dryRun) {
        const FilesInUse &files = options.filesInUse ? *options.filesInUse : FilesInUse::host();
        const auto holders = files.processesUsing(existing);
        if (holders && !holders->isEmpty()) {
            QStringList names;
            for (const ProcessUsingFile &process : *holders)
                names.append(QStringLiteral("%1 (%2)").arg(process.name).arg(process.pid));
            names.removeDuplicates();
            if (!options.replaceInUseAtReboot) {
                return failed(findings +
                              Findings{Finding::error(
                                  QStringLiteral("install.files-in-use"),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                         "cuDNN files that would be replaced are in use by: "
                                                         "%1."))
                                      .arg(names.join(QStringLiteral(", "))),
                                  existing.join(QStringLiteral(", ")),
                                  Text(QT_TRANSLATE_NOOP(
                                      "cudnnsetup", "Close these programs and try again, or let the files "
                                                    "be replaced at the next start of Windows.")))});
            }
            for (const QString &path : existing) {
                // Which of them are held: the ones the system will not let go of now.
                const auto one = files.processesUsing({path});
                if (one && !one->isEmpty())
                    inUse.insert(path);
            }
            findings.append(Finding::warning(
                QStringLiteral("install.replaced-at-restart"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 are in use; the cuDNN files they hold are replaced when "
                                       "Windows starts next."))
                    .arg(names.join(QStringLiteral(", ")))));
        }
    }

    // The same archive already there, intact: nothing to do.
    for (const auto &[receipt, path] : installedReceipts(context, nullptr, elevation)) {
        if (receipt.archive.value(QStringLiteral("sha256")).toString() != archive.sha256 ||
            receipt.target.value(QStringLiteral("kind")).toString() != target.kindName() ||
            context.paths()
                    .normalize(receipt.target.value(QStringLiteral("root")).toString())
                    .compare(context.paths().normalize(target.root), context.paths().caseSensitivity()) != 0)
            continue;
        const bool intact =
            std::all_of(receipt.files.cbegin(), receipt.files.cend(), [&](const Receipt::File &file) {
                return Sha256::ofFile(hostOf(context, file.path)) == file.sha256;
            });
        if (!intact)
            continue;
        ChangeOutcome outcome;
        outcome.status = ChangeOutcome::Status::AlreadyDone;
        outcome.receipt = receipt;
        outcome.receiptPath = path;
        outcome.findings = findings;
        return outcome;
    }

    const QString stateFolder = folders.forTarget(target, context, elevation);
    if (const Expected<void> prepared =
            options.dryRun ? Expected<void>() : folders.prepare(stateFolder, context, elevation);
        !prepared)
        return failed(findings + Findings{prepared.error()});
    const QString id =
        QStringLiteral("cudnn-%1-cuda%2-%3")
            .arg(archive.cudnn.toString(),
                 archive.cudaVariant.isEmpty() ? QStringLiteral("x") : archive.cudaVariant,
                 QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    const QString receiptsFolder = folders.receipts(stateFolder);
    const QString receiptPath = receiptsFolder + QLatin1Char('/') + id + QStringLiteral(".json");
    const QString keptFolder = receiptsFolder + QLatin1Char('/') + id;
    const QString staging = hostOf(context, target.stagingFolder());
    if (QFileInfo::exists(staging) && !options.dryRun)
        durable::discardTree(staging); // ours by its name: what a crash during unpacking left

    OperationContext operationContext;
    operationContext.environment = environment;
    operationContext.backupFolder = staging + QStringLiteral("-backup");
    operationContext.fileSecurity = &context.fileSecurity();
    operationContext.crashAt = options.crashAt;
    operationContext.bytesProgress = options.bytesProgress;
    QStringList roots{hostOf(context, target.root)};
    if (!target.pthFile().isEmpty())
        roots.append(hostOf(context, target.pthFile()));
    Transaction transaction(id, QStringLiteral("install"), folders.journal(stateFolder), operationContext,
                            roots);

    // A folder on the system PATH is the administrators' alone (checkTarget refused one that is not).
    const bool onSystemPath = target.pathScope == PathScope::System && target.family == OsFamily::Windows;
    transaction.add(operations::makeDirectory(hostOf(context, target.root),
                                              onSystemPath ? security::adminsOnlySddl() : QString()));
    QList<ArchiveFile> toUnpack;
    for (const PlannedFile &file : planned) {
        for (const ArchiveFile &archiveFile : archive.files) {
            if (archiveFile.entry == file.entry)
                toUnpack.append(archiveFile);
        }
    }
    auto extraction = std::make_shared<Extraction>();
    transaction.add(operations::unpackArchive(archivePath, toUnpack, staging, extraction));

    QSet<QString> folderSet;
    QSet<QString> created; // the inspected system's folders this install makes, for the receipt
    const auto noteMissing = [&](const QString &folder) {
        for (QString up = folder; !up.isEmpty() && !QFileInfo::exists(hostOf(context, up));) {
            created.insert(up);
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

    struct Placed
    {
        QString destination; // inspected system's path
        QString kept;        // host path of the replaced file's keeping place, or empty
    };
    QList<Placed> placed;
    QStringList placedDlls;
    for (const PlannedFile &file : planned) {
        const QString destination = hostOf(context, file.destination);
        const QString staged = staging + QLatin1Char('/') + file.archivePath;
        const QString kept = QFileInfo::exists(destination)
                                 ? keptFolder + QStringLiteral("/replaced/") +
                                       QString::number(placed.size()) + QLatin1Char('-') +
                                       QFileInfo(destination).fileName()
                                 : QString();
        if (inUse.contains(destination)) {
            transaction.add(std::make_unique<SwapAtRestart>(
                staged, destination, options.filesInUse ? options.filesInUse : &FilesInUse::host()));
        } else {
            transaction.add(operations::moveIntoPlace(staged, destination, kept));
        }
        placed.append({file.destination, kept});
        if (file.archivePath.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive))
            placedDlls.append(destination); // read there: the step runs after they were moved
    }

    auto zlibwapiPlaced = std::make_shared<bool>(false);
    const QString zlibwapi = context.paths().join(target.dllFolder(), QLatin1String(kZlibwapiName));
    if (target.family == OsFamily::Windows && !placedDlls.isEmpty()) {
        transaction.add(
            std::make_unique<PlaceZlibwapi>(hostOf(context, zlibwapi), placedDlls, target.dllFolder(),
                                            std::make_shared<SystemContext>(context), zlibwapiPlaced));
    }
    QByteArray pth;
    if (target.kind == InstallTarget::Kind::Venv) {
        pth = venvPthContent(target.dllFolder());
        transaction.add(operations::writeFile(hostOf(context, target.pthFile()), pth));
    }

    QList<Receipt::EnvironmentChange> changes;
    const auto pathScope = target.pathScope == PathScope::User     ? std::optional(EnvironmentScope::User)
                           : target.pathScope == PathScope::System ? std::optional(EnvironmentScope::Machine)
                                                                   : std::nullopt;
    if (pathScope) {
        // Long PATHs are worth a word (some tools cut them at 2,047 characters); one beyond what an
        // environment variable holds stops the install before it starts.
        const std::optional<StoredEnvironmentValue> current =
            readValue(*environment, *pathScope, QStringLiteral("PATH"));
        const PathEditor editor(target.family);
        const auto longer = editor.edited(current ? current->text : QString(), target.dllFolder(),
                                          PathEditor::Position::Front, options.pathFixes);
        if (!longer)
            return failed(findings + Findings{longer.error()});
        findings += editor.lengthWarnings(*longer);
        if (hasErrors(findings))
            return failed(findings);
        transaction.add(
            operations::addPathEntry(target.family, *pathScope, target.dllFolder(), true, options.pathFixes));
        changes.append({operations::scopeName(*pathScope), QStringLiteral("PATH"), target.dllFolder(),
                        readValue(*environment, *pathScope, QStringLiteral("PATH")), std::nullopt});
    }
    if (options.cudnnVariables)
        addCudnnVariables(transaction, changes, *options.cudnnVariables, target, context, *environment);

    transaction.add(operations::makeDirectory(receiptsFolder));
    auto receiptHolder = std::make_shared<Receipt>();
    transaction.add(operations::writeFileMadeLater(receiptPath, [=, &context, &archive, &target]() {
        Receipt &receipt = *receiptHolder;
        receipt.id = id;
        receipt.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        receipt.tool = QLatin1String(kTool);
        receipt.archive = {{QStringLiteral("path"), QDir::toNativeSeparators(archivePath)},
                           {QStringLiteral("fileName"), QFileInfo(archivePath).fileName()},
                           {QStringLiteral("sha256"), archive.sha256},
                           {QStringLiteral("official"), archive.officialName()},
                           {QStringLiteral("cudnn"), archive.cudnn.toString()},
                           {QStringLiteral("cudaVariant"), archive.cudaVariant}};
        receipt.target = target.toJson();
        for (int i = 0; i < placed.size() && i < extraction->files.size(); ++i) {
            receipt.files.append(
                {placed.at(i).destination, extraction->files.at(i).sha256, extraction->files.at(i).size,
                 placed.at(i).kept.isEmpty() ? QString() : context.files().fromHost(placed.at(i).kept)});
        }
        if (*zlibwapiPlaced)
            receipt.files.append(
                {zlibwapi, embeddedZlibwapiSha256(), qint64(embeddedZlibwapi().size()), QString()});
        if (!pth.isEmpty())
            receipt.files.append({target.pthFile(), Sha256::of(pth), qint64(pth.size()), QString()});
        receipt.folders = deepestFirst(created);
        receipt.environment = changes;
        for (Receipt::EnvironmentChange &change : receipt.environment) {
            if (change.name == QLatin1String("PATH"))
                change.after = readValue(*environment, *operations::scopeFromName(change.scope), change.name);
        }
        return QJsonDocument(receipt.toJson()).toJson();
    }));

    ChangeOutcome outcome;
    outcome.plan = describe(transaction);
    outcome.findings = findings;
    outcome.receiptPath = receiptPath;
    if (options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        outcome.receiptPath.clear();
        return outcome;
    }
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed)
        outcome.receipt = *receiptHolder;
    else
        outcome.receiptPath.clear();
    outcome = finished(result, outcome);
    if (outcome.status == ChangeOutcome::Status::Done && !inUse.isEmpty())
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    // As SYSTEM (a deployment tool, in session 0) the notice of the change reaches no one's desktop:
    // Explorer, and all it starts, keep the old environment until the next sign-in.
    if (outcome.status == ChangeOutcome::Status::Done && elevation.isLocalSystem() && !changes.isEmpty()) {
        outcome.findings.append(Finding::warning(
            QStringLiteral("install.takes-effect-after-sign-in"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "PATH and the variables were changed by the system account, whose notice "
                                   "reaches no one's desktop: programs see the change once their user signs "
                                   "out and in again, or after a restart.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Restart the PC, or have each user sign out and in again."))));
        outcome.status = ChangeOutcome::Status::DoneRestartNeeded;
    }
    return outcome;
}

ChangeOutcome uninstall(const QString &id, const SystemContext &context,
                        std::shared_ptr<PersistentEnvironment> environment, const ChangeOptions &options)
{
    registerInstallerOperations();
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = options.elevation ? *options.elevation : Elevation::host();
    bool shutOut = false;
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation, &shutOut);
    if (!lock)
        return ChangeOutcome::busy(shutOut);
    const QList<std::pair<Receipt, QString>> receipts = installedReceipts(context, nullptr, elevation);
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
            {matching.isEmpty() && !id.isEmpty()
                 ? Finding::error(
                       QStringLiteral("uninstall.no-receipt"),
                       Text(QT_TRANSLATE_NOOP("cudnnsetup", "No install with the id %1 was found.")).arg(id),
                       ids.join(QStringLiteral(", ")))
             : matching.isEmpty()
                 ? Finding::error(
                       QStringLiteral("uninstall.nothing"),
                       Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup has installed nothing here.")))
                 : Finding::error(
                       QStringLiteral("uninstall.which"),
                       Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                              "There are %1 installs; say which one to remove: %2."))
                           .arg(QString::number(ids.size()), ids.join(QStringLiteral(", "))))});
    }
    const Receipt receipt = matching.first().first;
    const QString receiptPath = matching.first().second;

    QStringList changed;
    for (const Receipt::File &file : receipt.files) {
        const std::optional<QString> now = Sha256::ofFile(hostOf(context, file.path));
        if (now && *now != file.sha256)
            changed.append(file.path);
    }
    if (!changed.isEmpty()) {
        return failed({Finding::error(
            QStringLiteral("uninstall.file-changed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "These files changed since cuDNN Setup installed them, so nothing is "
                                   "removed: %1"))
                .arg(changed.join(QStringLiteral(", "))),
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
    for (const Receipt::File &file : receipt.files) {
        const QString host = hostOf(context, file.path);
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
    for (const QString &folder : deepestFirst(folderSet)) {
        if (receipt.folders.contains(context.files().fromHost(folder)) || receipt.folders.isEmpty())
            transaction.add(operations::removeEmptyDirectory(folder));
    }
    transaction.add(operations::removeFile(receiptPath));
    const QString kept = QFileInfo(receiptPath).absolutePath() + QLatin1Char('/') + receipt.id;
    transaction.add(operations::removeEmptyDirectory(kept + QStringLiteral("/replaced")));
    transaction.add(operations::removeEmptyDirectory(kept));

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
    registerInstallerOperations();
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = options.elevation ? *options.elevation : Elevation::host();
    bool shutOut = false;
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation, &shutOut);
    if (!lock)
        return ChangeOutcome::busy(shutOut);
    const QString id = machineWide.id + QStringLiteral("-user");
    const QString receiptsFolder = folders.receipts(folders.user);
    const QString receiptPath = receiptsFolder + QLatin1Char('/') + id + QStringLiteral(".json");
    OperationContext operationContext;
    operationContext.environment = environment;
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
        receipt.target = target.toJson();
        receipt.environment = changes;
        for (Receipt::EnvironmentChange &change : receipt.environment) {
            if (change.name == QLatin1String("PATH"))
                change.after = readValue(*environment, EnvironmentScope::User, change.name);
        }
        return QJsonDocument(receipt.toJson()).toJson();
    }));
    ChangeOutcome outcome;
    outcome.plan = describe(transaction);
    outcome.receiptPath = receiptPath;
    const Transaction::Result result = transaction.run(options.progress, options.cancelled);
    if (result.outcome == Transaction::Outcome::Committed)
        outcome.receipt = *receiptHolder;
    return finished(result, outcome);
}

} // namespace cudnnsetup
