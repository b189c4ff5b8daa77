#include "verify/GpuCheck.h"

#include <cmath>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QScopeGuard>

#include "platform/LibraryLoader.h"
#include "verify/CudaApi.h"

namespace cudnnsetup {

namespace {

// driver_types.h, cudnn_graph.h, cudnn_ops.h (the same values in cuDNN 8 and 9).
constexpr CudaError kCudaSuccess = 0;
constexpr CudaError kCudaErrorInsufficientDriver = 35;
constexpr CudaError kCudaErrorNoDevice = 100;
constexpr int kCudaMemcpyHostToDevice = 1;
constexpr int kCudaMemcpyDeviceToHost = 2;
constexpr CudnnStatus kCudnnSuccess = 0;
constexpr int kCudnnDataFloat = 0;
constexpr int kCudnnTensorNchw = 0;
constexpr int kCudnnCrossCorrelation = 1;
constexpr int kCudnnFmaMath = 3;
constexpr int kCudnnConvolutionFwdAlgoImplicitGemm = 0;
// cudaDeviceProp starts with char name[256] in every CUDA version; the rest has grown over the
// versions, so the buffer is far larger than any of them.
constexpr size_t kDevicePropertiesBytes = 8192;
constexpr size_t kDeviceNameBytes = 256;

// The convolution checked: one 3-channel 16x16 image, four 3x3 filters, padding 1, stride 1, so
// the output is 1x4x16x16.
constexpr int kN = 1, kC = 3, kH = 16, kW = 16, kK = 4, kR = 3, kS = 3, kPad = 1;
// Each output sums C*R*S = 27 products of values in [-1, 1]. Float accumulation, in any order and
// with or without FMA, is off by at most about 27 * 2^-24 * 27 = 4.3e-5 from the exact sum; TF32
// (10-bit mantissa, which CUDNN_FMA_MATH rules out) would be off by ~1e-3 and a wrong kernel by
// far more.
constexpr double kTolerance = 1e-4;

// Deterministic values in [-1, 1) with 24 significant bits, so every input is exact in float and
// the reference below is exact in double.
std::vector<float> pseudoRandom(size_t count, quint32 seed)
{
    std::vector<float> values(count);
    for (float &value : values) {
        seed = seed * 1664525u + 1013904223u; // Numerical Recipes' LCG
        value = float(double(seed >> 8) / double(1 << 23) - 1.0);
    }
    return values;
}

// The cross-correlation cuDNN computes (what frameworks call a convolution), in double.
std::vector<double> referenceConvolution(const std::vector<float> &x, const std::vector<float> &w)
{
    std::vector<double> y(size_t(kN) * kK * kH * kW, 0.0);
    for (int n = 0; n < kN; ++n)
        for (int k = 0; k < kK; ++k)
            for (int row = 0; row < kH; ++row)
                for (int column = 0; column < kW; ++column) {
                    double sum = 0;
                    for (int c = 0; c < kC; ++c)
                        for (int r = 0; r < kR; ++r)
                            for (int s = 0; s < kS; ++s) {
                                const int inRow = row + r - kPad, inColumn = column + s - kPad;
                                if (inRow < 0 || inRow >= kH || inColumn < 0 || inColumn >= kW)
                                    continue;
                                sum += double(x[((n * kC + c) * kH + inRow) * kW + inColumn]) *
                                       double(w[((k * kC + c) * kR + r) * kS + s]);
                            }
                    y[((n * kK + k) * kH + row) * kW + column] = sum;
                }
    return y;
}

// Finds each function in the first library that exports it and remembers the ones none does.
class SymbolTable
{
public:
    explicit SymbolTable(std::vector<const LoadedLibrary *> libraries)
        : m_libraries(std::move(libraries))
    {
    }

    template <typename Function>
    Function findOptional(const char *name) const
    {
        for (const LoadedLibrary *library : m_libraries) {
            if (void *symbol = library->symbol(name))
                return reinterpret_cast<Function>(symbol);
        }
        return nullptr;
    }

    template <typename Function>
    Function find(const char *name)
    {
        const auto function = findOptional<Function>(name);
        if (!function)
            m_missing.append(QLatin1String(name));
        return function;
    }

