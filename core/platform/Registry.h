#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace cudnnsetup {

enum class RegistryHive
{
    CurrentUser,
    LocalMachine,
};

// Which registry view to read on 64-bit Windows: 32-bit programs register under WOW6432Node.
enum class RegistryView
{
    Native,
    Wow32,
};

struct RegistryValue
{
    enum Type
    {
        String,       // REG_SZ
        ExpandString, // REG_EXPAND_SZ: %VAR% references kept as written
        MultiString,  // REG_MULTI_SZ
        DWord,
        QWord,
        Binary,
        Other,
    };
    Type type = Other;
    QString text; // string types, exactly as stored (never expanded), without the final NUL
    quint64 number = 0;
    QByteArray raw; // the stored bytes, for values that are not what they should be
};

// Read access to the Windows registry of the running system. The registry belongs to the running
// system only: on other hosts, and when another system's files are inspected (--system-root), it
// is "unavailable" and every value it holds is reported as unknown, never guessed from the host.
class Registry
{
public:
    virtual ~Registry() = default;

    virtual bool isAvailable() const = 0;
    virtual std::optional<RegistryValue> value(RegistryHive hive, const QString &key, const QString &name,
                                               RegistryView view = RegistryView::Native) const = 0;
    // The names of the values of `key`, as written.
    virtual QStringList valueNames(RegistryHive hive, const QString &key,
                                   RegistryView view = RegistryView::Native) const = 0;
    virtual QStringList subKeys(RegistryHive hive, const QString &key,
                                RegistryView view = RegistryView::Native) const = 0;

    // The running system's registry on Windows; unavailable elsewhere.
    static std::shared_ptr<Registry> forRunningSystem();
    static std::shared_ptr<Registry> unavailable();

    static QString hiveName(RegistryHive hive);
};

} // namespace cudnnsetup
