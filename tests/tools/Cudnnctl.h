#pragma once

#include "BuildPaths.h"
#include "common/Finding.h"

#include <QByteArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QStringList>

// The real cudnnctl, run as a user runs it, for the end-to-end suites.
struct CudnnctlRun
{
    int exitCode = -1; // -1: it crashed or hung
    QByteArray out;
    QByteArray err;
};

// `input` is what it reads on its standard input, then the end of input.
CudnnctlRun runCudnnctl(const QStringList &arguments,
                        const QProcessEnvironment &environment = QProcessEnvironment(),
                        const QString &program = BuildPaths::cudnnctl(), const QString &workingDirectory = {},
                        const QByteArray &input = {});
// Its stdout as a JSON object (empty, and a warning with what it printed, when it is not JSON).
QJsonObject outputJson(const CudnnctlRun &run);
// The ids of findings in order: those of a report's "findings" array, or findings in this process.
QStringList findingIds(const QJsonObject &report);
QStringList findingIds(const cudnnsetup::Findings &findings);
// The one consumer of a `verify --for` report (empty, and a warning with the report, when there is
// not exactly one), and the path of the cuDNN it bound (empty: none).
QJsonObject onlyConsumer(const QJsonObject &report);
QString boundPath(const QJsonObject &consumer);
// What is wrong, if anything, with a `doctor --from-log --json` run on a log whose error this
// system no longer shows: its first diagnosis must be the log's, a note that says so, with no repair.
QString pastErrorProblem(const CudnnctlRun &doctor);

// The inspected system's PATH, in the host's own family's terms (a tree of the host's family is
// the one whose programs can run). On Windows the rest of the environment stays: a Windows
// program needs SystemRoot and friends to start at all.
QProcessEnvironment sandboxEnvironment();
