#include "install/InstallTarget.h"

#include <algorithm>

#include <QJsonValue>
#include <QLocale>
#include <QSet>

#include "common/Logging.h"
#include "compat/Matcher.h"

namespace cudnnsetup {

namespace {

// MAX_PATH counts the terminating null: the longest path a program limited by it can open has 259
// characters.
constexpr int kMaxPath = 260;
// An existing folder with more files than this is not looked through further: it is not ours.
constexpr int kMaxListedFiles = 5000;

QString sep(OsFamily family)
{
    return family == OsFamily::Windows ? QStringLiteral("\\") : QStringLiteral("/");
}

// A relative folder written with '\' on Windows and '/' on Linux.
QString folder(OsFamily family, const QString &windows, const QString &linux)
{
    return family == OsFamily::Windows ? windows : linux;
}

QString foldedKey(const SystemPaths &paths, const QString &path)
{
    const QString normalized = paths.normalize(path);
    return paths.isWindows() ? normalized.toLower() : normalized;
}

// `path` relative to `base` when it is under it, else empty.
QString relativeTo(const SystemPaths &paths, const QString &base, const QString &path)
{
    const QString b = paths.normalize(base);
    const QString p = paths.normalize(path);
    if (!paths.startsWith(p, b) || paths.equal(p, b))
        return {};
    const qsizetype skip = b.endsWith(sep(paths.family())) ? b.size() : b.size() + 1;
    return p.mid(skip);
}

int cudaMajorOf(const ArchiveReport &archive)
{
    return archive.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt();
}

// cuDNN 9.18 and later keep their DLLs in bin\x64; an own folder keeps the archive's layout.
bool archiveHasBinX64(const ArchiveReport &archive)
{
    const QString library = archive.layout.libraryFolder;
    return archive.layout.kind == CudnnLayout::Kind::ArchiveRootX64 || library == QLatin1String("bin/x64") ||
           library.endsWith(QLatin1String("/bin/x64"));
}

// "v9.1" from what the content says, else from what the file name says; empty when neither.
QString versionFolder(const ArchiveReport &archive)
{
    Version version = archive.cudnn;
    if (!version.isValid() && archive.claimed)
        version = archive.claimed->cudnn;
    if (!version.isValid())
        return {};
    return QStringLiteral("v%1.%2").arg(version.major()).arg(version.minor());
}

QString environmentPath(const SystemContext &context, const QString &name)
{
    const QString value = context.environment().value(name).trimmed();
    return value.isEmpty() || !context.paths().isAbsolute(value) ? QString()
                                                                 : context.paths().normalize(value);
}

// The 64-bit Program Files of the inspected system (ProgramW6432 names it even to a 32-bit process).
QString programFiles(const SystemContext &context)
{
    for (const QString &name : {QStringLiteral("ProgramW6432"), QStringLiteral("ProgramFiles")}) {
        const QString value = environmentPath(context, name);
        if (!value.isEmpty())
            return value;
    }
    return QStringLiteral("C:\\Program Files");
}

QString localAppData(const SystemContext &context)
{
    const QString value = environmentPath(context, QStringLiteral("LOCALAPPDATA"));
    if (!value.isEmpty())
        return value;
    const QString profile = environmentPath(context, QStringLiteral("USERPROFILE"));
    return profile.isEmpty() ? QString() : context.paths().join(profile, QStringLiteral("AppData\\Local"));
}

QString home(const SystemContext &context)
{
    return environmentPath(context, QStringLiteral("HOME"));
}

InstallTarget folderTarget(InstallTarget::Kind kind, const QString &root, const ArchiveReport &archive,
                           const SystemContext &context, PathScope scope)
{
    InstallTarget target;
    target.kind = kind;
    target.family = context.family();
    target.root = context.paths().isAbsolute(root) ? context.paths().normalize(root) : root;
    const OsFamily family = target.family;
    target.binFolder = family == OsFamily::Linux   ? QStringLiteral("lib")
                       : archiveHasBinX64(archive) ? QStringLiteral("bin\\x64")
                                                   : QStringLiteral("bin");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = folder(family, QStringLiteral("lib\\x64"), QStringLiteral("lib"));
    target.pathScope = scope;
    return target;
}

QString defaultFolderRoot(const ArchiveReport &archive, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    const QString base = context.family() == OsFamily::Windows
                             ? paths.join(programFiles(context), QStringLiteral("NVIDIA\\CUDNN"))
                             : QStringLiteral("/opt/nvidia/cudnn");
    return paths.join(base, versionFolder(archive));
}

// Empty when the per-user folder is unknown.
QString userFolderRoot(const ArchiveReport &archive, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    QString base;
    if (context.family() == OsFamily::Windows) {
        const QString local = localAppData(context);
        if (!local.isEmpty())
            base = paths.join(local, QStringLiteral("Programs\\NVIDIA\\CUDNN"));
    } else {
        const QString homeFolder = home(context);
        if (!homeFolder.isEmpty())
            base = paths.join(homeFolder, QStringLiteral(".local/opt/nvidia/cudnn"));
    }
    return base.isEmpty() ? QString() : paths.join(base, versionFolder(archive));
}

InstallTarget toolkitTarget(const CudaToolkit &toolkit, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    InstallTarget target;
    target.kind = InstallTarget::Kind::CudaToolkit;
    target.family = context.family();
    target.root = paths.normalize(toolkit.path);
    target.toolkitVersion = Version::parse(toolkit.version);
    target.includeFolder = QStringLiteral("include");
    if (context.family() == OsFamily::Windows) {
        // Detection tells where the toolkit's own DLLs are (CUDA 13: bin\x64, by its cudart there).
        // A toolkit known only from JSON without it: CUDA 13 and later use bin\x64.
        QString bin = toolkit.binDir.isEmpty() ? QString() : relativeTo(paths, toolkit.path, toolkit.binDir);
        if (bin.isEmpty())
            bin = target.toolkitVersion.major() >= 13 ? QStringLiteral("bin\\x64") : QStringLiteral("bin");
        target.binFolder = bin;
        target.libFolder = QStringLiteral("lib\\x64");
    } else {
        QString lib = toolkit.libDir.isEmpty() ? QString() : relativeTo(paths, toolkit.path, toolkit.libDir);
        if (lib.isEmpty())
            lib = QStringLiteral("lib64");
        target.binFolder = lib;
        target.libFolder = lib;
    }
    target.pathScope = PathScope::None; // CUDA's installer put the toolkit's bin on PATH
    return target;
}

InstallTarget condaTarget(const QString &root, const SystemContext &context)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Conda;
    target.family = context.family();
    target.root = context.paths().isAbsolute(root) ? context.paths().normalize(root) : root;
    target.binFolder = folder(target.family, QStringLiteral("Library\\bin"), QStringLiteral("lib"));
    target.includeFolder =
        folder(target.family, QStringLiteral("Library\\include"), QStringLiteral("include"));
    target.libFolder = folder(target.family, QStringLiteral("Library\\lib"), QStringLiteral("lib"));
    return target;
}

// A Linux venv's site-packages, relative: lib/pythonX.Y/site-packages, by the folder that is there,
// else by pyvenv.cfg's version.
QString linuxSitePackages(const QString &root, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    const QStringList pythons = context.files().entries(paths.join(root, QStringLiteral("lib")),
                                                        {QStringLiteral("python3*")}, FileSystem::Dirs);
    QString python = pythons.isEmpty() ? QString() : pythons.last();
    if (python.isEmpty()) {
        const auto cfg = context.files().read(paths.join(root, QStringLiteral("pyvenv.cfg")), 64 * 1024);
        if (cfg) {
            for (const QString &line : QString::fromUtf8(*cfg).split(QLatin1Char('\n'))) {
                const QString key = line.section(QLatin1Char('='), 0, 0).trimmed();
                if (key == QLatin1String("version") || key == QLatin1String("version_info")) {
                    const Version version = Version::parse(line.section(QLatin1Char('='), 1).trimmed());
                    if (version.isValid())
                        python = QStringLiteral("python%1.%2").arg(version.major()).arg(version.minor());
                }
            }
        }
    }
    if (python.isEmpty())
        python = QStringLiteral("python3");
    return QStringLiteral("lib/%1/site-packages").arg(python);
}

InstallTarget venvTarget(const QString &root, const SystemContext &context)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Venv;
    target.family = context.family();
    const bool absolute = context.paths().isAbsolute(root);
    target.root = absolute ? context.paths().normalize(root) : root;
    const QString venv = QString::fromLatin1(InstallTarget::kVenvFolder);
    if (target.family == OsFamily::Windows) {
        const QString base = QStringLiteral("Lib\\site-packages\\") + venv;
        target.binFolder = base + QStringLiteral("\\bin");
        target.includeFolder = base + QStringLiteral("\\include");
        target.libFolder = base + QStringLiteral("\\lib");
    } else {
        const QString base = (absolute ? linuxSitePackages(target.root, context)
                                       : QStringLiteral("lib/python3/site-packages")) +
                             QLatin1Char('/') + venv;
        target.binFolder = base + QStringLiteral("/lib");
        target.includeFolder = base + QStringLiteral("/include");
        target.libFolder = base + QStringLiteral("/lib");
    }
    return target;
}

