#include "platform/FilesInUse.h"

#include "platform/Win32Paths.h"

#include <algorithm>
#include <string>
#include <vector>

#ifdef Q_OS_WIN
#include <windows.h>

#include <restartmanager.h>

#include "platform/Win32Handles.h"
#else
#include <cerrno>
#include <cstdio>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSet>

#include "common/Logging.h"

namespace cudnnsetup {

namespace {

Finding cannotList(const QStringList &hostPaths, const QString &why)
{
    return Finding::error(
        QStringLiteral("files-in-use.unknown"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The programs that use the files to be replaced cannot be "
                                             "listed.")),
        QStringLiteral("%1 (%2)").arg(why, hostPaths.join(QStringLiteral(", "))),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Close the programs that may use cuDNN (Python, Jupyter, "
                                             "IDEs) and try again.")));
}

void sortByPid(QList<ProcessUsingFile> &processes)
{
    std::sort(processes.begin(), processes.end(),
              [](const ProcessUsingFile &a, const ProcessUsingFile &b) { return a.pid < b.pid; });
}

#ifdef Q_OS_WIN

constexpr DWORD kLockViolation = 33;    // ERROR_LOCK_VIOLATION
constexpr DWORD kUserMappedFile = 1224; // ERROR_USER_MAPPED_FILE

QString nativeAbsolute(const QString &path)
{
    return QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath());
}

// The executable's file name of process `pid`, if it is still the process Restart Manager saw.
QString executableName(DWORD pid, const FILETIME &startTime)
{
    const OwnedHandle process = owned(OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid));
    if (!process)
        return {};
    QString name;
    FILETIME created{}, exited{}, kernel{}, user{};
    if (GetProcessTimes(process.get(), &created, &exited, &kernel, &user) &&
        CompareFileTime(&created, &startTime) == 0) {
        std::vector<wchar_t> buffer(32768);
        DWORD size = DWORD(buffer.size());
        if (QueryFullProcessImageNameW(process.get(), 0, buffer.data(), &size))
            name = QFileInfo(QDir::fromNativeSeparators(QString::fromWCharArray(buffer.data(), int(size))))
                       .fileName();
    }
    return name;
}

Expected<QList<ProcessUsingFile>> restartManagerList(const QStringList &hostPaths)
{
    std::vector<std::wstring> names;
    for (const QString &path : hostPaths) {
        if (QFileInfo::exists(path))
            names.push_back(nativeAbsolute(path).toStdWString());
    }
    QList<ProcessUsingFile> processes;
    if (names.empty())
        return processes;

    DWORD session = 0;
    // RmStartSession does not always end the key with a NUL (Inno Setup's note): start from zeros.
    WCHAR key[CCH_RM_SESSION_KEY + 1] = {};
    DWORD rc = RmStartSession(&session, 0, key);
    if (rc != ERROR_SUCCESS)
        return cannotList(
            hostPaths, QStringLiteral("RmStartSession: error %1: %2").arg(rc).arg(qt_error_string(int(rc))));
    const auto endSession = qScopeGuard([session] { RmEndSession(session); });

    // Each registration is an expensive write: a few large batches, not one call per file.
    constexpr size_t kBatch = 1000;
    for (size_t first = 0; first < names.size(); first += kBatch) {
        std::vector<LPCWSTR> batch;
        for (size_t i = first; i < std::min(names.size(), first + kBatch); ++i)
            batch.push_back(names[i].c_str());
        rc = RmRegisterResources(session, UINT(batch.size()), batch.data(), 0, nullptr, 0, nullptr);
        if (rc != ERROR_SUCCESS)
            return cannotList(
                hostPaths,
                QStringLiteral("RmRegisterResources: error %1: %2").arg(rc).arg(qt_error_string(int(rc))));
    }

    std::vector<RM_PROCESS_INFO> infos;
    UINT needed = 0;
    UINT count = 0;
    DWORD rebootReasons = 0;
    // The list can grow between the call that sizes it and the one that fills it: a few rounds.
    for (int round = 0; round < 5; ++round) {
        count = UINT(infos.size());
        rc = RmGetList(session, &needed, &count, infos.empty() ? nullptr : infos.data(), &rebootReasons);
        if (rc != ERROR_MORE_DATA)
            break;
        infos.resize(size_t(needed) + 4);
    }
    if (rc != ERROR_SUCCESS)
        return cannotList(hostPaths,
                          QStringLiteral("RmGetList: error %1: %2").arg(rc).arg(qt_error_string(int(rc))));
    if (rebootReasons != RmRebootReasonNone)
        qCInfo(lcPlatform) << "Restart Manager: reboot reasons" << Qt::hex << rebootReasons;

    QSet<quint32> seen;
    for (UINT i = 0; i < count && i < infos.size(); ++i) {
        const RM_PROCESS_INFO &info = infos[i];
        const quint32 pid = info.Process.dwProcessId;
        if (seen.contains(pid))
            continue;
        seen.insert(pid);
        ProcessUsingFile process;
        process.pid = pid;
        process.description = QString::fromWCharArray(info.strAppName);
        process.name = executableName(pid, info.Process.ProcessStartTime);
        if (process.name.isEmpty())
            process.name = process.description;
        processes.append(process);
    }
    sortByPid(processes);
    return processes;
}

