#include "session/TargetConfig.h"

#include "common/Logging.h"
#include "install/FilePlacement.h"
#include "install/Operation.h"

#include <QDir>

#include <algorithm>

namespace cudnnsetup {

namespace {

Finding invalidSetting(const Text &message)
{
    return Finding::error(QStringLiteral("request.invalid"), message);
}

bool isFolderKind(InstallTarget::Kind kind)
{
    return kind == InstallTarget::Kind::Folder || kind == InstallTarget::Kind::UserFolder;
}

} // namespace

Expected<TargetConfig> TargetConfig::fromOptions(const QString &target, const QString &path,
                                                 const QString &variables, const QString &ifInUse)
{
    TargetConfig config;
    if (!path.isEmpty()) {
        config.m_pathScope = pathScopeFromName(path);
        if (!config.m_pathScope)
            return invalidSetting(
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "--path takes user, system or none.")));
    }
    if (variables == QLatin1String("user"))
        config.m_variables = EnvironmentScope::User;
    else if (variables == QLatin1String("system"))
        config.m_variables = EnvironmentScope::System;
    else if (!variables.isEmpty())
        return invalidSetting(
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "--cudnn-variables takes user or system.")));
    if (ifInUse == QLatin1String("restart"))
        config.m_replaceInUse = true;
    else if (!ifInUse.isEmpty() && ifInUse != QLatin1String("fail"))
        return invalidSetting(Text(QT_TRANSLATE_NOOP("cudnnsetup", "--if-in-use takes fail or restart.")));
    if (!target.isEmpty()) {
        const Expected<TargetSelection> selection = TargetSelection::parse(target);
        if (!selection)
            return selection.error();
        config.m_selection = *selection;
    }
    config.m_relativeToCurrentFolder = true;
    return config;
}

TargetConfig TargetConfig::fromPlan(const InstallPlan &plan)
{
    TargetConfig config;
    config.m_selection = TargetSelection::of(plan.target);
    config.m_pathScope = plan.target.pathScope;
    config.m_variables = plan.cudnnVariables;
    config.m_replaceInUse = plan.replaceInUse;
    return config;
}

void TargetConfig::setFacts(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                            const SystemContext &context, const KnowledgeBase &kb,
                            std::shared_ptr<PersistentEnvironment> environment)
{
    auto facts =
        std::make_shared<Facts>(Facts{snapshot, archive, context, kb, std::move(environment), {}, {}});
    facts->choices = offeredTargets(snapshot, archive, context, m_program);
    facts->proposed = defaultTarget(snapshot, archive, context, kb);
    if (!facts->choices.isEmpty() && facts->choices.first().selection.kind == InstallTarget::Kind::App) {
        const Expected<InstallTarget> app =
            resolveTarget(facts->choices.first().selection, std::nullopt, snapshot, archive, context, kb);
        if (app)
            facts->proposed = *app;
    }
    m_facts = std::move(facts);
    const Expected<InstallTarget> folder = resolveTarget({InstallTarget::Kind::Folder, std::nullopt},
                                                         std::nullopt, snapshot, archive, context, kb);
    m_folder = folder ? folder->root : QString();
    m_chosen = -1;
    resolve();
}

const QList<TargetChoice> &TargetConfig::choices() const
{
    static const QList<TargetChoice> none;
    return m_facts ? m_facts->choices : none;
}

const std::optional<InstallTarget> &TargetConfig::proposed() const
{
    static const std::optional<InstallTarget> none;
    return m_facts ? m_facts->proposed : none;
}

int TargetConfig::choiceOf(const std::optional<InstallTarget> &target) const
{
    if (!target || !m_facts)
        return -1;
    const SystemPaths &paths = m_facts->context.paths();
    const QList<TargetChoice> &offered = m_facts->choices;
    for (int i = 0; i < offered.size(); ++i) {
        const TargetChoice &choice = offered.at(i);
        if (choice.selection.kind == target->kind &&
            (choice.selection.kind == InstallTarget::Kind::Folder || paths.equal(choice.where, target->root)))
            return i;
    }
    return -1;
}

bool TargetConfig::environmentChangeable() const
{
    return m_facts && m_facts->environment && m_facts->environment->isAvailable();
}

QList<PathScope> TargetConfig::offeredPathScopes() const
{
    if (!environmentChangeable() || !m_selection || !isFolderKind(m_selection->kind))
        return {PathScope::None};
    if (m_selection->kind == InstallTarget::Kind::UserFolder)
        return {PathScope::None, PathScope::User};
    return {PathScope::None, PathScope::User, PathScope::System};
}