bool isVenv(const QString &root, const FileSystem &files)
{
    const SystemPaths &paths = files.paths();
    const QString python =
        paths.isWindows() ? QStringLiteral("Scripts\\python.exe") : QStringLiteral("bin/python");
    return files.isFile(paths.join(root, QStringLiteral("pyvenv.cfg"))) &&
           files.isFile(paths.join(root, python));
}

bool isCondaEnv(const QString &root, const FileSystem &files)
{
    return files.isDir(files.paths().join(root, QStringLiteral("conda-meta")));
}

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

// The conda env root an interpreter belongs to: the folder above it that holds conda-meta.
QString condaRootOf(const QString &interpreter, const FileSystem &files)
{
    const SystemPaths &paths = files.paths();
    QString dir = paths.parent(interpreter);
    for (int level = 0; level < 2 && !dir.isEmpty(); ++level) {
        if (isCondaEnv(dir, files))
            return dir;
        dir = paths.parent(dir);
    }
    return {};
}

// The toolkit Matcher chooses for the archive (the one of the archive's CUDA major the driver can
// run, the newest of them), read from its recommendation. The GPUs are left out of the facts: they
// decide which release is recommended, never which toolkit cuDNN goes with, and a GPU no release
// of that major supports must not hide the toolkit.
const CudaToolkit *chosenToolkit(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                 const SystemContext &context, const KnowledgeBase &kb)
{
    const int major = cudaMajorOf(archive);
    if (major <= 0)
        return nullptr;
    MatchFacts facts = MatchFacts::fromSnapshot(snapshot);
    facts.gpus.clear();
    MatchFacts::Archive chosen;
    chosen.platform = archive.platform;
    chosen.cudnn = archive.cudnn;
    chosen.cudaVariant = archive.cudaVariant;
    facts.archive = chosen;
    const MatchResult result = match(facts, kb);
    if (!result.recommendation || !result.recommendation->targetToolkit)
        return nullptr;
    const MatchFacts::Toolkit &toolkit = *result.recommendation->targetToolkit;
    if (toolkit.version.major() != major)
        return nullptr;
    for (const CudaToolkit &candidate : snapshot.cudaToolkits) {
        if (context.paths().equal(candidate.path, toolkit.path))
            return &candidate;
    }
    return nullptr;
}

