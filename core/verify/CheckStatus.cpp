#include "verify/CheckStatus.h"

namespace cudnnsetup {

QString checkStatusName(CheckStatus status)
{
    switch (status) {
    case CheckStatus::Passed:
        return QStringLiteral("passed");
    case CheckStatus::Failed:
        return QStringLiteral("failed");
    case CheckStatus::Skipped:
        break;
    }
    return QStringLiteral("skipped");
}

std::optional<CheckStatus> checkStatusFromName(const QString &name)
{
    for (CheckStatus status : {CheckStatus::Passed, CheckStatus::Failed, CheckStatus::Skipped}) {
        if (checkStatusName(status) == name)
            return status;
    }
    return std::nullopt;
}

} // namespace cudnnsetup
