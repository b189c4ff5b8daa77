#include "platform/InstallLock.h"

#include "platform/Sha256.h"

#include <QDir>
#include <QFileInfo>
#include <QLockFile>

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <sddl.h>
#endif

namespace cudnnsetup {

namespace {

#ifdef Q_OS_WIN
class MutexLock final : public InstallLock
{
public:
    explicit MutexLock(HANDLE mutex)
        : m_mutex(mutex)
    {
    }
    ~MutexLock() override
    {
        ReleaseMutex(m_mutex);
        CloseHandle(m_mutex);
    }

private:
    HANDLE m_mutex;
};
#endif

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

} // namespace

QString InstallLock::mutexName(const QString &lockFile, Scope scope)
{
    QString name = QStringLiteral("Global\\cuDNN-Setup-Install");
    if (scope == Scope::RootedTree) {
        // Windows paths are compared without case.
        const QString path = QDir::cleanPath(QFileInfo(lockFile).absoluteFilePath()).toLower();
        name += QLatin1Char('-') + Sha256::of(path.toUtf8()).left(32);
    }
    return name;
}

QString InstallLock::mutexSddl()
{
    // 0x1f0001: MUTEX_ALL_ACCESS; 0x100001: SYNCHRONIZE | MUTEX_MODIFY_STATE.
    return QStringLiteral("D:P(A;;0x1f0001;;;SY)(A;;0x1f0001;;;BA)(A;;0x100001;;;AU)");
}

std::unique_ptr<InstallLock> InstallLock::tryAcquire(const QString &lockFile, Scope scope, bool *shutOut)
{
    if (shutOut)
        *shutOut = false;
#ifdef Q_OS_WIN
    const std::wstring wideName = mutexName(lockFile, scope).toStdWString();
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    ConvertStringSecurityDescriptorToSecurityDescriptorW(reinterpret_cast<LPCWSTR>(mutexSddl().utf16()),
                                                         SDDL_REVISION_1, &descriptor, nullptr);
    SECURITY_ATTRIBUTES attributes{sizeof(attributes), descriptor, FALSE};
    HANDLE mutex = CreateMutexW(descriptor ? &attributes : nullptr, FALSE, wideName.c_str());
    LocalFree(descriptor);
    // One that exists and may not be opened with every right: asked for what taking it needs.
    if (!mutex && GetLastError() == ERROR_ACCESS_DENIED)
        mutex = OpenMutexW(SYNCHRONIZE | MUTEX_MODIFY_STATE, FALSE, wideName.c_str());
    if (!mutex) {
        if (shutOut)
            *shutOut = GetLastError() == ERROR_ACCESS_DENIED;
        return nullptr;
    }
    const DWORD waited = WaitForSingleObject(mutex, 0);
    if (waited != WAIT_OBJECT_0 && waited != WAIT_ABANDONED) {
        CloseHandle(mutex);
        return nullptr;
    }
    return std::make_unique<MutexLock>(mutex);
#else
    Q_UNUSED(scope) // the lock file is the tree's own
    QDir().mkpath(QFileInfo(lockFile).absolutePath());
    auto file = std::make_unique<QLockFile>(lockFile);
    file->setStaleLockTime(0); // only a dead owner makes it stale, never its age
    if (!file->tryLock(0)) {
        if (shutOut)
            *shutOut = file->error() == QLockFile::PermissionError;
        return nullptr;
    }
    return std::make_unique<FileLock>(std::move(file));
#endif
}

} // namespace cudnnsetup
