#include "platform/Registry.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include "platform/Win32Handles.h"
#endif

#include <QList>

namespace cudnnsetup {

namespace {

class UnavailableRegistry final : public Registry
{
public:
    bool isAvailable() const override { return false; }
    std::optional<RegistryValue> value(RegistryHive, const QString &, const QString &,
                                       RegistryView) const override
    {
        return std::nullopt;
    }
    QStringList subKeys(RegistryHive, const QString &, RegistryView) const override { return {}; }
    QStringList valueNames(RegistryHive, const QString &, RegistryView) const override { return {}; }
};

#ifdef Q_OS_WIN
class WindowsRegistry final : public Registry
{
public:
    bool isAvailable() const override { return true; }

    std::optional<RegistryValue> value(RegistryHive hive, const QString &key, const QString &name,
                                       RegistryView view) const override
    {
        const OwnedKey handle = open(hive, key, view);
        if (!handle)
            return std::nullopt;
        DWORD type = 0;
        DWORD size = 0;
        const std::wstring valueName = name.toStdWString();
        LONG rc = RegQueryValueExW(handle.get(), valueName.c_str(), nullptr, &type, nullptr, &size);
        QByteArray data;
        if (rc == ERROR_SUCCESS) {
            data.resize(int(size));
            rc = RegQueryValueExW(handle.get(), valueName.c_str(), nullptr, &type,
                                  reinterpret_cast<LPBYTE>(data.data()), &size);
            data.resize(int(size));
        }
        if (rc != ERROR_SUCCESS)
            return std::nullopt;

        RegistryValue result;
        result.raw = data;
        switch (type) {
        case REG_SZ:
        case REG_EXPAND_SZ:
        case REG_MULTI_SZ: {
            result.type = type == REG_SZ          ? RegistryValue::String
                          : type == REG_EXPAND_SZ ? RegistryValue::ExpandString
                                                  : RegistryValue::MultiString;
            // Stored data may lack its terminating NUL, or hold junk after it (embedded NUL).
            QString text =
                QString::fromUtf16(reinterpret_cast<const char16_t *>(data.constData()), data.size() / 2);
            if (type != REG_MULTI_SZ) {
                const qsizetype nul = text.indexOf(QChar(0));
                if (nul >= 0)
                    text.truncate(nul);
            } else {
                while (text.endsWith(QChar(0)))
                    text.chop(1);
            }
            result.text = text;
            break;
        }
        case REG_DWORD:
            result.type = RegistryValue::DWord;
            if (data.size() >= 4)
                result.number = *reinterpret_cast<const quint32 *>(data.constData());
            break;
        case REG_QWORD:
            result.type = RegistryValue::QWord;
            if (data.size() >= 8)
                result.number = *reinterpret_cast<const quint64 *>(data.constData());
            break;
        case REG_BINARY:
            result.type = RegistryValue::Binary;
            break;
        default:
            result.type = RegistryValue::Other;
            break;
        }
        return result;
    }

    QStringList subKeys(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        QStringList names;
        const OwnedKey handle = open(hive, key, view);
        if (!handle)
            return names;
        wchar_t name[256];
        for (DWORD index = 0;; ++index) {
            DWORD length = 256;
            const LONG rc =
                RegEnumKeyExW(handle.get(), index, name, &length, nullptr, nullptr, nullptr, nullptr);
            if (rc == ERROR_NO_MORE_ITEMS)
                break;
            if (rc == ERROR_SUCCESS)
                names.append(QString::fromWCharArray(name, int(length)));
            else if (rc != ERROR_MORE_DATA)
                break;
        }
        return names;
    }

    QStringList valueNames(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        QStringList names;
        const OwnedKey handle = open(hive, key, view);
        if (!handle)
            return names;
        // Value names may be up to 16,383 characters.
        std::wstring name(16384, L'\0');
        for (DWORD index = 0;; ++index) {
            DWORD length = DWORD(name.size());
            const LONG rc =
                RegEnumValueW(handle.get(), index, name.data(), &length, nullptr, nullptr, nullptr, nullptr);
            if (rc == ERROR_NO_MORE_ITEMS)
                break;
            if (rc != ERROR_SUCCESS)
                break;
            names.append(QString::fromWCharArray(name.data(), int(length)));
        }
        return names;
    }

private:
    static OwnedKey open(RegistryHive hive, const QString &key, RegistryView view)
    {
        HKEY root = hive == RegistryHive::CurrentUser ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE;
        REGSAM access = KEY_READ | (view == RegistryView::Wow32 ? KEY_WOW64_32KEY : KEY_WOW64_64KEY);
        HKEY handle = nullptr;
        const std::wstring path = QString(key).replace(QLatin1Char('/'), QLatin1Char('\\')).toStdWString();
        if (RegOpenKeyExW(root, path.c_str(), 0, access, &handle) != ERROR_SUCCESS)
            return nullptr;
        return OwnedKey(handle);
    }
};
#endif

} // namespace

std::shared_ptr<Registry> Registry::forRunningSystem()
{
#ifdef Q_OS_WIN
    return std::make_shared<WindowsRegistry>();
#else
    return unavailable();
#endif
}

std::shared_ptr<Registry> Registry::unavailable()
{
    return std::make_shared<UnavailableRegistry>();
}

QString Registry::hiveName(RegistryHive hive)
{
    return hive == RegistryHive::CurrentUser ? QStringLiteral("HKCU") : QStringLiteral("HKLM");
}

} // namespace cudnnsetup
