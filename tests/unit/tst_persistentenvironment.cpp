#include "Suite.h"
#include "platform/MemoryEnvironment.h"
#include "platform/PersistentEnvironment.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>
#endif

#include <utility>

#include <QRandomGenerator>
#include <QTest>
#include <QThread>

using namespace cudnnsetup;

namespace {

StoredEnvironmentValue expandable(const QString &text)
{
    return StoredEnvironmentValue{text, true};
}

StoredEnvironmentValue plain(const QString &text)
{
    return StoredEnvironmentValue{text, false};
}

// Bytes as the registry stores them: UTF-16LE code units.
QByteArray utf16(const QString &text)
{
    return QByteArray(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
}

QString longValue(int length)
{
    QString text;
    int i = 0;
    while (text.size() < length)
        text += QStringLiteral("%SystemRoot%\\路径\\%1;").arg(i++);
    text.truncate(length);
    return text;
}

} // namespace

class TestPersistentEnvironment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void memoryReadsWhatWasWritten()
    {
        MemoryEnvironment environment;
        QVERIFY(environment.isAvailable());
        const auto absent = environment.read(EnvironmentScope::User, QStringLiteral("Path"));
        QVERIFY(absent.ok());
        QVERIFY(!absent->has_value());

        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("Path"),
                                  expandable(QStringLiteral("%USERPROFILE%\\bin;C:\\x;"))));
        QVERIFY(environment.write(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                                  plain(QStringLiteral("C:\\CUDA\\v12.4"))));
        const auto path = environment.read(EnvironmentScope::User, QStringLiteral("PATH"));
        QVERIFY(path.ok() && path->has_value());
        QCOMPARE(path->value(), expandable(QStringLiteral("%USERPROFILE%\\bin;C:\\x;")));
        QCOMPARE(environment.read(EnvironmentScope::System, QStringLiteral("cuda_path"))->value(),
                 plain(QStringLiteral("C:\\CUDA\\v12.4")));
        // Scopes are apart.
        QVERIFY(!environment.read(EnvironmentScope::System, QStringLiteral("Path"))->has_value());
        QVERIFY(!environment.read(EnvironmentScope::User, QStringLiteral("CUDA_PATH"))->has_value());

        // The first spelling stays, as in the registry; the type is the one written last.
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("PATH"),
                                  plain(QStringLiteral("C:\\y"))));
        QCOMPARE(environment.names(EnvironmentScope::User), QStringList{QStringLiteral("Path")});
        QCOMPARE(environment.value(EnvironmentScope::User, QStringLiteral("path")),
                 plain(QStringLiteral("C:\\y")));

        // An empty value is a value, not an absent one.
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("EMPTY"), plain(QString())));
        QCOMPARE(environment.value(EnvironmentScope::User, QStringLiteral("empty")), plain(QString()));
        QCOMPARE(environment.writeCount(), 4);
        QCOMPARE(environment.announceCount(), 0);
        environment.announceChange();
        environment.announceChange();
        QCOMPARE(environment.announceCount(), 2);
    }

    void memoryRemoves()
    {
        MemoryEnvironment environment;
        environment.set(EnvironmentScope::User, QStringLiteral("Path"), expandable(QStringLiteral("C:\\a")));
        QCOMPARE(environment.writeCount(), 0);                                         // set-up is no write
        QVERIFY(environment.remove(EnvironmentScope::System, QStringLiteral("Path"))); // absent: fine
        QVERIFY(environment.value(EnvironmentScope::User, QStringLiteral("Path")).has_value());
        QVERIFY(environment.remove(EnvironmentScope::User, QStringLiteral("PATH")));
        QVERIFY(!environment.read(EnvironmentScope::User, QStringLiteral("Path"))->has_value());
        QVERIFY(environment.names(EnvironmentScope::User).isEmpty());
        QVERIFY(environment.remove(EnvironmentScope::User, QStringLiteral("Path")));
        QCOMPARE(environment.writeCount(), 3);
    }

    void memoryKeepsEveryCharacter()
    {
        MemoryEnvironment environment;
        QString odd = QStringLiteral("C:\\a;");
        odd.prepend(QChar(0xFEFF)); // a byte order mark at the start
        odd.append(QChar(0xD800));  // a lone surrogate
        odd.append(QStringLiteral("张三"));
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("Odd"), expandable(odd)));
        QCOMPARE(environment.value(EnvironmentScope::User, QStringLiteral("Odd"))->text, odd);
        const QString big = longValue(40000);
        QVERIFY(environment.write(EnvironmentScope::System, QStringLiteral("Path"), expandable(big)));
        QCOMPARE(environment.value(EnvironmentScope::System, QStringLiteral("Path"))->text, big);
    }

    void memoryInjectsFailures()
    {
        MemoryEnvironment environment;
        environment.failWritesAfter(2);
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("1"))));
        QVERIFY(environment.remove(EnvironmentScope::User, QStringLiteral("B")));
        // The third change fails, and changes nothing.
        const auto third =
            environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("2")));
        QVERIFY(!third);
        QCOMPARE(third.error().id, QStringLiteral("environment.write-failed"));
        QCOMPARE(third.error().severity, Severity::Error);
        QVERIFY(third.error().message.toEnglish().contains(QStringLiteral("HKCU\\Environment")));
        QCOMPARE(environment.value(EnvironmentScope::User, QStringLiteral("A")), plain(QStringLiteral("1")));
        // Only that one: a rollback after it goes through.
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("3"))));
        QCOMPARE(environment.writeCount(), 3);
        QCOMPARE(environment.attemptCount(), 4);

        // A failing remove says so.
        environment.failWritesAfter(0);
        const auto removal = environment.remove(EnvironmentScope::User, QStringLiteral("A"));
        QVERIFY(!removal);
        QCOMPARE(removal.error().id, QStringLiteral("environment.write-failed"));
        QVERIFY(removal.error().message.toEnglish().contains(QStringLiteral("removed")));
        QVERIFY(environment.value(EnvironmentScope::User, QStringLiteral("A")).has_value());

        // Every change from the second on.
        environment.failWritesAfter(1, -1);
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("4"))));
        for (int i = 0; i < 5; ++i)
            QVERIFY(
                !environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("5"))));
        QCOMPARE(environment.value(EnvironmentScope::User, QStringLiteral("A")), plain(QStringLiteral("4")));
        // Ended.
        environment.failWritesAfter(-1);
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("A"), plain(QStringLiteral("6"))));

        // Two in a row, then fine again.
        environment.failWritesAfter(0, 2);
        QVERIFY(!environment.remove(EnvironmentScope::User, QStringLiteral("A")));
        QVERIFY(!environment.remove(EnvironmentScope::User, QStringLiteral("A")));
        QVERIFY(environment.remove(EnvironmentScope::User, QStringLiteral("A")));
    }

    void memoryDeniesTheMachineScope()
    {
        MemoryEnvironment environment;
        environment.denyWrites(EnvironmentScope::System);
        const auto denied = environment.write(EnvironmentScope::System, QStringLiteral("Path"),
                                              expandable(QStringLiteral("C:\\x")));
        QVERIFY(!denied);
        QCOMPARE(denied.error().id, QStringLiteral("environment.access-denied"));
        QVERIFY(denied.error().fix.toEnglish().contains(QStringLiteral("administrator")));
        QCOMPARE(environment.remove(EnvironmentScope::System, QStringLiteral("Path")).error().id,
                 QStringLiteral("environment.access-denied"));
        QVERIFY(environment.write(EnvironmentScope::User, QStringLiteral("Path"),
                                  expandable(QStringLiteral("C:\\x"))));
        environment.denyWrites(EnvironmentScope::System, false);
        QVERIFY(environment.write(EnvironmentScope::System, QStringLiteral("Path"),
                                  expandable(QStringLiteral("C:\\x"))));
    }

    void memoryRefusesWhatCannotBeStored()
    {
        MemoryEnvironment environment;
        QString nul = QStringLiteral("C:\\a;C:\\b");
        nul[4] = QChar(0);
        const auto withNul =
            environment.write(EnvironmentScope::User, QStringLiteral("Path"), expandable(nul));
        QVERIFY(!withNul);
        QCOMPARE(withNul.error().id, QStringLiteral("environment.write-failed"));
        QVERIFY(withNul.error().details.contains(QStringLiteral("NUL")));
        QVERIFY(!environment.write(EnvironmentScope::User, QString(), plain(QStringLiteral("x"))));
        QVERIFY(
            !environment.write(EnvironmentScope::User, QStringLiteral("A=B"), plain(QStringLiteral("x"))));
        QVERIFY(!environment.read(EnvironmentScope::User, QString()).ok());
        QVERIFY(environment.names(EnvironmentScope::User).isEmpty());
        QCOMPARE(environment.writeCount(), 0);
    }

    void registryData_data()
    {
        QTest::addColumn<quint32>("type");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("text");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("hex"); // in the details of a value that is not text
        QTest::newRow("REG_SZ") << quint32(1) << utf16(QStringLiteral("C:\\a")) + QByteArray(2, '\0') << true
                                << QStringLiteral("C:\\a") << QString();
        QTest::newRow("no terminator") << quint32(2) << utf16(QStringLiteral("%X%;C:\\a")) << true
                                       << QStringLiteral("%X%;C:\\a") << QString();
        QTest::newRow("padding") << quint32(2) << utf16(QStringLiteral("C:\\a")) + QByteArray(6, '\0') << true
                                 << QStringLiteral("C:\\a") << QString();
        QTest::newRow("empty") << quint32(1) << QByteArray() << true << QString() << QString();
        QTest::newRow("terminator only")
            << quint32(2) << QByteArray(2, '\0') << true << QString() << QString();
        QTest::newRow("REG_DWORD") << quint32(4) << QByteArray("\x07\x00\x00\x00", 4) << false << QString()
                                   << QStringLiteral("REG_DWORD, not a string type, 4 bytes: 07 00 00 00");
        QTest::newRow("REG_MULTI_SZ")
            << quint32(7) << QByteArray("a\0\0\0\0\0", 6) << false << QString()
            << QStringLiteral("REG_MULTI_SZ, not a string type, 6 bytes: 61 00 00 00 00 00");
        QTest::newRow("REG_BINARY") << quint32(3) << QByteArray("\xff", 1) << false << QString()
                                    << QStringLiteral("REG_BINARY, not a string type, 1 bytes: ff");
        QTest::newRow("embedded NUL")
            << quint32(2) << QByteArray("a\0\0\0b\0\0\0", 8) << false << QString()
            << QStringLiteral("REG_EXPAND_SZ, a NUL character at position 1, 8 bytes: "
                              "61 00 00 00 62 00 00 00");
        QTest::newRow("odd length") << quint32(1) << QByteArray("a\0b", 3) << false << QString()
                                    << QStringLiteral("REG_SZ, an odd number of bytes, 3 bytes: 61 00 62");
    }
    void registryData()
    {
        QFETCH(quint32, type);
        QFETCH(QByteArray, data);
        QFETCH(bool, text);
        QFETCH(QString, expected);
        QFETCH(QString, hex);
        const Expected<StoredEnvironmentValue> decoded = PersistentEnvironment::fromRegistryData(
            EnvironmentScope::User, QStringLiteral("Path"), type, data);
        QCOMPARE(decoded.ok(), text);
        if (text) {
            QCOMPARE(decoded->text, expected);
            QCOMPARE(decoded->expandable, type == 2);
        } else {
            QCOMPARE(decoded.error().id, QStringLiteral("environment.not-text"));
            QCOMPARE(decoded.error().severity, Severity::Error);
            QCOMPARE(decoded.error().details, hex);
            QVERIFY(decoded.error().message.toEnglish().contains(QStringLiteral("Path")));
            QVERIFY(!decoded.error().fix.isEmpty());
        }

        // The memory implementation answers the same.
        MemoryEnvironment environment;
        environment.setRegistryData(EnvironmentScope::System, QStringLiteral("Path"), type, data);
        const auto read = environment.read(EnvironmentScope::System, QStringLiteral("PATH"));
        QCOMPARE(read.ok(), text);
        if (!text)
            QCOMPARE(read.error().details, hex);
        QCOMPARE(environment.value(EnvironmentScope::System, QStringLiteral("Path")).has_value(), text);
    }

    void registryDataRoundTrip()
    {
        const QString big = longValue(40000);
        const QByteArray data = PersistentEnvironment::toRegistryData(big);
        QCOMPARE(data.size(), 40000 * 2 + 2);
        QVERIFY(data.endsWith(QByteArray(2, '\0')));
        QCOMPARE(
            PersistentEnvironment::fromRegistryData(EnvironmentScope::User, QStringLiteral("Path"), 2, data)
                ->text,
            big);
        QCOMPARE(PersistentEnvironment::toRegistryData(QString()), QByteArray(2, '\0'));
        QCOMPARE(PersistentEnvironment::location(EnvironmentScope::System),
                 QStringLiteral("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"));
    }

    void unavailableSaysSo()
    {
        const auto environment = PersistentEnvironment::unavailable();
        QVERIFY(!environment->isAvailable());
        const auto read = environment->read(EnvironmentScope::User, QStringLiteral("Path"));
        QVERIFY(!read.ok());
        QCOMPARE(read.error().id, QStringLiteral("environment.unavailable"));
        QVERIFY(read.error().message.toEnglish().contains(QStringLiteral("Path")));
        QCOMPARE(
            environment->write(EnvironmentScope::System, QStringLiteral("Path"), plain(QStringLiteral("x")))
                .error()
                .id,
            QStringLiteral("environment.unavailable"));
        QCOMPARE(environment->remove(EnvironmentScope::User, QStringLiteral("Path")).error().id,
                 QStringLiteral("environment.unavailable"));
        environment->announceChange(); // harmless
#ifndef Q_OS_WIN
        QVERIFY(!PersistentEnvironment::forRunningSystem()->isAvailable());
        QVERIFY(
            !PersistentEnvironment::forRegistryKeys(QStringLiteral("a"), QStringLiteral("b"))->isAvailable());
#endif
    }

