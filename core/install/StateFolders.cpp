#include "install/StateFolders.h"

#include "common/Logging.h"
#include "install/StateTrust.h"
#include "platform/FileSecurity.h"
#include "platform/SecurityDescriptor.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>

namespace cudnnsetup {

namespace {

std::optional<Receipt> readReceipt(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const auto receipt = Receipt::fromJson(QJsonDocument::fromJson(file.readAll()).object());
    return receipt ? std::optional<Receipt>(*receipt) : std::nullopt;
}

// Linux, as root: the machine folder is root's, and only root may change it; others may read it
// (0755), as Windows lets Users read theirs, so that a process without root sees what root
// installed. One that others could have changed (not root's, or writable by its group or others)
// is not trusted with what is in it: it is set aside ("<folder>.untrusted-<UTC time>") and made
// anew. The failure's details when it cannot be.
std::optional<QString> prepareRootsFolder(const QString &folder, const SystemContext &context)
{
    const Expected<PosixStatus, SystemFailure> status = context.posixOwnership().statusOf(folder);
    if (!status)
        return status.error().message;
    if (status->exists && status->owner == 0 && !status->othersMayWrite())
        return std::nullopt;
    if (status->exists) {
        const QString aside = folder + QStringLiteral(".untrusted-") +
                              QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
        qCWarning(lcInstall).noquote()
            << "state folder" << folder << "could be changed by others than root (" << status->ownerShown()
            << "mode" << status->modeShown() << "); set aside as" << aside;
        if (!QDir().rename(folder, aside))
            return QStringLiteral("%1 (%2, mode %3) could not be set aside")
                .arg(folder, status->ownerShown(), status->modeShown());
    }
    const QFile::Permissions rootWritesOthersRead = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                    QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                    QFile::ExeOther;
    if (!QDir().mkpath(QFileInfo(folder).absolutePath()) || !QDir().mkdir(folder, rootWritesOthersRead))
        return QStringLiteral("mkdir failed");
    return std::nullopt;
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
        folders.machine = context.files().toHost(paths.join(programData, QStringLiteral("cuDNN Setup")));
        folders.user = localAppData.isEmpty()
                           ? folders.machine
                           : context.files().toHost(paths.join(localAppData, QStringLiteral("cuDNN Setup")));
    } else {
        folders.machine = context.files().toHost(QStringLiteral("/var/lib/cudnn-setup"));
        QString data = environment.value(QStringLiteral("XDG_DATA_HOME"));
        if (data.isEmpty() && !environment.value(QStringLiteral("HOME")).isEmpty())
            data = paths.join(environment.value(QStringLiteral("HOME")), QStringLiteral(".local/share"));
        folders.user = data.isEmpty()
                           ? folders.machine
                           : context.files().toHost(paths.join(data, QStringLiteral("cudnn-setup")));
    }
    return folders;
}

QString StateFolders::forTarget(const InstallTarget &target, const SystemContext &context,
                                const Elevation &elevation) const
{
    // What an elevated process changed on the running system, only an elevated one may undo.
    return target.needsAdmin(context) || (context.isLive() && elevation.isElevated()) ? machine : user;
}

QStringList StateFolders::trustedBy(const SystemContext &context, const Elevation &elevation) const
{
    if (context.isLive() && (elevation.isElevated() || elevation.isLocalSystem()))
        return {machine};
    return user == machine ? QStringList{machine} : QStringList{machine, user};
}

QStringList StateFolders::settledBy(const SystemContext &context, const Elevation &elevation) const
{
    if (context.isLive() && !elevation.isElevated() && !elevation.isLocalSystem())
        return user == machine ? QStringList() : QStringList{user};
    return trustedBy(context, elevation);
}

QString StateFolders::lockFile(const Elevation &elevation) const
{
    const QFileInfo machineFolder(machine);
    const bool inMachineFolder = lockScope == InstallLock::Scope::RunningSystem
                                     ? elevation.isElevated()
                                     : machineFolder.isDir() && machineFolder.isWritable();
    return (inMachineFolder ? machine : user) + QStringLiteral("/install.lock");
}

std::unique_ptr<InstallLock> StateFolders::tryLock(const SystemContext &context, const Elevation &elevation,
                                                   InstallLock::Refusal *refusal) const
{
    if (elevation.isElevated()) {
        if (const Expected<void> prepared = prepare(machine, context, elevation); !prepared)
            qCWarning(lcInstall).noquote() << prepared.error().message.toString() << prepared.error().details;
    }
    return InstallLock::tryAcquire(lockFile(elevation), elevation.accountSid(), refusal);
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
    if (folder == machine && !context.paths().isWindows() && context.posixOwnership().runsAsRoot()) {
        if (const std::optional<QString> failure = prepareRootsFolder(folder, context))
            return cannotMake(*failure);
        return {};
    }
    const FileSecurity &security = context.fileSecurity();
    // Where the system keeps owners and ACLs (Windows), whether or not this one can be read.
    const bool keepsAcls =
        folder == machine &&
        security.descriptorOf(QFileInfo(folder).absolutePath()).kind != DescriptorAnswer::Kind::NoAclSystem;
    if (info.isDir()) {
        if (!keepsAcls || !elevation.isElevated())
            return {};
        const std::optional<WriteAudit> audit =
            security.descriptorOf(folder).audit(ObjectRole::Folder, StateTrust::trustedAccounts(elevation));
        if (audit && audit->trusted())
            return {};
        // Made by an older version or by hand: what others put in it is doubted file by file.
        qCWarning(lcInstall).noquote() << "state folder" << folder << "could be changed by others ("
                                       << (audit ? audit->summary() : QStringLiteral("no descriptor"))
                                       << "); it is made the administrators' alone";
        if (const SystemResult protectedFolder = security.protect(folder, security::adminsOnlySddl());
            !protectedFolder)
            return cannotMake(protectedFolder.error().message);
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
        if (const SystemResult protectedFolder = security.protect(folder, security::adminsOnlySddl());
            !protectedFolder) {
            QDir().rmdir(folder);
            return cannotMake(protectedFolder.error().message);
        }
    }
    return {};
}

QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context, Findings *refused,
                                                     const Elevation &elevation)
{
    const StateFolders folders = StateFolders::of(context);
    QList<std::pair<Receipt, QString>> found;
    QSet<QString> seen;
    for (const QString &folder : folders.trustedBy(context, elevation)) {
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

} // namespace cudnnsetup
