#pragma once

#include "platform/FileSecurity.h"

#include <QDir>
#include <QHash>
#include <QList>
#include <QPair>

// File security as data, for what Wine and Linux cannot show: each host path's descriptor as SDDL
// (as ConvertSecurityDescriptorToStringSecurityDescriptorW would write it), and the folders given
// a descriptor, which then read back with it. Header-only: the test tools library stays as it is.
class MemoryFileSecurity final : public cudnnsetup::FileSecurity
{
public:
    void set(const QString &hostPath, const QString &sddl) { m_sddl.insert(QDir::cleanPath(hostPath), sddl); }
    // The folders protect() was asked for, with the SDDL, in order.
    QList<QPair<QString, QString>> protectedFolders() const { return m_protected; }

    std::optional<cudnnsetup::SecurityDescriptor> descriptorOf(const QString &hostPath) const override
    {
        const auto found = m_sddl.constFind(QDir::cleanPath(hostPath));
        if (found == m_sddl.constEnd())
            return std::nullopt;
        const auto descriptor = cudnnsetup::SecurityDescriptor::fromSddl(*found);
        if (!descriptor)
            qFatal("test descriptor %s: %s", qPrintable(*found), qPrintable(descriptor.error().details));
        return *descriptor;
    }
    cudnnsetup::SystemResult protect(const QString &hostPath, const QString &sddl) const override
    {
        m_protected.append({QDir::cleanPath(hostPath), sddl});
        m_sddl.insert(QDir::cleanPath(hostPath), sddl);
        return {};
    }

private:
    mutable QHash<QString, QString> m_sddl;
    mutable QList<QPair<QString, QString>> m_protected;
};
