#pragma once

#include "common/Finding.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "platform/Elevation.h"
#include "platform/InstallLock.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

namespace cudnnsetup {

// Where cuDNN Setup keeps its journal, its receipts and the files installs replaced (host paths):
// for the machine ProgramData\cuDNN Setup (on the running Windows where the system keeps
// ProgramData, never where %ProgramData% says; Linux /var/lib/cudnn-setup), for the user
// %LOCALAPPDATA%\cuDNN Setup (Linux ~/.local/share/cudnn-setup); inside --system-root's tree, as
// its environment says.
inline constexpr char kCustodyFolder[] = "custody";

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
    QString logs(const QString &folder) const { return folder + QStringLiteral("/logs"); }
    QString downloads(const QString &folder) const { return folder + QStringLiteral("/downloads"); }
    QString exchange(const QString &folder) const { return folder + QStringLiteral("/exchange"); }
    // The folders a state folder holds (receipts, logs, downloads, the elevated helper's exchange):
    // what prepare() makes in the machine folder, each protected from its first moment.
    static QStringList subfolders();
    // Where an install or a handed-over repair keeps the copy of an archive it unpacks: in the
    // machine folder, a folder only administrators (root) may read or change.
    static QString custody(const QString &folder)
    {
        return folder + QLatin1Char('/') + QLatin1String(kCustodyFolder);
    }
    // The lock file of a change by `elevation`'s process. On the running system: an elevated one's
    // (root's, SYSTEM's) in the machine folder, which only administrators may add to, so no one
    // else can hold it; any other's in its user folder, where it records what it changes (whether
    // it may write the machine folder is told by its elevation, not by the folder's read-only flag,
    // all that QFileInfo::isWritable reads on Windows). In a rooted tree: its machine folder where
    // that can be written, else the user folder.
    QString lockFile(const Elevation &elevation) const;
    // What tryLock tells besides the lock.
    struct LockNotes
    {
        InstallLock::Refusal held;         // no lock: another process holds it
        std::optional<Finding> unprepared; // no lock: the machine folder cannot be made ready
        Findings setAside;                 // what prepare() set aside in the machine folder
    };
    // Takes that lock; nullptr when another holds it, or when an elevated process cannot make the
    // machine folder ready first (prepare): all elevated changes share one lock in a folder only
    // administrators may add to, and none goes on in one that others may have changed. `notes`,
    // when given, says why there is none, and what was set aside.
    std::unique_ptr<InstallLock> tryLock(const SystemContext &context, const Elevation &elevation,
                                         LockNotes *notes = nullptr) const;
    // Makes the state folder `folder` (machine or user) ready to be written. The machine folder,
    // where the system keeps owners and ACLs (Windows), is made only by an elevated process, with
    // its subfolders, each with security::adminsOnlySddl() from its first moment, so that no one
    // else can put a journal, receipt, log or download in it. Before an elevated process uses it:
    // one that others can change (made by an older version, or by hand) is given that descriptor
    // again, or, where even that is refused (a descriptor that shuts the administrators out) or it
    // is a link or junction, set aside ("<folder>.untrusted-<UTC time>") and made anew; then each
    // file and folder in it, and in its folders, that others than the administrators may have
    // changed (its owner is not SYSTEM, the Administrators or TrustedInstaller, or others may
    // write or re-permission it, or its descriptor cannot be read), and each link or junction, is
    // set aside beside itself, told in `setAside` (state.untrusted-entry). On Linux, root makes it
    // root's with mode 0755, and sets aside (and makes anew) one that others could have changed:
    // not root's, or writable by its group or others. Otherwise a link or junction in its place is
    // refused. The error says why it cannot be made.
    Expected<void> prepare(const QString &folder, const SystemContext &context, const Elevation &elevation,
                           Findings *setAside = nullptr) const;

    InstallLock::Scope lockScope = InstallLock::Scope::RunningSystem;
};

// Every receipt the context's process (its elevation()) may trust (StateFolders::trustedBy),
// machine ones first; with the host path each was read from. A receipt cuDNN Setup cannot have
// written (StateTrust) is left out and set aside; `refused`, when given, gets a finding for each.
QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context,
                                                     Findings *refused = nullptr);

} // namespace cudnnsetup
