#include "install/StateFolders.h"

#include "common/Logging.h"
#include "install/StateTrust.h"
#include "platform/FileSecurity.h"
#include "platform/HostInfo.h"
#include "platform/SecurityDescriptor.h"

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
    // Copies of archives taken from users' folders: root's alone, not even readable by others.
    const auto rootsCustody = [&folder]() -> std::optional<QString> {
        const QString custody = StateFolders::custody(folder);
        const QFileInfo info(custody);
        if (info.isSymLink())
            return QStringLiteral("%1 is a link").arg(custody);
        const QFile::Permissions rootAlone = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
        if (info.isDir() ? !QFile::setPermissions(custody, rootAlone) : !QDir().mkdir(custody, rootAlone))
            return QStringLiteral("%1 cannot be made root's alone").arg(custody);
        return std::nullopt;
    };
    if (status->exists && status->owner == 0 && !status->othersMayWrite())
        return rootsCustody();
    if (status->exists) {
        const QString aside = StateTrust::setAsidePath(folder);
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
    return rootsCustody();
}

const QString kLockFileName = QStringLiteral("install.lock");

bool isLinkOrJunction(const QFileInfo &entry)
{
    return entry.isSymLink() || entry.isJunction();
}

// Why the file or folder `entry` of the machine's state folder is not to be used: it is a link or
// junction (what it points at is no one's to trust), or others than the administrators (and
// `trusted`) may have changed it, or its descriptor cannot be read. nullopt when it may be used.
std::optional<QString> entryDoubt(const QFileInfo &entry, const FileSecurity &security,
                                  const QStringList &trusted)
{
    if (isLinkOrJunction(entry))
        return QStringLiteral("it is a link to %1").arg(QDir::toNativeSeparators(entry.symLinkTarget()));
    const std::optional<WriteAudit> audit =
        security.descriptorOf(entry.absoluteFilePath())
            .audit(entry.isDir() ? ObjectRole::Folder : ObjectRole::File, trusted);
    if (audit && !audit->trusted())
        return QStringLiteral("others than the administrators may change it (%1)").arg(audit->summary());
    return std::nullopt;
}

// Sets aside every file and folder in `folder`, and in the folders kept there, that is not to be
// used (entryDoubt). Bounded: only folders that administrators alone could have made are entered,
// in a folder that is theirs alone. The lock file is left alone: a running change may hold it, and
// what it holds steers nothing.
void setAsideUntrustedEntries(const QString &folder, const FileSecurity &security, const QStringList &trusted,
                              Findings &setAside)
{
    const QFileInfoList entries =
        QDir(folder).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        if (entry.fileName() == kLockFileName || StateTrust::isSetAside(entry.fileName()))
            continue;
        if (const std::optional<QString> doubt = entryDoubt(entry, security, trusted)) {
            setAside.append(StateTrust::setAsideEntry(entry.absoluteFilePath(), *doubt));
            continue;
        }
        if (entry.isDir())
            setAsideUntrustedEntries(entry.absoluteFilePath(), security, trusted, setAside);
    }
}