    const QStringList &missing() const { return m_missing; }

private:
    std::vector<const LoadedLibrary *> m_libraries;
    QStringList m_missing;
};

struct CudnnApi
{
    explicit CudnnApi(SymbolTable &symbols)
        : getErrorString(symbols.findOptional<ErrorNameFn>("cudnnGetErrorString"))
        , create(symbols.find<CreateFn>("cudnnCreate"))
        , destroy(symbols.find<DestroyFn>("cudnnDestroy"))
        , createTensor(symbols.find<CreateFn>("cudnnCreateTensorDescriptor"))
        , setTensor4d(symbols.find<SetTensor4dFn>("cudnnSetTensor4dDescriptor"))
        , destroyTensor(symbols.find<DestroyFn>("cudnnDestroyTensorDescriptor"))
        , createFilter(symbols.find<CreateFn>("cudnnCreateFilterDescriptor"))
        , setFilter4d(symbols.find<SetFilter4dFn>("cudnnSetFilter4dDescriptor"))
        , destroyFilter(symbols.find<DestroyFn>("cudnnDestroyFilterDescriptor"))
        , createConvolution(symbols.find<CreateFn>("cudnnCreateConvolutionDescriptor"))
        , setConvolution2d(symbols.find<SetConvolution2dFn>("cudnnSetConvolution2dDescriptor"))
        , setMathType(symbols.find<SetMathTypeFn>("cudnnSetConvolutionMathType"))
        , outputDim(symbols.find<OutputDimFn>("cudnnGetConvolution2dForwardOutputDim"))
        , convolutionForward(symbols.find<ConvolutionForwardFn>("cudnnConvolutionForward"))
        , destroyConvolution(symbols.find<DestroyFn>("cudnnDestroyConvolutionDescriptor"))
    {
    }

    ErrorNameFn getErrorString;
    CreateFn create;
    DestroyFn destroy;
    CreateFn createTensor;
    SetTensor4dFn setTensor4d;
    DestroyFn destroyTensor;
    CreateFn createFilter;
    SetFilter4dFn setFilter4d;
    DestroyFn destroyFilter;
    CreateFn createConvolution;
    SetConvolution2dFn setConvolution2d;
    SetMathTypeFn setMathType;
    OutputDimFn outputDim;
    ConvolutionForwardFn convolutionForward;
    DestroyFn destroyConvolution;
};

struct CudartApi
{
    explicit CudartApi(SymbolTable &symbols)
        : getErrorName(symbols.findOptional<ErrorNameFn>("cudaGetErrorName"))
        , runtimeGetVersion(symbols.find<IntOutFn>("cudaRuntimeGetVersion"))
        , driverGetVersion(symbols.find<IntOutFn>("cudaDriverGetVersion"))
        , getDeviceCount(symbols.find<IntOutFn>("cudaGetDeviceCount"))
        , getDeviceProperties(symbols.find<DevicePropertiesFn>("cudaGetDeviceProperties"))
        , malloc(symbols.find<MallocFn>("cudaMalloc"))
        , free(symbols.find<FreeFn>("cudaFree"))
        , memcpy(symbols.find<MemcpyFn>("cudaMemcpy"))
        , deviceSynchronize(symbols.find<SynchronizeFn>("cudaDeviceSynchronize"))
    {
    }

    ErrorNameFn getErrorName;
    IntOutFn runtimeGetVersion;
    IntOutFn driverGetVersion;
    IntOutFn getDeviceCount;
    DevicePropertiesFn getDeviceProperties;
    MallocFn malloc;
    FreeFn free;
    MemcpyFn memcpy;
    SynchronizeFn deviceSynchronize;
};

// The GPU stage: a CUDA runtime, a device, a cuDNN handle, one convolution checked on the CPU.
// Each step records its time; the first one that cannot go on sets the status and says why.
class GpuCheck
{
public:
    GpuCheck(ProbeGpu &gpu, SymbolTable cudnnSymbols)
        : m_gpu(gpu)
        , m_cudnnSymbols(std::move(cudnnSymbols))
        , m_cudnn(m_cudnnSymbols)
    {
    }

