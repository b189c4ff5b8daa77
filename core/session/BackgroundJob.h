#pragma once

#include "common/CancelToken.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace cudnnsetup {

// What each of the wizard's jobs is: work on a worker thread whose result is handed over on the
// thread that started it, one CancelToken the work checks, and a destructor that cancels and
// waits, so that no job is left half done. The work itself takes copies, never the job: only calls
// it post()s touch the job, on its own thread, and those a deleted job never gets.
class BackgroundJob : public QObject
{
    Q_OBJECT

public:
    ~BackgroundJob() override;

    // From the start until the result has been handed over (the worker ends a little earlier).
    bool isRunning() const { return m_running; }
    bool isCancelling() const { return m_running && m_cancel.requested(); }
    // Asks the work to stop; what that means (dropped, rolled back) is the job's to say.
    void cancel();

Q_SIGNALS:
    // The work stopped at the user's request before it had a result to give (the jobs that say so).
    void cancelled();

protected:
    // `name` for the log: "detection", "install", ...
    BackgroundJob(QString name, QObject *parent);

    // Runs `work(token)` on a worker thread, then `done(result)` on this job's thread. While one
    // runs, another does not start (false).
    template <typename Work, typename Done>
    bool run(Work work, Done done)
    {
        if (m_running)
            return false;
        m_running = true;
        m_cancel = CancelToken();
        m_clock.start();
        m_future = QtConcurrent::run(
            [this, work = std::move(work), done = std::move(done), token = m_cancel]() mutable {
                auto result = work(token);
                post([this, done = std::move(done), result = std::move(result)]() mutable {
                    m_running = false;
                    logFinished();
                    done(std::move(result));
                });
            });
        return true;
    }
    // Calls `call` on this job's thread (from the worker: progress); dropped if the job is gone.
    template <typename Call>
    void post(Call call)
    {
        QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
    }
    const CancelToken &cancelToken() const { return m_cancel; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    void logFinished() const;

    QString m_name;
    CancelToken m_cancel;
    QFuture<void> m_future;
    QElapsedTimer m_clock;
    bool m_running = false;
};

} // namespace cudnnsetup
