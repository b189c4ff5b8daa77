#include "platform/PersistentEnvironment.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include "platform/Win32Handles.h"
#endif

#include "common/Logging.h"

namespace cudnnsetup {

namespace {

QString hexBytes(const QByteArray &data)
{
    return data.isEmpty() ? QStringLiteral("(no bytes)") : QString::fromLatin1(data.toHex(' '));
}

class UnavailableEnvironment final : public PersistentEnvironment
{
public:
    bool isAvailable() const override { return false; }
    Expected<std::optional<StoredEnvironmentValue>> read(EnvironmentScope, const QString &name) const override
    {
        return unavailableError(name);
    }
    Expected<void> write(EnvironmentScope, const QString &name, const StoredEnvironmentValue &) override
    {
        return unavailableError(name);
    }
    Expected<void> remove(EnvironmentScope, const QString &name) override { return unavailableError(name); }
    void announceChange() override {}
};

#ifdef Q_OS_WIN
static_assert(REG_SZ == PersistentEnvironment::RegistryString, "winnt.h's REG_SZ");
static_assert(REG_EXPAND_SZ == PersistentEnvironment::RegistryExpandString, "winnt.h's REG_EXPAND_SZ");

QString windowsError(const char *call, LONG code)
{
    wchar_t *allocated = nullptr;
    const DWORD length = FormatMessageW(
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
        DWORD(code), 0, reinterpret_cast<LPWSTR>(&allocated), 0, nullptr);
    const LocalMemory<wchar_t> buffer(allocated);
    const QString text = length ? QString::fromWCharArray(buffer.get(), int(length)).trimmed() : QString();
    return QStringLiteral("%1: error %2 (%3)").arg(QLatin1String(call)).arg(code).arg(text);
}

// The registry's own UTF-16, unchanged: QString::fromUtf16 would drop a leading byte order mark.
std::wstring wide(const QString &text)
{
    return std::wstring(reinterpret_cast<const wchar_t *>(text.utf16()), size_t(text.size()));
}

class RegistryEnvironment final : public PersistentEnvironment
{
public:
    RegistryEnvironment(const QString &userKey, const QString &machineKey)
        : m_userKey(userKey)
        , m_machineKey(machineKey)
    {
    }

    bool isAvailable() const override { return true; }

    Expected<std::optional<StoredEnvironmentValue>> read(EnvironmentScope scope,
                                                         const QString &name) const override
    {
        if (Expected<void> valid = checkName(scope, name, false); !valid)
            return valid.error();
        HKEY opened = nullptr;
        LONG rc = RegOpenKeyExW(root(scope), wide(keyPath(scope)).c_str(), 0, KEY_QUERY_VALUE, &opened);
        if (rc == ERROR_FILE_NOT_FOUND)
            return std::optional<StoredEnvironmentValue>(); // no key (HKCU\Environment can be missing)
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegOpenKeyExW", rc), Action::Read);
        OwnedKey key(opened);

        const std::wstring valueName = wide(name);
        DWORD type = 0;
        QByteArray data;
        // The value can grow between the size query and the read: ask again until it fits.
        for (int attempt = 0;; ++attempt) {
            DWORD size = 0;
            rc = RegQueryValueExW(key.get(), valueName.c_str(), nullptr, &type, nullptr, &size);
            if (rc != ERROR_SUCCESS)
                break;
            data.resize(qsizetype(size));
            DWORD got = size;
            rc = RegQueryValueExW(key.get(), valueName.c_str(), nullptr, &type,
                                  reinterpret_cast<LPBYTE>(data.data()), &got);
            if (rc == ERROR_MORE_DATA && attempt < 16)
                continue;
            data.resize(qsizetype(got));
            break;
        }
        key.reset();
        if (rc == ERROR_FILE_NOT_FOUND)
            return std::optional<StoredEnvironmentValue>();
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegQueryValueExW", rc), Action::Read);

        Expected<StoredEnvironmentValue> decoded = fromRegistryData(scope, name, type, data);
        if (!decoded) {
            qCWarning(lcPlatform).noquote()
                << "environment: not text:" << where(scope) + QLatin1Char('\\') + name
                << decoded.error().details;
            return decoded.error();
        }
        return std::optional<StoredEnvironmentValue>(decoded.value());
    }

