#pragma once

#include "common/Expected.h"
#include "compat/KnowledgeBase.h"
#include "detect/DetectOptions.h"
#include "doctor/Doctor.h"
#include "install/InstallPlan.h"
#include "install/Installer.h"
#include "platform/SystemContext.h"
#include "session/TargetConfig.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace cudnnsetup {

// An install as the command line asks for it (`cudnnctl install` and `cudnn-setup --unattended`):
// the archive, and where it goes as TargetConfig::fromOptions checked it, so both answer bad input
// the same way (exit 87).
struct InstallRequest
{
    QString archive;     // the archive (host path)
    TargetConfig target; // --target, --path, --cudnn-variables, --if-in-use
    bool dryRun = false;
    DetectOptions detect;
    // When the target needs administrator rights this process lacks: the cudnnctl that makes the
    // change elevated, and what it gets beside the install's own arguments (--lang).
    QString elevatedProgram;
    QStringList elevatedArguments;
};

// Inspects the archive, detects the system, resolves request.target against both into one
// InstallPlan and installs it (elevated through request.elevatedProgram where needed); `options`
// brings what the caller sets itself. An error "request.invalid" (or the archive's or the target's
// own) is input that cannot be installed at all: nothing was tried, the caller answers 87.
Expected<ChangeOutcome> installRequested(const InstallRequest &request, const ChangeOptions &options,
                                         const SystemContext &context,
                                         std::shared_ptr<PersistentEnvironment> environment,
                                         const KnowledgeBase &kb);

// Installs `plan` from the archive as `report` inspected it (at report.path): by this process, or,
// where the plan needs rights this process lacks and `elevatedProgram` (cudnnctl) is given, by that
// program run elevated, handed the sealed plan, with `elevatedArguments` (--lang). The plan says
// where, the variables, the in-use option and the PATH fixes; `options` how the change goes
// (progress, cancel, a dry run). What the wizard, cudnnctl, answer files and the elevated helper all call.
ChangeOutcome installPlanned(const InstallPlan &plan, const ArchiveReport &report, ChangeOptions options,
                             const QString &elevatedProgram, const QStringList &elevatedArguments,
                             const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                             const KnowledgeBase &kb = KnowledgeBase::embedded());

// In the elevated helper of another process: installs the plan in `planFile` (InstallPlan), read only
// when its SHA-256 is `seal`, the one on the command line the administrator approved. The plan is
// checked on arrival: its target must be the one this process derives itself from the target's
// kind, folder and PATH scope (a toolkit found here, a venv that is one), no folder of it or above
// it may be changed by others than the administrators ("install.target-others-may-change"), each
// PATH fix must be one this process's own analysis of that PATH offers ("plan.invalid"), and the
// archive taken into custody must be the one the plan names by its SHA-256. A refused plan changes
// nothing.
ChangeOutcome installHandedOverPlan(const QString &planFile, const QString &seal,
                                    const SystemContext &context,
                                    std::shared_ptr<PersistentEnvironment> environment, ChangeOptions options,
                                    const DetectOptions &detect, const KnowledgeBase &kb);
// installHandedOverPlan once the plan is read.
ChangeOutcome installPlan(const InstallPlan &plan, const SystemContext &context,
                          std::shared_ptr<PersistentEnvironment> environment, ChangeOptions options,
                          const DetectOptions &detect, const KnowledgeBase &kb);

// What an elevated helper (cudnnctl) gets besides the change's own arguments: the language, never a
// file of the caller's choosing (a --log or --compat-db; it ignores them anyway).
QStringList elevatedHelperArguments();

// `uninstall` of receipt `id` (empty: the only one), then what goes with it: this user's part of a
// machine-wide install (changed by this process) and the recorded verification. Where that needs
// administrator rights this process lacks (uninstallNeedsElevation), the machine-wide part is
// removed by `elevatedProgram` (cudnnctl) run elevated, with `elevatedArguments` (--lang).
ChangeOutcome uninstallWithParts(const QString &id, const ChangeOptions &options,
                                 const SystemContext &context,
                                 std::shared_ptr<PersistentEnvironment> environment,
                                 const QString &elevatedProgram = QString(),
                                 const QStringList &elevatedArguments = {});

// Applies `repairs`. Those that change what only an administrator may (Repair::needsAdministrator),
// asked for by a process that is not elevated on the running system, go to `elevatedProgram`
// (cudnnctl doctor --request) run elevated, with `elevatedArguments` (--lang), and the rest are
// applied by this process afterwards (repairElevated); otherwise all here, in one transaction.
ChangeOutcome repairWithElevation(const QList<Repair> &repairs, const ChangeOptions &options,
                                  const SystemContext &context,
                                  std::shared_ptr<PersistentEnvironment> environment,
                                  const QString &elevatedProgram = QString(),
                                  const QStringList &elevatedArguments = {});
// The machine-wide repairs of `repairs` by `program` run elevated, the others then by this process,
// whose PATH and variables are the user's also when another account approved the prompt. A
// declined prompt changes nothing and is "cancelled".
ChangeOutcome repairElevated(const QString &program, const QList<Repair> &repairs,
                             const QStringList &extraArguments, const ChangeOptions &options,
                             const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                             const Elevation &elevation);
// In the elevated process: the machine-wide repairs in the request file `requestFile`, applied only
// when each is one the doctor makes (repairs::handedOverDoubt); an archive they unpack is first
// copied into the machine's state folder, where only administrators can change it, and inspected
// there. A doubted request changes nothing ("repair.refused").
ChangeOutcome applyHandedOverRepairs(const QString &requestFile, const SystemContext &context,
                                     std::shared_ptr<PersistentEnvironment> environment,
                                     const KnowledgeBase &kb, const ChangeOptions &options = {});

} // namespace cudnnsetup
