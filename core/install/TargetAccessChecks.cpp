// Who may write into the target and change it, and where what is written lands: write tests, links
// that lead out, folders only root (Linux) or the administrators (Windows, on PATH) may change.
#include "install/TargetChecks.h"

#include "common/Finding.h"
#include "common/Logging.h"
#include "common/Text.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetCheckFamilies.h"
#include "platform/Elevation.h"
#include "platform/FileSecurity.h"
#include "platform/PosixOwnership.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace cudnnsetup {

namespace {

// The nearest existing path at or above `path` on the inspected system; empty when none is.
QString nearestExistingSystemPath(const FileSystem &files, const QString &path)
{
    QString current = files.paths().normalize(path);
    while (!current.isEmpty()) {
        if (files.exists(current))
            return current;
        current = files.paths().parent(current);
    }
    return {};
}

// A folder that is not root's alone, and why (the inspected system's path).
struct NotRootOnly
{
    QString folder;
    Text why;
    QString details;
};

// Why `shown` (at `host`) is not root's alone; nullopt when it is, or does not exist. In a sticky
// folder where `stickyWillDo`, others may add their own names but not rename root's.
std::optional<NotRootOnly> notRootOnly(const PosixOwnership &ownership, const QString &shown,
                                       const QString &host, bool stickyWillDo)
{
    const Expected<PosixStatus, SystemFailure> status = ownership.statusOf(host);
    if (!status) {
        return NotRootOnly{shown, Text(QT_TRANSLATE_NOOP("cudnnsetup", "its owner and mode cannot be read")),
                           status.error().message};
    }
    if (!status->exists)
        return std::nullopt;
    if (status->isLink) {
        const QString leadsTo = QFileInfo(host).symLinkTarget();
        return NotRootOnly{shown, Text(QT_TRANSLATE_NOOP("cudnnsetup", "a symbolic link to %1")).arg(leadsTo),
                           QStringLiteral("%1 -> %2").arg(host, leadsTo)};
    }
    const bool sticky = (status->mode & 01000) != 0;
    if (status->owner != 0 || (status->othersMayWrite() && !(sticky && stickyWillDo))) {
        return NotRootOnly{
            shown,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "owner %1, mode %2"))
                .arg(status->ownerShown(), status->modeShown()),
            QStringLiteral("%1: uid %2, mode %3").arg(host).arg(status->owner).arg(status->modeShown())};
    }
    return std::nullopt;
}

// The first of `folder` and the folders above it up to "/" that someone besides root may change:
// one not owned by root, one its group or others may write (a sticky one like /tmp too: what is
// made there goes at its next cleaning, and anyone may make it again), or a symbolic link (what it
// leads to is not judged: the walk follows nothing, so a folder's host path is its path under the
// tree's root as written, not FileSystem::toHost's, which resolves the tree's links). A folder not
// made yet is judged by the nearest one that is. Owners and modes that cannot be read are not
// root's alone. Under --system-root the tree's own folders up to its root (its "/") are judged so,
// as its system will see them; the host's folders above the tree are not that system's, but root's
// writes go through them: they must be root's and not links, and a sticky one (/tmp) will do.
std::optional<NotRootOnly> firstNotRootOnly(const SystemContext &context, const QString &folder)
{
    const SystemPaths &paths = context.paths();
    const PosixOwnership &ownership = context.posixOwnership();
    const QString treeRoot = context.files().root();
    for (QString current = paths.normalize(folder); !current.isEmpty(); current = paths.parent(current)) {
        const QString host = treeRoot.isEmpty()              ? current
                             : current == QLatin1String("/") ? treeRoot
                                                             : treeRoot + current;
        if (auto unsafe = notRootOnly(ownership, current, host, false))
            return unsafe;
    }
    if (treeRoot.isEmpty())
        return std::nullopt;
    for (QString host = QFileInfo(treeRoot).absolutePath();; host = QFileInfo(host).absolutePath()) {
        if (auto unsafe = notRootOnly(ownership, host, host, true))
            return unsafe;
        if (QFileInfo(host).isRoot())
            break;
    }
    return std::nullopt;
}

} // namespace

