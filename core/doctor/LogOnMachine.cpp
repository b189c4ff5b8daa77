#include "doctor/LogOnMachine.h"

#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"
#include "doctor/DoctorRules.h"
#include "doctor/RepairSteps.h"
#include "install/Zlibwapi.h"

#include <algorithm>

#include <QDir>

namespace cudnnsetup {

namespace {

// The folders of the text, in the inspected system's form, that exist there.
QStringList foldersHere(const ErrorLog &log, const DoctorFacts &facts)
{
    QStringList here;
    for (const QString &folder : log.folders) {
        const QString normalized = facts.paths().normalize(folder);
        if (!normalized.isEmpty() && facts.context.files().isDir(normalized))
            here.append(normalized);
    }
    return here;
}

// The Python whose environment a folder of the text lies in: its interpreter's folder, or its
// packages (a folder below the prefix naming site-packages or dist-packages); the deepest prefix wins.
const PythonInstall *pythonNamed(const QStringList &folders, const DoctorFacts &facts)
{
    const SystemPaths &paths = facts.paths();
    const PythonInstall *best = nullptr;
    qsizetype bestLength = -1;
    for (const PythonInstall &python : facts.snapshot.pythons) {
        const QString prefix = pythonPrefix(paths, python.path);
        const bool named = std::any_of(folders.cbegin(), folders.cend(), [&](const QString &folder) {
            return paths.equal(folder, paths.parent(python.path)) ||
                   (paths.startsWith(folder, prefix) &&
                    (folder.contains(QLatin1String("site-packages"), Qt::CaseInsensitive) ||
                     folder.contains(QLatin1String("dist-packages"))));
        });
        if (named && prefix.size() > bestLength) {
            best = &python;
            bestLength = prefix.size();
        }
    }
    return best;
}

// The folder a consumer is known by: its package's (site-packages\torch) or its program's.
QString consumerFolder(const SystemPaths &paths, const ConsumerInfo &consumer)
{
    if (consumer.files.isEmpty())
        return consumer.location;
    const QString file = consumer.files.first();
    QString folder = paths.parent(file);
    while (!paths.equal(paths.parent(folder), consumer.location) &&
           paths.startsWith(folder, consumer.location) && !paths.equal(folder, consumer.location))
        folder = paths.parent(folder);
    return folder;
}

// The consumer the text names: the one whose folder a folder of the text lies in, preferring the one
// the signature's own line names and one that uses cuDNN; else, in the Python environment named, the
// one that uses cuDNN (torch first).
const ConsumerInfo *consumerNamed(const QStringList &folders, const LogSignature &signature,
                                  const PythonInstall *python, const DoctorFacts &facts)
{
    const SystemPaths &paths = facts.paths();
    const ConsumerInfo *best = nullptr;
    int bestScore = 0;
    for (const ConsumerInfo &consumer : facts.snapshot.consumers) {
        const QString folder = consumerFolder(paths, consumer);
        const bool named = std::any_of(folders.cbegin(), folders.cend(),
                                       [&](const QString &f) { return paths.startsWith(f, folder); });
        if (!named)
            continue;
        const int score =
            1 + (signature.excerpt.contains(paths.fileName(folder)) ? 2 : 0) + (consumer.cudnnMajor ? 1 : 0);
        if (score > bestScore) {
            best = &consumer;
            bestScore = score;
        }
    }
    if (best || !python)
        return best;
    const QString prefix = pythonPrefix(paths, python->path);
    for (const ConsumerInfo &consumer : facts.snapshot.consumers) {
        if (!paths.startsWith(consumer.location, prefix) || !consumer.cudnnMajor)
            continue;
        if (!best || consumer.name == QLatin1String("torch"))
            best = &consumer;
    }
    return best;
}

struct Reach
{
    bool known = false; // whether what the program loads could be told at all
    QString file;       // the file it loads; empty: none reachable
    QString missing;    // the library it cannot reach: the one asked for, or the main library of its set
    const CudnnCopy *copy = nullptr;
};

// The zlibwapi.dll cuDNN finds: beside its DLLs first; from Python 3.8 on only there, in System32
// and beside python.exe (PATH is not searched); for a program also where any process finds one.
QString zlibwapiReached(const CudnnCopy *copy, const PythonInstall *python, const DoctorFacts &facts)
{
    const SystemPaths &paths = facts.paths();
    QStringList folders;
    if (copy)
        folders.append(copy->directory);
    if (python) {
        const QString windows = facts.context.environment().value(QStringLiteral("SystemRoot"));
        folders += {paths.join(windows.isEmpty() ? QStringLiteral("C:\\Windows") : windows,
                               QStringLiteral("System32")),
                    paths.parent(python->path)};
    }
    for (const QString &folder : std::as_const(folders)) {
        const QString file = paths.join(folder, QLatin1String(kZlibwapiName));
        if (facts.context.files().isFile(file))
            return file;
    }
    return python ? QString() : facts.snapshot.zlibwapi.value(0);
}

// Which copy of `library` the consumer (else the Python's torch) loads here.
Reach reachOf(const QString &library, int cudnnMajor, const ConsumerInfo *consumer,
              const PythonInstall *python, const DoctorFacts &facts)
{
    Reach reach;
    if (library.isEmpty())
        return reach;
    const bool zlibwapi = library.compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) == 0;
    if (consumer) {
        for (const auto &[name, resolved] : consumer->resolves) {
            const bool same = name.compare(library, Qt::CaseInsensitive) == 0;
            // cuDNN loads its sub-libraries (and zlibwapi.dll) from its main library's folder.
            const bool mainOfSet = (cudnnMajor > 0 || zlibwapi) && versions::isMainCudnnLibraryName(name) &&
                                   (zlibwapi || versions::fromCudnnLibraryName(name).major() == cudnnMajor);
            if (!same && !mainOfSet)
                continue;
            reach.known = true;
            if (!resolved) {
                reach.missing = name;
                return reach;
            }
            reach.copy = facts.copyHolding(resolved->path);
            if (same) {
                reach.file = resolved->path;
            } else if (zlibwapi) {
                reach.file = zlibwapiReached(reach.copy, python, facts);
            } else if (reach.copy && !zlibwapi &&
                       reach.copy->libraries.contains(library, facts.paths().caseSensitivity()))
                reach.file = facts.paths().join(reach.copy->directory, library);
            return reach;
        }
    }
    if (python && python->torch && !python->torch->cudnnLoadedFrom.isEmpty() &&
        (cudnnMajor > 0 || zlibwapi)) {
        reach.known = true;
        reach.copy = facts.copyHolding(python->torch->cudnnLoadedFrom);
        if (reach.copy && cudnnMajorOf(*reach.copy) == cudnnMajor &&
            reach.copy->libraries.contains(library, facts.paths().caseSensitivity()))
            reach.file = facts.paths().join(reach.copy->directory, library);
    }
    return reach;
}

// Why a program finds `copy` first, in words.
Text whyLoaded(const CudnnCopy &copy, const PythonInstall *python, const DoctorFacts &facts)
{
    if (python && facts.belongsTo(copy, *python))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "the environment's own copy"));
    if (copy.source == QLatin1String("python-folder") || copy.source == QLatin1String("system32"))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a folder Windows searches before PATH"));
    if (copy.loadOrder)
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "number %1 in the library search path"))
            .arg(qint64(*copy.loadOrder));
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "where the program's own loader looks"));
}

