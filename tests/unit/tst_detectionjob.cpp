#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "session/DetectionJob.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace cudnnsetup;

class TestDetectionJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reportsProgressAndFinishesOnItsThread()
    {
        Sandbox sandbox;
        if (hostOsFamily() == OsFamily::Windows)
            trees::windowsWorkstation(sandbox);
        else
            trees::workstation(sandbox);
        DetectionJob job(SystemContext::rooted(sandbox.root()));
        QSignalSpy progress(&job, &DetectionJob::progress);
        QSignalSpy finished(&job, &DetectionJob::finished);
        job.start();
        QVERIFY(job.isRunning());
        QVERIFY(finished.wait(30000));
        QVERIFY(!job.isRunning());
        QVERIFY(progress.count() >= 5);
        QCOMPARE(progress.last().at(0).toDouble(), 1.0);
        const auto snapshot = finished.first().at(0).value<SystemSnapshot>();
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.cudaToolkits.size(), 3);
    }

    // A hung interpreter must not keep a closing window waiting for its whole time limit.
    void cancelStopsHungProgramsAtOnce()
    {
        Sandbox sandbox;
        ToolBehaviour hung;
        hung.sleepMs = 60000;
        qputenv("PATH", trees::hostTool(sandbox, trees::HostTool::Python, hung).toLocal8Bit());
        DetectOptions options;
        options.probePythons = true;
        options.pythonTimeoutMs = 60000;
        DetectionJob job(SystemContext::rooted(sandbox.root()), options);
        QSignalSpy cancelled(&job, &DetectionJob::cancelled);
        QSignalSpy finished(&job, &DetectionJob::finished);
        job.start();
        QTest::qWait(300);
        QElapsedTimer timer;
        timer.start();
        job.cancel();
        QVERIFY(cancelled.wait(10000));
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(finished.count(), 0);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestDetectionJob)
#include "tst_detectionjob.moc"
