#pragma once

// The C functions of the CUDA runtime and cuDNN that the probe finds in the libraries it loaded.

#include <cstddef>

#include <QtGlobal>

// The C API's calling convention (CUDARTAPI, CUDNNWINAPI): __stdcall on Windows, which x64 ignores.
#ifdef Q_OS_WIN
#define CUDA_API __stdcall
#else
#define CUDA_API
#endif

namespace cudnnsetup {

// Signatures from cuda_runtime_api.h and cudnn_graph.h / cudnn_ops.h / cudnn_cnn.h; enums travel
// as int, handles and descriptors as void *.
using CudaError = int;
using CudnnStatus = int;
using SizeFn = size_t(CUDA_API *)();
using IntOutFn = CudaError(CUDA_API *)(int *);
using ErrorNameFn = const char *(CUDA_API *)(int);
using DevicePropertiesFn = CudaError(CUDA_API *)(void *properties, int device);
using MallocFn = CudaError(CUDA_API *)(void **pointer, size_t bytes);
using FreeFn = CudaError(CUDA_API *)(void *pointer);
using MemcpyFn = CudaError(CUDA_API *)(void *destination, const void *source, size_t bytes, int kind);
using SynchronizeFn = CudaError(CUDA_API *)();
using CreateFn = CudnnStatus(CUDA_API *)(void **object);
using DestroyFn = CudnnStatus(CUDA_API *)(void *object);
using SetTensor4dFn = CudnnStatus(CUDA_API *)(void *descriptor, int format, int dataType, int n, int c, int h,
                                              int w);
using SetFilter4dFn = CudnnStatus(CUDA_API *)(void *descriptor, int dataType, int format, int k, int c, int h,
                                              int w);
using SetConvolution2dFn = CudnnStatus(CUDA_API *)(void *descriptor, int padH, int padW, int strideH,
                                                   int strideW, int dilationH, int dilationW, int mode,
                                                   int computeType);
using SetMathTypeFn = CudnnStatus(CUDA_API *)(void *descriptor, int mathType);
using OutputDimFn = CudnnStatus(CUDA_API *)(void *convolution, void *input, void *filter, int *n, int *c,
                                            int *h, int *w);
using ConvolutionForwardFn = CudnnStatus(CUDA_API *)(void *handle, const void *alpha, void *xDescriptor,
                                                     const void *x, void *wDescriptor, const void *w,
                                                     void *convolution, int algorithm, void *workspace,
                                                     size_t workspaceBytes, const void *beta,
                                                     void *yDescriptor, void *y);

} // namespace cudnnsetup
