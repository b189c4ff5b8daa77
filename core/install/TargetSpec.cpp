#include "install/TargetSpec.h"

#include "common/Logging.h"
#include "compat/Matcher.h"
#include "install/TargetPaths.h"

namespace cudnnsetup {

namespace {

// A relative folder written with '\' on Windows and '/' on Linux.
QString folder(OsFamily family, const QString &windows, const QString &linux)
{
    return family == OsFamily::Windows ? windows : linux;
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

// The 64-bit Program Files of the inspected system (ProgramW6432 names it even to a 32-bit process).
QString programFiles(const SystemContext &context)
{
    for (const QString &name : {QStringLiteral("ProgramW6432"), QStringLiteral("ProgramFiles")}) {
        const QString value = targetpaths::environmentPath(context, name);
        if (!value.isEmpty())
            return value;
    }
    return QStringLiteral("C:\\Program Files");
}

QString localAppData(const SystemContext &context)
{
    const QString value = targetpaths::environmentPath(context, QStringLiteral("LOCALAPPDATA"));
    if (!value.isEmpty())
        return value;
    const QString profile = targetpaths::environmentPath(context, QStringLiteral("USERPROFILE"));
    return profile.isEmpty() ? QString() : context.paths().join(profile, QStringLiteral("AppData\\Local"));
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
        const QString homeFolder = targetpaths::home(context);
        if (!homeFolder.isEmpty())
            base = paths.join(homeFolder, QStringLiteral(".local/opt/nvidia/cudnn"));
    }
    return base.isEmpty() ? QString() : paths.join(base, versionFolder(archive));
}

// One program's folder: the libraries go into it as they are, the folder fields stay empty.
InstallTarget appTarget(const QString &root, const SystemContext &context)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::App;
    target.family = context.family();
    target.root = context.paths().isAbsolute(root) ? context.paths().normalize(root) : root;
    target.pathScope = PathScope::None;
    return target;
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
        QString bin = toolkit.binDir.isEmpty() ? QString()
                                               : targetpaths::relativeTo(paths, toolkit.path, toolkit.binDir);
        if (bin.isEmpty())
            bin = target.toolkitVersion.major() >= 13 ? QStringLiteral("bin\\x64") : QStringLiteral("bin");
        target.binFolder = bin;
        target.libFolder = QStringLiteral("lib\\x64");
    } else {
        QString lib = toolkit.libDir.isEmpty() ? QString()
                                               : targetpaths::relativeTo(paths, toolkit.path, toolkit.libDir);
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

// The conda env root an interpreter belongs to: the folder above it that holds conda-meta.
QString condaRootOf(const QString &interpreter, const FileSystem &files)
{
    const SystemPaths &paths = files.paths();
    QString dir = paths.parent(interpreter);
    for (int level = 0; level < 2 && !dir.isEmpty(); ++level) {
        if (targetpaths::isCondaEnv(dir, files))
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

Expected<InstallTarget> condaFromSpec(const QString &value, const SystemSnapshot &snapshot,
                                      const SystemContext &context)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    if (paths.isAbsolute(value)) {
        if (!targetpaths::isCondaEnv(value, files))
            return Finding::error(
                QStringLiteral("target.no-conda-env"), targetpaths::notCondaMessage(value),
                QStringLiteral("no %1").arg(paths.join(value, QStringLiteral("conda-meta"))),
                targetpaths::condaFix());
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
        targetpaths::condaFix());
}

} // namespace

Expected<TargetSelection> TargetSelection::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    const qsizetype colon = trimmed.indexOf(QLatin1Char(':'));
    const QString kind = (colon < 0 ? trimmed : trimmed.left(colon)).trimmed().toLower();
    TargetSelection selection;
    if (colon >= 0)
        selection.value = trimmed.mid(colon + 1).trimmed();
    const bool hasValue = selection.value.has_value();
    const std::pair<const char *, InstallTarget::Kind> kinds[] = {
        {"cuda", InstallTarget::Kind::CudaToolkit}, {"dir", InstallTarget::Kind::Folder},
        {"user", InstallTarget::Kind::UserFolder},  {"conda", InstallTarget::Kind::Conda},
        {"venv", InstallTarget::Kind::Venv},        {"app", InstallTarget::Kind::App}};
    for (const auto &[name, value] : kinds) {
        if (kind != QLatin1String(name))
            continue;
        selection.kind = value;
        // A conda env, a venv and a program are named; an app folder is never the empty one.
        const bool named = value != InstallTarget::Kind::Conda && value != InstallTarget::Kind::Venv &&
                           value != InstallTarget::Kind::App;
        if (named || (hasValue && (value != InstallTarget::Kind::App || !selection.value->isEmpty())))
            return selection;
    }
    return Finding::error(
        QStringLiteral("target.unknown-kind"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "\"%1\" is not a target: use cuda, cuda:VERSION, dir, dir:PATH, user, "
                               "user:PATH, conda:NAME, venv:PATH or app:FOLDER."))
            .arg(text),
        QStringLiteral("kind \"%1\"%2").arg(kind, hasValue ? QStringLiteral(" with a value") : QString()));
}

