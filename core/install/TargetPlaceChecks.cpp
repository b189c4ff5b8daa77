// Whether the target's place is what its kind says: a toolkit, an env, a program's own folder, a
// folder empty or holding only this cuDNN.
#include "install/TargetCheckFamilies.h"

#include "common/Finding.h"
#include "common/Text.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetPaths.h"
#include "platform/SystemContext.h"

#include <QFileInfo>
#include <QSet>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace cudnnsetup {

namespace {

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

} // namespace

namespace targetchecks {

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

} // namespace targetchecks

} // namespace cudnnsetup
