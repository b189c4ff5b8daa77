#pragma once

#include "install/Installer.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"
#include "session/BackgroundJob.h"

#include <memory>

namespace cudnnsetup {

// uninstall() of one receipt on a worker thread, finished(outcome) at the end. An uninstall is one
// short transaction that rolls back on failure: it is not cancelled, and the destructor waits for it.
class UninstallJob final : public BackgroundJob
{
    Q_OBJECT

public:
    // `ownerWindow`: the window a consent prompt belongs to (an HWND), or 0.
    UninstallJob(QString receiptId, SystemContext context, std::shared_ptr<PersistentEnvironment> environment,
                 quintptr ownerWindow, QObject *parent = nullptr);

    void start();

Q_SIGNALS:
    void finished(const cudnnsetup::ChangeOutcome &outcome);

private:
    QString m_receiptId;
    SystemContext m_context;
    std::shared_ptr<PersistentEnvironment> m_environment;
    quintptr m_ownerWindow = 0;
};

} // namespace cudnnsetup
