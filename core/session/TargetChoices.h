#pragma once

#include "archive/ArchiveInspector.h"
#include "compat/ConsumerVerdicts.h"
#include "detect/SystemSnapshot.h"
#include "install/InstallTarget.h"
#include "install/TargetSpec.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

// One place cuDNN can go, as the Where cuDNN goes page offers it.
struct TargetChoice
{
    TargetSelection selection; // what resolveTarget makes of it: "cuda:12.9.1", "dir", "conda:PATH"
    QString name;              // the toolkit's version (12.9), the environment's name
    QString where; // its folder, as the inspected system names it; empty for "dir", whose folder is typed
};

// The places this machine offers for `archive`, in the order they are shown: the folder of the
// program cuDNN is for ("Only for this program", when there is one), the CUDA toolkits of the
// archive's major, a folder of its own, a folder for this user only, then each conda env and each
// venv once, only those whose folder really is one (conda-meta, pyvenv.cfg).
QList<TargetChoice> offeredTargets(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                   const SystemContext &context,
                                   const std::optional<CudnnBeside> &program = std::nullopt);

// The PATH a kind of place starts with: the system's for a folder of its own, the user's for a
// per-user one; none for the others, which have their own way (CUDA's installer, conda's
// activation, the venv's .pth file).
PathScope defaultPathScope(InstallTarget::Kind kind);

} // namespace cudnnsetup
