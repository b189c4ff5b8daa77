/* A stand-in for cudart64_NN.dll, for tests. It answers like a machine without a driver
 * (35, cudaErrorInsufficientDriver) unless CUDNN_STANDIN_GPUS names a number of GPUs; then
 * "device" memory is host memory, so the cuDNN stand-in can compute on it with the CPU. The GPUs
 * are named "Stand-in GPU", or CUDNN_STANDIN_GPU_NAME (the README's pictures name a laptop's). */
#include <stdlib.h>
#include <string.h>

#define EXPORT __declspec(dllexport)

/* driver_types.h */
enum
{
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
};

static int standinGpus(void)
{
    const char *gpus = getenv("CUDNN_STANDIN_GPUS");
    return gpus ? atoi(gpus) : 0;
}

EXPORT int cudaRuntimeGetVersion(int *version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = STANDIN_CUDART;
    return cudaSuccess;
}

/* As the real runtime does, 0 without a driver rather than an error. */
EXPORT int cudaDriverGetVersion(int *version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = standinGpus() > 0 ? STANDIN_CUDART : 0;
    return cudaSuccess;
}

EXPORT const char *cudaGetErrorName(int error)
{
    switch (error) {
    case cudaSuccess:
        return "cudaSuccess";
    case cudaErrorInvalidValue:
        return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
        return "cudaErrorMemoryAllocation";
    case cudaErrorInsufficientDriver:
        return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice:
        return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
        return "cudaErrorInvalidDevice";
    default:
        return "unrecognized error code";
    }
}

EXPORT int cudaGetDeviceCount(int *count)
{
    if (!count)
        return cudaErrorInvalidValue;
    *count = standinGpus() > 0 ? standinGpus() : 0;
    return *count > 0 ? cudaSuccess : cudaErrorInsufficientDriver;
}

/* cudaDeviceProp starts with char name[256]; nothing else of it is written. */
EXPORT int cudaGetDeviceProperties(void *properties, int device)
{
    if (!properties)
        return cudaErrorInvalidValue;
    if (standinGpus() < 1)
        return cudaErrorInsufficientDriver;
    if (device < 0 || device >= standinGpus())
        return cudaErrorInvalidDevice;
    const char *name = getenv("CUDNN_STANDIN_GPU_NAME");
    /* name[256], with its terminating zero */
    strncpy((char *)properties, name && *name ? name : "Stand-in GPU", 255);
    ((char *)properties)[255] = '\0';
    return cudaSuccess;
}

EXPORT int cudaMalloc(void **pointer, size_t bytes)
{
    if (!pointer)
        return cudaErrorInvalidValue;
    if (standinGpus() < 1)
        return cudaErrorInsufficientDriver;
    *pointer = malloc(bytes);
    return *pointer ? cudaSuccess : cudaErrorMemoryAllocation;
}

EXPORT int cudaFree(void *pointer)
{
    free(pointer);
    return cudaSuccess;
}

/* Every kind of copy is a host copy here. */
EXPORT int cudaMemcpy(void *destination, const void *source, size_t bytes, int kind)
{
    (void)kind;
    if (bytes && (!destination || !source))
        return cudaErrorInvalidValue;
    memcpy(destination, source, bytes);
    return cudaSuccess;
}

EXPORT int cudaDeviceSynchronize(void)
{
    return standinGpus() > 0 ? cudaSuccess : cudaErrorInsufficientDriver;
}
