#include "BenchRuns.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTextStream>

#include <algorithm>
#include <cstdlib>

#ifndef Q_OS_WIN
#include <sys/resource.h>
#endif

namespace bench {

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n == 0 ? 0 : n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2;
}

double timeRun(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment,
               int highestGoodExit)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    QElapsedTimer timer;
    timer.start();
    process.start(program, arguments);
    const bool finished = process.waitForFinished(120000);
    const double elapsed = double(timer.nsecsElapsed()) / 1e6;
    if (!finished)
        process.kill();
    if (!finished || process.exitStatus() != QProcess::NormalExit || process.exitCode() > highestGoodExit) {
        QTextStream(stderr) << program << ' ' << arguments.join(QLatin1Char(' ')) << " failed: exit "
                            << process.exitCode() << ' ' << process.errorString() << '\n';
        ::exit(2);
    }
    return elapsed;
}

QList<double> timeRuns(const QString &program, const QStringList &arguments,
                       const QProcessEnvironment &environment, int runs, int highestGoodExit)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i)
        times.append(timeRun(program, arguments, environment, highestGoodExit));
    return times;
}

long peakRssKiB(bool children)
{
#ifdef Q_OS_WIN
    Q_UNUSED(children)
    return -1;
#else
    rusage usage{};
    getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage);
    return usage.ru_maxrss; // KiB on Linux
#endif
}

} // namespace bench
