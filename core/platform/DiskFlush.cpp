#include "platform/DiskFlush.h"

#include <QFile>

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <io.h>
#else
#include <cerrno>
#include <cstring>

#include <unistd.h>
#endif

namespace cudnnsetup {

bool flushFileToDisk(const QString &hostPath, QString *error)
{
    // Windows needs write access to flush a file's buffers; Linux flushes through any descriptor.
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadWrite)) {
        if (error)
            *error = file.errorString();
        return false;
    }
#ifdef Q_OS_WIN
    const HANDLE handle = reinterpret_cast<HANDLE>(_get_osfhandle(file.handle()));
    const bool flushed = FlushFileBuffers(handle) != 0;
    if (!flushed && error)
        *error = QStringLiteral("FlushFileBuffers failed (%1)").arg(GetLastError());
#else
    const bool flushed = fsync(file.handle()) == 0;
    if (!flushed && error)
        *error = QString::fromLocal8Bit(strerror(errno));
#endif
    return flushed;
}

} // namespace cudnnsetup
