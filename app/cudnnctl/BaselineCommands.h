#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QString>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl baseline export` and `cudnnctl status --against`: what a lab's workstations must
// have, written once, and each machine judged against it. export answers 0 (written), 1 (no
// intact install to take it from) or 2 (usage); status --against answers with the Nagios codes
// of exitcode::Compliant ... exitcode::Unknown.
struct BaselineRequest
{
    QString outFile;    // export --out: the baseline file (default: stdout)
    QString fromAnswer; // export --from-answer: the answer file to take it from
    QString driver;     // export --driver: the minimum driver (default: this machine's)
    QString against;    // status --against: the baseline file
    QString format;     // status --format: text (default), json, intune, sccm
    QString repairFile; // status --repair-file: where the answer file that repairs goes
    bool json = false;
    cudnnsetup::DetectOptions detect;
};

int runBaselineExport(const BaselineRequest &request, const cudnnsetup::SystemContext &context,
                      const cudnnsetup::KnowledgeBase &kb);
int runStatusAgainst(const BaselineRequest &request, const cudnnsetup::SystemContext &context,
                     const cudnnsetup::KnowledgeBase &kb);

// The rows of `baseline` (its one action, export) and, for status, the request that --out,
// --from-answer, --driver, --against, --format and --repair-file make.
BaselineRequest baselineRequest(const CommandContext &context, const QCommandLineParser &parser);
int baselineCommand(const CommandContext &context, const QCommandLineParser &parser);
