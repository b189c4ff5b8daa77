#include "MemoryRegistry.h"
#include "Suite.h"
#include "platform/EnvironmentStore.h"

#include <QTest>

using namespace cudnnsetup;

class TestEnvironmentStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void windowsNamesIgnoreCase()
    {
        QProcessEnvironment process;
        process.insert(QStringLiteral("Path"), QStringLiteral("C:\\a;C:\\b"));
        const EnvironmentStore store(OsFamily::Windows, process, std::make_shared<MemoryRegistry>());
        QCOMPARE(store.value(QStringLiteral("PATH")), QStringLiteral("C:\\a;C:\\b"));
        QCOMPARE(store.processPath(), (QStringList{QStringLiteral("C:\\a"), QStringLiteral("C:\\b")}));
        const EnvironmentStore linux(OsFamily::Linux, process, Registry::unavailable());
        QVERIFY(linux.value(QStringLiteral("PATH")).isNull());
    }

    void freshPathIsMachineThenUserExpandedOnce()
    {
        auto registry = std::make_shared<MemoryRegistry>();
        const QString machineKey = EnvironmentStore::registryKey(EnvironmentScope::System);
        const QString userKey = EnvironmentStore::registryKey(EnvironmentScope::User);
        registry->setString(RegistryHive::LocalMachine, machineKey, QStringLiteral("Path"),
                            QStringLiteral("%SystemRoot%\\system32;%CUDA_PATH%\\bin"),
                            RegistryValue::ExpandString);
        registry->setString(RegistryHive::LocalMachine, machineKey, QStringLiteral("CUDA_PATH"),
                            QStringLiteral("C:\\CUDA\\v12.2"));
        registry->setString(RegistryHive::CurrentUser, userKey, QStringLiteral("Path"),
                            QStringLiteral("%USERPROFILE%\\bin;C:\\Tools"), RegistryValue::ExpandString);
        QProcessEnvironment process;
        process.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
        process.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\张三"));
        const EnvironmentStore store(OsFamily::Windows, process, registry);
        QCOMPARE(store.freshPath().value(),
                 (QStringList{QStringLiteral("C:\\Windows\\system32"), QStringLiteral("C:\\CUDA\\v12.2\\bin"),
                              QStringLiteral("C:\\Users\\张三\\bin"), QStringLiteral("C:\\Tools")}));
        // The stored value stays exactly as written.
        const auto raw = store.registryValue(EnvironmentScope::System, QStringLiteral("PATH"));
        QVERIFY(raw);
        QCOMPARE(raw->type, RegistryValue::ExpandString);
        QCOMPARE(raw->text, QStringLiteral("%SystemRoot%\\system32;%CUDA_PATH%\\bin"));
        QCOMPARE(store.freshValue(QStringLiteral("CUDA_PATH")).value(), QStringLiteral("C:\\CUDA\\v12.2"));
    }

    // A per-user CUDA_PATH (a common way to switch toolkits) does not reach the machine's Path:
    // Windows expands that before any user variable exists. The user's own Path does see it.
    void machineValuesSeeOnlyMachineVariables()
    {
        auto registry = std::make_shared<MemoryRegistry>();
        const QString machineKey = EnvironmentStore::registryKey(EnvironmentScope::System);
        const QString userKey = EnvironmentStore::registryKey(EnvironmentScope::User);
        registry->setString(RegistryHive::LocalMachine, machineKey, QStringLiteral("Path"),
                            QStringLiteral("%CUDA_PATH%\\bin;%TOOLS%\\bin"), RegistryValue::ExpandString);
        registry->setString(RegistryHive::LocalMachine, machineKey, QStringLiteral("CUDA_PATH"),
                            QStringLiteral("C:\\CUDA\\v12.2"));
        registry->setString(RegistryHive::CurrentUser, userKey, QStringLiteral("CUDA_PATH"),
                            QStringLiteral("C:\\CUDA\\v11.8"));
        registry->setString(RegistryHive::CurrentUser, userKey, QStringLiteral("TOOLS"),
                            QStringLiteral("D:\\tools"));
        registry->setString(RegistryHive::CurrentUser, userKey, QStringLiteral("Path"),
                            QStringLiteral("%CUDA_PATH%\\libnvvp"), RegistryValue::ExpandString);
        registry->setString(RegistryHive::CurrentUser, userKey, QStringLiteral("CUDNN_BIN"),
                            QStringLiteral("%CUDA_PATH%\\bin"), RegistryValue::ExpandString);
        // This process was started with the user's variables in its environment.
        QProcessEnvironment process;
        process.insert(QStringLiteral("CUDA_PATH"), QStringLiteral("C:\\CUDA\\v11.8"));
        process.insert(QStringLiteral("TOOLS"), QStringLiteral("D:\\tools"));
        const EnvironmentStore store(OsFamily::Windows, process, registry);
        QCOMPARE(store.freshPath().value(),
                 (QStringList{QStringLiteral("C:\\CUDA\\v12.2\\bin"), QStringLiteral("%TOOLS%\\bin"),
                              QStringLiteral("C:\\CUDA\\v11.8\\libnvvp")}));
        QCOMPARE(store.freshValue(QStringLiteral("CUDA_PATH")).value(), QStringLiteral("C:\\CUDA\\v11.8"));
        QCOMPARE(store.freshValue(QStringLiteral("CUDNN_BIN")).value(),
                 QStringLiteral("C:\\CUDA\\v11.8\\bin"));
    }

    void unknownWithoutRegistry()
    {
        const EnvironmentStore store(OsFamily::Windows, QProcessEnvironment(), Registry::unavailable());
        QVERIFY(!store.registryAvailable());
        QVERIFY(!store.freshPath().has_value());
        QVERIFY(!store.freshValue(QStringLiteral("CUDA_PATH")).has_value());
    }

    void pathOfAnotherTypeIsLeftAlone()
    {
        auto registry = std::make_shared<MemoryRegistry>();
        RegistryValue dword;
        dword.type = RegistryValue::DWord;
        dword.number = 7;
        registry->set(RegistryHive::CurrentUser, EnvironmentStore::registryKey(EnvironmentScope::User),
                      QStringLiteral("Path"), dword);
        const EnvironmentStore store(OsFamily::Windows, QProcessEnvironment(), registry);
        QCOMPARE(store.freshPath().value(), QStringList());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestEnvironmentStore)
#include "tst_environmentstore.moc"