// The copy of cuDNN `major` in the Python environment itself (pip's, torch's), else the newest
// one the search path reaches; null when there is none.
const CudnnCopy *wantedCopy(int major, const QString &atLeast, const PythonInstall *python,
                            const DoctorFacts &facts)
{
    const Version minimum = Version::parse(atLeast);
    const CudnnCopy *wanted = nullptr;
    for (const CudnnCopy &copy : facts.snapshot.cudnn) {
        const Version version = Version::parse(copy.version);
        if (cudnnMajorOf(copy) != major || (minimum.isValid() && version.isValid() && version < minimum))
            continue;
        if (python && facts.belongsTo(copy, *python))
            return &copy;
        if (copy.loadOrder && (!wanted || version > Version::parse(wanted->version)))
            wanted = &copy;
    }
    return wanted;
}

const Diagnosis *ruleAbout(const QList<Diagnosis> &rules, const QString &id, const QString &mentions)
{
    const auto found = std::find_if(rules.cbegin(), rules.cend(), [&](const Diagnosis &rule) {
        return rule.finding.id == id && (rule.finding.message.toEnglish().contains(mentions) ||
                                         rule.finding.details.contains(mentions));
    });
    return found == rules.cend() ? nullptr : &*found;
}

struct Remedy
{
    Text fix;
    std::optional<Repair> repair;
};

