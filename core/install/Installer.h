#pragma once

#include "archive/ArchiveInspector.h"
#include "install/InstallTarget.h"
#include "install/Operation.h"
#include "install/PathEditor.h"
#include "install/Receipt.h"
#include "install/Transaction.h"
#include "platform/Elevation.h"
#include "platform/FilesInUse.h"
#include "platform/InstallLock.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cudnnsetup {

// Where cuDNN Setup keeps its journal, its receipts and the files installs replaced (host paths):
// for the machine %ProgramData%\cuDNN Setup (Linux /var/lib/cudnn-setup), for the user
// %LOCALAPPDATA%\cuDNN Setup (Linux ~/.local/share/cudnn-setup); inside --system-root's tree.
struct StateFolders
{
    QString machine;
    QString user;

    static StateFolders of(const SystemContext &context);
    // Where an install into `target` by `elevation`'s process keeps its journal and receipt: the
    // machine folder for a machine-wide target, or any change an elevated process makes to the
    // running system; else the user's.
    QString forTarget(const InstallTarget &target, const SystemContext &context,
                      const Elevation &elevation) const;
    QString journal(const QString &folder) const { return folder + QStringLiteral("/transaction.journal"); }
    QString receipts(const QString &folder) const { return folder + QStringLiteral("/receipts"); }
    // The one lock of the machine (its file, where a lock file is used): in the machine folder, or
    // where this process cannot write there (Linux, not root) and so changes nothing machine-wide,
    // in its user folder.
    QString lockFile() const;
    // Takes that lock, the running system's or the rooted tree's; nullptr when another holds it.
    // An elevated process makes the machine folder ready first (prepare), so that all elevated
    // changes share one lock.
    std::unique_ptr<InstallLock> tryLock(const SystemContext &context, const Elevation &elevation,
                                         bool *shutOut = nullptr) const;
    // Makes the state folder `folder` (machine or user) ready to be written. The machine folder,
    // where the system keeps owners and ACLs (Windows), is made only by an elevated process, and
    // with security::adminsOnlySddl(), so that no one else can put a journal or receipt in it; one
    // that others can change (made by an older version, or by hand) is given that descriptor again
    // by an elevated process. A link or junction in its place is refused. The error says why it
    // cannot be made.
    Expected<void> prepare(const QString &folder, const SystemContext &context,
                           const Elevation &elevation) const;

    InstallLock::Scope lockScope = InstallLock::Scope::RunningSystem;
};

struct ChangeOptions
{
    bool dryRun = false;
    // Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY (for building OpenCV, ONNX Runtime,
    // TensorFlow from source), in this scope.
    std::optional<EnvironmentScope> cudnnVariables;
    // The PATH fixes the user chose among those PathEditor::analyse offered (never applied unasked).
    QList<PathFix> pathFixes;
    Transaction::Progress progress;
    std::function<void(qint64, qint64)> bytesProgress;
    std::function<bool()> cancelled;
    // The window that owns a consent prompt this change brings up (an HWND; the wizard's), or 0.
    quintptr ownerWindow = 0;
    std::function<bool(const FaultPoint &)> crashAt; // tests: stop dead at a point
    // A file to be replaced that a running program holds (a python.exe holding cudnn64_8.dll):
    // by default the install stops and names the programs; with this, the new file waits beside
    // the old one and Windows swaps them at the next start (exit 3010).
    bool replaceInUseAtReboot = false;
    // The machine's answers, replaced in tests (the host's when null).
    const Elevation *elevation = nullptr;
    const FilesInUse *filesInUse = nullptr;
};

struct ChangeOutcome
{
    enum class Status
    {
        Done,
        DoneRestartNeeded, // done, but files in use are swapped at the next start of Windows
        AlreadyDone,       // the same archive is installed there already, intact: nothing to do
        DryRun,
        Cancelled,
        Failed,  // nothing changed (refused before, or rolled back)
        Busy,    // another install holds the machine's lock
        Crashed, // tests: a fault point stopped it; the journal waits for recovery
    };
    Status status = Status::Failed;
    std::optional<Receipt> receipt;
    QString receiptPath; // host path
    QStringList plan;    // what it does (or did), step by step, in the user's language
    Findings findings;

    // What a change (install, uninstall, repair) answers while another one holds the machine's lock;
    // `shutOut`: this account may not even open it (InstallLock::tryAcquire).
    static ChangeOutcome busy(bool shutOut = false);

    // The Windows installer codes fleet tools understand: 0, 3010, 1602, 1603, 1618.
    int exitCode() const;
    QString statusName() const;
    QJsonObject toJson() const; // schema cudnn-setup/change/1
};

// Installs the files of an inspected archive (verdict ok) into `target` as one transaction: unpack
// into staging on the target's volume, create the folders, rename each file into place (keeping
// what it replaces), zlibwapi.dll where the DLLs import it and none is found, the venv's .pth,
// PATH and the CUDNN_* variables, the receipt; under the machine's install lock.
ChangeOutcome install(const QString &archivePath, const ArchiveReport &archive, const InstallTarget &target,
                      const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                      const ChangeOptions &options = {});

// Reverses the install of receipt `id` (empty: the only one there is): refuses when a file it placed
// changed since (and names them), else removes its files, puts back the ones it replaced, takes its
// PATH entry out and its variables back, and drops the receipt.
ChangeOutcome uninstall(const QString &id, const SystemContext &context,
                        std::shared_ptr<PersistentEnvironment> environment,
                        const ChangeOptions &options = {});

// The per-user part of a machine-wide install that ran elevated: this user's PATH entry and
// variables, changed by this user's own process (an elevated run's HKCU may be another account's),
// with a receipt of its own (`partOf` the machine-wide one) in this user's folder.
ChangeOutcome installUserPart(const Receipt &machineWide, const InstallTarget &target,
                              std::optional<EnvironmentScope> userVariables, const SystemContext &context,
                              std::shared_ptr<PersistentEnvironment> environment,
                              const ChangeOptions &options = {});

// Every receipt on the system, machine ones first; with the host path each was read from. A
// receipt cuDNN Setup cannot have written (StateTrust) is left out and set aside; `refused`, when
// given, gets a finding for each.
// `elevation` is the process that is to act on them.
QList<std::pair<Receipt, QString>> installedReceipts(const SystemContext &context,
                                                     Findings *refused = nullptr,
                                                     const Elevation &elevation = Elevation::host());

// At start: settles a journal a dead install left, if the machine's lock can be taken (an install
// that is running, such as the one that started this process, is left alone). A journal is
// replayed only by a process at the integrity level of the one that wrote it (`elevation` says
// which this one is), and only when StateTrust finds nothing to doubt in it; a doubted one is set
// aside and named in a finding, and the run goes on.
Findings recoverUnfinished(const SystemContext &context, std::shared_ptr<PersistentEnvironment> environment,
                           const Elevation &elevation = Elevation::host());

} // namespace cudnnsetup