// Windows, elevated: the machine's state folder, and everything in it, the administrators' alone
// (StateFolders::prepare). The failure's details when it cannot be.
std::optional<QString> prepareAdministratorsFolder(const QString &folder, const SystemContext &context,
                                                   const Elevation &elevation, Findings &setAside)
{
    const FileSecurity &security = context.fileSecurity();
    const QStringList trusted = StateTrust::trustedAccounts(elevation);
    const QString sddl = security::adminsOnlySddl();
    const QFileInfo info(folder);
    if (info.exists() || isLinkOrJunction(info)) {
        if (std::optional<QString> doubt = entryDoubt(info, security, trusted)) {
            qCWarning(lcInstall).noquote()
                << "state folder" << folder << "is not the administrators' alone:" << *doubt;
            // Made by an older version or by hand: given the administrators' descriptor (what others
            // put in it is set aside below), or set aside whole where that is refused (review 2,
            // B1: a descriptor that shuts the administrators out), or it is a link.
            const SystemResult reclaimed =
                isLinkOrJunction(info) ? SystemResult() : security.protect(folder, sddl);
            if (isLinkOrJunction(info) || !reclaimed) {
                if (!reclaimed)
                    *doubt += QStringLiteral("; it cannot be made the administrators' alone: %1")
                                  .arg(reclaimed.error().message);
                setAside.append(StateTrust::setAsideEntry(folder, *doubt));
                const QFileInfo left(folder);
                if (left.exists() || isLinkOrJunction(left))
                    return QStringLiteral("%1, and it cannot be set aside").arg(*doubt);
            }
        }
    }
    if (!QFileInfo::exists(folder)) {
        if (!QDir().mkpath(info.absolutePath()))
            return QStringLiteral("mkpath %1 failed").arg(info.absolutePath());
        if (const SystemResult made = security.makeFolder(folder, sddl); !made)
            return made.error().message;
    }
    setAsideUntrustedEntries(folder, security, trusted, setAside);
    for (const QString &name : StateFolders::subfolders()) {
        const QFileInfo subfolder(folder + QLatin1Char('/') + name);
        if (subfolder.exists() || isLinkOrJunction(subfolder))
            continue;
        if (const SystemResult made = security.makeFolder(subfolder.filePath(), sddl); !made)
            return made.error().message;
    }
    // Copies of archives taken from users' folders: not even Users may read them there (a copy of a
    // file only an administrator could read must not become readable; review 2, N8).
    const QFileInfo custody(StateFolders::custody(folder));
    if (isLinkOrJunction(custody))
        return QStringLiteral("%1 is a link").arg(custody.filePath());
    if (custody.exists())
        return std::nullopt; // made so here: one someone else made was set aside above
    if (const SystemResult made =
            security.makeFolder(custody.filePath(), security::administratorsAloneSddl());
        !made)
        return made.error().message;
    return std::nullopt;
}

} // namespace

QStringList StateFolders::subfolders()
{
    return {QStringLiteral("receipts"), QStringLiteral("logs"), QStringLiteral("downloads"),
            QStringLiteral("exchange")};
}

StateFolders StateFolders::of(const SystemContext &context)
{
    const EnvironmentStore &environment = context.environment();
    const SystemPaths &paths = context.paths();
    StateFolders folders;
    folders.lockScope = context.isLive() ? InstallLock::Scope::RunningSystem : InstallLock::Scope::RootedTree;
    if (paths.isWindows()) {
        // The running system's from the system itself (an elevated process inherits its user's
        // environment); another system's tree from the environment that describes it.
        QString programData = context.isLive() ? hostinfo::programDataFolder()
                                               : environment.value(QStringLiteral("ProgramData"));
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
    return (inMachineFolder ? machine : user) + QLatin1Char('/') + kLockFileName;
}

std::unique_ptr<InstallLock> StateFolders::tryLock(const SystemContext &context, const Elevation &elevation,
                                                   LockNotes *notes) const
{
    LockNotes unasked;
    LockNotes &told = notes ? *notes : unasked;
    if (elevation.isElevated()) {
        if (const Expected<void> prepared = prepare(machine, context, elevation, &told.setAside); !prepared) {
            qCWarning(lcInstall).noquote()
                << "no lock:" << prepared.error().message.toString() << prepared.error().details;
            told.unprepared = prepared.error();
            return nullptr;
        }
    }
    return InstallLock::tryAcquire(lockFile(elevation), elevation.accountSid(), &told.held);
}

Expected<void> StateFolders::prepare(const QString &folder, const SystemContext &context,
                                     const Elevation &elevation, Findings *setAside) const
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
    const FileSecurity &security = context.fileSecurity();
    // Where the system keeps owners and ACLs (Windows), whether or not this one can be read.
    const bool keepsAcls =
        folder == machine &&
        security.descriptorOf(QFileInfo(folder).absolutePath()).kind != DescriptorAnswer::Kind::NoAclSystem;
    if (keepsAcls && elevation.isElevated()) {
        Findings setAsideHere;
        const std::optional<QString> failure =
            prepareAdministratorsFolder(folder, context, elevation, setAsideHere);
        if (setAside)
            setAside->append(setAsideHere);
        if (failure)
            return cannotMake(*failure);
        return {};
    }
    const QFileInfo info(folder);
    if (isLinkOrJunction(info))
        return cannotMake(QStringLiteral("it is a link to %1").arg(info.symLinkTarget()));
    if (folder == machine && !context.paths().isWindows() && context.posixOwnership().runsAsRoot()) {
        if (const std::optional<QString> failure = prepareRootsFolder(folder, context))
            return cannotMake(*failure);
        return {};
    }
    if (info.isDir())
        return {};
    if (keepsAcls) {
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
    return {};
}

QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context, Findings *refused)
{
    const Elevation &elevation = context.elevation();
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
