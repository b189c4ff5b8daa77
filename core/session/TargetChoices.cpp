#include "session/TargetChoices.h"

#include <QSet>

namespace cudnnsetup {

namespace {

// Where an env's interpreter says the env is: a venv's python is in Scripts\ (bin/), a conda
// env's in its root on Windows (bin/ on Linux).
QString envRootOf(const PythonInstall &python, const SystemPaths &paths)
{
    const QString folder = paths.parent(python.path);
    const QString name = paths.fileName(folder);
    if (name.compare(QLatin1String("Scripts"), Qt::CaseInsensitive) == 0 || name == QLatin1String("bin"))
        return paths.parent(folder);
    return folder;
}

QString envName(const QString &root, const SystemPaths &paths, bool conda)
{
    // A conda env is named by its folder, except the base install, which is not in an "envs" folder.
    if (conda && paths.fileName(paths.parent(root)).compare(QLatin1String("envs"), Qt::CaseInsensitive) != 0)
        return QStringLiteral("base");
    return paths.fileName(root);
}

} // namespace

QList<TargetChoice> offeredTargets(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                   const SystemContext &context, const std::optional<CudnnBeside> &program)
{
    const SystemPaths &paths = context.paths();
    QList<TargetChoice> choices;
    if (program && !program->folder.isEmpty()) {
        const TargetSelection app{InstallTarget::Kind::App, program->folder};
        if (const auto folder = resolveTarget(app, std::nullopt, snapshot, archive, context))
            choices.append(TargetChoice{app, program->program, folder->root});
    }
    const int major = archive.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt();
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
        const Version version = Version::parse(toolkit.version);
        if (major <= 0 || !version.isValid() || version.major() != major)
            continue;
        const TargetSelection selection{InstallTarget::Kind::CudaToolkit, toolkit.version};
        choices.append(
            TargetChoice{selection, version.truncated(2).toString(), paths.normalize(toolkit.path)});
    }
    choices.append(TargetChoice{TargetSelection{InstallTarget::Kind::Folder, std::nullopt}, {}, {}});
    const TargetSelection user{InstallTarget::Kind::UserFolder, std::nullopt};
    if (const auto folder = resolveTarget(user, std::nullopt, snapshot, archive, context))
        choices.append(TargetChoice{user, {}, folder->root});
    QSet<QString> seen;
    for (const bool conda : {true, false}) {
        for (const PythonInstall &python : snapshot.pythons) {
            if (python.source != (conda ? QLatin1String("conda") : QLatin1String("venv")))
                continue;
            const QString root = paths.normalize(envRootOf(python, paths));
            const QString key = paths.isWindows() ? root.toLower() : root;
            if (seen.contains(key))
                continue;
            seen.insert(key);
            const TargetSelection env{conda ? InstallTarget::Kind::Conda : InstallTarget::Kind::Venv, root};
            if (!resolveTarget(env, std::nullopt, snapshot, archive, context))
                continue;
            choices.append(TargetChoice{env, envName(root, paths, conda), root});
        }
    }
    return choices;
}

PathScope defaultPathScope(InstallTarget::Kind kind)
{
    switch (kind) {
    case InstallTarget::Kind::Folder:
        return PathScope::System;
    case InstallTarget::Kind::UserFolder:
        return PathScope::User;
    case InstallTarget::Kind::CudaToolkit:
    case InstallTarget::Kind::Conda:
    case InstallTarget::Kind::Venv:
    case InstallTarget::Kind::App:
        return PathScope::None;
    }
    return PathScope::None;
}

} // namespace cudnnsetup
