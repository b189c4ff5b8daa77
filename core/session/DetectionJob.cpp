#include "session/DetectionJob.h"

#include "detect/Detector.h"

namespace cudnnsetup {

DetectionJob::DetectionJob(SystemContext context, DetectOptions options, QObject *parent)
    : BackgroundJob(QStringLiteral("detection"), parent)
    , m_context(std::move(context))
    , m_options(std::move(options))
{
}

void DetectionJob::start()
{
    DetectOptions options = m_options;
    options.progress = [this](double fraction, const QString &text) {
        post([this, fraction, text] { Q_EMIT progress(fraction, text); });
    };
    run(
        [context = m_context, options](const CancelToken &token) mutable {
            options.cancel = token.flag();
            return detectSystem(context, options);
        },
        [this](const SystemSnapshot &snapshot) {
            if (cancelToken().requested())
                Q_EMIT cancelled();
            else
                Q_EMIT finished(snapshot);
        });
}

} // namespace cudnnsetup