// The cuDNN DLLs of the archive the user offered put into `folder`, where the archive is cuDNN `major`.
std::optional<Repair> archiveInto(const DoctorFacts &facts, const QString &folder, int major)
{
    if (facts.input.archive.isEmpty())
        return std::nullopt;
    InspectOptions quickLook;
    quickLook.verifyData = false;
    const Expected<ArchiveReport> archive =
        inspectArchive(facts.input.archive, facts.database.publishedArchives(), quickLook);
    if (!archive || archive->verdict != ArchiveReport::Verdict::Ok || archive->cudnn.major() != major ||
        !archive->platform.startsWith(facts.windows ? QLatin1String("windows") : QLatin1String("linux")))
        return std::nullopt;
    return repairs::fromArchive(facts.context, folder, facts.input.archive, *archive, true);
}

Remedy remedyFor(const LogSignature &signature, const QString &library, const Reach &reach,
                 const ConsumerInfo *consumer, const PythonInstall *python, const DoctorFacts &facts,
                 const QList<Diagnosis> &rules)
{
    const SystemPaths &paths = facts.paths();
    const QString kind = signature.kind;
    if (kind == QLatin1String("cpu-only-build") && python) {
        if (const Diagnosis *rule = ruleAbout(rules, QStringLiteral("doctor.torch-cpu-only"), python->path))
            return {rule->finding.fix, rule->repair};
    }
    if ((kind == QLatin1String("driver-too-old") || kind == QLatin1String("gpu-arch-unsupported")) &&
        python && python->torch) {
        if (const Diagnosis *rule =
                ruleAbout(rules, QStringLiteral("doctor.driver-too-old-for-torch"), python->path))
            return {rule->finding.fix, rule->repair};
        const Version cuda = Version::parse(python->torch->cuda);
        const Version minimum =
            cuda.isValid() ? facts.database.toolkitMinimumDriver(facts.context.family(), cuda) : Version();
        if (kind == QLatin1String("driver-too-old") && minimum.isValid())
            return {Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch %1 is built for CUDA %2: update the driver "
                                                         "to %3 or newer."))
                        .arg(python->torch->version, cuda.toString(), minimum.toString()),
                    std::nullopt};
        if (kind == QLatin1String("gpu-arch-unsupported") && !facts.snapshot.gpus.isEmpty()) {
            const GpuInfo &gpu = facts.snapshot.gpus.first();
            return {Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "torch %1 has no code for the %2 (compute capability %3): install "
                                           "the torch wheel built for a CUDA version that supports it and "
                                           "that the driver (CUDA up to %4) runs, with pip install torch "
                                           "--index-url https://download.pytorch.org/whl/cuXXX."))
                        .arg(python->torch->version, gpu.name, gpu.computeCapability,
                             facts.snapshot.driver && !facts.snapshot.driver->maxCuda.isEmpty()
                                 ? facts.snapshot.driver->maxCuda
                                 : QStringLiteral("?")),
                    std::nullopt};
        }
    }
    if (library.isEmpty())
        return {};
    const bool zlibwapi = library.compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) == 0;
    if (zlibwapi && reach.copy && facts.windows && embeddedZlibwapiAvailable()) {
        return {
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1."))
                .arg(reach.copy->directory),
            repairs::placeZlibwapi(facts.context, reach.copy->directory)};
    }
    const int major = signature.cudnnMajor;
    if (major == 0)
        return {};
    if (reach.copy && cudnnMajorOf(*reach.copy) == major &&
        !(python && facts.belongsTo(*reach.copy, *python))) {
        // Another copy is found first: the one the environment brings, or a newer one, should be.
        const CudnnCopy *wanted = wantedCopy(major, signature.expectedCudnn, python, facts);
        if (wanted && wanted != reach.copy) {
            auto [repair, fix] = shadowRemedy(facts, *reach.copy, wanted->directory);
            return {fix, repair};
        }
    }
    if (reach.known && reach.file.isEmpty()) {
        // Nothing it reaches holds the library: cuDNN `major` beside the program.
        const QString folder = consumer ? paths.parent(consumer->files.value(0, consumer->location))
                                        : (reach.copy ? reach.copy->directory : QString());
        if (folder.isEmpty())
            return {};
        if (std::optional<Repair> repair = archiveInto(facts, folder, major))
            return {
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair put the cuDNN %1 libraries of %2 into "
                                                     "%3, beside the program."))
                    .arg(QString::number(major), QDir::toNativeSeparators(facts.input.archive), folder),
                repair};
        return {Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Put every library of a cuDNN %1 archive into %2, beside the program "
                                       "(or give that archive to the repair with --archive)."))
                    .arg(QString::number(major), folder),
                std::nullopt};
    }
    return {};
}

} // namespace

