#include "platform/InstallLock.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <aclapi.h>
#include <sddl.h>
#endif

#include <QDir>
#include <QFileInfo>
#include <QLockFile>

#include "platform/Win32Paths.h"

namespace cudnnsetup {

namespace {

#ifdef Q_OS_WIN
class HandleLock final : public InstallLock
{
public:
    explicit HandleLock(HANDLE file)
        : m_file(file)
    {
    }
    ~HandleLock() override { CloseHandle(m_file); } // FILE_FLAG_DELETE_ON_CLOSE removes the file

private:
    HANDLE m_file;
};

// "owned by S-1-5-…": the account that owns `lockFile`; empty where that cannot be read. Reading
// its descriptor needs no share of the file, so this works while another process holds it.
QString ownerOf(const QString &lockFile)
{
    const std::wstring name = win32Path(lockFile);
    PSID owner = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    if (GetNamedSecurityInfoW(name.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr,
                              nullptr, nullptr, &descriptor) != ERROR_SUCCESS)
        return {};
    QString holder;
    LPWSTR sid = nullptr;
    if (owner && ConvertSidToStringSidW(owner, &sid)) {
        holder = QStringLiteral("owned by %1").arg(QString::fromWCharArray(sid));
        LocalFree(sid);
    }
    LocalFree(descriptor);
    return holder;
}
#else
class FileLock final : public InstallLock
{
public:
    explicit FileLock(std::unique_ptr<QLockFile> file)
        : m_file(std::move(file))
    {
    }

private:
    std::unique_ptr<QLockFile> m_file;
};
#endif

} // namespace

QString InstallLock::lockSddl(const QString &accountSid)
{
    QString sddl = QStringLiteral("D:P(A;;FA;;;SY)(A;;FA;;;BA)");
    if (!accountSid.isEmpty())
        sddl += QStringLiteral("(A;;FA;;;%1)").arg(accountSid);
    return sddl;
}

std::unique_ptr<InstallLock> InstallLock::tryAcquire(const QString &lockFile, const QString &accountSid,
                                                     Refusal *refusal)
{
    if (refusal)
        *refusal = Refusal{QDir::toNativeSeparators(lockFile), false, {}};
    QDir().mkpath(QFileInfo(lockFile).absolutePath());
#ifdef Q_OS_WIN
    const std::wstring name = win32Path(lockFile);
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
            reinterpret_cast<LPCWSTR>(lockSddl(accountSid).utf16()), SDDL_REVISION_1, &descriptor, nullptr))
        descriptor = nullptr;
    SECURITY_ATTRIBUTES attributes{sizeof(attributes), descriptor, FALSE};
    // Shared with no one: while it is open, no other process may open it to read, write or delete.
    const HANDLE file = CreateFileW(name.c_str(), GENERIC_READ | GENERIC_WRITE | DELETE, 0,
                                    descriptor ? &attributes : nullptr, OPEN_ALWAYS,
                                    FILE_ATTRIBUTE_NORMAL | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    const DWORD error = file == INVALID_HANDLE_VALUE ? GetLastError() : DWORD(ERROR_SUCCESS);
    LocalFree(descriptor);
    if (file == INVALID_HANDLE_VALUE) {
        if (refusal) {
            refusal->shutOut = error == ERROR_ACCESS_DENIED;
            refusal->holder = ownerOf(lockFile);
        }
        return nullptr;
    }
    return std::make_unique<HandleLock>(file);
#else
    Q_UNUSED(accountSid) // no ACLs: the folder's owner and mode keep others out
    auto file = std::make_unique<QLockFile>(lockFile);
    file->setStaleLockTime(0); // only a dead owner makes it stale, never its age
    if (!file->tryLock(0)) {
        if (refusal) {
            refusal->shutOut = file->error() == QLockFile::PermissionError;
            qint64 pid = 0;
            QString host;
            QString program;
            if (file->getLockInfo(&pid, &host, &program))
                refusal->holder = QStringLiteral("process %1 (%2) on %3").arg(pid).arg(program, host);
        }
        return nullptr;
    }
    return std::make_unique<FileLock>(std::move(file));
#endif
}

} // namespace cudnnsetup
