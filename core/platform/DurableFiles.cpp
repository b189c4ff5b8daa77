#include "platform/DurableFiles.h"

#include "platform/DiskFlush.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_WIN
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

#ifndef Q_OS_WIN
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

std::optional<QString> rename(const QString &from, const QString &to)
{
#ifdef Q_OS_WIN
    if (!MoveFileExW(reinterpret_cast<const wchar_t *>(QDir::toNativeSeparators(from).utf16()),
                     reinterpret_cast<const wchar_t *>(QDir::toNativeSeparators(to).utf16()),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        return QStringLiteral("MoveFileEx %1 -> %2: error %3").arg(from, to).arg(GetLastError());
    }
    return std::nullopt;
#else
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0)
        return QStringLiteral("rename %1 -> %2: %3")
            .arg(from, to, QString::fromLocal8Bit(std::strerror(errno)));
    flushFolder(to);
    return std::nullopt;
#endif
}

std::optional<QString> copy(const QString &from, const QString &partial, const QString &to,
                            const std::function<bool(qint64)> &onChunk)
{
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(from, source.errorString());
    QFile target(partial);
    if (!target.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("%1: %2").arg(partial, target.errorString());
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 copied = 0;
    for (;;) {
        const qint64 count = source.read(buffer.data(), buffer.size());
        if (count < 0)
            return QStringLiteral("%1: %2").arg(from, source.errorString());
        if (count == 0)
            break;
        if (target.write(buffer.constData(), count) != count)
            return QStringLiteral("%1: %2").arg(partial, target.errorString());
        copied += count;
        if (onChunk && !onChunk(copied))
            return QStringLiteral("%1: stopped after %2 bytes").arg(partial).arg(copied);
    }
    target.close();
    QString error;
    if (!flushFileToDisk(partial, &error))
        return error;
    return rename(partial, to);
}

std::optional<QString> write(const QByteArray &content, const QString &partial, const QString &to)
{
    QFile target(partial);
    if (!target.open(QIODevice::WriteOnly | QIODevice::Truncate) || target.write(content) != content.size())
        return QStringLiteral("%1: %2").arg(partial, target.errorString());
    target.close();
    QString error;
    if (!flushFileToDisk(partial, &error))
        return error;
    return rename(partial, to);
}

std::optional<QString> remove(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink())
        return std::nullopt;
    QFile file(path);
    if (!file.remove()) {
        // A read-only file (an old install's DLL, a copy from a CD) is removed all the same.
        file.setPermissions(file.permissions() | QFileDevice::WriteOwner | QFileDevice::WriteUser);
        if (!file.remove())
            return QStringLiteral("%1: %2").arg(path, file.errorString());
    }
    return std::nullopt;
}

} // namespace cudnnsetup::durable