namespace targetchecks {

// A symbolic link or junction inside the target, on the way to a folder the install writes, that
// leads out of it: files placed through it would land elsewhere. One that stays inside (a Linux
// toolkit's lib64 -> targets/x86_64-linux/lib) is fine; one that leads nowhere is not.
void checkLinksInside(const InstallTarget &target, const QStringList &folders, const SystemContext &context,
                      Findings &findings)
{
    const FileSystem &files = context.files();
    const QString root = QDir::cleanPath(files.toHost(target.root));
    if (root.isEmpty() || !QFileInfo(root).isDir())
        return;
    const Qt::CaseSensitivity sensitivity =
        target.family == OsFamily::Windows ? Qt::CaseInsensitive : Qt::CaseSensitive;
    const QString realRoot = QFileInfo(root).canonicalFilePath();
    const auto inside = [&](const QString &path) {
        return !path.isEmpty() && (path.compare(realRoot, sensitivity) == 0 ||
                                   path.startsWith(realRoot + QLatin1Char('/'), sensitivity));
    };
    QSet<QString> reported;
    for (const QString &folder : folders + QStringList{target.stagingFolder()}) {
        const QString relative = QDir(root).relativeFilePath(QDir::cleanPath(files.toHost(folder)));
        if (relative.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(relative))
            continue;
        QString at = root;
        for (const QString &component : relative.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
            at += QLatin1Char('/') + component;
            const QFileInfo info(at);
            if (!info.isSymLink() && !info.isJunction()) {
                if (!info.exists())
                    break;
                continue;
            }
            const QString leadsTo = info.canonicalFilePath();
            if (!inside(leadsTo) && !reported.contains(at)) {
                reported.insert(at);
                findings.append(Finding::error(
                    QStringLiteral("target.link-outside"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 inside the target is a link to %2: the files "
                                           "installed through it would land outside the target."))
                        .arg(QDir::toNativeSeparators(files.fromHost(at)),
                             leadsTo.isEmpty() ? info.symLinkTarget() : QDir::toNativeSeparators(leadsTo)),
                    QStringLiteral("%1 -> %2").arg(at, info.symLinkTarget()),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "Remove the link (what it leads to stays as it is), or "
                                           "choose another folder."))));
            }
            break;
        }
    }
}

