// Where the wizard keeps a log of every run (the user's state folder, the last 20 runs), and the
// answer file the Finish page saves, which `cudnn-setup --unattended` reads back the same.
#include "Sandbox.h"
#include "Suite.h"
#include "common/Translations.h"
#include "install/StateFolders.h"
#include "platform/SystemContext.h"
#include "session/UnattendedRun.h"
#include "session/WizardLog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

SystemContext contextOf(OsFamily family, const Sandbox &sandbox, const QProcessEnvironment &environment)
{
    auto registry = Registry::unavailable();
    return SystemContext(FileSystem(family, sandbox.root()), EnvironmentStore(family, environment, registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

} // namespace

class TestWizardLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void folderOfEachSystem_data()
    {
        QTest::addColumn<bool>("windows");
        QTest::addColumn<QStringList>("variables"); // NAME=VALUE
        QTest::addColumn<QString>("folder");
        QTest::newRow("Windows") << true
                                 << QStringList{QStringLiteral("LOCALAPPDATA=C:\\Users\\lab\\AppData\\Local")}
                                 << QStringLiteral("C:\\Users\\lab\\AppData\\Local\\cuDNN Setup\\logs");
        QTest::newRow("XDG_STATE_HOME")
            << false
            << QStringList{QStringLiteral("XDG_STATE_HOME=/home/lab/state"), QStringLiteral("HOME=/home/lab")}
            << QStringLiteral("/home/lab/state/cudnn-setup/logs");
        QTest::newRow("HOME") << false << QStringList{QStringLiteral("HOME=/home/lab")}
                              << QStringLiteral("/home/lab/.local/state/cudnn-setup/logs");
    }
    void folderOfEachSystem()
    {
        QFETCH(bool, windows);
        QFETCH(QStringList, variables);
        QFETCH(QString, folder);
        Sandbox sandbox;
        QProcessEnvironment environment;
        for (const QString &variable : variables)
            environment.insert(variable.section(QLatin1Char('='), 0, 0),
                               variable.section(QLatin1Char('='), 1));
        const SystemContext context =
            contextOf(windows ? OsFamily::Windows : OsFamily::Linux, sandbox, environment);
        QCOMPARE(QDir::cleanPath(wizardLogFolder(context)), QDir::cleanPath(sandbox.hostPath(folder)));
    }

    // A new log for each run; the oldest go, so that the folder holds the last 20.
    void keepsTheLastTwenty()
    {
        QTemporaryDir logs;
        const QDateTime start(QDate(2026, 12, 1), QTime(8, 0), Qt::UTC);
        for (int run = 0; run < 25; ++run) {
            const QString path = newWizardLog(logs.path(), start.addSecs(run * 60));
            QVERIFY(!path.isEmpty() && !QFileInfo::exists(path));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QStringList kept = QDir(logs.path()).entryList(QDir::Files, QDir::Name);
        QCOMPARE(kept.size(), 20);
        QCOMPARE(kept.first(), QStringLiteral("wizard-20261201T080500Z.log"));
        QCOMPARE(kept.last(), QStringLiteral("wizard-20261201T082400Z.log"));
        // Two runs within a second each keep their own.
        const QString again = newWizardLog(logs.path(), start.addSecs(24 * 60));
        QCOMPARE(QFileInfo(again).fileName(), QStringLiteral("wizard-20261201T082400Z-2.log"));
        // A folder that cannot be made: no log, and no failure.
        QVERIFY(newWizardLog(logs.filePath(QStringLiteral("wizard-20261201T082400Z.log/below")), start)
                    .isEmpty());
    }

    // What a support person asks first: the version, the system, the language, the arguments and
    // where the receipts are (tst_unattended checks that a log starts with it).
    void headerSaysWhatSupportAsks()
    {
        Sandbox sandbox;
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        const SystemContext context = contextOf(OsFamily::Windows, sandbox, environment);
        const QStringList arguments{QStringLiteral("cudnn-setup.exe"), QStringLiteral("--log"),
                                    QStringLiteral("C:\\Lab Logs\\run.log")};
        const WizardLogHeader header = WizardLogHeader::ofThisRun(context, arguments);
        QCOMPARE(header.version, QStringLiteral(CUDNNSETUP_VERSION));
        QVERIFY(!header.system.isEmpty());
        QCOMPARE(header.language, Translations::current());
        QCOMPARE(header.stateFolders.size(), 2);
        QVERIFY(header.stateFolders.contains(StateFolders::of(context).user));

        const QStringList lines = header.lines();
        QCOMPARE(lines.size(), 5);
        QVERIFY2(lines.at(0) == (QStringLiteral("cuDNN Setup ") + QStringLiteral(CUDNNSETUP_VERSION)),
                 qPrintable(lines.at(0)));
        QVERIFY2(lines.at(1) == (QStringLiteral("system: ") + header.system), qPrintable(lines.at(1)));
        QVERIFY2(lines.at(2) == (QStringLiteral("language: ") + header.language), qPrintable(lines.at(2)));
        // An argument with a space stays one, as it was given.
        QVERIFY2(lines.at(3) ==
                     (QStringLiteral("arguments: cudnn-setup.exe --log \"C:\\Lab Logs\\run.log\"")),
                 qPrintable(lines.at(3)));
        QVERIFY2(lines.at(4).contains(QStringLiteral("state folders: ")) &&
                     lines.at(4).contains(QDir::toNativeSeparators(StateFolders::of(context).user)),
                 qPrintable(lines.at(4)));
    }

    // The answer file holds exactly what the settings say, Windows paths as they are.
    void answerFileReadsBackTheSame()
    {
        QTemporaryDir folder;
        UnattendedSettings settings;
        settings.archive = QDir::toNativeSeparators(
            folder.filePath(QStringLiteral("cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip")));
        settings.target = QStringLiteral("dir:C:\\Program Files\\NVIDIA\\CUDNN\\v9.19");
        settings.path = QStringLiteral("system");
        settings.variables = QStringLiteral("system");
        const QString path = folder.filePath(QStringLiteral("answers.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(settings.toAnswerFile());
        file.close();
        const Expected<UnattendedSettings> read = UnattendedSettings().withAnswerFile(path);
        QVERIFY(read);
        QCOMPARE(read->action, settings.action);
        QCOMPARE(read->archive, settings.archive);
        QCOMPARE(read->target, settings.target);
        QCOMPARE(read->path, settings.path);
        QCOMPARE(read->variables, settings.variables);
        QCOMPARE(read->ifInUse, QString());
        QVERIFY(read->verify);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWizardLog)
#include "tst_wizardlog.moc"
