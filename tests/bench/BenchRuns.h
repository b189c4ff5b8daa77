#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// What the benchmarks share: medians, and peer commands timed in the same run.
namespace bench {

double median(QList<double> values);

// Wall milliseconds of one run of `program`. A failed run (not finished in two minutes, crashed, or
// an exit code above `highestGoodExit`) stops the benchmark: a time is only worth reporting for a
// command that did its work.
double timeRun(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment,
               int highestGoodExit);
QList<double> timeRuns(const QString &program, const QStringList &arguments,
                       const QProcessEnvironment &environment, int runs, int highestGoodExit);

// The largest resident set, in KiB, of this process (self) or of any child it waited for; -1 where
// the platform does not say.
long peakRssKiB(bool children = false);

} // namespace bench