// The newest toolkit whose version starts with `wanted` ("12" or "12.4" or "12.4.1").
const CudaToolkit *toolkitOfVersion(const SystemSnapshot &snapshot, const Version &wanted)
{
    const CudaToolkit *best = nullptr;
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
        const Version version = Version::parse(toolkit.version);
        if (!version.isValid() || version.truncated(wanted.size()) != wanted)
            continue;
        if (!best || version > Version::parse(best->version))
            best = &toolkit;
    }
    return best;
}

QString toolkitList(const SystemSnapshot &snapshot)
{
    QStringList list;
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits)
        list.append(
            QStringLiteral("%1 in %2")
                .arg(toolkit.version.isEmpty() ? QStringLiteral("?") : toolkit.version, toolkit.path));
    return list.isEmpty() ? QStringLiteral("no toolkit detected") : list.join(QStringLiteral("; "));
}

Text notAVenvMessage(const QString &root)
{
    return Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                  "%1 is not a Python virtual environment: it has no pyvenv.cfg or no %2."))
        .arg(root, QStringLiteral("Scripts\\python.exe"));
}

Text notAVenvFix()
{
    return Text(QT_TRANSLATE_NOOP(
        "cudnnsetup",
        "Give the folder that holds pyvenv.cfg, or create the environment with python -m venv."));
}

