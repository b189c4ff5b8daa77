#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Expected.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"
#include "install/ChangeOutcome.h"
#include "install/InstallPlan.h"
#include "install/PathEditor.h"
#include "install/TargetSpec.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"
#include "session/TargetChoices.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

// Where cuDNN goes and how programs find it, as one widget-free configuration in the shape of
// Calamares' per-module Config. The Target page, `cudnnctl install`'s options and answer files all
// fill it: it offers the places this machine has, keeps the choices typed (no --target text past
// fromOptions), resolves and checks them, analyses and previews the PATH they change, and makes the
// one InstallPlan that the install, the elevated helper and the receipt carry.
class TargetConfig final
{
public:
    // The choices as a command line or an answer file types them: --target (empty: the target the
    // match proposes), --path (empty: the kind's own), --cudnn-variables (empty: none) and
    // --if-in-use (empty: fail). A folder given relative is taken from the current folder of the
    // running system, as shells pass them. "request.invalid" names the option that is wrong; a
    // --target that is no target is TargetSelection::parse's error.
    static Expected<TargetConfig> fromOptions(const QString &target, const QString &path,
                                              const QString &variables, const QString &ifInUse);
    // The choices `plan` was made of, for whoever installs it to resolve again: its target by kind
    // and folder (TargetSelection::of), PATH scope, variables and in-use option. Its PATH fixes are
    // not taken: they are ticked once there are facts (setPathFixes), and analysePath() keeps those
    // offered.
    static TargetConfig fromPlan(const InstallPlan &plan);

    // What the choices are resolved against: the machine as detected, the archive as inspected, the
    // database, and the stored environment PATH and the variables go to (null or unavailable: the
    // page offers no PATH change, as on Linux and under --system-root). Resolves again.
    void setFacts(const SystemSnapshot &snapshot, const ArchiveReport &archive, const SystemContext &context,
                  const KnowledgeBase &kb, std::shared_ptr<PersistentEnvironment> environment = {});
    bool hasFacts() const { return m_facts != nullptr; }
    // The program cuDNN is for (SetupSession::program()): its folder is offered first and proposed.
    // Takes effect with the next setFacts.
    void setProgram(const std::optional<CudnnBeside> &program) { m_program = program; }

    // ---- What there is to choose from (once there are facts) ----
    const QList<TargetChoice> &choices() const;
    // The target the wizard proposes: the program's folder, else the toolkit the match chose, else a
    // folder of its own.
    const std::optional<InstallTarget> &proposed() const;
    // The choice that names `target` (a folder of its own whatever its folder), or -1.
    int choiceOf(const std::optional<InstallTarget> &target) const;
    // Whether PATH and the variables can be changed where this runs (the running Windows system).
    bool environmentChangeable() const;
    // The PATH scopes the chosen place offers: none, the user's and the system's for a folder of
    // its own, none and the user's for a per-user one; only none for the others (they have their
    // own way) and wherever the environment cannot be changed.
    QList<PathScope> offeredPathScopes() const;
    // Whether choice `index` needs an administrator: judged by where its files go and, for the
    // chosen one, by the PATH it changes.
    bool choiceNeedsAdmin(int index) const;

    // ---- The choices ----
    // Choice `index` (its typed folder, for a folder of its own) and the PATH it starts with:
    // `kept` where this kind offers it, else the kind's own.
    void choose(int index, std::optional<PathScope> kept = std::nullopt);
    int chosen() const { return m_chosen; }
    // The folder typed for a folder of its own; the default folder until one is typed.
    void setFolder(const QString &folder);
    const QString &folder() const { return m_folder; }
    // nullopt: the kind's own.
    void setPathScope(std::optional<PathScope> scope);
    std::optional<PathScope> pathScope() const { return m_pathScope; }
    // The CUDNN_* variables in this scope, or none.
    void setVariables(std::optional<EnvironmentScope> scope);
    // The CUDNN_* variables in the scope the target needs (machine-wide for a target that needs an
    // administrator, else this user's), where the environment can be changed; or none.
    void setVariablesWanted(bool wanted);
    bool variablesWanted() const { return m_variablesFollowTarget || m_variables.has_value(); }
    void setReplaceInUse(bool replace) { m_replaceInUse = replace; }
    // The PATH clean-ups the user ticked, among those pathAnalysis() offers; none unless asked for.
    void setPathFixes(const QList<PathFix> &fixes) { m_pathFixes = fixes; }
    const QList<PathFix> &pathFixes() const { return m_pathFixes; }

    // ---- What comes of them ----
    bool isReady() const { return m_target.has_value(); }
    const InstallTarget &target() const { return *m_target; } // only when isReady()
    // Why there is no target: resolveTarget's finding.
    Findings findings() const;
    std::optional<EnvironmentScope> cudnnVariables() const;
    // The install as one typed plan: the target, the archive (by the facts' inspection), the
    // variables, the in-use option and the ticked PATH fixes (where the target changes a PATH). The
    // finding of findings() when it is not ready.
    Expected<InstallPlan> plan() const;
    // How the install goes for the plan: `base` with its variables, in-use option, and the PATH
    // clean-ups where the target changes a PATH.
    ChangeOptions changeOptions(ChangeOptions base = {}) const;

    // ---- PATH, for the page's preview ----
    // Whether the target changes a PATH here that can be shown.
    bool changesPath() const;
    // The editor of `scope`'s stored PATH: the one expansion the preview, the install and the doctor
    // share (PathEditor::forStoredPath).
    PathEditor pathEditor(EnvironmentScope scope) const;
    // Reads the PATH the target goes into and analyses it (and, for the user's PATH, what in the
    // system's comes before it); the ticked fixes still offered are kept.
    void analysePath();
    const PathAnalysis &pathAnalysis() const { return m_analysis; }
    // Entries of the system PATH that shadow ours in the user's: shown, not offered for change.
    const QList<PathProblem> &systemPathProblems() const { return m_systemProblems; }
    const Findings &pathFindings() const { return m_pathFindings; } // reading PATH
    // The PATH as analysed, before and after ours and the ticked fixes.
    Expected<PathPreview> pathPreview() const;
    // The edited PATH, when it grows too long for Windows' tools or for Windows.
    Findings pathLengthWarnings() const;

    // ---- Space ----
    // What the target needs; the free space on its volume is TargetCheckJob's to read.
    qint64 requiredBytes() const;

private:
    struct Facts
    {
        SystemSnapshot snapshot;
        ArchiveReport archive;
        SystemContext context;
        KnowledgeBase kb;
        std::shared_ptr<PersistentEnvironment> environment;
        QList<TargetChoice> choices;
        std::optional<InstallTarget> proposed;
    };

    void resolve();
    EnvironmentScope pathEnvironmentScope() const;
    QString storedPath(EnvironmentScope scope, Findings &findings) const;

    std::shared_ptr<const Facts> m_facts;
    std::optional<CudnnBeside> m_program;
    std::optional<TargetSelection> m_selection; // nullopt: the proposed target
    int m_chosen = -1;
    QString m_folder;
    std::optional<PathScope> m_pathScope;
    std::optional<EnvironmentScope> m_variables;
    bool m_variablesFollowTarget = false;
    bool m_replaceInUse = false;
    bool m_relativeToCurrentFolder = false;
    QList<PathFix> m_pathFixes;
    std::optional<InstallTarget> m_target;
    std::optional<Finding> m_refusal;
    QString m_rawPath;
    PathAnalysis m_analysis;
    QList<PathProblem> m_systemProblems;
    Findings m_pathFindings;
};

} // namespace cudnnsetup
