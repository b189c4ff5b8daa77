#include "platform/InstallLock.h"

#include <QDir>
#include <QFileInfo>
#include <QLockFile>

#ifdef Q_OS_WIN
#include <qt_windows.h>
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

std::unique_ptr<InstallLock> InstallLock::tryAcquire(const QString &lockFile)
{
#ifdef Q_OS_WIN
    Q_UNUSED(lockFile)
    HANDLE mutex = CreateMutexW(nullptr, FALSE, L"Global\\cuDNN-Setup-Install");
    if (!mutex && GetLastError() == ERROR_ACCESS_DENIED)
        mutex = OpenMutexW(SYNCHRONIZE | MUTEX_MODIFY_STATE, FALSE, L"Global\\cuDNN-Setup-Install");
    if (!mutex)
        return nullptr;
    const DWORD waited = WaitForSingleObject(mutex, 0);
    if (waited != WAIT_OBJECT_0 && waited != WAIT_ABANDONED) {
        CloseHandle(mutex);
        return nullptr;
    }
    return std::make_unique<MutexLock>(mutex);
#else
    QDir().mkpath(QFileInfo(lockFile).absolutePath());
    auto file = std::make_unique<QLockFile>(lockFile);
    file->setStaleLockTime(0); // only a dead owner makes it stale, never its age
    if (!file->tryLock(0))
        return nullptr;
    return std::make_unique<FileLock>(std::move(file));
#endif
}

} // namespace cudnnsetup
