#include "detect/CudnnProbe.h"

#include "binary/PeReader.h"
#include "common/Logging.h"
#include "detect/PackageDatabase.h"
#include "detect/VersionParsers.h"
#include "loader/SearchOrder.h"
#include "platform/SystemContext.h"

#include <QMap>

#include <algorithm>

namespace cudnnsetup {

namespace {

struct Place
{
    QString dir;
    QString source;
    QString owner;
    std::optional<int> cudaMajor;
    QStringList headerDirs; // where its cudnn_version.h may be, besides the usual neighbours
    QString sitePackages;   // pip: the site-packages holding the wheel's metadata
};

// ---- Where to look ---------------------------------------------------------------------------

// NVIDIA's cuDNN 9 installer (Windows): CUDNN\v9.x\bin\<cuda>\[x64], headers in include\<cuda>.
void appendCudnnInstallerPlaces(const SystemContext &context, QList<Place> &result)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    const QString cudnnRoot = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN");
    for (const QString &release : files.entries(cudnnRoot, {QStringLiteral("v*")}, FileSystem::Dirs)) {
        const QString base = paths.join(cudnnRoot, release);
        const QString bin = paths.join(base, QStringLiteral("bin"));
        result.append({bin,
                       QStringLiteral("cudnn-installer"),
                       base,
                       std::nullopt,
                       {paths.join(base, QStringLiteral("include"))},
                       {}});
        for (const QString &cuda : files.entries(bin, {}, FileSystem::Dirs)) {
            const Version cudaVersion = Version::parse(cuda);
            const std::optional<int> major =
                cudaVersion.isValid() ? std::optional<int>(cudaVersion.major()) : std::nullopt;
            const QStringList headers{paths.join(base, QStringLiteral("include\\") + cuda)};
            result.append(
                {paths.join(bin, cuda), QStringLiteral("cudnn-installer"), base, major, headers, {}});
            result.append({paths.join(bin, cuda + QStringLiteral("\\x64")),
                           QStringLiteral("cudnn-installer"),
                           base,
                           major,
                           headers,
                           {}});
        }
    }
}

QList<Place> places(const SystemContext &context, const QList<CudaToolkit> &toolkits,
                    const QList<PythonEnvironment> &pythons)
{
    const SystemPaths &paths = context.paths();
    const bool windows = context.family() == OsFamily::Windows;
    QList<Place> result;

    for (const CudaToolkit &toolkit : toolkits) {
        const Version version = Version::parse(toolkit.version);
        const std::optional<int> major =
            version.isValid() ? std::optional<int>(version.major()) : std::nullopt;
        const QString include = paths.join(toolkit.path, QStringLiteral("include"));
        result.append({windows ? toolkit.binDir : toolkit.libDir,
                       QStringLiteral("toolkit"),
                       toolkit.path,
                       major,
                       {include},
                       {}});
        if (windows && !paths.equal(toolkit.binDir, paths.join(toolkit.path, QStringLiteral("bin"))))
            result.append({paths.join(toolkit.path, QStringLiteral("bin")),
                           QStringLiteral("toolkit"),
                           toolkit.path,
                           major,
                           {include},
                           {}});
    }

    if (windows)
        appendCudnnInstallerPlaces(context, result);

    for (const PythonEnvironment &python : pythons) {
        if (!python.libraryDir.isEmpty())
            result.append({python.libraryDir, QStringLiteral("conda"), python.prefix, std::nullopt, {}, {}});
        for (const QString &site : python.sitePackages) {
            const QString cudnn = paths.join(site, QStringLiteral("nvidia/cudnn"));
            result.append({paths.join(cudnn, windows ? QStringLiteral("bin") : QStringLiteral("lib")),
                           QStringLiteral("pip"),
                           python.prefix,
                           std::nullopt,
                           {},
                           site});
            result.append({paths.join(site, QStringLiteral("torch/lib")),
                           QStringLiteral("torch"),
                           python.prefix,
                           std::nullopt,
                           {},
                           {}});
        }
        if (windows && !python.interpreter.isEmpty()) {
            // Python finds DLLs beside python.exe (and a venv's Scripts\) before anything else.
            result.append({paths.parent(python.interpreter),
                           QStringLiteral("python-folder"),
                           python.prefix,
                           std::nullopt,
                           {},
                           {}});
        }
    }

    if (windows) {
        result.append(
            {QStringLiteral("C:\\Windows\\System32"), QStringLiteral("system32"), {}, std::nullopt, {}, {}});
        for (const QString &dir : context.environment().processPath())
            result.append({dir, QStringLiteral("path"), {}, std::nullopt, {}, {}});
        if (const auto fresh = context.environment().freshPath()) {
            for (const QString &dir : *fresh)
                result.append({dir, QStringLiteral("path"), {}, std::nullopt, {}, {}});
        }
    } else {
        const QStringList ldLibraryPath =
            paths.splitList(context.environment().value(QStringLiteral("LD_LIBRARY_PATH")));
        for (const QString &dir : ldLibraryPath)
            result.append({dir, QStringLiteral("ld-library-path"), {}, std::nullopt, {}, {}});
        for (const QString &dir : librarySearchOrder(context))
            result.append({dir, QStringLiteral("system"), {}, std::nullopt, {}, {}});
    }
    return result;
}

// ---- What is there ---------------------------------------------------------------------------

QStringList headerCandidates(const SystemContext &context, const Place &place)
{
    const SystemPaths &paths = context.paths();
    QStringList dirs = place.headerDirs;
    // The include folder beside lib/bin, one or two levels up (bin\x64, lib\x64, lib/x86_64-linux-gnu).
    QString up = place.dir;
    for (int level = 0; level < 3; ++level) {
        up = paths.parent(up);
        if (up.isEmpty())
            break;
        dirs.append(paths.join(up, QStringLiteral("include")));
    }
    // Debian multiarch: /usr/lib/x86_64-linux-gnu pairs with /usr/include/x86_64-linux-gnu.
    static const QRegularExpression multiarch(QStringLiteral("^(/usr)?/lib/([a-z0-9_]+-linux-gnu[a-z]*)$"));
    const auto match = multiarch.match(place.dir);
    if (match.hasMatch()) {
        dirs.prepend(QStringLiteral("/usr/include/") + match.captured(2));
        dirs.append(QStringLiteral("/usr/include"));
    }
    QStringList files;
    for (const QString &dir : std::as_const(dirs)) {
        files.append(paths.join(dir, QStringLiteral("cudnn_version.h")));
        files.append(paths.join(dir, QStringLiteral("cudnn.h"))); // 7.x kept its version here
    }
    return files;
}

void readVersion(const SystemContext &context, const Place &place, int major, CudnnCopy &copy)
{
    const FileSystem &files = context.files();
    for (const QString &header : headerCandidates(context, place)) {
        if (!files.isFile(header))
            continue;
        const auto content = files.read(header, 4 * 1024 * 1024);
        if (!content)
            continue;
        const Version version = versions::fromCudnnHeader(*content);
        if (version.isValid() && version.major() == major) {
            copy.version = version.toString();
            copy.versionSource = QStringLiteral("header");
            copy.headerPath = header;
            return;
        }
    }
    if (context.family() == OsFamily::Windows) {
        const QString host = files.toHost(copy.path);
        const auto pe = pe::readFile(host);
        if (pe && pe->fileVersion.isValid() && pe->fileVersion.major() == major) {
            copy.version = pe->fileVersion.truncated(3).toString();
            copy.versionSource = QStringLiteral("version-resource");
            return;
        }
    }
    if (!place.sitePackages.isEmpty()) {
        for (const QString &distInfo : files.entries(
                 place.sitePackages, {QStringLiteral("nvidia_cudnn_cu*.dist-info")}, FileSystem::Dirs)) {
            const Version version = versions::fromDistInfoName(distInfo);
            if (version.isValid() && version.major() == major) {
                copy.version = version.truncated(3).toString();
                copy.versionSource = QStringLiteral("pip-metadata");
                return;
            }
        }
    }
    Version best;
    for (const QString &name : copy.libraries) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (version.major() == major && version.size() > best.size())
            best = version;
    }
    if (best.size() >= 2) {
        copy.version = best.truncated(3).toString();
        copy.versionSource = QStringLiteral("file-name");
    }
}

