#include "doctor/DoctorRules.h"

#include "binary/PeReader.h"
#include "common/Surface.h"
#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"
#include "doctor/RepairSteps.h"
#include "install/Operations.h"
#include "install/Zlibwapi.h"
#include "verify/LoadErrors.h"
#include "verify/ReleaseMix.h"

#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace cudnnsetup {

namespace {

// The order a freshly started program's PATH is built in: the machine's entries, then the user's.
const QList<EnvironmentScope> kScopes = {EnvironmentScope::Machine, EnvironmentScope::User};

// Copies that belong to a Python environment rather than to PATH.
const QStringList kPythonSources = {QStringLiteral("pip"), QStringLiteral("torch"), QStringLiteral("conda"),
                                    QStringLiteral("python-folder")};

Diagnosis diagnosis(const Finding &finding, int failureMode, std::optional<Repair> repair = std::nullopt)
{
    Diagnosis result;
    result.finding = finding;
    result.failureMode = failureMode;
    result.repair = std::move(repair);
    return result;
}

// A finding of another part (the matcher, the zlibwapi check) told as the doctor's own.
Finding renamed(Finding finding, const QString &id)
{
    finding.id = id;
    return finding;
}

Text versionOf(const CudnnCopy &copy)
{
    return copy.version.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "of unknown version"))
                                  : Text::verbatim(copy.version);
}

QString mainLibrary(OsFamily family, int major)
{
    return family == OsFamily::Windows ? QStringLiteral("cudnn64_%1.dll").arg(major)
                                       : QStringLiteral("libcudnn.so.%1").arg(major);
}

bool hasLibrary(const DoctorFacts &facts, const CudnnCopy &copy, const QString &name)
{
    return copy.libraries.contains(name, facts.paths().caseSensitivity());
}

// The environment folder of an interpreter: a venv's or conda env's root, C:\Python312.
QString pythonPrefix(const SystemPaths &paths, const QString &interpreter)
{
    const QString folder = paths.parent(interpreter);
    const QString name = paths.fileName(folder);
    if (name.compare(QLatin1String("Scripts"), Qt::CaseInsensitive) == 0 || name == QLatin1String("bin"))
        return paths.parent(folder);
    return folder;
}

QString windowsFolder(const DoctorFacts &facts)
{
    const QString value = facts.context.environment().value(QStringLiteral("SystemRoot"));
    return value.isEmpty() ? QStringLiteral("C:\\Windows") : value;
}

bool inWindowsFolder(const DoctorFacts &facts, const CudnnCopy &copy)
{
    return copy.source == QLatin1String("system32") ||
           facts.paths().startsWith(copy.directory, windowsFolder(facts));
}

bool pythonAtLeast(const PythonInstall &python, int major, int minor)
{
    const Version version = Version::parse(python.version);
    return version.isValid() && version.truncated(2) >= Version::fromParts({major, minor});
}

// Several PATH repairs (one per scope) as one.
void mergeInto(std::optional<Repair> &merged, const Repair &repair)
{
    if (!merged) {
        merged = repair;
        return;
    }
    merged->preview += repair.preview;
    merged->steps += repair.steps;
    merged->needsAdministrator = merged->needsAdministrator || repair.needsAdministrator;
}

// ---- #1 zlibwapi.dll -------------------------------------------------------------------------

bool needsZlibwapi(const DoctorFacts &facts, const CudnnCopy &copy)
{
    QList<DllImage> images;
    for (const QString &name : copy.libraries)
        images.append(DllImage::fromFile(facts.context, facts.paths().join(copy.directory, name)));
    Findings unread;
    if (!dllsImportingZlibwapi(images, &unread).isEmpty())
        return true;
    // Imports that cannot be read: the release tells (NVIDIA's 8.3 to 9.1 need it).
    const Version version = Version::parse(copy.version).truncated(3);
    return !unread.isEmpty() && version.isValid() && version >= facts.database.zlibNeededFrom() &&
           version < facts.database.zlibNeededBefore();
}

void zlibwapiRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    QList<const CudnnCopy *> copies = facts.inUse();
    QSet<const CudnnCopy *> probeSaysSo;
    if (facts.input.verify) {
        for (const DependencyProblem &problem : facts.input.verify->dependencies.problems) {
            if (problem.library.compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) != 0)
                continue;
            if (const CudnnCopy *copy = facts.copyHolding(problem.neededBy)) {
                probeSaysSo.insert(copy);
                if (!copies.contains(copy))
                    copies.append(copy);
            }
        }
    }
    QStringList pythons;
    for (const PythonInstall &python : facts.snapshot.pythons) {
        if (pythonAtLeast(python, 3, 8))
            pythons.append(python.path);
    }
    for (const CudnnCopy *copy : std::as_const(copies)) {
        if (cudnnMajorOf(*copy) == 0 || (!probeSaysSo.contains(copy) && !needsZlibwapi(facts, *copy)))
            continue;
        Findings found;
        if (existingZlibwapi(facts.context, copy->directory, &found))
            continue;
        const auto wrong = std::find_if(found.cbegin(), found.cend(), [](const Finding &finding) {
            return finding.id == QLatin1String("zlibwapi.wrong-machine") ||
                   finding.id == QLatin1String("zlibwapi.invalid");
        });
        Finding finding =
            wrong != found.cend()
                ? renamed(*wrong, QStringLiteral("doctor.zlibwapi-wrong-architecture"))
                : Finding::error(
                      QStringLiteral("doctor.zlibwapi-missing"),
                      Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                             "%1 needs zlibwapi.dll on Windows, and none was found: it "
                                             "fails with \"Could not locate zlibwapi.dll\"."))
                          .arg(copy->path),
                      QStringLiteral("cuDNN %1 in %2").arg(versionOf(*copy).toEnglish(), copy->directory));
        finding.severity = Severity::Error;
        std::optional<Repair> repair;
        if (!embeddedZlibwapiAvailable()) {
            finding.fix =
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Download %1 and put dll_x64\\zlibwapi.dll beside the cuDNN DLLs."))
                    .arg(facts.database.zlibArchiveUrl());
        } else {
            repair = repairs::placeZlibwapi(facts.context, copy->directory);
            finding.fix =
                pythons.isEmpty()
                    ? Text(QT_TRANSLATE_NOOP(
                               "cudnnsetup",
                               "Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1."))
                          .arg(copy->directory)
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair put a 64-bit zlibwapi.dll beside "
                                                           "the cuDNN DLLs in %1. Python 3.8 "
                                                           "and newer (%2) do not look for it on PATH: only "
                                                           "beside the cuDNN DLLs, in System32 "
                                                           "and beside python.exe."))
                          .arg(copy->directory, Text::list(pythons));
        }
        out.append(diagnosis(finding, 1, repair));
    }
}

// ---- #2 an incomplete set ----------------------------------------------------------------------