TargetSelection TargetSelection::of(const InstallTarget &target)
{
    TargetSelection selection;
    selection.kind = target.kind;
    selection.value =
        target.kind == InstallTarget::Kind::CudaToolkit ? target.toolkitVersion.toString() : target.root;
    return selection;
}

QString TargetSelection::text() const
{
    InstallTarget named;
    named.kind = kind;
    return value ? named.kindName() + QLatin1Char(':') + *value : named.kindName();
}

Expected<InstallTarget> resolveTarget(const TargetSelection &selection, std::optional<PathScope> pathScope,
                                      const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                      const SystemContext &context, const KnowledgeBase &kb)
{
    const QString value = selection.value.value_or(QString());
    const bool hasValue = selection.value.has_value();
    const SystemPaths &paths = context.paths();

    const auto resolved = [&](InstallTarget target, PathScope kindScope) -> Expected<InstallTarget> {
        target.pathScope = pathScope.value_or(kindScope);
        qCInfo(lcInstall) << "install target" << selection.text() << "->" << target.kindName() << target.root
                          << "DLLs in" << target.dllFolder() << "PATH" << pathScopeName(target.pathScope);
        return target;
    };

    switch (selection.kind) {
    case InstallTarget::Kind::CudaToolkit: {
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
    case InstallTarget::Kind::Folder: {
        const QString root = hasValue ? value : defaultFolderRoot(archive, context);
        return resolved(folderTarget(InstallTarget::Kind::Folder, root, archive, context, PathScope::System),
                        PathScope::System);
    }
    case InstallTarget::Kind::UserFolder: {
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
    case InstallTarget::Kind::Conda: {
        Expected<InstallTarget> target = condaFromSpec(value, snapshot, context);
        if (!target)
            return target;
        return resolved(*target, PathScope::None);
    }
    case InstallTarget::Kind::Venv:
        if (value.isEmpty() || (paths.isAbsolute(value) && !targetpaths::isVenv(value, context.files())))
            return Finding::error(QStringLiteral("target.not-a-venv"), targetpaths::notAVenvMessage(value),
                                  QString(), targetpaths::notAVenvFix());
        return resolved(venvTarget(value, context), PathScope::None);
    case InstallTarget::Kind::App:
        // The program finds the libraries in its own folder first; a PATH entry would hand this copy
        // to every other program too, the one thing an install for one program must not do.
        if (pathScope && *pathScope != PathScope::None)
            return Finding::error(
                QStringLiteral("target.app-path"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "cuDNN beside one program is found by that program without any "
                                       "PATH change, so it is not added to the %1 PATH."))
                    .arg(pathScopeName(*pathScope)),
                QStringLiteral("--target %1 --path %2").arg(selection.text(), pathScopeName(*pathScope)),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Leave out --path (or give --path none); for every "
                                       "program, install into its own folder (--target dir).")));
        return resolved(appTarget(value, context), PathScope::None);
    }
    return InstallTarget(); // not reached: every kind is handled above
}

Expected<InstallTarget> targetFromSpec(const QString &spec, std::optional<PathScope> pathScope,
                                       const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                       const SystemContext &context, const KnowledgeBase &kb)
{
    const Expected<TargetSelection> selection = TargetSelection::parse(spec);
    if (!selection)
        return selection.error();
    return resolveTarget(*selection, pathScope, snapshot, archive, context, kb);
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

} // namespace cudnnsetup
