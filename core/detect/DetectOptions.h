#pragma once

#include <atomic>
#include <functional>

#include <QString>
#include <QStringList>

namespace cudnnsetup {

struct DetectOptions
{
    int toolTimeoutMs = 15000;   // nvidia-smi, nvcc, py: a hung tool becomes a finding after this
    int pythonTimeoutMs = 10000; // each interpreter's probe (importing torch can take seconds)
    // Run each interpreter to ask about torch (seconds each); without, their files tell what they can.
    bool probePythons = false;
    bool useDriverApi = true; // NVML and the CUDA driver API (live systems only)
    // Application folders (inspected system's paths) whose programs' use of cuDNN is also read.
    QStringList appFolders;
    // progress(fraction 0..1, what is being done); may be called from worker threads.
    std::function<void(double, const QString &)> progress;
    const std::atomic<bool> *cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(); }
    void report(double fraction, const QString &text) const
    {
        if (progress)
            progress(fraction, text);
    }
};

} // namespace cudnnsetup
