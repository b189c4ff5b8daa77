#pragma once

#include "common/Finding.h"
#include "common/Text.h"
#include "platform/FileSecurity.h"
#include "platform/PersistentEnvironment.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cudnnsetup {

class FilesInUse;
class SystemContext;

// Where the operations of one transaction may hurt themselves on purpose: tests (and the killed
// child of the crash tests) stop a transaction at a chosen point, as a crash or a full disk would.
struct FaultPoint
{
    enum class Stage
    {
        BeforePerform, // the journal holds the operation's intent, nothing is done yet
        AfterPerform,  // done, the journal does not say so yet
        InsideCopy,    // a copy is partly written
        AfterCommit,   // the commit is on disk, the backups are not cleared yet (sequence: the count)
    };
    int sequence = 0;
    Stage stage = Stage::BeforePerform;
};

// What operations work with, apart from their own arguments.
class OperationContext
{
public:
    // The environment values the operations change.
    std::shared_ptr<PersistentEnvironment> environment;
    // The session's own variables (SystemRoot, USERPROFILE), which stored PATH entries name but
    // which are not stored (PathEditor::forStoredPath); none known when empty.
    std::function<QString(const QString &)> sessionVariable;
    // Where replaced files are kept until the commit (host path, on the targets' volume when it can).
    QString backupFolder;
    // Gives the folders an install creates for the system PATH their protected descriptor.
    const FileSecurity *fileSecurity = nullptr;
    // Tells a file another program holds from one this account may not change, and has Windows
    // remove a replaced file that stays loaded at its next start.
    const FilesInUse *filesInUse = nullptr;
    // True stops the transaction at that point, as if the process had died there.
    std::function<bool(const FaultPoint &)> crashAt;
    // Long operations (unpacking) report (bytes done, bytes in all) and ask whether to stop.
    std::function<void(qint64, qint64)> bytesProgress;
    std::function<bool()> cancelled;
    // Set by the transaction around each operation: its number and how it writes down, before any
    // effect, what its undo will need (the journal flushes it to disk before returning).
    int sequence = 0;
    std::function<void(const QJsonObject &)> remember;

    // Set by an operation that a fault point stopped inside (FaultPoint::Stage::InsideCopy): the
    // transaction then stops dead, as the process would have.
    bool crashedInside = false;

    bool crashes(FaultPoint::Stage stage) const { return crashAt && crashAt({sequence, stage}); }
    // The folder an operation keeps its backups in: one per operation, so an undo after a crash
    // finds them without the journal saying so.
    QString backupPath(const QString &fileName) const;

    // The context of a change on `system` (which must outlive it): the environment values it
    // changes, and the system's session variables, file security and files in use. Backups,
    // fault points and progress are the change's own to set.
    static OperationContext of(const SystemContext &system,
                               std::shared_ptr<PersistentEnvironment> environment);
};

// What OperationContext::sessionVariable tells for `context`, which must outlive its use: the
// process environment stands for the session's own variables.
std::function<QString(const QString &)> sessionVariablesOf(const SystemContext &context);

// One step of an install, uninstall or repair that can be undone, in the manner of Qt Installer
// Framework's operations, but with the log made durable: an operation is written to the on-disk
// journal (by name, with its arguments) before it runs, and what its undo needs is written down
// before anything changes; so a journal left by a crash can be rolled back by a fresh process.
//
// undo() must work after a complete perform(), after a partial one (a crash in the middle), and
// after none at all (a crash before it started), and must be safe to run twice.
class Operation
{
public:
    virtual ~Operation() = default;

    virtual QString name() const = 0;          // the name it is registered under
    virtual QJsonObject arguments() const = 0; // enough to construct it again
    virtual Text description() const = 0;      // for progress and logs
    virtual Expected<void> perform(OperationContext &context) = 0;
    // `remembered` is what perform() handed to context.remember, if it got that far.
    virtual Expected<void> undo(OperationContext &context, const QJsonObject &remembered) = 0;
    // Work after the commit point: drop the backups that only an undo needed. A failure keeps the
    // journal and every backup, and the next start finishes again; so it must be safe to run twice.
    virtual Expected<void> finish(OperationContext &context, const QJsonObject &remembered);

    // What it may change, for the check of a journal another process left (TransactionBounds):
    // the host paths it creates, replaces, moves or removes (not those it only reads), with what
    // `remembered` adds to them; and the stored environment it writes, if any.
    virtual QStringList changedPaths(const QJsonObject &remembered) const = 0;
    virtual std::optional<EnvironmentScope> changedEnvironment() const { return std::nullopt; }
    // It makes or removes empty folders only (an install's root and the folders above it that did
    // not exist), so a folder above a root is in its bounds too.
    virtual bool changesEmptyFoldersOnly() const { return false; }
    // Why `remembered` cannot be what perform() wrote down (a journal made by hand); nullopt when
    // it can be.
    virtual std::optional<QString> implausibleRecord(OperationContext &context,
                                                     const QJsonObject &remembered) const;

    // An operation from its journal entry; nullptr for a name no operation has (operations::).
    static std::unique_ptr<Operation> create(const QString &name, const QJsonObject &arguments);
    using Factory = std::function<std::unique_ptr<Operation>(const QJsonObject &arguments)>;
};

} // namespace cudnnsetup
