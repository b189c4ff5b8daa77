#pragma once

#include "platform/SystemContext.h"

#include <QDateTime>
#include <QString>

namespace cudnnsetup {

// Where each run of the wizard keeps its log, for the person who asks for help: Windows
// %LOCALAPPDATA%\cuDNN Setup\logs, elsewhere $XDG_STATE_HOME/cudnn-setup/logs
// (~/.local/state/cudnn-setup/logs). A host path; `context` is the system the wizard runs on.
QString wizardLogFolder(const SystemContext &context);

// The log file of a run started at `started`, "wizard-<UTC time>.log" in `folder` (made when
// missing), the oldest logs of earlier runs removed so that `keep` remain with it; empty when the
// folder cannot be made.
QString newWizardLog(const QString &folder, const QDateTime &started, int keep = 20);

} // namespace cudnnsetup
