#pragma once

#include "detect/DetectOptions.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"
#include "session/BackgroundJob.h"

namespace cudnnsetup {

// Detection on a worker thread: progress(fraction, text) while it runs, finished(snapshot) at the
// end. cancel() asks the probes to stop early; a cancelled job emits cancelled() instead.
class DetectionJob final : public BackgroundJob
{
    Q_OBJECT

public:
    explicit DetectionJob(SystemContext context, DetectOptions options = {}, QObject *parent = nullptr);

    void start();

Q_SIGNALS:
    void progress(double fraction, const QString &text);
    void finished(const cudnnsetup::SystemSnapshot &snapshot);

private:
    SystemContext m_context;
    DetectOptions m_options;
};

} // namespace cudnnsetup