Text notCondaMessage(const QString &root)
{
    return Text(
               QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a conda environment: it has no conda-meta folder."))
        .arg(root);
}

Text condaFix()
{
    return Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                  "Give the environment's name or folder as \"conda env list\" shows it."));
}

Expected<InstallTarget> condaFromSpec(const QString &value, const SystemSnapshot &snapshot,
                                      const SystemContext &context)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    if (paths.isAbsolute(value)) {
        if (!isCondaEnv(value, files))
            return Finding::error(
                QStringLiteral("target.no-conda-env"), notCondaMessage(value),
                QStringLiteral("no %1").arg(paths.join(value, QStringLiteral("conda-meta"))), condaFix());
        return condaTarget(value, context);
    }
    if (!value.isEmpty() && !paths.isAbsolute(value) &&
        (value.contains(QLatin1Char('\\')) || value.contains(QLatin1Char('/'))))
        return condaTarget(value, context); // a relative path: checkTarget reports it
    QStringList known;
    for (const PythonInstall &python : snapshot.pythons) {
        if (python.source != QLatin1String("conda"))
            continue;
        const QString root = condaRootOf(python.path, files);
        if (root.isEmpty())
            continue;
        const bool base =
            paths.fileName(paths.parent(root)).compare(QLatin1String("envs"), Qt::CaseInsensitive) != 0;
        const QString name = base ? QStringLiteral("base") : paths.fileName(root);
        known.append(QStringLiteral("%1 (%2)").arg(name, root));
        if (!value.isEmpty() && (name.compare(value, paths.caseSensitivity()) == 0 ||
                                 paths.fileName(root).compare(value, paths.caseSensitivity()) == 0))
            return condaTarget(root, context);
    }
    return Finding::error(
        QStringLiteral("target.no-conda-env"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "No conda environment named \"%1\" was found.")).arg(value),
        known.isEmpty() ? QStringLiteral("no conda environment detected")
                        : QStringLiteral("detected: ") + known.join(QStringLiteral("; ")),
        condaFix());
}

QString bytesText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
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
    if (c.unicode() < 0x20)
        return QStringLiteral("U+%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
    return QStringLiteral("\"%1\"").arg(c);
}

// The files under `root` (relative, in the target's syntax), at most kMaxListedFiles; the staging
// folder a killed install left, and its backups beside it (".cudnn-setup-staging-backup"), are not
// counted: the install's journal deals with them.
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
            found.append(relative.isEmpty() ? name : relative + sep(paths.family()) + name);
            if (found.size() >= kMaxListedFiles) {
                truncated = true;
                return found;
            }
        }
        for (const QString &name : files.entries(dir, {}, FileSystem::Dirs)) {
            if (relative.isEmpty() &&
                name.startsWith(QLatin1String(InstallTarget::kStagingFolder), paths.caseSensitivity()))
                continue;
            pending.append(relative.isEmpty() ? name : relative + sep(paths.family()) + name);
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
        ours.insert(foldedKey(paths, relativeTo(paths, target.root, file.destination)));
        names.insert(foldedKey(paths, paths.fileName(file.destination)));
    }
    QStringList foreign;
    bool allOurs = !truncated;
    for (const QString &file : present) {
        if (!ours.contains(foldedKey(paths, file)))
            allOurs = false;
        if (!names.contains(foldedKey(paths, paths.fileName(file))))
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
        if (candidate.isEmpty() || seen.contains(foldedKey(paths, candidate)))
            continue;
        seen.insert(foldedKey(paths, candidate));
        folders.append(candidate);
    }
    return folders;
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

