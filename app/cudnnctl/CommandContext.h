#pragma once

#include "compat/DatabaseChoice.h"
#include "detect/DetectOptions.h"
#include "platform/SystemContext.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

class QCommandLineParser;

// What the options every command takes mean, worked out once by main() before a command runs
// (its row's run function in Commands.cpp). readRunOptions fills the first part for every command;
// readSystemOptions the rest, for the commands that read a system.
struct CommandContext
{
    QStringList positional; // the command's name, then its arguments
    bool json = false;      // --json
    bool helper = false;    // --exchange: the elevated helper of another process
    QString logFile;        // --log, absolute; empty for a helper, which logs nowhere the caller names

    QString root;                        // --system-root, absolute; empty: this system
    cudnnsetup::DetectOptions detect;    // --tool-timeout, --python-probe and the folders of --app
    QString forConsumer;                 // --for, app:FOLDER with FOLDER as detection was given it
    cudnnsetup::DatabaseChoice database; // --compat-db, else the database beside the program

    // --json, --exchange, --requester, --log, --verbose; a usage error's message, else empty.
    QString readRunOptions(const QCommandLineParser &parser);
    // --tool-timeout, --python-probe, --app, --for app:FOLDER, --system-root, --compat-db; a usage
    // error's message, else empty.
    QString readSystemOptions(const QCommandLineParser &parser);
    // The system under --system-root, else the running one.
    cudnnsetup::SystemContext system() const;
};

// The option's value made absolute, once: an elevated child starts in another folder.
QString absolutePath(const QCommandLineParser &parser, const QString &option);
// `message` and where to find the commands and options on stderr; the usage exit code (2, or 3,
// "unknown", for `status --against`, which answers with the Nagios codes).
int usageError(const QString &message);
// Text or JSON on stdout.
void writeOut(const QString &text);
void writeJson(const QJsonObject &object);
