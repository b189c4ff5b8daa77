// The rules on what the files of a copy say: zlibwapi.dll, an incomplete or mixed set, what the
// probe loaded, the architecture of the DLLs.
#include "doctor/RuleFamilies.h"

#include "binary/PeReader.h"
#include "common/Surface.h"
#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"
#include "doctor/RepairSteps.h"
#include "install/Zlibwapi.h"
#include "verify/LoadErrors.h"
#include "verify/ReleaseMix.h"

#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace doctorrules {

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

} // namespace doctorrules

} // namespace cudnnsetup