// A folder on the system PATH is searched by every program of every user, services too: if anyone
// but the administrators may put a DLL into it (or swap it or a folder above it), they can run code
// in those programs. The folder cuDNN Setup creates gets a protected DACL; an existing one is checked.
void checkSystemPathFolder(const InstallTarget &target, const SystemContext &context, Findings &findings)
{
    if (target.pathScope != PathScope::System || target.family != OsFamily::Windows)
        return;
    const std::optional<WritableFolder> writable = firstWritableFolder(context, target.dllFolder());
    if (!writable)
        return;
    findings.append(Finding::error(
        QStringLiteral("target.writable-system-path"),
        Text(
            QT_TRANSLATE_NOOP("cudnnsetup",
                              "%1 would go on the system PATH, but %2 can be changed by others than the "
                              "administrators (%3): whatever DLL they put there, every program of every user "
                              "would load."))
            .arg(target.dllFolder(), writable->folder,
                 writable->audit.whoMayChange().join(QStringLiteral(", "))),
        writable->audit.summary(),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Install into a folder under Program Files (the default), or put the folder on "
                          "your own PATH only (--path user)."))));
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
    // Twice the archive, as the issue asks (staging, then the files in place); never less than
    // what is actually unpacked, which for cuDNN's well-compressed DLLs can be more.
    const qint64 needed = std::max(2 * archive.size, unpacked);
    const QString host = context.files().toHost(target.root);
    const qint64 available = host.isEmpty() ? -1 : volumes.freeBytes(host);
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
                .arg(target.root, bytesText(needed)),
            details));
        return;
    }
    if (available < needed) {
        findings.append(Finding::error(
            QStringLiteral("target.no-space"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The drive of %1 has %2 free, but the installation needs %3."))
                .arg(target.root, bytesText(available), bytesText(needed)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Free %1 on that drive, or choose a folder on another drive."))
                .arg(bytesText(needed - available))));
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
        if (isVenv(target.root, files))
            return true;
        findings.append(Finding::error(QStringLiteral("target.venv-invalid"), notAVenvMessage(target.root),
                                       QString(), notAVenvFix()));
        return false;
    case InstallTarget::Kind::Conda:
        if (isCondaEnv(target.root, files))
            return true;
        findings.append(Finding::error(QStringLiteral("target.conda-invalid"), notCondaMessage(target.root),
                                       QString(), condaFix()));
        return false;
    case InstallTarget::Kind::Folder:
    case InstallTarget::Kind::UserFolder:
        return true;
    }
    return true;
}

bool isLicence(const ArchiveFile &file, const ArchiveReport &archive)
{
    if (file.kind != ArchiveFile::Kind::Other)
        return false;
    const qsizetype slash = file.path.lastIndexOf(QLatin1Char('/'));
    const QString folderName = slash < 0 ? QString() : file.path.left(slash);
    const QString name = file.path.mid(slash + 1);
    // Beside the archive's top folder's contents, or at the top (the cuda\-rooted zips up to 8.2).
    const bool top = folderName.isEmpty() || folderName == archive.layout.root;
    if (!top)
        return false;
    return name.compare(QLatin1String("LICENSE"), Qt::CaseInsensitive) == 0 ||
           name.compare(QLatin1String("LICENSE.txt"), Qt::CaseInsensitive) == 0 ||
           (name.startsWith(QLatin1String("NVIDIA_SLA"), Qt::CaseInsensitive) &&
            name.endsWith(QLatin1String(".txt"), Qt::CaseInsensitive));
}

} // namespace

QString pathScopeName(PathScope scope)
{
    switch (scope) {
    case PathScope::None:
        return QStringLiteral("none");
    case PathScope::User:
        return QStringLiteral("user");
    case PathScope::System:
        return QStringLiteral("system");
    }
    return {};
}

