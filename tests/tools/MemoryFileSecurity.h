#pragma once

#include "platform/FileSecurity.h"

#include <QDir>
#include <QHash>
#include <QList>
#include <QPair>
#include <QSet>

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
    // protect() of `hostPath` fails as Windows' does where its descriptor shuts the administrators
    // out (access denied).
    void shutOut(const QString &hostPath) { m_shutOut.insert(QDir::cleanPath(hostPath)); }
    // makeFolder() of `hostPath` fails (access denied, a full disk).
    void failMaking(const QString &hostPath) { m_unmakeable.insert(QDir::cleanPath(hostPath)); }
    // The folders protect() was asked for, with the SDDL, in order.
    QList<QPair<QString, QString>> protectedFolders() const { return m_protected; }
    // The folders makeFolder() made, with the SDDL, in order.
    QList<QPair<QString, QString>> madeFolders() const { return m_made; }

    cudnnsetup::DescriptorAnswer descriptorOf(const QString &hostPath) const override
    {
        return m_answers.value(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::noAclSystem());
    }
    cudnnsetup::SystemResult protect(const QString &hostPath, const QString &sddl) const override
    {
        if (m_shutOut.contains(QDir::cleanPath(hostPath)))
            return accessDenied(hostPath);
        m_protected.append({QDir::cleanPath(hostPath), sddl});
        m_answers.insert(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::fromSddl(sddl));
        return {};
    }
    cudnnsetup::SystemResult makeFolder(const QString &hostPath, const QString &sddl) const override
    {
        if (m_unmakeable.contains(QDir::cleanPath(hostPath)) || !QDir().mkdir(hostPath))
            return accessDenied(hostPath);
        m_made.append({QDir::cleanPath(hostPath), sddl});
        m_answers.insert(QDir::cleanPath(hostPath), cudnnsetup::DescriptorAnswer::fromSddl(sddl));
        return {};
    }

private:
    static cudnnsetup::SystemFailure accessDenied(const QString &hostPath)
    {
        return {hostPath + QStringLiteral(": Access is denied."), 5, {hostPath}};
    }

    mutable QHash<QString, cudnnsetup::DescriptorAnswer> m_answers;
    mutable QList<QPair<QString, QString>> m_protected;
    mutable QList<QPair<QString, QString>> m_made;
    QSet<QString> m_shutOut;
    QSet<QString> m_unmakeable;
};
