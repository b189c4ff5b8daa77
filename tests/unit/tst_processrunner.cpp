#include "Sandbox.h"
#include "Suite.h"
#include "platform/ProcessRunner.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>

using namespace cudnnsetup;

class TestProcessRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void capturesOutputAndExitCode()
    {
        Sandbox sandbox;
        ToolBehaviour tool;
        tool.output = "out\n";
        tool.error = "err\n";
        tool.exitCode = 3;
        sandbox.writeTool(QStringLiteral("/tool.exe"), tool);
        const ProcessResult result =
            ProcessRunner().run(sandbox.hostPath(QStringLiteral("/tool.exe")), {}, 5000);
        QVERIFY(result.started);
        QVERIFY(!result.timedOut);
        QCOMPARE(result.exitCode, 3);
        QCOMPARE(result.standardOutput, QByteArray("out\n"));
        QCOMPARE(result.standardError, QByteArray("err\n"));
        QVERIFY(!result.succeeded());
        QCOMPARE(result.summary(), QStringLiteral("exit code 3: err"));
    }

    // Detection's tools (nvidia-smi, nvcc, each Python) start in an empty folder of their own, not
    // in the caller's current one, where planted DLLs or modules (json.py) could wait.
    void toolsStartInAnEmptyFolder()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a shell script");
        Sandbox sandbox;
        sandbox.writeScriptBody(QStringLiteral("/where"), "pwd\nls -A\n");
        sandbox.write(QStringLiteral("/planted/json.py"), "raise SystemExit('planted')\n");
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(sandbox.hostPath(QStringLiteral("/planted"))));
        const ProcessResult result =
            SystemContext::rooted(sandbox.root()).run(QStringLiteral("/where"), {}, 5000);
        QVERIFY(QDir::setCurrent(previous));
        QVERIFY2(result.succeeded(), qPrintable(result.summary()));
        const QString folder = QString::fromLocal8Bit(result.standardOutput).trimmed();
        QVERIFY2(!folder.startsWith(sandbox.root()), qPrintable(folder));
        QCOMPARE(folder.count(QLatin1Char('\n')), 0); // nothing listed: the folder is empty
        QVERIFY(!QFileInfo::exists(folder));          // and gone once the tool ended
    }

    void missingProgramDoesNotStart()
    {
        const ProcessResult result = ProcessRunner().run(QStringLiteral("/nonexistent/nvidia-smi"), {}, 2000);
        QVERIFY(!result.started);
        QVERIFY(!result.errorString.isEmpty());
    }

    void hungProgramIsKilled()
    {
        Sandbox sandbox;
        ToolBehaviour hung;
        hung.sleepMs = 30000;
        sandbox.writeTool(QStringLiteral("/hang.exe"), hung);
        QElapsedTimer timer;
        timer.start();
        const ProcessResult result =
            ProcessRunner().run(sandbox.hostPath(QStringLiteral("/hang.exe")), {}, 500);
        QVERIFY(result.timedOut);
        QVERIFY(!result.succeeded());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void cancelStopsAProgramEarly()
    {
        Sandbox sandbox;
        ToolBehaviour hung;
        hung.sleepMs = 30000;
        sandbox.writeTool(QStringLiteral("/hang.exe"), hung);
        std::atomic<bool> cancel{true};
        QElapsedTimer timer;
        timer.start();
        const ProcessResult result = ProcessRunner().run(sandbox.hostPath(QStringLiteral("/hang.exe")), {},
                                                         30000, std::nullopt, &cancel);
        QVERIFY(result.cancelled);
        QVERIFY(!result.timedOut);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    // A shell script that leaves a child holding its output open (Linux hosts).
    void hungProgramIsKilledWithItsChildren()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a shell script");
        Sandbox sandbox;
        // The grandchild keeps stdout open; the deadline must still hold.
        sandbox.writeScriptBody(QStringLiteral("/hang"), "sleep 30 &\nsleep 30\n");
        QElapsedTimer timer;
        timer.start();
        const ProcessResult result = ProcessRunner().run(sandbox.hostPath(QStringLiteral("/hang")), {}, 500);
        QVERIFY(result.timedOut);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestProcessRunner)
#include "tst_processrunner.moc"
