/* A stand-in for a program's own module that links cuDNN (CTranslate2's, ONNX Runtime's CUDA
 * provider, torch's torch_cuda.dll): a DLL that imports cudnnGetVersion from cudnn64_N.dll, as the
 * real ones import cuDNN, so loading it makes the loader bind a cuDNN by the program's search rules. */
#include <stddef.h>

__declspec(dllimport) size_t cudnnGetVersion(void);

__declspec(dllexport) size_t consumerCudnnVersion(void)
{
    return cudnnGetVersion();
}
