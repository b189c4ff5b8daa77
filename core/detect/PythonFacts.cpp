#include "detect/PythonFacts.h"

#include "binary/ElfReader.h"
#include "binary/PeReader.h"
#include "detect/VersionParsers.h"
#include "loader/DependencyWalker.h"
#include "platform/SystemContext.h"

#include <QRegularExpression>

namespace cudnnsetup {

namespace {

void readHeader(const SystemContext &context, PythonInstall &python)
{
    const auto head = context.files().readHead(python.path, 4096);
    if (!head)
        return;
    if (head->startsWith("MZ")) {
        if (const auto pe = pe::readHeaders(*head)) {
            python.bits = pe->bits();
            python.arch = pe->machineName();
        }
    } else if (head->startsWith("\x7f"
                                "ELF")) {
        if (const auto elf = elf::readHeader(*head)) {
            python.bits = elf->bits;
            python.arch = elf->machineName();
        }
    }
}

// "3.12" from python3.12, libpython3.12.so or lib/python3.12; empty when the name has none.
QString versionInName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("python(\\d+\\.\\d+)"));
    return pattern.match(name).captured(1);
}

// The interpreter's version, the most exact place first. Every source is a file the installer or
// the venv tool wrote; nothing is run.
QString pythonVersion(const SystemContext &context, const PythonEnvironment &environment)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    static const QRegularExpression full(QStringLiteral("^\\d+\\.\\d+\\.\\d+$"));
    if (full.match(environment.versionHint).hasMatch())
        return environment.versionHint;
    // conda records the python package it installed: conda-meta/python-3.12.3-h....json.
    static const QRegularExpression condaRecord(QStringLiteral("^python-(\\d+\\.\\d+\\.\\d+)-.*\\.json$"));
    for (const QString &name : files.entries(paths.join(environment.prefix, QStringLiteral("conda-meta")),
                                             {QStringLiteral("python-*.json")}, FileSystem::Files)) {
        const auto match = condaRecord.match(name);
        if (match.hasMatch())
            return match.captured(1);
    }
    if (context.family() == OsFamily::Windows && !environment.interpreter.isEmpty()) {
        // python.exe's FILEVERSION is major, minor, micro * 1000 + release level and serial, API.
        const auto pe = pe::readFile(files.toHost(environment.interpreter));
        if (pe && pe->fileVersion.isValid() && pe->fileVersion.major() >= 2)
            return QStringLiteral("%1.%2.%3")
                .arg(pe->fileVersion.part(0))
                .arg(pe->fileVersion.part(1))
                .arg(pe->fileVersion.part(2) / 1000);
    }
    QString majorMinor = environment.versionHint;
    if (majorMinor.isEmpty() && !environment.interpreter.isEmpty()) {
        majorMinor = versionInName(paths.fileName(environment.interpreter));
        if (majorMinor.isEmpty())
            majorMinor = versionInName(paths.fileName(files.canonical(environment.interpreter)));
    }
    for (const QString &site : environment.sitePackages) {
        if (majorMinor.isEmpty())
            majorMinor = versionInName(site);
    }
    // The headers' patchlevel.h, where the development files are installed.
    static const QRegularExpression patchLevel(
        QStringLiteral("#define\\s+PY_VERSION\\s+\"(\\d+\\.\\d+\\.\\d+)"));
    const QString include = paths.join(environment.prefix, QStringLiteral("include"));
    const QString header = context.family() == OsFamily::Windows
                               ? paths.join(include, QStringLiteral("patchlevel.h"))
                               : paths.join(include, QStringLiteral("python%1/patchlevel.h").arg(majorMinor));
    if (const auto content = files.read(header, 64 * 1024)) {
        const auto match = patchLevel.match(QString::fromLatin1(*content));
        if (match.hasMatch() &&
            (majorMinor.isEmpty() || match.captured(1).startsWith(majorMinor + QLatin1Char('.'))))
            return match.captured(1);
    }
    return majorMinor;
}

std::optional<TorchInfo> torchVersion(const SystemContext &context, const QString &site)
{
    const auto content =
        context.files().read(context.paths().join(site, QStringLiteral("torch/version.py")), 64 * 1024);
    if (!content)
        return std::nullopt;
    const QString text = QString::fromUtf8(*content);
    static const QRegularExpression version(QStringLiteral("__version__\\s*=\\s*['\"]([^'\"]+)['\"]"));
    static const QRegularExpression cuda(
        QStringLiteral("^cuda\\s*(?::[^=]*)?=\\s*(?:['\"]([^'\"]+)['\"]|None)"),
        QRegularExpression::MultilineOption);
    TorchInfo torch;
    torch.version = version.match(text).captured(1);
    torch.cuda = cuda.match(text).captured(1);
    if (torch.cuda.isEmpty())
        torch.cuda = QString();
    return torch;
}

