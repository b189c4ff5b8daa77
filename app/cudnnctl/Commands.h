#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

struct CommandContext;
class QCommandLineParser;

// cudnnctl's commands as one table: what each does (--help), the options it takes besides those
// every command takes (its function in CommandOptions.h), the function in its own file that runs
// it, and how many arguments follow its name. Parsing, --help, the "belongs to another command"
// errors and main()'s dispatch read it.
struct CommandSpec
{
    QString name;
    const char *summary;                    // for --help, marked QT_TRANSLATE_NOOP("cudnnctl", ...)
    QList<QCommandLineOption> (*options)(); // its own options
    int (*run)(const CommandContext &context, const QCommandLineParser &parser);
    int arguments = 0;       // at most this many after the name (inspect: exactly one)
    bool hidden = false;     // not in --help: the verifier's child, the MSI's custom action
    bool readsSystem = true; // reads a system: CommandContext::readSystemOptions runs first
};

const QList<CommandSpec> &commandTable();
// Every option of cudnnctl, described once, in the order --help lists them: those every command
// takes, then each row's own in the table's order (one that several rows take where the first of
// them lists it). Made after the translation is installed.
QList<QCommandLineOption> commandLineOptions();
// The names of the options `command` takes besides those of every command.
QStringList ownOptionNames(const CommandSpec &command);
// The command called `name`, or null.
const CommandSpec *findCommand(const QString &name);
// The options no command owns: every command takes them.
QStringList optionsOfEveryCommand();
// --help, translated, fitting 80 terminal columns in either language: usage, `description`, the
// commands with their summaries and `options` (those not hidden) with theirs.
QString helpText(const QString &description, const QList<QCommandLineOption> &options);
// "--path belongs to the install command." / "--target belongs to the install, verify, report and
// status commands.", from the table; empty when `option` belongs to `command` or to every command.
QString misplacedOption(const QString &command, const QString &option);
