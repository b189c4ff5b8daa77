/* A stand-in for one cuDNN DLL, for tests: the real names, exports, imports and version
 * resource, and of the maths only the legacy convolution forward, computed on the CPU (the
 * stand-in cudart's "device" memory is host memory). Compiled once per DLL of a family:
 *   STANDIN_MAIN         the main library (cudnn64_N.dll): cudnnGetVersion & co., the tensor,
 *                        filter and convolution descriptors, cudnnConvolutionForward; with
 *                        CUDNN_STANDIN_WRONG_RESULT set it gets one output value wrong
 *   otherwise            a sub-library (cudnn_ops64_9.dll, ...), which imports the main one
 *   STANDIN_VERSION      cudnnGetVersion()'s number (8907, 90100, 91800)
 *   STANDIN_CUDART       cudnnGetCudartVersion()'s number (12020)
 *   STANDIN_NEEDS_ZLIB   the 8.3-9.1 builds import zlibwapi.dll
 *   STANDIN_CHECK        the sub-library's exported check function, as the real one names it
 *   STANDIN_IMPORTS_CHECK  another sub-library's check function, which this one imports and calls
 *   STANDIN_FIRST_SUB    the main library's: the sub-library it loads by name on first use, and
 *                        like NVIDIA's, ends the program with NVIDIA's words when it cannot */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef STANDIN_MAIN
#include <windows.h>
#endif

typedef int cudnnStatus_t;
enum
{
    CUDNN_STATUS_SUCCESS = 0,
    CUDNN_STATUS_NOT_INITIALIZED = 1,
    CUDNN_STATUS_BAD_PARAM = 3,
    CUDNN_STATUS_VERSION_MISMATCH = 9,
};

