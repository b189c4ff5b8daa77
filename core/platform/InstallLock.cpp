#include "platform/InstallLock.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <aclapi.h>
#include <sddl.h>

#include "platform/Win32Handles.h"
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
    explicit HandleLock(OwnedHandle file)
        : m_file(std::move(file))
    {
    }

private:
    OwnedHandle m_file; // FILE_FLAG_DELETE_ON_CLOSE: closing it removes the file
};

// "owned by S-1-5-…": the account that owns `lockFile`; empty where that cannot be read. Reading
// its descriptor needs no share of the file, so this works while another process holds it.
QString ownerOf(const QString &lockFile)
{
    const std::wstring name = win32Path(lockFile);
    PSID owner = nullptr;
    PSECURITY_DESCRIPTOR read = nullptr;
    const DWORD readError = GetNamedSecurityInfoW(name.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION,
                                                  &owner, nullptr, nullptr, nullptr, &read);
    const LocalMemory<void> descriptor(read); // `owner` points into it
    LPWSTR converted = nullptr;
    if (readError != ERROR_SUCCESS || !owner || !ConvertSidToStringSidW(owner, &converted))
        return {};
    const LocalMemory<wchar_t> sid(converted);
    return QStringLiteral("owned by %1").arg(QString::fromWCharArray(sid.get()));
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
    PSECURITY_DESCRIPTOR made = nullptr;
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
            reinterpret_cast<LPCWSTR>(lockSddl(accountSid).utf16()), SDDL_REVISION_1, &made, nullptr))
        made = nullptr;
    const LocalMemory<void> descriptor(made);
    SECURITY_ATTRIBUTES attributes{sizeof(attributes), made, FALSE};
    // Shared with no one: while it is open, no other process may open it to read, write or delete.
    OwnedHandle file = owned(CreateFileW(name.c_str(), GENERIC_READ | GENERIC_WRITE | DELETE, 0,
                                         made ? &attributes : nullptr, OPEN_ALWAYS,
                                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_DELETE_ON_CLOSE, nullptr));
    if (!file) {
        const DWORD error = GetLastError();
        if (refusal) {
            refusal->shutOut = error == ERROR_ACCESS_DENIED;
            refusal->holder = ownerOf(lockFile);
        }
        return nullptr;
    }
    return std::make_unique<HandleLock>(std::move(file));
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
