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
    // The state folders whose journals and receipts may steer `elevation`'s process. They are
    // trusted by where they lie, never by what they say of themselves: on the running system an
    // elevated or SYSTEM process trusts the machine folder alone (where only administrators write),
    // never the user's, which a process at the user's level can write. Other processes, and any
    // process in another system's tree (--system-root, which has no levels of its own), read both.
    QStringList trustedBy(const SystemContext &context, const Elevation &elevation) const;
    // Of those, the folders whose unfinished journals `elevation`'s process settles: the ones it
    // writes its own journals to (forTarget), so a process at the user's level on the running system
    // settles the user's folder alone and leaves the machine's to an elevated one.
    QStringList settledBy(const SystemContext &context, const Elevation &elevation) const;
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
    // by an elevated process. On Linux, root makes it root's with mode 0755, and sets aside (and
    // makes anew) one that others could have changed: not root's, or writable by its group or
    // others. A link or junction in its place is refused. The error says why it cannot be made.
    Expected<void> prepare(const QString &folder, const SystemContext &context,
                           const Elevation &elevation) const;

    InstallLock::Scope lockScope = InstallLock::Scope::RunningSystem;
};

// Every receipt `elevation`'s process may trust (StateFolders::trustedBy), machine ones first; with
// the host path each was read from. A
// receipt cuDNN Setup cannot have written (StateTrust) is left out and set aside; `refused`, when
// given, gets a finding for each.
// `elevation` is the process that is to act on them.
QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context,
                                                     Findings *refused = nullptr,
                                                     const Elevation &elevation = Elevation::host());

} // namespace cudnnsetup
