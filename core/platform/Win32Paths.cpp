#include "platform/Win32Paths.h"

#include <QDir>
#include <QFileInfo>

namespace cudnnsetup {

namespace {
constexpr qsizetype kMaxPath = 260; // Windows' MAX_PATH, with its terminating null
} // namespace

QString win32PathText(const QString &path)
{
    if (path.startsWith(QLatin1String("\\\\?\\")))
        return path;
    QString native = QDir::toNativeSeparators(
        QDir::isAbsolutePath(path) ? QDir::cleanPath(path) : QFileInfo(path).absoluteFilePath());
    if (native.size() < kMaxPath)
        return native;
    if (native.startsWith(QLatin1String("\\\\")))
        return QLatin1String("\\\\?\\UNC\\") + native.mid(2);
    return QLatin1String("\\\\?\\") + native;
}

std::wstring win32Path(const QString &path)
{
    return win32PathText(path).toStdWString();
}

} // namespace cudnnsetup
