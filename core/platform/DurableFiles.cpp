#include "platform/DurableFiles.h"

#include "common/Logging.h"
#include "platform/DiskFlush.h"
#include "platform/Win32Paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_WIN
#include <string>
#include <vector>

#include <QThread>

#include "platform/Win32Handles.h"
#else
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace cudnnsetup::durable {

namespace {

// A failure that came from somewhere other than one system call (Qt's file classes).
SystemFailure failure(const QString &message)
{
    return SystemFailure{message, 0, {}};
}

// What the last system call that failed said (GetLastError() on Windows, errno elsewhere).
SystemFailure lastError(const QString &path)
{
#ifdef Q_OS_WIN
    const int error = int(GetLastError());
#else
    const int error = errno;
#endif
    return SystemFailure{QStringLiteral("%1: %2").arg(path, qt_error_string(error)), error, {path}};
}

#ifdef Q_OS_WIN

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

SystemResult symlink(const QString &target, const QString &link)
{
#ifdef Q_OS_WIN
    return SystemFailure{
        QStringLiteral("no symbolic link %1 -> %2 is made on Windows").arg(link, target), 0, {link}};
#else
    if (::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData()) != 0)
        return lastError(link);
    flushFolder(link);
    return {};
#endif
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
    return lastError(path);
#endif
}

namespace {

// A refusal of this code's own: something it will not touch.
SystemFailure refusal(const QString &path, const QString &why)
{
    return SystemFailure{QStringLiteral("%1: %2").arg(path, why), 0, {path}};
}

// A recursive delete may run elevated in a folder that the requesting user can change while it runs
// (the install root's staging folder): a folder swapped for a link or junction after it was checked
// must not make it delete what the link points at. So each entry is opened once, without following
// a link, checked through that handle and removed through it; a folder is listed and entered only
// through its handle.
#ifdef Q_OS_WIN
constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
// The entry itself, a link or junction too (never what it points at), a folder too.
constexpr DWORD kEntryItself = FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS;
// MinGW-w64 declares FileDispositionInfoEx only for a _WIN32_WINNT no build sets (0x0A000002).
constexpr auto kFileDispositionInfoEx = FILE_INFO_BY_HANDLE_CLASS(21);

// The path Windows resolves the handle to, every junction and link above it followed ("\\?\C:\…");
// empty when it cannot say.
QString finalPath(HANDLE handle)
{
    std::wstring buffer(MAX_PATH, L'\0');
    for (;;) {
        const DWORD length = GetFinalPathNameByHandleW(handle, buffer.data(), DWORD(buffer.size()),
                                                       FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
        if (length < buffer.size())
            return QString::fromWCharArray(buffer.data(), int(length));
        buffer.resize(length);
    }
}

bool setAttributes(HANDLE handle, DWORD attributes)
{
    FILE_BASIC_INFO basic{}; // zero times stay as they are; zero attributes would too
    basic.FileAttributes = attributes ? attributes : FILE_ATTRIBUTE_NORMAL;
    return SetFileInformationByHandle(handle, FileBasicInfo, &basic, sizeof basic);
}

// Deletes what `entry` is open as (a folder only once empty), at once even while others hold it
// open, and a read-only file (an old install's DLL, a copy from a CD) all the same.
SystemResult deleteByHandle(HANDLE entry, const QString &path)
{
    return retryingTransient([&]() -> SystemResult {
        FILE_DISPOSITION_INFO_EX disposition{FILE_DISPOSITION_FLAG_DELETE |
                                             FILE_DISPOSITION_FLAG_POSIX_SEMANTICS |
                                             FILE_DISPOSITION_FLAG_IGNORE_READONLY_ATTRIBUTE};
        if (SetFileInformationByHandle(entry, kFileDispositionInfoEx, &disposition, sizeof disposition))
            return {};
        const DWORD error = GetLastError();
        if (error != ERROR_INVALID_PARAMETER && error != ERROR_NOT_SUPPORTED &&
            error != ERROR_INVALID_FUNCTION)
            return lastError(path);
        // Windows 10 before 1809, and Wine: the plain disposition, which refuses a read-only file.
        FILE_DISPOSITION_INFO plain{TRUE};
        if (SetFileInformationByHandle(entry, FileDispositionInfo, &plain, sizeof plain))
            return {};
        SystemFailure refused = lastError(path);
        FILE_BASIC_INFO basic;
        if (refused.code != ERROR_ACCESS_DENIED ||
            !GetFileInformationByHandleEx(entry, FileBasicInfo, &basic, sizeof basic) ||
            !(basic.FileAttributes & FILE_ATTRIBUTE_READONLY))
            return refused;
        // Reopened through the handle, not by its path: the same file.
        const OwnedHandle writable =
            owned(ReOpenFile(entry, FILE_WRITE_ATTRIBUTES | SYNCHRONIZE, kShareAll, kEntryItself));
        if (!writable ||
            !setAttributes(writable.get(), basic.FileAttributes & ~DWORD(FILE_ATTRIBUTE_READONLY)))
            return refused;
        if (SetFileInformationByHandle(entry, FileDispositionInfo, &plain, sizeof plain))
            return {};
        refused = lastError(path);
        setAttributes(writable.get(), basic.FileAttributes);
        return refused;
    });
}

SystemResult removeEntry(const QString &path, const QString &root);

// Removes all that the folder open as `folder` (at `where`, its final path) holds, listed through
// its handle.
SystemResult emptyFolder(HANDLE folder, const QString &where, const QString &root)
{
    const OwnedHandle listing =
        owned(ReOpenFile(folder, FILE_LIST_DIRECTORY | SYNCHRONIZE, kShareAll, kEntryItself));
    if (!listing)
        return lastError(where);
    QStringList names;
    std::vector<LONGLONG> buffer(8192); // 64 KiB, aligned as FILE_ID_BOTH_DIR_INFO must be
    while (GetFileInformationByHandleEx(listing.get(), FileIdBothDirectoryInfo, buffer.data(),
                                        DWORD(buffer.size() * sizeof(LONGLONG)))) {
        for (auto *entry = reinterpret_cast<const char *>(buffer.data());;) {
            const auto *info = reinterpret_cast<const FILE_ID_BOTH_DIR_INFO *>(entry);
            const QString name =
                QString::fromWCharArray(info->FileName, int(info->FileNameLength / sizeof(WCHAR)));
            if (name != QLatin1String(".") && name != QLatin1String(".."))
                names.append(name);
            if (info->NextEntryOffset == 0)
                break;
            entry += info->NextEntryOffset;
        }
    }
    if (GetLastError() != ERROR_NO_MORE_FILES)
        return lastError(where);
    for (const QString &name : names) {
        if (SystemResult removed = removeEntry(where + QLatin1Char('\\') + name, root); !removed)
            return removed;
    }
    return {};
}

// Removes the file, link or folder at `path`, which must lie under `root` (a final path that ends
// in a backslash), or is the root itself when `root` is empty.
SystemResult removeEntry(const QString &path, const QString &root)
{
    OwnedHandle entry;
    const SystemResult opened = retryingTransient([&]() -> SystemResult {
        entry = owned(CreateFileW(win32Path(path).c_str(), DELETE | FILE_READ_ATTRIBUTES | SYNCHRONIZE,
                                  kShareAll, nullptr, OPEN_EXISTING, kEntryItself, nullptr));
        return entry ? SystemResult{} : SystemResult{lastError(path)};
    });
    if (!opened) {
        const int error = opened.error().code;
        return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND ? SystemResult{} : opened;
    }
    FILE_ATTRIBUTE_TAG_INFO tag;
    const QString where = finalPath(entry.get());
    if (!GetFileInformationByHandleEx(entry.get(), FileAttributeTagInfo, &tag, sizeof tag) || where.isEmpty())
        return lastError(path);
    // A folder above it was swapped for a junction since it was listed.
    if (!root.isEmpty() && !where.startsWith(root, Qt::CaseInsensitive))
        return refusal(path,
                       QStringLiteral("now at %1, outside the folder being removed: left alone").arg(where));
    if ((tag.FileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
        !(tag.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
        const QString below = root.isEmpty() ? where + QLatin1Char('\\') : root;
        if (SystemResult emptied = emptyFolder(entry.get(), where, below); !emptied)
            return emptied;
    }
    return deleteByHandle(entry.get(), path);
}
#else
SystemResult removeEntry(int parent, const QByteArray &name, dev_t device, const QString &path);

// Removes all that the folder open as `folder` holds, listed and entered through its descriptor.
SystemResult emptyFolder(int folder, dev_t device, const QString &path)
{
    struct stat status;
    if (::fstat(folder, &status) != 0)
        return lastError(path);
    // Another file system mounted here is not this tree's to empty.
    if (!S_ISDIR(status.st_mode) || status.st_dev != device)
        return refusal(path, QStringLiteral("another file system is mounted here: left alone"));
    const int listed = ::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *listing = listed >= 0 ? ::fdopendir(listed) : nullptr;
    if (!listing) {
        const SystemFailure failed = lastError(path);
        if (listed >= 0)
            ::close(listed);
        return failed;
    }
    QList<QByteArray> names;
    errno = 0;
    while (const dirent *entry = ::readdir(listing)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names.append(QByteArray(entry->d_name));
    }
    const int listingError = errno;
    ::closedir(listing);
    if (listingError != 0) {
        errno = listingError;
        return lastError(path);
    }
    for (const QByteArray &name : names) {
        if (SystemResult removed =
                removeEntry(folder, name, device, path + QLatin1Char('/') + QFile::decodeName(name));
            !removed)
            return removed;
    }
    return {};
}

// Removes the entry `name` of the folder open as `parent`: a link or file as itself, a folder
// entered only through a descriptor that did not follow a link. One that became a link or a file
// after it was looked at is removed as that.
SystemResult removeEntry(int parent, const QByteArray &name, dev_t device, const QString &path)
{
    struct stat status;
    if (::fstatat(parent, name.constData(), &status, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? SystemResult{} : SystemResult{lastError(path)};
    if (S_ISDIR(status.st_mode)) {
        const int folder =
            ::openat(parent, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (folder >= 0) {
            const SystemResult emptied = emptyFolder(folder, device, path);
            ::close(folder);
            if (!emptied)
                return emptied;
            if (::unlinkat(parent, name.constData(), AT_REMOVEDIR) == 0 || errno == ENOENT)
                return {};
            return lastError(path);
        }
        if (errno != ELOOP && errno != ENOTDIR)
            return errno == ENOENT ? SystemResult{} : SystemResult{lastError(path)};
    }
    if (::unlinkat(parent, name.constData(), 0) == 0 || errno == ENOENT)
        return {};
    return lastError(path);
}
#endif

} // namespace

SystemResult removeTree(const QString &folder)
{
#ifdef Q_OS_WIN
    return removeEntry(folder, {});
#else
    const QFileInfo root(QDir::cleanPath(QFileInfo(folder).absoluteFilePath()));
    const int parent =
        ::open(QFile::encodeName(root.absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent < 0)
        return errno == ENOENT ? SystemResult{} : SystemResult{lastError(folder)};
    // Below the root, only folders of the root's own file system are entered.
    const QByteArray name = QFile::encodeName(root.fileName());
    struct stat status;
    SystemResult removed;
    if (::fstatat(parent, name.constData(), &status, AT_SYMLINK_NOFOLLOW) == 0)
        removed = removeEntry(parent, name, status.st_dev, folder);
    else if (errno != ENOENT)
        removed = lastError(folder);
    ::close(parent);
    return removed;
#endif
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
