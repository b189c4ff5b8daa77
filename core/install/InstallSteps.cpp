#include "install/InstallSteps.h"

#include "install/ChangeSteps.h"
#include "install/PathEditor.h"
#include "install/Zlibwapi.h"
#include "platform/SecurityDescriptor.h"
#include "platform/Sha256.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace cudnnsetup::installer {

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
            transaction.add(operations::replaceInUse(staged, destination, kept));
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

Expected<void> addPathStep(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                           const InstallTarget &target, const SystemContext &context,
                           PersistentEnvironment &environment, const ChangeOptions &options,
                           Findings &findings)
{
    const std::optional<EnvironmentScope> scope = environmentScopeOf(target.pathScope);
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

} // namespace cudnnsetup::installer
