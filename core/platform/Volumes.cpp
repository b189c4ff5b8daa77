#include "platform/Volumes.h"

#include "platform/Win32Paths.h"

#ifdef Q_OS_WIN
#include <windows.h>

#include <winnetwk.h>

#include <iterator>
#include <vector>

#include "platform/Win32Handles.h"
#else
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStorageInfo>

#include "common/Logging.h"
#include "platform/Elevation.h"

namespace cudnnsetup {

namespace {

// Something that names neither a real file of the user nor one of ours: ".cudnn-setup-write-test-"
// with the process id and 64 random bits.
QString uniqueTestName()
{
    return QStringLiteral(".cudnn-setup-write-test-%1-%2.tmp")
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

// The folder `hostPath` is on, by the nearest existing path (a file stands for its folder).
QString existingFolderOf(const QString &hostPath)
{
    const QString existing = Volumes::nearestExisting(hostPath);
    if (existing.isEmpty())
        return {};
    const QFileInfo info(existing);
    return info.isDir() ? existing : info.absolutePath();
}

#ifdef Q_OS_WIN
void writeProbe(const QString &file, WriteProbe &probe)
{
    const std::wstring name = win32Path(file);
    // DELETE_ON_CLOSE: even a process killed right here leaves nothing behind.
    OwnedHandle handle = owned(CreateFileW(name.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                                           FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr));
    if (!handle) {
        const DWORD error = GetLastError();
        probe.accessDenied = error == ERROR_ACCESS_DENIED || error == ERROR_PRIVILEGE_NOT_HELD;
        probe.error = qt_error_string(int(error));
        return;
    }
    const char byte = 0;
    DWORD written = 0;
    const bool wrote = WriteFile(handle.get(), &byte, 1, &written, nullptr) && written == 1 &&
                       FlushFileBuffers(handle.get());
    const DWORD error = wrote ? 0 : GetLastError();
    handle.reset();
    if (GetFileAttributesW(name.c_str()) != INVALID_FILE_ATTRIBUTES)
        DeleteFileW(name.c_str());
    probe.ok = wrote;
    if (!wrote) {
        probe.accessDenied = error == ERROR_ACCESS_DENIED;
        probe.error = qt_error_string(int(error));
    }
}
#else
void writeProbe(const QString &file, WriteProbe &probe)
{
    const QByteArray name = QFile::encodeName(file);
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int error = errno;
        probe.accessDenied = error == EACCES || error == EPERM;
        probe.error = qt_error_string(error);
        return;
    }
    const char byte = 0;
    const bool wrote = ::write(fd, &byte, 1) == 1 && ::fsync(fd) == 0;
    const int error = wrote ? 0 : errno;
    ::close(fd);
    ::unlink(name.constData());
    probe.ok = wrote;
    if (!wrote) {
        probe.accessDenied = error == EACCES || error == EPERM;
        probe.error = qt_error_string(error);
    }
}
#endif

} // namespace

qint64 Volumes::freeBytes(const QString &hostPath) const
{
    const QString folder = existingFolderOf(hostPath);
    if (folder.isEmpty())
        return -1;
    const QStorageInfo storage(folder);
    if (!storage.isValid() || !storage.isReady())
        return -1;
    return storage.bytesAvailable();
}

QString Volumes::volumeId(const QString &hostPath) const
{
    const QString folder = existingFolderOf(hostPath);
    if (folder.isEmpty())
        return {};
    const QStorageInfo storage(folder);
    if (!storage.isValid())
        return {};
    // The mount point as well as the device: two bind mounts of one device are two volumes to
    // rename(2), which refuses to cross them.
    return storage.rootPath() + QLatin1Char('|') + QString::fromLocal8Bit(storage.device());
}

std::optional<bool> Volumes::sameVolume(const QString &hostA, const QString &hostB) const
{
    const QString a = volumeId(hostA);
    const QString b = volumeId(hostB);
    if (a.isEmpty() || b.isEmpty())
        return std::nullopt;
    return a == b;
}

WriteProbe Volumes::tryWrite(const QString &hostFolder) const
{
    WriteProbe probe;
    probe.elevated = isElevated();
    const QString existing = nearestExisting(hostFolder);
    probe.folder = existing;
    if (existing.isEmpty()) {
        probe.error = QStringLiteral("no folder on the way to %1 exists").arg(hostFolder);
        return probe;
    }
    if (!QFileInfo(existing).isDir()) {
        probe.notAFolder = true;
        probe.error = QStringLiteral("%1 is a file, not a folder").arg(existing);
        return probe;
    }
    writeProbe(QDir(existing).filePath(uniqueTestName()), probe);
    qCDebug(lcPlatform) << "write test in" << existing << (probe.ok ? "succeeded" : "failed:") << probe.error
                        << "access denied" << probe.accessDenied << "elevated" << probe.elevated;
    return probe;
}

WriteProbe Volumes::tryReplace(const QString &hostFile) const
{
    WriteProbe probe;
    probe.elevated = isElevated();
    probe.folder = hostFile;
#ifdef Q_OS_WIN
    const std::wstring name = win32Path(hostFile);
    const OwnedHandle handle =
        owned(CreateFileW(name.c_str(), DELETE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                          nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
    const DWORD error = handle ? DWORD(ERROR_SUCCESS) : GetLastError();
    probe.accessDenied = error == ERROR_ACCESS_DENIED;
    probe.ok = !probe.accessDenied;
    if (!probe.ok)
        probe.error = qt_error_string(int(error));
#else
    const QFileInfo file(hostFile);
    const QByteArray folder = QFile::encodeName(file.absolutePath());
    int error = ::access(folder.constData(), W_OK | X_OK) == 0 ? 0 : errno;
    // In a sticky folder (/tmp) only the owner of the file or of the folder, or root, may remove it.
    const uid_t self = ::geteuid();
    struct stat status
    {
    };
    if (error == 0 && self != 0 && ::stat(folder.constData(), &status) == 0 && (status.st_mode & S_ISVTX) &&
        status.st_uid != self && file.ownerId() != self)
        error = EPERM;
    probe.accessDenied = error == EACCES || error == EPERM;
    probe.ok = !probe.accessDenied;
    if (!probe.ok)
        probe.error = qt_error_string(error);
#endif
    qCDebug(lcPlatform) << "replace test of" << hostFile << (probe.ok ? "succeeded" : "failed:")
                        << probe.error;
    return probe;
}

QString Volumes::pathForOtherSessions(const QString &hostPath)
{
#ifdef Q_OS_WIN
    const QString native = QDir::toNativeSeparators(QDir::cleanPath(hostPath));
    if (native.size() < 2 || native.at(1) != QLatin1Char(':') || !native.at(0).isLetter())
        return hostPath;
    const QString drive = native.left(2).toUpper();
    const QString rest = native.mid(2);
    wchar_t target[1024] = {};
    const std::wstring driveName = drive.toStdWString();
    // A subst drive is a link to a folder: "\??\C:\folder".
    if (QueryDosDeviceW(driveName.c_str(), target, DWORD(std::size(target))) > 0) {
        const QString device = QString::fromWCharArray(target);
        if (device.startsWith(QLatin1String("\\??\\")) && device.size() > 4) {
            const QString resolved = QDir::cleanPath(QDir::fromNativeSeparators(device.mid(4) + rest));
            qCInfo(lcPlatform) << hostPath << "is on a subst drive, for other sessions" << resolved;
            return resolved;
        }
    }
    const std::wstring root = (drive + QLatin1Char('\\')).toStdWString();
    if (GetDriveTypeW(root.c_str()) == DRIVE_REMOTE) {
        std::wstring path = native.toStdWString();
        DWORD size = 0;
        BYTE probe[1];
        if (WNetGetUniversalNameW(path.data(), UNIVERSAL_NAME_INFO_LEVEL, probe, &size) == ERROR_MORE_DATA &&
            size > 0) {
            std::vector<BYTE> buffer(size);
            if (WNetGetUniversalNameW(path.data(), UNIVERSAL_NAME_INFO_LEVEL, buffer.data(), &size) ==
                NO_ERROR) {
                const QString unc = QString::fromWCharArray(
                    reinterpret_cast<const UNIVERSAL_NAME_INFOW *>(buffer.data())->lpUniversalName);
                qCInfo(lcPlatform) << hostPath << "is on a network drive, for other sessions" << unc;
                return QDir::fromNativeSeparators(unc);
            }
        }
    }
    return hostPath;
#else
    return hostPath;
#endif
}

QString Volumes::nearestExisting(const QString &hostPath)
{
    if (hostPath.isEmpty())
        return {};
    QString current = QDir::cleanPath(QDir(hostPath).absolutePath());
    while (!current.isEmpty()) {
        const QFileInfo info(current);
        if (info.exists())
            return current;
        const QString parent = info.dir().absolutePath();
        if (parent == current)
            return {};
        current = QDir::cleanPath(parent);
    }
    return {};
}

bool Volumes::isElevated()
{
    return Elevation::host().isElevated();
}

const Volumes &Volumes::host()
{
    static const Volumes volumes;
    return volumes;
}

} // namespace cudnnsetup