// The folders must take new files and the files an install replaces must be its to replace: a
// folder where users may add files but not remove an administrator's (ProgramData's) passes the
// first test and fails the second.
void checkWritable(const InstallTarget &target, const QStringList &folders, const QList<PlannedFile> &planned,
                   const SystemContext &context, const Volumes &volumes, Findings &findings)
{
    const FileSystem &files = context.files();
    QStringList tried;
    QStringList failures;
    std::optional<WriteProbe> firstFailure;
    QString failedFolder;
    for (const QString &folder : folders) {
        const QString existing = nearestExistingSystemPath(files, folder);
        const QString host = files.toHost(existing.isEmpty() ? folder : existing);
        if (host.isEmpty() || tried.contains(host))
            continue;
        tried.append(host);
        const WriteProbe probe = volumes.tryWrite(host);
        qCInfo(lcInstall) << "write test for" << folder << "in" << host << (probe.ok ? "ok" : "failed")
                          << probe.error;
        if (probe.ok)
            continue;
        failures.append(QStringLiteral("%1: %2").arg(host, probe.error));
        if (!firstFailure) {
            firstFailure = probe;
            failedFolder = existing.isEmpty() ? folder : existing;
        }
    }
    for (const PlannedFile &file : planned) {
        const QString host = files.toHost(file.destination);
        if (host.isEmpty() || !QFileInfo(host).isFile())
            continue;
        const WriteProbe probe = volumes.tryReplace(host);
        if (probe.ok)
            continue;
        qCInfo(lcInstall) << "replace test for" << file.destination << "failed" << probe.error;
        failures.append(QStringLiteral("%1: %2").arg(host, probe.error));
        if (!firstFailure) {
            firstFailure = probe;
            failedFolder = file.destination;
        }
    }
    if (!firstFailure)
        return;
    const QString details =
        failures.join(QStringLiteral("; ")) +
        QStringLiteral(" (access denied %1, elevated %2)")
            .arg(firstFailure->accessDenied ? QStringLiteral("yes") : QStringLiteral("no"),
                 firstFailure->elevated ? QStringLiteral("yes") : QStringLiteral("no"));
    if (firstFailure->adminWouldHelp()) {
        // Its own id: a run that can ask Windows for administrator rights goes on with it.
        findings.append(Finding::error(
            QStringLiteral("target.needs-admin"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Writing to %1 was refused; administrator rights would allow it."))
                .arg(failedFolder),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Let the setup run as administrator, or choose a folder you can "
                                   "write to, such as the per-user folder."))));
        return;
    }
    const Text reason =
        firstFailure->notAFolder
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a file, not a folder")).arg(failedFolder)
            : Text::verbatim(firstFailure->error);
    findings.append(Finding::error(
        QStringLiteral("target.not-writable"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 cannot be written (%2); administrator rights would not help."))
            .arg(Text::verbatim(target.root), reason),
        details, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose another folder."))));
}

// Linux: the folder the loader's configuration names (--path system) is searched by every program,
// root's and setuid ones too, so whoever may change it or a folder above it runs code as root; and
// what root writes into such a folder, its owner may swap, or lead elsewhere through a link. So a
// target named for the loader, or any target of a process that runs as root, must be root's alone
// from its folders up to "/" (firstNotRootOnly). The loader's configuration has one folder a line
// and "#" starts a comment, so a path with a control character or "#" is refused. False when the
// target is refused: nothing is written into it then, not even a test file.
bool checkRootOnlyFolders(const InstallTarget &target, const QStringList &folders,
                          const SystemContext &context, Findings &findings)
{
    if (target.family != OsFamily::Linux)
        return true;
    const bool registered = target.pathScope == PathScope::System;
    const bool asRoot = context.posixOwnership().runsAsRoot();
    if (!registered && !asRoot)
        return true;
    const QString dllFolder = target.dllFolder();
    if (registered) {
        const auto unfit = std::find_if(dllFolder.cbegin(), dllFolder.cend(), [](QChar c) {
            return c.category() == QChar::Other_Control || c == QLatin1Char('#');
        });
        if (unfit != dllFolder.cend()) {
            findings.append(Finding::error(
                QStringLiteral("target.unsafe-name-linux"),
                Text(
                    QT_TRANSLATE_NOOP("cudnnsetup",
                                      "The folder %1 has %2 in its path, which the loader's configuration "
                                      "cannot hold: it takes one folder a line, and \"#\" starts a comment."))
                    .arg(controlsEscaped(dllFolder), describeCharacter(*unfit)),
                controlsEscaped(dllFolder),
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup", "Choose a folder whose path has no control characters and no \"#\"."))));
            return false;
        }
    }
    for (const QString &folder : folders) {
        const std::optional<NotRootOnly> unsafe = firstNotRootOnly(context, folder);
        if (!unsafe)
            continue;
        const Text message =
            registered
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "%1 would be named in the loader's configuration, but %2 can be "
                                         "changed by others than root (%3): any library put there would be "
                                         "loaded by programs of every user, root's too."))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "cuDNN Setup runs as root and would write into %1, but %2 can be "
                                         "changed by others than root (%3): they could swap what root writes "
                                         "there, or lead it elsewhere through a link."));
        findings.append(Finding::error(
            QStringLiteral("target.unsafe-owner-linux"),
            message.arg(controlsEscaped(folder), controlsEscaped(unsafe->folder), unsafe->why),
            unsafe->details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Choose a folder that root owns and only root may change, with every "
                                   "folder above it the same, such as /opt/cudnn; for a folder of your own, "
                                   "install without root and without --path system."))));
        return false;
    }
    return true;
}

} // namespace targetchecks

// A folder on the system PATH is searched by every program of every user, services too: if anyone
// but the administrators may put a DLL into it (or swap it or a folder above it), they can run code
// in those programs. The folder cuDNN Setup creates gets a protected DACL; an existing one is checked.
void checkSystemPathFolder(const InstallTarget &target, const SystemContext &context, Findings &findings)
{
    if (target.family != OsFamily::Windows || target.pathScope == PathScope::None)
        return;
    // On the user's own PATH, that user may change the folder too; whoever else may put a DLL there
    // (Authenticated Users, on a folder made at the top of C:) chooses what their programs load.
    const bool userPath = target.pathScope == PathScope::User;
    const std::optional<WritableFolder> writable =
        firstWritableFolder(context, target.dllFolder(),
                            userPath ? QStringList{context.elevation().accountSid()} : QStringList());
    if (!writable)
        return;
    const Text message =
        userPath
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "%1 would go on your PATH, but %2 can be changed by others (%3): "
                                     "whatever DLL they put there, your programs would load."))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "%1 would go on the system PATH, but %2 can be changed by others than "
                                     "the administrators (%3): whatever DLL they put there, every program "
                                     "of every user would load."));
    const Text fix =
        userPath
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "Install into a folder for you only (the default, in your profile), "
                                     "or into a folder under Program Files for the system PATH."))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "Install into a folder under Program Files (the default), or into a "
                                     "folder for you only on your own PATH (--target user --path user)."));
    findings.append(Finding::error(
        userPath ? QStringLiteral("target.writable-user-path")
                 : QStringLiteral("target.writable-system-path"),
        message.arg(target.dllFolder(), writable->folder, Text::list(writable->audit.whoMayChange())),
        writable->audit.summary(), fix));
}

} // namespace cudnnsetup
