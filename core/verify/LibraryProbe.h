#pragma once

#include "common/Expected.h"
#include "loader/LoadModel.h"
#include "verify/CheckStatus.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class LibraryLoader;

// What the probe child is asked to do. The parent (Verifier) runs `cudnnctl probe` with the
// environment a freshly started program would get, hands it this request as JSON and reads a
// ProbeResult back: the loads happen in a process that has loaded nothing yet, because a loader
// reuses a module of the same name that is already loaded, wherever it came from.
struct ProbeRequest
{
    // Library file names, loaded by name with the loader's standard search, in this order: the
    // main library first (cudnn64_9.dll / libcudnn.so.9), then each sub-library, because cuDNN
    // loads its sub-libraries by name at run time and any of them may be the one that fails.
    QStringList libraries;
    // Run-time CUDA library names to try, in order, for the GPU stage (cudart64_12.dll,
    // cudart64_13.dll; libcudart.so.13, libcudart.so.12). Loaded at run time: the probe has no
    // link-time CUDA dependency.
    QStringList cudartCandidates;
    bool gpu = true; // false: stop after the versions (the GPU stage is reported as skipped)
    // How the libraries are looked for, as the target's consumers do; for the Python model, the
    // folders its os.add_dll_directory calls add. The libraries are full paths but for Program.
    LoadModel model = LoadModel::Program;
    QStringList dllDirectories;
    // `verify --for`: a program's own native modules (full paths), loaded after `libraries` (then
    // the libraries its Python code loads first, by full path) with the same search; the result
    // names the cuDNN files the loader bound on the way. No GPU stage.
    QStringList consumerModules;
    // The library names such a program loads only at run time (TensorFlow dlopens libcudnn.so.9
    // when it first needs it), so loading its modules binds none: once they are in, each is loaded
    // from the first of the folders where a load by name from its first module looks (Linux:
    // LD_LIBRARY_PATH, that module's RUNPATH, the system's folders; Windows: its own folder) that
    // holds it, else by name with the same search.
    QStringList runtimeLoads;

    QJsonObject toJson() const;
    static Expected<ProbeRequest> fromJson(const QJsonObject &object);
};

// One library as the loader answered for it.
struct ProbeLoad
{
    QString name;       // as requested
    QString loadedFrom; // the file the loader mapped (GetModuleFileNameW / dladdr); null on failure
    int errorCode = 0;  // Windows: GetLastError() (126, 127, 193); Linux: 0
    QString errorString;
    double milliseconds = 0;

    bool loaded() const { return !loadedFrom.isEmpty(); }
};

struct ProbeGpu
{
    using Status = CheckStatus; // Skipped: no CUDA runtime, no driver, no GPU, or not asked for
    Status status = Status::Skipped;
    QString reason; // English, technical: why skipped or failed ("cudaGetDeviceCount returned 35")
    // Where it stopped: "symbols" (no loaded library exports a cuDNN function it calls), "cudart",
    // "device", "handle", "convolution", "compare", "destroy"; empty when it passed or was not run.
    QString stage;
    QString cudartLoadedFrom;
    std::optional<int> cudaRuntimeVersion; // cudaRuntimeGetVersion: 13000
    std::optional<int> cudaDriverVersion;  // cudaDriverGetVersion: 13000; 0 = no driver
    std::optional<int> cudaError;          // the first CUDA error met (35 insufficient driver, 100 no device)
    QString cudaErrorName;          // cudaGetErrorName when it could be asked: "cudaErrorInsufficientDriver"
    std::optional<int> cudnnStatus; // the first cuDNN status that was not SUCCESS
    QString cudnnStatusName;        // cudnnGetErrorString: "CUDNN_STATUS_NOT_INITIALIZED"
    int deviceCount = 0;
    QString deviceName;                     // cudaGetDeviceProperties of device 0, where it was asked
    std::optional<double> maxAbsoluteError; // GPU result against the CPU reference
    double tolerance = 0;                   // the largest maxAbsoluteError that passes
    // Wall time of each step run, in milliseconds: "cudart", "device", "handle", "convolution",
    // "compare", "destroy".
    QList<std::pair<QString, double>> milliseconds;

    static QString statusName(Status status) { return checkStatusName(status); }
};

// What the probe child found.
struct ProbeResult
{
    static constexpr char kSchema[] = "cudnn-setup/probe/1";

    QList<ProbeLoad> loads;
    std::optional<qint64> cudnnVersion;       // cudnnGetVersion() of the main library: 91900
    std::optional<qint64> cudnnCudartVersion; // cudnnGetCudartVersion(): 13000
    // With consumerModules: every cuDNN file mapped into the process once they were loaded, as
    // the loader names them; cudnnVersion is then the bound main library's answer.
    QStringList cudnnBound;
    ProbeGpu gpu;
    double totalMilliseconds = 0;

    QJsonObject toJson() const;
    static Expected<ProbeResult> fromJson(const QJsonObject &object);
};

// Runs the request in this process (the probe child calls it). Libraries stay loaded until it
// returns, so the sub-libraries find the main one as cuDNN itself would.
ProbeResult runProbe(const ProbeRequest &request, const LibraryLoader &loader);

} // namespace cudnnsetup
