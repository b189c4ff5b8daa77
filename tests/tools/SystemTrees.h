#pragma once

#include "Sandbox.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"

#include <QString>
#include <QStringList>

// Builders for the trees detection looks at, with NVIDIA's real file names and layouts
// (../shared/reference/nvidia-compat.md §4b and §8).
namespace trees {

// The inspected system of a Windows laptop's sandbox, user lab: ProgramFiles, LOCALAPPDATA,
// USERPROFILE and SystemRoot set, no registry.
cudnnsetup::SystemContext windowsLaptopContext(const Sandbox &sandbox);
// A 64-bit Python 3.12.3 at `path`, found through `source` (pip, conda, venv, ...).
cudnnsetup::PythonInstall pythonInstall(const QString &path, const QString &source);

QByteArray cudnnVersionHeader(int major, int minor, int patch);
QByteArray cudaVersionJson(const QString &release, const QString &cudart);

// cuDNN library file names of one release, for one platform.
QStringList cudnnWindowsDlls(int major);                                // the 7 (8.x) or 8 (9.x) DLL names
QStringList cudnnLinuxLibraries(int major, const QString &fullVersion); // sonames, full names and dev links

// A Linux CUDA toolkit of `release` ("12.2.2") at /usr/local/cuda-<major.minor>: bin/nvcc, lib64
// (-> targets lib) with libcudart.so.<cudart> ("12.2.140", the component's own number) and, if
// withVersionJson, a version.json naming the release.
void linuxToolkit(const Sandbox &sandbox, const QString &release, const QString &cudart,
                  bool withVersionJson = true);
// A Windows CUDA toolkit under C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v<major.minor>;
// CUDA 13 keeps its DLLs in bin\x64.
void windowsToolkit(const Sandbox &sandbox, const QString &version);
// A cuDNN copy: libraries in `libDir`, its cudnn_version.h in `includeDir` (none when empty).
void linuxCudnn(const Sandbox &sandbox, const QString &libDir, const QString &includeDir, int major,
                int minor, int patch);
void windowsCudnn(const Sandbox &sandbox, const QString &binDir, const QString &includeDir, int major,
                  int minor, int patch);
// nvidia-smi at `path` answering like the real H200 machine (tests/fixtures/nvidia-h200-linux):
// the CSV for --query-gpu, the table otherwise.
void recordedNvidiaSmi(const Sandbox &sandbox, const QString &path);
// A Linux workstation like the project's H200 machine, with more history: CUDA 11.8, 12.2 and 13.0,
// cuDNN 8.9.7 and 9.5.1 in the older toolkits, 9.14.0 from the distribution and 9.19.0 from the
// torch venv's wheel, a venv Python that answers the probe, and the recorded nvidia-smi.
void workstation(const Sandbox &sandbox);
// A Windows workstation: CUDA 11.8, 12.2 and 13.0 in the default folder, cuDNN 8.9.7 copied into
// v12.2 and 9.1.0 from NVIDIA's installer, nvidia-smi of driver 591.59 (RTX 3080) in System32,
// and a CPU-only torch in C:\Python312. Its programs run only on Windows hosts (Wine).
void windowsWorkstation(const Sandbox &sandbox);

// What the probe script prints for an interpreter of `version` whose torch is `torchJson` ("null"
// for none), and a stand-in interpreter at `path` that prints it.
// torch's files in `site`: torch/version.py saying `version` and `cuda` (empty: a CPU-only build).
void torchFiles(const Sandbox &sandbox, const QString &site, const QString &version, const QString &cuda);
// torch/lib/libtorch_cuda.so in `site`: an ELF that needs `cudnnSoname` and searches `runpath`
// ("$ORIGIN/../../nvidia/cudnn/lib", as torch's wheels have it).
void linuxTorchCuda(const Sandbox &sandbox, const QString &site, const QString &cudnnSoname,
                    const QStringList &runpath);
QByteArray pythonProbeAnswer(const QString &version, const QByteArray &torchJson);
void pythonStandin(const Sandbox &sandbox, const QString &path, const QString &version,
                   const QByteArray &torchJson);
// torch 2.11.0+cu130 with the wheel's cuDNN 9.19.0, as the H200 machine has it.
extern const QByteArray kTorchCu130;

// A tool in a tree of the host's own family (made Windows-shaped on a Windows host), so the host
// can run it: nvidia-smi in its usual folder, or python on PATH. Returns the folder it is in.
enum class HostTool
{
    NvidiaSmi,
    Python,
};
QString hostTool(const Sandbox &sandbox, HostTool tool, const ToolBehaviour &behaviour);

// The marker that makes a sandbox a Windows tree.
void windowsSystem(const Sandbox &sandbox);

} // namespace trees
