#include "detect/Consumers.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSet>

#include "binary/ElfReader.h"
#include "binary/FatbinReader.h"
#include "binary/PeReader.h"
#include "common/Logging.h"
#include "detect/VersionParsers.h"
#include "loader/DependencyWalker.h"
#include "platform/SystemContext.h"

namespace cudnnsetup {

namespace {

// .rodata / .rdata bytes searched for library names at most: a search touches every page it reads,
// and libcublasLt's whole section is 46 MB. Only files that use CUDA and link no cuDNN are searched.
constexpr qint64 kMaxDataScan = 8 * 1024 * 1024;
constexpr qint64 kDataChunk = 1024 * 1024;
constexpr qint64 kMaxRecordSize = 32 * 1024 * 1024;
// An application folder is walked this deep and this far, and never into these folders.
constexpr int kMaxAppDepth = 8;
constexpr int kMaxAppEntries = 50000;

enum class CudaLibrary
{
    None,
    Cudnn,
    Cublas,
    Cudart,
};

struct LibraryName
{
    CudaLibrary kind = CudaLibrary::None;
    std::optional<int> major;
};

LibraryName classifyLibrary(const QString &name)
{
    const auto majorOf = [](const Version &version) {
        return version.isValid() ? std::optional<int>(version.major()) : std::nullopt;
    };
    if (versions::isCudnnLibraryName(name))
        return {CudaLibrary::Cudnn, majorOf(versions::fromCudnnLibraryName(name))};
    if (const Version cublas = versions::fromCublasName(name); cublas.isValid())
        return {CudaLibrary::Cublas, majorOf(cublas)};
    if (const Version cudart = versions::fromCudartName(name); cudart.isValid())
        return {CudaLibrary::Cudart, majorOf(cudart)};
    return {};
}

// NVIDIA's own libraries: what consumers load, never consumers themselves.
bool isNvidiaLibrary(const QString &fileName)
{
    static const QRegularExpression pattern(
        QStringLiteral(
            "^(?:lib)?(?:cudnn|cublas|cudart|cufft|curand|cusparse|cusolver|nvrtc|nvjitlink|nccl|cupti|"
            "nvtoolsext|nvblas|cufile|nvjpeg|npp|nvperf|cuda\\.|nvcuda|nvml)"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(fileName).hasMatch();
}

bool isNativeName(const QString &fileName, bool windows)
{
    if (windows)
        return fileName.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive) ||
               fileName.endsWith(QLatin1String(".pyd"), Qt::CaseInsensitive) ||
               fileName.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive);
    return fileName.endsWith(QLatin1String(".so")) || fileName.contains(QLatin1String(".so."));
}

// The characters of a library name written in a program's data.
bool isNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
}

// cuDNN, cuBLAS and CUDA runtime names in `size` bytes at `offset` (a data section): ASCII on both
// systems, and UTF-16 on Windows, where LoadLibraryW takes wide names. Found by a fixed part every
// such name has ("libcu" on Linux, "64_" on Windows), then widened to the whole name.
QStringList libraryNamesInData(const ByteSource &source, qint64 offset, qint64 size, bool windows)
{
    QSet<QString> found;
    const qint64 total = std::min(size, kMaxDataScan);
    const int overlap = 256; // a name cut by a chunk's end is whole in the next chunk
    const auto take = [&found](const QString &name) {
        if (classifyLibrary(name).kind != CudaLibrary::None)
            found.insert(name);
    };
    for (qint64 at = 0; at < total; at += kDataChunk) {
        const QByteArray chunk = source(offset + at, std::min(kDataChunk + overlap, total - at));
        const std::string_view data(chunk.constData(), size_t(chunk.size()));
        const auto widen = [&](size_t hit, size_t step) {
            size_t begin = hit;
            while (begin >= step && isNameCharacter(data[begin - step]) &&
                   (step == 1 || data[begin - step + 1] == 0))
                begin -= step;
            size_t end = hit;
            while (end + step <= data.size() && isNameCharacter(data[end]) &&
                   (step == 1 || data[end + 1] == 0))
                end += step;
            QString name;
            for (size_t i = begin; i < end; i += step)
                name.append(QLatin1Char(data[i]));
            return name;
        };
        if (!windows) {
            for (size_t hit = data.find("libcu"); hit != std::string_view::npos;
                 hit = data.find("libcu", hit + 5))
                take(widen(hit, 1));
            continue;
        }
        for (size_t hit = data.find("64_"); hit != std::string_view::npos; hit = data.find("64_", hit + 3))
            take(widen(hit, 1));
        const std::string_view wide("6\0"
                                    "4\0"
                                    "_\0",
                                    6);
        for (size_t hit = data.find(wide); hit != std::string_view::npos; hit = data.find(wide, hit + 6))
            take(widen(hit, 2));
    }
    QStringList names = found.values();
    names.sort();
    return names;
}

// What one native file tells about its use of CUDA.
struct NativeFile
{
    QString path;
    QStringList imports; // PE imports and delay imports, ELF DT_NEEDED
    QStringList opened;  // CUDA library names in its data (opened at run time)
    GpuCode code;
    bool usesCuda = false; // imports a CUDA library or carries GPU code
};

std::optional<NativeFile> inspectNative(const SystemContext &context, const QString &path)
{
    QString error;
    const ByteSource source = mappedFileSource(context.files().toHost(path), &error);
    if (!source) {
        qCDebug(lcDetect).noquote() << QStringLiteral("consumer candidate %1 not read: %2").arg(path, error);
        return std::nullopt;
    }
    NativeFile file;
    file.path = path;
    QList<FileSection> sections;
    const bool pe = source(0, 2) == "MZ";
    if (pe) {
        const Expected<PeInfo> info = pe::read(source);
        if (!info)
            return std::nullopt;
        file.imports = info->imports + info->delayImports;
        sections = info->sections;
    } else {
        const Expected<ElfDynamic> dynamic = elf::readDynamic(source);
        const Expected<QList<FileSection>> elfSections = elf::readSections(source);
        if (!dynamic || !elfSections)
            return std::nullopt;
        file.imports = dynamic->needed;
        sections = *elfSections;
    }
    if (const FileSection *fatbin =
            findSection(sections, pe ? QStringLiteral(".nv_fatb") : QStringLiteral(".nv_fatbin")))
        file.code = fatbin::readContainers(source, fatbin->offset, fatbin->size);
    bool importsCudnn = false;
    for (const QString &name : std::as_const(file.imports)) {
        const CudaLibrary kind = classifyLibrary(name).kind;
        file.usesCuda = file.usesCuda || kind != CudaLibrary::None;
        importsCudnn = importsCudnn || kind == CudaLibrary::Cudnn;
    }
    file.usesCuda = file.usesCuda || !file.code.sass.isEmpty() || !file.code.ptx.isEmpty();
    // A library that uses CUDA but links no cuDNN may open one itself: its name is in the data.
    if (file.usesCuda && !importsCudnn) {
        if (const FileSection *data =
                findSection(sections, pe ? QStringLiteral(".rdata") : QStringLiteral(".rodata")))
            file.opened = libraryNamesInData(source, data->offset, data->size, pe);
    }
    return file;
}

// How the consumer's process finds libraries (DependencyWalker's terms).
struct LoadContext
{
    LoadModel model = LoadModel::Program;
    QStringList searchPath;
    QStringList dllDirectories;
};

LoadContext programContext(const SystemContext &context)
{
    if (context.family() == OsFamily::Windows)
        return {LoadModel::CondaActivated, context.environment().processPath(), {}};
    return {LoadModel::Program,
            context.paths().splitList(context.environment().value(QStringLiteral("LD_LIBRARY_PATH"))),
            {}};
}

// A Python process on Windows: os.add_dll_directory's folders as torch and the CUDA wheels add them
// (torch\lib, each nvidia wheel's bin), conda's Library\bin, python.exe's own folder.
LoadContext pythonContext(const SystemContext &context, const QString &home, const QString &prefix,
                          const QStringList &sites)
{
    LoadContext load = programContext(context);
    if (context.family() != OsFamily::Windows)
        return load;
    const SystemPaths &paths = context.paths();
    load.model = LoadModel::PythonDllDirectories;
    load.dllDirectories.append(home);
    for (const QString &site : sites) {
        load.dllDirectories.append(paths.join(site, QStringLiteral("torch\\lib")));
        const QString nvidia = paths.join(site, QStringLiteral("nvidia"));
        for (const QString &wheel : context.files().entries(nvidia, {}, FileSystem::Dirs))
            load.dllDirectories.append(paths.join(nvidia, wheel + QStringLiteral("\\bin")));
    }
    if (!prefix.isEmpty())
        load.dllDirectories.append(paths.join(prefix, QStringLiteral("Library\\bin")));
    return load;
}

// "onnxruntime_gpu" -> "onnxruntime-gpu" (PEP 503's normalized project name).
QString projectName(const QString &distribution)
{
    static const QRegularExpression separators(QStringLiteral("[-_.]+"));
    return distribution.toLower().replace(separators, QStringLiteral("-"));
}

// TensorFlow opens its CUDA libraries by names it builds at run time; its build_info.py says which.
void tensorflowBuildInfo(const SystemContext &context, const QString &site, ConsumerInfo &consumer)
{
    const auto content = context.files().read(
        context.paths().join(site, QStringLiteral("tensorflow/python/platform/build_info.py")), 1024 * 1024);
    if (!content)
        return;
    const QString text = QString::fromUtf8(*content);
    static const QRegularExpression cudnn(QStringLiteral("['\"]cudnn_version['\"]\\s*[,:]\\s*['\"](\\d+)"));
    static const QRegularExpression cuda(QStringLiteral("['\"]cuda_version['\"]\\s*[,:]\\s*['\"](\\d+)"));
    if (const auto match = cudnn.match(text); match.hasMatch() && !consumer.cudnnMajor)
        consumer.cudnnMajor = match.captured(1).toInt();
    if (const auto match = cuda.match(text); match.hasMatch() && !consumer.cudaMajor)
        consumer.cudaMajor = match.captured(1).toInt();
}

// A library a package's Python code loads by its full path before its native module opens it by
// name (which then finds the one loaded): name -> path.
using Preloads = QList<std::pair<QString, QString>>;

// JAX's CUDA plugin loads the CUDA libraries of the nvidia wheels itself, in
// jax_plugins/xla_cudaNN/__init__.py: `_load("cudnn", ["libcudnn.so.9"])` loads
// site-packages/nvidia/cudnn/lib/libcudnn.so.9 (bin\cudnn64_9.dll on Windows), where it exists;
// its native module names no cuDNN anywhere (measured on the H200: jax-cuda13-plugin 0.11.2).
Preloads jaxPluginPreloads(const SystemContext &context, const QString &site, const QString &initFile)
{
    Preloads preloads;
    const auto content = context.files().read(initFile, 1024 * 1024);
    if (!content)
        return preloads;
    static const QRegularExpression call(
        QStringLiteral("^\\s*_load\\(\\s*[\"'](\\w+)[\"']\\s*,\\s*\\[([^\\]]*)\\]"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression quoted(QStringLiteral("[\"']([^\"']+)[\"']"));
    const SystemPaths &paths = context.paths();
    const bool windows = context.family() == OsFamily::Windows;
    for (auto calls = call.globalMatch(QString::fromUtf8(*content)); calls.hasNext();) {
        const QRegularExpressionMatch match = calls.next();
        const QString folder =
            paths.join(paths.join(paths.join(site, QStringLiteral("nvidia")), match.captured(1)),
                       windows ? QStringLiteral("bin") : QStringLiteral("lib"));
        for (auto names = quoted.globalMatch(match.captured(2)); names.hasNext();) {
            const QString name = names.next().captured(1);
            if (name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')))
                continue;
            const QString path = paths.join(folder, name);
            if (context.files().exists(path))
                preloads.append({name, path});
        }
    }
    return preloads;
}

class ConsumerScan
{
public:
    ConsumerScan(const SystemContext &context, const QList<CudnnCopy> &copies)
        : m_context(context)
        , m_paths(context.paths())
        , m_windows(context.family() == OsFamily::Windows)
        , m_copies(copies)
    {
    }

    // Every wheel in `site` whose RECORD lists native files that use CUDA.
    void scanSite(const QString &site, const LoadContext &load)
    {
        static const QRegularExpression distInfo(QStringLiteral("^(.+?)-([^-]+)\\.dist-info$"));
        for (const QString &folder :
             m_context.files().entries(site, {QStringLiteral("*.dist-info")}, FileSystem::Dirs)) {
            const QRegularExpressionMatch match = distInfo.match(folder);
            const QString project = projectName(match.captured(1));
            if (!match.hasMatch() || project.startsWith(QLatin1String("nvidia-")))
                continue;
            const auto record = m_context.files().read(
                m_paths.join(m_paths.join(site, folder), QStringLiteral("RECORD")), kMaxRecordSize);
            if (!record)
                continue;
            QStringList candidates;
            Preloads preloads;
            for (const QByteArray &line : record->split('\n')) {
                QString entry = QString::fromUtf8(line.left(line.indexOf(','))).trimmed();
                if (entry.startsWith(QLatin1Char('"')))
                    entry = entry.mid(1, entry.size() - 2);
                const QString name = entry.mid(entry.lastIndexOf(QLatin1Char('/')) + 1);
                if (entry.startsWith(QLatin1String("jax_plugins/")) && name == QLatin1String("__init__.py"))
                    preloads += jaxPluginPreloads(m_context, site, m_paths.join(site, entry));
                if (entry.startsWith(QLatin1String("..")) || !isNativeName(name, m_windows) ||
                    isNvidiaLibrary(name))
                    continue;
                candidates.append(m_paths.join(site, entry));
            }
            ConsumerInfo consumer;
            consumer.name = project;
            consumer.version = match.captured(2);
            consumer.location = site;
            if (project == QLatin1String("tensorflow") || project.startsWith(QLatin1String("tensorflow-")))
                tensorflowBuildInfo(m_context, site, consumer);
            addConsumer(consumer, candidates, load, preloads);
        }
    }

    // An application folder: its site-packages by their wheels, every other native file on its own.
    void scanApp(const QString &folder)
    {
        QStringList natives;
        QStringList sites;
        QList<std::pair<QString, int>> pending{{m_paths.normalize(folder), 0}};
        int seen = 0;
        while (!pending.isEmpty() && seen < kMaxAppEntries) {
            const auto [dir, depth] = pending.takeFirst();
            for (const QString &name : m_context.files().entries(dir, {}, FileSystem::Dirs)) {
                ++seen;
                const QString path = m_paths.join(dir, name);
                if (name.compare(QLatin1String("site-packages"), m_paths.caseSensitivity()) == 0)
                    sites.append(path);
                else if (depth + 1 < kMaxAppDepth && !name.startsWith(QLatin1Char('.')) &&
                         name != QLatin1String("__pycache__") && name != QLatin1String("node_modules"))
                    pending.append({path, depth + 1});
            }
            for (const QString &name : m_context.files().entries(dir, {}, FileSystem::Files)) {
                ++seen;
                if (isNativeName(name, m_windows) && !isNvidiaLibrary(name))
                    natives.append(m_paths.join(dir, name));
            }
        }
        if (seen >= kMaxAppEntries)
            qCInfo(lcDetect).noquote()
                << QStringLiteral("application folder %1: walk stopped after %2 entries")
                       .arg(folder)
                       .arg(seen);
        for (const QString &site : std::as_const(sites)) {
            // An embedded Python: site-packages is in Lib (Windows) or lib/pythonX.Y (Linux) of its home.
            const QString home = m_paths.parent(m_paths.parent(site));
            scanSite(site, pythonContext(m_context, home, {}, {site}));
        }
        for (const QString &path : std::as_const(natives)) {
            ConsumerInfo consumer;
            consumer.name = m_paths.fileName(path);
            consumer.location = m_paths.normalize(folder);
            addConsumer(consumer, {path}, programContext(m_context));
        }
    }

    QList<ConsumerInfo> take() { return m_consumers; }

private:
    void addConsumer(ConsumerInfo consumer, const QStringList &candidates, const LoadContext &load,
                     const Preloads &preloads = {})
    {
        QList<NativeFile> used;
        for (const QString &path : candidates) {
            if (std::optional<NativeFile> file = inspectNative(m_context, path); file && file->usesCuda)
                used.append(*file);
        }
        if (used.isEmpty())
            return;
        QStringList needed; // CUDA library names, as asked for, each once
        QStringList opened;
        QSet<QString> sass, sassInPart, ptx, isa;
        const auto note = [&](const QString &name, bool atRunTime) {
            const LibraryName library = classifyLibrary(name);
            if (library.kind == CudaLibrary::None || needed.contains(name, m_paths.caseSensitivity()))
                return;
            needed.append(name);
            if (atRunTime)
                opened.append(name);
            std::optional<int> &major = library.kind == CudaLibrary::Cudnn    ? consumer.cudnnMajor
                                        : library.kind == CudaLibrary::Cublas ? consumer.cublasMajor
                                                                              : consumer.cudaMajor;
            // What is linked counts over what is opened; of several names, the newest major.
            if (library.major && (!major || (!atRunTime && *library.major > *major)))
                major = library.major;
        };
        for (const NativeFile &file : std::as_const(used)) {
            consumer.files.append(file.path);
            for (const QString &name : file.imports) {
                note(name, false);
                if (classifyLibrary(name).kind == CudaLibrary::Cudnn &&
                    !consumer.cudnnImporters.contains(file.path))
                    consumer.cudnnImporters.append(file.path);
            }
            sass.unite(QSet<QString>(file.code.sass.cbegin(), file.code.sass.cend()));
            sassInPart.unite(QSet<QString>(file.code.sassInPart.cbegin(), file.code.sassInPart.cend()));
            ptx.unite(QSet<QString>(file.code.ptx.cbegin(), file.code.ptx.cend()));
            isa.unite(QSet<QString>(file.code.ptxIsa.cbegin(), file.code.ptxIsa.cend()));
        }
        for (const NativeFile &file : std::as_const(used)) {
            for (const QString &name : file.opened)
                note(name, true);
        }
        for (const auto &[name, path] : preloads)
            note(name, true);
        if (!consumer.cudaMajor && consumer.cublasMajor)
            consumer.cudaMajor = consumer.cublasMajor;
        consumer.sass = sortedArchs(sass);
        consumer.sassInPart = sortedArchs(sassInPart.subtract(sass));
        consumer.ptx = sortedArchs(ptx);
        consumer.ptxIsa = sortedArchs(isa);
        resolve(consumer, needed, opened, load, preloads);
        consumer.loadModel = load.model;
        consumer.dllDirectories = load.dllDirectories;
        for (const auto &[name, path] : preloads)
            consumer.preloads.append(path);
        qCInfo(lcDetect).noquote() << QStringLiteral("consumer %1 %2: %3 files, needs %4, SASS %5, PTX %6")
                                          .arg(consumer.name, consumer.version)
                                          .arg(consumer.files.size())
                                          .arg(needed.join(QLatin1Char(' ')),
                                               consumer.sass.join(QLatin1Char(' ')),
                                               consumer.ptx.join(QLatin1Char(' ')));
        m_consumers.append(consumer);
    }

    static QStringList sortedArchs(const QSet<QString> &set)
    {
        QStringList list(set.cbegin(), set.cend());
        static const QRegularExpression digits(QStringLiteral("(\\d+(?:\\.\\d+)?)"));
        std::sort(list.begin(), list.end(), [](const QString &a, const QString &b) {
            const Version left = Version::parse(digits.match(a).captured(1));
            const Version right = Version::parse(digits.match(b).captured(1));
            return left == right ? a < b : left < right;
        });
        return list;
    }

    void resolve(ConsumerInfo &consumer, const QStringList &needed, const QStringList &opened,
                 const LoadContext &load, const Preloads &preloads)
    {
        const DependencyWalk walk = walkDependencies(m_context, consumer.files, load.searchPath, load.model,
                                                     load.dllDirectories, opened);
        for (const QString &name : needed) {
            std::optional<ResolvedLibrary> copy;
            for (const auto &[resolvedName, path] : walk.resolved) {
                if (resolvedName.compare(name, m_paths.caseSensitivity()) == 0 && !path.isEmpty())
                    copy = ResolvedLibrary{path, versionOf(name, path)};
            }
            // Loaded by the package's own Python code first: the one the process has.
            for (const auto &[preloaded, path] : preloads) {
                if (preloaded.compare(name, m_paths.caseSensitivity()) == 0)
                    copy = ResolvedLibrary{path, versionOf(name, path)};
            }
            consumer.resolves.append({name, copy});
        }
    }

    // The detected copy's version for cuDNN, else what the file the link leads to is named.
    QString versionOf(const QString &name, const QString &path) const
    {
        const CudaLibrary kind = classifyLibrary(name).kind;
        if (kind == CudaLibrary::Cudnn) {
            if (const CudnnCopy *copy = copyHolding(m_copies, path, m_paths);
                copy && !copy->version.isEmpty())
                return copy->version;
        }
        const QString real = m_context.files().canonical(path);
        const QString file = m_paths.fileName(real.isEmpty() ? path : real);
        const Version version = kind == CudaLibrary::Cudnn    ? versions::fromCudnnLibraryName(file)
                                : kind == CudaLibrary::Cublas ? versions::fromCublasName(file)
                                                              : versions::fromCudartName(file);
        return version.isValid() ? version.toString() : QString();
    }

    const SystemContext &m_context;
    const SystemPaths &m_paths;
    const bool m_windows;
    const QList<CudnnCopy> &m_copies;
    QList<ConsumerInfo> m_consumers;
};

} // namespace

QList<ConsumerInfo> findConsumers(const SystemContext &context, const QList<PythonEnvironment> &environments,
                                  const QStringList &appFolders, const QList<CudnnCopy> &copies)
{
    QElapsedTimer timer;
    timer.start();
    ConsumerScan scan(context, copies);
    QSet<QString> sitesSeen;
    for (const PythonEnvironment &environment : environments) {
        const QString home =
            environment.home.isEmpty() ? context.paths().parent(environment.interpreter) : environment.home;
        const LoadContext load = pythonContext(context, home, environment.prefix, environment.sitePackages);
        for (const QString &site : environment.sitePackages) {
            // Several interpreters share a site-packages (python3 and python3.12 of one install).
            const QString key = context.paths().normalize(site);
            if (sitesSeen.contains(key))
                continue;
            sitesSeen.insert(key);
            scan.scanSite(site, load);
        }
    }
    for (const QString &folder : appFolders)
        scan.scanApp(folder);
    QList<ConsumerInfo> consumers = scan.take();
    qCInfo(lcDetect) << "consumers:" << consumers.size() << "in" << timer.elapsed() << "ms";
    return consumers;
}

} // namespace cudnnsetup
