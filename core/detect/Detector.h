#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// Runs every probe against one system and returns what it found. Python interpreters are asked in
// parallel with the rest. Never throws; whatever goes wrong becomes a finding in the snapshot.
SystemSnapshot detectSystem(const SystemContext &context, const DetectOptions &options = {});

} // namespace cudnnsetup
