#include "session/VerifyJob.h"

#include "common/Logging.h"

namespace cudnnsetup {

VerifyJob::VerifyJob(SystemContext context, SystemSnapshot snapshot, VerifySubject subject,
                     VerifyOptions options, QObject *parent)
    : BackgroundJob(QStringLiteral("verification"), parent)
    , m_context(std::move(context))
    , m_snapshot(std::move(snapshot))
    , m_subject(std::move(subject))
    , m_options(std::move(options))
{
}

void VerifyJob::start()
{
    VerifyOptions options = m_options;
    options.stageDone = [this](const VerifyStage &stage) {
        post([this, stage] { Q_EMIT stageFinished(stage); });
    };
    qCInfo(lcSession) << "verifying" << m_subject.directory << "from the" << m_subject.source
                      << m_subject.receiptId;
    run(
        [context = m_context, snapshot = m_snapshot, subject = m_subject,
         options](const CancelToken &token) mutable {
            options.cancel = token.flag();
            return verify(context, snapshot, subject, options);
        },
        [this](const VerifyReport &report) {
            if (cancelToken().requested()) {
                Q_EMIT cancelled();
                return;
            }
            qCInfo(lcSession) << "verification of" << report.directory
                              << (report.passed() ? "passed" : "failed");
            Q_EMIT finished(report);
        });
}

} // namespace cudnnsetup