std::optional<PathScope> pathScopeFromName(const QString &name)
{
    for (const PathScope scope : {PathScope::None, PathScope::User, PathScope::System}) {
        if (name.compare(pathScopeName(scope), Qt::CaseInsensitive) == 0)
            return scope;
    }
    return std::nullopt;
}

QString InstallTarget::kindName() const
{
    switch (kind) {
    case Kind::CudaToolkit:
        return QStringLiteral("cuda");
    case Kind::Folder:
        return QStringLiteral("dir");
    case Kind::UserFolder:
        return QStringLiteral("user");
    case Kind::Conda:
        return QStringLiteral("conda");
    case Kind::Venv:
        return QStringLiteral("venv");
    }
    return {};
}

QString InstallTarget::spec() const
{
    switch (kind) {
    case Kind::CudaToolkit:
        return QStringLiteral("cuda:") + toolkitVersion.toString();
    case Kind::UserFolder: // its folder, so that a run under another account installs the same
    case Kind::Folder:
    case Kind::Conda:
    case Kind::Venv:
        return kindName() + QLatin1Char(':') + root;
    }
    return {};
}

QString InstallTarget::pathOf(const QString &relativeFolder) const
{
    if (root.isEmpty())
        return {};
    return SystemPaths(family).join(root, relativeFolder);
}

QString InstallTarget::dllFolder() const
{
    return pathOf(binFolder);
}

QString InstallTarget::pthFile() const
{
    if (kind != Kind::Venv || root.isEmpty())
        return {};
    // site-packages is the folder above the venv folder, which is above bin.
    const SystemPaths paths(family);
    const QString sitePackages = paths.parent(paths.parent(dllFolder()));
    return paths.join(sitePackages, QString::fromLatin1(kVenvPthFile));
}

QString InstallTarget::stagingFolder() const
{
    return pathOf(QString::fromLatin1(kStagingFolder));
}

bool InstallTarget::needsAdmin(const SystemContext &context) const
{
    if (pathScope == PathScope::System)
        return true;
    const SystemPaths paths(family);
    const QStringList folders = {root, dllFolder(), pathOf(includeFolder), pathOf(libFolder)};
    if (family == OsFamily::Windows) {
        QStringList protectedFolders = {QStringLiteral("C:\\Program Files"),
                                        QStringLiteral("C:\\Program Files (x86)"),
                                        QStringLiteral("C:\\Windows")};
        for (const QString &name :
             {QStringLiteral("ProgramFiles"), QStringLiteral("ProgramW6432"),
              QStringLiteral("ProgramFiles(x86)"), QStringLiteral("SystemRoot"), QStringLiteral("windir")}) {
            const QString value = environmentPath(context, name);
            if (!value.isEmpty())
                protectedFolders.append(value);
        }
        for (const QString &folder : folders) {
            for (const QString &protectedFolder : std::as_const(protectedFolders)) {
                if (!folder.isEmpty() && paths.startsWith(folder, protectedFolder))
                    return true;
            }
        }
        return false;
    }
    const QString homeFolder = home(context);
    for (const QString &folder : folders) {
        if (folder.isEmpty())
            continue;
        if ((homeFolder.isEmpty() || !paths.startsWith(folder, homeFolder)) &&
            !paths.startsWith(folder, QStringLiteral("/tmp")))
            return true;
    }
    return false;
}

QJsonObject InstallTarget::toJson() const
{
    const auto str = [](const QString &value) { return value.isEmpty() ? QJsonValue() : QJsonValue(value); };
    return QJsonObject{
        {QStringLiteral("kind"), kindName()},
        {QStringLiteral("root"), root},
        {QStringLiteral("toolkitVersion"),
         toolkitVersion.isValid() ? QJsonValue(toolkitVersion.toString()) : QJsonValue()},
        {QStringLiteral("binFolder"), binFolder},
        {QStringLiteral("includeFolder"), includeFolder},
        {QStringLiteral("libFolder"), libFolder},
        {QStringLiteral("dllFolder"), str(dllFolder())},
        {QStringLiteral("pthFile"), str(pthFile())},
        {QStringLiteral("pathScope"), pathScopeName(pathScope)},
    };
}

