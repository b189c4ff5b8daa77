#pragma once

#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "install/ChangeOutcome.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "install/StateFolders.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

// Installs the files of an inspected archive (verdict ok) into `target` as one transaction: unpack
// into staging on the target's volume, create the folders, rename each file into place (keeping
// what it replaces), zlibwapi.dll where the DLLs import it and none is found, the venv's .pth,
// PATH and the CUDNN_* variables, the receipt; under the machine's install lock. An archive inspected
// without its SHA-256 (InspectOptions::hashArchive off) has it taken in the pass that unpacks it, or
// in the copy an install that takes the archive into custody makes (which also tells a reinstall
// whether the same archive is installed intact), and judged against `kb` before any file is placed,
// so the archive is read once; what that judgement finds comes first in the outcome's findings.
ChangeOutcome install(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
                      const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                      const ChangeOptions &options = {}, const KnowledgeBase &kb = KnowledgeBase::embedded());

// Reverses the install of receipt `id` (empty: the only one there is): refuses when a file it placed
// changed since (and names them), else removes its files, puts back the ones it replaced, takes its
// PATH entry out and its variables back, and drops the receipt.
ChangeOutcome uninstall(const QString &id, const SystemContext &context,
                        std::shared_ptr<PersistentEnvironment> environment,
                        const ChangeOptions &options = {});

// The per-user part of a machine-wide install that ran elevated: this user's PATH entry and
// variables, changed by this user's own process (an elevated run's HKCU may be another account's),
// with a receipt of its own (`partOf` the machine-wide one) in this user's folder.
ChangeOutcome installUserPart(const Receipt &machineWide, const InstallTarget &target,
                              std::optional<EnvironmentScope> userVariables, const SystemContext &context,
                              std::shared_ptr<PersistentEnvironment> environment,
                              const ChangeOptions &options = {});

// At start: settles a journal a dead install left, if the machine's lock can be taken (an install
// that is running, such as the one that started this process, is left alone). A journal is
// replayed only by a process at the integrity level of the one that wrote it (the context's
// elevation() says which this one is), and only when StateTrust finds nothing to doubt in it; a doubted one
// is set aside and named in a finding, and the run goes on.
Findings recoverUnfinished(const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment);

} // namespace cudnnsetup