bool TargetConfig::choiceNeedsAdmin(int index) const
{
    if (!m_facts || index < 0 || index >= m_facts->choices.size())
        return false;
    if (index == m_chosen && m_target)
        return m_target->needsAdmin(m_facts->context);
    const TargetChoice &choice = m_facts->choices.at(index);
    InstallTarget probe;
    probe.kind = choice.selection.kind;
    probe.family = m_facts->context.family();
    probe.root = choice.selection.kind == InstallTarget::Kind::Folder ? m_folder.trimmed() : choice.where;
    return probe.needsAdmin(m_facts->context);
}

void TargetConfig::choose(int index, std::optional<PathScope> kept)
{
    if (!m_facts || index < 0 || index >= m_facts->choices.size())
        return;
    m_chosen = index;
    m_selection = m_facts->choices.at(index).selection;
    if (m_selection->kind == InstallTarget::Kind::Folder)
        m_selection->value = m_folder.trimmed();
    // Each kind starts with its own PATH: the system's for a folder of its own, the user's for a
    // per-user one; none for the others, which have their own way (CUDA's installer, conda's
    // activation, the venv's .pth file).
    PathScope scope = kept.value_or(defaultPathScope(m_selection->kind));
    if (!offeredPathScopes().contains(scope))
        scope = scope == PathScope::System && offeredPathScopes().contains(PathScope::User) ? PathScope::User
                                                                                            : PathScope::None;
    m_pathScope = scope;
    resolve();
}

void TargetConfig::setFolder(const QString &folder)
{
    m_folder = folder;
    if (m_selection && m_selection->kind == InstallTarget::Kind::Folder && m_chosen >= 0) {
        m_selection->value = folder.trimmed();
        resolve();
    }
}

void TargetConfig::setPathScope(std::optional<PathScope> scope)
{
    m_pathScope = scope;
    resolve();
}

void TargetConfig::setVariables(std::optional<EnvironmentScope> scope)
{
    m_variables = scope;
    m_variablesFollowTarget = false;
}

void TargetConfig::setVariablesWanted(bool wanted)
{
    m_variables.reset();
    m_variablesFollowTarget = wanted;
}

void TargetConfig::resolve()
{
    const std::optional<InstallTarget> before = m_target;
    m_target.reset();
    m_refusal.reset();
    if (!m_facts) {
        m_pathFixes.clear();
        return;
    }
    const Facts &facts = *m_facts;
    if (!m_selection) {
        m_target = *facts.proposed;
        if (m_pathScope)
            m_target->pathScope = *m_pathScope;
    } else {
        TargetSelection selection = *m_selection;
        // A folder given relative to where the command runs, as shells pass them.
        const bool folderNamed = selection.kind != InstallTarget::Kind::CudaToolkit &&
                                 selection.kind != InstallTarget::Kind::Conda;
        if (m_relativeToCurrentFolder && facts.context.isLive() && folderNamed && selection.value &&
            !selection.value->isEmpty() && QDir::isRelativePath(*selection.value))
            selection.value = QDir::toNativeSeparators(QDir::current().absoluteFilePath(*selection.value));
        const Expected<InstallTarget> target =
            resolveTarget(selection, m_pathScope, facts.snapshot, facts.archive, facts.context, facts.kb);
        if (target)
            m_target = *target;
        else
            m_refusal = target.error();
    }
    // Fixes were offered for one entry in one PATH.
    const bool samePath = before && m_target && before->dllFolder() == m_target->dllFolder() &&
                          before->pathScope == m_target->pathScope && before->family == m_target->family;
    if (!samePath)
        m_pathFixes.clear();
}

Findings TargetConfig::findings() const
{
    return m_refusal ? Findings{*m_refusal} : Findings{};
}

std::optional<EnvironmentScope> TargetConfig::cudnnVariables() const
{
    if (m_variables)
        return m_variables;
    if (!m_variablesFollowTarget || !m_target || !environmentChangeable())
        return std::nullopt;
    return m_target->needsAdmin(m_facts->context) ? EnvironmentScope::System : EnvironmentScope::User;
}

Expected<InstallPlan> TargetConfig::plan() const
{
    if (!m_target) {
        if (m_refusal)
            return *m_refusal;
        return InstallPlan::invalid(QStringLiteral("no target chosen, or nothing to resolve it against"));
    }
    InstallPlan plan;
    plan.target = *m_target;
    plan.archive = ArchiveIdentity::of(m_facts->archive.path, m_facts->archive);
    plan.cudnnVariables = cudnnVariables();
    plan.replaceInUse = m_replaceInUse;
    plan.pathFixes = changeOptions().pathFixes;
    return plan;
}