std::optional<int> wheelCudaMajor(const SystemContext &context, const QString &sitePackages)
{
    for (const QString &distInfo : context.files().entries(
             sitePackages, {QStringLiteral("nvidia_cudnn_cu*.dist-info")}, FileSystem::Dirs)) {
        if (const auto major = versions::cudaMajorFromCudnnWheel(distInfo))
            return major;
    }
    return std::nullopt;
}

// NVIDIA's apt packages name the CUDA a cuDNN build is for: libcudnn9-cuda-13.
void readPackageOwner(const SystemContext &context, const PackageDatabase &packages, CudnnCopy &copy)
{
    static const QRegularExpression name(QStringLiteral("^libcudnn\\d+-cuda-(\\d+)$"));
    for (const QString &library : std::as_const(copy.libraries)) {
        const QString package = packages.cudnnPackageOwning(context.paths().join(copy.directory, library));
        const auto match = name.match(package);
        if (match.hasMatch()) {
            copy.cudaMajor = match.captured(1).toInt();
            copy.owner = package;
            return;
        }
    }
}

// The library that names a set: cudnn64_9.dll, libcudnn.so.9 (what the loader is asked for).
QString mainLibraryName(OsFamily family, int major)
{
    return family == OsFamily::Windows ? QStringLiteral("cudnn64_%1.dll").arg(major)
                                       : QStringLiteral("libcudnn.so.%1").arg(major);
}

