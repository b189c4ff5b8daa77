#pragma once

#include "platform/Elevation.h"

#include <QString>

// A process whose rights are as told: elevated or not, SYSTEM or not, and its account's SID; it
// runs nothing elevated. For the rules that depend on who runs a change or a check.
class FixedElevation final : public cudnnsetup::Elevation
{
public:
    explicit FixedElevation(bool elevated, const QString &account = QString(), bool localSystem = false)
        : m_elevated(elevated || localSystem)
        , m_localSystem(localSystem)
        , m_account(localSystem ? QStringLiteral("S-1-5-18") : account)
    {
    }
    bool isElevated() const override { return m_elevated; }
    bool isLocalSystem() const override { return m_localSystem; }
    QString accountSid() const override { return m_account; }
    bool isAdministratorsMember() const override { return m_elevated; }
    cudnnsetup::UacState uacState() const override { return cudnnsetup::UacState::Enabled; }
    cudnnsetup::Expected<int> runElevated(const QString &, const QStringList &, const QString &,
                                          const cudnnsetup::ElevatedStart &) const override
    {
        return 0;
    }

private:
    bool m_elevated;
    bool m_localSystem;
    QString m_account;
};