    void run(const QStringList &cudartCandidates, const LibraryLoader &loader)
    {
        if (!m_cudnnSymbols.missing().isEmpty()) {
            fail(QStringLiteral("symbols"), QStringLiteral("no loaded library exports %1")
                                                .arg(m_cudnnSymbols.missing().join(QLatin1String(", "))));
            return;
        }
        std::unique_ptr<LoadedLibrary> cudartLibrary;
        if (!timed(QStringLiteral("cudart"),
                   [&] { return loadCudart(cudartCandidates, loader, cudartLibrary); }))
            return;
        SymbolTable cudartSymbols({cudartLibrary.get()});
        const CudartApi cudart(cudartSymbols);
        if (!cudartSymbols.missing().isEmpty()) {
            fail(QStringLiteral("cudart"),
                 QStringLiteral("%1 does not export %2")
                     .arg(m_gpu.cudartLoadedFrom, cudartSymbols.missing().join(QLatin1String(", "))));
            return;
        }
        m_cudart = &cudart;
        if (!timed(QStringLiteral("device"), [&] { return findDevice(); }))
            return;

        void *handle = nullptr;
        if (!timed(QStringLiteral("handle"),
                   [&] { return cudnnOk(QStringLiteral("handle"), "cudnnCreate", m_cudnn.create(&handle)); }))
            return;
        std::vector<float> y;
        const std::vector<float> x = pseudoRandom(size_t(kN) * kC * kH * kW, 1);
        const std::vector<float> w = pseudoRandom(size_t(kK) * kC * kR * kS, 2);
        const bool convolved =
            timed(QStringLiteral("convolution"), [&] { return convolve(handle, x, w, y); });
        const bool compared = convolved && timed(QStringLiteral("compare"), [&] { return compare(x, w, y); });
        const bool destroyed = timed(QStringLiteral("destroy"), [&] {
            return cudnnOk(QStringLiteral("destroy"), "cudnnDestroy", m_cudnn.destroy(handle));
        });
        if (compared && destroyed) {
            m_gpu.status = ProbeGpu::Status::Passed;
            m_gpu.reason = QStringLiteral("a %1x%2x%3x%4 convolution on %5 matched the CPU within %6")
                               .arg(kN)
                               .arg(kK)
                               .arg(kH)
                               .arg(kW)
                               .arg(m_gpu.deviceName)
                               .arg(m_gpu.tolerance);
        }
    }

private:
    template <typename Step>
    bool timed(const QString &name, Step step)
    {
        QElapsedTimer timer;
        timer.start();
        const bool ok = step();
        m_gpu.milliseconds.append({name, elapsedMilliseconds(timer)});
        return ok;
    }

    void finish(ProbeGpu::Status status, const QString &stage, const QString &reason)
    {
        if (!m_gpu.stage.isEmpty())
            return; // the first problem is the one reported
        m_gpu.status = status;
        m_gpu.stage = stage;
        m_gpu.reason = reason;
    }
    void fail(const QString &stage, const QString &reason)
    {
        finish(ProbeGpu::Status::Failed, stage, reason);
    }
    void skip(const QString &stage, const QString &reason)
    {
        finish(ProbeGpu::Status::Skipped, stage, reason);
    }

    // "35 (cudaErrorInsufficientDriver)"; remembers the first error met.
    QString describeCudaError(CudaError error)
    {
        const char *name = m_cudart->getErrorName ? m_cudart->getErrorName(error) : nullptr;
        const QString errorName = name ? QString::fromLatin1(name) : QString();
        if (!m_gpu.cudaError) {
            m_gpu.cudaError = error;
            m_gpu.cudaErrorName = errorName;
        }
        return errorName.isEmpty() ? QString::number(error)
                                   : QStringLiteral("%1 (%2)").arg(error).arg(errorName);
    }

    bool cudaOk(const QString &stage, const char *function, CudaError error)
    {
        if (error == kCudaSuccess)
            return true;
        fail(stage, QStringLiteral("%1 returned %2").arg(QLatin1String(function), describeCudaError(error)));
        return false;
    }

    bool cudnnOk(const QString &stage, const char *function, CudnnStatus status)
    {
        if (status == kCudnnSuccess)
            return true;
        const char *name = m_cudnn.getErrorString ? m_cudnn.getErrorString(status) : nullptr;
        const QString statusName = name ? QString::fromLatin1(name) : QString();
        if (!m_gpu.cudnnStatus) {
            m_gpu.cudnnStatus = status;
            m_gpu.cudnnStatusName = statusName;
        }
        fail(stage, statusName.isEmpty()
                        ? QStringLiteral("%1 returned %2").arg(QLatin1String(function)).arg(status)
                        : QStringLiteral("%1 returned %2 (%3)")
                              .arg(QLatin1String(function))
                              .arg(status)
                              .arg(statusName));
        return false;
    }

