#pragma once

#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"
#include "verify/Verifier.h"
#include "verify/VerifyReport.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace cudnnsetup {

// Runs verify() on a worker thread and reports back on the thread that started it:
// stageFinished(stage) as each stage ends, finished(report) at the end. cancel() stops the probe
// and the interpreters it runs; a cancelled job emits cancelled() instead of finished().
class VerifyJob final : public QObject
{
    Q_OBJECT

public:
    // `options`: its cancel and stageDone are the job's own.
    VerifyJob(SystemContext context, SystemSnapshot snapshot, VerifySubject subject,
              VerifyOptions options = {}, QObject *parent = nullptr);
    // Waits for the worker; a running verification is cancelled first.
    ~VerifyJob() override;

    void start();
    void cancel();
    // From start() until finished() or cancelled() has been emitted.
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void stageFinished(const cudnnsetup::VerifyStage &stage);
    void finished(const cudnnsetup::VerifyReport &report);
    void cancelled();

private:
    SystemContext m_context;
    SystemSnapshot m_snapshot;
    VerifySubject m_subject;
    VerifyOptions m_options;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<VerifyReport> m_watcher;
    QElapsedTimer m_clock;
    bool m_running = false;
};

} // namespace cudnnsetup
