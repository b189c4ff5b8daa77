#pragma once

#include <QCommandLineOption>
#include <QList>

// The options of cudnnctl, made after the translation is installed. Each row of commandTable()
// (Commands.cpp) names the function here that returns its own options; an option several commands
// take is described once, saying what it means to each, and returned by each of their functions.

// The options every command takes: the system, the database, the language, the log, --json, the
// detection options, and the hidden ones by which a process talks to its elevated helper.
QList<QCommandLineOption> everyCommandOptions();
// For the rows that take none of their own (apply, probe, prepare-state).
QList<QCommandLineOption> noOptions();

QList<QCommandLineOption> detectOptions();
QList<QCommandLineOption> checkOptions();
QList<QCommandLineOption> inspectOptions();
QList<QCommandLineOption> downloadOptions();
QList<QCommandLineOption> installOptions();
QList<QCommandLineOption> uninstallOptions();
QList<QCommandLineOption> verifyOptions();
QList<QCommandLineOption> doctorOptions();
QList<QCommandLineOption> statusOptions();
QList<QCommandLineOption> baselineOptions();
QList<QCommandLineOption> reportOptions();
QList<QCommandLineOption> fleetOptions();
