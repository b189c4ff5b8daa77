#include "MemoryRegistry.h"
#include "Sandbox.h"
#include "Suite.h"
#include "UnderWine.h"
#include "platform/Elevation.h"
#include "platform/RedirectionGuard.h"
#include "platform/Registry.h"
#include "platform/Volumes.h"

#ifdef Q_OS_WIN
#include <windows.h>

#include <sddl.h>
#include <shellapi.h>
#else
#include <unistd.h>
#endif

#include <QDir>
#include <QRandomGenerator>
#include <QTest>

using namespace cudnnsetup;

namespace {

// CommandLineToArgvW's rules for the arguments after the program name, so that the quoting is
// checked on every host (on Windows the real function is asked as well): blanks split outside
// quotes; 2n backslashes and a quote give n backslashes and open or close the quotes, 2n+1 give n
// and a literal quote; other backslashes are literal; "" inside quotes is a literal quote.
QStringList splitWindowsCommandLine(const QString &line)
{
    QStringList arguments;
    const qsizetype n = line.size();
    qsizetype i = 0;
    for (;;) {
        while (i < n && (line.at(i) == QLatin1Char(' ') || line.at(i) == QLatin1Char('\t')))
            ++i;
        if (i >= n)
            break;
        QString argument;
        bool quoted = false;
        while (i < n) {
            const QChar c = line.at(i);
            if (!quoted && (c == QLatin1Char(' ') || c == QLatin1Char('\t')))
                break;
            if (c == QLatin1Char('\\')) {
                qsizetype backslashes = 0;
                while (i < n && line.at(i) == QLatin1Char('\\')) {
                    ++backslashes;
                    ++i;
                }
                if (i < n && line.at(i) == QLatin1Char('"')) {
                    argument += QString(backslashes / 2, QLatin1Char('\\'));
                    if (backslashes % 2 == 1) {
                        argument += QLatin1Char('"');
                        ++i;
                    }
                } else {
                    argument += QString(backslashes, QLatin1Char('\\'));
                }
                continue;
            }
            if (c == QLatin1Char('"')) {
                if (quoted && i + 1 < n && line.at(i + 1) == QLatin1Char('"')) {
                    argument += QLatin1Char('"');
                    i += 2;
                    continue;
                }
                quoted = !quoted;
                ++i;
                continue;
            }
            argument += c;
            ++i;
        }
        arguments.append(argument);
    }
    return arguments;
}

#ifdef Q_OS_WIN
// What the real CommandLineToArgvW makes of "program <line>", without the program.
QStringList windowsSplit(const QString &line)
{
    const std::wstring full = (QStringLiteral("C:\\x\\program.exe ") + line).toStdWString();
    int count = 0;
    LPWSTR *argv = CommandLineToArgvW(full.c_str(), &count);
    if (!argv)
        return {QStringLiteral("<CommandLineToArgvW failed>")};
    QStringList arguments;
    for (int i = 1; i < count; ++i)
        arguments.append(QString::fromWCharArray(argv[i]));
    LocalFree(argv);
    return arguments;
}

#endif

// An elevation whose every answer the test sets.
class FakeElevation final : public Elevation
{
public:
    bool elevated = false;
    bool localSystem = false;
    bool administrator = false;
    UacState uac = UacState::Enabled;
    quint32 startError = 0; // a Windows error for runElevated, 0: it ran and exited with exitCode
    int exitCode = 0;

    bool isElevated() const override { return elevated; }
    bool isLocalSystem() const override { return localSystem; }
    QString accountSid() const override { return localSystem ? QStringLiteral("S-1-5-18") : QString(); }
    bool isAdministratorsMember() const override { return administrator; }
    UacState uacState() const override { return uac; }
    Expected<int> runElevated(const QString &program, const QStringList &, const QString &,
                              const ElevatedStart &) const override
    {
        if (startError != 0)
            return startFailure(startError, program, QStringLiteral("fake"));
        return exitCode;
    }
};

// What an install engine would do with it: the exit code, or the finding's id.
QString applyElevated(const Elevation &elevation)
{
    const Expected<int> result = elevation.runElevated(QStringLiteral("C:/x/cudnn-setup.exe"),
                                                       {QStringLiteral("--apply")}, QString(), {});
    return result ? QString::number(*result) : result.error().id;
}

// A list of UTF-8 literals (the build forbids the implicit conversion).
QStringList words(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list.append(QString::fromUtf8(item));
    return list;
}

const QString kPolicyKey = QStringLiteral("SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System");

} // namespace