    bool loadCudart(const QStringList &candidates, const LibraryLoader &loader,
                    std::unique_ptr<LoadedLibrary> &library)
    {
        QStringList errors;
        for (const QString &candidate : candidates) {
            LoadResult load = loader.load(candidate, LibraryLoader::Search::Standard);
            if (load.library) {
                m_gpu.cudartLoadedFrom = load.library->loadedPath();
                library = std::move(load.library);
                return true;
            }
            errors.append(load.errorString.isEmpty() ? candidate : load.errorString);
        }
        skip(QStringLiteral("cudart"), candidates.isEmpty()
                                           ? QStringLiteral("no CUDA runtime library was named")
                                           : QStringLiteral("no CUDA runtime library could be loaded (%1)")
                                                 .arg(errors.join(QLatin1String("; "))));
        return false;
    }

    bool findDevice()
    {
        int version = 0;
        if (m_cudart->runtimeGetVersion(&version) == kCudaSuccess)
            m_gpu.cudaRuntimeVersion = version;
        version = 0;
        if (m_cudart->driverGetVersion(&version) == kCudaSuccess)
            m_gpu.cudaDriverVersion = version;

        int count = 0;
        const CudaError error = m_cudart->getDeviceCount(&count);
        if (error != kCudaSuccess) {
            const QString described = describeCudaError(error);
            const QString why =
                error == kCudaErrorInsufficientDriver
                    ? QStringLiteral(": no NVIDIA driver, or one older than this CUDA runtime needs")
                : error == kCudaErrorNoDevice ? QStringLiteral(": no CUDA-capable GPU was found")
                                              : QString();
            skip(QStringLiteral("device"),
                 QStringLiteral("cudaGetDeviceCount returned %1%2").arg(described, why));
            return false;
        }
        m_gpu.deviceCount = count;
        if (count < 1) {
            skip(QStringLiteral("device"), QStringLiteral("cudaGetDeviceCount found no GPU"));
            return false;
        }
        std::vector<char> properties(kDevicePropertiesBytes, 0);
        if (!cudaOk(QStringLiteral("device"), "cudaGetDeviceProperties",
                    m_cudart->getDeviceProperties(properties.data(), 0)))
            return false;
        m_gpu.deviceName =
            QString::fromUtf8(properties.data(), int(qstrnlen(properties.data(), kDeviceNameBytes)));
        return true;
    }

