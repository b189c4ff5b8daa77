#pragma once

#include <QStringList>

namespace cudnnsetup {

// The executable file names of the processes running now on this machine ("Code.exe",
// "pycharm64.exe", "bash"), each once, sorted; empty when they cannot be listed. Windows: a
// Toolhelp snapshot; Linux: /proc, the name of each executable this user may read and each
// process's comm (what it calls itself: "jupyter-lab" runs python).
// A process that ends while the list is made may be missing.
QStringList runningProgramNames();

} // namespace cudnnsetup