Diagnosis diagnoseLoggedError(LogSignature &signature, const ErrorLog &log, const DoctorFacts &facts,
                              const QList<Diagnosis> &rules)
{
    Diagnosis result;
    result.finding = explainSignature(signature);
    const QStringList folders = foldersHere(log, facts);
    if (folders.isEmpty()) {
        if (!log.folders.isEmpty())
            result.finding.message =
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 None of the folders the error names is on this system: it came "
                                       "from another machine (or an environment since removed), so this is "
                                       "what it means in general."))
                    .arg(result.finding.message);
        return result;
    }
    const PythonInstall *python = pythonNamed(folders, facts);
    const ConsumerInfo *consumer = consumerNamed(folders, signature, python, facts);
    if (python)
        signature.environment = python->path;
    if (consumer)
        signature.consumer = consumer->name;
    const QString library = signature.dependency.isEmpty() ? signature.library : signature.dependency;
    const Reach reach = reachOf(library, signature.cudnnMajor, consumer, python, facts);
    if (reach.known)
        signature.loads = reach.file;

    Text here;
    if (consumer || python) {
        const QString who = consumer ? (consumer->version.isEmpty()
                                            ? consumer->name
                                            : QStringLiteral("%1 %2").arg(consumer->name, consumer->version))
                                     : python->path;
        here = python && consumer
                   ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "On this system the error is from %1 in %2."))
                         .arg(who, python->path)
                   : Text(QT_TRANSLATE_NOOP("cudnnsetup", "On this system the error is from %1.")).arg(who);
        if (reach.known && !reach.file.isEmpty())
            here =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 Here it loads %2 (cuDNN %3), %4."))
                    .arg(here, Text::verbatim(reach.file),
                         reach.copy && !reach.copy->version.isEmpty()
                             ? Text::verbatim(reach.copy->version)
                             : Text(QT_TRANSLATE_NOOP("cudnnsetup", "of unknown version")),
                         reach.copy
                             ? whyLoaded(*reach.copy, python, facts)
                             : Text(QT_TRANSLATE_NOOP("cudnnsetup", "where the program's own loader looks")));
        else if (reach.known)
            here = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 Here no copy of %2 is reachable from it."))
                       .arg(here, Text::verbatim(reach.missing.isEmpty() ? library : reach.missing));
    } else {
        // The deepest folder, one the signature's own line names first.
        const auto shown =
            std::max_element(folders.cbegin(), folders.cend(), [&](const QString &a, const QString &b) {
                return std::make_pair(signature.excerpt.contains(a), a.size()) <
                       std::make_pair(signature.excerpt.contains(b), b.size());
            });
        here =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The folder %1 named in the error exists on this system."))
                .arg(Text::verbatim(*shown));
    }
    result.finding.message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 %2")).arg(result.finding.message, here);
    const Remedy remedy = remedyFor(signature, library, reach, consumer, python, facts, rules);
    if (!remedy.fix.isEmpty()) {
        result.finding.fix = remedy.fix;
        result.repair = remedy.repair;
    } else if (signature.kind == QLatin1String("missing-library") && !reach.file.isEmpty()) {
        // The program reaches the library now, and nothing finer is wrong: the error is not this
        // system's any more (a repair since, or another shell's environment).
        result.finding.severity = Severity::Info;
        result.finding.message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 So this error does not happen here now."))
                .arg(result.finding.message);
        result.finding.fix = Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Run the program again; if the error comes back, paste the new text."));
    }
    return result;
}

} // namespace cudnnsetup
