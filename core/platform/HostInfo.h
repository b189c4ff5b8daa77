#pragma once

#include <QString>

namespace cudnnsetup {

// Facts about the machine this process runs on that no file holds.
namespace hostinfo {
// The machine's own architecture ("x64", "arm64", "x86"), not this process's: an x64 build running
// under emulation on Windows on ARM reports "arm64".
QString nativeArchitecture();
// This process's architecture.
QString processArchitecture();
// The running Windows system's ProgramData folder as the system knows it (SHGetKnownFolderPath),
// never as %ProgramData% says: an elevated process inherits its user's environment, which the user
// may point anywhere (review 2, N7). Empty elsewhere, or where the system cannot tell.
QString programDataFolder();
// The running system as a support person names it: its product name and version, its kernel (on
// Windows the build, 10.0.22631) and the machine's architecture.
QString systemDescription();
// The machine's name on the network, as a lab's inventory knows it ("LAB-PC-017").
QString machineName();
} // namespace hostinfo

} // namespace cudnnsetup
