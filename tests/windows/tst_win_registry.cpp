// The registry through our Registry and EnvironmentStore, against the real Win32 registry.
#include "Suite.h"
#include "platform/EnvironmentStore.h"
#include "platform/Registry.h"

#include <qt_windows.h>

#include <QTest>
#include <QUuid>

using namespace cudnnsetup;

namespace {

void setValue(HKEY key, const wchar_t *name, DWORD type, const void *data, DWORD bytes)
{
    QCOMPARE(RegSetValueExW(key, name, 0, type, static_cast<const BYTE *>(data), bytes), LONG(ERROR_SUCCESS));
}

void setText(HKEY key, const wchar_t *name, DWORD type, const std::wstring &text, bool withTerminator = true)
{
    setValue(key, name, type, text.c_str(),
             DWORD((text.size() + (withTerminator ? 1 : 0)) * sizeof(wchar_t)));
}

} // namespace

class TestWinRegistry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_key = QStringLiteral("Software\\cudnn-setup-tests\\") +
                QUuid::createUuid().toString(QUuid::WithoutBraces);
        const std::wstring path = m_key.toStdWString();
        HKEY key = nullptr;
        QCOMPARE(RegCreateKeyExW(HKEY_CURRENT_USER, path.c_str(), 0, nullptr, 0, KEY_ALL_ACCESS, nullptr,
                                 &key, nullptr),
                 LONG(ERROR_SUCCESS));
        setText(key, L"Path", REG_EXPAND_SZ, L"%USERPROFILE%\\bin;%SystemRoot%\\system32");
        setText(key, L"Plain", REG_SZ, L"C:\\Tools");
        setText(key, L"NoTerminator", REG_SZ, L"C:\\CUDA", false);
        setText(key, L"EmbeddedNul", REG_SZ, std::wstring(L"abc\0def", 7));
        const wchar_t lone[] = {L'a', wchar_t(0xD800), L'b', 0};
        setValue(key, L"LoneSurrogate", REG_SZ, lone, sizeof(lone));
        setText(key, L"Multi", REG_MULTI_SZ, std::wstring(L"one\0two\0", 8));
        const DWORD number = 7;
        setValue(key, L"Count", REG_DWORD, &number, sizeof(number));
        const quint64 big = 0x123456789ull;
        setValue(key, L"Big", REG_QWORD, &big, sizeof(big));
        for (const wchar_t *sub : {L"Sub1", L"Sub2"}) {
            HKEY child = nullptr;
            QCOMPARE(RegCreateKeyExW(key, sub, 0, nullptr, 0, KEY_ALL_ACCESS, nullptr, &child, nullptr),
                     LONG(ERROR_SUCCESS));
            RegCloseKey(child);
        }
        RegCloseKey(key);
    }

    void cleanupTestCase()
    {
        RegDeleteTreeW(HKEY_CURRENT_USER, L"Software\\cudnn-setup-tests");
        RegDeleteKeyValueW(HKEY_CURRENT_USER, L"Environment", L"CUDNN_SETUP_TEST");
    }

    void readsRawValues()
    {
        const auto registry = Registry::forRunningSystem();
        QVERIFY(registry->isAvailable());
        const auto path = registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("Path"));
        QVERIFY(path);
        QCOMPARE(path->type, RegistryValue::ExpandString);
        QCOMPARE(path->text, QStringLiteral("%USERPROFILE%\\bin;%SystemRoot%\\system32")); // never expanded
        const auto plain =
            registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("plain")); // names ignore case
        QVERIFY(plain);
        QCOMPARE(plain->type, RegistryValue::String);
        QCOMPARE(plain->text, QStringLiteral("C:\\Tools"));
        QCOMPARE(registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("Count"))->number,
                 quint64(7));
        QCOMPARE(registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("Big"))->number,
                 quint64(0x123456789ull));
        const auto multi = registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("Multi"));
        QCOMPARE(multi->type, RegistryValue::MultiString);
        QCOMPARE(multi->text, QStringLiteral("one") + QChar(0) + QStringLiteral("two"));
        QVERIFY(!registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("Missing")));
        QVERIFY(!registry->value(RegistryHive::CurrentUser, m_key + QStringLiteral("\\NoSuchKey"),
                                 QStringLiteral("Path")));
    }

    void oddStringsSurvive()
    {
        const auto registry = Registry::forRunningSystem();
        QCOMPARE(registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("NoTerminator"))->text,
                 QStringLiteral("C:\\CUDA"));
        const auto nul = registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("EmbeddedNul"));
        QCOMPARE(nul->text, QStringLiteral("abc"));          // what Windows programs see
        QCOMPARE(nul->raw.size(), int(8 * sizeof(wchar_t))); // and every stored byte is kept
        const auto lone = registry->value(RegistryHive::CurrentUser, m_key, QStringLiteral("LoneSurrogate"));
        QCOMPARE(lone->text.size(), 3);
        QCOMPARE(lone->text.at(1).unicode(), char16_t(0xD800)); // invalid UTF-16 kept as stored
    }

    void listsSubKeys()
    {
        const auto registry = Registry::forRunningSystem();
        QStringList keys = registry->subKeys(RegistryHive::CurrentUser, m_key);
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("Sub1"), QStringLiteral("Sub2")}));
        QVERIFY(registry->subKeys(RegistryHive::CurrentUser, m_key + QStringLiteral("\\Sub1")).isEmpty());
    }

    // A freshly started program's value: the registry's, expanded once.
    void freshEnvironmentComesFromTheRegistry()
    {
        HKEY environmentKey = nullptr;
        QCOMPARE(RegCreateKeyExW(HKEY_CURRENT_USER, L"Environment", 0, nullptr, 0, KEY_ALL_ACCESS, nullptr,
                                 &environmentKey, nullptr),
                 LONG(ERROR_SUCCESS));
        setText(environmentKey, L"CUDNN_SETUP_TEST", REG_EXPAND_SZ, L"%SystemRoot%\\cudnn");
        RegCloseKey(environmentKey);
        const EnvironmentStore store(OsFamily::Windows, QProcessEnvironment::systemEnvironment(),
                                     Registry::forRunningSystem());
        QVERIFY(store.registryAvailable());
        const auto raw = store.registryValue(EnvironmentScope::User, QStringLiteral("CUDNN_SETUP_TEST"));
        QCOMPARE(raw->text, QStringLiteral("%SystemRoot%\\cudnn"));
        wchar_t expected[MAX_PATH];
        ExpandEnvironmentStringsW(L"%SystemRoot%\\cudnn", expected, MAX_PATH);
        QCOMPARE(store.freshValue(QStringLiteral("CUDNN_SETUP_TEST")).value(),
                 QString::fromWCharArray(expected));
        // This process started before the value existed: its own environment lacks it.
        QVERIFY(store.value(QStringLiteral("CUDNN_SETUP_TEST")).isNull());
        QVERIFY(store.freshPath().has_value());
    }

private:
    QString m_key;
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinRegistry)
#include "tst_win_registry.moc"
