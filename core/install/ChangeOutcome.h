#pragma once

#include "common/Finding.h"
#include "install/ArchiveCustody.h"
#include "install/Operation.h"
#include "install/PathEditor.h"
#include "install/Receipt.h"
#include "install/StateFolders.h"
#include "install/Transaction.h"
#include "platform/Elevation.h"
#include "platform/FilesInUse.h"
#include "platform/PersistentEnvironment.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cudnnsetup {

// How an install, uninstall or repair is to go, and what it answers.
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
    // by default the install stops and names the programs; with this, the old file is renamed beside
    // itself for the programs that hold it and the new one takes its place for all programs started
    // from now on (exit 3010: a restart brings every program to the new one). Administrators only:
    // what stays loaded is removed at the next start of Windows.
    bool replaceInUse = false;
    // Who answers for the archive besides NVIDIA's checksums (needsNvidiasArchive).
    ArchiveVouching archiveVouching;
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

    // What a change (install, uninstall, repair) answers while another one holds the machine's lock:
    // `refusal` says whether this account may not even open it, and who holds it where known.
    static ChangeOutcome busy(const InstallLock::Refusal &refusal = {});

    // It changed the system now (Done, DoneRestartNeeded).
    bool changedNow() const;
    // What was asked is in place: changed now, or found done already (AlreadyDone).
    bool succeeded() const;
    // The Windows installer codes fleet tools understand: 0, 3010, 1602, 1603, 1618.
    int exitCode() const;
    // Done now, and it wrote PATH or a variable: programs already running keep the old values.
    bool changedEnvironment() const;
    QString statusName() const;
    QJsonObject toJson() const; // schema cudnn-setup/change/1
};

// The machine's install lock, held for a change, and what was set aside in the machine's state
// folder on the way (StateFolders::prepare): findings the change's outcome carries.
struct ChangeLock
{
    std::unique_ptr<InstallLock> lock;
    Findings setAside;
};

// The machine's install lock, taken for a change by `elevation`'s process (StateFolders::tryLock),
// or the outcome of a change that finds it held (ChangeOutcome::busy), or that fails because the
// machine's state folder cannot be made ready for it.
Expected<ChangeLock, ChangeOutcome> lockForChange(const StateFolders &folders, const SystemContext &context,
                                                  const Elevation &elevation);

} // namespace cudnnsetup
