#pragma once

#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// The variables that matter to CUDA programs, which toolkit CUDA_PATH points at, and on Windows
// whether this process's PATH is older than the registry's (a terminal opened before a change).
EnvironmentInfo probeEnvironment(const SystemContext &context, const QList<CudaToolkit> &toolkits,
                                 Findings &findings);

} // namespace cudnnsetup
