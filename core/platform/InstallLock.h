#pragma once

#include <QString>

#include <memory>

namespace cudnnsetup {

// One install, uninstall or repair at a time on a machine, held for the whole transaction: a named
// mutex on Windows (Global\, so every session sees it), a lock file elsewhere (`lockFile`; a lock
// whose process died is taken over). Released when destroyed.
class InstallLock
{
public:
    // Whose lock it is: the running system's, or that of the tree under a --system-root (a mounted
    // image, a test's sandbox), which gets a mutex of its own named after its lock file, so that
    // changes to two trees never wait for each other or for the running system.
    enum class Scope
    {
        RunningSystem,
        RootedTree
    };

    virtual ~InstallLock() = default;
    // nullptr when another process holds it. `shutOut`, when given, tells whether this account may
    // not even open it: on Windows a mutex of that name whose DACL keeps this account out, made by
    // another account (or by a program squatting the name to block every install); elsewhere a lock
    // file this account may not open.
    static std::unique_ptr<InstallLock> tryAcquire(const QString &lockFile, Scope scope,
                                                   bool *shutOut = nullptr);

    // The Windows mutex that stands for the lock: Global\cuDNN-Setup-Install, with a hash of the
    // lock file for a rooted tree.
    static QString mutexName(const QString &lockFile, Scope scope);
    // The mutex's security descriptor: SYSTEM and the Administrators full control, every signed-in
    // account may wait for it and release it (so a standard user's own change takes the lock an
    // administrator's made), nobody else may change its permissions.
    static QString mutexSddl();
};

} // namespace cudnnsetup
