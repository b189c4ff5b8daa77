#pragma once

#include "common/Version.h"

#include <QString>

#include <optional>

namespace cudnnsetup {

// What an NVIDIA cuDNN archive's file name claims, from any era of names:
//   cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip      (8.5 and later)
//   cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.tar.xz   (8.3-8.4: a CUDA minor)
//   cudnn-11.2-windows-x64-v8.1.0.77.zip                  (8.2 and earlier)
//   cudnn-10.2-windows10-x64-v7.6.5.32.zip
// and as downloads get renamed: hyphens for underscores ("cudnn-windows-x86-64-8.9.7.29-cuda12-
// archive.zip", as blog posts write it), a browser's " (1)" before the extension, any case.
struct ArchiveName
{
    QString platform;         // "windows-x86_64", "linux-x86_64", "linux-sbsa"
    Version cudnn;            // 8.9.7.29
    QString cudaVariant;      // "12", "11.5", "10.2": as the name writes it
    QString extension;        // "zip", "tar.xz", "tgz"
    bool modernNaming = true; // false for the cudnn-<CUDA>-<os>-x64-v<ver> era
    QString osToken;          // that era's "windows", "windows10", "windows7" or "linux"

    int cudaMajor() const { return cudaVariant.section(QLatin1Char('.'), 0, 0).toInt(); }
    // The name NVIDIA publishes this archive under.
    QString canonicalFileName() const;

    // nullopt when the name is not a cuDNN archive name of any era.
    static std::optional<ArchiveName> parse(const QString &fileName);
};

} // namespace cudnnsetup