ChangeOptions TargetConfig::changeOptions(ChangeOptions base) const
{
    base.cudnnVariables = cudnnVariables();
    base.replaceInUse = m_replaceInUse;
    base.pathFixes = m_target && m_target->pathScope != PathScope::None ? m_pathFixes : QList<PathFix>();
    return base;
}

bool TargetConfig::changesPath() const
{
    return m_target && m_target->pathScope != PathScope::None && environmentChangeable();
}

EnvironmentScope TargetConfig::pathEnvironmentScope() const
{
    return m_target ? environmentScopeOf(m_target->pathScope).value_or(EnvironmentScope::User)
                    : EnvironmentScope::User;
}

PathEditor TargetConfig::pathEditor(EnvironmentScope scope) const
{
    return PathEditor::forStoredPath(m_facts->context.family(), scope, *m_facts->environment,
                                     sessionVariablesOf(m_facts->context));
}

QString TargetConfig::storedPath(EnvironmentScope scope, Findings &findings) const
{
    const auto value = m_facts->environment->read(scope, QStringLiteral("PATH"));
    if (!value) {
        findings.append(value.error());
        return {};
    }
    return value->has_value() ? value->value().text : QString();
}

void TargetConfig::analysePath()
{
    m_rawPath.clear();
    m_analysis = PathAnalysis();
    m_systemProblems.clear();
    m_pathFindings.clear();
    if (!changesPath()) {
        m_pathFixes.clear();
        return;
    }
    const SystemPaths &paths = m_facts->context.paths();
    QList<QString> cudnnFolders;
    for (const CudnnCopy &copy : m_facts->snapshot.cudnn) {
        if (!copy.directory.isEmpty())
            cudnnFolders.append(copy.directory);
    }
    const PathEditor::FolderTest isCudnnFolder = [cudnnFolders, paths](const QString &folder) {
        return std::any_of(cudnnFolders.cbegin(), cudnnFolders.cend(),
                           [&](const QString &known) { return paths.equal(known, folder); });
    };
    const QString cuda = m_facts->archive.cudaVariant;
    const QString ours = m_target->dllFolder();
    m_rawPath = storedPath(pathEnvironmentScope(), m_pathFindings);
    m_analysis = pathEditor(pathEnvironmentScope())
                     .analyse(m_rawPath, ours, isCudnnFolder, PathEditor::Position::Front, cuda);
    // The system PATH comes before the user's in every new program: what in it holds another cuDNN
    // or CUDA is shown too, but not offered for change here (it needs an administrator).
    if (m_target->pathScope == PathScope::User) {
        const QString system = storedPath(EnvironmentScope::System, m_pathFindings);
        const PathAnalysis systemAnalysis =
            pathEditor(EnvironmentScope::System)
                .analyse(system, ours, isCudnnFolder, PathEditor::Position::Back, cuda);
        for (const PathProblem &problem : systemAnalysis.problems) {
            if (problem.kind != PathProblem::Kind::Duplicate && problem.beforeOurs)
                m_systemProblems.append(problem);
        }
    }
    // The ticks kept are those offered for this PATH again.
    QList<PathFix> kept;
    for (const PathProblem &problem : std::as_const(m_analysis.problems)) {
        for (const PathFix &fix : problem.fixes) {
            if (m_pathFixes.contains(fix))
                kept.append(fix);
        }
    }
    m_pathFixes = kept;
}

Expected<PathPreview> TargetConfig::pathPreview() const
{
    if (!changesPath())
        return PathPreview();
    return pathEditor(pathEnvironmentScope())
        .preview(m_rawPath, m_target->dllFolder(), PathEditor::Position::Front, m_pathFixes);
}

Findings TargetConfig::pathLengthWarnings() const
{
    if (!changesPath())
        return {};
    const PathEditor editor = pathEditor(pathEnvironmentScope());
    const Expected<QString> after =
        editor.edited(m_rawPath, m_target->dllFolder(), PathEditor::Position::Front, m_pathFixes);
    return after ? editor.lengthWarnings(*after) : Findings{};
}

qint64 TargetConfig::requiredBytes() const
{
    return m_target ? cudnnsetup::requiredBytes(m_facts->archive, placeFiles(m_facts->archive, *m_target))
                    : 0;
}

} // namespace cudnnsetup