// The cuDNN DLLs of the archive the user offered (--archive) put into `copy`'s folder, where the
// archive fits (inspected once, into `archive`); otherwise why not, in the finding's details.
std::optional<Repair> repairFromArchive(const DoctorFacts &facts, const CudnnCopy &copy, int major,
                                        std::optional<Expected<ArchiveReport>> &archive, Finding &finding)
{
    if (facts.input.archive.isEmpty())
        return std::nullopt;
    if (!archive) {
        InspectOptions quickLook;
        quickLook.verifyData = false;
        archive = inspectArchive(facts.input.archive, facts.database.publishedArchives(), quickLook);
    }
    const bool fits =
        *archive && (*archive)->verdict == ArchiveReport::Verdict::Ok && (*archive)->cudnn.major() == major &&
        (*archive)->platform.startsWith(facts.windows ? QLatin1String("windows") : QLatin1String("linux"));
    if (fits)
        return repairs::fromArchive(facts.context, copy.directory, facts.input.archive, **archive);
    finding.details +=
        QStringLiteral("; the archive %1 does not fit: %2")
            .arg(facts.input.archive, *archive ? QStringLiteral("cuDNN %1, %2, %3")
                                                     .arg((*archive)->cudnn.toString(), (*archive)->platform,
                                                          (*archive)->verdictName())
                                               : archive->error().details);
    return std::nullopt;
}

void incompleteSetRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    std::optional<Expected<ArchiveReport>> archive;
    for (const CudnnCopy *copy : facts.inUse()) {
        const int major = cudnnMajorOf(*copy);
        const QString main = mainLibrary(facts.context.family(), major);
        if (major == 0 || !hasLibrary(facts, *copy, main))
            continue;
        const QStringList missing = versions::missingCudnnLibraries(
            copy->libraries, facts.context.family() == OsFamily::Windows, major);
        if (missing.isEmpty())
            continue;
        Finding finding = Finding::error(
            QStringLiteral("doctor.cudnn-incomplete"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The cuDNN in %1 is incomplete: %2 is there, but %3 are "
                                   "missing, so programs fail when cuDNN loads them (error 126)."))
                .arg(copy->directory, main, Text::list(missing)),
            QStringLiteral("cuDNN %1; libraries: %2")
                .arg(versionOf(*copy).toEnglish(), copy->libraries.join(QLatin1Char(' '))),
            (surface() == Surface::Wizard
                 ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                          "Copy every library of the cuDNN archive into %1, not only %2, or "
                                          "install the archive again: Install cuDNN on this wizard's first "
                                          "page."))
                 : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                          "Copy every library of the cuDNN archive into %1, not only %2, "
                                          "or give the archive to the repair (--archive) so that it "
                                          "copies them.")))
                .arg(copy->directory, main));
        out.append(diagnosis(finding, 2, repairFromArchive(facts, *copy, major, archive, finding)));
    }
}

// A set whose libraries come from different releases ("Could not load symbol ... Error code 127").
void mixedReleaseRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    std::optional<Expected<ArchiveReport>> archive;
    for (const CudnnCopy &copy : facts.snapshot.cudnn) {
        const std::optional<Finding> mixed = mixedReleaseFinding(
            copy.directory, libraryReleases(facts.context, copy.directory, copy.libraries));
        if (!mixed)
            continue;
        Finding finding = renamed(*mixed, QStringLiteral("doctor.cudnn-mixed-releases"));
        out.append(
            diagnosis(finding, 0, repairFromArchive(facts, copy, cudnnMajorOf(copy), archive, finding)));
    }
}

// ---- The probe's loads and the dependency walk -------------------------------------------------

void probeRules(const DoctorFacts &facts, const QList<Diagnosis> &earlier, QList<Diagnosis> &out)
{
    if (!facts.input.verify)
        return;
    const VerifyReport &verify = *facts.input.verify;
    const auto already = [&](const QString &id) {
        return std::any_of(earlier.cbegin(), earlier.cend(),
                           [&](const Diagnosis &d) { return d.finding.id.startsWith(id); });
    };
    // A 126 that the missing zlibwapi.dll or the missing sub-libraries explain is not told twice.
    const bool explained126 =
        already(QStringLiteral("doctor.zlibwapi")) || already(QStringLiteral("doctor.cudnn-incomplete"));
    for (const ProbeLoad &load : verify.probe.loads) {
        if (load.loaded() || (load.errorCode == 126 && explained126))
            continue;
        const ErrorExplanation explanation = explainLoaderError(load.errorCode, load.errorString, load.name);
        const int mode = load.errorCode == 126   ? 2
                         : load.errorCode == 127 ? 3
                         : load.errorCode == 193 ? 7
                                                 : 0;
        out.append(diagnosis(
            Finding::error(
                QStringLiteral("doctor.library-load-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded (%2): %3"))
                    .arg(Text::verbatim(load.name), Text::verbatim(explanation.name), explanation.cause),
                QStringLiteral("error %1: %2").arg(load.errorCode).arg(load.errorString), explanation.fix),
            mode));
    }
    for (const DependencyProblem &problem : verify.dependencies.problems) {
        if (problem.library.compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) == 0 ||
            versions::isCudnnLibraryName(problem.library))
            continue; // the zlibwapi and incomplete-set rules tell these
        const QString details =
            QStringLiteral("%1 -> %2 (%3); searched: %4")
                .arg(problem.neededBy, problem.library, DependencyProblem::kindName(problem.kind),
                     problem.searched.join(QStringLiteral(" | ")));
        if (problem.kind == DependencyProblem::Kind::WrongArchitecture) {
            out.append(diagnosis(
                Finding::error(
                    QStringLiteral("doctor.dependency-wrong-architecture"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 needs %2, but the first %2 the loader finds is %3, a DLL "
                                           "for %4: loading fails with error 193."))
                        .arg(problem.neededBy, problem.library, problem.foundAt, problem.machine),
                    details,
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove or rename %1, or put a folder with the "
                                                         "64-bit %2 earlier on PATH."))
                        .arg(problem.foundAt, problem.library)),
                7));
        } else if (problem.kind == DependencyProblem::Kind::Missing) {
            const Text message =
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 needs %2, which is nowhere the loader looks (error 126)."))
                    .arg(problem.neededBy, problem.library);
            const Text fix =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install the CUDA toolkit that provides %1 and "
                                                     "put the folder that holds it on PATH."))
                    .arg(problem.library);
            out.append(diagnosis(
                problem.delayLoaded
                    ? Finding::warning(QStringLiteral("doctor.dependency-missing"), message, details, fix)
                    : Finding::error(QStringLiteral("doctor.dependency-missing"), message, details, fix),
                2));
        }
    }
}

// ---- #7 architecture ---------------------------------------------------------------------------

void architectureRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    for (const Finding &finding : facts.match.findings) {
        if (finding.id == QLatin1String("match.python-32bit"))
            out.append(diagnosis(renamed(finding, QStringLiteral("doctor.python-32bit")), 7));
    }
    if (!facts.windows)
        return;
    for (const CudnnCopy *copy : facts.inUse()) {
        const Expected<PeInfo> pe = pe::readFile(facts.context.files().toHost(copy->path));
        if (!pe || (pe->machine == PeInfo::Amd64 && pe->pe32Plus))
            continue;
        out.append(
            diagnosis(Finding::error(
                          QStringLiteral("doctor.cudnn-wrong-architecture"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a %2-bit DLL for %3, not x64: a 64-bit "
                                                               "program cannot load it (error 193)."))
                              .arg(copy->path)
                              .arg(qint64(pe->bits()))
                              .arg(pe->machineName()),
                          QStringLiteral("machine 0x%1").arg(pe->machine, 4, 16, QLatin1Char('0')),
                          Text(QT_TRANSLATE_NOOP(
                              "cudnnsetup", "Replace it with the DLLs of NVIDIA's windows-x86_64 archive."))),
                      7));
    }
}

// ---- #3 / #11 another copy found first ---------------------------------------------------------

// The PATH changes that stop `stale` (a folder) from coming before `wanted`: in each scope that names
// it, moved behind `wanted` where that scope names it later, otherwise taken out.
std::optional<Repair> demoteOnPath(const DoctorFacts &facts, const QString &stale, const QString &wanted)
{
    std::optional<Repair> merged;
    for (const EnvironmentScope scope : kScopes) {
        const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("PATH"));
        if (!value)
            continue;
        const PathEditor editor = facts.pathEditor(scope);
        const QStringList entries = editor.split(value->text);
        int staleIndex = -1;
        int wantedIndex = -1;
        for (int i = 0; i < entries.size(); ++i) {
            const QString key = editor.normalise(entries.at(i));
            if (staleIndex < 0 && !key.isEmpty() && key == editor.normalise(stale))
                staleIndex = i;
            if (wantedIndex < 0 && !key.isEmpty() && key == editor.normalise(wanted))
                wantedIndex = i;
        }
        if (staleIndex < 0)
            continue;
        if (wantedIndex >= 0 && wantedIndex < staleIndex)
            continue; // here the wanted folder comes first already
        // Nothing leaves PATH (the folder may hold what other programs need): the stale entry
        // moves behind the wanted one, which joins the end of this PATH where it is not in it.
        const QString entry = entries.at(staleIndex);
        const QString ours = wantedIndex >= 0 ? entries.at(wantedIndex) : wanted;
        const QList<PathFix> fixes{{PathFix::Action::MoveBehindOurs, staleIndex, entry}};
        const auto after = editor.edited(value->text, ours, PathEditor::Position::Back, fixes);
        if (!after)
            continue;
        mergeInto(merged,
                  repairs::pathChange(
                      QStringLiteral("repair.demote-path-entry"),
                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "Move %1 behind %2 on PATH.")).arg(entry, ours),
                      scope, value->text, *after,
                      *operations::addPathEntry(facts.context.family(), scope, ours, false, fixes)));
    }
    return merged;
}

} // namespace

std::pair<std::optional<Repair>, Text> shadowRemedy(const DoctorFacts &facts, const CudnnCopy &winner,
                                                    const QString &wantedDirectory)
{
    std::optional<Repair> repair;
    Text fix;
    if (facts.windows && inWindowsFolder(facts, winner)) {
        repair = repairs::moveAside(facts.context, winner.directory, winner.libraries);
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair rename the cuDNN DLLs in %1 so that the "
                                                   "loader skips them (uninstalling the repair renames them "
                                                   "back)."))
                  .arg(winner.directory);
    } else if (facts.windows && (repair = demoteOnPath(facts, winner.directory, wantedDirectory))) {
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair move %1 behind %2 on PATH."))
                  .arg(winner.directory, wantedDirectory);
    } else if (facts.windows) {
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is on the PATH of this session only: open a new "
                                                   "terminal, or take it off the PATH of the program that "
                                                   "starts yours."))
                  .arg(winner.directory);
    } else {
        fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Take %1 out of LD_LIBRARY_PATH (and your shell profile), "
                                                   "or put %2 before it."))
                  .arg(winner.directory, wantedDirectory);
    }
    return {repair, fix};
}

namespace {

void shadowingRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const QList<CudnnCopy> &copies = facts.snapshot.cudnn;
    QSet<QString> told;
    // A freshly started program: the first copy of each major on the search path.
    for (const CudnnCopy &winner : copies) {
        if (winner.loadOrder != 1)
            continue;
        const int major = cudnnMajorOf(winner);
        const CudnnCopy *wanted = nullptr;
        for (const CudnnCopy *copy : facts.intended()) {
            if (cudnnMajorOf(*copy) == major && copy != &winner)
                wanted = copy;
        }
        const Version winnerVersion = Version::parse(winner.version);
        if (!wanted && winnerVersion.isValid()) {
            // Nothing says which one is wanted: the newest one on the search path is.
            for (const CudnnCopy &other : copies) {
                if (other.loadOrder && &other != &winner && cudnnMajorOf(other) == major &&
                    Version::parse(other.version) > winnerVersion &&
                    (!wanted || Version::parse(other.version) > Version::parse(wanted->version)))
                    wanted = &other;
            }
        }
        if (!wanted || facts.paths().equal(wanted->directory, winner.directory))
            continue;
        const Version wantedVersion = Version::parse(wanted->version);
        const bool older =
            winnerVersion.isValid() && wantedVersion.isValid() && winnerVersion < wantedVersion;
        const auto [repair, fix] = shadowRemedy(facts, winner, wanted->directory);
        told.insert(winner.directory);
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.cudnn-shadowed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Programs load %1 (cuDNN %2) instead of %3 "
                                                     "(cuDNN %4), because %5 comes first in the "
                                                     "library search."))
                    .arg(winner.path, versionOf(winner), wanted->path, versionOf(*wanted), winner.directory),
                QStringLiteral("load order %1 and %2")
                    .arg(winner.loadOrder.value_or(0))
                    .arg(wanted->loadOrder ? QString::number(*wanted->loadOrder) : QStringLiteral("none")),
                fix),
            older ? 11 : 3, repair));
    }

    // Python: a copy beside python.exe (or a venv's Scripts), or one torch was seen loading from a
    // folder searched before PATH, instead of the environment's own.
    if (!facts.windows)
        return;
    for (const PythonInstall &python : facts.snapshot.pythons) {
        if (!python.torch)
            continue;
        const CudnnCopy *loaded = facts.copyHolding(python.torch->cudnnLoadedFrom);
        if (!loaded) {
            for (const CudnnCopy &copy : copies) {
                if (copy.source == QLatin1String("python-folder") &&
                    facts.paths().equal(copy.directory, facts.paths().parent(python.path)))
                    loaded = &copy;
            }
        }
        if (!loaded || facts.belongsTo(*loaded, python) || told.contains(loaded->directory) ||
            (loaded->source != QLatin1String("python-folder") && !inWindowsFolder(facts, *loaded)))
            continue;
        told.insert(loaded->directory);
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.cudnn-before-python-path"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch %1 in %2 can load the cuDNN in %3 (%4): "
                                                     "Windows searches that folder before PATH and "
                                                     "before torch's own DLLs."))
                    .arg(python.torch->version, python.path, loaded->directory, versionOf(*loaded)),
                QStringLiteral("torch loads %1").arg(python.torch->cudnnLoadedFrom),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair rename the cuDNN DLLs in %1 so that "
                                                     "the loader skips them (uninstalling the repair "
                                                     "renames them back)."))
                    .arg(loaded->directory)),
            3, repairs::moveAside(facts.context, loaded->directory, loaded->libraries)));
    }
}

