#pragma once

#include "detect/DetectOptions.h"
#include "detect/PythonEnvironments.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class PackageDatabase;
class SystemContext;

// Every cuDNN copy on the system: toolkit folders, NVIDIA's cuDNN installer folders, conda
// environments, pip wheels, torch's own lib folder, Python's folder, System32 and PATH (Windows),
// LD_LIBRARY_PATH and the loader's folders (Linux). For each: the version (from the header that
// belongs to it, the DLL's version resource, the wheel's metadata, or the file name), the CUDA
// major where it can be known (toolkit, installer folder, wheel or apt package), and the order in which a
// freshly started process would find it.
QList<CudnnCopy> probeCudnn(const SystemContext &context, const QList<CudaToolkit> &toolkits,
                            const QList<PythonEnvironment> &pythons, const PackageDatabase &packages,
                            const DetectOptions &options, Findings &findings);

// Windows: every zlibwapi.dll in the folders cuDNN copies live in and on the search path (cuDNN
// 8.3-9.1 cannot load without one). Empty on Linux, where zlib is a system library.
QStringList findZlibwapi(const SystemContext &context, const QList<CudnnCopy> &copies);

} // namespace cudnnsetup
