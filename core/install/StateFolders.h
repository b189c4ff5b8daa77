#pragma once

#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "platform/Elevation.h"
#include "platform/InstallLock.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QString>

#include <memory>
#include <utility>

namespace cudnnsetup {

// Where cuDNN Setup keeps its journal, its receipts and the files installs replaced (host paths):
// for the machine %ProgramData%\cuDNN Setup (Linux /var/lib/cudnn-setup), for the user
// %LOCALAPPDATA%\cuDNN Setup (Linux ~/.local/share/cudnn-setup); inside --system-root's tree.
struct StateFolders
{
    QString machine;
    QString user;

    static StateFolders of(const SystemContext &context);
    // Where an install into `target` by `elevation`'s process keeps its journal and receipt: the
    // machine folder for a machine-wide target, or any change an elevated process makes to the
    // running system; else the user's.
    QString forTarget(const InstallTarget &target, const SystemContext &context,
                      const Elevation &elevation) const;
    QString journal(const QString &folder) const { return folder + QStringLiteral("/transaction.journal"); }
    QString receipts(const QString &folder) const { return folder + QStringLiteral("/receipts"); }
    // The lock file of a change by `elevation`'s process. On the running system: an elevated one's
    // (root's, SYSTEM's) in the machine folder, which only administrators may add to, so no one
    // else can hold it; any other's in its user folder, where it records what it changes (whether
    // it may write the machine folder is told by its elevation, not by the folder's read-only flag,
    // all that QFileInfo::isWritable reads on Windows). In a rooted tree: its machine folder where
    // that can be written, else the user folder.
    QString lockFile(const Elevation &elevation) const;
    // Takes that lock; nullptr when another holds it (`refusal`, when given, says why). An elevated
    // process makes the machine folder ready first (prepare), so that all elevated changes share
    // one lock in a folder only administrators may add to.
    std::unique_ptr<InstallLock> tryLock(const SystemContext &context, const Elevation &elevation,
                                         InstallLock::Refusal *refusal = nullptr) const;
    // Makes the state folder `folder` (machine or user) ready to be written. The machine folder,
    // where the system keeps owners and ACLs (Windows), is made only by an elevated process, and
    // with security::adminsOnlySddl(), so that no one else can put a journal or receipt in it; one
    // that others can change (made by an older version, or by hand) is given that descriptor again
    // by an elevated process. A link or junction in its place is refused. The error says why it
    // cannot be made.
    Expected<void> prepare(const QString &folder, const SystemContext &context,
                           const Elevation &elevation) const;

    InstallLock::Scope lockScope = InstallLock::Scope::RunningSystem;
};

// Every receipt on the system, machine ones first; with the host path each was read from. A
// receipt cuDNN Setup cannot have written (StateTrust) is left out and set aside; `refused`, when
// given, gets a finding for each.
// `elevation` is the process that is to act on them.
QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context,
                                                     Findings *refused = nullptr,
                                                     const Elevation &elevation = Elevation::host());

} // namespace cudnnsetup
