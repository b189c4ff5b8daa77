// The rules on another copy found first.
#include "doctor/RuleFamilies.h"

#include "doctor/RepairSteps.h"
#include "install/Operations.h"

#include <QSet>

#include <algorithm>

namespace cudnnsetup {

using namespace doctorrules;

namespace {

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

namespace doctorrules {

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

} // namespace doctorrules

} // namespace cudnnsetup
