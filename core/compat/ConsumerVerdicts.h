#pragma once

#include "common/Expected.h"
#include "common/Text.h"
#include "common/Version.h"
#include "detect/SystemSnapshot.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

class KnowledgeBase;
struct MatchFacts;

// The PyTorch wheel index whose build carries GPU code for every GPU here, from PyTorch's CUDA
// support matrix in the compatibility database.
struct TorchIndex
{
    Version torch; // the newest release with such a build
    Version cuda;  // 12.6
    QString tag;   // "cu126"
    QString url;   // https://download.pytorch.org/whl/cu126
    // NVIDIA's minimum driver for the build's CUDA release on this system (Table 3, else the major's
    // minor-version floor, else the first branch as "580"); invalid when none is known.
    Version driverMinimum;
    bool driverUpdateNeeded = false; // the driver runs no CUDA of this build's major
};

// Newest release first, the build that covers every GPU (its SASS, or its PTX where this system's
// build carries PTX and the driver loads it) and that the driver runs, the highest CUDA not above
// the driver's; failing that, the one a newer driver would run. nullopt when a GPU's capability is
// unknown or no recorded build covers them.
std::optional<TorchIndex> torchIndexFor(const MatchFacts &facts, const KnowledgeBase &kb);

// The cuDNN a program needs beside it (the "cudnn-beside" fix): installed into `folder` for that
// program only, the newest cuDNN `cudnnMajor` for CUDA `cudaMajor` that supports the GPUs.
struct CudnnBeside
{
    QString program; // its name, as ConsumerInfo::name
    QString folder;  // where its library that loads cuDNN is
    int cudnnMajor = 0;
    int cudaMajor = 0;
};

// Whether a program that uses cuDNN or the CUDA libraries can run here, and the one thing to do.
struct ConsumerVerdict
{
    enum class Runs
    {
        Yes,
        No,
        CannotTell, // a fact it takes is unknown (the GPU, its code list, the driver): never "yes"
    };
    enum class FindsCudnn
    {
        Yes,
        No,
        NotNeeded,
        CannotTell, // it needs one (its build says which major) but names no library to follow
    };

    Runs runs = Runs::CannotTell;
    FindsCudnn findsCudnn = FindsCudnn::NotNeeded;
    QStringList missing; // CUDA libraries it needs whose copy (of the major it needs) is not reached
    Text summary;        // why, in one sentence
    QString fixKind;     // "nothing", "torch-index", "cudnn-beside", "wsl2", "driver", "sm", "rebuild",
                         // "install", "none"
    Text fix;            // exactly one prescribed fix, in words
    QString command;     // the command that does it, one step a line; empty where it is an action
    std::optional<CudnnBeside> beside; // what the "cudnn-beside" fix installs where

    // Runs, finds what it needs: nothing to do.
    bool fine() const;
    QJsonObject verdictJson() const;
    QJsonObject fixJson() const;
};

// A consumer with its verdict; `found` false for the stand-in of a program asked for and not found.
struct JudgedConsumer
{
    ConsumerInfo consumer;
    ConsumerVerdict verdict;
    bool found = true;

    QJsonObject toJson() const;
};

ConsumerVerdict judgeConsumer(const ConsumerInfo &consumer, const MatchFacts &facts, const KnowledgeBase &kb);
QList<JudgedConsumer> judgeConsumers(const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                                     const KnowledgeBase &kb);

// `check --for WHAT`: "torch", "tensorflow", "onnxruntime", "ctranslate2", "jax" or "app:FOLDER" (the
// consumers detected in that --app folder). A program asked for and not found is one entry with
// `found` false, whose fix installs it where that is known (torch: the index for this GPU).
// An unknown WHAT is the error.
Expected<QList<JudgedConsumer>> judgeFor(const QString &what, const QList<ConsumerInfo> &consumers,
                                         const MatchFacts &facts, const KnowledgeBase &kb);
// The folder of `check --for app:FOLDER`; empty for another WHAT.
QString appFolderOf(const QString &what);

// The snapshot's JSON with each consumers[] entry given its `verdict` and `fix`.
QJsonObject snapshotJsonWithVerdicts(const SystemSnapshot &snapshot, const QList<JudgedConsumer> &judged);

} // namespace cudnnsetup
