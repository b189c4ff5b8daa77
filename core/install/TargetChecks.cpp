#include "install/TargetChecks.h"

#include "common/Finding.h"
#include "common/Logging.h"
#include "common/Text.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetCheckFamilies.h"
#include "install/TargetPaths.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QSet>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

namespace {

// The folders the install writes into (inspected-system paths), each once.
QStringList destinationFolders(const InstallTarget &target, const SystemPaths &paths)
{
    QStringList folders;
    const QStringList candidates = {target.dllFolder(), target.pathOf(target.includeFolder),
                                    target.pathOf(target.libFolder), paths.parent(target.pthFile())};
    QSet<QString> seen;
    for (const QString &candidate : candidates) {
        if (candidate.isEmpty() || seen.contains(targetpaths::foldedKey(paths, candidate)))
            continue;
        seen.insert(targetpaths::foldedKey(paths, candidate));
        folders.append(candidate);
    }
    return folders;
}

} // namespace

Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context)
{
    return checkTarget(target, archive, context, context.volumes());
}

Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context,
                     const Volumes &volumes)
{
    Findings findings;
    const SystemPaths paths(target.family);
    const FileSystem &files = context.files();
    if (target.root.trimmed().isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("target.empty"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No target folder is given.")), QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose the folder to install cuDNN into."))));
        return findings;
    }
    if (!paths.isAbsolute(target.root)) {
        findings.append(Finding::error(
            QStringLiteral("target.relative"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The target %1 is a relative path.")).arg(target.root),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Give the full path of the folder, with its drive (C:\\...)."))));
        return findings;
    }
    if (!targetchecks::checkNames(target, paths, findings))
        return findings;
    if (!targetchecks::checkKind(target, files, findings) ||
        !targetchecks::checkAppFolder(target, context, findings))
        return findings;

    const QList<PlannedFile> planned = placeFiles(archive, target);
    targetchecks::checkLength(target, planned, findings);
    targetchecks::checkExistingFolder(target, planned, files, findings);
    const QStringList folders = destinationFolders(target, paths);
    targetchecks::checkLinksInside(target, folders, context, findings);
    if (targetchecks::checkRootOnlyFolders(target, folders, context, findings))
        targetchecks::checkWritable(target, folders, planned, context, volumes, findings);
    checkSystemPathFolder(target, context, findings);
    targetchecks::checkSpace(target, archive, planned, context, volumes, findings);
    targetchecks::checkStagingVolume(target, folders, context, volumes, findings);
    for (const Finding &finding : std::as_const(findings))
        qCInfo(lcInstall) << "target check" << finding.id << severityName(finding.severity)
                          << finding.details;
    return findings;
}

} // namespace cudnnsetup
