#pragma once

#include <QString>

namespace cudnnsetup {

struct DownloadProgress;
struct DownloadReport;

// `cudnnctl download` for people: the verdict, the file and where it came from, how it was checked.
QString downloadText(const DownloadReport &report);
// One progress line: "45 % · 312.4 MB of 683.3 MB · 45.2 MB/s · 8 s left".
QString downloadProgressText(const DownloadProgress &progress);

} // namespace cudnnsetup
