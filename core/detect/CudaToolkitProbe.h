#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class PackageDatabase;
class SystemContext;

// Every CUDA toolkit: on Windows CUDA_PATH, CUDA_PATH_V*_*, the registry and the default folder;
// on Linux /usr/local/cuda*, CUDA_HOME and CUDA_PATH; on both, nvcc on PATH. The release
// (update included) from version.json, version.txt or NVIDIA's apt packages; failing those,
// major.minor from the cudart file name, `nvcc --version` or the folder name.
QList<CudaToolkit> probeCudaToolkits(const SystemContext &context, const PackageDatabase &packages,
                                     const DetectOptions &options, Findings &findings);

} // namespace cudnnsetup
