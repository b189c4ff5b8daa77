// Room for the install on the target's drive, for the files it replaces, and staging on the same
// volume as the destinations.
#include "install/TargetChecks.h"

#include "common/Finding.h"
#include "common/Logging.h"
#include "common/Sizes.h"
#include "common/Text.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetCheckFamilies.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

namespace targetchecks {

void checkSpace(const InstallTarget &target, const ArchiveReport &archive, const QList<PlannedFile> &planned,
                const SystemContext &context, const Volumes &volumes, Findings &findings)
{
    qint64 unpacked = 0;
    for (const PlannedFile &file : planned)
        unpacked += file.size;
    const qint64 needed = requiredBytes(archive, planned);
    const qint64 available = freeBytesAt(target, context, volumes);
    qCInfo(lcInstall) << "space for" << target.root << ": available" << available << "needed" << needed
                      << "(archive" << archive.size << "unpacked" << unpacked << ")";
    const QString details = QStringLiteral("available %1 bytes, needed %2 bytes (archive %3, unpacked %4)")
                                .arg(available)
                                .arg(needed)
                                .arg(archive.size)
                                .arg(unpacked);
    if (available < 0) {
        findings.append(Finding::info(
            QStringLiteral("target.space-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The free space on the drive of %1 could not be read; the "
                                                 "installation needs %2."))
                .arg(target.root, shownSize(needed)),
            details));
        return;
    }
    if (available < needed) {
        findings.append(Finding::error(
            QStringLiteral("target.no-space"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The drive of %1 has %2 free, but the installation needs %3."))
                .arg(target.root, shownSize(available), shownSize(needed)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Free %1 on that drive, or choose a folder on another drive."))
                .arg(shownSize(needed - available))));
    }
}

void checkStagingVolume(const InstallTarget &target, const QStringList &folders, const SystemContext &context,
                        const Volumes &volumes, Findings &findings)
{
    const FileSystem &files = context.files();
    const QString staging = files.toHost(target.stagingFolder());
    if (staging.isEmpty())
        return;
    for (const QString &folder : folders) {
        const QString host = files.toHost(folder);
        if (host.isEmpty())
            continue;
        if (volumes.sameVolume(staging, host) == std::optional<bool>(false)) {
            findings.append(Finding::error(
                QStringLiteral("target.staging-volume"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is on another drive than %2, so its files cannot be "
                                                     "moved into place in one step."))
                    .arg(folder, target.root),
                QStringLiteral("staging %1 on %2, destination %3 on %4")
                    .arg(staging, volumes.volumeId(staging), host, volumes.volumeId(host)),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Choose a folder whose subfolders are all on one drive."))));
            return;
        }
    }
}

} // namespace targetchecks

qint64 freeBytesAt(const InstallTarget &target, const SystemContext &context, const Volumes &volumes)
{
    const QString host = context.files().toHost(target.root);
    return host.isEmpty() ? -1 : volumes.freeBytes(host);
}

Findings checkKeepingSpace(const QList<PlannedFile> &planned, const QString &keptFolder,
                           const InstallTarget &target, const SystemContext &context, const Volumes &volumes)
{
    qint64 replaced = 0;
    for (const PlannedFile &file : planned) {
        const QFileInfo existing(context.files().toHost(file.destination));
        if (existing.isFile())
            replaced += existing.size();
    }
    const QString root = context.files().toHost(target.root);
    if (replaced == 0 || volumes.sameVolume(keptFolder, root) == std::optional<bool>(true))
        return {};
    const QString shown = QDir::toNativeSeparators(context.files().fromHost(keptFolder));
    const qint64 available = volumes.freeBytes(keptFolder);
    const QString details = QStringLiteral("%1 on %2: available %3 bytes, needed %4 bytes")
                                .arg(keptFolder, volumes.volumeId(keptFolder))
                                .arg(available)
                                .arg(replaced);
    if (available < 0) {
        return {
            Finding::info(QStringLiteral("target.space-unknown"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The free space on the drive of %1 could not "
                                                               "be read; keeping the replaced files there "
                                                               "needs %2."))
                              .arg(shown, shownSize(replaced)),
                          details)};
    }
    if (available >= replaced)
        return {};
    return {Finding::error(
        QStringLiteral("target.no-space-to-keep"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The files this install replaces are kept in %1 for an uninstall to "
                               "put back, but its drive has %2 free and they need %3."))
            .arg(shown, shownSize(available), shownSize(replaced)),
        details,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Free %1 on that drive, then try again."))
            .arg(shownSize(replaced - available)))};
}

} // namespace cudnnsetup
