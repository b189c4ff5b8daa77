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
    // nullptr when another process holds it.
    static std::unique_ptr<InstallLock> tryAcquire(const QString &lockFile, Scope scope);
};

} // namespace cudnnsetup
