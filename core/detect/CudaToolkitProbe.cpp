#include "detect/CudaToolkitProbe.h"

#include "common/Logging.h"
#include "detect/PackageDatabase.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"

#include <QRegularExpression>

#include <algorithm>

namespace cudnnsetup {

namespace {

struct Candidate
{
    QString path;
    QString source;
};

QList<Candidate> windowsCandidates(const SystemContext &context)
{
    QList<Candidate> candidates;
    const EnvironmentStore &environment = context.environment();
    const QString cudaPath = environment.value(QStringLiteral("CUDA_PATH"));
    if (!cudaPath.isEmpty())
        candidates.append({cudaPath, QStringLiteral("CUDA_PATH")});
    static const QRegularExpression versioned(QStringLiteral("^CUDA_PATH_V\\d+_\\d+$"),
                                              QRegularExpression::CaseInsensitiveOption);
    QStringList names = environment.processEnvironment().keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        if (versioned.match(name).hasMatch())
            candidates.append({environment.value(name), name.toUpper()});
    }
    const QString registryKey = QStringLiteral("SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA");
    const Registry &registry = context.registry();
    for (const QString &version : registry.subKeys(RegistryHive::LocalMachine, registryKey)) {
        const auto installDir =
            registry.value(RegistryHive::LocalMachine, registryKey + QLatin1Char('\\') + version,
                           QStringLiteral("InstallDir"));
        if (installDir && !installDir->text.isEmpty())
            candidates.append({installDir->text, QStringLiteral("registry")});
    }
    const QString nvcc = context.findExecutable(QStringLiteral("nvcc"));
    if (!nvcc.isEmpty())
        candidates.append(
            {context.paths().parent(context.paths().parent(nvcc)), QStringLiteral("nvcc-on-path")});
    const QString defaultRoot = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA");
    for (const QString &name : context.files().entries(defaultRoot, {QStringLiteral("v*")}, FileSystem::Dirs))
        candidates.append({context.paths().join(defaultRoot, name), QStringLiteral("default-folder")});
    return candidates;
}

QList<Candidate> linuxCandidates(const SystemContext &context)
{
    QList<Candidate> candidates;
    const EnvironmentStore &environment = context.environment();
    for (const QString &name :
         {QStringLiteral("CUDA_HOME"), QStringLiteral("CUDA_PATH"), QStringLiteral("CUDA_ROOT")}) {
        const QString value = environment.value(name);
        if (!value.isEmpty())
            candidates.append({value, name});
    }
    const QString nvcc = context.findExecutable(QStringLiteral("nvcc"));
    if (!nvcc.isEmpty())
        candidates.append(
            {context.paths().parent(context.paths().parent(nvcc)), QStringLiteral("nvcc-on-path")});
    const QString local = QStringLiteral("/usr/local");
    for (const QString &name :
         context.files().entries(local, {QStringLiteral("cuda"), QStringLiteral("cuda-*")}, FileSystem::Dirs))
        candidates.append({local + QLatin1Char('/') + name, QStringLiteral("default-folder")});
    if (context.files().isDir(QStringLiteral("/opt/cuda")))
        candidates.append({QStringLiteral("/opt/cuda"), QStringLiteral("default-folder")});
    return candidates;
}

QStringList cudartNames(const SystemContext &context, const QString &dir)
{
    const QString pattern = context.family() == OsFamily::Windows ? QStringLiteral("cudart64_*.dll")
                                                                  : QStringLiteral("libcudart.so*");
    return context.files().entries(dir, {pattern}, FileSystem::Files);
}

void fillDirectories(const SystemContext &context, CudaToolkit &toolkit)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    if (context.family() == OsFamily::Windows) {
        // CUDA 13 keeps its DLLs in bin\x64.
        const QString x64 = paths.join(toolkit.path, QStringLiteral("bin\\x64"));
        toolkit.binDir =
            !cudartNames(context, x64).isEmpty() ? x64 : paths.join(toolkit.path, QStringLiteral("bin"));
        toolkit.libDir = paths.join(toolkit.path, QStringLiteral("lib\\x64"));
        return;
    }
    toolkit.binDir = paths.join(toolkit.path, QStringLiteral("bin"));
    const QStringList libDirs = {
        QStringLiteral("lib64"), QStringLiteral("lib"), QStringLiteral("targets/x86_64-linux/lib"),
        QStringLiteral("targets/sbsa-linux/lib"), QStringLiteral("lib/x86_64-linux-gnu")};
    for (const QString &dir : libDirs) {
        const QString candidate = paths.join(toolkit.path, dir);
        if (!cudartNames(context, candidate).isEmpty()) {
            toolkit.libDir = files.canonical(candidate);
            return;
        }
    }
    toolkit.libDir = paths.join(toolkit.path, QStringLiteral("lib64"));
}

