#pragma once

#include "install/Journal.h"
#include "install/Operation.h"
#include "install/Receipt.h"
#include "platform/Elevation.h"
#include "platform/SystemContext.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// A name of cuDNN's own files: cudnn64_9.dll, libcudnn.so.9, zlibwapi.dll, and those names with the
// suffixes of a file set aside, half written or waiting for a restart.
bool isCudnnFileName(const QString &name);
// The folder a repair unpacks DLLs into, beside the ones they replace.
inline constexpr char kRepairStagingFolder[] = ".cudnn-setup-repair";

// Whether what lies in a state folder (a journal a dead process left, a receipt) may steer this
// run. They are files: whoever could write them must not be able to make an elevated run delete,
// replace or restore anything outside what an install could have touched. So, whatever the
// folder's ACL says:
// - a transaction's roots (written in its journal's header; for a receipt, its target and its
//   files' folders) may not hold a drive, the Windows folder, Program Files, ProgramData, a
//   profile or the state folders; a root inside the Windows folder or a system library folder
//   (System32, /usr/lib) admits only cuDNN's own files (cudnn*, zlibwapi.dll) directly in it;
// - every path an operation changes, and the backup folder, lies under a root or the state folder;
// - a journal in a user's own state folder changes that user's environment only, and only the
//   environment values an install sets (PATH, CUDNN_*, CUDA_PATH);
// - what an operation wrote down is what it could have written (a PATH after its edit is the
//   edit of the PATH before).
// And where the system keeps owners and ACLs (Windows), a file in the machine's state folder is
// trusted only when an administrator wrote it and only administrators can change it: its owner is
// SYSTEM, the Administrators or TrustedInstaller (or, for an elevated run, its own account), no one
// else may write, append, delete or re-permission it or replace it through a folder above, and no
// link or junction is on the way from the state folder to it.
class StateTrust
{
public:
    // `stateFolder` (host path) is the folder the journal or receipt was found in; `elevation` is
    // the process that is to act on it.
    StateTrust(const SystemContext &context, const QString &stateFolder, const Elevation &elevation);

    // Why the journal at `hostPath`, read as `contents`, is not to be acted on; nullopt when it may
    // be. `context` gives the stored environment its PATH records are checked against.
    std::optional<QString> journalDoubt(const QString &hostPath, const Journal::Contents &contents,
                                        OperationContext &context) const;
    // Why the receipt at `hostPath`, read as `receipt`, is not to be trusted; nullopt when it may be.
    std::optional<QString> receiptDoubt(const QString &hostPath, const Receipt &receipt) const;

    // The accounts whose files `elevation`'s process trusts besides SYSTEM, the Administrators and
    // TrustedInstaller: an elevated process its own account (an administrator's files are owned by
    // the Administrators on Windows, unless a policy or Wine makes them the account's), else none.
    static QStringList trustedAccounts(const Elevation &elevation);

    // The folders a receipt's uninstall may change (the inspected system's paths): its target's root
    // (and a venv's .pth file), or for a repair the folders of its files.
    static QStringList rootsOf(const Receipt &receipt, const SystemPaths &paths);

    // The journal or receipt at `hostPath`, doubted for `doubt`, renamed beside itself
    // ("<name>.untrusted-<UTC time>", never deleted; left in place when it cannot be renamed, and
    // ignored all the same), logged, and told as state.untrusted-journal / state.untrusted-receipt.
    static Finding setAsideJournal(const QString &hostPath, const QString &doubt);
    static Finding setAsideReceipt(const QString &hostPath, const QString &doubt);
    // Any other file or folder of the machine's state folder, or the folder itself, likewise:
    // state.untrusted-entry (StateFolders::prepare).
    static Finding setAsideEntry(const QString &hostPath, const QString &doubt);
    // Where `hostPath` is set aside: beside itself, "<name>.untrusted-<UTC time>".
    static QString setAsidePath(const QString &hostPath);
    // Whether `name` is that of a file or folder set aside so.
    static bool isSetAside(const QString &name);

private:
    std::optional<QString> accessDoubt(const QString &hostPath) const;
    std::optional<QString> rootDoubt(const QString &root) const;
    bool isLibraryOnly(const QString &root) const;
    bool mayChange(const QString &path, const QStringList &roots) const;
    bool mayChangeFolder(const QString &folder, const QStringList &roots) const;
    bool isAboveRoot(const QString &folder, const QStringList &roots) const;

    const SystemContext &m_context;
    QString m_stateFolder; // the inspected system's paths from here on
    bool m_userFolder = false;
    QStringList m_trustedAccounts;
    QStringList m_guarded;     // no root may be one of these or above one
    QStringList m_libraryOnly; // roots in these admit cuDNN's own files only
};

} // namespace cudnnsetup