// The main cuDNN library in `dir` of the newest major, by the name the loader asks for
// (cudnn64_9.dll, libcudnn.so.9: a major alone); empty if none.
QString mainCudnnIn(const SystemContext &context, const QString &dir)
{
    const bool windows = context.family() == OsFamily::Windows;
    QString best;
    int bestMajor = -1;
    for (const QString &name : context.files().entries(
             dir, {windows ? QStringLiteral("cudnn64_*.dll") : QStringLiteral("libcudnn.so.*")},
             FileSystem::Files)) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (versions::isMainCudnnLibraryName(name) && version.size() == 1 && version.major() > bestMajor) {
            bestMajor = version.major();
            best = context.paths().join(dir, name);
        }
    }
    return best;
}

// The cuDNN that `library`'s imports reach, as the loader would resolve them; empty if none does.
QString cudnnReachedFrom(const SystemContext &context, const QString &library, LoadModel model,
                         const QStringList &dllDirectories)
{
    const bool windows = context.family() == OsFamily::Windows;
    const QStringList searchPath =
        windows ? context.environment().processPath()
                : context.paths().splitList(context.environment().value(QStringLiteral("LD_LIBRARY_PATH")));
    const DependencyWalk walk = walkDependencies(context, {library}, searchPath, model, dllDirectories);
    for (const auto &[name, path] : walk.resolved) {
        if (versions::isMainCudnnLibraryName(name) && !path.isEmpty())
            return path;
    }
    // Found but not loadable (another architecture, damaged): still the file the loader takes.
    for (const DependencyProblem &problem : walk.problems) {
        if (versions::isMainCudnnLibraryName(problem.library) && !problem.foundAt.isEmpty())
            return problem.foundAt;
    }
    return {};
}

QString torchCudnnFile(const SystemContext &context, const PythonEnvironment &environment,
                       const QString &site)
{
    const SystemPaths &paths = context.paths();
    const QString torchLib = paths.join(site, QStringLiteral("torch/lib"));
    if (context.family() == OsFamily::Windows) {
        // torch\__init__.py loads every DLL in torch\lib before anything else, then adds the
        // nvidia wheels' bin folders with os.add_dll_directory.
        QString file = mainCudnnIn(context, torchLib);
        if (file.isEmpty())
            file = mainCudnnIn(context, paths.join(site, QStringLiteral("nvidia\\cudnn\\bin")));
        const QString torchCuda = paths.join(torchLib, QStringLiteral("torch_cuda.dll"));
        // What torch_cuda.dll imports then comes from its own folder, the application's (python.exe's:
        // for a venv the base installation's, which pyvenv.cfg's home names), System32 and the added
        // folders: torch\lib and conda's Library\bin.
        if (file.isEmpty() && context.files().isFile(torchCuda))
            file = cudnnReachedFrom(
                context, torchCuda, LoadModel::PythonDllDirectories,
                {environment.home.isEmpty() ? paths.parent(environment.interpreter) : environment.home,
                 torchLib, paths.join(environment.prefix, QStringLiteral("Library\\bin"))});
        return file;
    }
    const QString torchCuda = paths.join(torchLib, QStringLiteral("libtorch_cuda.so"));
    QString file;
    if (context.files().isFile(torchCuda))
        file = cudnnReachedFrom(context, torchCuda, LoadModel::Program, {});
    // A torch that opens cuDNN itself rather than linking it: torch/__init__.py falls back to the
    // nvidia wheel's copy.
    if (file.isEmpty())
        file = mainCudnnIn(context, torchLib);
    if (file.isEmpty())
        file = mainCudnnIn(context, paths.join(site, QStringLiteral("nvidia/cudnn/lib")));
    return file;
}

// The version the first wheel metadata folder in `site` whose name `wheel` matches names:
// "jax-0.11.2.dist-info" -> "0.11.2"; empty when there is none.
QString wheelVersion(const SystemContext &context, const QString &site, const QString &glob,
                     const QRegularExpression &wheel)
{
    for (const QString &distInfo : context.files().entries(site, {glob}, FileSystem::Dirs)) {
        const Version version = versions::fromDistInfoName(distInfo);
        if (wheel.match(distInfo).hasMatch() && version.isValid())
            return version.toString();
    }
    return {};
}

QString tensorflowVersion(const SystemContext &context, const QString &site)
{
    static const QRegularExpression wheel(QStringLiteral("^tensorflow(?:[-_](?:cpu|gpu|intel|macos))?-\\d"),
                                          QRegularExpression::CaseInsensitiveOption);
    return wheelVersion(context, site, QStringLiteral("tensorflow*.dist-info"), wheel);
}

