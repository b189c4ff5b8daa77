#pragma once

#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// OS family, name, version, architecture; WSL recognised.
OsInfo probeOs(const SystemContext &context, Findings &findings);

} // namespace cudnnsetup