// ---- #4 / #5 not on PATH -------------------------------------------------------------------------

// A cuDNN that PATH should name: a copy detection found that nothing reaches, or the DLLs in a
// folder below a PATH entry (detection looks only where PATH points).
struct PathCandidate
{
    QString directory;
    Text version; // "of unknown version" when unknown
    int major = 0;
    bool detected = true;
};

QList<PathCandidate> pathCandidates(const DoctorFacts &facts)
{
    const SystemPaths &paths = facts.paths();
    QSet<int> reachable;
    QMap<int, const CudnnCopy *> unreachable; // major -> the copy PATH should name
    for (const CudnnCopy &copy : facts.snapshot.cudnn) {
        const int major = cudnnMajorOf(copy);
        if (copy.loadOrder)
            reachable.insert(major);
        if (major == 0 || kPythonSources.contains(copy.source) || copy.source == QLatin1String("system32") ||
            !hasLibrary(facts, copy, mainLibrary(OsFamily::Windows, major)))
            continue;
        const CudnnCopy *best = unreachable.value(major);
        if (!best || facts.intended().contains(&copy) ||
            (!facts.intended().contains(best) &&
             Version::parse(copy.version) > Version::parse(best->version)))
            unreachable.insert(major, &copy);
    }
    QList<PathCandidate> candidates;
    for (auto it = unreachable.cbegin(); it != unreachable.cend(); ++it) {
        if (!reachable.contains(it.key()))
            candidates.append({it.value()->directory, versionOf(*it.value()), it.key(), true});
    }
    for (const EnvironmentScope scope : kScopes) {
        const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("PATH"));
        if (!value)
            continue;
        const PathEditor editor = facts.pathEditor(scope);
        for (const QString &entry : editor.split(value->text)) {
            const QString folder = paths.normalize(editor.expanded(entry));
            if (folder.isEmpty() || !paths.isAbsolute(folder))
                continue;
            for (const QString &below : {QStringLiteral("bin"), QStringLiteral("bin\\x64")}) {
                const QString directory = paths.join(folder, below);
                for (const QString &name : facts.context.files().entries(
                         directory, {QStringLiteral("cudnn64_*.dll")}, FileSystem::Files)) {
                    const int major = versions::fromCudnnLibraryName(name).major();
                    const bool known = std::any_of(candidates.cbegin(), candidates.cend(),
                                                   [&](const auto &c) { return c.major == major; });
                    if (major <= 0 || reachable.contains(major) || known)
                        continue;
                    // Detection never looked here: the DLL's own version resource says which it is,
                    // as it does for the copies detection found.
                    const QList<LibraryRelease> releases = libraryReleases(facts.context, directory, {name});
                    const QString version = releases.isEmpty() ? QString() : releases.first().version;
                    candidates.append({directory,
                                       version.isEmpty()
                                           ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "of unknown version"))
                                           : Text::verbatim(version),
                                       major, false});
                }
            }
        }
    }
    return candidates;
}

void notOnPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const SystemPaths &paths = facts.paths();
    static const QRegularExpression cudaFolder(QStringLiteral("^\\d+\\.\\d+$"));
    for (const PathCandidate &candidate : pathCandidates(facts)) {
        const QString main = mainLibrary(OsFamily::Windows, candidate.major);
        // An entry that names a folder above the DLLs: "...\cuda" for "...\cuda\bin", or the cuDNN 9
        // installer's "...\v9.x\bin" for "...\bin\12.8[\x64]".
        bool replaced = false;
        for (const EnvironmentScope scope : kScopes) {
            const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("PATH"));
            if (!value || replaced)
                continue;
            const PathEditor editor = facts.pathEditor(scope);
            const QStringList entries = editor.split(value->text);
            for (int i = 0; i < entries.size(); ++i) {
                const QString folder = paths.normalize(editor.expanded(entries.at(i)));
                if (folder.isEmpty() || !paths.isAbsolute(folder) ||
                    paths.equal(folder, candidate.directory) ||
                    !paths.startsWith(candidate.directory, folder))
                    continue;
                const QString relative = candidate.directory.mid(folder.size()).section(QLatin1Char('\\'), 1);
                if (relative.count(QLatin1Char('\\')) > 1)
                    continue; // too far above to be a slip
                const bool cudnn9Layout =
                    cudaFolder.match(relative.section(QLatin1Char('\\'), 0, 0)).hasMatch();
                const QString written = entries.at(i);
                // An entry whose folder holds programs or libraries of its own (a toolkit's bin)
                // stays; one that holds only folders goes. The DLLs' folder joins the end of the
                // same PATH (no other copy of this major is reachable, so the end is enough). The
                // edit is made on PATH as it is when the repair runs, never a value read now.
                const bool keep = !facts.context.files()
                                       .entries(folder, {QStringLiteral("*.exe"), QStringLiteral("*.dll")},
                                                FileSystem::Files)
                                       .isEmpty();
                const QList<PathFix> fixes =
                    keep ? QList<PathFix>{} : QList<PathFix>{{PathFix::Action::Remove, i, written}};
                const auto after =
                    editor.edited(value->text, candidate.directory, PathEditor::Position::Back, fixes);
                if (!after)
                    continue;
                const Repair repair = repairs::pathChange(
                    keep ? QStringLiteral("repair.add-path-entry")
                         : QStringLiteral("repair.replace-path-entry"),
                    keep ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Add %2 to the end of PATH; %1 stays for the "
                                                                "programs in it."))
                               .arg(written, candidate.directory)
                         : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                  "Remove %1 from PATH; add %2 at the end of PATH."))
                               .arg(written, candidate.directory),
                    scope, value->text, *after,
                    *operations::addPathEntry(OsFamily::Windows, scope, candidate.directory, false, fixes));
                const Text message =
                    cudnn9Layout
                        ? Text(QT_TRANSLATE_NOOP(
                                   "cudnnsetup",
                                   "PATH names %1, but cuDNN %2 keeps its DLLs in the subfolder %3: "
                                   "Windows does not search subfolders, so programs do not find %4."))
                              .arg(folder, candidate.version, candidate.directory, main)
                        : Text(QT_TRANSLATE_NOOP(
                                   "cudnnsetup",
                                   "PATH names %1 instead of %2, the folder that holds the cuDNN "
                                   "DLLs: Windows does not search subfolders, so programs do not "
                                   "find %3."))
                              .arg(folder, candidate.directory, main);
                out.append(diagnosis(
                    Finding::error(
                        QStringLiteral("doctor.path-entry-too-high"), message,
                        QStringLiteral("%1 PATH entry %2: %3")
                            .arg(operations::scopeName(scope))
                            .arg(i)
                            .arg(written),
                        keep ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                      "Let the repair add %2 to the end of PATH; %1 "
                                                      "stays for the programs in it."))
                                   .arg(written, candidate.directory)
                             : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                      "Let the repair remove %1 from PATH and add %2 "
                                                      "at the end of PATH."))
                                   .arg(written, candidate.directory)),
                    cudnn9Layout ? 5 : 4, repair));
                replaced = true;
                break;
            }
        }
        if (replaced || !candidate.detected)
            continue;
        const std::optional<StoredEnvironmentValue> user =
            facts.stored(EnvironmentScope::User, QStringLiteral("PATH"));
        const QString before = user ? user->text : QString();
        const auto after = facts.pathEditor(EnvironmentScope::User)
                               .withEntry(before, candidate.directory, PathEditor::Position::Back);
        std::optional<Repair> repair;
        if (after) {
            repair = repairs::pathChange(
                QStringLiteral("repair.add-path-entry"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Add %1 to your user PATH.")).arg(candidate.directory),
                EnvironmentScope::User, before, *after,
                *operations::addPathEntry(OsFamily::Windows, EnvironmentScope::User, candidate.directory,
                                          false));
        }
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.cudnn-not-on-path"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 in %2 is on no PATH, so programs that "
                                                     "load %3 by name do not find it."))
                    .arg(candidate.version, candidate.directory, main),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair add %1 to your user PATH, then "
                                                     "open a new terminal."))
                    .arg(candidate.directory)),
            4, repair));
    }
}