// JAX: its CUDA plugin wheel names the CUDA major (jax_cuda13_plugin), older jaxlib builds their
// local version (jaxlib-0.4.20+cuda12.cudnn89); the cuDNN is NVIDIA's wheel beside it.
std::optional<FrameworkInfo> jaxFacts(const SystemContext &context, const QString &site)
{
    static const QRegularExpression wheel(QStringLiteral("^jax-\\d"));
    FrameworkInfo jax{QStringLiteral("jax"),
                      wheelVersion(context, site, QStringLiteral("jax-*.dist-info"), wheel),
                      {},
                      {},
                      {}};
    if (jax.version.isEmpty())
        return std::nullopt;
    static const QRegularExpression plugin(QStringLiteral("^jax_cuda(\\d+)_plugin-"));
    static const QRegularExpression localBuild(QStringLiteral("^jaxlib-[^+]*\\+cuda(\\d+)"));
    for (const QString &distInfo : context.files().entries(
             site, {QStringLiteral("jax_cuda*_plugin-*.dist-info"), QStringLiteral("jaxlib-*.dist-info")},
             FileSystem::Dirs)) {
        QRegularExpressionMatch match = plugin.match(distInfo);
        if (!match.hasMatch())
            match = localBuild.match(distInfo);
        if (match.hasMatch())
            jax.cuda = match.captured(1);
    }
    if (!jax.cuda.isEmpty() && context.family() == OsFamily::Linux)
        jax.cudnnLoadedFrom =
            mainCudnnIn(context, context.paths().join(site, QStringLiteral("nvidia/cudnn/lib")));
    return jax;
}

// PaddlePaddle writes what it was built with into paddle/version/__init__.py (cuda_version,
// cudnn_version); its cuDNN is the copy in paddle/libs or NVIDIA's wheel.
std::optional<FrameworkInfo> paddleFacts(const SystemContext &context, const QString &site)
{
    const SystemPaths &paths = context.paths();
    const auto content =
        context.files().read(paths.join(site, QStringLiteral("paddle/version/__init__.py")), 64 * 1024);
    if (!content)
        return std::nullopt;
    const QString text = QString::fromUtf8(*content);
    const auto field = [&text](const char *name) {
        const QRegularExpression pattern(
            QStringLiteral("^%1\\s*=\\s*['\"]([^'\"]*)['\"]").arg(QLatin1String(name)),
            QRegularExpression::MultilineOption);
        return pattern.match(text).captured(1);
    };
    FrameworkInfo paddle{
        QStringLiteral("paddle"), field("full_version"), field("cuda_version"), field("cudnn_version"), {}};
    if (paddle.cuda == QLatin1String("False"))
        paddle.cuda = QString();
    if (paddle.cudnn == QLatin1String("False"))
        paddle.cudnn = QString();
    if (!paddle.cuda.isEmpty()) {
        paddle.cudnnLoadedFrom = mainCudnnIn(context, paths.join(site, QStringLiteral("paddle/libs")));
        if (paddle.cudnnLoadedFrom.isEmpty())
            paddle.cudnnLoadedFrom =
                mainCudnnIn(context, paths.join(site, context.family() == OsFamily::Windows
                                                          ? QStringLiteral("nvidia\\cudnn\\bin")
                                                          : QStringLiteral("nvidia/cudnn/lib")));
    }
    return paddle;
}

} // namespace

PythonInstall pythonFromFiles(const SystemContext &context, const PythonEnvironment &environment)
{
    PythonInstall python;
    python.path = environment.interpreter;
    python.names = environment.names;
    python.source = environment.source;
    python.factsFrom = QStringLiteral("files");
    if (!python.path.isEmpty())
        readHeader(context, python);
    python.version = pythonVersion(context, environment);
    for (const QString &site : environment.sitePackages) {
        if (!python.torch) {
            python.torch = torchVersion(context, site);
            if (python.torch && !python.torch->cuda.isEmpty())
                python.torch->cudnnLoadedFrom = torchCudnnFile(context, environment, site);
        }
        if (python.tensorflow.isEmpty())
            python.tensorflow = tensorflowVersion(context, site);
        for (const auto &facts : {jaxFacts, paddleFacts}) {
            std::optional<FrameworkInfo> framework = facts(context, site);
            const bool known =
                framework && std::any_of(python.frameworks.cbegin(), python.frameworks.cend(),
                                         [&](const FrameworkInfo &f) { return f.name == framework->name; });
            if (framework && !known)
                python.frameworks.append(*framework);
        }
    }
    return python;
}

void attachCudnnVersions(QList<PythonInstall> &pythons, const QList<CudnnCopy> &copies,
                         const SystemContext &context)
{
    for (PythonInstall &python : pythons) {
        for (FrameworkInfo &framework : python.frameworks) {
            if (framework.cudnn.isEmpty()) {
                if (const CudnnCopy *copy = copyHolding(copies, framework.cudnnLoadedFrom, context.paths()))
                    framework.cudnn = copy->version;
            }
        }
        if (!python.torch || python.factsFrom != QLatin1String("files") || !python.torch->cudnn.isEmpty())
            continue;
        if (const CudnnCopy *copy = copyHolding(copies, python.torch->cudnnLoadedFrom, context.paths()))
            python.torch->cudnn = copy->version;
    }
}

} // namespace cudnnsetup
