#include "platform/EnvironmentStore.h"

namespace cudnnsetup {

EnvironmentStore::EnvironmentStore(OsFamily family, const QProcessEnvironment &process,
                                   std::shared_ptr<Registry> registry)
    : m_paths(family)
    , m_process(process)
    , m_registry(std::move(registry))
{
}

QString EnvironmentStore::value(const QString &name) const
{
    if (m_process.contains(name)) {
#ifdef Q_OS_WIN
        // A Windows host's QProcessEnvironment ignores case; a Linux tree's names do not.
        if (!m_paths.isWindows() && !m_process.keys().contains(name))
            return {};
#endif
        return m_process.value(name);
    }
    if (m_paths.isWindows()) {
        // QProcessEnvironment ignores case only on Windows hosts; a Windows tree read elsewhere
        // still has Windows names.
        const QStringList keys = m_process.keys();
        for (const QString &key : keys) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return m_process.value(key);
        }
    }
    return {};
}

QStringList EnvironmentStore::processPath() const
{
    return m_paths.splitList(value(QStringLiteral("PATH")));
}

QString EnvironmentStore::registryKey(EnvironmentScope scope)
{
    return scope == EnvironmentScope::User
               ? QStringLiteral("Environment")
               : QStringLiteral("SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment");
}

std::optional<RegistryValue> EnvironmentStore::registryValue(EnvironmentScope scope,
                                                             const QString &name) const
{
    if (!registryAvailable())
        return std::nullopt;
    const RegistryHive hive =
        scope == EnvironmentScope::User ? RegistryHive::CurrentUser : RegistryHive::LocalMachine;
    return m_registry->value(hive, registryKey(scope), name);
}

QString storedVariable(EnvironmentScope scope, const QString &name,
                       const std::function<std::optional<QString>(EnvironmentScope, const QString &)> &stored,
                       const std::function<QString(const QString &)> &session)
{
    const QList<EnvironmentScope> visible =
        scope == EnvironmentScope::User
            ? QList<EnvironmentScope>{EnvironmentScope::User, EnvironmentScope::System}
            : QList<EnvironmentScope>{EnvironmentScope::System};
    for (const EnvironmentScope where : visible) {
        if (const std::optional<QString> value = stored(where, name))
            return *value; // one level, as Windows itself expands
    }
    // A user variable is not a session's own, and a machine value cannot see it.
    if (scope == EnvironmentScope::System && stored(EnvironmentScope::User, name))
        return QString();
    return session ? session(name) : QString();
}

QString EnvironmentStore::expand(const QString &text, EnvironmentScope scope) const
{
    const auto stored = [this](EnvironmentScope where, const QString &name) -> std::optional<QString> {
        const std::optional<RegistryValue> value = registryValue(where, name);
        if (value && (value->type == RegistryValue::String || value->type == RegistryValue::ExpandString))
            return value->text;
        return std::nullopt;
    };
    return m_paths.expandVariables(text, [this, scope, &stored](const QString &name) {
        return storedVariable(scope, name, stored, [this](const QString &session) { return value(session); });
    });
}

std::optional<QString> EnvironmentStore::freshValue(const QString &name) const
{
    if (!registryAvailable())
        return std::nullopt;
    for (EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::System}) {
        const auto stored = registryValue(scope, name);
        if (stored && (stored->type == RegistryValue::String || stored->type == RegistryValue::ExpandString))
            return stored->type == RegistryValue::ExpandString ? expand(stored->text, scope) : stored->text;
    }
    return QString();
}

std::optional<QStringList> EnvironmentStore::freshPath() const
{
    if (!registryAvailable())
        return std::nullopt;
    return *storedPath(EnvironmentScope::System) + *storedPath(EnvironmentScope::User);
}

std::optional<QStringList> EnvironmentStore::storedPath(EnvironmentScope scope) const
{
    if (!registryAvailable())
        return std::nullopt;
    const auto stored = registryValue(scope, QStringLiteral("Path"));
    if (!stored || (stored->type != RegistryValue::String && stored->type != RegistryValue::ExpandString))
        return QStringList();
    return m_paths.splitList(stored->type == RegistryValue::ExpandString ? expand(stored->text, scope)
                                                                         : stored->text);
}

std::optional<QProcessEnvironment> EnvironmentStore::freshEnvironment() const
{
    const std::optional<QStringList> path = freshPath();
    if (!path)
        return std::nullopt;
    QProcessEnvironment fresh = m_process;
    // Windows names ignore case: a stored "Path" replaces this process's "PATH" (on a Linux host
    // running the Windows logic in tests, QProcessEnvironment itself would keep both).
    const auto replace = [&fresh](const QString &name, const QString &value) {
        for (const QString &existing : fresh.keys()) {
            if (existing.compare(name, Qt::CaseInsensitive) == 0)
                fresh.remove(existing);
        }
        fresh.insert(name, value);
    };
    for (EnvironmentScope scope : {EnvironmentScope::System, EnvironmentScope::User}) {
        const RegistryHive hive =
            scope == EnvironmentScope::User ? RegistryHive::CurrentUser : RegistryHive::LocalMachine;
        for (const QString &name : m_registry->valueNames(hive, registryKey(scope))) {
            if (name.compare(QLatin1String("Path"), Qt::CaseInsensitive) == 0)
                continue;
            if (const std::optional<QString> value = freshValue(name); value && !value->isNull())
                replace(name, *value);
        }
    }
    replace(QStringLiteral("Path"), path->join(m_paths.listSeparator()));
    return fresh;
}

} // namespace cudnnsetup