#else

struct FileKey
{
    dev_t device;
    ino_t inode;
};

QByteArray readProcFile(const QByteArray &path)
{
    QFile file(QString::fromLocal8Bit(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// Whether one of the process's open descriptors is one of `files` (by device and inode, so a
// file renamed or reached through another link is found too).
bool descriptorsHold(const QByteArray &procDir, const std::vector<FileKey> &files, bool &unreadable)
{
    const QByteArray fdDir = procDir + "/fd";
    DIR *dir = ::opendir(fdDir.constData());
    if (!dir) {
        unreadable = true; // another user's process
        return false;
    }
    bool holds = false;
    while (const dirent *entry = ::readdir(dir)) {
        if (entry->d_name[0] == '.')
            continue;
        struct stat info;
        if (::stat((fdDir + '/' + entry->d_name).constData(), &info) != 0)
            continue;
        holds = std::any_of(files.cbegin(), files.cend(), [&](const FileKey &file) {
            return file.device == info.st_dev && file.inode == info.st_ino;
        });
        if (holds)
            break;
    }
    ::closedir(dir);
    return holds;
}

// Whether the process has one of the files mapped (a loaded library, an mmap'ed file). The maps
// give the device and inode beneath an overlay file system, so the path counts as well.
bool mapsHold(const QByteArray &procDir, const std::vector<FileKey> &files, const QSet<QString> &paths)
{
    const QByteArray maps = readProcFile(procDir + "/maps");
    for (const QByteArray &line : maps.split('\n')) {
        unsigned major = 0;
        unsigned minor = 0;
        unsigned long long inode = 0;
        int pathStart = 0;
        if (std::sscanf(line.constData(), "%*s %*s %*s %x:%x %llu %n", &major, &minor, &inode, &pathStart) <
            3)
            continue;
        if (inode == 0)
            continue;
        const dev_t device = makedev(major, minor);
        const bool sameFile = std::any_of(files.cbegin(), files.cend(), [&](const FileKey &file) {
            return file.device == device && file.inode == ino_t(inode);
        });
        if (sameFile)
            return true;
        if (pathStart > 0 && pathStart < line.size()) {
            const QString path = QString::fromLocal8Bit(line.mid(pathStart)).trimmed();
            if (paths.contains(path))
                return true;
        }
    }
    return false;
}

ProcessUsingFile describe(quint32 pid, const QByteArray &procDir)
{
    ProcessUsingFile process;
    process.pid = pid;
    QString executable = QFile::symLinkTarget(QString::fromLocal8Bit(procDir + "/exe"));
    executable.remove(QStringLiteral(" (deleted)"));
    process.name = QFileInfo(executable).fileName();
    if (process.name.isEmpty())
        process.name = QString::fromLocal8Bit(readProcFile(procDir + "/comm")).trimmed();
    QByteArray commandLine = readProcFile(procDir + "/cmdline");
    commandLine.replace('\0', ' ');
    process.description = QString::fromLocal8Bit(commandLine).trimmed().left(500);
    return process;
}

Expected<QList<ProcessUsingFile>> procList(const QStringList &hostPaths)
{
    std::vector<FileKey> files;
    QSet<QString> paths;
    for (const QString &path : hostPaths) {
        struct stat info;
        if (::stat(QFile::encodeName(path).constData(), &info) != 0)
            continue;
        files.push_back({info.st_dev, info.st_ino});
        paths.insert(QFileInfo(path).canonicalFilePath());
    }
    QList<ProcessUsingFile> processes;
    if (files.empty())
        return processes;

    DIR *proc = ::opendir("/proc");
    if (!proc)
        return cannotList(hostPaths, QStringLiteral("/proc: %1").arg(qt_error_string(errno)));
    int unreadable = 0;
    while (const dirent *entry = ::readdir(proc)) {
        bool number = false;
        const quint32 pid = QByteArray(entry->d_name).toUInt(&number);
        if (!number)
            continue;
        const QByteArray procDir = QByteArray("/proc/") + entry->d_name;
        bool cannotRead = false;
        if (descriptorsHold(procDir, files, cannotRead) || mapsHold(procDir, files, paths))
            processes.append(describe(pid, procDir));
        else if (cannotRead)
            ++unreadable;
    }
    ::closedir(proc);
    if (unreadable > 0)
        qCDebug(lcPlatform) << unreadable << "processes of other users were not looked at";
    sortByPid(processes);
    return processes;
}

#endif

class HostFilesInUse final : public FilesInUse
{
public:
    Expected<QList<ProcessUsingFile>> processesUsing(const QStringList &hostPaths) const override
    {
#ifdef Q_OS_WIN
        Expected<QList<ProcessUsingFile>> result = restartManagerList(hostPaths);
#else
        Expected<QList<ProcessUsingFile>> result = procList(hostPaths);
#endif
        if (!result) {
            qCWarning(lcPlatform) << "the programs that use" << hostPaths
                                  << "cannot be listed:" << result.error().details;
            return result;
        }
        for (const ProcessUsingFile &process : result.value())
            qCInfo(lcPlatform) << "in use by" << process.name << "pid" << process.pid << process.description;
        return result;
    }

    SystemResult removeAtReboot(const QString &hostPath) const override
    {
#ifdef Q_OS_WIN
        const std::wstring path = win32Path(hostPath);
        if (!MoveFileExW(path.c_str(), nullptr, MOVEFILE_DELAY_UNTIL_REBOOT)) {
            const DWORD error = GetLastError();
            qCWarning(lcPlatform) << "removing" << hostPath << "at the next restart failed: error" << error;
            return SystemFailure{QStringLiteral("MoveFileEx %1 (removal at the next restart): error %2: %3")
                                     .arg(nativeAbsolute(hostPath))
                                     .arg(error)
                                     .arg(qt_error_string(int(error))),
                                 int(error),
                                 { hostPath }};
        }
        qCInfo(lcPlatform) << "at the next restart" << hostPath << "is removed";
        return {};
#else
        return SystemFailure{
            QStringLiteral("removing %1 at the next restart: not supported on this system").arg(hostPath),
            0,
            {hostPath}};
#endif
    }

    bool isInUseError(const SystemFailure &failure) const override
    {
#ifdef Q_OS_WIN
        const DWORD error = DWORD(failure.code);
        if (error == ERROR_SHARING_VIOLATION || error == kLockViolation || error == kUserMappedFile)
            return true;
        if (error != ERROR_ACCESS_DENIED)
            return false;
        // "Access denied" is also what removing or replacing a loaded DLL says. Opening the file for
        // writing tells the two apart: a file mapped or held by another process is a sharing
        // violation, one this account may not change stays "access denied".
        QStringList existing;
        for (const QString &path : failure.paths) {
            const QFileInfo info(path);
            if (!info.exists() || info.isDir())
                continue;
            existing.append(path);
            const std::wstring name = win32Path(path);
            if (owned(CreateFileW(name.c_str(), GENERIC_WRITE,
                                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                  OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr)))
                continue;
            const DWORD openError = GetLastError();
            if (openError == ERROR_SHARING_VIOLATION || openError == kLockViolation ||
                openError == kUserMappedFile)
                return true;
        }
        if (existing.isEmpty())
            return false;
        const Expected<QList<ProcessUsingFile>> holders = restartManagerList(existing);
        return holders.ok() && !holders.value().isEmpty();
#else
        return failure.code == ETXTBSY;
#endif
    }
};

} // namespace

const FilesInUse &FilesInUse::host()
{
    static const HostFilesInUse filesInUse;
    return filesInUse;
}

} // namespace cudnnsetup