#ifdef Q_OS_WIN
    // The registry implementation against the real registry (Wine's on the Linux build machines),
    // on values this test makes and removes again.
    void initTestCase()
    {
        m_prefix = QStringLiteral("CUDNNSETUP_TEST_%1_")
                       .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    }

    void cleanupTestCase()
    {
        for (const QString &name : std::as_const(m_made))
            deleteValue(HKEY_CURRENT_USER, QStringLiteral("Environment"), name);
        for (const QString &name : std::as_const(m_madeMachine))
            deleteValue(HKEY_LOCAL_MACHINE, EnvironmentStore::registryKey(EnvironmentScope::System), name);
    }

    void registryWritesBothTypes()
    {
        const auto environment = PersistentEnvironment::forRunningSystem();
        QVERIFY(environment->isAvailable());
        const QString name = scratch(QStringLiteral("EXPAND"));
        QVERIFY(!environment->read(EnvironmentScope::User, name)->has_value());

        const StoredEnvironmentValue path =
            expandable(QStringLiteral("%SystemRoot%\\system32;%USERPROFILE%\\张三;"));
        QVERIFY2(environment->write(EnvironmentScope::User, name, path), "write REG_EXPAND_SZ");
        QCOMPARE(environment->read(EnvironmentScope::User, name)->value(), path);
        // What the registry holds: REG_EXPAND_SZ, unexpanded, with one terminator.
        DWORD type = 0;
        QByteArray data = rawValue(HKEY_CURRENT_USER, QStringLiteral("Environment"), name, &type);
        QCOMPARE(type, DWORD(REG_EXPAND_SZ));
        QCOMPARE(data, utf16(path.text) + QByteArray(2, '\0'));

        // Rewritten as REG_SZ: the type changes with it.
        const StoredEnvironmentValue text = plain(QStringLiteral("C:\\Plain %NOT_EXPANDED%"));
        QVERIFY(environment->write(EnvironmentScope::User, name.toLower(), text));
        QCOMPARE(environment->read(EnvironmentScope::User, name)->value(), text);
        rawValue(HKEY_CURRENT_USER, QStringLiteral("Environment"), name, &type);
        QCOMPARE(type, DWORD(REG_SZ));

        QVERIFY(environment->remove(EnvironmentScope::User, name));
        QVERIFY(!environment->read(EnvironmentScope::User, name)->has_value());
        QVERIFY(environment->remove(EnvironmentScope::User, name)); // absent: fine
    }

    void registryKeepsLongValues()
    {
        const auto environment = PersistentEnvironment::forRunningSystem();
        for (int length : {5000, 40000}) {
            const QString name = scratch(QStringLiteral("LONG%1").arg(length));
            const StoredEnvironmentValue value = expandable(longValue(length));
            QCOMPARE(value.text.size(), length);
            QVERIFY2(environment->write(EnvironmentScope::User, name, value), qPrintable(name));
            const auto read = environment->read(EnvironmentScope::User, name);
            QVERIFY(read.ok() && read->has_value());
            QCOMPARE(read->value().text.size(), length);
            QCOMPARE(read->value(), value);
            QVERIFY(environment->remove(EnvironmentScope::User, name));
        }
    }

    void registryCreatesAMissingKey()
    {
        // HKCU\Environment itself is not deleted: the same code runs on a scratch key instead.
        const QString parent = QStringLiteral("Software\\%1KEY").arg(m_prefix);
        const QString key = parent + QStringLiteral("\\Environment");
        const auto environment = PersistentEnvironment::forRegistryKeys(
            key, EnvironmentStore::registryKey(EnvironmentScope::System));
        QVERIFY(!keyExists(key));
        const auto before = environment->read(EnvironmentScope::User, QStringLiteral("Path"));
        QVERIFY(before.ok());
        QVERIFY(!before->has_value());
        QVERIFY(environment->remove(EnvironmentScope::User, QStringLiteral("Path"))); // nothing to remove
        QVERIFY(!keyExists(key));

        const StoredEnvironmentValue value = expandable(QStringLiteral("%USERPROFILE%\\bin"));
        const auto written = environment->write(EnvironmentScope::User, QStringLiteral("Path"), value);
        const bool created = keyExists(key);
        RegDeleteKeyW(HKEY_CURRENT_USER, reinterpret_cast<const wchar_t *>(key.utf16()));
        RegDeleteKeyW(HKEY_CURRENT_USER, reinterpret_cast<const wchar_t *>(parent.utf16()));
        QVERIFY2(written, written ? "" : qPrintable(written.error().details));
        QVERIFY(created);
        QVERIFY(!keyExists(parent));
    }

    void registryReportsValuesThatAreNotText()
    {
        const auto environment = PersistentEnvironment::forRunningSystem();
        const QString dword = scratch(QStringLiteral("DWORD"));
        const quint32 number = 0x01020304;
        QVERIFY(setRaw(dword, REG_DWORD, QByteArray(reinterpret_cast<const char *>(&number), 4)));
        const auto read = environment->read(EnvironmentScope::User, dword);
        QVERIFY(!read.ok());
        QCOMPARE(read.error().id, QStringLiteral("environment.not-text"));
        QCOMPARE(read.error().details, QStringLiteral("REG_DWORD, not a string type, 4 bytes: 04 03 02 01"));

        const QString nul = scratch(QStringLiteral("NUL"));
        QVERIFY(setRaw(nul, REG_EXPAND_SZ, QByteArray("C\0:\0\\\0a\0\0\0C\0:\0\\\0b\0\0\0", 20)));
        const auto withNul = environment->read(EnvironmentScope::User, nul);
        QVERIFY(!withNul.ok());
        QCOMPARE(withNul.error().id, QStringLiteral("environment.not-text"));
        QVERIFY2(withNul.error().details.endsWith(
                     QStringLiteral("20 bytes: 43 00 3a 00 5c 00 61 00 00 00 43 00 3a 00 5c 00 62 00 00 00")),
                 qPrintable(withNul.error().details));

        // Nothing was changed by reading; a whole new value replaces it.
        QCOMPARE(rawValue(HKEY_CURRENT_USER, QStringLiteral("Environment"), dword, nullptr).size(), 4);
        QVERIFY(environment->write(EnvironmentScope::User, dword, plain(QStringLiteral("text"))));
        QCOMPARE(environment->read(EnvironmentScope::User, dword)->value(), plain(QStringLiteral("text")));
    }

    void registryMachineScope()
    {
        const auto environment = PersistentEnvironment::forRunningSystem();
        const auto path = environment->read(EnvironmentScope::System, QStringLiteral("Path"));
        QVERIFY2(path.ok(), path.ok() ? "" : qPrintable(path.error().details));
        QVERIFY(path->has_value()); // every Windows (and Wine) has a system PATH

        const QString name = scratch(QStringLiteral("MACHINE"));
        m_madeMachine.append(name);
        const auto written =
            environment->write(EnvironmentScope::System, name, plain(QStringLiteral("C:\\x")));
        if (!written) {
            // Not an administrator: said so, with the way out.
            QCOMPARE(written.error().id, QStringLiteral("environment.access-denied"));
            QVERIFY(written.error().fix.toEnglish().contains(QStringLiteral("administrator")));
            return;
        }
        QCOMPARE(environment->read(EnvironmentScope::System, name)->value(), plain(QStringLiteral("C:\\x")));
        QVERIFY(environment->remove(EnvironmentScope::System, name));
        QVERIFY(!environment->read(EnvironmentScope::System, name)->has_value());
    }

    void registryAnnounceReturns()
    {
        const auto environment = PersistentEnvironment::forRunningSystem();
        QThread *thread = QThread::create([environment] { environment->announceChange(); });
        thread->start();
        // SMTO_ABORTIFHUNG and 5 s per window: it must come back.
        QVERIFY(thread->wait(120 * 1000));
        delete thread;
    }