/* cudnn_graph.h, cudnn_ops.h: the only layout and type the stand-in computes with. */
enum
{
    CUDNN_DATA_FLOAT = 0,
    CUDNN_TENSOR_NCHW = 0,
    CUDNN_CONVOLUTION = 0,
    CUDNN_CROSS_CORRELATION = 1,
    CUDNN_FMA_MATH = 3,
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

/* NVIDIA's main library is a dispatcher: the work is in sub-libraries it loads by name the first
 * time it needs them, and when one cannot be loaded it prints why and ends the whole program. */
static void loadSubLibraryOrEnd(void)
{
    static HMODULE loaded; /* once, and kept, as NVIDIA's does */
    DWORD code;
    if (loaded)
        return;
    loaded = LoadLibraryA(STANDIN_FIRST_SUB);
    if (loaded)
        return;
    code = GetLastError();
    if (code == ERROR_MOD_NOT_FOUND)
        fprintf(stderr, "Could not locate %s. Please make sure it is in your library path!\n",
                STANDIN_FIRST_SUB);
    else
        fprintf(stderr,
                "Could not load library %s. Error code %lu. Please verify that the library is built "
                "correctly for your processor architecture (32-bit, 64-bit)\n",
                STANDIN_FIRST_SUB, (unsigned long)code);
    fflush(stderr);
    exit(1);
}

/* Like the real library, a handle needs a GPU: without one (the stand-in cudart says how many
 * there are) creation fails with CUDNN_STATUS_NOT_INITIALIZED. */
EXPORT cudnnStatus_t cudnnCreate(void **handle)
{
    int devices = 0;
    if (!handle)
        return CUDNN_STATUS_BAD_PARAM;
    loadSubLibraryOrEnd();
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

/* An NCHW float tensor, or (k = n) a KCRS float filter. */
typedef struct
{
    int n, c, h, w;
} Shape;

typedef struct
{
    int padH, padW, strideH, strideW, dilationH, dilationW, mode;
} Convolution;

static cudnnStatus_t createObject(void **object, size_t size)
{
    if (!object)
        return CUDNN_STATUS_BAD_PARAM;
    *object = calloc(1, size);
    return *object ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_NOT_INITIALIZED;
}

static cudnnStatus_t destroyObject(void *object)
{
    free(object);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t setShape(Shape *shape, int format, int dataType, int n, int c, int h, int w)
{
    if (!shape || format != CUDNN_TENSOR_NCHW || dataType != CUDNN_DATA_FLOAT || n < 1 || c < 1 || h < 1 ||
        w < 1)
        return CUDNN_STATUS_BAD_PARAM;
    shape->n = n;
    shape->c = c;
    shape->h = h;
    shape->w = w;
    return CUDNN_STATUS_SUCCESS;
}

EXPORT cudnnStatus_t cudnnCreateTensorDescriptor(void **descriptor)
{
    return createObject(descriptor, sizeof(Shape));
}

EXPORT cudnnStatus_t cudnnSetTensor4dDescriptor(void *descriptor, int format, int dataType, int n, int c,
                                                int h, int w)
{
    return setShape(descriptor, format, dataType, n, c, h, w);
}

EXPORT cudnnStatus_t cudnnDestroyTensorDescriptor(void *descriptor)
{
    return destroyObject(descriptor);
}

EXPORT cudnnStatus_t cudnnCreateFilterDescriptor(void **descriptor)
{
    return createObject(descriptor, sizeof(Shape));
}

EXPORT cudnnStatus_t cudnnSetFilter4dDescriptor(void *descriptor, int dataType, int format, int k, int c,
                                                int h, int w)
{
    return setShape(descriptor, format, dataType, k, c, h, w);
}

EXPORT cudnnStatus_t cudnnDestroyFilterDescriptor(void *descriptor)
{
    return destroyObject(descriptor);
}

EXPORT cudnnStatus_t cudnnCreateConvolutionDescriptor(void **descriptor)
{
    return createObject(descriptor, sizeof(Convolution));
}

EXPORT cudnnStatus_t cudnnSetConvolution2dDescriptor(void *descriptor, int padH, int padW, int strideH,
                                                     int strideW, int dilationH, int dilationW, int mode,
                                                     int computeType)
{
    Convolution *convolution = descriptor;
    if (!convolution || padH < 0 || padW < 0 || strideH < 1 || strideW < 1 || dilationH < 1 ||
        dilationW < 1 || (mode != CUDNN_CONVOLUTION && mode != CUDNN_CROSS_CORRELATION) ||
        computeType != CUDNN_DATA_FLOAT)
        return CUDNN_STATUS_BAD_PARAM;
    convolution->padH = padH;
    convolution->padW = padW;
    convolution->strideH = strideH;
    convolution->strideW = strideW;
    convolution->dilationH = dilationH;
    convolution->dilationW = dilationW;
    convolution->mode = mode;
    return CUDNN_STATUS_SUCCESS;
}

EXPORT cudnnStatus_t cudnnDestroyConvolutionDescriptor(void *descriptor)
{
    return destroyObject(descriptor);
}

/* Every math type computes in plain float here. */
EXPORT cudnnStatus_t cudnnSetConvolutionMathType(void *descriptor, int mathType)
{
    return descriptor && mathType >= 0 && mathType <= CUDNN_FMA_MATH ? CUDNN_STATUS_SUCCESS
                                                                     : CUDNN_STATUS_BAD_PARAM;
}

static int outputSize(int input, int pad, int filter, int dilation, int stride)
{
    return 1 + (input + 2 * pad - ((filter - 1) * dilation + 1)) / stride;
}

EXPORT cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const void *convolutionDescriptor,
                                                           const void *inputDescriptor,
                                                           const void *filterDescriptor, int *n, int *c,
                                                           int *h, int *w)
{
    const Convolution *convolution = convolutionDescriptor;
    const Shape *input = inputDescriptor, *filter = filterDescriptor;
    if (!convolution || !input || !filter || !n || !c || !h || !w || input->c != filter->c)
        return CUDNN_STATUS_BAD_PARAM;
    *n = input->n;
    *c = filter->n;
    *h = outputSize(input->h, convolution->padH, filter->h, convolution->dilationH, convolution->strideH);
    *w = outputSize(input->w, convolution->padW, filter->w, convolution->dilationW, convolution->strideW);
    return *h > 0 && *w > 0 ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
}

/* y = alpha * conv(x, w) + beta * y, any algorithm, no workspace. */
EXPORT cudnnStatus_t cudnnConvolutionForward(void *handle, const void *alpha, const void *xDescriptor,
                                             const void *xData, const void *wDescriptor, const void *wData,
                                             const void *convolutionDescriptor, int algorithm,
                                             void *workspace, size_t workspaceBytes, const void *beta,
                                             const void *yDescriptor, void *yData)
{
    const Convolution *conv = convolutionDescriptor;
    const Shape *xs = xDescriptor, *ws = wDescriptor, *ys = yDescriptor;
    const float *x = xData, *w = wData;
    float *y = yData;
    const float a = alpha ? *(const float *)alpha : 0.0f, b = beta ? *(const float *)beta : 0.0f;
    int n, k, row, column, c, r, s, outN, outC, outH, outW;
    (void)algorithm;
    (void)workspace;
    (void)workspaceBytes;
    if (!handle || !alpha || !beta || !x || !w || !y || !ys ||
        cudnnGetConvolution2dForwardOutputDim(conv, xs, ws, &outN, &outC, &outH, &outW) !=
            CUDNN_STATUS_SUCCESS ||
        ys->n != outN || ys->c != outC || ys->h != outH || ys->w != outW)
        return CUDNN_STATUS_BAD_PARAM;
    for (n = 0; n < outN; ++n)
        for (k = 0; k < outC; ++k)
            for (row = 0; row < outH; ++row)
                for (column = 0; column < outW; ++column) {
                    float sum = 0.0f;
                    float *out = &y[((n * outC + k) * outH + row) * outW + column];
                    for (c = 0; c < xs->c; ++c)
                        for (r = 0; r < ws->h; ++r)
                            for (s = 0; s < ws->w; ++s) {
                                const int inRow = row * conv->strideH - conv->padH + r * conv->dilationH;
                                const int inColumn =
                                    column * conv->strideW - conv->padW + s * conv->dilationW;
                                /* A convolution proper flips the filter; cross-correlation does not. */
                                const int fr = conv->mode == CUDNN_CONVOLUTION ? ws->h - 1 - r : r;
                                const int fs = conv->mode == CUDNN_CONVOLUTION ? ws->w - 1 - s : s;
                                if (inRow < 0 || inRow >= xs->h || inColumn < 0 || inColumn >= xs->w)
                                    continue;
                                sum += x[((n * xs->c + c) * xs->h + inRow) * xs->w + inColumn] *
                                       w[((k * ws->c + c) * ws->h + fr) * ws->w + fs];
                            }
                    *out = a * sum + (b != 0.0f ? b * *out : 0.0f);
                }
    if (getenv("CUDNN_STANDIN_WRONG_RESULT"))
        y[outN * outC * outH * outW / 2] += 0.5f;
    return CUDNN_STATUS_SUCCESS;
}

#else /* a sub-library */

IMPORT size_t cudnnGetVersion(void);
#ifdef STANDIN_IMPORTS_CHECK
IMPORT cudnnStatus_t STANDIN_IMPORTS_CHECK(void);
#endif

/* The real sub-libraries check that they were built for the main library they found (and for the
 * sub-library they import). */
EXPORT cudnnStatus_t STANDIN_CHECK(void)
{
#ifdef STANDIN_IMPORTS_CHECK
    if (STANDIN_IMPORTS_CHECK() != CUDNN_STATUS_SUCCESS)
        return CUDNN_STATUS_VERSION_MISMATCH;
#endif
    return cudnnGetVersion() == STANDIN_VERSION ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_VERSION_MISMATCH;
}

#endif
