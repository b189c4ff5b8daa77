#include "Sandbox.h"
#include "platform/ProcessRunner.h"

#include <QElapsedTimer>
#include <QTest>

using namespace cudnnsetup;

class TestProcessRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void capturesOutputAndExitCode()
    {
        Sandbox sandbox;
        sandbox.writeScriptBody(QStringLiteral("/tool"), "echo out; echo err >&2; exit 3\n");
        const ProcessResult result = ProcessRunner().run(sandbox.hostPath(QStringLiteral("/tool")), {}, 5000);
        QVERIFY(result.started);
        QVERIFY(!result.timedOut);
        QCOMPARE(result.exitCode, 3);
        QCOMPARE(result.standardOutput, QByteArray("out\n"));
        QCOMPARE(result.standardError, QByteArray("err\n"));
        QVERIFY(!result.succeeded());
        QCOMPARE(result.summary(), QStringLiteral("exit code 3: err"));
    }

    void missingProgramDoesNotStart()
    {
        const ProcessResult result = ProcessRunner().run(QStringLiteral("/nonexistent/nvidia-smi"), {}, 2000);
        QVERIFY(!result.started);
        QVERIFY(!result.errorString.isEmpty());
    }

    void hungProgramIsKilledWithItsChildren()
    {
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

QTEST_GUILESS_MAIN(TestProcessRunner)
#include "tst_processrunner.moc"