Expected<InstallTarget> targetFromSpec(const QString &spec, std::optional<PathScope> pathScope,
                                       const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                       const SystemContext &context, const KnowledgeBase &kb)
{
    const QString trimmed = spec.trimmed();
    const qsizetype colon = trimmed.indexOf(QLatin1Char(':'));
    const QString kind = (colon < 0 ? trimmed : trimmed.left(colon)).trimmed().toLower();
    const bool hasValue = colon >= 0;
    const QString value = hasValue ? trimmed.mid(colon + 1).trimmed() : QString();
    const SystemPaths &paths = context.paths();

    const auto resolved = [&](InstallTarget target, PathScope kindScope) -> Expected<InstallTarget> {
        target.pathScope = pathScope.value_or(kindScope);
        qCInfo(lcInstall) << "install target" << spec << "->" << target.kindName() << target.root << "DLLs in"
                          << target.dllFolder() << "PATH" << pathScopeName(target.pathScope);
        return target;
    };

    if (kind == QLatin1String("cuda")) {
        const CudaToolkit *toolkit = nullptr;
        Text message;
        if (!hasValue) {
            toolkit = chosenToolkit(snapshot, archive, context, kb);
            message =
                cudaMajorOf(archive) > 0
                    ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "No CUDA %1 toolkit that this driver can run is "
                                                           "installed for cuDNN for CUDA %2."))
                          .arg(QString::number(cudaMajorOf(archive)), archive.cudaVariant)
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive does not say which CUDA it is for, "
                                                           "so no toolkit can be chosen for it."));
        } else {
            const Version wanted = Version::parse(value);
            if (wanted.isValid())
                toolkit = toolkitOfVersion(snapshot, wanted);
            message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No CUDA %1 toolkit is installed.")).arg(value);
        }
        if (!toolkit)
            return Finding::error(QStringLiteral("target.no-toolkit"), message, toolkitList(snapshot),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install the CUDA toolkit first, or "
                                                                       "install cuDNN into its own folder "
                                                                       "(--target dir).")));
        return resolved(toolkitTarget(*toolkit, context), PathScope::None);
    }
    if (kind == QLatin1String("dir")) {
        const QString root = hasValue ? value : defaultFolderRoot(archive, context);
        return resolved(folderTarget(InstallTarget::Kind::Folder, root, archive, context, PathScope::System),
                        PathScope::System);
    }
    if (kind == QLatin1String("user")) {
        const QString root = hasValue ? value : userFolderRoot(archive, context);
        if (root.isEmpty())
            return Finding::error(
                QStringLiteral("target.no-user-folder"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The per-user program folder is not known: LOCALAPPDATA is not set.")),
                QStringLiteral("LOCALAPPDATA and USERPROFILE (HOME) unset or relative"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Give the folder with --target dir:PATH.")));
        return resolved(
            folderTarget(InstallTarget::Kind::UserFolder, root, archive, context, PathScope::User),
            PathScope::User);
    }
    if (kind == QLatin1String("conda") && hasValue) {
        Expected<InstallTarget> target = condaFromSpec(value, snapshot, context);
        if (!target)
            return target;
        return resolved(*target, PathScope::None);
    }
    if (kind == QLatin1String("venv") && hasValue) {
        if (value.isEmpty() || (paths.isAbsolute(value) && !isVenv(value, context.files())))
            return Finding::error(QStringLiteral("target.not-a-venv"), notAVenvMessage(value), QString(),
                                  notAVenvFix());
        return resolved(venvTarget(value, context), PathScope::None);
    }
    return Finding::error(
        QStringLiteral("target.unknown-kind"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "\"%1\" is not a target: use cuda, cuda:VERSION, dir, dir:PATH, user, "
                               "user:PATH, conda:NAME or venv:PATH."))
            .arg(spec),
        QStringLiteral("kind \"%1\"%2").arg(kind, hasValue ? QStringLiteral(" with a value") : QString()));
}

InstallTarget defaultTarget(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                            const SystemContext &context, const KnowledgeBase &kb)
{
    InstallTarget target;
    if (const CudaToolkit *toolkit = chosenToolkit(snapshot, archive, context, kb))
        target = toolkitTarget(*toolkit, context);
    else
        target = folderTarget(InstallTarget::Kind::Folder, defaultFolderRoot(archive, context), archive,
                              context, PathScope::System);
    qCInfo(lcInstall) << "proposed install target" << target.kindName() << target.root << "DLLs in"
                      << target.dllFolder() << "PATH" << pathScopeName(target.pathScope);
    return target;
}

Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context)
{
    return checkTarget(target, archive, context, Volumes::host());
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
    if (!checkKind(target, files, findings))
        return findings;

    const QList<PlannedFile> planned = placeFiles(archive, target);
    checkLength(target, planned, findings);
    checkExistingFolder(target, planned, files, findings);
    const QStringList folders = destinationFolders(target, paths);
    checkWritable(target, folders, planned, context, volumes, findings);
    checkSystemPathFolder(target, context, findings);
    checkSpace(target, archive, planned, context, volumes, findings);
    checkStagingVolume(target, folders, context, volumes, findings);
    for (const Finding &finding : std::as_const(findings))
        qCInfo(lcInstall) << "target check" << finding.id << severityName(finding.severity)
                          << finding.details;
    return findings;
}

