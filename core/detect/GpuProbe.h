#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"

namespace cudnnsetup {

class SystemContext;

struct GpuProbeResult
{
    QList<GpuInfo> gpus;
    std::optional<DriverInfo> driver;
};

// GPUs and the driver: NVML and the CUDA driver API where this is the running system; otherwise,
// or when they are missing, nvidia-smi (query, then the table); then what the system lists
// without a working driver (Windows display adapters, Linux PCI devices and /proc/driver/nvidia),
// so a GPU whose driver is broken is still named.
GpuProbeResult probeGpus(const SystemContext &context, const DetectOptions &options, Findings &findings);

} // namespace cudnnsetup
