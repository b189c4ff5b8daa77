#pragma once

#include "install/Installer.h"
#include "platform/Elevation.h"

#include <QString>
#include <QStringList>

namespace cudnnsetup {

// Whether installing into `target` needs rights this process does not have: a machine-wide
// folder or the system PATH or variables, asked for by a process that is not elevated.
bool needsElevation(const InstallTarget &target, const ChangeOptions &options, const SystemContext &context,
                    const Elevation &elevation);

// Runs `program arguments --result FILE` with administrator rights (the UAC prompt) and reads back
// the outcome it wrote. A declined prompt is "cancelled" with "elevation.declined": nothing
// changed. The elevated process takes the machine's lock itself; this one holds nothing meanwhile.
ChangeOutcome runChangeElevated(const QString &program, const QStringList &arguments,
                                const Elevation &elevation);

// The outcome as `--json` prints it (schema cudnn-setup/change/1), read back.
ChangeOutcome changeOutcomeFromJson(const QJsonObject &object);

} // namespace cudnnsetup
