#pragma once

#include <QString>

#include <optional>

namespace cudnnsetup {

// How one check of a verification ended: the probe's GPU stage and every stage of the report.
enum class CheckStatus
{
    Passed,
    Failed,
    Skipped, // could not run here (no driver, no GPU, another system's files) or not asked for
};

QString checkStatusName(CheckStatus status); // "passed", "failed", "skipped"
std::optional<CheckStatus> checkStatusFromName(const QString &name);

} // namespace cudnnsetup