Q_DECLARE_METATYPE(cudnnsetup::UacState)

class TestElevation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void commandLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");

        QTest::newRow("nothing") << QStringList() << QString();
        QTest::newRow("plain words") << words({"install", "--path", "user"})
                                     << QStringLiteral("install --path user");
        QTest::newRow("spaces") << words({"C:\\Program Files\\NVIDIA GPU Computing Toolkit"})
                                << QStringLiteral("\"C:\\Program Files\\NVIDIA GPU Computing Toolkit\"");
        QTest::newRow("trailing backslash, quoted")
            << words({"C:\\Program Files\\", "next"}) << QStringLiteral("\"C:\\Program Files\\\\\" next");
        QTest::newRow("two trailing backslashes, quoted")
            << words({"a b\\\\"}) << QStringLiteral("\"a b\\\\\\\\\"");
        QTest::newRow("trailing backslash, not quoted")
            << words({"C:\\cudnn\\", "x"}) << QStringLiteral("C:\\cudnn\\ x");
        QTest::newRow("UNC path with a space")
            << words({"\\\\server\\share\\cu dnn"}) << QStringLiteral("\"\\\\server\\share\\cu dnn\"");
        QTest::newRow("quotes") << words({"say \"hi\""}) << QStringLiteral("\"say \\\"hi\\\"\"");
        QTest::newRow("lone quote") << words({"\""}) << QStringLiteral("\"\\\"\"");
        QTest::newRow("backslash before a quote") << words({"a\\\"b"}) << QStringLiteral("\"a\\\\\\\"b\"");
        QTest::newRow("three backslashes before a quote")
            << words({"\\\\\\\""}) << QStringLiteral("\"\\\\\\\\\\\\\\\"\"");
        QTest::newRow("empty arguments") << words({"", "x", ""}) << QStringLiteral("\"\" x \"\"");
        QTest::newRow("only a space") << words({" "}) << QStringLiteral("\" \"");
        QTest::newRow("tab") << words({"a\tb"}) << QStringLiteral("\"a\tb\"");
        QTest::newRow("newline") << words({"a\nb"}) << QStringLiteral("\"a\nb\"");
        QTest::newRow("Chinese") << QStringList{QStringLiteral("C:\\用户\\张三\\cudnn 8.9"),
                                                QStringLiteral("--语言=中文")}
                                 << QStringLiteral("\"C:\\用户\\张三\\cudnn 8.9\" --语言=中文");
        QTest::newRow("plan file")
            << words({"--apply-plan", "C:\\Users\\李 四\\AppData\\Local\\Temp\\plan.json"})
            << QStringLiteral("--apply-plan \"C:\\Users\\李 四\\AppData\\Local\\Temp\\plan.json\"");
    }

    void commandLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const QString line = Elevation::windowsCommandLine(arguments);
        QCOMPARE(line, expected);
        QCOMPARE(splitWindowsCommandLine(line), arguments);
#ifdef Q_OS_WIN
        QCOMPARE(windowsSplit(line), arguments);
