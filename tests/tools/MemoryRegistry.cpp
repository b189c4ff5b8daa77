#include "MemoryRegistry.h"

using namespace cudnnsetup;

QString MemoryRegistry::keyPath(RegistryHive hive, RegistryView view, const QString &key)
{
    QString path = Registry::hiveName(hive) +
                   (view == RegistryView::Wow32 ? QStringLiteral("32\\") : QStringLiteral("\\")) + key;
    path.replace(QLatin1Char('/'), QLatin1Char('\\'));
    while (path.endsWith(QLatin1Char('\\')))
        path.chop(1);
    return path;
}

void MemoryRegistry::set(RegistryHive hive, const QString &key, const QString &name,
                         const RegistryValue &value, RegistryView view)
{
    // Every ancestor key exists, as in the real registry.
    const QString path = keyPath(hive, view, key);
    QStringList parts = path.split(QLatin1Char('\\'));
    for (int i = 1; i <= parts.size(); ++i) {
        const QString ancestor = QStringList(parts.mid(0, i)).join(QLatin1Char('\\'));
        m_spelling.insert(ancestor.toLower(), ancestor);
        m_keys[ancestor.toLower()];
    }
    if (!name.isNull()) {
        m_keys[path.toLower()].insert(name.toLower(), value);
        m_valueSpelling[path.toLower()].insert(name.toLower(), name);
    }
}

void MemoryRegistry::setString(RegistryHive hive, const QString &key, const QString &name,
                               const QString &text, RegistryValue::Type type, RegistryView view)
{
    RegistryValue value;
    value.type = type;
    value.text = text;
    set(hive, key, name, value, view);
}

std::optional<RegistryValue> MemoryRegistry::value(RegistryHive hive, const QString &key, const QString &name,
                                                   RegistryView view) const
{
    const auto keyIt = m_keys.constFind(keyPath(hive, view, key).toLower());
    if (keyIt == m_keys.constEnd())
        return std::nullopt;
    const auto valueIt = keyIt->constFind(name.toLower());
    if (valueIt == keyIt->constEnd())
        return std::nullopt;
    return *valueIt;
}

QStringList MemoryRegistry::subKeys(RegistryHive hive, const QString &key, RegistryView view) const
{
    const QString prefix = keyPath(hive, view, key).toLower() + QLatin1Char('\\');
    QStringList names;
    for (auto it = m_spelling.constBegin(); it != m_spelling.constEnd(); ++it) {
        if (it.key().startsWith(prefix) && !it.key().mid(prefix.size()).contains(QLatin1Char('\\')))
            names.append(it.value().mid(prefix.size()));
    }
    names.sort(Qt::CaseInsensitive);
    return names;
}

QStringList MemoryRegistry::valueNames(RegistryHive hive, const QString &key, RegistryView view) const
{
    QStringList names = m_valueSpelling.value(keyPath(hive, view, key).toLower()).values();
    names.sort(Qt::CaseInsensitive);
    return names;
}
