#pragma once

#include "common/Version.h"

#include <QString>

namespace cudnnsetup {

class KnowledgeBase;
struct MatchFacts;
struct MatchResult;

// The four CUDA numbers people confuse, side by side: what the driver can run, what the toolkit's
// nvcc is, what the framework was built for, and what the cuDNN archive is for.
struct CudaNumbers
{
    Version driverMaxCuda; // nvidia-smi's "CUDA Version": the newest CUDA the driver runs
    Version toolkit;       // nvcc --version of the toolkit cuDNN goes with
    Version framework;     // torch.version.cuda
    QString frameworkName; // "torch 2.11.0+cu130"
    QString archiveCuda;   // the chosen (else recommended) archive's _cudaNN
    bool archiveRecommended = false;

    static CudaNumbers of(const MatchFacts &facts, const MatchResult &result, const KnowledgeBase &kb);
};

} // namespace cudnnsetup
