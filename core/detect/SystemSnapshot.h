#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "loader/LoadModel.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class SystemPaths;

// What detection found, as a plain value with one JSON schema (cudnn-setup/snapshot/1). Unknown
// values are null strings / nullopt, and null in JSON: "unknown" is never written as "ok".

struct WslInfo
{
    int version = 2;
    QString distribution;
};

struct OsInfo
{
    QString family;  // "windows" | "linux"
    QString name;    // "Windows 11 Pro", "Ubuntu 24.04.3 LTS"
    QString version; // "10.0.26100", "24.04"
    QString arch;    // "x64" | "arm64" | "x86" | other machine names as found
    QString kernel;  // Linux kernel release
    std::optional<WslInfo> wsl;
};

struct GpuInfo
{
    int index = -1;
    QString name;
    QString computeCapability; // "9.0"
    qint64 memoryMiB = -1;
    QString uuid;
    QString pciBusId;
    QString source; // "nvml" | "nvidia-smi" | "registry" | "pci"
};

struct DriverInfo
{
    QString version; // "580.159.04", "546.80"
    QString maxCuda; // newest CUDA the driver supports, "13.0"; null when it cannot be known
    QString source;  // where the version came from
    QString maxCudaSource;
    bool working = true; // false: installed but not answering ("NVIDIA-SMI has failed ...")
};

struct CudaToolkit
{
    QString version; // "13.0.88" where known to that depth, "12.2" otherwise; null if unreadable
    QString path;
    QString source;        // "CUDA_PATH", "CUDA_PATH_V12_2", "registry", "default-folder", "CUDA_HOME",
                           // "nvcc-on-path", ...
    QString versionSource; // "version.json", "version.txt", "nvcc", "cudart-file-name"
    QString binDir;        // where its DLLs / libraries are (CUDA 13 on Windows: bin\x64)
    QString libDir;
};

struct CudnnCopy
{
    QString version; // "9.19.0"; null when nothing tells it
    QString path;    // the main library (cudnn64_9.dll / libcudnn.so.9), else the first library found
    QString directory;
    std::optional<int> cudaMajor;
    QString source;        // "toolkit", "path", "system32", "cudnn-installer", "conda", "pip", "torch",
                           // "python-folder", "ld-library-path", "system"
    QString versionSource; // "header", "version-resource", "file-name", "pip-metadata"
    QString headerPath;
    QString owner;                // the toolkit folder or Python environment it belongs to
    QStringList libraries;        // file names of the set in this folder
    std::optional<int> loadOrder; // 1 = what a freshly started process loads; null = not on the search path
};

struct TorchInfo
{
    QString version; // "2.11.0+cu130"
    QString cuda;    // torch.version.cuda; null for a CPU-only build
    QString cudnn;   // "9.19.0" from torch.backends.cudnn.version()
    // The cuDNN file torch loads: the one it mapped when the interpreter was asked, else the one the
    // loader will take, resolved from the files (PythonInstall::factsFrom says which).
    QString cudnnLoadedFrom;
    std::optional<bool> cudaAvailable; // known only when the interpreter was asked
};

// A framework other than torch that brings or names its own CUDA build (JAX, PaddlePaddle), read
// from its files.
struct FrameworkInfo
{
    QString name;            // "jax", "paddle"
    QString version;         // "0.11.2"
    QString cuda;            // the CUDA its GPU build is for: "13", "12.6"; null when CPU-only or unknown
    QString cudnn;           // the cuDNN it was built with or will load, when its files tell
    QString cudnnLoadedFrom; // the cuDNN file it will load (an NVIDIA wheel's, its own), when known

    QString displayName() const; // "JAX", "PaddlePaddle"
};

