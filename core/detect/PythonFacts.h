#pragma once

#include "detect/PythonEnvironments.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// What one environment's files tell without running its interpreter, in milliseconds where
// importing torch takes seconds:
// - the interpreter's version (pyvenv.cfg, conda-meta, patchlevel.h, python.exe's version
//   resource, else the X.Y in its name or its lib/pythonX.Y folder) and bitness (its header);
// - torch's version and CUDA build (torch/version.py);
// - the cuDNN file torch will load, resolved as the loader will: on Windows the copy in torch\lib
//   (torch loads every DLL there first), else a nvidia-cudnn wheel's bin (os.add_dll_directory),
//   else what torch_cuda.dll's imports reach; on Linux the DT_NEEDED chain of
//   torch/lib/libtorch_cuda.so through its RPATH/RUNPATH ($ORIGIN), LD_LIBRARY_PATH, ld.so.conf and
//   the default folders. Its version is the detected copy's (see attachCudnnVersions);
// - TensorFlow's version from its wheel's metadata; JAX's and PaddlePaddle's version, CUDA build and
//   the cuDNN they load (frameworks).
// `factsFrom` is "files".
PythonInstall pythonFromFiles(const SystemContext &context, const PythonEnvironment &environment);

// torch.cudnn for each Python whose torch was resolved from files, and each framework's cuDNN
// its files did not name: the version of the detected copy holding the file it will load.
void attachCudnnVersions(QList<PythonInstall> &pythons, const QList<CudnnCopy> &copies,
                         const SystemContext &context);

} // namespace cudnnsetup
