#pragma once

#include "install/InstallPlan.h"
#include "install/Installer.h"
#include "platform/Elevation.h"
#include "platform/FileSecurity.h"

#include <QString>
#include <QStringList>

namespace cudnnsetup {

// Whether installing `archive` into `target` needs rights this process does not have, asked for by
// a process that is not elevated on the running system: the system PATH or variables, a
// machine-wide folder (InstallTarget::needsAdmin), or folders and files that the target check's
// write and replace tests find only an administrator may change (target.needs-admin), wherever
// they are.
bool needsElevation(const InstallTarget &target, const ArchiveReport &archive, const ChangeOptions &options,
                    const SystemContext &context, const Elevation &elevation);

// The target's findings as a run that can ask for administrator rights sees them: "the folder
// needs an administrator" becomes a note that Windows will ask, when asking can work. Otherwise the
// findings as they are.
Findings withElevationOffered(Findings findings, const InstallTarget &target, const ChangeOptions &options,
                              const SystemContext &context, const Elevation &elevation);

// `plan` as another process (the elevated one) makes the same install from it: the target and the
// archive as another logon session reaches them (it sees neither this one's subst drives nor its
// network drives), the archive named by its SHA-256 (taken here when the plan has none).
Expected<InstallPlan> planForAnotherProcess(const InstallPlan &plan);
// The helper's command line for `sealed` (InstallPlan::sealedBytes(), handed over as its --request
// file): "install --plan-sha256 SEAL --json". The seal travels on the command line the
// administrator approves; the file lies where the requester could still change it.
QStringList planArguments(const QByteArray &sealed);

// Runs `program arguments --exchange NONCE --requester SID` with administrator rights (the UAC
// prompt), in Elevation::helperStartFolder(), and reads back the outcome it wrote where
// exchange::resultFile() says, in `context`'s machine state folder. A declined prompt is "cancelled"
// with "elevation.declined": nothing changed. The elevated process takes the machine's lock itself;
// this one holds nothing meanwhile. A `request` goes to the elevated process as the file named by
// --request, in a folder given security::exchangeSddl() (this account, SYSTEM and the
// Administrators) through `context`'s file security; it only reads it. On the running system a `program` in a
// folder that others than the administrators may change is not run ("elevation.helper-writable"):
// whoever can swap it would get the rights. The consent prompt is owned by options.ownerWindow; once
// options.cancelled() says so, the elevated run is told to stop (the file its --cancel-file names
// appears) and rolls back, while this one waits for it to end.
ChangeOutcome runChangeElevated(const QString &program, const QStringList &arguments,
                                const Elevation &elevation, const SystemContext &context,
                                const ChangeOptions &options = {}, const QByteArray &request = {});

// A machine-wide install of `plan` from a process that is not elevated: the files (and system PATH
// and variables) by an elevated `program` (cudnnctl), handed the sealed plan, then this user's PATH
// entry and variables by this process, whose HKCU is the user's (an elevated run's may be the
// approving administrator's). If the per-user part fails, the elevated part is uninstalled again.
// `options` say how the change goes; `extraArguments` go to the elevated run (--lang, --system-root
// in tests).
ChangeOutcome installElevated(const QString &program, const InstallPlan &plan, const ChangeOptions &options,
                              const QStringList &extraArguments, const SystemContext &context,
                              std::shared_ptr<PersistentEnvironment> environment, const Elevation &elevation);

// Whether uninstalling `id` (empty: the only install there is) on the running system changes what
// only an administrator may change (its receipt lies in the machine's state folder) and this
// process is not elevated. `receipts`: as installedReceipts() lists them.
bool uninstallNeedsElevation(const QString &id, const QList<std::pair<Receipt, QString>> &receipts,
                             const ChangeOptions &options, const SystemContext &context,
                             const Elevation &elevation);

// The uninstall of a machine-wide install from a process that is not elevated: by an elevated
// `program` (cudnnctl uninstall), then its per-user part by this process, whose HKCU and profile
// are the user's also when another account approved the prompt. A declined prompt changes nothing
// and is "cancelled". `extraArguments` go to the elevated run (--lang, --system-root in tests).
ChangeOutcome uninstallElevated(const QString &program, const QString &id, const QStringList &extraArguments,
                                const SystemContext &context,
                                std::shared_ptr<PersistentEnvironment> environment,
                                const Elevation &elevation, const ChangeOptions &options = {});

// After the install `id` is uninstalled: its per-user part (receipts `partOf` it), in this process.
Findings uninstallUserParts(const QString &id, const SystemContext &context,
                            std::shared_ptr<PersistentEnvironment> environment);

// The outcome as `--json` prints it (schema cudnn-setup/change/1), read back.
ChangeOutcome changeOutcomeFromJson(const QJsonObject &object);

} // namespace cudnnsetup