    bool convolve(void *handle, const std::vector<float> &x, const std::vector<float> &w,
                  std::vector<float> &y)
    {
        const QString stage = QStringLiteral("convolution");
        void *xDescriptor = nullptr, *yDescriptor = nullptr, *wDescriptor = nullptr, *convolution = nullptr;
        void *xDevice = nullptr, *wDevice = nullptr, *yDevice = nullptr;
        const auto release = qScopeGuard([&] {
            for (void *memory : {xDevice, wDevice, yDevice})
                if (memory)
                    m_cudart->free(memory);
            if (convolution)
                m_cudnn.destroyConvolution(convolution);
            if (wDescriptor)
                m_cudnn.destroyFilter(wDescriptor);
            for (void *descriptor : {xDescriptor, yDescriptor})
                if (descriptor)
                    m_cudnn.destroyTensor(descriptor);
        });
        if (!cudnnOk(stage, "cudnnCreateTensorDescriptor", m_cudnn.createTensor(&xDescriptor)) ||
            !cudnnOk(stage, "cudnnSetTensor4dDescriptor",
                     m_cudnn.setTensor4d(xDescriptor, kCudnnTensorNchw, kCudnnDataFloat, kN, kC, kH, kW)) ||
            !cudnnOk(stage, "cudnnCreateFilterDescriptor", m_cudnn.createFilter(&wDescriptor)) ||
            !cudnnOk(stage, "cudnnSetFilter4dDescriptor",
                     m_cudnn.setFilter4d(wDescriptor, kCudnnDataFloat, kCudnnTensorNchw, kK, kC, kR, kS)) ||
            !cudnnOk(stage, "cudnnCreateConvolutionDescriptor", m_cudnn.createConvolution(&convolution)) ||
            !cudnnOk(stage, "cudnnSetConvolution2dDescriptor",
                     m_cudnn.setConvolution2d(convolution, kPad, kPad, 1, 1, 1, 1, kCudnnCrossCorrelation,
                                              kCudnnDataFloat)) ||
            !cudnnOk(stage, "cudnnSetConvolutionMathType", m_cudnn.setMathType(convolution, kCudnnFmaMath)))
            return false;
        int n = 0, k = 0, h = 0, width = 0;
        if (!cudnnOk(stage, "cudnnGetConvolution2dForwardOutputDim",
                     m_cudnn.outputDim(convolution, xDescriptor, wDescriptor, &n, &k, &h, &width)))
            return false;
        if (n != kN || k != kK || h != kH || width != kW) {
            fail(stage,
                 QStringLiteral("cudnnGetConvolution2dForwardOutputDim gave %1x%2x%3x%4, not %5x%6x%7x%8")
                     .arg(n)
                     .arg(k)
                     .arg(h)
                     .arg(width)
                     .arg(kN)
                     .arg(kK)
                     .arg(kH)
                     .arg(kW));
            return false;
        }
        y.assign(size_t(kN) * kK * kH * kW, 0.0f);
        const size_t xBytes = x.size() * sizeof(float), wBytes = w.size() * sizeof(float),
                     yBytes = y.size() * sizeof(float);
        if (!cudnnOk(stage, "cudnnCreateTensorDescriptor", m_cudnn.createTensor(&yDescriptor)) ||
            !cudnnOk(stage, "cudnnSetTensor4dDescriptor",
                     m_cudnn.setTensor4d(yDescriptor, kCudnnTensorNchw, kCudnnDataFloat, kN, kK, kH, kW)) ||
            !cudaOk(stage, "cudaMalloc", m_cudart->malloc(&xDevice, xBytes)) ||
            !cudaOk(stage, "cudaMalloc", m_cudart->malloc(&wDevice, wBytes)) ||
            !cudaOk(stage, "cudaMalloc", m_cudart->malloc(&yDevice, yBytes)) ||
            !cudaOk(stage, "cudaMemcpy",
                    m_cudart->memcpy(xDevice, x.data(), xBytes, kCudaMemcpyHostToDevice)) ||
            !cudaOk(stage, "cudaMemcpy",
                    m_cudart->memcpy(wDevice, w.data(), wBytes, kCudaMemcpyHostToDevice)))
            return false;
        const float alpha = 1.0f, beta = 0.0f; // float tensors take float scaling factors
        return cudnnOk(stage, "cudnnConvolutionForward",
                       m_cudnn.convolutionForward(handle, &alpha, xDescriptor, xDevice, wDescriptor, wDevice,
                                                  convolution, kCudnnConvolutionFwdAlgoImplicitGemm, nullptr,
                                                  0, &beta, yDescriptor, yDevice)) &&
               cudaOk(stage, "cudaDeviceSynchronize", m_cudart->deviceSynchronize()) &&
               cudaOk(stage, "cudaMemcpy",
                      m_cudart->memcpy(y.data(), yDevice, yBytes, kCudaMemcpyDeviceToHost));
    }

    bool compare(const std::vector<float> &x, const std::vector<float> &w, const std::vector<float> &y)
    {
        const std::vector<double> reference = referenceConvolution(x, w);
        m_gpu.tolerance = kTolerance;
        double maxError = 0;
        size_t worst = 0;
        for (size_t i = 0; i < reference.size(); ++i) {
            const double error = std::abs(double(y[i]) - reference[i]);
            if (!std::isfinite(error)) {
                fail(QStringLiteral("compare"),
                     QStringLiteral("the GPU result is not a number at output %1 (%2)")
                         .arg(i)
                         .arg(double(y[i])));
                return false;
            }
            if (error > maxError) {
                maxError = error;
                worst = i;
            }
        }
        m_gpu.maxAbsoluteError = maxError;
        if (maxError <= kTolerance)
            return true;
        fail(QStringLiteral("compare"),
             QStringLiteral("the GPU result differs from the CPU reference by %1 at "
                            "output %2 (%3 instead of %4), more than %5")
                 .arg(maxError)
                 .arg(worst)
                 .arg(double(y[worst]))
                 .arg(reference[worst])
                 .arg(kTolerance));
        return false;
    }

    ProbeGpu &m_gpu;
    SymbolTable m_cudnnSymbols;
    const CudnnApi m_cudnn;
    const CudartApi *m_cudart = nullptr;
};

} // namespace

void runGpuCheck(ProbeGpu &gpu, std::vector<const LoadedLibrary *> cudnnLibraries,
                 const QStringList &cudartCandidates, const LibraryLoader &loader)
{
    GpuCheck(gpu, SymbolTable(std::move(cudnnLibraries))).run(cudartCandidates, loader);
}

double elapsedMilliseconds(const QElapsedTimer &timer)
{
    return timer.nsecsElapsed() / 1e6;
}

} // namespace cudnnsetup
