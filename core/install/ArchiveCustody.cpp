#include "install/ArchiveCustody.h"

#include "common/Logging.h"
#include "install/TargetPaths.h"
#include "platform/DurableFiles.h"
#include "platform/Sha256.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace cudnnsetup {

bool loadsMachineWide(const InstallTarget &target, const SystemContext &context)
{
    if (target.pathScope == PathScope::System || target.kind == InstallTarget::Kind::CudaToolkit ||
        !target.ldSoConfFile().isEmpty())
        return true;
    if (target.family != OsFamily::Windows)
        return false;
    const SystemPaths paths(target.family);
    QStringList windowsFolders{QStringLiteral("C:\\Windows")};
    for (const QString &name : {QStringLiteral("SystemRoot"), QStringLiteral("windir")}) {
        const QString value = targetpaths::environmentPath(context, name);
        if (!value.isEmpty())
            windowsFolders.append(value);
    }
    return std::any_of(windowsFolders.cbegin(), windowsFolders.cend(), [&](const QString &windows) {
        return paths.startsWith(target.dllFolder(), windows) || paths.startsWith(target.root, windows);
    });
}

bool needsNvidiasArchive(const InstallTarget &target, const SystemContext &context,
                         const ArchiveVouching &vouching)
{
    if (vouching.actingForAnother)
        return true;
    return !vouching.allowUnverified && loadsMachineWide(target, context);
}

std::optional<Finding> unverifiedArchiveRefusal(const ArchiveReport &archive, const InstallTarget &target,
                                                const SystemContext &context, const ArchiveVouching &vouching)
{
    if (archive.official == ArchiveReport::Official::Match || !needsNvidiasArchive(target, context, vouching))
        return std::nullopt;
    const QString shown = QDir::toNativeSeparators(archive.path);
    const QString details =
        QStringLiteral("sha256 %1, official %2, target %3, acting for another %4")
            .arg(archive.sha256, archive.officialName(), target.spec(),
                 vouching.actingForAnother ? QStringLiteral("yes") : QStringLiteral("no"));
    if (vouching.actingForAnother)
        return Finding::error(
            QStringLiteral("install.archive-not-nvidias"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive %1 is not one NVIDIA published (its SHA-256 is not among "
                                   "NVIDIA's checksums). Administrator rights install only NVIDIA's own "
                                   "archives for someone else."))
                .arg(shown),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Install into a folder for you only, which needs no administrator rights, "
                                   "or download the archive from NVIDIA (or your lab's copy of NVIDIA's "
                                   "files) and choose that one.")));
    return Finding::error(
        QStringLiteral("install.archive-not-nvidias"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The archive %1 is not one NVIDIA published (its SHA-256 is not among "
                               "NVIDIA's checksums). Files that every program on this computer loads are "
                               "installed only from NVIDIA's own archives."))
            .arg(shown),
        details,
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Install into a folder for you only, or download the archive from NVIDIA (or "
                          "your lab's copy of NVIDIA's files). An administrator at their own console "
                          "who trusts this file may add --allow-unverified-archive to cudnnctl install.")));
}

Expected<ArchiveInCustody> takeIntoCustody(const QString &archivePath, const QString &custodyPath)
{
    Sha256 hash;
    const QString partial = custodyPath + QStringLiteral(".partial");
    const SystemResult copied =
        durable::copy(archivePath, partial, custodyPath, [&](QByteArrayView chunk, qint64) {
            hash.add(chunk.data(), chunk.size());
            return true;
        });
    if (!copied) {
        durable::discard(partial);
        return Finding::error(
            QStringLiteral("install.archive-custody-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 could not be copied into cuDNN Setup's "
                                                 "protected folder, so nothing is installed."))
                .arg(QDir::toNativeSeparators(archivePath)),
            copied.error().message,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Make room on the disk that holds %1, and check that the archive can be "
                                   "read, then try again."))
                .arg(QDir::toNativeSeparators(QFileInfo(custodyPath).absolutePath())));
    }
    ArchiveInCustody custody{custodyPath, hash.hex()};
    qCInfo(lcInstall).noquote() << "archive" << archivePath << "taken into custody as" << custodyPath
                                << "sha256" << custody.sha256;
    return custody;
}

} // namespace cudnnsetup
