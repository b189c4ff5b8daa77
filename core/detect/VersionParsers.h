#pragma once

#include "common/Version.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// Small parsers for the places a version is written down. Each returns an invalid Version (or
// nullopt) for garbage rather than guessing.
namespace versions {

// `nvcc --version`: "Cuda compilation tools, release 13.0, V13.0.88" -> 13.0.88 (the V field
// when present, else the release). Every build-stamp variant (PDT, Pacific_Daylight_Time,
// Coordinated_Universal_Time, no "Build" line in 10.x) is accepted.
Version fromNvccOutput(const QString &text);

// A CUDA toolkit's version.json ({"cuda": {"version": "12.2.140"}}) or version.txt
// ("CUDA Version 10.2.89").
Version fromCudaVersionJson(const QByteArray &json);
Version fromCudaVersionTxt(const QByteArray &text);

// cudnn_version.h (8.x, 9.x) or an old cudnn.h (7.x): CUDNN_MAJOR/MINOR/PATCHLEVEL -> "9.19.0".
Version fromCudnnHeader(const QByteArray &header);
// cudnnGetVersion() / torch.backends.cudnn.version() integers: 8907 -> 8.9.7, 91900 -> 9.19.0
// (8.x and older: MAJOR*1000 + MINOR*100 + PATCH; 9.x and newer: MAJOR*10000 + MINOR*100 + PATCH).
Version fromCudnnVersionNumber(qint64 number);
// The version text of one copy of cuDNN: a loaded library answers MAJOR.MINOR.PATCH only, so where
// the receipt, the archive or the headers name the same release (`known`, "9.28.1.4"), that text
// names it, as every other page does; otherwise what the library answered.
Version copyVersion(const Version &loaded, const Version &known);

// cuDNN library file names: "libcudnn.so.9.14.0" -> 9.14.0, "libcudnn_ops.so.9" -> 9,
// "cudnn64_9.dll" -> 9, "cudnn_cnn_infer64_8.dll" -> 8, "cudnn64_7.dll" -> 7.
Version fromCudnnLibraryName(const QString &fileName);
// True for a cuDNN library name of either platform (cudnn*64_*.dll, libcudnn*.so*), the main one
// or a sub-library; false for import libraries, static archives and headers.
bool isCudnnLibraryName(const QString &fileName);
// True for the main library of a set (cudnn64_N.dll / libcudnn.so[.N...]).
bool isMainCudnnLibraryName(const QString &fileName);
// A Linux library's soname from its full file name: "libcudnn_ops.so.9.19.0" -> "libcudnn_ops.so.9",
// the name a program asks the loader for; any other name as it is.
QString sonameOf(const QString &fileName);
// What a cuDNN library name names without platform and version: "cudnn_graph64_9.dll" and
// "libcudnn_graph.so.9.19.0" -> "cudnn_graph"; empty for other names.
QString cudnnLibraryStem(const QString &fileName);
// The library names every release of a cuDNN major ships, the main one first: cuDNN 9's eight,
// cuDNN 8's seven, the main one alone before 8 (Linux: the sonames). Empty for a major after 9,
// whose set this build cannot know.
QStringList cudnnLibrarySet(bool windows, int major);
// The names of that set `present` (file names) lacks; Windows names match in any case.
QStringList missingCudnnLibraries(const QStringList &present, bool windows, int major);
// `names` (file names or paths of cuDNN libraries) in the order they load: the main library, then
// each sub-library before those that import it (cudnn_ops before cudnn_cnn, as cudnnLibrarySet
// lists them), names of no known set last, each group keeping its order.
QStringList cudnnLibrariesInLoadOrder(const QStringList &names);

// CUDA runtime file names: "libcudart.so.13.0.96" -> 13.0.96, "cudart64_12.dll" -> 12,
// "cudart64_110.dll" -> 11.0, "cudart64_101.dll" -> 10.1.
Version fromCudartName(const QString &fileName);

// cuBLAS library names: "libcublas.so.12.4.5.8" -> 12.4.5.8, "libcublasLt.so.13" -> 13,
// "cublas64_12.dll" -> 12, "cublasLt64_11.dll" -> 11 (cuBLAS's major is its CUDA's from 11 on).
Version fromCublasName(const QString &fileName);

// The CUDA major a cuDNN wheel is built for, from its distribution name:
// "nvidia_cudnn_cu13-9.19.0.56.dist-info" -> 13; nullopt for other names.
std::optional<int> cudaMajorFromCudnnWheel(const QString &distInfoName);
// The version in a dist-info folder name: "nvidia_cudnn_cu13-9.19.0.56.dist-info" -> 9.19.0.56.
Version fromDistInfoName(const QString &distInfoName);

// Windows display-driver file version "32.0.15.8129" -> NVIDIA's "581.29" (the last five digits).
Version nvidiaDriverFromWindowsFileVersion(const QString &fileVersion);

} // namespace versions
} // namespace cudnnsetup
