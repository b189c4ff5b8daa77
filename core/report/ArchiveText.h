#pragma once

#include <QString>

namespace cudnnsetup {

struct ArchiveReport;

// The inspection as a plain, translated text for a terminal (`cudnnctl inspect`).
QString archiveText(const ArchiveReport &report);

} // namespace cudnnsetup
