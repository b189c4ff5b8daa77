#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// Every CUDA toolkit: on Windows CUDA_PATH, CUDA_PATH_V*_*, the registry and the default folder;
// on Linux /usr/local/cuda*, CUDA_HOME and CUDA_PATH; on both, nvcc on PATH. Version from
// version.json, version.txt, a fully versioned cudart file name, `nvcc --version`, then the
// cudart name or the folder name.
QList<CudaToolkit> probeCudaToolkits(const SystemContext &context, const DetectOptions &options,
                                     Findings &findings);

} // namespace cudnnsetup