QList<CudnnCopy> copiesIn(const SystemContext &context, const Place &place, const PackageDatabase &packages)
{
    const bool windows = context.family() == OsFamily::Windows;
    const QStringList names = context.files().entries(
        place.dir, {windows ? QStringLiteral("cudnn*.dll") : QStringLiteral("libcudnn*.so*")},
        FileSystem::Files);
    QMap<int, QStringList> byMajor;
    for (const QString &name : names) {
        if (!versions::isCudnnLibraryName(name))
            continue;
        const Version version = versions::fromCudnnLibraryName(name);
        byMajor[version.isValid() ? version.major() : 0].append(name);
    }
    QList<CudnnCopy> copies;
    for (auto it = byMajor.cbegin(); it != byMajor.cend(); ++it) {
        if (it.key() == 0)
            continue; // "libcudnn.so" alone: a development link, not a library of its own
        CudnnCopy copy;
        copy.directory = place.dir;
        copy.libraries = it.value();
        const QString main = mainLibraryName(context.family(), it.key());
        const auto mainIt =
            std::find_if(copy.libraries.cbegin(), copy.libraries.cend(), [&](const QString &name) {
                return name.compare(main, windows ? Qt::CaseInsensitive : Qt::CaseSensitive) == 0;
            });
        const auto anyMain =
            std::find_if(copy.libraries.cbegin(), copy.libraries.cend(),
                         [](const QString &name) { return versions::isMainCudnnLibraryName(name); });
        const QString file = mainIt != copy.libraries.cend()    ? *mainIt
                             : anyMain != copy.libraries.cend() ? *anyMain
                                                                : copy.libraries.first();
        copy.path = context.paths().join(place.dir, file);
        copy.source = place.source;
        copy.owner = place.owner;
        copy.cudaMajor = place.cudaMajor;
        if (!copy.cudaMajor && !place.sitePackages.isEmpty())
            copy.cudaMajor = wheelCudaMajor(context, place.sitePackages);
        if (!copy.cudaMajor)
            readPackageOwner(context, packages, copy);
        readVersion(context, place, it.key(), copy);
        copies.append(copy);
    }
    return copies;
}

int majorOf(const CudnnCopy &copy)
{
    for (const QString &name : copy.libraries) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (version.isValid())
            return version.major();
    }
    return 0;
}

