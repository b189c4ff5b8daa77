#include "install/TargetChecks.h"

#include "archive/Extractor.h"
#include "common/Logging.h"
#include "common/Sizes.h"
#include "install/FilePlacement.h"
#include "install/Receipt.h"
#include "install/TargetPaths.h"
#include "platform/Elevation.h"

#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace {

// MAX_PATH counts the terminating null: the longest path a program limited by it can open has 259
// characters.
constexpr int kMaxPath = 260;

// An existing folder with more files than this is not looked through further: it is not ours.
constexpr int kMaxListedFiles = 5000;

// Whether `root` still holds a CUDA toolkit (the marks CudaToolkitProbe recognises one by).
bool isToolkit(const InstallTarget &target, const FileSystem &files)
{
    const SystemPaths &paths = files.paths();
    if (!files.isDir(target.root))
        return false;
    const bool windows = paths.isWindows();
    const QString nvcc = windows ? QStringLiteral("bin\\nvcc.exe") : QStringLiteral("bin/nvcc");
    const QString cudart = windows ? QStringLiteral("cudart64_*.dll") : QStringLiteral("libcudart.so*");
    return files.isFile(paths.join(target.root, QStringLiteral("version.json"))) ||
           files.isFile(paths.join(target.root, QStringLiteral("version.txt"))) ||
           files.isFile(paths.join(target.root, nvcc)) ||
           !files.entries(target.dllFolder(), {cudart}, FileSystem::Files).isEmpty();
}

// The components of `root` below its drive or share, as written (no trimming: Windows strips a
// trailing dot or space, so such a name must be seen).
QStringList nameComponents(const SystemPaths &paths, const QString &root)
{
    QString p = root;
    if (paths.isWindows())
        p.replace(QLatin1Char('/'), QLatin1Char('\\'));
    const QChar separator = paths.isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    QStringList parts = p.split(separator, Qt::SkipEmptyParts);
    if (paths.isWindows()) {
        if (p.startsWith(QLatin1String("\\\\")))
            parts = parts.mid(2); // server and share
        else if (!parts.isEmpty() && parts.first().size() == 2 && parts.first().at(1) == QLatin1Char(':'))
            parts.removeFirst();
    }
    parts.removeAll(QStringLiteral("."));
    parts.removeAll(QStringLiteral(".."));
    return parts;
}

std::optional<QChar> forbiddenCharacter(const QString &name)
{
    static const QString forbidden = QStringLiteral("<>:\"|?*");
    for (const QChar c : name) {
        if (c.unicode() < 0x20 || forbidden.contains(c))
            return c;
    }
    return std::nullopt;
}

