#pragma once

#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QString>
#include <QStringList>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl verify`, `doctor`, `report` and `status`: the commands that try the cuDNN a machine has, explain
// what is wrong and offer the repairs. verify and doctor answer 0 (fine) or 1 (problems); doctor
// --fix answers with the installer codes of a change (0, 1602, 1603, 1618). status is a fleet's
// detection rule: 0 and one line on stdout when the install asked about is there, else 1 and
// nothing on stdout.
struct VerifyRequest
{
    QString command;       // "verify", "doctor", "report", "status"
    QString target;        // --target: the install to check (default: the last one cuDNN Setup made,
                           // else what a fresh process loads)
    QString forWhat;       // verify --for: the program whose own module is loaded ("torch",
                           // "app:FOLDER" with FOLDER absolute), as check --for chooses it
    QStringList pythons;   // --python
    bool gpu = true;       // --no-gpu clears it
    bool framework = true; // --no-framework clears it
    bool fix = false;      // doctor --fix
    bool yes = false;      // doctor --yes: apply every offered repair without asking
    QString archive;       // doctor: an archive to replace mismatched files from
    QString fromLog;       // doctor --from-log: the error log the user saw ("-": standard input)
    QString outFolder;     // report --out
    QString toFolder;      // report --to: a lab's share, for this machine's report
    QString machine;       // report --machine: its name there (default: the host name)
    QString cudnnVersion;  // status --cudnn: a version prefix the install must have
    QString requestFile;   // doctor --request: repairs handed over to this elevated run
    QString exchangeNonce; // doctor --exchange: that run answers through exchange::writeResult
    QString requesterSid;  // doctor --requester: the account that may read the answer
    QString cancelFile;    // doctor --cancel-file: that run stops and rolls back once it appears
    bool json = false;
    cudnnsetup::DetectOptions detect;
};

int runVerifyCommand(const VerifyRequest &request, const cudnnsetup::SystemContext &context,
                     const cudnnsetup::KnowledgeBase &kb);

// The rows of verify, doctor and report; of status, with or without --against (BaselineCommands.h).
int verifyCommand(const CommandContext &context, const QCommandLineParser &parser);
int statusCommand(const CommandContext &context, const QCommandLineParser &parser);
