#pragma once

#include "platform/Registry.h"

#include <QHash>

// An in-memory registry, so the Windows logic (PEP 514, CUDA keys, display adapters, the
// Environment keys) is tested on any host.
class MemoryRegistry final : public cudnnsetup::Registry
{
public:
    void set(cudnnsetup::RegistryHive hive, const QString &key, const QString &name,
             const cudnnsetup::RegistryValue &value,
             cudnnsetup::RegistryView view = cudnnsetup::RegistryView::Native);
    void setString(cudnnsetup::RegistryHive hive, const QString &key, const QString &name,
                   const QString &text,
                   cudnnsetup::RegistryValue::Type type = cudnnsetup::RegistryValue::String,
                   cudnnsetup::RegistryView view = cudnnsetup::RegistryView::Native);

    bool isAvailable() const override { return true; }
    std::optional<cudnnsetup::RegistryValue> value(cudnnsetup::RegistryHive hive, const QString &key,
                                                   const QString &name,
                                                   cudnnsetup::RegistryView view) const override;
    QStringList subKeys(cudnnsetup::RegistryHive hive, const QString &key,
                        cudnnsetup::RegistryView view) const override;
    QStringList valueNames(cudnnsetup::RegistryHive hive, const QString &key,
                           cudnnsetup::RegistryView view) const override;

private:
    static QString keyPath(cudnnsetup::RegistryHive hive, cudnnsetup::RegistryView view, const QString &key);
    QHash<QString, QHash<QString, cudnnsetup::RegistryValue>>
        m_keys;                         // lower-case key path -> lower-case name -> value
    QHash<QString, QString> m_spelling; // lower-case key path -> as written
    QHash<QString, QHash<QString, QString>> m_valueSpelling; // key path -> lower-case name -> as written
};
