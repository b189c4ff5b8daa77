#pragma once

#include "archive/ZipSource.h"

namespace cudnnsetup {

// The minizip backend: zlib's contrib/minizip 1.1 used directly (linked under renamed symbols, see
// cmake/Minizip.cmake), reading through an ObservedFile.
Expected<std::unique_ptr<ZipSource>> openWithMinizip(const QString &hostPath, const ReadObserver &observer);

} // namespace cudnnsetup
