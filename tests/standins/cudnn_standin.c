/* A stand-in for one cuDNN DLL, for tests: the real names, exports, imports and version
 * resource, none of the maths. Compiled once per DLL of a family:
 *   STANDIN_MAIN         the main library (cudnn64_N.dll): cudnnGetVersion & co.
 *   otherwise            a sub-library (cudnn_ops64_9.dll, ...), which imports the main one
 *   STANDIN_VERSION      cudnnGetVersion()'s number (8907, 90100, 91800)
 *   STANDIN_CUDART       cudnnGetCudartVersion()'s number (12020)
 *   STANDIN_NEEDS_ZLIB   the 8.3-9.1 builds import zlibwapi.dll
 *   STANDIN_CHECK        the sub-library's exported check function, as the real one names it */
#include <stddef.h>
#include <stdlib.h>

typedef int cudnnStatus_t;
enum
{
    CUDNN_STATUS_SUCCESS = 0,
    CUDNN_STATUS_NOT_INITIALIZED = 1,
    CUDNN_STATUS_BAD_PARAM = 3,
    CUDNN_STATUS_VERSION_MISMATCH = 9,
};

#define EXPORT __declspec(dllexport)
#define IMPORT __declspec(dllimport)

#ifdef STANDIN_MAIN

IMPORT int cudaGetDeviceCount(int *count);
#ifdef STANDIN_NEEDS_ZLIB
IMPORT const char *zlibVersion(void);
#endif

EXPORT size_t cudnnGetVersion(void)
{
    return STANDIN_VERSION;
}

EXPORT size_t cudnnGetCudartVersion(void)
{
    return STANDIN_CUDART;
}

EXPORT const char *cudnnGetErrorString(cudnnStatus_t status)
{
    switch (status) {
    case CUDNN_STATUS_SUCCESS:
        return "CUDNN_STATUS_SUCCESS";
    case CUDNN_STATUS_NOT_INITIALIZED:
        return "CUDNN_STATUS_NOT_INITIALIZED";
    case CUDNN_STATUS_BAD_PARAM:
        return "CUDNN_STATUS_BAD_PARAM";
    case CUDNN_STATUS_VERSION_MISMATCH:
        return "CUDNN_STATUS_VERSION_MISMATCH";
    default:
        return "CUDNN_STATUS_UNKNOWN";
    }
}

/* Like the real library, a handle needs a GPU: without one (the stand-in cudart says how many
 * there are) creation fails with CUDNN_STATUS_NOT_INITIALIZED. */
EXPORT cudnnStatus_t cudnnCreate(void **handle)
{
    int devices = 0;
    if (!handle)
        return CUDNN_STATUS_BAD_PARAM;
#ifdef STANDIN_NEEDS_ZLIB
    if (!zlibVersion())
        return CUDNN_STATUS_NOT_INITIALIZED;
#endif
    if (cudaGetDeviceCount(&devices) != 0 || devices < 1)
        return CUDNN_STATUS_NOT_INITIALIZED;
    *handle = malloc(16);
    return *handle ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_NOT_INITIALIZED;
}

EXPORT cudnnStatus_t cudnnDestroy(void *handle)
{
    free(handle);
    return CUDNN_STATUS_SUCCESS;
}

#else /* a sub-library */

IMPORT size_t cudnnGetVersion(void);

/* The real sub-libraries check that they were built for the main library they found. */
EXPORT cudnnStatus_t STANDIN_CHECK(void)
{
    return cudnnGetVersion() == STANDIN_VERSION ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_VERSION_MISMATCH;
}

#endif
