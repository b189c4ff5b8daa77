#pragma once

#include "archive/ArchiveInspector.h"
#include "install/InstallPlan.h"
#include "install/Installer.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include "session/BackgroundJob.h"

#include <memory>
#include <optional>

namespace cudnnsetup {

// Runs install() on a worker thread and reports back on the thread that started it:
// progress(fraction, text, secondsLeft) while it runs, finished(outcome, runningPrograms) at the
// end. `runningPrograms`: where the install wrote PATH or a variable, the programs running then
// (the context's runningPrograms()), which keep the old values until they restart; else empty. cancel() asks
// the transaction to stop; it then rolls back whatever it did and finishes with the status
// Cancelled (or Done, when the cancel came after its last step).
class InstallJob final : public BackgroundJob
{
    Q_OBJECT

public:
    struct Request
    {
        InstallPlan plan;         // TargetConfig::plan(): the target, variables, in-use option, PATH fixes
        ArchiveReport archive;    // the inspection of the plan's archive (its path: the host's)
        quintptr ownerWindow = 0; // the window a consent prompt belongs to (an HWND)
    };

    InstallJob(Request request, SystemContext context, std::shared_ptr<PersistentEnvironment> environment,
               QObject *parent = nullptr);
    // Destroyed while it runs, the install is cancelled (and rolled back) and waited for.

    void start();

    // How far an install is from its steps and bytes: unpacking is most of the time, so the bytes
    // unpacked weigh kBytesWeight of the whole and the steps the rest. Never goes back.
    static constexpr double kBytesWeight = 0.7;
    static double fraction(int stepsDone, int stepsTotal, qint64 bytesDone, qint64 bytesTotal);
    // Seconds still to go at `fraction` after `elapsedMs`, from the pace so far; -1 while too
    // little is done to tell.
    static int secondsLeft(double fraction, qint64 elapsedMs);

Q_SIGNALS:
    void progress(double fraction, const QString &text, int secondsLeft);
    void finished(const cudnnsetup::ChangeOutcome &outcome, const QStringList &runningPrograms);

private:
    void report(int stepsDone, int stepsTotal, const Text &step, qint64 bytesDone, qint64 bytesTotal);

    Request m_request;
    SystemContext m_context;
    std::shared_ptr<PersistentEnvironment> m_environment;
    // On the GUI thread: what the worker said last.
    int m_stepsDone = 0;
    int m_stepsTotal = 0;
    Text m_step;
    qint64 m_bytesDone = 0;
    qint64 m_bytesTotal = 0;
    double m_fraction = 0;
};

} // namespace cudnnsetup
