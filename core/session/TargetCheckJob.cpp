#include "session/TargetCheckJob.h"

#include "common/Logging.h"
#include "install/ElevatedChange.h"
#include "install/TargetChecks.h"

#include <utility>

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
            Findings findings = checkTarget(target, archive, context);
            // Said here, before Install is pressed, when the archive's checksum is known: what the
            // install would refuse (an elevated helper acts for this process and vouches for nothing).
            ArchiveVouching vouching = planned.archiveVouching;
            vouching.actingForAnother =
                vouching.actingForAnother ||
                needsElevation(target, archive, planned, context, context.elevation());
            qCInfo(lcSession).noquote()
                << "archive" << archive.path << "official" << archive.officialName() << "sha256"
                << archive.sha256 << "must be NVIDIA's" << needsNvidiasArchive(target, context, vouching);
            if (!archive.sha256.isEmpty()) {
                if (std::optional<Finding> refusal =
                        unverifiedArchiveRefusal(archive, target, context, vouching))
                    findings.append(*refusal);
            }
            return std::pair(withElevationOffered(findings, target, planned, context, context.elevation()),
                             freeBytesAt(target, context, context.volumes()));
        },
        [this](const std::pair<Findings, qint64> &result) { Q_EMIT checked(result.first, result.second); });
}

} // namespace cudnnsetup
