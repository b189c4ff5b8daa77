#pragma once

#include <QString>

#include <memory>

namespace cudnnsetup {

// One install, uninstall or repair at a time, held for the whole transaction: a lock file that
// the system lets go of when its holder ends, however it ends. On Windows it is opened for no one
// to share, with a descriptor only SYSTEM, the Administrators and the holder's account may open,
// and deleted when closed; elsewhere a QLockFile, which a lock whose process died is taken over
// from. Where the file is (StateFolders::lockFile) decides whom it keeps out: an elevated change's
// is in the machine's state folder, which only administrators may add to, so no standard user can
// hold it to block every install (review 2, N13; a named mutex could be made first by anyone).
// Released when destroyed.
class InstallLock
{
public:
    // Whose lock it is: the running system's, or that of the tree under a --system-root (a mounted
    // image, a test's sandbox), so that changes to two trees never wait for each other or for the
    // running system.
    enum class Scope
    {
        RunningSystem,
        RootedTree
    };

    // Why the lock was not had.
    struct Refusal
    {
        QString lockFile;
        // This account may not even open it: another account's, or a program's that keeps it to
        // block changes.
        bool shutOut = false;
        // Who holds it, where that can be told: "owned by S-1-5-21-…-1001" (Windows: the lock file's
        // owner), "process 4242 (cudnnctl) on lab-pc" (elsewhere).
        QString holder;
    };

    virtual ~InstallLock() = default;
    // nullptr when another process holds it; `refusal`, when given, then says why. `accountSid` is
    // this process's account (Elevation::accountSid), let in besides SYSTEM and the Administrators.
    static std::unique_ptr<InstallLock> tryAcquire(const QString &lockFile, const QString &accountSid,
                                                   Refusal *refusal = nullptr);

    // The lock file's security descriptor on Windows: SYSTEM, the Administrators and `accountSid`
    // (when given) full control, no one else anything; not inherited from its folder.
    static QString lockSddl(const QString &accountSid);
};

} // namespace cudnnsetup
