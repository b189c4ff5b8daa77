#include "session/DownloadJob.h"

#include <QElapsedTimer>

namespace cudnnsetup {

DownloadJob::DownloadJob(DownloadRequest request, KnowledgeBase database, QObject *parent)
    : BackgroundJob(QStringLiteral("download"), parent)
    , m_request(std::move(request))
    , m_database(std::move(database))
{
}

void DownloadJob::start()
{
    DownloadRequest request = m_request;
    // A few updates a second: a fast connection would otherwise post one for every piece read.
    auto lastPost = std::make_shared<QElapsedTimer>();
    request.progress = [this, lastPost](const DownloadProgress &now) {
        if (lastPost->isValid() && lastPost->elapsed() < 250 && now.done != now.total)
            return;
        lastPost->start();
        post([this, now] { Q_EMIT progress(now); });
    };
    run(
        [request, database = m_database](const CancelToken &token) mutable {
            request.cancel = token;
            return downloadArchive(request, database);
        },
        [this](const DownloadReport &report) { Q_EMIT finished(report); });
}

} // namespace cudnnsetup