private:
    QString scratch(const QString &what)
    {
        const QString name = m_prefix + what;
        m_made.append(name);
        return name;
    }

    static bool keyExists(const QString &key)
    {
        HKEY handle = nullptr;
        if (RegOpenKeyExW(HKEY_CURRENT_USER, reinterpret_cast<const wchar_t *>(key.utf16()), 0, KEY_READ,
                          &handle) != ERROR_SUCCESS)
            return false;
        RegCloseKey(handle);
        return true;
    }

    static bool setRaw(const QString &name, DWORD type, const QByteArray &data)
    {
        HKEY handle = nullptr;
        if (RegOpenKeyExW(HKEY_CURRENT_USER, L"Environment", 0, KEY_SET_VALUE, &handle) != ERROR_SUCCESS)
            return false;
        const LONG rc = RegSetValueExW(handle, reinterpret_cast<const wchar_t *>(name.utf16()), 0, type,
                                       reinterpret_cast<const BYTE *>(data.constData()), DWORD(data.size()));
        RegCloseKey(handle);
        return rc == ERROR_SUCCESS;
    }

    static QByteArray rawValue(HKEY root, const QString &key, const QString &name, DWORD *type)
    {
        HKEY handle = nullptr;
        if (RegOpenKeyExW(root, reinterpret_cast<const wchar_t *>(key.utf16()), 0, KEY_QUERY_VALUE,
                          &handle) != ERROR_SUCCESS)
            return {};
        DWORD size = 0;
        DWORD kind = 0;
        QByteArray data;
        if (RegQueryValueExW(handle, reinterpret_cast<const wchar_t *>(name.utf16()), nullptr, &kind, nullptr,
                             &size) == ERROR_SUCCESS) {
            data.resize(qsizetype(size));
            RegQueryValueExW(handle, reinterpret_cast<const wchar_t *>(name.utf16()), nullptr, &kind,
                             reinterpret_cast<BYTE *>(data.data()), &size);
        }
        RegCloseKey(handle);
        if (type)
            *type = kind;
        return data;
    }

    static void deleteValue(HKEY root, const QString &key, const QString &name)
    {
        HKEY handle = nullptr;
        if (RegOpenKeyExW(root, reinterpret_cast<const wchar_t *>(key.utf16()), 0, KEY_SET_VALUE, &handle) !=
            ERROR_SUCCESS)
            return;
        RegDeleteValueW(handle, reinterpret_cast<const wchar_t *>(name.utf16()));
        RegCloseKey(handle);
    }

    QString m_prefix;
    QStringList m_made;
    QStringList m_madeMachine;
#endif
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestPersistentEnvironment)
#include "tst_persistentenvironment.moc"
