#include "doctor/RuleFamilies.h"

#include "binary/PeReader.h"
#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"
#include "install/Zlibwapi.h"
#include "verify/ReleaseMix.h"

#include <algorithm>

namespace cudnnsetup {

namespace doctorrules {

const QList<EnvironmentScope> kScopes = {EnvironmentScope::System, EnvironmentScope::User};

Diagnosis diagnosis(const Finding &finding, int failureMode, std::optional<Repair> repair)
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

} // namespace doctorrules

using namespace doctorrules;

QString pythonPrefix(const SystemPaths &paths, const QString &interpreter)
{
    const QString folder = paths.parent(interpreter);
    const QString name = paths.fileName(folder);
    if (name.compare(QLatin1String("Scripts"), Qt::CaseInsensitive) == 0 || name == QLatin1String("bin"))
        return paths.parent(folder);
    return folder;
}

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
