#pragma once

#include <QStringList>

#include <memory>

namespace cudnnsetup {

// The programs running now on a system, as the restart advice after a PATH change names them.
// An interface so that tests say which run; a SystemContext carries the one of its system.
class RunningPrograms
{
public:
    virtual ~RunningPrograms() = default;

    // The executable file names of the processes running now ("Code.exe", "pycharm64.exe",
    // "bash"), each once, sorted; empty when they cannot be listed. The running system's: Windows,
    // a Toolhelp snapshot; Linux, /proc, the name of each executable this user may read and each
    // process's comm (what it calls itself: "jupyter-lab" runs python). A process that ends while
    // the list is made may be missing.
    virtual QStringList names() const;

    // The running system's.
    static std::shared_ptr<const RunningPrograms> forRunningSystem();
    // A system that runs none of this host's programs (one given by its root).
    static std::shared_ptr<const RunningPrograms> none();
};

} // namespace cudnnsetup
