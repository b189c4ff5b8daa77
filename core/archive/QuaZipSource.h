#pragma once

#include "archive/ZipSource.h"

namespace cudnnsetup {

// The QuaZip backend: QuaZip 1.4's bundled unzip, reading through an ObservedFile.
Expected<std::unique_ptr<ZipSource>> openWithQuaZip(const QString &hostPath, const ReadObserver &observer);

} // namespace cudnnsetup
