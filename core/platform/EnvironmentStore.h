#pragma once

#include "platform/Registry.h"
#include "platform/SystemPaths.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cudnnsetup {

// Whose stored environment: the user's (HKCU\Environment) or the whole system's (HKLM's
// Session Manager\Environment), spelt as `--path user|system` spells them. (Receipts and the
// journal store the second as "machine", the name older versions wrote.)
enum class EnvironmentScope
{
    User,
    System,
};

// What %NAME% stands for in a value stored in `scope`, as Windows builds a new program's
// environment: the stored values `scope` sees (a user value sees the user's own first, then the
// machine's; a machine value sees the machine's only), one level deep, as Windows itself expands;
// then the session's own (SystemRoot, USERPROFILE), which are not stored and which `session`
// tells, except for a name only the user stores, which a machine value cannot see. Null when
// unknown. `stored` reads one stored text value (nullopt: absent). The one rule for every %VAR% in
// a stored PATH or variable: the page's preview, the install, the doctor, detection's fresh PATH.
QString storedVariable(EnvironmentScope scope, const QString &name,
                       const std::function<std::optional<QString>(EnvironmentScope, const QString &)> &stored,
                       const std::function<QString(const QString &)> &session);

// The environment of the inspected system: the variables of this process (with --system-root,
// the caller sets them to describe the image) and, on Windows, the user and machine values the
// registry holds now, which a freshly started program would get. Read-only.
class EnvironmentStore
{
public:
    EnvironmentStore(OsFamily family, const QProcessEnvironment &process, std::shared_ptr<Registry> registry);

    OsFamily family() const { return m_paths.family(); }
    // The process's value; Windows names ignore case. Null when unset.
    QString value(const QString &name) const;
    bool contains(const QString &name) const { return !value(name).isNull(); }
    QProcessEnvironment processEnvironment() const { return m_process; }
    QStringList processPath() const;

    bool registryAvailable() const { return m_registry && m_registry->isAvailable(); }
    // The raw stored value (REG_EXPAND_SZ kept unexpanded); nullopt when absent or unknown.
    std::optional<RegistryValue> registryValue(EnvironmentScope scope, const QString &name) const;
    static QString registryKey(EnvironmentScope scope);

    // The value a freshly started program would see (Windows: user value over machine value,
    // PATH = machine PATH + user PATH, %VARS% in a machine value expanded against the machine's
    // variables only, in a user value against the user's and the machine's); nullopt when the
    // registry is unknown.
    std::optional<QString> freshValue(const QString &name) const;
    std::optional<QStringList> freshPath() const;
    // The entries of `scope`'s own stored PATH, expanded as freshPath() expands them (empty when
    // that scope has none); nullopt when the registry is unknown.
    std::optional<QStringList> storedPath(EnvironmentScope scope) const;
    // The whole environment a freshly started program would get: this process's variables (the
    // session's own, such as SystemRoot and USERNAME, are not stored), each variable the registry
    // stores replaced by its fresh value and PATH rebuilt; nullopt when the registry is unknown.
    std::optional<QProcessEnvironment> freshEnvironment() const;

private:
    QString expand(const QString &text, EnvironmentScope scope) const;

    SystemPaths m_paths;
    QProcessEnvironment m_process;
    std::shared_ptr<Registry> m_registry;
};

} // namespace cudnnsetup
