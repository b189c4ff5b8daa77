#pragma once

#include "platform/PosixOwnership.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>

// POSIX owners and modes as data, for what a test run without root cannot make (a folder another
// user owns) and what a Windows host has none of: each host path's owner and mode as given; any
// other path that exists on the host is root's, with mode 0755. Whether a path exists and is a link
// the host's files tell. Header-only: the test tools library stays as it is.
class MemoryPosixOwnership final : public cudnnsetup::PosixOwnership
{
public:
    explicit MemoryPosixOwnership(bool runsAsRoot = false)
        : m_runsAsRoot(runsAsRoot)
    {
    }

    void set(const QString &hostPath, uint owner, uint mode)
    {
        m_given.insert(QDir::cleanPath(hostPath), {owner, mode});
    }

    cudnnsetup::Expected<cudnnsetup::PosixStatus, cudnnsetup::SystemFailure>
    statusOf(const QString &hostPath) const override
    {
        const QFileInfo info(hostPath);
        cudnnsetup::PosixStatus status;
        status.exists = info.exists() || info.isSymLink();
        if (!status.exists)
            return status;
        status.isLink = info.isSymLink();
        status.isDir = info.isDir() && !status.isLink;
        const auto given = m_given.constFind(QDir::cleanPath(hostPath));
        status.owner = given == m_given.constEnd() ? 0 : given->first;
        status.mode = given == m_given.constEnd() ? 0755 : given->second;
        return status;
    }
    bool runsAsRoot() const override { return m_runsAsRoot; }

private:
    QHash<QString, std::pair<uint, uint>> m_given; // host path -> owner, mode
    bool m_runsAsRoot;
};
