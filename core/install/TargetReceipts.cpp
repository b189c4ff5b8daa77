#include "install/TargetReceipts.h"

#include "install/ChangeSteps.h"
#include "install/StateFolders.h"
#include "platform/Sha256.h"

#include <algorithm>

namespace cudnnsetup::installer {

QList<std::pair<Receipt, QString>> receiptsOfTarget(const InstallTarget &target, const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    QList<std::pair<Receipt, QString>> ofTarget;
    for (const auto &entry : installedReceipts(context)) {
        const Receipt &receipt = entry.first;
        if (receipt.target && receipt.target->kind == target.kind &&
            paths.normalize(receipt.target->root)
                    .compare(paths.normalize(target.root), paths.caseSensitivity()) == 0)
            ofTarget.append(entry);
    }
    return ofTarget;
}

bool releaseInstalledBefore(const ArchiveReport &archive, const QList<std::pair<Receipt, QString>> &receipts)
{
    return std::any_of(receipts.cbegin(), receipts.cend(), [&](const auto &entry) {
        return entry.first.archive.cudnn.truncated(3) == archive.cudnn.truncated(3);
    });
}

std::optional<std::pair<Receipt, QString>> intactInstallOf(const ArchiveReport &archive,
                                                           const QList<std::pair<Receipt, QString>> &receipts,
                                                           const SystemContext &context)
{
    for (const auto &[receipt, path] : receipts) {
        if (archive.sha256.isEmpty() || receipt.archive.sha256 != archive.sha256)
            continue;
        const bool intact =
            std::all_of(receipt.files.cbegin(), receipt.files.cend(), [&](const Receipt::File &file) {
                return Sha256::ofFile(hostOf(context, file.path)) == file.sha256;
            });
        if (intact)
            return std::pair{receipt, path};
    }
    return std::nullopt;
}

} // namespace cudnnsetup::installer