#endif
    }

    void commandLineRoundTripsRandomArguments()
    {
        // Every mix of the characters that matter, split back by the rules (and on Windows by
        // CommandLineToArgvW itself).
        const QString alphabet = QStringLiteral("a \\\"\t中");
        QRandomGenerator random(20240611);
        for (int round = 0; round < 3000; ++round) {
            QStringList arguments;
            const int count = 1 + int(random.bounded(4));
            for (int a = 0; a < count; ++a) {
                QString argument;
                const int length = int(random.bounded(9));
                for (int c = 0; c < length; ++c)
                    argument += alphabet.at(int(random.bounded(alphabet.size())));
                arguments.append(argument);
            }
            const QString line = Elevation::windowsCommandLine(arguments);
            QCOMPARE(splitWindowsCommandLine(line), arguments);
#ifdef Q_OS_WIN
            QCOMPARE(windowsSplit(line), arguments);
#endif
        }
    }

    void uacStateFromTheRegistry_data()
    {
        QTest::addColumn<int>("kind"); // 0: no value, 1: DWORD, 2: string
        QTest::addColumn<quint64>("number");
        QTest::addColumn<UacState>("expected");
        QTest::newRow("no EnableLUA value") << 0 << quint64(0) << UacState::Unknown;
        QTest::newRow("EnableLUA = 0") << 1 << quint64(0) << UacState::DisabledByPolicy;
        QTest::newRow("EnableLUA = 1") << 1 << quint64(1) << UacState::Enabled;
        QTest::newRow("EnableLUA = 2") << 1 << quint64(2) << UacState::Enabled;
        QTest::newRow("EnableLUA as the string 0") << 2 << quint64(0) << UacState::Unknown;
    }

    void uacStateFromTheRegistry()
    {
        QFETCH(int, kind);
        QFETCH(quint64, number);
        QFETCH(UacState, expected);
        MemoryRegistry registry;
        registry.setString(RegistryHive::LocalMachine, kPolicyKey,
                           QStringLiteral("ConsentPromptBehaviorAdmin"), QStringLiteral("5"));
        if (kind == 1) {
            RegistryValue value;
            value.type = RegistryValue::DWord;
            value.number = number;
            value.raw = QByteArray(4, '\0');
            registry.set(RegistryHive::LocalMachine, kPolicyKey, QStringLiteral("EnableLUA"), value);
        } else if (kind == 2) {
            registry.setString(RegistryHive::LocalMachine, kPolicyKey, QStringLiteral("EnableLUA"),
                               QStringLiteral("0"));
        }
        QCOMPARE(Elevation::uacStateIn(registry), expected);
    }

    void uacStateWithoutARegistryIsUnknown()
    {
        QCOMPARE(Elevation::uacStateIn(*Registry::unavailable()), UacState::Unknown);
        QCOMPARE(Elevation::uacStateName(UacState::Enabled), QStringLiteral("enabled"));
        QCOMPARE(Elevation::uacStateName(UacState::DisabledByPolicy), QStringLiteral("disabled-by-policy"));
        QCOMPARE(Elevation::uacStateName(UacState::Unknown), QStringLiteral("unknown"));
    }

    void uacOffWithAStandardUserIsDetected_data()
    {
        QTest::addColumn<bool>("elevated");
        QTest::addColumn<bool>("administrator");
        QTest::addColumn<UacState>("uac");
        QTest::addColumn<bool>("cannotWork");
        QTest::newRow("standard user, UAC off") << false << false << UacState::DisabledByPolicy << true;
        QTest::newRow("standard user, UAC on") << false << false << UacState::Enabled << false;
        QTest::newRow("standard user, UAC unknown") << false << false << UacState::Unknown << false;
        QTest::newRow("administrator, UAC off") << false << true << UacState::DisabledByPolicy << false;
        QTest::newRow("elevated, UAC off") << true << true << UacState::DisabledByPolicy << false;
        QTest::newRow("filtered administrator, UAC on") << false << true << UacState::Enabled << false;
    }

    void uacOffWithAStandardUserIsDetected()
    {
        QFETCH(bool, elevated);
        QFETCH(bool, administrator);
        QFETCH(UacState, uac);
        QFETCH(bool, cannotWork);
        FakeElevation fake;
        fake.elevated = elevated;
        fake.administrator = administrator;
        fake.uac = uac;
        const std::optional<Finding> why = fake.whyElevationCannotWork();
        QCOMPARE(why.has_value(), cannotWork);
        if (why) {
            QCOMPARE(why->id, QStringLiteral("elevation.uac-off"));
            QCOMPARE(why->severity, Severity::Error);
            QVERIFY(why->message.toEnglish().contains(QStringLiteral("User Account Control is turned off")));
            QVERIFY(!why->fix.isEmpty());
            QVERIFY(why->details.contains(QStringLiteral("EnableLUA = 0")));
        }
    }

    void declinedPromptIsItsOwnFinding()
    {
        const Finding declined = Elevation::startFailure(1223, QStringLiteral("C:/x/cudnn-setup.exe"),
                                                         QStringLiteral("ShellExecuteEx: error 1223"));
        QCOMPARE(declined.id, QStringLiteral("elevation.declined"));
        QCOMPARE(declined.severity, Severity::Error);
        QVERIFY(declined.message.toEnglish().contains(QStringLiteral("nothing was changed")));
        QVERIFY(declined.fix.toEnglish().contains(QStringLiteral("choose Yes")));
        QVERIFY(declined.fix.toEnglish().contains(QStringLiteral("per-user target")));
        QCOMPARE(declined.details, QStringLiteral("ShellExecuteEx: error 1223"));

        const Finding missing = Elevation::startFailure(2, QStringLiteral("C:/x/cudnn-setup.exe"), QString());
        QCOMPARE(missing.id, QStringLiteral("elevation.failed"));
        QVERIFY(missing.message.toEnglish().contains(QStringLiteral("cudnn-setup.exe")));
        QVERIFY(!missing.fix.isEmpty());
        QCOMPARE(Elevation::startFailure(0, QStringLiteral("x"), QString()).id,
                 QStringLiteral("elevation.failed"));
        QCOMPARE(Elevation::startFailure(5, QStringLiteral("x"), QString()).id,
                 QStringLiteral("elevation.failed"));
    }

    void fakesStandInForTheHost()
    {
        FakeElevation fake;
        fake.exitCode = 3010;
        QCOMPARE(applyElevated(fake), QStringLiteral("3010"));
        fake.startError = 1223;
        QCOMPARE(applyElevated(fake), QStringLiteral("elevation.declined"));
        fake.startError = 740;
        QCOMPARE(applyElevated(fake), QStringLiteral("elevation.failed"));
    }

    // Redirection Guard is asked for by elevated runs on Windows alone: there Windows confirms it
    // or does not offer it (Wine, Windows 10), and a standard run never asks.
    void redirectionGuardOnlyForElevatedRuns()
    {
        FakeElevation standard;
        QCOMPARE(guardElevatedProcessAgainstUserRedirections(standard), RedirectionGuard::NotNeeded);
        FakeElevation elevated;
        elevated.elevated = true;
        const RedirectionGuard guard = guardElevatedProcessAgainstUserRedirections(elevated);
#ifdef Q_OS_WIN
        QVERIFY(guard == RedirectionGuard::On || guard == RedirectionGuard::NotOffered);
#else
        QCOMPARE(guard, RedirectionGuard::NotNeeded);
#endif
    }

    void userTargetAsSystemSaysWhatToDo()
    {
        const Finding finding = Elevation::userTargetAsSystem();
        QCOMPARE(finding.id, QStringLiteral("elevation.system-user-target"));
        QCOMPARE(finding.severity, Severity::Error);
        QVERIFY(finding.message.toEnglish().contains(QStringLiteral("SYSTEM")));
        QVERIFY(finding.fix.toEnglish().contains(QStringLiteral("--path system")));
    }

    void hostIsElevatedMatchesTheToken()
    {
        const Elevation &host = Elevation::host();
        qInfo("elevated %d, LocalSystem %d, Administrators %d, UAC %s", host.isElevated(),
              host.isLocalSystem(), host.isAdministratorsMember(),
              qPrintable(Elevation::uacStateName(host.uacState())));
        // One implementation: Volumes asks Elevation.
        QCOMPARE(Volumes::isElevated(), host.isElevated());
#ifdef Q_OS_WIN
        HANDLE token = nullptr;
        QVERIFY(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token));
        TOKEN_ELEVATION elevation{};
        DWORD size = 0;
        QVERIFY(GetTokenInformation(token, TokenElevation, &elevation, sizeof(elevation), &size));
        CloseHandle(token);
        QCOMPARE(host.isElevated(), elevation.TokenIsElevated != 0);
        // An elevated token holds Administrators.
        QVERIFY(!host.isElevated() || host.isAdministratorsMember());
