#include "install/Installer.h"

#include "install/ChangeSteps.h"
#include "install/Operations.h"
#include "install/PathEditor.h"
#include "install/StateTrust.h"
#include "platform/Sha256.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <utility>

namespace cudnnsetup {

namespace {

// The one receipt `id` names (empty: the only install a person made), or why there is none.
Expected<std::pair<Receipt, QString>> receiptToUninstall(const QString &id, const SystemContext &context)
{
    const QList<std::pair<Receipt, QString>> receipts = installedReceipts(context);
    QList<std::pair<Receipt, QString>> matching;
    for (const auto &entry : receipts) {
        // Without an id, the installs a person made: a per-user part goes with its machine-wide one.
        if ((id.isEmpty() && entry.first.partOf.isEmpty()) || entry.first.id == id)
            matching.append(entry);
    }
    if (matching.size() == 1)
        return matching.first();
    QStringList ids;
    for (const auto &entry : receipts) {
        if (entry.first.partOf.isEmpty())
            ids.append(entry.first.id);
    }
    return matching.isEmpty() && !id.isEmpty()
               ? Finding::error(
                     QStringLiteral("uninstall.no-receipt"),
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "No install with the id %1 was found.")).arg(id),
                     ids.join(QStringLiteral(", ")))
           : matching.isEmpty()
               ? Finding::error(
                     QStringLiteral("uninstall.nothing"),
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup has installed nothing here.")))
               : Finding::error(QStringLiteral("uninstall.which"),
                                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                       "There are %1 installs; say which one to remove: %2."))
                                    .arg(QString::number(ids.size()), Text::list(ids)));
}

// The refusal to uninstall when files the install placed changed since, naming them; none when
// all are as placed (or gone).
std::optional<Finding> changedFilesRefusal(const Receipt &receipt, const SystemContext &context)
{
    QStringList changed;
    for (const Receipt::File &file : receipt.files) {
        const QString host = installer::placedHostOf(context, receipt, file.path);
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
    if (changed.isEmpty())
        return std::nullopt;
    return Finding::error(
        QStringLiteral("uninstall.file-changed"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "These files changed since cuDNN Setup installed them, so nothing is "
                               "removed: %1"))
            .arg(Text::list(changed)),
        receipt.id,
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Put the files back as they were, or remove them yourself if you changed them on "
                          "purpose.")));
}

// ldconfig made soname links beside the libraries whose file names were not their sonames;
// they go first, while what they point to is still there to recognise them by.
void addSonameLinkRemovals(Transaction &transaction, const Receipt &receipt, const SystemContext &context)
{
    QSet<QString> placed;
    QSet<QString> folders;
    for (const Receipt::File &file : receipt.files) {
        placed.insert(QFileInfo(installer::placedHostOf(context, receipt, file.path)).absoluteFilePath());
        folders.insert(QFileInfo(installer::placedHostOf(context, receipt, file.path)).absolutePath());
    }
    for (const QString &folder : std::as_const(folders)) {
        for (const QFileInfo &entry :
             QDir(folder).entryInfoList(QDir::Files | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot)) {
            if (entry.isSymLink() && placed.contains(entry.symLinkTarget()) &&
                !placed.contains(entry.absoluteFilePath()))
                transaction.add(operations::removeFile(entry.absoluteFilePath()));
        }
    }
}

// Each file the install placed removed, the one it replaced put back; their folders (host paths)
// added to `folderSet`.
void addFileRemovals(Transaction &transaction, QSet<QString> &folderSet, const Receipt &receipt,
                     const QString &ldSoConf, const SystemContext &context)
{
    for (const Receipt::File &file : receipt.files) {
        const QString host = installer::placedHostOf(context, receipt, file.path);
        if (!ldSoConf.isEmpty() && context.paths().equal(file.path, ldSoConf))
            transaction.add(operations::refreshingLibraryCache(operations::removeFile(host),
                                                               installer::rebuildsLibraryCache(context)));
        else
            transaction.add(operations::removeFile(host));
        if (!file.replaced.isEmpty() && QFileInfo::exists(installer::hostOf(context, file.replaced))) {
            transaction.add(operations::copyFile(installer::hostOf(context, file.replaced), host));
            transaction.add(operations::removeFile(installer::hostOf(context, file.replaced)));
        }
        folderSet.insert(QFileInfo(host).absolutePath());
    }
}

