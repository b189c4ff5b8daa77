#include "session/BackgroundJob.h"

#include "common/Logging.h"

namespace cudnnsetup {

BackgroundJob::BackgroundJob(QString name, QObject *parent)
    : QObject(parent)
    , m_name(std::move(name))
{
}

BackgroundJob::~BackgroundJob()
{
    m_cancel.request();
    m_future.waitForFinished();
}

void BackgroundJob::cancel()
{
    if (m_running && !m_cancel.requested()) {
        qCInfo(lcSession).noquote() << m_name << "cancelled by the user";
        m_cancel.request();
    }
}

void BackgroundJob::logFinished() const
{
    qCInfo(lcSession).noquote() << m_name << "finished after" << m_clock.elapsed() << "ms"
                                << (m_cancel.requested() ? "(cancelled)" : "");
}

} // namespace cudnnsetup