bool looksLikeToolkit(const SystemContext &context, const CudaToolkit &toolkit)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    const QString nvcc =
        context.family() == OsFamily::Windows ? QStringLiteral("nvcc.exe") : QStringLiteral("nvcc");
    return files.isFile(paths.join(toolkit.path, QStringLiteral("version.json"))) ||
           files.isFile(paths.join(toolkit.path, QStringLiteral("version.txt"))) ||
           files.isFile(paths.join(toolkit.binDir, nvcc)) ||
           files.isFile(paths.join(toolkit.path, QStringLiteral("bin/") + nvcc)) ||
           !cudartNames(context, toolkit.binDir).isEmpty() || !cudartNames(context, toolkit.libDir).isEmpty();
}

void readVersion(const SystemContext &context, const DetectOptions &options, const PackageDatabase &packages,
                 CudaToolkit &toolkit, Findings &findings)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    const auto unreadable = [&](const QString &file, const QString &details) {
        findings.append(Finding::warning(
            QStringLiteral("cuda.version-unreadable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA version file %1 could not be understood; the "
                                                 "version was taken from elsewhere."))
                .arg(file),
            details));
    };

    const QString json = paths.join(toolkit.path, QStringLiteral("version.json"));
    if (files.isFile(json)) {
        const auto content = files.read(json, 1024 * 1024);
        const Version version = content ? versions::fromCudaVersionJson(*content) : Version();
        if (version.isValid()) {
            toolkit.version = version.toString();
            toolkit.versionSource = QStringLiteral("version.json");
            return;
        }
        unreadable(json, content ? QString::fromUtf8(content->left(200)) : content.error().details);
    }
    const QString txt = paths.join(toolkit.path, QStringLiteral("version.txt"));
    if (files.isFile(txt)) {
        const auto content = files.read(txt, 64 * 1024);
        const Version version = content ? versions::fromCudaVersionTxt(*content) : Version();
        if (version.isValid()) {
            toolkit.version = version.toString();
            toolkit.versionSource = QStringLiteral("version.txt");
            return;
        }
        unreadable(txt, content ? QString::fromUtf8(content->left(200)) : content.error().details);
    }

    // NVIDIA's apt packages know the release, update included (cuda-toolkit-13-0 13.0.2).
    static const QRegularExpression aptFolder(QStringLiteral("^/usr/local/cuda-(\\d+)\\.(\\d+)$"));
    const auto apt = aptFolder.match(toolkit.path);
    if (apt.hasMatch()) {
        const QString suffix = apt.captured(1) + QLatin1Char('-') + apt.captured(2);
        for (const char *meta :
             {"cuda-toolkit-", "cuda-libraries-dev-", "cuda-libraries-", "cuda-runtime-", "cuda-"}) {
            const Version version = Version::parse(packages.installedVersion(QLatin1String(meta) + suffix));
            if (version.isValid()) {
                toolkit.version = version.toString();
                toolkit.versionSource = QStringLiteral("dpkg");
                return;
            }
        }
    }

    // Past this point only major.minor is known: cudart's and nvcc's third numbers (13.0.96,
    // V13.0.88) count component builds, not the toolkit's update.
    Version fromCudart;
    for (const QString &dir : {toolkit.libDir, toolkit.binDir}) {
        for (const QString &name : cudartNames(context, dir)) {
            const Version version = versions::fromCudartName(name);
            if (version.size() > fromCudart.size())
                fromCudart = version;
        }
    }
    if (fromCudart.size() >= 2) {
        toolkit.version = fromCudart.truncated(2).toString();
        toolkit.versionSource = QStringLiteral("cudart-file-name");
        return;
    }

    const QString nvccName =
        context.family() == OsFamily::Windows ? QStringLiteral("nvcc.exe") : QStringLiteral("nvcc");
    for (const QString &nvcc : {paths.join(toolkit.binDir, nvccName),
                                paths.join(toolkit.path, QStringLiteral("bin/") + nvccName)}) {
        if (!files.isExecutable(nvcc))
            continue;
        const ProcessResult result =
            context.run(nvcc, {QStringLiteral("--version")}, options.toolTimeoutMs, options.cancel);
        const Version version = versions::fromNvccOutput(QString::fromLocal8Bit(result.standardOutput));
        if (version.isValid()) {
            toolkit.version = version.truncated(2).toString();
            toolkit.versionSource = QStringLiteral("nvcc");
            return;
        }
        qCDebug(lcDetect) << "nvcc gave no version:" << nvcc << result.summary();
        break;
    }
    static const QRegularExpression folder(QStringLiteral("^(?:v|cuda-)(\\d+\\.\\d+)$"),
                                           QRegularExpression::CaseInsensitiveOption);
    const auto match = folder.match(paths.fileName(toolkit.path));
    if (match.hasMatch()) {
        toolkit.version = match.captured(1);
        toolkit.versionSource = QStringLiteral("folder-name");
        return;
    }
    if (fromCudart.isValid()) {
        toolkit.version = fromCudart.toString();
        toolkit.versionSource = QStringLiteral("cudart-file-name");
    }
}

} // namespace

