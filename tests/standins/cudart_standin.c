/* A stand-in for cudart64_NN.dll, for tests. cudaGetDeviceCount answers like a machine without a
 * driver (35, cudaErrorInsufficientDriver) unless CUDNN_STANDIN_GPUS names a number of GPUs. */
#include <stdlib.h>

#define EXPORT __declspec(dllexport)

EXPORT int cudaRuntimeGetVersion(int *version)
{
    if (!version)
        return 1;
    *version = STANDIN_CUDART;
    return 0;
}

EXPORT int cudaGetDeviceCount(int *count)
{
    const char *gpus = getenv("CUDNN_STANDIN_GPUS");
    if (!count)
        return 1;
    if (!gpus || atoi(gpus) < 1) {
        *count = 0;
        return 35;
    }
    *count = atoi(gpus);
    return 0;
}
