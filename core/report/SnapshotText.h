#pragma once

#include <QString>

namespace cudnnsetup {

struct SystemSnapshot;

// The snapshot as a plain, translated text table for a terminal (`cudnnctl detect`).
QString snapshotText(const SystemSnapshot &snapshot);

} // namespace cudnnsetup
