#include "platform/PosixOwnership.h"

#ifndef Q_OS_WIN
#include <cerrno>
#include <vector>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <QFile>

namespace cudnnsetup {

namespace {

#ifndef Q_OS_WIN
QString userName(uid_t user)
{
    const long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(suggested > 0 ? size_t(suggested) : size_t(16384));
    passwd entry{};
    passwd *found = nullptr;
    if (::getpwuid_r(user, &entry, buffer.data(), buffer.size(), &found) != 0 || !found)
        return {};
    return QFile::decodeName(found->pw_name);
}

class RunningPosixOwnership final : public PosixOwnership
{
public:
    Expected<PosixStatus, SystemFailure> statusOf(const QString &hostPath) const override
    {
        struct stat info
        {
        };
        if (::lstat(QFile::encodeName(hostPath).constData(), &info) != 0) {
            const int error = errno;
            if (error == ENOENT || error == ENOTDIR)
                return PosixStatus{};
            return SystemFailure{
                QStringLiteral("lstat %1: %2").arg(hostPath, qt_error_string(error)), error, {hostPath}};
        }
        PosixStatus status;
        status.exists = true;
        status.isLink = S_ISLNK(info.st_mode);
        status.isDir = S_ISDIR(info.st_mode);
        status.owner = uint(info.st_uid);
        status.ownerName = userName(info.st_uid);
        status.mode = uint(info.st_mode) & 07777u;
        return status;
    }

    bool runsAsRoot() const override { return ::geteuid() == 0; }
};
#else
class NoPosixOwnership final : public PosixOwnership
{
public:
    Expected<PosixStatus, SystemFailure> statusOf(const QString &hostPath) const override
    {
        return SystemFailure{
            QStringLiteral("%1: Windows keeps no POSIX owners").arg(hostPath), 0, {hostPath}};
    }

    bool runsAsRoot() const override { return false; }
};
#endif

} // namespace

QString PosixStatus::ownerShown() const
{
    return ownerName.isEmpty() ? QStringLiteral("uid %1").arg(owner)
                               : QStringLiteral("%1 (uid %2)").arg(ownerName).arg(owner);
}

QString PosixStatus::modeShown() const
{
    return QStringLiteral("%1").arg(mode, 4, 8, QLatin1Char('0'));
}

std::shared_ptr<PosixOwnership> PosixOwnership::forRunningSystem()
{
#ifndef Q_OS_WIN
    return std::make_shared<RunningPosixOwnership>();
#else
    return std::make_shared<NoPosixOwnership>();
#endif
}

} // namespace cudnnsetup
