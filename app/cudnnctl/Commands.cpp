#include "Commands.h"

#include "BaselineCommands.h"
#include "ChangeCommands.h"
#include "CommandOptions.h"
#include "DetectCommands.h"
#include "DownloadCommand.h"
#include "FleetCommand.h"
#include "InspectCommand.h"
#include "ProbeCommand.h"
#include "VerifyCommands.h"

#include "common/TerminalWrap.h"
#include "common/Text.h"

#include <QCoreApplication>

const QList<CommandSpec> &commandTable()
{
    static const QList<CommandSpec> table{
        {QStringLiteral("detect"),
         QT_TRANSLATE_NOOP("cudnnctl", "Show the GPUs, driver, CUDA toolkits, cuDNN copies, Python\n"
                                       "interpreters and the programs that use cuDNN (also in --app\n"
                                       "FOLDER) of this system (or of --system-root)."),
         detectOptions, detectCommand},
        {QStringLiteral("check"),
         QT_TRANSLATE_NOOP("cudnnctl", "Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA's\n"
                                       "tables and name the archive to download. Values not given with\n"
                                       "--os --arch --driver --cuda --sm --gpu --cudnn come from detection."),
         checkOptions, checkCommand},
        {QStringLiteral("inspect"),
         QT_TRANSLATE_NOOP("cudnnctl", "Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA's own\n"
                                       "file, and which cuDNN for which CUDA it truly holds."),
         inspectOptions, inspectCommand, 1},
        {QStringLiteral("download"),
         QT_TRANSLATE_NOOP("cudnnctl", "Get the archive check recommends (or --cudnn/--cuda) from NVIDIA,\n"
                                       "a lab mirror or a folder (--source), checked before it is saved."),
         downloadOptions, downloadCommand},
        {QStringLiteral("install"),
         QT_TRANSLATE_NOOP("cudnnctl", "Install a cuDNN archive as one transaction (--archive --target\n"
                                       "--path): all of it or nothing, with a receipt."),
         installOptions, changeCommand},
        {QStringLiteral("uninstall"),
         QT_TRANSLATE_NOOP("cudnnctl", "Reverse an install by its receipt (cudnnctl uninstall [ID])."),
         uninstallOptions, changeCommand, 1},
        {QStringLiteral("apply"),
         QT_TRANSLATE_NOOP("cudnnctl", "apply FILE: do what an answer file says (install, repair or\n"
                                       "uninstall) without asking, as cudnn-setup --unattended does:\n"
                                       "the repair file of status --against --repair-file, say. Its\n"
                                       "log (--log) has a JSON result beside it; exit codes as install."),
         noOptions, applyCommand, 1},
        {QStringLiteral("verify"),
         QT_TRANSLATE_NOOP("cudnnctl", "Try the installed cuDNN in a fresh process: load every library,\n"
                                       "find missing dependencies, compare versions, run a convolution\n"
                                       "on the GPU and ask torch which cuDNN it uses; --for PROGRAM\n"
                                       "loads that program's own module and names the cuDNN it binds."),
         verifyOptions, verifyCommand},
        {QStringLiteral("doctor"),
         QT_TRANSLATE_NOOP("cudnnctl", "Find what keeps cuDNN from working and offer repairs (--fix);\n"
                                       "--from-log FILE also explains the error you saw."),
         doctorOptions, verifyCommand},
        {QStringLiteral("status"),
         QT_TRANSLATE_NOOP("cudnnctl", "Whether an install of cuDNN Setup is there, intact (--cudnn\n"
                                       "--target): exit 0 and one line, else exit 1 (detection rules).\n"
                                       "--against FILE: this machine against a lab's baseline, exit 0\n"
                                       "compliant, 1 drifted, 2 broken, 3 unknown (--format\n"
                                       "text|json|intune|sccm, --repair-file FILE)."),
         statusOptions, statusCommand},
        {QStringLiteral("baseline"),
         QT_TRANSLATE_NOOP("cudnnctl", "baseline export --out FILE: write what every machine of a lab\n"
                                       "must have, from this one or from an answer file (--from-answer\n"
                                       "FILE; --driver V: the minimum driver)."),
         baselineOptions, baselineCommand, 1},
        {QStringLiteral("report"),
         QT_TRANSLATE_NOOP("cudnnctl", "Write report.json, report.html and environment_versions.txt\n"
                                       "into --out DIR, for asking for help; --to FOLDER writes this\n"
                                       "machine's report (--machine NAME) into a lab's share."),
         reportOptions, verifyCommand},
        {QStringLiteral("fleet"),
         QT_TRANSLATE_NOOP("cudnnctl", "fleet summarize FOLDER: the machine reports in a share at a\n"
                                       "glance: for each item the majority, the machines that differ\n"
                                       "and their repair, old reports (--stale-days N); --html FILE."),
         fleetOptions, fleetCommand, 2, false, false}, // reads the share only
        {QStringLiteral("probe"), "", noOptions, probeCommand, 0, true, false},
        {QStringLiteral("prepare-state"), "", noOptions, prepareStateCommand, 0, true, false},
    };
    return table;
}

