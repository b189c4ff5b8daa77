#pragma once

#include "install/Installer.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace cudnnsetup {

// Runs uninstall() of one receipt on a worker thread and reports finished(outcome) on the thread
// that started it. An uninstall is one short transaction that rolls back on failure, so it offers
// no cancel.
class UninstallJob final : public QObject
{
    Q_OBJECT

public:
    // `ownerWindow`: the window a consent prompt belongs to (an HWND), or 0.
    UninstallJob(QString receiptId, SystemContext context, std::shared_ptr<PersistentEnvironment> environment,
                 quintptr ownerWindow, QObject *parent = nullptr);
    // Waits for the worker: an uninstall is never left half done.
    ~UninstallJob() override;

    void start();
    // From start() until finished() has been emitted.
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const cudnnsetup::ChangeOutcome &outcome);

private:
    QString m_receiptId;
    SystemContext m_context;
    std::shared_ptr<PersistentEnvironment> m_environment;
    quintptr m_ownerWindow = 0;
    QFutureWatcher<ChangeOutcome> m_watcher;
    QElapsedTimer m_clock;
    bool m_running = false;
};

} // namespace cudnnsetup
