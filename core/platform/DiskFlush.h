#pragma once

#include <QString>

namespace cudnnsetup {

// Makes a written file durable: its data and metadata reach the disk (fsync on Linux,
// FlushFileBuffers on Windows). An install flushes what it staged before its commit point, so a
// crash or power cut can never leave a half-written DLL behind a committed journal.
// False, with `error` set, when the file cannot be opened or flushed.
bool flushFileToDisk(const QString &hostPath, QString *error = nullptr);

} // namespace cudnnsetup