QList<QCommandLineOption> commandLineOptions()
{
    QList<QCommandLineOption> options = everyCommandOptions();
    QStringList described;
    for (const QCommandLineOption &option : options)
        described += option.names();
    for (const CommandSpec &command : commandTable()) {
        for (const QCommandLineOption &option : command.options()) {
            if (described.contains(option.names().first()))
                continue; // an option several commands take, described by the first that does
            described += option.names();
            options.append(option);
        }
    }
    return options;
}

QStringList ownOptionNames(const CommandSpec &command)
{
    QStringList names;
    for (const QCommandLineOption &option : command.options())
        names += option.names();
    return names;
}

const CommandSpec *findCommand(const QString &name)
{
    for (const CommandSpec &command : commandTable()) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

QStringList optionsOfEveryCommand()
{
    QStringList owned;
    for (const CommandSpec &command : commandTable())
        owned += ownOptionNames(command);
    QStringList every{QStringLiteral("help"), QStringLiteral("version")};
    for (const QCommandLineOption &option : everyCommandOptions()) {
        for (const QString &name : option.names()) {
            if (!owned.contains(name))
                every << name;
        }
    }
    return every;
}

namespace {

// The summaries carry line breaks laid out for 80 Latin columns; the help is wrapped afresh. A
// break stands for a space between words and between Chinese and Latin, for nothing between two
// Chinese characters or beside a full-width mark.
QString unbroken(const QString &summary)
{
    const auto wide = [](QStringView character) { return cudnnsetup::displayWidth(character) == 2; };
    QString text;
    for (const QString &piece : summary.split(QLatin1Char('\n'))) {
        if (text.isEmpty() || piece.isEmpty()) {
            text += piece;
            continue;
        }
        const QStringView before = QStringView(text).right(1);
        const QStringView after = QStringView(piece).left(1);
        const bool joined = (wide(before) && wide(after)) || (wide(before) && before.front().isPunct()) ||
                            (wide(after) && after.front().isPunct());
        text += (joined ? QString() : QStringLiteral(" ")) + piece;
    }
    return text;
}

QString optionNames(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
    QString text = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        text += QStringLiteral(" <%1>").arg(option.valueName());
    return text;
}

} // namespace

QString helpText(const QString &description, const QList<QCommandLineOption> &options)
{
    constexpr int kColumns = 80;
    QList<std::pair<QString, QString>> commands;
    for (const CommandSpec &command : commandTable()) {
        if (!command.hidden)
            commands.append(
                {command.name, unbroken(QCoreApplication::translate("cudnnctl", command.summary))});
    }
    QList<std::pair<QString, QString>> optionRows{
        {QStringLiteral("-h, --help"), QCoreApplication::translate("cudnnctl", "Show this help.")},
        {QStringLiteral("-v, --version"), QCoreApplication::translate("cudnnctl", "Show the version.")}};
    for (const QCommandLineOption &option : options) {
        if (!(option.flags() & QCommandLineOption::HiddenFromHelp))
            optionRows.append({optionNames(option), option.description()});
    }
    return QCoreApplication::translate("cudnnctl", "Usage: cudnnctl [options] %1 [arguments]")
               .arg(QCoreApplication::translate("cudnnctl", "command", "the argument's name in --help")) +
           QLatin1Char('\n') + cudnnsetup::wrapToWidth(description, kColumns).join(QLatin1Char('\n')) +
           QStringLiteral("\n\n") + QCoreApplication::translate("cudnnctl", "Commands:") + QLatin1Char('\n') +
           cudnnsetup::hangingRows(commands, 10, kColumns) + QLatin1Char('\n') +
           QCoreApplication::translate("cudnnctl", "Options:") + QLatin1Char('\n') +
           cudnnsetup::hangingRows(optionRows, 26, kColumns);
}

QString misplacedOption(const QString &command, const QString &option)
{
    const CommandSpec *spec = findCommand(command);
    if (!spec || ownOptionNames(*spec).contains(option) || optionsOfEveryCommand().contains(option))
        return {};
    QStringList owners;
    for (const CommandSpec &candidate : commandTable()) {
        if (ownOptionNames(candidate).contains(option))
            owners << candidate.name;
    }
    if (owners.isEmpty())
        return {}; // not an option of any command: -h, -?, -v
    return owners.size() == 1 ? QCoreApplication::translate("cudnnctl", "--%1 belongs to the %2 command.")
                                    .arg(option, owners.first())
                              : QCoreApplication::translate("cudnnctl", "--%1 belongs to the %2 commands.")
                                    .arg(option, cudnnsetup::Text::list(owners).toString());
}