// ---- #6 Python 3.8 and newer ignore PATH ---------------------------------------------------------

void pythonPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const CudnnCopy *onPath = nullptr;
    for (const CudnnCopy &copy : facts.snapshot.cudnn) {
        if (copy.loadOrder == 1 && !kPythonSources.contains(copy.source) &&
            copy.source != QLatin1String("system32") &&
            (!onPath || cudnnMajorOf(copy) > cudnnMajorOf(*onPath)))
            onPath = &copy;
    }
    if (!onPath)
        return;
    const Version lastTensorflow = facts.database.tensorflowLastNativeWindowsGpu();
    for (const PythonInstall &python : facts.snapshot.pythons) {
        if (!pythonAtLeast(python, 3, 8))
            continue;
        QString framework;
        const Version tensorflow = Version::parse(python.tensorflow.section(QLatin1Char('.'), 0, 2));
        if (python.torch && !python.torch->cuda.isEmpty())
            framework = QStringLiteral("torch %1").arg(python.torch->version);
        else if (tensorflow.isValid() && lastTensorflow.isValid() &&
                 tensorflow.truncated(2) <= lastTensorflow)
            framework = QStringLiteral("TensorFlow %1").arg(python.tensorflow);
        const bool hasOwn = std::any_of(facts.snapshot.cudnn.cbegin(), facts.snapshot.cudnn.cend(),
                                        [&](const CudnnCopy &copy) { return facts.belongsTo(copy, python); });
        if (framework.isEmpty() || hasOwn)
            continue;
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.python-ignores-path"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (Python %2) does not search PATH for the DLLs "
                                                     "its modules import, so %3 may not find the cuDNN "
                                                     "in %4, which only PATH names."))
                    .arg(python.path, python.version, framework, onPath->directory),
                QStringLiteral("no cuDNN in the environment of %1").arg(python.path),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Call os.add_dll_directory(r\"%1\") in the program "
                                                     "before it imports %2, or let cuDNN Setup install "
                                                     "cuDNN into this Python environment."))
                    .arg(onPath->directory, framework.section(QLatin1Char(' '), 0, 0))),
            6));
    }
}

// ---- #8 CUDNN_STATUS_NOT_INITIALIZED -------------------------------------------------------------

void notInitializedRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.input.verify)
        return;
    const VerifyReport &verify = *facts.input.verify;
    const ProbeGpu &gpu = verify.probe.gpu;
    const int major = int(verify.probe.cudnnVersion.value_or(0) /
                          (verify.probe.cudnnVersion.value_or(0) >= 90000 ? 10000 : 1000));
    const bool notInitialized = gpu.cudnnStatusName == QLatin1String("CUDNN_STATUS_NOT_INITIALIZED") ||
                                (gpu.cudnnStatus && ((major >= 9 && *gpu.cudnnStatus == 1001) ||
                                                     (major == 8 && *gpu.cudnnStatus == 1)));
    if (!notInitialized)
        return;
    const ErrorExplanation explanation = explainCudnnStatus(gpu.cudnnStatus.value_or(1001), major);
    const int builtFor = int(verify.probe.cudnnCudartVersion.value_or(0) / 1000);
    const int runtime = gpu.cudaRuntimeVersion.value_or(0) / 1000;
    const QString details =
        QStringLiteral("cuDNN %1 built for CUDA %2; CUDA runtime %3; driver CUDA %4; stage %5")
            .arg(verify.cudnnVersion)
            .arg(verify.probe.cudnnCudartVersion.value_or(0))
            .arg(gpu.cudaRuntimeVersion.value_or(0))
            .arg(gpu.cudaDriverVersion.value_or(0))
            .arg(gpu.stage);
    const Text message =
        builtFor > 0 && runtime > 0 && builtFor != runtime
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): it is "
                                     "built for CUDA %1, but the program uses the CUDA %2 runtime."))
                  .arg(QString::number(builtFor), QString::number(runtime))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): most "
                                     "often the driver is too old for the CUDA runtime, or this "
                                     "cuDNN is built for another CUDA than the program uses."));
    const Text fix =
        !explanation.fix.isEmpty()
            ? explanation.fix
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use the cuDNN archive built for the CUDA major "
                                                   "the program uses, and update the driver if the "
                                                   "check reports it too old."));
    out.append(
        diagnosis(Finding::error(QStringLiteral("doctor.cudnn-not-initialized"), message, details, fix), 8));
}

// ---- #9, #14, #15: the matcher's verdict, and the probe's CUDA error -------------------------------

void matcherRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const QList<std::tuple<QString, QString, int>> adopted = {
        {QStringLiteral("match.torch-cpu-only"), QStringLiteral("doctor.torch-cpu-only"), 9},
        {QStringLiteral("match.tensorflow-windows"), QStringLiteral("doctor.tensorflow-windows"), 14},
        {QStringLiteral("match.jax-windows"), QStringLiteral("doctor.jax-windows"), 14},
        {QStringLiteral("match.driver-too-old-for-toolkit"), QStringLiteral("doctor.driver-too-old"), 15},
        {QStringLiteral("match.torch-cuda-newer-than-driver"),
         QStringLiteral("doctor.driver-too-old-for-torch"), 15},
        // Worth knowing, not wrong: who uses only PyTorch may need no system-wide cuDNN at all, and
        // a database older than the machine may judge it out of date.
        {QStringLiteral("match.framework-brings-cudnn"), QStringLiteral("doctor.framework-brings-cudnn"), 0},
        {QStringLiteral("match.database-older"), QStringLiteral("doctor.database-older"), 0},
    };
    bool driverTold = false;
    for (const Finding &finding : facts.match.findings) {
        for (const auto &[matchId, doctorId, mode] : adopted) {
            if (finding.id != matchId)
                continue;
            out.append(diagnosis(renamed(finding, doctorId), mode));
            driverTold = driverTold || mode == 15;
        }
    }
    if (driverTold || !facts.input.verify)
        return;
    const ProbeGpu &gpu = facts.input.verify->probe.gpu;
    if (gpu.cudaError != 35 && gpu.cudaErrorName != QLatin1String("cudaErrorInsufficientDriver"))
        return;
    // The runtime calls a missing driver "insufficient" too; cudaDriverGetVersion tells them apart.
    if (gpu.cudaDriverVersion == 0) {
        if (facts.snapshot.gpus.isEmpty()) {
            out.append(diagnosis(Finding::info(QStringLiteral("doctor.no-driver"),
                                               Text(QT_TRANSLATE_NOOP(
                                                   "cudnnsetup", "This machine has no NVIDIA GPU or driver: "
                                                                 "cuDNN can be installed and loaded, but not "
                                                                 "run here.")),
                                               gpu.reason),
                                 15));
        } else {
            out.append(diagnosis(
                Finding::error(
                    QStringLiteral("doctor.no-driver"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has no working NVIDIA driver."))
                        .arg(facts.snapshot.gpus.first().name),
                    gpu.reason,
                    Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup",
                        "Install the newest NVIDIA driver for this GPU, then run the check again."))),
                15));
        }
        return;
    }
    // The matcher's own words for "this driver against that runtime", when the driver is known.
    const int runtime = gpu.cudaRuntimeVersion.value_or(0);
    const Version runtimeVersion = Version::fromParts({runtime / 1000, (runtime % 1000) / 10});
    MatchFacts matchFacts = MatchFacts::fromSnapshot(facts.snapshot);
    matchFacts.targetToolkit = MatchFacts::Toolkit{runtimeVersion, QString()};
    const MatchResult judged = match(matchFacts, facts.database);
    if (const Finding *tooOld = judged.finding(QStringLiteral("match.driver-too-old-for-toolkit"))) {
        out.append(diagnosis(renamed(*tooOld, QStringLiteral("doctor.driver-too-old")), 15));
        return;
    }
    const Version minimum = facts.database.toolkitMinimumDriver(facts.context.family(), runtimeVersion);
    const ErrorExplanation explanation = explainCudaError(35);
    out.append(diagnosis(
        Finding::error(
            QStringLiteral("doctor.driver-too-old"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The driver is too old for the CUDA %1 runtime the program "
                                   "loaded (cudaErrorInsufficientDriver): it supports CUDA up to %2."))
                .arg(runtime > 0 ? runtimeVersion.toString() : QStringLiteral("?"),
                     gpu.cudaDriverVersion ? Version::fromParts({*gpu.cudaDriverVersion / 1000,
                                                                 (*gpu.cudaDriverVersion % 1000) / 10})
                                                 .toString()
                                           : QStringLiteral("?")),
            QStringLiteral("%1: %2").arg(explanation.name, gpu.reason),
            minimum.isValid()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                      .arg(minimum.toString())
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Update the driver to the newest one NVIDIA offers for this GPU."))),
        15));
}

// ---- #10 a cut-off PATH ----------------------------------------------------------------------

void truncatedPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const FileSystem &files = facts.context.files();
    const SystemPaths &paths = facts.paths();
    const Text fix =
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Restore PATH from a backup or type the lost entries "
                                             "again (System Properties > Environment Variables); "
                                             "never change PATH with setx."));
    for (const EnvironmentScope scope : kScopes) {
        const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("PATH"));
        if (!value)
            continue;
        const QString where = PersistentEnvironment::location(scope);
        if (value->text.size() == 1024) {
            out.append(diagnosis(
                Finding::warning(
                    QStringLiteral("doctor.path-truncated"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "PATH in %1 is exactly 1,024 characters long, "
                                                         "the most setx stores: it was probably cut "
                                                         "off, and the entries after the cut are lost."))
                        .arg(where),
                    QStringLiteral("length 1024"), fix),
                10));
            continue;
        }
        const PathEditor editor = facts.pathEditor(scope);
        QStringList entries = editor.split(value->text);
        while (!entries.isEmpty() && editor.normalise(entries.last()).isEmpty())
            entries.removeLast();
        if (entries.isEmpty())
            continue;
        const QString folder = paths.normalize(editor.expanded(entries.last()));
        const QString parent = paths.parent(folder);
        const QString name = paths.fileName(folder);
        if (!paths.isAbsolute(folder) || name.isEmpty() || files.exists(folder) || !files.isDir(parent))
            continue;
        const QStringList siblings = files.entries(parent, {name + QLatin1Char('*')}, FileSystem::Dirs);
        const auto longer = std::find_if(siblings.cbegin(), siblings.cend(), [&](const QString &sibling) {
            return sibling.size() > name.size();
        });
        if (longer == siblings.cend())
            continue;
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.path-truncated"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "PATH in %1 looks cut off: it ends in the middle "
                                                     "of a folder name (%2, where %3 exists), as setx "
                                                     "leaves it when it cuts a value to 1,024 "
                                                     "characters. The entries after the cut are lost."))
                    .arg(where, entries.last(), paths.join(parent, *longer)),
                QStringLiteral("length %1").arg(value->text.size()), fix),
            10));
    }
}

// ---- A folder on the system PATH that others than the administrators may change ------------------

// Every program of every user searches the system PATH, services too: whoever may put a DLL into
// one of its folders can run code in them (windows-review.md, finding 5).
void writableSystemPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const std::optional<StoredEnvironmentValue> value =
        facts.stored(EnvironmentScope::Machine, QStringLiteral("PATH"));
    if (!value)
        return;
    const PathEditor editor = facts.pathEditor(EnvironmentScope::Machine);
    const SystemPaths &paths = facts.paths();
    QStringList seen;
    for (const QString &entry : editor.split(value->text)) {
        const QString folder = paths.normalize(editor.expanded(entry));
        if (!paths.isAbsolute(folder) || !facts.context.files().isDir(folder))
            continue;
        const std::optional<WritableFolder> writable = firstWritableFolder(facts.context, folder);
        if (!writable || seen.contains(writable->folder, Qt::CaseInsensitive))
            continue;
        seen.append(writable->folder);
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.writable-system-path"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 is on the system PATH, but %2 can be changed by others than the "
                                       "administrators (%3): a DLL put there is loaded by the programs of "
                                       "every user, services too."))
                    .arg(entry, writable->folder, Text::list(writable->audit.whoMayChange())),
                writable->audit.summary(),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "Take it off the system PATH (or put it on the PATH of the one user who "
                         "needs it), or let only administrators change the folder, from an "
                         "administrator's prompt: icacls \"%1\" /inheritance:r /grant:r "
                         "*S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX"))
                    .arg(writable->folder)),
            0));
    }
}

