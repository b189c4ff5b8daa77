#pragma once

#include "archive/ArchiveInspector.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

// What the receipts say of an install's target before it starts. Internal to core/install.
namespace cudnnsetup::installer {

// The receipts of the installs into `target`, with the paths they were read from.
QList<std::pair<Receipt, QString>> receiptsOfTarget(const InstallTarget &target,
                                                    const SystemContext &context);

// Whether the same cuDNN release is among the installs into the target: then the archive may be the
// one installed, which only its SHA-256 tells.
bool releaseInstalledBefore(const ArchiveReport &archive, const QList<std::pair<Receipt, QString>> &receipts);

// Among the installs into the target, the receipt of the same archive whose files are all intact,
// with the path it was read from.
std::optional<std::pair<Receipt, QString>> intactInstallOf(const ArchiveReport &archive,
                                                           const QList<std::pair<Receipt, QString>> &receipts,
                                                           const SystemContext &context);

} // namespace cudnnsetup::installer