QString describeCharacter(QChar c)
{
    if (c.category() == QChar::Other_Control)
        return QStringLiteral("U+%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
    return QStringLiteral("\"%1\"").arg(c);
}

// The files under `root` (relative, in the target's syntax), at most kMaxListedFiles; the staging
// folder a killed install left, and its backups beside it (".cudnn-setup-staging-backup"), are not
// counted: the install's journal deals with them; nor is what a linked folder leads to.
QStringList filesBelow(const FileSystem &files, const QString &root, bool &truncated)
{
    const SystemPaths &paths = files.paths();
    QStringList found;
    QStringList pending = {QString()};
    truncated = false;
    while (!pending.isEmpty()) {
        const QString relative = pending.takeFirst();
        const QString dir = relative.isEmpty() ? root : paths.join(root, relative);
        for (const QString &name : files.entries(dir, {}, FileSystem::Files)) {
            found.append(relative.isEmpty() ? name : relative + targetpaths::sep(paths.family()) + name);
            if (found.size() >= kMaxListedFiles) {
                truncated = true;
                return found;
            }
        }
        for (const QString &name : files.entries(dir, {}, FileSystem::Dirs)) {
            if (relative.isEmpty() &&
                name.startsWith(QLatin1String(InstallTarget::kStagingFolder), paths.caseSensitivity()))
                continue;
            // What a link leads to is not in the folder (checkLinksInside judges the link).
            const QFileInfo folder(files.toHost(paths.join(dir, name)));
            if (folder.isSymLink() || folder.isJunction())
                continue;
            pending.append(relative.isEmpty() ? name : relative + targetpaths::sep(paths.family()) + name);
        }
    }
    return found;
}

void checkExistingFolder(const InstallTarget &target, const QList<PlannedFile> &planned,
                         const FileSystem &files, Findings &findings)
{
    if (target.kind != InstallTarget::Kind::Folder && target.kind != InstallTarget::Kind::UserFolder)
        return;
    if (!files.isDir(target.root))
        return;
    const SystemPaths &paths = files.paths();
    bool truncated = false;
    const QStringList present = filesBelow(files, target.root, truncated);
    if (present.isEmpty())
        return;
    QSet<QString> ours;
    QSet<QString> names;
    for (const PlannedFile &file : planned) {
        ours.insert(
            targetpaths::foldedKey(paths, targetpaths::relativeTo(paths, target.root, file.destination)));
        names.insert(targetpaths::foldedKey(paths, paths.fileName(file.destination)));
    }
    QStringList foreign;
    bool allOurs = !truncated;
    for (const QString &file : present) {
        if (!ours.contains(targetpaths::foldedKey(paths, file)))
            allOurs = false;
        if (!names.contains(targetpaths::foldedKey(paths, paths.fileName(file))))
            foreign.append(file);
    }
    const QString details = QStringLiteral("%1%2 files, %3 not of this cuDNN: %4")
                                .arg(present.size())
                                .arg(truncated ? QStringLiteral(" or more") : QString())
                                .arg(foreign.size())
                                .arg(QStringList(foreign.mid(0, 10)).join(QStringLiteral(", ")));
    if (allOurs) {
        findings.append(Finding::info(
            QStringLiteral("target.previous-install"),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "%1 already holds this cuDNN, installed the same way; its files are replaced."))
                .arg(target.root),
            details));
    } else if (foreign.isEmpty() && !truncated) {
        findings.append(Finding::warning(
            QStringLiteral("target.not-empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "%1 already holds cuDNN files that were not put there by this setup; "
                                   "those with the same names are replaced, the others stay."))
                .arg(target.root),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Choose an empty folder to keep the existing copy as it is."))));
    } else {
        findings.append(Finding::error(
            QStringLiteral("target.not-empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not empty: it holds files that are not part of this "
                                                 "cuDNN, such as %2 (%3 in all)."))
                .arg(target.root)
                .arg(foreign.isEmpty() ? present.constFirst() : foreign.constFirst())
                .arg(truncated ? QStringLiteral("%1+").arg(kMaxListedFiles)
                               : QString::number(foreign.size())),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Choose an empty folder, or a new folder inside this one."))));
    }
}

// The folders the install writes into (inspected-system paths), each once.
QStringList destinationFolders(const InstallTarget &target, const SystemPaths &paths)
{
    QStringList folders;
    const QStringList candidates = {target.dllFolder(), target.pathOf(target.includeFolder),
                                    target.pathOf(target.libFolder), paths.parent(target.pthFile())};
    QSet<QString> seen;
    for (const QString &candidate : candidates) {
        if (candidate.isEmpty() || seen.contains(targetpaths::foldedKey(paths, candidate)))
            continue;
        seen.insert(targetpaths::foldedKey(paths, candidate));
        folders.append(candidate);
    }
    return folders;
}

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

void checkSpace(const InstallTarget &target, const ArchiveReport &archive, const QList<PlannedFile> &planned,
                const SystemContext &context, const Volumes &volumes, Findings &findings)
{
    qint64 unpacked = 0;
    for (const PlannedFile &file : planned)
        unpacked += file.size;
    const qint64 needed = requiredBytes(archive, planned);
    const qint64 available = freeBytesAt(target, context, volumes);
    qCInfo(lcInstall) << "space for" << target.root << ": available" << available << "needed" << needed
                      << "(archive" << archive.size << "unpacked" << unpacked << ")";
    const QString details = QStringLiteral("available %1 bytes, needed %2 bytes (archive %3, unpacked %4)")
                                .arg(available)
                                .arg(needed)
                                .arg(archive.size)
                                .arg(unpacked);
    if (available < 0) {
        findings.append(Finding::info(
            QStringLiteral("target.space-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The free space on the drive of %1 could not be read; the "
                                                 "installation needs %2."))
                .arg(target.root, shownSize(needed)),
            details));
        return;
    }
    if (available < needed) {
        findings.append(Finding::error(
            QStringLiteral("target.no-space"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The drive of %1 has %2 free, but the installation needs %3."))
                .arg(target.root, shownSize(available), shownSize(needed)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Free %1 on that drive, or choose a folder on another drive."))
                .arg(shownSize(needed - available))));
    }
}

void checkStagingVolume(const InstallTarget &target, const QStringList &folders, const SystemContext &context,
                        const Volumes &volumes, Findings &findings)
{
    const FileSystem &files = context.files();
    const QString staging = files.toHost(target.stagingFolder());
    if (staging.isEmpty())
        return;
    for (const QString &folder : folders) {
        const QString host = files.toHost(folder);
        if (host.isEmpty())
            continue;
        if (volumes.sameVolume(staging, host) == std::optional<bool>(false)) {
            findings.append(Finding::error(
                QStringLiteral("target.staging-volume"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is on another drive than %2, so its files cannot be "
                                                     "moved into place in one step."))
                    .arg(folder, target.root),
                QStringLiteral("staging %1 on %2, destination %3 on %4")
                    .arg(staging, volumes.volumeId(staging), host, volumes.volumeId(host)),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Choose a folder whose subfolders are all on one drive."))));
            return;
        }
    }
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

// Reserved names and characters Windows refuses; false when the path cannot be used at all.
bool checkNames(const InstallTarget &target, const SystemPaths &paths, Findings &findings)
{
    for (const QString &name : nameComponents(paths, target.root)) {
        if (paths.isReservedName(name)) {
            findings.append(Finding::error(
                QStringLiteral("target.reserved-name"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The name \"%1\" in %2 is reserved by Windows (a device name, "
                                       "or a name ending in a dot or a space)."))
                    .arg(name, target.root),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose another folder name."))));
            return false;
        }
        if (!paths.isWindows())
            continue;
        if (const auto c = forbiddenCharacter(name)) {
            findings.append(Finding::error(
                QStringLiteral("target.invalid-character"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The name \"%1\" in %2 contains %3, which Windows does not "
                                       "allow in file names."))
                    .arg(name, target.root, describeCharacter(*c)),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose another folder name."))));
            return false;
        }
    }
    return true;
}

void checkLength(const InstallTarget &target, const QList<PlannedFile> &planned, Findings &findings)
{
    if (target.family != OsFamily::Windows)
        return;
    QStringList destinations;
    for (const PlannedFile &file : planned)
        destinations.append(file.destination);
    if (!target.pthFile().isEmpty())
        destinations.append(target.pthFile());
    QString longest;
    int tooLong = 0;
    for (const QString &destination : std::as_const(destinations)) {
        if (destination.size() >= kMaxPath)
            ++tooLong;
        if (destination.size() > longest.size())
            longest = destination;
    }
    if (tooLong == 0)
        return;
    findings.append(Finding::error(
        QStringLiteral("target.too-long"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 is too long: its longest file path would have %2 characters, "
                               "and many programs still cannot open paths of %3 characters or more."))
            .arg(target.root)
            .arg(longest.size())
            .arg(kMaxPath),
        QStringLiteral("%1 of %2 paths at %3 characters or more, the longest: %4")
            .arg(tooLong)
            .arg(destinations.size())
            .arg(kMaxPath)
            .arg(longest),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder with a shorter path."))));
}

// Whether the kind's own place is (still) there; false when it is not.
bool checkKind(const InstallTarget &target, const FileSystem &files, Findings &findings)
{
    switch (target.kind) {
    case InstallTarget::Kind::CudaToolkit:
        if (isToolkit(target, files))
            return true;
        findings.append(Finding::error(
            QStringLiteral("target.toolkit-missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "There is no CUDA toolkit in %1.")).arg(target.root),
            QString(),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup", "Install the CUDA toolkit first, or install cuDNN into its own folder."))));
        return false;
    case InstallTarget::Kind::Venv:
        if (targetpaths::isVenv(target.root, files))
            return true;
        findings.append(Finding::error(QStringLiteral("target.venv-invalid"),
                                       targetpaths::notAVenvMessage(target.root), QString(),
                                       targetpaths::notAVenvFix()));
        return false;
    case InstallTarget::Kind::Conda:
        if (targetpaths::isCondaEnv(target.root, files))
            return true;
        findings.append(Finding::error(QStringLiteral("target.conda-invalid"),
                                       targetpaths::notCondaMessage(target.root), QString(),
                                       targetpaths::condaFix()));
        return false;
    case InstallTarget::Kind::App:
        if (files.isDir(target.root))
            return true;
        findings.append(Finding::error(
            QStringLiteral("target.app-missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a folder: cuDNN for one program goes into the "
                                                 "folder that holds the program."))
                .arg(target.root),
            files.exists(target.root) ? QStringLiteral("a file, not a folder") : QStringLiteral("not there"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Give the folder of the program's .exe (or its library "
                                                 "folder), as it is now."))));
        return false;
    case InstallTarget::Kind::Folder:
    case InstallTarget::Kind::UserFolder:
        return true;
    }
    return true;
}

// A folder the system's own programs load from, or one above every program: libraries put there
// beside "one program" would reach every program (the Windows folder is searched by all of them,
// and so are the loader's default folders on Linux), or mix with the system's own.
bool isSystemFolder(const InstallTarget &target, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    const QString root = paths.normalize(target.root);
    if (paths.parent(root).isEmpty())
        return true; // a drive or "/"
    QStringList exact;
    QStringList below;
    if (target.family == OsFamily::Windows) {
        below = {QStringLiteral("C:\\Windows")};
        for (const QString &name : {QStringLiteral("SystemRoot"), QStringLiteral("windir")}) {
            const QString value = targetpaths::environmentPath(context, name);
            if (!value.isEmpty())
                below.append(value);
        }
        exact = {QStringLiteral("C:\\Program Files"), QStringLiteral("C:\\Program Files (x86)"),
                 QStringLiteral("C:\\ProgramData"), QStringLiteral("C:\\Users")};
        for (const QString &name : {QStringLiteral("ProgramFiles"), QStringLiteral("ProgramW6432"),
                                    QStringLiteral("ProgramFiles(x86)"), QStringLiteral("ProgramData")}) {
            const QString value = targetpaths::environmentPath(context, name);
            if (!value.isEmpty())
                exact.append(value);
        }
    } else {
        below = {QStringLiteral("/etc"), QStringLiteral("/proc"), QStringLiteral("/sys"),
                 QStringLiteral("/dev"), QStringLiteral("/boot")};
        for (const QString &prefix : {QString(), QStringLiteral("/usr"), QStringLiteral("/usr/local")}) {
            for (const QString &folder :
                 {QStringLiteral("/bin"), QStringLiteral("/sbin"), QStringLiteral("/lib"),
                  QStringLiteral("/lib32"), QStringLiteral("/lib64"), QStringLiteral("/lib/x86_64-linux-gnu"),
                  QStringLiteral("/lib/aarch64-linux-gnu")})
                exact.append(prefix + folder);
        }
        exact += {QStringLiteral("/usr"), QStringLiteral("/usr/local"), QStringLiteral("/opt"),
                  QStringLiteral("/home"), QStringLiteral("/tmp")};
    }
    return std::any_of(exact.cbegin(), exact.cend(),
                       [&](const QString &folder) { return paths.equal(root, folder); }) ||
           std::any_of(below.cbegin(), below.cend(),
                       [&](const QString &folder) { return paths.startsWith(root, folder); });
}

// An app folder is a program's own, never a system folder; false when it is refused.
bool checkAppFolder(const InstallTarget &target, const SystemContext &context, Findings &findings)
{
    if (target.kind != InstallTarget::Kind::App || !isSystemFolder(target, context))
        return true;
    findings.append(Finding::error(
        QStringLiteral("target.app-system-folder"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a folder of the system, not of one program: cuDNN put "
                                             "there would reach every program, or mix with the system's "
                                             "own files."))
            .arg(target.root),
        QString(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Give the folder that holds the program itself; for every "
                                             "program, install into a folder of its own (--target dir)."))));
    return false;
}

} // namespace

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

Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context)
{
    return checkTarget(target, archive, context, context.volumes());
}

Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context,
                     const Volumes &volumes)
{
    Findings findings;
    const SystemPaths paths(target.family);
    const FileSystem &files = context.files();
    if (target.root.trimmed().isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("target.empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No target folder is given.")), QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose the folder to install cuDNN into."))));
        return findings;
    }
    if (!paths.isAbsolute(target.root)) {
        findings.append(Finding::error(
            QStringLiteral("target.relative"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The target %1 is a relative path.")).arg(target.root),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Give the full path of the folder, with its drive (C:\\...)."))));
        return findings;
    }
    if (!checkNames(target, paths, findings))
        return findings;
    if (!checkKind(target, files, findings) || !checkAppFolder(target, context, findings))
        return findings;

    const QList<PlannedFile> planned = placeFiles(archive, target);
    checkLength(target, planned, findings);
    checkExistingFolder(target, planned, files, findings);
    const QStringList folders = destinationFolders(target, paths);
    checkLinksInside(target, folders, context, findings);
    if (checkRootOnlyFolders(target, folders, context, findings))
        checkWritable(target, folders, planned, context, volumes, findings);
    checkSystemPathFolder(target, context, findings);
    checkSpace(target, archive, planned, context, volumes, findings);
    checkStagingVolume(target, folders, context, volumes, findings);
    for (const Finding &finding : std::as_const(findings))
        qCInfo(lcInstall) << "target check" << finding.id << severityName(finding.severity)
                          << finding.details;
    return findings;
}

Findings checkWorkingPathLengths(const QList<PlannedFile> &planned, const QString &keptFolder,
                                 const InstallTarget &target, const SystemContext &context)
{
    if (target.family != OsFamily::Windows)
        return {};
    const SystemPaths &paths = context.paths();
    const QString staging = target.stagingFolder();
    QStringList working;
    for (int i = 0; i < planned.size(); ++i) {
        const PlannedFile &file = planned.at(i);
        const QString name = paths.fileName(file.destination);
        working.append(paths.join(staging, stagedPath(i, file.archivePath)));
        // The transaction's backups: <backup folder>\<step>\<name>, a step of up to three digits.
        working.append(paths.join(paths.join(target.backupFolder(), QStringLiteral("999")), name));
        if (context.files().isFile(file.destination))
            working.append(paths.join(keptFolder, keptFileName(i, name)));
    }
    const auto longest =
        std::max_element(working.cbegin(), working.cend(),
                         [](const QString &a, const QString &b) { return a.size() < b.size(); });
    if (longest == working.cend() || longest->size() < kMaxPath)
        return {};
    return {Finding::error(
        QStringLiteral("target.too-long"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "A path the installation works with would have %1 characters, and "
                               "Windows programs cannot all handle paths of %2 characters or more: "
                               "%3."))
            .arg(longest->size())
            .arg(kMaxPath)
            .arg(QDir::toNativeSeparators(*longest)),
        QStringLiteral("staging, backup and kept paths checked: %1").arg(working.size()),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder with a shorter path.")))};
}

qint64 freeBytesAt(const InstallTarget &target, const SystemContext &context, const Volumes &volumes)
{
    const QString host = context.files().toHost(target.root);
    return host.isEmpty() ? -1 : volumes.freeBytes(host);
}

Findings checkKeepingSpace(const QList<PlannedFile> &planned, const QString &keptFolder,
                           const InstallTarget &target, const SystemContext &context, const Volumes &volumes)
{
    qint64 replaced = 0;
    for (const PlannedFile &file : planned) {
        const QFileInfo existing(context.files().toHost(file.destination));
        if (existing.isFile())
            replaced += existing.size();
    }
    const QString root = context.files().toHost(target.root);
    if (replaced == 0 || volumes.sameVolume(keptFolder, root) == std::optional<bool>(true))
        return {};
    const QString shown = QDir::toNativeSeparators(context.files().fromHost(keptFolder));
    const qint64 available = volumes.freeBytes(keptFolder);
    const QString details = QStringLiteral("%1 on %2: available %3 bytes, needed %4 bytes")
                                .arg(keptFolder, volumes.volumeId(keptFolder))
                                .arg(available)
                                .arg(replaced);
    if (available < 0) {
        return {
            Finding::info(QStringLiteral("target.space-unknown"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The free space on the drive of %1 could not "
                                                               "be read; keeping the replaced files there "
                                                               "needs %2."))
                              .arg(shown, shownSize(replaced)),
                          details)};
    }
    if (available >= replaced)
        return {};
    return {Finding::error(
        QStringLiteral("target.no-space-to-keep"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The files this install replaces are kept in %1 for an uninstall to "
                               "put back, but its drive has %2 free and they need %3."))
            .arg(shown, shownSize(available), shownSize(replaced)),
        details,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Free %1 on that drive, then try again."))
            .arg(shownSize(replaced - available)))};
}

} // namespace cudnnsetup
