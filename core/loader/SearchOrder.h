#pragma once

#include <QStringList>

namespace cudnnsetup {

class SystemContext;

// The folders a freshly started process searches for a library by name, in order (Windows:
// System32, the Windows folder, then PATH as the registry now says, else as this process has it;
// Linux: LD_LIBRARY_PATH, /etc/ld.so.conf in order, the default folders).
QStringList librarySearchOrder(const SystemContext &context);

} // namespace cudnnsetup
