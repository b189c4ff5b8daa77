#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>

namespace cudnnsetup {

struct ProcessResult
{
    bool started = false;
    bool timedOut = false;
    bool cancelled = false;
    bool crashed = false;
    int exitCode = -1;
    QByteArray standardOutput;
    QByteArray standardError;
    QString errorString; // why it did not start, or how it ended badly
    qint64 elapsedMs = 0;

    bool succeeded() const { return started && !timedOut && !cancelled && !crashed && exitCode == 0; }
    // One line for a finding's details: "exit code 9: <first line of stderr>".
    QString summary() const;
};

// Runs a program to completion with a deadline. A program that does not finish in time, or whose
// caller sets `cancel`, is killed with everything it started (a hung nvidia-smi must never hang
// detection, nor a closing window). It starts in `workingDirectory`, or in this process's current
// one when that is empty. Any thread.
class ProcessRunner
{
public:
    virtual ~ProcessRunner() = default;
    virtual ProcessResult run(const QString &program, const QStringList &arguments, int timeoutMs,
                              const std::optional<QProcessEnvironment> &environment = std::nullopt,
                              const std::atomic<bool> *cancel = nullptr,
                              const QString &workingDirectory = {}) const;
};

// The running Linux system's ldconfig at the place the distribution puts it (/usr/sbin, /sbin),
// never one found through PATH: root runs it, and a PATH folder someone else can write would then
// choose the program. Empty where there is none (Windows).
QString hostLdconfig();

} // namespace cudnnsetup