void assignLoadOrder(const SystemContext &context, QList<CudnnCopy> &copies, Findings &findings)
{
    const SystemPaths &paths = context.paths();
    const FileSystem &files = context.files();
    QStringList order;
    for (const QString &dir : librarySearchOrder(context)) {
        const QString canonical = files.canonical(dir);
        if (!canonical.isEmpty())
            order.append(canonical);
    }
    QMap<int, QList<int>> reachable; // major -> indexes of copies, in search order
    for (int position = 0; position < order.size(); ++position) {
        for (int i = 0; i < copies.size(); ++i) {
            CudnnCopy &copy = copies[i];
            if (copy.loadOrder || !paths.equal(copy.directory, order.at(position)))
                continue;
            const int major = majorOf(copy);
            const QString main = mainLibraryName(context.family(), major);
            if (!copy.libraries.contains(main, paths.caseSensitivity()))
                continue; // the loader asks for the main library by name
            reachable[major].append(i);
            copy.loadOrder = int(reachable[major].size());
        }
    }
    for (auto it = reachable.cbegin(); it != reachable.cend(); ++it) {
        if (it.value().size() < 2)
            continue;
        const CudnnCopy &winner = copies.at(it.value().first());
        QList<Text> losers;
        bool versionsDiffer = false;
        for (int index : it.value().mid(1)) {
            const CudnnCopy &loser = copies.at(index);
            losers.append(
                loser.version.isEmpty()
                    ? Text::verbatim(loser.path)
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (%2)")).arg(loser.path, loser.version));
            versionsDiffer = versionsDiffer || loser.version != winner.version;
        }
        const Text message =
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Programs load %1 (cuDNN %2); the other copies on the search path are never used: %3."))
                .arg(winner.path)
                .arg(winner.version.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "of unknown version"))
                                              : Text::verbatim(winner.version))
                .arg(Text::list(losers));
        const QString details = QStringLiteral("search order: %1").arg(order.join(QStringLiteral(" | ")));
        const Text fix = Text(
            QT_TRANSLATE_NOOP("cudnnsetup", "Keep one cuDNN on the search path: remove the folders of the "
                                            "copies you do not use from PATH, or let Repair do it."));
        findings.append(versionsDiffer
                            ? Finding::warning(QStringLiteral("cudnn.shadowed"), message, details, fix)
                            : Finding::info(QStringLiteral("cudnn.duplicate"), message, details, fix));
    }
}

} // namespace

QStringList findZlibwapi(const SystemContext &context, const QList<CudnnCopy> &copies)
{
    if (context.family() != OsFamily::Windows)
        return {};
    const SystemPaths &paths = context.paths();
    QStringList dirs;
    for (const CudnnCopy &copy : copies)
        dirs.append(copy.directory);
    dirs += librarySearchOrder(context);
    QStringList found;
    for (const QString &dir : std::as_const(dirs)) {
        const QString candidate = paths.join(dir, QStringLiteral("zlibwapi.dll"));
        const bool seen = std::any_of(found.cbegin(), found.cend(),
                                      [&](const QString &f) { return paths.equal(f, candidate); });
        if (!seen && context.files().isFile(candidate))
            found.append(candidate);
    }
    return found;
}

QList<CudnnCopy> probeCudnn(const SystemContext &context, const QList<CudaToolkit> &toolkits,
                            const QList<PythonEnvironment> &pythons, const PackageDatabase &packages,
                            const DetectOptions &options, Findings &findings)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    QList<CudnnCopy> copies;
    QStringList visited;
    for (const Place &place : places(context, toolkits, pythons)) {
        if (options.cancelled())
            break;
        if (!paths.isAbsolute(place.dir))
            continue;
        const QString canonical = files.canonical(place.dir);
        if (canonical.isEmpty() || !files.isDir(canonical))
            continue;
        const bool seen = std::any_of(visited.cbegin(), visited.cend(),
                                      [&](const QString &d) { return paths.equal(d, canonical); });
        if (seen)
            continue; // the first, most specific way of reaching a folder names its source
        visited.append(canonical);
        Place resolved = place;
        resolved.dir = canonical;
        copies += copiesIn(context, resolved, packages);
    }
    assignLoadOrder(context, copies, findings);
    if (copies.isEmpty()) {
        findings.append(
            Finding::info(QStringLiteral("cudnn.none"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system."))));
    }
    for (const CudnnCopy &copy : std::as_const(copies))
        qCDebug(lcDetect) << "cudnn" << copy.path << copy.version << copy.source
                          << copy.loadOrder.value_or(0);
    return copies;
}

} // namespace cudnnsetup