// ---- #12 CUDA_PATH -------------------------------------------------------------------------------

void cudaPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const CudaToolkit *chosen = facts.chosenToolkit();
    if (!facts.windows || !chosen)
        return;
    const SystemPaths &paths = facts.paths();
    // A user value hides the machine's from programs started afterwards.
    for (const EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::Machine}) {
        const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("CUDA_PATH"));
        if (!value)
            continue;
        const QString named = paths.normalize(facts.pathEditor(scope).expanded(value->text));
        if (paths.equal(named, chosen->path))
            return;
        out.append(diagnosis(
            Finding::warning(
                QStringLiteral("doctor.cuda-path-mismatch"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA_PATH names %1, but the cuDNN in use belongs "
                                                     "to CUDA %2 in %3; build tools and programs that "
                                                     "go by CUDA_PATH take the other toolkit."))
                    .arg(value->text, chosen->version, chosen->path),
                QStringLiteral("CUDA_PATH in %1").arg(PersistentEnvironment::location(scope)),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair set CUDA_PATH to %1."))
                    .arg(chosen->path)),
            12,
            repairs::setVariable(scope, QStringLiteral("CUDA_PATH"), value,
                                 {chosen->path, value->expandable})));
        return;
    }
}

// ---- #13 VirtualStore ----------------------------------------------------------------------------

void virtualStoreRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const EnvironmentStore &environment = facts.context.environment();
    const SystemPaths &paths = facts.paths();
    const FileSystem &files = facts.context.files();
    QString local = environment.value(QStringLiteral("LOCALAPPDATA"));
    if (local.isEmpty() && !environment.value(QStringLiteral("USERPROFILE")).isEmpty())
        local =
            paths.join(environment.value(QStringLiteral("USERPROFILE")), QStringLiteral("AppData\\Local"));
    if (local.isEmpty())
        return;
    const QString store = paths.join(local, QStringLiteral("VirtualStore"));
    // Breadth first, bounded: a VirtualStore holds what old programs wrote, which can be a lot.
    QStringList folders{store};
    for (int i = 0; i < folders.size() && i < 5000; ++i) {
        const QString folder = folders.at(i);
        const QStringList found = files.entries(
            folder, {QStringLiteral("cudnn*.dll"), QLatin1String(kZlibwapiName)}, FileSystem::Files);
        if (!found.isEmpty()) {
            const QString original = QStringLiteral("C:\\") + folder.mid(store.size() + 1);
            out.append(diagnosis(
                Finding::warning(
                    QStringLiteral("doctor.virtualstore"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 holds cuDNN files (%2) that Windows "
                                                         "redirected there from %3: only this user's "
                                                         "programs without a manifest see them; every "
                                                         "other program sees %3 without them."))
                        .arg(folder, Text::list(found), original),
                    QStringLiteral("UAC file virtualisation"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install cuDNN again with administrator rights "
                                                         "(cuDNN Setup asks for them), then delete %1."))
                        .arg(folder)),
                13));
        }
        for (const QString &sub : files.entries(folder, {}, FileSystem::Dirs))
            folders.append(paths.join(folder, sub));
    }
}

// ---- The environment of programs: CUDA_VISIBLE_DEVICES, a PATH that changed since they started ----

void environmentRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const EnvironmentInfo &info = facts.snapshot.environment;
    const QList<GpuInfo> &gpus = facts.snapshot.gpus;
    if (!info.cudaVisibleDevices.trimmed().isEmpty() && !gpus.isEmpty()) {
        QStringList unknown;
        for (const QString &raw : info.cudaVisibleDevices.split(QLatin1Char(','))) {
            const QString device = raw.trimmed();
            bool isIndex = false;
            const int index = device.toInt(&isIndex);
            if (isIndex && index < 0)
                break; // -1 hides every GPU on purpose (the detector says so)
            const bool exists = isIndex ? index < gpus.size()
                                        : std::any_of(gpus.cbegin(), gpus.cend(), [&](const GpuInfo &gpu) {
                                              return !gpu.uuid.isEmpty() && !device.isEmpty() &&
                                                     gpu.uuid.startsWith(device, Qt::CaseInsensitive);
                                          });
            if (!exists)
                unknown.append(device);
        }
        if (!unknown.isEmpty()) {
            out.append(diagnosis(
                Finding::warning(
                    QStringLiteral("doctor.cuda-visible-devices-unknown-gpu"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA_VISIBLE_DEVICES names %1, but this "
                                                         "machine has no such GPU (it has %2): CUDA "
                                                         "ignores that entry and every one after it."))
                        .arg(Text::list(unknown), QString::number(gpus.size())),
                    QStringLiteral("CUDA_VISIBLE_DEVICES=%1").arg(info.cudaVisibleDevices),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Set CUDA_VISIBLE_DEVICES to GPU numbers from "
                                                         "0 to %1, or remove it."))
                        .arg(QString::number(gpus.size() - 1))),
                0));
        }
    }
    if (info.pathStale == true) {
        out.append(diagnosis(
            Finding::info(
                QStringLiteral("doctor.restart-programs"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "PATH has changed: terminals and IDEs opened before "
                                                     "the change, and the programs they start, still "
                                                     "use the old PATH.")),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Close the terminal, IDE or Jupyter and open "
                                                     "them again; sign out and in if a program "
                                                     "started from the desktop still does not see "
                                                     "the change."))),
            0));
    }
}

// ---- WSL 2: the Windows driver's libcuda --------------------------------------------------------

