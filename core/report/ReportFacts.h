#pragma once

#include "report/ReportFiles.h"

#include <QDateTime>
#include <QString>

namespace cudnnsetup {

// What report.json, report.html and environment_versions.txt say alike.
namespace reportfacts {

QString isoTime(const QDateTime &time); // UTC, ISO 8601; empty for an invalid time
// The cuDNN a freshly started process loads: what the probe saw when there was one, else what
// detection worked out from the search order. `version` receives its version.
QString loadedCudnn(const ReportInput &input, QString *version);

} // namespace reportfacts

} // namespace cudnnsetup
