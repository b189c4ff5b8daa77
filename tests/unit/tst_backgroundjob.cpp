// The one primitive under the wizard's jobs: work on a worker thread, the result handed over on
// the thread that started it, one cancel token, and a destructor that cancels and waits.
#include "Suite.h"
#include "session/BackgroundJob.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace cudnnsetup;

namespace {

// Counts to `limit` slowly, or until cancelled; reports where it stopped.
class CountingJob final : public BackgroundJob
{
    Q_OBJECT

public:
    explicit CountingJob(std::atomic<int> *stoppedAt = nullptr)
        : BackgroundJob(QStringLiteral("counting"), nullptr)
        , m_stoppedAt(stoppedAt)
    {
    }

    bool start(int limit)
    {
        return run(
            [limit, stoppedAt = m_stoppedAt](const CancelToken &token) {
                int count = 0;
                while (count < limit && !token.requested()) {
                    QThread::msleep(1);
                    ++count;
                }
                if (stoppedAt)
                    stoppedAt->store(count);
                return std::make_pair(count, QThread::currentThread());
            },
            [this](const std::pair<int, QThread *> &result) {
                if (cancelToken().requested())
                    Q_EMIT cancelled();
                else
                    Q_EMIT finished(result.first, result.second);
            });
    }

Q_SIGNALS:
    void finished(int count, QThread *worker);

private:
    std::atomic<int> *m_stoppedAt;
};

} // namespace

class TestBackgroundJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The work runs elsewhere; its result arrives here, and the job runs until it has.
    void resultOnTheStartingThread()
    {
        CountingJob job;
        QSignalSpy finished(&job, &CountingJob::finished);
        QVERIFY(job.start(5));
        QVERIFY(job.isRunning());
        QVERIFY(!job.start(5)); // one at a time
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().at(0).toInt(), 5);
        QVERIFY(finished.first().at(1).value<QThread *>() != QThread::currentThread());
        QVERIFY(!job.isRunning());
        QVERIFY(job.start(1)); // and again
        QVERIFY(finished.wait(5000));
    }

    // cancel() reaches the work through the token: it stops early, and says so.
    void cancelStopsTheWork()
    {
        std::atomic<int> stoppedAt{-1};
        CountingJob job(&stoppedAt);
        QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
        QSignalSpy finished(&job, &CountingJob::finished);
        QVERIFY(job.start(100000));
        QThread::msleep(20);
        job.cancel();
        QVERIFY(job.isCancelling());
        QVERIFY(cancelled.wait(5000));
        QVERIFY(finished.isEmpty());
        QVERIFY(stoppedAt.load() > 0 && stoppedAt.load() < 100000);
    }

    // Deleted while it runs, the job cancels and waits for its work: nothing runs on after it.
    void destructorCancelsAndWaits()
    {
        std::atomic<int> stoppedAt{-1};
        {
            CountingJob job(&stoppedAt);
            QVERIFY(job.start(100000));
            QThread::msleep(20);
        }
        QVERIFY(stoppedAt.load() > 0 && stoppedAt.load() < 100000);
        QCoreApplication::processEvents(); // its queued hand-over is dropped with it
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
