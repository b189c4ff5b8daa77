#pragma once

#include "verify/LibraryProbe.h"

#include <vector>

#include <QStringList>

class QElapsedTimer;

namespace cudnnsetup {

class LoadedLibrary;

// The GPU stage of the probe: a CUDA runtime (the first of `cudartCandidates` that loads), a
// device, a cuDNN handle from `cudnnLibraries`, one convolution checked on the CPU. It fills `gpu`.
void runGpuCheck(ProbeGpu &gpu, std::vector<const LoadedLibrary *> cudnnLibraries,
                 const QStringList &cudartCandidates, const LibraryLoader &loader);

// The time since `timer` started, in milliseconds: how the probe times its loads and steps.
double elapsedMilliseconds(const QElapsedTimer &timer);

} // namespace cudnnsetup
