#include "install/ChangeOutcome.h"

#include <QJsonArray>

namespace cudnnsetup {

ChangeOutcome ChangeOutcome::busy(const InstallLock::Refusal &refusal)
{
    ChangeOutcome outcome;
    outcome.status = Status::Busy;
    const QString details = refusal.holder.isEmpty()
                                ? QStringLiteral("%1 is held").arg(refusal.lockFile)
                                : QStringLiteral("%1 is held, %2").arg(refusal.lockFile, refusal.holder);
    if (!refusal.shutOut) {
        outcome.findings.append(Finding::error(
            QStringLiteral("install.busy"),
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "Another install, uninstall or repair of cuDNN is running.")),
            details, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Wait until it has finished, then try again."))));
        return outcome;
    }
    outcome.findings.append(Finding::error(
        QStringLiteral("install.busy"),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Another account holds cuDNN Setup's lock, and this one may not even open it: a "
                          "change may be running under that account, or a program is keeping the lock "
                          "to block installs.")),
        details + QStringLiteral("; it shuts this account out"),
        Text(
            QT_TRANSLATE_NOOP("cudnnsetup",
                              "Wait until it has finished. If it stays so after a restart of Windows, ask an "
                              "administrator to find the program that holds %1 (Process Explorer: Find "
                              "Handle) and end it."))
            .arg(refusal.lockFile)));
    return outcome;
}

bool ChangeOutcome::changedNow() const
{
    return status == Status::Done || status == Status::DoneRestartNeeded;
}

bool ChangeOutcome::succeeded() const
{
    return changedNow() || status == Status::AlreadyDone;
}

bool ChangeOutcome::changedEnvironment() const
{
    return changedNow() && receipt && !receipt->environment.isEmpty();
}

int ChangeOutcome::exitCode() const
{
    switch (status) {
    case Status::Done:
    case Status::AlreadyDone:
    case Status::DryRun:
        return 0;
    case Status::DoneRestartNeeded:
        return 3010;
    case Status::Cancelled:
        return 1602;
    case Status::Busy:
        return 1618;
    case Status::Failed:
    case Status::Crashed:
        return 1603;
    }
    return 1603;
}

QString ChangeOutcome::statusName() const
{
    switch (status) {
    case Status::Done:
        return QStringLiteral("done");
    case Status::DoneRestartNeeded:
        return QStringLiteral("done-restart-needed");
    case Status::AlreadyDone:
        return QStringLiteral("already-done");
    case Status::DryRun:
        return QStringLiteral("dry-run");
    case Status::Cancelled:
        return QStringLiteral("cancelled");
    case Status::Failed:
        return QStringLiteral("failed");
    case Status::Busy:
        return QStringLiteral("busy");
    case Status::Crashed:
        return QStringLiteral("crashed");
    }
    return {};
}

QJsonObject ChangeOutcome::toJson() const
{
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    return {{QStringLiteral("schema"), QStringLiteral("cudnn-setup/change/1")},
            {QStringLiteral("status"), statusName()},
            {QStringLiteral("exitCode"), exitCode()},
            {QStringLiteral("receipt"), receipt ? QJsonValue(receipt->toJson()) : QJsonValue()},
            {QStringLiteral("receiptPath"), receiptPath.isEmpty() ? QJsonValue() : QJsonValue(receiptPath)},
            {QStringLiteral("plan"), QJsonArray::fromStringList(plan)},
            {QStringLiteral("findings"), findingArray}};
}

Expected<ChangeLock, ChangeOutcome> lockForChange(const StateFolders &folders, const SystemContext &context,
                                                  const Elevation &elevation)
{
    StateFolders::LockNotes notes;
    std::unique_ptr<InstallLock> lock = folders.tryLock(context, elevation, &notes);
    if (lock)
        return ChangeLock{std::move(lock), notes.setAside};
    ChangeOutcome outcome;
    if (notes.unprepared) {
        outcome.status = ChangeOutcome::Status::Failed;
        outcome.findings.append(*notes.unprepared);
    } else {
        outcome = ChangeOutcome::busy(notes.held);
    }
    outcome.findings = notes.setAside + outcome.findings;
    return outcome;
}

} // namespace cudnnsetup