struct PythonInstall
{
    QString path;
    QStringList names; // other paths that reach this interpreter: links, pyenv shims
    QString version;   // "3.12.3"
    int bits = 0;      // 32 | 64, read from the executable's header; 0 unknown
    QString arch;      // machine of the executable: "x64", "x86", "arm64"
    QString source;    // "path", "py-launcher", "registry", "conda", "venv"
    std::optional<TorchInfo> torch;
    QString tensorflow;              // the installed TensorFlow's version, null when there is none
    QList<FrameworkInfo> frameworks; // JAX, PaddlePaddle
    QString probeError;              // why the interpreter could not be asked (timeout, crash)
    QString factsFrom;               // "files" (read without running it) or "interpreter" (asked)
};

// A copy of a library a consumer needs, as its own load context reaches it.
struct ResolvedLibrary
{
    QString path;    // the file the loader takes
    QString version; // that copy's version ("9.19.0", "12.4.5.8", "12"); null when nothing tells it
};

// A program or Python package whose native files use cuDNN or the CUDA libraries, read from its
// files (nothing is loaded or run).
struct ConsumerInfo
{
    QString name;                  // the wheel's project name ("torch", "onnxruntime-gpu"), else the file's
    QString version;               // the wheel's version; null when no metadata names it
    QString location;              // the site-packages or application folder it was found in
    QStringList files;             // its native files that use CUDA
    std::optional<int> cudnnMajor; // from imports / DT_NEEDED, else names in its data, else its build info
    std::optional<int> cublasMajor;
    std::optional<int> cudaMajor; // the CUDA runtime's (cudart's) major, else cuBLAS's
    QStringList sass;             // GPU code its fatbins are built for: "sm_80", "sm_90a"
    QStringList sassInPart;       // in some of their containers only: a few kernels, not the library
    QStringList ptx;              // "compute_90"
    QStringList ptxIsa;           // "8.8"
    // Each CUDA library it needs (by the name it asks for) and the copy its load context reaches;
    // nullopt when none is found.
    QList<std::pair<QString, std::optional<ResolvedLibrary>>> resolves;
    // How its process loads (not in the JSON; `verify --for` loads it the same way): the model,
    // the folders os.add_dll_directory adds (Windows), and the libraries its package's Python code
    // loads by full path before the native module (JAX's plugin).
    LoadModel loadModel = LoadModel::Program;
    QStringList dllDirectories;
    QStringList preloads;
    QStringList cudnnImporters; // those of `files` that import a cuDNN library
};

struct EnvironmentInfo
{
    QString cudaPath;        // CUDA_PATH as this process sees it
    QString cudaPathToolkit; // the detected toolkit it points to; null if none
    QString cudaVisibleDevices;
    QString cudaModuleLoading;
    QStringList path;        // PATH entries, in order
    QStringList libraryPath; // LD_LIBRARY_PATH entries (Linux)
    // Windows: whether this process's PATH differs from what the registry now says (a terminal
    // opened before a change). null when it cannot be known.
    std::optional<bool> pathStale;
};

struct SystemSnapshot
{
    static constexpr char kSchema[] = "cudnn-setup/snapshot/1";

    QDateTime createdAt;
    QString systemRoot; // the --system-root inspected, null for the running system
    OsInfo os;
    QList<GpuInfo> gpus;
    std::optional<DriverInfo> driver;
    QList<CudaToolkit> cudaToolkits;
    QList<CudnnCopy> cudnn;
    // Windows: every zlibwapi.dll where a process would find it (cuDNN 8.3-9.1 need one); Linux:
    // empty (zlib is a system library there).
    QStringList zlibwapi;
    QList<PythonInstall> pythons;
    QList<ConsumerInfo> consumers;
    EnvironmentInfo environment;
    Findings findings;

    // The copy a freshly started process would load (loadOrder 1); of several majors, the newest.
    const CudnnCopy *cudnnLoadedByDefault() const;

    QJsonObject toJson() const;
    static Expected<SystemSnapshot> fromJson(const QJsonObject &object);
};

// One consumers[] entry of the snapshot's JSON.
QJsonObject consumerToJson(const ConsumerInfo &consumer);

// The copy among `copies` one of whose libraries is the file `path`; null when none is.
const CudnnCopy *copyHolding(const QList<CudnnCopy> &copies, const QString &path, const SystemPaths &paths);

} // namespace cudnnsetup
