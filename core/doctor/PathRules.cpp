// The rules on PATH itself: not on it, ignored by Python, cut off, changeable by others, CUDA_PATH.
#include "doctor/RuleFamilies.h"

#include "binary/PeReader.h"
#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"
#include "doctor/RepairSteps.h"
#include "install/Operations.h"
#include "verify/ReleaseMix.h"

#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace doctorrules {

namespace {

// Copies that belong to a Python environment rather than to PATH.
const QStringList kPythonSources = {QStringLiteral("pip"), QStringLiteral("torch"), QStringLiteral("conda"),
                                    QStringLiteral("python-folder")};

} // namespace

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

namespace {

// A PATH entry that names a folder above a candidate's DLLs.
struct EntryAboveDlls
{
    EnvironmentScope scope = EnvironmentScope::User;
    int index = 0;
    QString written;           // the entry as PATH has it
    QString folder;            // the folder it names
    bool keep = false;         // the folder holds programs or libraries of its own
    bool cudnn9Layout = false; // the cuDNN 9 installer's "...\v9.x\bin" for "...\bin\12.8[\x64]"
};

Diagnosis entryAboveDllsDiagnosis(const PathCandidate &candidate, const EntryAboveDlls &entry,
                                  const QString &before, const QString &after, const QList<PathFix> &fixes)
{
    const QString main = mainLibrary(OsFamily::Windows, candidate.major);
    const QString &written = entry.written;
    const QString &folder = entry.folder;
    const bool keep = entry.keep;
    const Repair repair = repairs::pathChange(
        keep ? QStringLiteral("repair.add-path-entry") : QStringLiteral("repair.replace-path-entry"),
        keep ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Add %2 to the end of PATH; %1 stays for the "
                                                    "programs in it."))
                   .arg(written, candidate.directory)
             : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove %1 from PATH; add %2 at the end of PATH."))
                   .arg(written, candidate.directory),
        entry.scope, before, after,
        *operations::addPathEntry(OsFamily::Windows, entry.scope, candidate.directory, false, fixes));
    const Text message =
        entry.cudnn9Layout
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "PATH names %1, but cuDNN %2 keeps its DLLs in the subfolder %3: "
                                     "Windows does not search subfolders, so programs do not find %4."))
                  .arg(folder, candidate.version, candidate.directory, main)
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "PATH names %1 instead of %2, the folder that holds the cuDNN "
                                     "DLLs: Windows does not search subfolders, so programs do not "
                                     "find %3."))
                  .arg(folder, candidate.directory, main);
    return diagnosis(
        Finding::error(
            QStringLiteral("doctor.path-entry-too-high"), message,
            QStringLiteral("%1 PATH entry %2: %3")
                .arg(operations::scopeName(entry.scope))
                .arg(entry.index)
                .arg(written),
            keep ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair add %2 to the end of PATH; %1 "
                                                        "stays for the programs in it."))
                       .arg(written, candidate.directory)
                 : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair remove %1 from PATH and add %2 "
                                                        "at the end of PATH."))
                       .arg(written, candidate.directory)),
        entry.cudnn9Layout ? 5 : 4, repair);
}

// An entry that names a folder above the DLLs: "...\cuda" for "...\cuda\bin", or the cuDNN 9
// installer's "...\v9.x\bin" for "...\bin\12.8[\x64]". The first one found is diagnosed; true then.
bool entryAboveDllsRule(const DoctorFacts &facts, const PathCandidate &candidate, QList<Diagnosis> &out)
{
    const SystemPaths &paths = facts.paths();
    static const QRegularExpression cudaFolder(QStringLiteral("^\\d+\\.\\d+$"));
    for (const EnvironmentScope scope : kScopes) {
        const std::optional<StoredEnvironmentValue> value = facts.stored(scope, QStringLiteral("PATH"));
        if (!value)
            continue;
        const PathEditor editor = facts.pathEditor(scope);
        const QStringList entries = editor.split(value->text);
        for (int i = 0; i < entries.size(); ++i) {
            const QString folder = paths.normalize(editor.expanded(entries.at(i)));
            if (folder.isEmpty() || !paths.isAbsolute(folder) || paths.equal(folder, candidate.directory) ||
                !paths.startsWith(candidate.directory, folder))
                continue;
            const QString relative = candidate.directory.mid(folder.size()).section(QLatin1Char('\\'), 1);
            if (relative.count(QLatin1Char('\\')) > 1)
                continue; // too far above to be a slip
            EntryAboveDlls entry;
            entry.scope = scope;
            entry.index = i;
            entry.written = entries.at(i);
            entry.folder = folder;
            entry.cudnn9Layout = cudaFolder.match(relative.section(QLatin1Char('\\'), 0, 0)).hasMatch();
            // An entry whose folder holds programs or libraries of its own (a toolkit's bin)
            // stays; one that holds only folders goes. The DLLs' folder joins the end of the
            // same PATH (no other copy of this major is reachable, so the end is enough). The
            // edit is made on PATH as it is when the repair runs, never a value read now.
            entry.keep =
                !facts.context.files()
                     .entries(folder, {QStringLiteral("*.exe"), QStringLiteral("*.dll")}, FileSystem::Files)
                     .isEmpty();
            const QList<PathFix> fixes =
                entry.keep ? QList<PathFix>{} : QList<PathFix>{{PathFix::Action::Remove, i, entry.written}};
            const auto after =
                editor.edited(value->text, candidate.directory, PathEditor::Position::Back, fixes);
            if (!after)
                continue;
            out.append(entryAboveDllsDiagnosis(candidate, entry, value->text, *after, fixes));
            return true;
        }
    }
    return false;
}

// A copy detection found that no PATH reaches: the repair adds it to the user's PATH.
Diagnosis notOnPathDiagnosis(const DoctorFacts &facts, const PathCandidate &candidate)
{
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
            *operations::addPathEntry(OsFamily::Windows, EnvironmentScope::User, candidate.directory, false));
    }
    return diagnosis(
        Finding::warning(
            QStringLiteral("doctor.cudnn-not-on-path"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 in %2 is on no PATH, so programs that "
                                                 "load %3 by name do not find it."))
                .arg(candidate.version, candidate.directory, mainLibrary(OsFamily::Windows, candidate.major)),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Let the repair add %1 to your user PATH, then "
                                                 "open a new terminal."))
                .arg(candidate.directory)),
        4, repair);
}

} // namespace

void notOnPathRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    for (const PathCandidate &candidate : pathCandidates(facts)) {
        if (entryAboveDllsRule(facts, candidate, out) || !candidate.detected)
            continue;
        out.append(notOnPathDiagnosis(facts, candidate));
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
        facts.stored(EnvironmentScope::System, QStringLiteral("PATH"));
    if (!value)
        return;
    const PathEditor editor = facts.pathEditor(EnvironmentScope::System);
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
    for (const EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::System}) {
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

} // namespace doctorrules

} // namespace cudnnsetup
