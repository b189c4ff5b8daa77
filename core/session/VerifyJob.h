#pragma once

#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"
#include "session/BackgroundJob.h"
#include "verify/Verifier.h"
#include "verify/VerifyReport.h"

namespace cudnnsetup {

// verify() on a worker thread: stageFinished(stage) as each stage ends, finished(report) at the
// end. cancel() stops the probe and the interpreters it runs; a cancelled job emits cancelled()
// instead of finished().
class VerifyJob final : public BackgroundJob
{
    Q_OBJECT

public:
    // `options`: its cancel and stageDone are the job's own.
    VerifyJob(SystemContext context, SystemSnapshot snapshot, VerifySubject subject,
              VerifyOptions options = {}, QObject *parent = nullptr);

    void start();

Q_SIGNALS:
    void stageFinished(const cudnnsetup::VerifyStage &stage);
    void finished(const cudnnsetup::VerifyReport &report);

private:
    SystemContext m_context;
    SystemSnapshot m_snapshot;
    VerifySubject m_subject;
    VerifyOptions m_options;
};

} // namespace cudnnsetup
