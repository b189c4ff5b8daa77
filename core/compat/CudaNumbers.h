#pragma once

#include "common/Text.h"
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

    // One number as a tile shows it: the value in one format for all four ("13.0", "12.x", "not
    // installed"), a one-line verdict a student reads without the tooltip, and how good that is.
    struct Tile
    {
        enum class Level
        {
            Good,    // fits
            Neutral, // not needed, or nothing to judge against
            Caution, // works, but not as the user probably expects (a CPU-only PyTorch)
            Bad,     // stops the archive from working
        };
        Text value;
        Text verdict;
        Level level = Level::Neutral;
    };
    Tile driverTile() const;
    Tile toolkitTile() const;
    Tile frameworkTile() const;
    Tile archiveTile() const;
};

} // namespace cudnnsetup
