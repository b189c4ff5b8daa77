#include "session/InspectionJob.h"

namespace cudnnsetup {

InspectionJob::InspectionJob(QString hostPath, KnowledgeBase database, QObject *parent)
    : BackgroundJob(QStringLiteral("inspection"), parent)
    , m_path(std::move(hostPath))
    , m_database(std::move(database))
{
}

void InspectionJob::start()
{
    InspectOptions options;
    // Whole percents only: a 700 MB archive would otherwise post thousands of events.
    auto lastPercent = std::make_shared<std::atomic<int>>(-1);
    options.progress = [this, lastPercent](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(done * 100 / total) : 0;
        if (lastPercent->exchange(percent) != percent)
            post([this, percent] { Q_EMIT progress(percent / 100.0); });
    };
    run(
        [path = m_path, database = m_database, options](const CancelToken &token) mutable {
            options.cancelled = token.asked();
            return inspectArchive(path, database.publishedArchives(), options);
        },
        [this](const Expected<ArchiveReport> &result) {
            if (cancelToken().requested())
                Q_EMIT cancelled();
            else if (result)
                Q_EMIT finished(*result);
            else
                Q_EMIT failed(result.error());
        });
}

} // namespace cudnnsetup
