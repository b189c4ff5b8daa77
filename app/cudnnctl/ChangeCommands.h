#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QString>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl install` and `cudnnctl uninstall`: the commands that change the system. They answer
// with the Windows installer codes (0, 1602, 1603, 1618, 87) that fleet tools read.
struct ChangeRequest
{
    QString command;       // "install" or "uninstall"
    QString receiptId;     // uninstall: which install (empty: the only one)
    QString archive;       // install: --archive
    QString target;        // install: --target (empty: the default the match suggests)
    QString path;          // install: --path user|system|none (empty: the target kind's own)
    QString variables;     // install: --cudnn-variables user|system (empty: none)
    QString ifInUse;       // install: --if-in-use fail|restart (empty: fail)
    QString exchangeNonce; // --exchange: the helper of another process, which answers through
                           // exchange::writeResult
    QString requesterSid;  // --requester: the account of that process, which may read the answer
    QString cancelFile;    // --cancel-file: stop and roll back once this file appears (elevated runs)
    QString planFile;      // install: --request, the sealed plan handed over by another process
    QString planSeal;      // install: --plan-sha256, that plan's SHA-256 on the approved command line
    bool allowUnverifiedArchive = false; // install: --allow-unverified-archive
    bool dryRun = false;
    bool json = false;
    cudnnsetup::DetectOptions detect;
};

// `cudnnctl prepare-state`: the machine state folder made ready (StateFolders::prepare) with its
// administrators-only descriptor from its first moment, before any wizard runs, so that no user can
// make it first (review 2, N6 and N14). The MSI runs it as SYSTEM. 0, or 1603 with the reason.
int runPrepareState(const cudnnsetup::SystemContext &context);

int runChange(const ChangeRequest &request, const cudnnsetup::SystemContext &context,
              const cudnnsetup::KnowledgeBase &kb);

// `cudnnctl apply FILE`: the answer file run as `cudnn-setup --unattended --answer-file FILE` runs
// it (runUnattendedLogged), for consoles and Linux machines without the wizard. `logFile` (--log)
// replaces the file's log=; the installer codes of that run.
int runApply(const QString &answerFile, const QString &logFile, const cudnnsetup::SystemContext &context,
             const cudnnsetup::KnowledgeBase &kb);

// The rows of install and uninstall, apply and prepare-state.
int changeCommand(const CommandContext &context, const QCommandLineParser &parser);
int applyCommand(const CommandContext &context, const QCommandLineParser &parser);
int prepareStateCommand(const CommandContext &context, const QCommandLineParser &parser);
