#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace cudnnsetup {

// Runs detection on a worker thread and reports back on the thread that started it:
// progress(fraction, text) while it runs, finished(snapshot) at the end. Cancel() asks the probes
// to stop early; a cancelled job emits cancelled() instead of finished().
class DetectionJob final : public QObject
{
    Q_OBJECT

public:
    explicit DetectionJob(SystemContext context, DetectOptions options = {}, QObject *parent = nullptr);
    ~DetectionJob() override;

    void start();
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void progress(double fraction, const QString &text);
    void finished(const cudnnsetup::SystemSnapshot &snapshot);
    void cancelled();

private:
    SystemContext m_context;
    DetectOptions m_options;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<SystemSnapshot> m_watcher;
};

} // namespace cudnnsetup
