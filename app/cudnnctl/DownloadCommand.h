#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QString>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl download`: fetches a cuDNN archive (what `check` recommends unless --cudnn names one)
// from NVIDIA's redist, a lab mirror or a folder, verified before it gets its final name. Answers
// as `inspect` does: 0 with the verified archive, 1 when it could not be had or was refused, 2 for
// bad arguments.
struct DownloadCommandRequest
{
    QString cudnn;     // --cudnn: 3 or 4 parts; empty: check's recommendation
    QString cuda;      // --cuda: the archive's CUDA major
    QString platform;  // --platform: windows-x86_64, linux-x86_64, linux-sbsa
    QString source;    // --source: URL or folder; empty: NVIDIA
    QString outFolder; // --out; empty: the current folder
    QString caFile;    // --ca-file
    bool json = false;
    cudnnsetup::DetectOptions detect;
};

int runDownloadCommand(const DownloadCommandRequest &request, const cudnnsetup::SystemContext &context,
                       const cudnnsetup::KnowledgeBase &kb);

// The row of `download`.
int downloadCommand(const CommandContext &context, const QCommandLineParser &parser);
