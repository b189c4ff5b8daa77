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

// Why the per-user parts of a change cannot go with an elevated run (whose HKCU is the approving
// administrator's, not this user's): the user PATH or user variables asked for. nullopt when none.
std::optional<Finding> userPartsOfElevatedChange(const InstallTarget &target, const ChangeOptions &options);

// The target's findings as a run that can ask for administrator rights sees them: "the folder
// needs an administrator" becomes a note that Windows will ask, when asking can work and nothing
// per-user has to travel with it. Otherwise the findings as they are.
Findings withElevationOffered(Findings findings, const InstallTarget &target, const ChangeOptions &options,
                              const SystemContext &context, const Elevation &elevation);

// The cudnnctl arguments that make the same install in another process (the elevated one).
QStringList installArguments(const QString &archivePath, const InstallTarget &target,
                             const ChangeOptions &options);

// Runs `program arguments --result FILE` with administrator rights (the UAC prompt) and reads back
// the outcome it wrote. A declined prompt is "cancelled" with "elevation.declined": nothing
// changed. The elevated process takes the machine's lock itself; this one holds nothing meanwhile.
ChangeOutcome runChangeElevated(const QString &program, const QStringList &arguments,
                                const Elevation &elevation);

// The outcome as `--json` prints it (schema cudnn-setup/change/1), read back.
ChangeOutcome changeOutcomeFromJson(const QJsonObject &object);

} // namespace cudnnsetup