    Expected<void> write(EnvironmentScope scope, const QString &name,
                         const StoredEnvironmentValue &value) override
    {
        if (Expected<void> valid = checkWritable(scope, name, value); !valid)
            return valid;
        HKEY opened = nullptr;
        DWORD disposition = 0;
        // Created when missing: HKCU\Environment does not exist on every system (nanoserver).
        LONG rc =
            RegCreateKeyExW(root(scope), wide(keyPath(scope)).c_str(), 0, nullptr, REG_OPTION_NON_VOLATILE,
                            KEY_QUERY_VALUE | KEY_SET_VALUE, nullptr, &opened, &disposition);
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegCreateKeyExW", rc), Action::Write);
        OwnedKey key(opened);
        if (disposition == REG_CREATED_NEW_KEY)
            qCInfo(lcPlatform).noquote() << "environment: created the key" << where(scope);

        const QByteArray data = toRegistryData(value.text);
        const DWORD type = value.expandable ? REG_EXPAND_SZ : REG_SZ;
        rc = RegSetValueExW(key.get(), wide(name).c_str(), 0, type,
                            reinterpret_cast<const BYTE *>(data.constData()), DWORD(data.size()));
        key.reset();
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegSetValueExW", rc), Action::Write);

        // Read back: what the next program gets must be exactly what was meant.
        const auto stored = read(scope, name);
        if (!stored || !stored->has_value() || **stored != value) {
            return writeError(scope, name, false,
                              QStringLiteral("the value read back differs from the value written%1")
                                  .arg(stored ? QString() : QStringLiteral(": ") + stored.error().details));
        }
        qCInfo(lcPlatform).noquote() << "environment: wrote" << where(scope) + QLatin1Char('\\') + name
                                     << registryTypeName(type) << value.text.size()
                                     << "characters:" << value.text;
        return {};
    }

    Expected<void> remove(EnvironmentScope scope, const QString &name) override
    {
        if (Expected<void> valid = checkName(scope, name, true); !valid)
            return valid;
        HKEY opened = nullptr;
        LONG rc = RegOpenKeyExW(root(scope), wide(keyPath(scope)).c_str(), 0, KEY_SET_VALUE, &opened);
        if (rc == ERROR_FILE_NOT_FOUND)
            return {}; // no key, so no value
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegOpenKeyExW", rc), Action::Remove);
        rc = RegDeleteValueW(OwnedKey(opened).get(), wide(name).c_str());
        if (rc == ERROR_FILE_NOT_FOUND)
            return {};
        if (rc != ERROR_SUCCESS)
            return failure(scope, name, rc, windowsError("RegDeleteValueW", rc), Action::Remove);
        qCInfo(lcPlatform).noquote() << "environment: removed" << where(scope) + QLatin1Char('\\') + name;
        return {};
    }

    void announceChange() override
    {
        DWORD_PTR result = 0;
        const LRESULT sent =
            SendMessageTimeoutW(HWND_BROADCAST, WM_SETTINGCHANGE, 0, reinterpret_cast<LPARAM>(L"Environment"),
                                SMTO_ABORTIFHUNG, 5000, &result);
        if (sent)
            qCInfo(lcPlatform) << "environment: WM_SETTINGCHANGE \"Environment\" broadcast";
        else
            qCWarning(lcPlatform).noquote() << "environment: WM_SETTINGCHANGE broadcast did not finish:"
                                            << windowsError("SendMessageTimeoutW", LONG(GetLastError()));
    }

private:
    static HKEY root(EnvironmentScope scope)
    {
        return scope == EnvironmentScope::User ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE;
    }
    QString keyPath(EnvironmentScope scope) const
    {
        return scope == EnvironmentScope::User ? m_userKey : m_machineKey;
    }
    // The key as the log names it: HKCU\Environment, or the scratch key a test gave.
    QString where(EnvironmentScope scope) const
    {
        return (scope == EnvironmentScope::User ? QStringLiteral("HKCU\\") : QStringLiteral("HKLM\\")) +
               keyPath(scope);
    }

    static Expected<void> checkName(EnvironmentScope scope, const QString &name, bool removing)
    {
        // An empty name is the key's default value, which is no environment variable.
        if (name.isEmpty() || name.contains(QChar(0)))
            return removing ? writeError(scope, name, true, QStringLiteral("invalid name"))
                            : readError(scope, name, QStringLiteral("invalid name"));
        return {};
    }

    enum class Action
    {
        Read,
        Write,
        Remove,
    };
    Finding failure(EnvironmentScope scope, const QString &name, LONG code, const QString &details,
                    Action action) const
    {
        qCWarning(lcPlatform).noquote()
            << "environment:" << where(scope) + QLatin1Char('\\') + name << details;
        if (code == ERROR_ACCESS_DENIED)
            return accessDeniedError(scope, name, details);
        if (action == Action::Read)
            return readError(scope, name, details);
        return writeError(scope, name, action == Action::Remove, details);
    }

