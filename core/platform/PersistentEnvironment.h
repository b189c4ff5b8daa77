#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "platform/EnvironmentStore.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

// An environment value exactly as the system stores it.
struct StoredEnvironmentValue
{
    QString text;            // raw: %VARS% never expanded, nothing trimmed
    bool expandable = false; // Windows: REG_EXPAND_SZ (true) or REG_SZ (false)

    bool operator==(const StoredEnvironmentValue &other) const
    {
        return text == other.text && expandable == other.expandable;
    }
    bool operator!=(const StoredEnvironmentValue &other) const { return !(*this == other); }
};

// The environment values that outlive this process and that newly started programs get (Windows:
// HKCU\Environment for the user, HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment
// for the machine), read raw and written one value at a time. Install operations change the
// environment through this interface only; the wizard's EnvironmentStore reads what it wrote.
class PersistentEnvironment
{
public:
    virtual ~PersistentEnvironment() = default;

    virtual bool isAvailable() const = 0;
    // nullopt inside: the value does not exist. An error: it exists but cannot be read as text
    // (another type, access denied); its raw form is in the details.
    virtual Expected<std::optional<StoredEnvironmentValue>> read(EnvironmentScope scope,
                                                                 const QString &name) const = 0;
    // Writes the value whole (creating HKCU\Environment when it is missing).
    virtual Expected<void> write(EnvironmentScope scope, const QString &name,
                                 const StoredEnvironmentValue &value) = 0;
    // Removes the value; removing one that does not exist succeeds.
    virtual Expected<void> remove(EnvironmentScope scope, const QString &name) = 0;
    // Tells running programs (Explorer, and through it every program started afterwards) that the
    // environment changed: WM_SETTINGCHANGE "Environment" on Windows.
    virtual void announceChange() = 0;

    // The running system's (Windows: the registry); unavailable elsewhere and under --system-root.
    static std::shared_ptr<PersistentEnvironment> forRunningSystem();
    // Every read, write and remove answers "environment.unavailable".
    static std::shared_ptr<PersistentEnvironment> unavailable();
    // The Windows registry implementation on other keys (under HKCU and HKLM, as `registryKey`
    // spells them), so tests can point it at scratch keys; unavailable off Windows.
    static std::shared_ptr<PersistentEnvironment> forRegistryKeys(const QString &userKey,
                                                                  const QString &machineKey);

    // Where the values of `scope` live, for messages and logs: "HKCU\Environment",
    // "HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment".
    static QString location(EnvironmentScope scope);

    // The registry's value types this interface deals with (winnt.h's numbers).
    enum RegistryType : quint32
    {
        RegistryString = 1,       // REG_SZ
        RegistryExpandString = 2, // REG_EXPAND_SZ
    };
    static QString registryTypeName(quint32 type); // "REG_SZ", "REG_DWORD", ..., "type 42"

    // A registry value's type and bytes as text: REG_SZ or REG_EXPAND_SZ holding UTF-16 text with
    // at most NULs at its end (the terminator, possibly missing). Anything else (another type, an
    // odd byte count, a NUL inside the text) is "environment.not-text" with every byte in hex in
    // the details. Lone surrogates and a leading U+FEFF are kept as they are.
    static Expected<StoredEnvironmentValue> fromRegistryData(EnvironmentScope scope, const QString &name,
                                                             quint32 type, const QByteArray &data);
    // The bytes to store: the UTF-16 text and one terminating NUL.
    static QByteArray toRegistryData(const QString &text);

protected:
    // Shared by the implementations, so every one answers alike.
    static Expected<void> checkWritable(EnvironmentScope scope, const QString &name,
                                        const StoredEnvironmentValue &value);
    static Finding unavailableError(const QString &name);
    static Finding readError(EnvironmentScope scope, const QString &name, const QString &details);
    static Finding writeError(EnvironmentScope scope, const QString &name, bool removing,
                              const QString &details);
    static Finding accessDeniedError(EnvironmentScope scope, const QString &name, const QString &details);
};

} // namespace cudnnsetup
