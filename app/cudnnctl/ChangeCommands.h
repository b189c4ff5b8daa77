#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QString>

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

int runChange(const ChangeRequest &request, const cudnnsetup::SystemContext &context,
              const cudnnsetup::KnowledgeBase &kb);
