#pragma once

#include "platform/PersistentEnvironment.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// A persistent environment held in memory, for tests and dry runs. It behaves as the registry
// does: names ignore case and keep the spelling they were first written with, each scope is its
// own set of values, values are kept as registry bytes and read back through the same decoding.
// Faults can be injected so callers' failure paths (rollback) can be tested.
class MemoryEnvironment final : public PersistentEnvironment
{
public:
    bool isAvailable() const override { return true; }
    Expected<std::optional<StoredEnvironmentValue>> read(EnvironmentScope scope,
                                                         const QString &name) const override;
    Expected<void> write(EnvironmentScope scope, const QString &name,
                         const StoredEnvironmentValue &value) override;
    Expected<void> remove(EnvironmentScope scope, const QString &name) override;
    void announceChange() override { ++m_announceCount; }

    // Set-up: puts a value in place as it is, counting no write and never failing.
    void set(EnvironmentScope scope, const QString &name, const StoredEnvironmentValue &value);
    // Set-up: a value as raw registry data (a REG_DWORD, a string with a NUL inside); reads decode
    // it as the registry implementation does.
    void setRegistryData(EnvironmentScope scope, const QString &name, quint32 type, const QByteArray &data);

    // What is stored now, without going through read(): nullopt when absent or not text.
    std::optional<StoredEnvironmentValue> value(EnvironmentScope scope, const QString &name) const;
    QStringList names(EnvironmentScope scope) const; // as spelled when first written, sorted

    int announceCount() const { return m_announceCount; }
    int writeCount() const { return m_writeCount; }     // successful writes and removes
    int attemptCount() const { return m_attemptCount; } // writes and removes tried, failed ones too

    // The (n+1)-th write or remove from now on fails with "environment.write-failed", and so do the
    // `count` - 1 after it (count < 0: every one after it). n < 0 ends the injection.
    void failWritesAfter(int n, int count = 1);
    // Writes and removes in `scope` fail with "environment.access-denied", as the machine scope
    // does for a user who is no administrator.
    void denyWrites(EnvironmentScope scope, bool deny = true);

private:
    struct Stored
    {
        QString spelling;
        quint32 type = RegistryString;
        QByteArray data;
    };
    Expected<void> beginChange(EnvironmentScope scope, const QString &name, bool removing);
    QHash<QString, Stored> &values(EnvironmentScope scope);
    const QHash<QString, Stored> &values(EnvironmentScope scope) const;
    static QString key(const QString &name) { return name.toUpper(); }

    QHash<QString, Stored> m_user;    // upper-case name -> value
    QHash<QString, Stored> m_machine; // upper-case name -> value
    int m_announceCount = 0;
    int m_writeCount = 0;
    int m_attemptCount = 0;
    int m_failAfter = -1; // attempts left before the injected failures start; -1: none
    int m_failCount = 0;  // injected failures left (negative: unlimited)
    bool m_denyUser = false;
    bool m_denyMachine = false;
};

} // namespace cudnnsetup