// Under WSL 2 the Windows driver lends its libcuda through /usr/lib/wsl/lib: a Linux driver
// installed inside hides it, and a loader cache that lacks the folder does not find it.
void wslRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (facts.windows || !facts.snapshot.os.wsl || facts.snapshot.os.wsl->version != 2)
        return;
    const FileSystem &files = facts.context.files();
    const SystemPaths &paths = facts.paths();
    const QString wslLib = QStringLiteral("/usr/lib/wsl/lib");
    QStringList linuxDriver;
    for (const QString &folder :
         {QStringLiteral("/usr/lib/x86_64-linux-gnu"), QStringLiteral("/lib/x86_64-linux-gnu"),
          QStringLiteral("/usr/lib64"), QStringLiteral("/usr/lib")}) {
        for (const QString &name :
             files.entries(folder, {QStringLiteral("libcuda.so*")}, FileSystem::Files)) {
            const QString canonical = files.canonical(paths.join(folder, name));
            if (!canonical.isEmpty() && !paths.startsWith(canonical, wslLib) &&
                !linuxDriver.contains(canonical))
                linuxDriver.append(canonical);
        }
    }
    if (!linuxDriver.isEmpty()) {
        out.append(diagnosis(
            Finding::error(
                QStringLiteral("doctor.wsl-linux-driver"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "A Linux NVIDIA driver is installed inside WSL (%1): programs load its "
                         "libcuda instead of the Windows driver's in %2, and CUDA finds no GPU."))
                    .arg(Text::list(linuxDriver), Text::verbatim(wslLib)),
                linuxDriver.join(QLatin1Char('\n')),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Remove the Linux driver from WSL (sudo apt-get remove --purge the "
                                       "nvidia-driver and libnvidia-compute packages), keep only the Windows "
                                       "driver, then run sudo ldconfig."))),
            0));
    }
    const QString libcuda = paths.join(wslLib, QStringLiteral("libcuda.so.1"));
    if (!files.isFile(libcuda))
        return;
    const bool notALink = files.canonical(libcuda) == libcuda;
    const Expected<QByteArray> cache = files.read(QStringLiteral("/etc/ld.so.cache"), 64 * 1024 * 1024);
    const bool onLibraryPath = std::any_of(facts.snapshot.environment.libraryPath.cbegin(),
                                           facts.snapshot.environment.libraryPath.cend(),
                                           [&](const QString &entry) { return paths.equal(entry, wslLib); });
    if (cache && !cache->contains(libcuda.toUtf8()) && !onLibraryPath) {
        out.append(diagnosis(
            Finding::error(
                QStringLiteral("doctor.wsl-libcuda-not-cached"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The loader's cache (/etc/ld.so.cache) does not name %1, and "
                                       "LD_LIBRARY_PATH does not either: programs under WSL do not find the "
                                       "Windows driver's libcuda.so.1."))
                    .arg(Text::verbatim(wslLib)),
                notALink ? QStringLiteral("%1 is a file, not a symbolic link").arg(libcuda) : libcuda,
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Name the folder in a file of /etc/ld.so.conf.d (echo %1 | sudo tee "
                                       "/etc/ld.so.conf.d/ld.wsl.conf), then run sudo ldconfig."))
                    .arg(Text::verbatim(wslLib))),
            0));
    } else if (notALink) {
        out.append(diagnosis(
            Finding::info(
                QStringLiteral("doctor.wsl-libcuda-not-a-link"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "ldconfig warns that %1 is not a symbolic link: WSL ships it "
                                       "as a file, and the loader finds it all the same."))
                    .arg(Text::verbatim(libcuda)),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Nothing to do: the warning is harmless."))),
            0));
    }
}

} // namespace

int cudnnMajorOf(const CudnnCopy &copy)
{
    for (const QString &name : copy.libraries) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (version.isValid())
            return version.major();
    }
    return 0;
}

DoctorFacts::DoctorFacts(const DoctorInput &doctorInput, const SystemContext &systemContext,
                         const PersistentEnvironment &storedEnvironment, const KnowledgeBase &knowledge)
    : input(doctorInput)
    , snapshot(doctorInput.snapshot)
    , context(systemContext)
    , environment(storedEnvironment)
    , database(knowledge)
    , windows(systemContext.family() == OsFamily::Windows)
{
    const auto add = [](QList<const CudnnCopy *> &list, const CudnnCopy *copy) {
        if (copy && !list.contains(copy))
            list.append(copy);
    };
    if (input.verify)
        add(m_intended, copyIn(input.verify->directory));
    for (const Receipt &receipt : input.receipts) {
        if (receipt.target)
            add(m_intended, copyIn(receipt.target->dllFolder()));
    }
    m_inUse = m_intended;
    for (const CudnnCopy &copy : snapshot.cudnn) {
        if (copy.loadOrder == 1)
            add(m_inUse, &copy);
    }
    if (input.verify)
        add(m_inUse, copyHolding(input.verify->loadedFrom()));
    for (const PythonInstall &python : snapshot.pythons) {
        if (python.torch)
            add(m_inUse, copyHolding(python.torch->cudnnLoadedFrom));
    }

    const auto toolkitAt = [&](const QString &path) -> const CudaToolkit * {
        for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
            if (!path.isEmpty() && paths().equal(toolkit.path, path))
                return &toolkit;
        }
        return nullptr;
    };
    for (const Receipt &receipt : input.receipts) {
        if (!m_chosenToolkit && receipt.target && receipt.target->kind == InstallTarget::Kind::CudaToolkit)
            m_chosenToolkit = toolkitAt(receipt.target->root);
    }
    for (const CudnnCopy *copy : std::as_const(m_inUse)) {
        if (!m_chosenToolkit && copy->source == QLatin1String("toolkit"))
            m_chosenToolkit = toolkitAt(copy->owner);
    }
    if (!m_chosenToolkit && snapshot.cudaToolkits.size() == 1)
        m_chosenToolkit = &snapshot.cudaToolkits.first();

    MatchFacts facts = MatchFacts::fromSnapshot(snapshot);
    if (m_chosenToolkit)
        facts.targetToolkit =
            MatchFacts::Toolkit{Version::parse(m_chosenToolkit->version), m_chosenToolkit->path};
    match = cudnnsetup::match(facts, database);
}

std::optional<StoredEnvironmentValue> DoctorFacts::stored(EnvironmentScope scope, const QString &name) const
{
    const auto value = environment.read(scope, name);
    return value ? *value : std::nullopt;
}

PathEditor DoctorFacts::pathEditor(EnvironmentScope scope) const
{
    return PathEditor::forStoredPath(context.family(), scope, environment, sessionVariablesOf(context));
}

const CudnnCopy *DoctorFacts::copyIn(const QString &directory) const
{
    for (const CudnnCopy &copy : snapshot.cudnn) {
        if (!directory.isEmpty() && paths().equal(copy.directory, directory))
            return &copy;
    }
    return nullptr;
}

const CudnnCopy *DoctorFacts::copyHolding(const QString &path) const
{
    return cudnnsetup::copyHolding(snapshot.cudnn, path, paths());
}

bool DoctorFacts::belongsTo(const CudnnCopy &copy, const PythonInstall &python) const
{
    return (copy.source == QLatin1String("pip") || copy.source == QLatin1String("torch") ||
            copy.source == QLatin1String("conda")) &&
           !copy.owner.isEmpty() && paths().equal(copy.owner, pythonPrefix(paths(), python.path));
}

QList<Diagnosis> runDoctorRules(const DoctorFacts &facts)
{
    QList<Diagnosis> diagnoses;
    zlibwapiRules(facts, diagnoses);
    incompleteSetRules(facts, diagnoses);
    mixedReleaseRules(facts, diagnoses);
    probeRules(facts, QList<Diagnosis>(diagnoses), diagnoses);
    shadowingRules(facts, diagnoses);
    notOnPathRules(facts, diagnoses);
    pythonPathRules(facts, diagnoses);
    architectureRules(facts, diagnoses);
    notInitializedRules(facts, diagnoses);
    matcherRules(facts, diagnoses);
    truncatedPathRules(facts, diagnoses);
    writableSystemPathRules(facts, diagnoses);
    cudaPathRules(facts, diagnoses);
    virtualStoreRules(facts, diagnoses);
    environmentRules(facts, diagnoses);
    wslRules(facts, diagnoses);
    return diagnoses;
}

} // namespace cudnnsetup