    QString m_userKey;
    QString m_machineKey;
};
#endif

} // namespace

std::shared_ptr<PersistentEnvironment> PersistentEnvironment::forRunningSystem()
{
#ifdef Q_OS_WIN
    return forRegistryKeys(EnvironmentStore::registryKey(EnvironmentScope::User),
                           EnvironmentStore::registryKey(EnvironmentScope::System));
#else
    return unavailable(); // Linux installs write no persistent environment (yet)
#endif
}

std::shared_ptr<PersistentEnvironment> PersistentEnvironment::unavailable()
{
    return std::make_shared<UnavailableEnvironment>();
}

std::shared_ptr<PersistentEnvironment> PersistentEnvironment::forRegistryKeys(const QString &userKey,
                                                                              const QString &machineKey)
{
#ifdef Q_OS_WIN
    return std::make_shared<RegistryEnvironment>(userKey, machineKey);
#else
    Q_UNUSED(userKey);
    Q_UNUSED(machineKey);
    return unavailable();
#endif
}

QString PersistentEnvironment::location(EnvironmentScope scope)
{
    return (scope == EnvironmentScope::User ? QStringLiteral("HKCU\\") : QStringLiteral("HKLM\\")) +
           EnvironmentStore::registryKey(scope);
}

QString PersistentEnvironment::registryTypeName(quint32 type)
{
    switch (type) {
    case 0:
        return QStringLiteral("REG_NONE");
    case 1:
        return QStringLiteral("REG_SZ");
    case 2:
        return QStringLiteral("REG_EXPAND_SZ");
    case 3:
        return QStringLiteral("REG_BINARY");
    case 4:
        return QStringLiteral("REG_DWORD");
    case 5:
        return QStringLiteral("REG_DWORD_BIG_ENDIAN");
    case 6:
        return QStringLiteral("REG_LINK");
    case 7:
        return QStringLiteral("REG_MULTI_SZ");
    case 11:
        return QStringLiteral("REG_QWORD");
    default:
        return QStringLiteral("type %1").arg(type);
    }
}

Expected<StoredEnvironmentValue> PersistentEnvironment::fromRegistryData(EnvironmentScope scope,
                                                                         const QString &name, quint32 type,
                                                                         const QByteArray &data)
{
    const auto notText = [&](const QString &why) {
        return Finding::error(
            QStringLiteral("environment.not-text"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The environment variable %1 in %2 does not hold plain text, so it is "
                                   "left as it is."))
                .arg(name, location(scope)),
            QStringLiteral("%1, %2, %3 bytes: %4")
                .arg(registryTypeName(type), why)
                .arg(data.size())
                .arg(hexBytes(data)),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Look at the value with the Registry Editor (regedit) and repair or "
                                   "delete it, then try again.")));
    };
    if (type != RegistryString && type != RegistryExpandString)
        return notText(QStringLiteral("not a string type"));
    if (data.size() % 2 != 0)
        return notText(QStringLiteral("an odd number of bytes"));

    // Copied unit by unit: the text is kept exactly, whatever UTF-16 it holds.
    QString text(reinterpret_cast<const QChar *>(data.constData()), data.size() / 2);
    qsizetype end = text.size();
    while (end > 0 && text.at(end - 1).isNull())
        --end; // the terminator (and NUL padding some writers add); missing is allowed too
    const qsizetype nul = text.indexOf(QChar(0));
    if (nul >= 0 && nul < end)
        return notText(QStringLiteral("a NUL character at position %1").arg(nul));
    text.truncate(end);

    StoredEnvironmentValue value;
    value.text = text;
    value.expandable = type == RegistryExpandString;
    return value;
}

QByteArray PersistentEnvironment::toRegistryData(const QString &text)
{
    QByteArray data(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    data.append('\0');
    data.append('\0');
    return data;
}

Expected<void> PersistentEnvironment::checkWritable(EnvironmentScope scope, const QString &name,
                                                    const StoredEnvironmentValue &value)
{
    if (name.isEmpty() || name.contains(QChar(0)) || name.contains(QLatin1Char('=')))
        return writeError(scope, name, false, QStringLiteral("invalid name"));
    const qsizetype nul = value.text.indexOf(QChar(0));
    if (nul >= 0) {
        // Stored, it would end the value there for every reader (Windows Terminal #16764).
        return writeError(scope, name, false,
                          QStringLiteral("the value holds a NUL character at position %1").arg(nul));
    }
    return {};
}

Finding PersistentEnvironment::unavailableError(const QString &name)
{
    return Finding::error(
        QStringLiteral("environment.unavailable"),
        Text(
            QT_TRANSLATE_NOOP("cudnnsetup",
                              "The stored environment variable %1 cannot be read or changed on this system."))
            .arg(name),
        QStringLiteral("no persistent environment: only the running Windows system's registry is supported "
                       "(not Linux, not --system-root)"));
}

Finding PersistentEnvironment::readError(EnvironmentScope scope, const QString &name, const QString &details)
{
    return Finding::error(
        QStringLiteral("environment.read-failed"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The environment variable %1 could not be read from %2."))
            .arg(name, location(scope)),
        details);
}

Finding PersistentEnvironment::writeError(EnvironmentScope scope, const QString &name, bool removing,
                                          const QString &details)
{
    return Finding::error(
        QStringLiteral("environment.write-failed"),
        (removing ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "The environment variable %1 could not be removed from %2."))
                  : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "The environment variable %1 could not be written to %2.")))
            .arg(name, location(scope)),
        details);
}

Finding PersistentEnvironment::accessDeniedError(EnvironmentScope scope, const QString &name,
                                                 const QString &details)
{
    const Text fix =
        scope == EnvironmentScope::System
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Changing the system's environment variables needs an "
                                                   "administrator: run the setup as an administrator, or "
                                                   "choose the user PATH instead."))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check that your account may change %1."))
                  .arg(location(scope));
    return Finding::error(
        QStringLiteral("environment.access-denied"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Access to the environment variable %1 in %2 was denied."))
            .arg(name, location(scope)),
        details, fix);
}

} // namespace cudnnsetup
