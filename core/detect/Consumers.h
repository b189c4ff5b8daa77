#pragma once

#include "detect/PythonEnvironments.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

// The consumers of cuDNN and the CUDA libraries in every Python environment (one per wheel, its
// native files listed by the wheel's RECORD) and in each folder of `appFolders` (a portable ComfyUI,
// a bundled program: its site-packages by their wheels, every other PE/ELF file alone). A native
// file counts when it imports cuDNN, cuBLAS or the CUDA runtime, carries a fatbin, or belongs to a
// known GPU framework (torch, TensorFlow, JAX, PaddlePaddle, ONNX Runtime, CTranslate2, OpenCV,
// TensorRT); the libraries NVIDIA ships (cuDNN, cuBLAS, ...) are not consumers. Only headers are
// read: the import table or dynamic section, the section table, the fatbin's entry headers and at
// most 8 MiB of .rodata / .rdata for library names the file opens at run time. Each
// needed library is resolved the way the consumer's process loads it (walkDependencies): on Linux
// through RUNPATH/$ORIGIN, LD_LIBRARY_PATH and ld.so's folders; on Windows for a Python environment
// through os.add_dll_directory's folders (torch\lib, the nvidia wheels' bin, conda's Library\bin),
// for a program from its own folder, then System32 and PATH. `copies` (detected cuDNN copies) give
// a resolved cuDNN its version.
QList<ConsumerInfo> findConsumers(const SystemContext &context, const QList<PythonEnvironment> &environments,
                                  const QStringList &appFolders, const QList<CudnnCopy> &copies);

} // namespace cudnnsetup
