#pragma once

#include "platform/SystemContext.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// Where each run of the wizard keeps its log, for the person who asks for help: Windows
// %LOCALAPPDATA%\cuDNN Setup\logs, elsewhere $XDG_STATE_HOME/cudnn-setup/logs
// (~/.local/state/cudnn-setup/logs). A host path; `context` is the system the wizard runs on.
QString wizardLogFolder(const SystemContext &context);

// The log file of a run started at `started`, "wizard-<UTC time>.log" in `folder` (made when
// missing), the oldest logs of earlier runs removed so that `keep` remain with it; empty when the
// folder cannot be made.
QString newWizardLog(const QString &folder, const QDateTime &started, int keep = 20);

// What a support person needs to know before anything else a wizard log says; every log (the
// window's and --unattended's) starts with it, so that a run that ends early still leaves one
// worth reading.
struct WizardLogHeader
{
    QString version;          // cuDNN Setup's
    QString system;           // the operating system, its version and build
    QString language;         // of the texts the user saw ("en", "zh_CN")
    QStringList arguments;    // as given, the program first
    QStringList stateFolders; // host paths: the machine's and the user's, where receipts are kept

    // This process's facts; `context` is the system it runs on.
    static WizardLogHeader ofThisRun(const SystemContext &context, const QStringList &arguments);
    QStringList lines() const;
    // Writes lines() to the log, each on its own line.
    void log() const;
};

} // namespace cudnnsetup