QList<PlannedFile> placeFiles(const ArchiveReport &archive, const InstallTarget &target)
{
    const SystemPaths paths(target.family);
    QList<PlannedFile> planned;
    QSet<QString> destinations;
    bool licencePlaced = false;
    for (const ArchiveFile &file : archive.files) {
        const QString name = file.path.mid(file.path.lastIndexOf(QLatin1Char('/')) + 1);
        QString destination;
        switch (file.kind) {
        case ArchiveFile::Kind::Library:
        case ArchiveFile::Kind::OtherDll:
            destination = paths.join(target.dllFolder(), name);
            break;
        case ArchiveFile::Kind::Header:
            destination = paths.join(target.pathOf(target.includeFolder), name);
            break;
        case ArchiveFile::Kind::ImportLibrary:
            destination = paths.join(target.pathOf(target.libFolder), name);
            break;
        case ArchiveFile::Kind::Other:
            if (!licencePlaced && isLicence(file, archive)) {
                destination =
                    paths.join(target.dllFolder(), QString::fromLatin1(InstallTarget::kLicenseFile));
                licencePlaced = true;
            }
            break;
        }
        if (destination.isEmpty())
            continue;
        const QString key = foldedKey(paths, destination);
        if (destinations.contains(key)) {
            qCWarning(lcInstall) << "two archive files would both be installed as" << destination
                                 << "; kept the first,"
                                 << "skipped" << file.path;
            continue;
        }
        destinations.insert(key);
        PlannedFile placed;
        placed.archivePath = file.path;
        placed.entry = file.entry;
        placed.destination = destination;
        placed.kind = file.kind;
        placed.size = file.size;
        planned.append(placed);
    }
    return planned;
}

QByteArray venvPthContent(const QString &dllFolder)
{
    // A Python string literal of pure ASCII: escapes for the quote, the backslash, control
    // characters and everything beyond ASCII (\u for the BMP, \U beyond it).
    QByteArray literal = "'";
    for (const char32_t c : dllFolder.toUcs4()) {
        if (c == U'\\')
            literal += "\\\\";
        else if (c == U'\'')
            literal += "\\'";
        else if (c < 0x20 || c == 0x7f)
            literal += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0')).toLatin1();
        else if (c < 0x80)
            literal += char(c);
        else if (c <= 0xffff)
            literal += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0')).toLatin1();
        else
            literal += QStringLiteral("\\U%1").arg(uint(c), 8, 16, QLatin1Char('0')).toLatin1();
    }
    literal += "'";
    // site.py executes a .pth line that starts with "import " in its own scope, so the line names
    // the folder twice rather than keeping it in a variable; add_dll_directory exists on Windows
    // only, and raises for a folder that is gone.
    return "import os; hasattr(os, 'add_dll_directory') and os.path.isdir(" + literal +
           ") and os.add_dll_directory(" + literal + ")\n";
}

} // namespace cudnnsetup
