#include "platform/MemoryEnvironment.h"

#include <algorithm>

namespace cudnnsetup {

Expected<std::optional<StoredEnvironmentValue>> MemoryEnvironment::read(EnvironmentScope scope,
                                                                        const QString &name) const
{
    if (name.isEmpty() || name.contains(QChar(0)))
        return readError(scope, name, QStringLiteral("invalid name"));
    const auto &stored = values(scope);
    const auto it = stored.constFind(key(name));
    if (it == stored.constEnd())
        return std::optional<StoredEnvironmentValue>();
    Expected<StoredEnvironmentValue> decoded = fromRegistryData(scope, it->spelling, it->type, it->data);
    if (!decoded)
        return decoded.error();
    return std::optional<StoredEnvironmentValue>(decoded.value());
}

Expected<void> MemoryEnvironment::write(EnvironmentScope scope, const QString &name,
                                        const StoredEnvironmentValue &value)
{
    if (Expected<void> valid = checkWritable(scope, name, value); !valid)
        return valid;
    if (Expected<void> begun = beginChange(scope, name, false); !begun)
        return begun;
    set(scope, name, value);
    ++m_writeCount;
    return {};
}

Expected<void> MemoryEnvironment::remove(EnvironmentScope scope, const QString &name)
{
    if (name.isEmpty() || name.contains(QChar(0)))
        return writeError(scope, name, true, QStringLiteral("invalid name"));
    if (Expected<void> begun = beginChange(scope, name, true); !begun)
        return begun;
    values(scope).remove(key(name));
    ++m_writeCount;
    return {};
}

void MemoryEnvironment::set(EnvironmentScope scope, const QString &name, const StoredEnvironmentValue &value)
{
    setRegistryData(scope, name, value.expandable ? RegistryExpandString : RegistryString,
                    toRegistryData(value.text));
}

void MemoryEnvironment::setRegistryData(EnvironmentScope scope, const QString &name, quint32 type,
                                        const QByteArray &data)
{
    Stored &stored = values(scope)[key(name)];
    if (stored.spelling.isEmpty())
        stored.spelling = name; // the registry keeps a value's first spelling when it is overwritten
    stored.type = type;
    stored.data = data;
}

std::optional<StoredEnvironmentValue> MemoryEnvironment::value(EnvironmentScope scope,
                                                               const QString &name) const
{
    const auto stored = read(scope, name);
    return stored ? stored.value() : std::nullopt;
}

QStringList MemoryEnvironment::names(EnvironmentScope scope) const
{
    QStringList result;
    for (const Stored &stored : values(scope))
        result.append(stored.spelling);
    std::sort(result.begin(), result.end(),
              [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    return result;
}

void MemoryEnvironment::failWritesAfter(int n, int count)
{
    m_failAfter = n < 0 || count == 0 ? -1 : n;
    m_failCount = count;
}

void MemoryEnvironment::denyWrites(EnvironmentScope scope, bool deny)
{
    (scope == EnvironmentScope::User ? m_denyUser : m_denyMachine) = deny;
}

Expected<void> MemoryEnvironment::beginChange(EnvironmentScope scope, const QString &name, bool removing)
{
    ++m_attemptCount;
    if (scope == EnvironmentScope::User ? m_denyUser : m_denyMachine)
        return accessDeniedError(scope, name, QStringLiteral("denied by MemoryEnvironment::denyWrites"));
    if (m_failAfter < 0)
        return {};
    if (m_failAfter > 0) {
        --m_failAfter;
        return {};
    }
    if (m_failCount > 0 && --m_failCount == 0)
        m_failAfter = -1;
    return writeError(scope, name, removing,
                      QStringLiteral("failure injected by MemoryEnvironment::failWritesAfter"));
}

QHash<QString, MemoryEnvironment::Stored> &MemoryEnvironment::values(EnvironmentScope scope)
{
    return scope == EnvironmentScope::User ? m_user : m_machine;
}

const QHash<QString, MemoryEnvironment::Stored> &MemoryEnvironment::values(EnvironmentScope scope) const
{
    return scope == EnvironmentScope::User ? m_user : m_machine;
}

} // namespace cudnnsetup