QList<CudaToolkit> probeCudaToolkits(const SystemContext &context, const PackageDatabase &packages,
                                     const DetectOptions &options, Findings &findings)
{
    const QList<Candidate> candidates =
        context.family() == OsFamily::Windows ? windowsCandidates(context) : linuxCandidates(context);
    QList<CudaToolkit> toolkits;
    QStringList seen;
    for (const Candidate &candidate : candidates) {
        if (options.cancelled())
            break;
        if (!context.paths().isAbsolute(candidate.path))
            continue;
        const QString canonical = context.files().canonical(candidate.path);
        if (canonical.isEmpty() || !context.files().isDir(canonical))
            continue;
        const bool duplicate = std::any_of(seen.cbegin(), seen.cend(), [&](const QString &other) {
            return context.paths().equal(other, canonical);
        });
        if (duplicate)
            continue;
        seen.append(canonical);

        CudaToolkit toolkit;
        toolkit.path = canonical;
        toolkit.source = candidate.source;
        fillDirectories(context, toolkit);
        if (!looksLikeToolkit(context, toolkit)) {
            qCDebug(lcDetect) << "not a CUDA toolkit:" << canonical << "from" << candidate.source;
            continue;
        }
        readVersion(context, options, packages, toolkit, findings);
        qCDebug(lcDetect) << "toolkit" << toolkit.path << toolkit.version << "from" << toolkit.versionSource;
        toolkits.append(toolkit);
    }
    std::stable_sort(toolkits.begin(), toolkits.end(), [](const CudaToolkit &a, const CudaToolkit &b) {
        return Version::parse(a.version) > Version::parse(b.version);
    });
    if (toolkits.isEmpty()) {
        findings.append(Finding::info(
            QStringLiteral("cuda.none"),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "No CUDA toolkit was found. cuDNN can still go into its own folder, a conda environment or a "
                "Python virtual environment; programs that build CUDA code need the toolkit.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Install the CUDA toolkit that matches your driver from "
                                   "developer.nvidia.com/cuda-downloads if you compile CUDA code."))));
    }
    return toolkits;
}

} // namespace cudnnsetup
