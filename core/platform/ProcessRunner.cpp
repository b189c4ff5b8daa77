#include "platform/ProcessRunner.h"

#include "common/Logging.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#endif

namespace cudnnsetup {

QString ProcessResult::summary() const
{
    if (!started)
        return QStringLiteral("did not start: %1").arg(errorString);
    QString text = timedOut    ? QStringLiteral("did not finish within its time limit")
                   : cancelled ? QStringLiteral("cancelled")
                   : crashed   ? QStringLiteral("crashed")
                               : QStringLiteral("exit code %1").arg(exitCode);
    const QString firstLine =
        QString::fromLocal8Bit(standardError).trimmed().section(QLatin1Char('\n'), 0, 0);
    if (!firstLine.isEmpty())
        text += QStringLiteral(": ") + firstLine;
    return text;
}

ProcessResult ProcessRunner::run(const QString &program, const QStringList &arguments, int timeoutMs,
                                 const std::optional<QProcessEnvironment> &environment,
                                 const std::atomic<bool> *cancel, const QString &workingDirectory) const
{
    ProcessResult result;
    QElapsedTimer timer;
    timer.start();

    QProcess process;
    if (environment)
        process.setProcessEnvironment(*environment);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.setInputChannelMode(QProcess::ManagedInputChannel);
#ifdef Q_OS_WIN
    // No console window flashing up when the GUI runs a console program.
    process.setCreateProcessArgumentsModifier(
        [](QProcess::CreateProcessArguments *args) { args->flags |= CREATE_NO_WINDOW; });
#else
    // Its own process group, so a timeout kills the grandchildren that hold its pipes open too.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
    process.start(program, arguments, QIODevice::ReadOnly);
    if (!process.waitForStarted(timeoutMs)) {
        result.errorString = process.errorString();
        result.elapsedMs = timer.elapsed();
        qCDebug(lcPlatform) << "could not start" << program << result.errorString;
        return result;
    }
    result.started = true;
    process.closeWriteChannel();

    // Wait in short slices so a cancel request is seen within a tenth of a second.
    bool finished = false;
    while (!finished) {
        const qint64 remaining = timeoutMs - timer.elapsed();
        if (remaining <= 0) {
            result.timedOut = true;
            break;
        }
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        finished = process.waitForFinished(int(std::min<qint64>(remaining, 100)));
    }
    if (!finished) {
#ifndef Q_OS_WIN
        const qint64 pid = process.processId();
        if (pid > 0)
            ::kill(-pid_t(pid), SIGKILL);
#endif
        process.kill();
        process.waitForFinished(2000);
        result.errorString = result.cancelled ? QStringLiteral("cancelled")
                                              : QStringLiteral("timed out after %1 ms").arg(timeoutMs);
    } else {
        result.crashed = process.exitStatus() == QProcess::CrashExit;
        result.exitCode = process.exitCode();
        if (result.crashed)
            result.errorString = process.errorString();
    }
    result.standardOutput = process.readAllStandardOutput();
    result.standardError = process.readAllStandardError();
    result.elapsedMs = timer.elapsed();
    qCDebug(lcPlatform) << "ran" << program << arguments << "in" << result.elapsedMs
                        << "ms:" << result.summary();
    return result;
}

QString hostLdconfig()
{
#ifdef Q_OS_LINUX
    for (const QString &candidate :
         {QStringLiteral("/usr/sbin/ldconfig"), QStringLiteral("/sbin/ldconfig")}) {
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
#endif
    return {};
}

} // namespace cudnnsetup