// Our PATH entries taken out and the variables set back, unless changed since (a warning then).
void addEnvironmentRestores(Transaction &transaction, Findings &findings, const Receipt &receipt,
                            const SystemContext &context, PersistentEnvironment &environment)
{
    const OsFamily family = context.family();
    for (const Receipt::EnvironmentChange &change : receipt.environment) {
        const auto scope = operations::scopeFromName(change.scope);
        if (!scope)
            continue;
        if (!change.entry.isEmpty()) {
            // A PATH the install made (the user had none of their own) goes with our entry when
            // nothing else was added to it since: never left behind empty.
            const std::optional<StoredEnvironmentValue> now =
                installer::readValue(environment, *scope, change.name);
            const PathEditor editor =
                PathEditor::forStoredPath(family, *scope, environment, sessionVariablesOf(context));
            if (!change.before && now && editor.withoutEntry(now->text, change.entry).isEmpty())
                transaction.add(operations::setEnvironmentValue(*scope, change.name, std::nullopt));
            else
                transaction.add(operations::removePathEntry(family, *scope, change.entry));
        } else if (installer::readValue(environment, *scope, change.name) == change.after) {
            transaction.add(operations::setEnvironmentValue(*scope, change.name, change.before));
        } else {
            findings.append(Finding::warning(
                QStringLiteral("uninstall.variable-changed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 was changed since the install, so it is left as it is."))
                    .arg(change.name)));
        }
    }
}

// The folders the install made, deepest first, each removed only if nothing else is in it; then
// the receipt and its kept files' folders.
void addFolderRemovals(Transaction &transaction, QSet<QString> folderSet, const Receipt &receipt,
                       const QString &receiptPath, const SystemContext &context)
{
    for (const QString &folder : receipt.folders)
        folderSet.insert(installer::hostOf(context, folder));
    // An app folder was the program's before the install and stays its after it, empty or not.
    const bool intoProgramFolder = receipt.target && receipt.target->kind == InstallTarget::Kind::App;
    for (const QString &folder : installer::deepestFirst(folderSet)) {
        if (receipt.folders.contains(context.files().fromHost(folder)) ||
            (receipt.folders.isEmpty() && !intoProgramFolder))
            transaction.add(operations::removeEmptyDirectory(folder));
    }
    transaction.add(operations::removeFile(receiptPath));
    const QString kept = keptFilesFolder(QFileInfo(receiptPath).absolutePath(), receipt.id);
    transaction.add(operations::removeEmptyDirectory(kept));
    transaction.add(operations::removeEmptyDirectory(QFileInfo(kept).absolutePath()));
}

} // namespace

ChangeOutcome uninstall(const QString &id, const SystemContext &context,
                        std::shared_ptr<PersistentEnvironment> environment, const ChangeOptions &options)
{
    const StateFolders folders = StateFolders::of(context);
    const Elevation &elevation = context.elevation();
    const auto lock = lockForChange(folders, context, elevation);
    if (!lock)
        return lock.error();
    const Expected<std::pair<Receipt, QString>> found = receiptToUninstall(id, context);
    if (!found)
        return installer::failed(lock->setAside + Findings{found.error()});
    const Receipt receipt = found->first;
    const QString receiptPath = found->second;
    if (const std::optional<Finding> refusal = changedFilesRefusal(receipt, context))
        return installer::failed(lock->setAside + Findings{*refusal});

    const QString staging =
        QFileInfo(receiptPath).absolutePath() + QLatin1Char('/') + receipt.id + QStringLiteral("-uninstall");
    OperationContext operationContext = OperationContext::of(context, environment);
    operationContext.backupFolder = staging + QStringLiteral("-backup");
    operationContext.crashAt = options.crashAt;
    const QString stateFolder = QFileInfo(QFileInfo(receiptPath).absolutePath()).absolutePath();
    QStringList roots;
    for (const QString &root : StateTrust::rootsOf(receipt, context.paths()))
        roots.append(installer::hostOf(context, root));
    Transaction transaction(receipt.id, QStringLiteral("uninstall"), folders.journal(stateFolder),
                            operationContext, roots);

    QSet<QString> folderSet;
    ChangeOutcome outcome;
    outcome.findings = lock->setAside;
    const QString ldSoConf = receipt.target ? receipt.target->ldSoConfFile() : QString();
    if (!ldSoConf.isEmpty())
        addSonameLinkRemovals(transaction, receipt, context);
    addFileRemovals(transaction, folderSet, receipt, ldSoConf, context);
    addEnvironmentRestores(transaction, outcome.findings, receipt, context, *environment);
    addFolderRemovals(transaction, folderSet, receipt, receiptPath, context);

    outcome.plan = installer::describe(transaction);
    outcome.receipt = receipt;
    outcome.receiptPath = receiptPath;
    if (options.dryRun) {
        outcome.status = ChangeOutcome::Status::DryRun;
        return outcome;
    }
    return installer::finished(transaction.run(options.progress, options.cancelled), outcome);
}

} // namespace cudnnsetup
