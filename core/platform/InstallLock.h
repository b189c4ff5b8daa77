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
    virtual ~InstallLock() = default;
    // nullptr when another process holds it.
    static std::unique_ptr<InstallLock> tryAcquire(const QString &lockFile);
};

} // namespace cudnnsetup
