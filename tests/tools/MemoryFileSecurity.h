#pragma once

#include "platform/FileSecurity.h"

#include <QDir>
#include <QHash>
#include <QList>
#include <QPair>

// File security as data, for what Wine and Linux cannot show: each host path's descriptor as SDDL
// (as ConvertSecurityDescriptorToStringSecurityDescriptorW would write it), or that it cannot be
// read, and the folders given a descriptor, which then read back with it. A path given nothing
// reads as on a system without ACLs, so a test gives only the paths it is about. Header-only: the
// test tools library stays as it is.
class MemoryFileSecurity final : public cudnnsetup::FileSecurity
{
public:
    void set(const QString &hostPath, const QString &sddl)
    {
        m_answers.insert(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::fromSddl(sddl));
    }
    // Reading the descriptor of `hostPath` fails (access denied, an error) with `problem`.
    void setUnreadable(const QString &hostPath, const QString &problem)
    {
        m_answers.insert(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::unreadable(problem));
    }
    // The folders protect() was asked for, with the SDDL, in order.
    QList<QPair<QString, QString>> protectedFolders() const { return m_protected; }

    cudnnsetup::DescriptorAnswer descriptorOf(const QString &hostPath) const override
    {
        return m_answers.value(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::noAclSystem());
    }
    cudnnsetup::SystemResult protect(const QString &hostPath, const QString &sddl) const override
    {
        m_protected.append({QDir::cleanPath(hostPath), sddl});
        m_answers.insert(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::fromSddl(sddl));
        return {};
    }

private:
    mutable QHash<QString, cudnnsetup::DescriptorAnswer> m_answers;
    mutable QList<QPair<QString, QString>> m_protected;
};
