#include "platform/DurableFiles.h"

#include "common/Logging.h"
#include "platform/DiskFlush.h"
#include "platform/Win32Paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_WIN
#include <QThread>

#include <qt_windows.h>
#else
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#endif

namespace cudnnsetup::durable {

namespace {

// A failure that came from somewhere other than one system call (Qt's file classes).
SystemFailure failure(const QString &message)
{
    return SystemFailure{message, 0, {}};
}

#ifdef Q_OS_WIN
SystemFailure lastError(const QString &path)
{
    const DWORD error = GetLastError();
    return SystemFailure{QStringLiteral("%1: %2").arg(path, qt_error_string(int(error))), int(error), {path}};
}

// Antivirus scanners and the search indexer open a file for a moment just after it was written or
// renamed; until they let go, a rename or delete of it fails with a sharing or lock violation, or
// "access denied". Such a failure is tried again, waiting longer each time (about 3 s in all),
// before it counts.
SystemResult retryingTransient(const std::function<SystemResult()> &attempt)
{
    static constexpr int kWaitsMs[] = {50, 100, 200, 400, 800, 1600};
    SystemResult result = attempt();
    for (const int wait : kWaitsMs) {
        if (result ||
            (result.error().code != ERROR_SHARING_VIOLATION && result.error().code != ERROR_LOCK_VIOLATION &&
             result.error().code != ERROR_ACCESS_DENIED))
            return result;
        qCInfo(lcPlatform).noquote() << "trying again in" << wait << "ms:" << result.error().message;
        QThread::msleep(wait);
        result = attempt();
    }
    return result;
}
#else
// A rename is durable once the folder that holds the name is flushed.
void flushFolder(const QString &path)
{
    const int fd =
        ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}
#endif

} // namespace

bool isAccessDenied(const SystemFailure &failure)
{
#ifdef Q_OS_WIN
    return failure.code == ERROR_ACCESS_DENIED;
#else
    return failure.code == EACCES || failure.code == EPERM;
#endif
}

SystemResult rename(const QString &from, const QString &to)
{
#ifdef Q_OS_WIN
    return retryingTransient([&]() -> SystemResult {
        if (MoveFileExW(win32Path(from).c_str(), win32Path(to).c_str(),
                        MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            return {};
        const DWORD error = GetLastError();
        return SystemFailure{
            QStringLiteral("MoveFileEx %1 -> %2: error %3").arg(from, to).arg(error), int(error), {from, to}};
    });
#else
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0) {
        const int error = errno;
        return SystemFailure{
            QStringLiteral("rename %1 -> %2: %3").arg(from, to, QString::fromLocal8Bit(std::strerror(error))),
            error,
            {from, to}};
    }
    flushFolder(to);
    return {};
#endif
}

SystemResult copy(const QString &from, const QString &partial, const QString &to,
                  const std::function<bool(QByteArrayView, qint64)> &onChunk)
{
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly))
        return failure(QStringLiteral("%1: %2").arg(from, source.errorString()));
    QFile target(partial);
    if (!target.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return failure(QStringLiteral("%1: %2").arg(partial, target.errorString()));
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 copied = 0;
    for (;;) {
        const qint64 count = source.read(buffer.data(), buffer.size());
        if (count < 0)
            return failure(QStringLiteral("%1: %2").arg(from, source.errorString()));
        if (count == 0)
            break;
        if (target.write(buffer.constData(), count) != count)
            return failure(QStringLiteral("%1: %2").arg(partial, target.errorString()));
        copied += count;
        if (onChunk && !onChunk(QByteArrayView(buffer.constData(), count), copied))
            return failure(QStringLiteral("%1: stopped after %2 bytes").arg(partial).arg(copied));
    }
    // A full disk shows only when the last buffered bytes go out: flush before trusting the copy.
    if (!target.flush())
        return failure(QStringLiteral("%1: %2").arg(partial, target.errorString()));
    target.close();
    QString error;
    if (!flushFileToDisk(partial, &error))
        return failure(error);
    return rename(partial, to);
}

SystemResult write(const QByteArray &content, const QString &partial, const QString &to)
{
    QFile target(partial);
    if (!target.open(QIODevice::WriteOnly | QIODevice::Truncate) || target.write(content) != content.size() ||
        !target.flush())
        return failure(QStringLiteral("%1: %2").arg(partial, target.errorString()));
    target.close();
    QString error;
    if (!flushFileToDisk(partial, &error))
        return failure(error);
    return rename(partial, to);
}

SystemResult remove(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink())
        return {};
#ifdef Q_OS_WIN
    const std::wstring name = win32Path(path);
    return retryingTransient([&]() -> SystemResult {
        if (DeleteFileW(name.c_str()))
            return {};
        SystemFailure refused = lastError(path);
        const DWORD attributes = GetFileAttributesW(name.c_str());
        if (refused.code == ERROR_ACCESS_DENIED && attributes != INVALID_FILE_ATTRIBUTES &&
            (attributes & FILE_ATTRIBUTE_READONLY)) {
            // A read-only file (an old install's DLL, a copy from a CD) is removed all the same.
            SetFileAttributesW(name.c_str(), attributes & ~DWORD(FILE_ATTRIBUTE_READONLY));
            if (DeleteFileW(name.c_str()))
                return {};
            refused = lastError(path);
            SetFileAttributesW(name.c_str(), attributes);
        }
        return refused;
    });
#else
    // unlink(2) asks the folder, not the file: a read-only file goes all the same.
    if (::unlink(QFile::encodeName(path).constData()) == 0)
        return {};
    const int error = errno;
    return SystemFailure{QStringLiteral("%1: %2").arg(path, qt_error_string(error)), error, {path}};
#endif
}

namespace {

// A symbolic link, a junction or any other reparse point: removed as itself, never entered.
bool isLink(const QString &path)
{
#ifdef Q_OS_WIN
    const DWORD attributes = GetFileAttributesW(win32Path(path).c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT);
#else
    return QFileInfo(path).isSymLink();
#endif
}

SystemResult removeLink(const QString &path)
{
#ifdef Q_OS_WIN
    const std::wstring name = win32Path(path);
    const DWORD attributes = GetFileAttributesW(name.c_str());
    // A folder's link (a junction, a directory symlink) is removed by RemoveDirectoryW, which takes
    // the link away and leaves its target alone.
    if (attributes & FILE_ATTRIBUTE_DIRECTORY ? RemoveDirectoryW(name.c_str()) : DeleteFileW(name.c_str()))
        return {};
    return lastError(path);
#else
    return remove(path);
#endif
}

} // namespace

SystemResult removeTree(const QString &folder)
{
    if (isLink(folder))
        return removeLink(folder);
    const QFileInfo info(folder);
    if (!info.exists())
        return {};
    if (!info.isDir())
        return remove(folder);
    const QStringList entries =
        QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        if (SystemResult removed = removeTree(folder + QLatin1Char('/') + entry); !removed)
            return removed;
    }
    if (!QDir().rmdir(folder))
        return failure(QStringLiteral("%1: the folder cannot be removed").arg(folder));
    return {};
}

void discard(const QString &path)
{
    if (const SystemResult removed = remove(path); !removed)
        qCWarning(lcPlatform).noquote() << "left behind:" << path << removed.error().message;
}

void discardTree(const QString &folder)
{
    if (const SystemResult removed = removeTree(folder); !removed)
        qCWarning(lcPlatform).noquote() << "left behind:" << folder << removed.error().message;
}

} // namespace cudnnsetup::durable
