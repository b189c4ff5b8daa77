#include "session/TargetCheckJob.h"

#include "install/ElevatedChange.h"
#include "install/TargetChecks.h"

namespace cudnnsetup {

TargetCheckJob::TargetCheckJob(InstallTarget target, ArchiveReport archive, SystemContext context,
                               ChangeOptions planned, QObject *parent)
    : BackgroundJob(QStringLiteral("target check"), parent)
    , m_target(std::move(target))
    , m_archive(std::move(archive))
    , m_context(std::move(context))
    , m_planned(std::move(planned))
{
}

void TargetCheckJob::start()
{
    run(
        [target = m_target, archive = m_archive, context = m_context,
         planned = m_planned](const CancelToken &) {
            return withElevationOffered(checkTarget(target, archive, context), target, planned, context,
                                        Elevation::host());
        },
        [this](const Findings &findings) { Q_EMIT checked(findings); });
}

} // namespace cudnnsetup