#else
        QCOMPARE(host.isElevated(), ::geteuid() == 0);
        QCOMPARE(host.isAdministratorsMember(), ::geteuid() == 0);
#endif
    }

    void hostIsLocalSystemMatchesTheTokenUser()
    {
        const Elevation &host = Elevation::host();
#ifdef Q_OS_WIN
        HANDLE token = nullptr;
        QVERIFY(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token));
        DWORD size = 0;
        GetTokenInformation(token, TokenUser, nullptr, 0, &size);
        QByteArray buffer(int(size), '\0');
        QVERIFY(GetTokenInformation(token, TokenUser, buffer.data(), size, &size));
        CloseHandle(token);
        LPWSTR sidText = nullptr;
        QVERIFY(ConvertSidToStringSidW(reinterpret_cast<TOKEN_USER *>(buffer.data())->User.Sid, &sidText));
        const QString sid = QString::fromWCharArray(sidText);
        LocalFree(sidText);
        qInfo("token user %s", qPrintable(sid));
        QCOMPARE(host.isLocalSystem(), sid == QStringLiteral("S-1-5-18"));
        QVERIFY(!host.isLocalSystem() || host.isElevated());
#else
        QVERIFY(!host.isLocalSystem());
#endif
    }

    void hostUacStateReadsThePolicy()
    {
        const UacState state = Elevation::host().uacState();
        QCOMPARE(state, Elevation::uacStateIn(*Registry::forRunningSystem()));
#ifdef Q_OS_WIN
        // Read the policy here without the Registry class.
        DWORD value = 0;
        DWORD size = sizeof(value);
        const LONG rc = RegGetValueW(HKEY_LOCAL_MACHINE, kPolicyKey.toStdWString().c_str(), L"EnableLUA",
                                     RRF_RT_REG_DWORD, nullptr, &value, &size);
        qInfo("EnableLUA: %s", rc == ERROR_SUCCESS ? qPrintable(QString::number(value)) : "not there");
        const UacState expected = rc != ERROR_SUCCESS ? UacState::Unknown
                                  : value == 0        ? UacState::DisabledByPolicy
                                                      : UacState::Enabled;
        QCOMPARE(state, expected);
#else
        QCOMPARE(state, UacState::Unknown);
#endif
    }

    void hostRunElevatedOfAMissingProgramFails()
    {
        Sandbox sandbox;
        const QString missing = sandbox.hostPath(QStringLiteral("/no such folder/cudnn-setup.exe"));
        const Expected<int> result =
            Elevation::host().runElevated(missing, {QStringLiteral("--apply")}, sandbox.root(), {});
        QVERIFY(!result);
#ifdef Q_OS_WIN
        QCOMPARE(result.error().id, QStringLiteral("elevation.failed"));
        QVERIFY2(result.error().details.contains(QStringLiteral("error")),
                 qPrintable(result.error().details));
#else
        QCOMPARE(result.error().id, QStringLiteral("elevation.unavailable"));
        QVERIFY(!result.error().fix.isEmpty());
#endif
        QCOMPARE(result.error().severity, Severity::Error);
    }

    void hostRunElevatedGivesTheExitCode()
    {
#ifdef Q_OS_WIN
        // Not elevated, "runas" would wait for a person at the consent prompt.
        if (!Elevation::host().isElevated())
            QSKIP("not elevated: the consent prompt would wait for a person");
        Sandbox sandbox;
        ToolBehaviour tool;
        tool.exitCode = 3010;
        sandbox.writeTool(QStringLiteral("/elevated tool/tool.exe"), tool);
        // The working folder is outside the sandbox: a finished program's hold on its working
        // folder can outlast it a moment (seen under Wine), and the sandbox goes right after.
        const Expected<int> result = Elevation::host().runElevated(
            sandbox.hostPath(QStringLiteral("/elevated tool/tool.exe")),
            {QStringLiteral("a b"), QString(), QStringLiteral("c:\\x\\")}, QDir::tempPath(), {});
        QVERIFY2(result.ok(), qPrintable(result.error().details));
        QCOMPARE(*result, 3010);
        qInfo("under Wine: %d", runningUnderWine());
#else
        QSKIP("Windows only: no elevation elsewhere");
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestElevation)
#include "tst_elevation.moc"
