#pragma once

#include "compat/Matcher.h"
#include "doctor/Doctor.h"
#include "install/PathEditor.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace cudnnsetup {

// What the doctor's rules read, gathered once: the input, the inspected system, its stored
// environment, NVIDIA's tables and the matcher's verdict on the snapshot.
class DoctorFacts final
{
public:
    DoctorFacts(const DoctorInput &input, const SystemContext &context,
                const PersistentEnvironment &environment, const KnowledgeBase &database);

    const DoctorInput &input;
    const SystemSnapshot &snapshot;
    const SystemContext &context;
    const PersistentEnvironment &environment;
    const KnowledgeBase &database;
    const bool windows;
    MatchResult match;

    const SystemPaths &paths() const { return context.paths(); }
    // A value as stored in `scope`; nullopt when it is absent or cannot be read.
    std::optional<StoredEnvironmentValue> stored(EnvironmentScope scope, const QString &name) const;
    // The editor of `scope`'s PATH, expanding %VARS% as a freshly started program would
    // (PathEditor::forStoredPath).
    PathEditor pathEditor(EnvironmentScope scope) const;
    const CudnnCopy *copyIn(const QString &directory) const;
    // The copy holding the file `path`, or null.
    const CudnnCopy *copyHolding(const QString &path) const;
    // The copies someone wants: the one the probe checked, the ones cuDNN Setup installed.
    QList<const CudnnCopy *> intended() const { return m_intended; }
    // The copies a consumer loads: a fresh process (per major), the probe, each torch; and the
    // intended ones.
    QList<const CudnnCopy *> inUse() const { return m_inUse; }
    // The toolkit the cuDNN in use belongs to: a receipt's, the intended or loaded copy's, the only one.
    const CudaToolkit *chosenToolkit() const { return m_chosenToolkit; }
    // Whether the Python environment of `python` holds `copy` (pip's nvidia\cudnn, torch\lib, ...).
    bool belongsTo(const CudnnCopy &copy, const PythonInstall &python) const;

private:
    QList<const CudnnCopy *> m_intended;
    QList<const CudnnCopy *> m_inUse;
    const CudaToolkit *m_chosenToolkit = nullptr;
};

// The cuDNN major of a copy, from its library names; 0 when none says.
int cudnnMajorOf(const CudnnCopy &copy);

// The environment folder of an interpreter: a venv's or conda env's root, C:\Python312.
QString pythonPrefix(const SystemPaths &paths, const QString &interpreter);

// How to make programs load the copy in `wantedDirectory` instead of `winner`, found first: on
// Windows the copy in a Windows folder moved aside, else its PATH entry moved behind; elsewhere the
// words. The repair is nullopt where none can be made.
std::pair<std::optional<Repair>, Text> shadowRemedy(const DoctorFacts &facts, const CudnnCopy &winner,
                                                    const QString &wantedDirectory);

// Every rule over the facts, in the order the report lists them.
QList<Diagnosis> runDoctorRules(const DoctorFacts &facts);

} // namespace cudnnsetup
