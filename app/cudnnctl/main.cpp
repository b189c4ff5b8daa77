// cudnnctl: the command-line face of cuDNN Setup. Reads the command line, interprets the options
// every command takes once (CommandContext) and runs the command's row of the table (Commands.cpp).
#include "CommandContext.h"
#include "Commands.h"
#include "common/ExitCodes.h"
#include "common/Translations.h"
#include "platform/Elevation.h"
#include "platform/LibraryLoader.h"
#include "platform/RedirectionGuard.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLocale>

using namespace cudnnsetup;

int main(int argc, char *argv[])
{
    // The verifier's probe child loads cuDNN as the user's programs would; everything else here
    // takes DLLs from System32 only (the elevated helper above all).
    if (argc < 2 || qstrcmp(argv[1], "probe") != 0)
        LibraryLoader::loadFromSystem32Only();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cudnnctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));

    const QString language = Translations::languageArgument(QCoreApplication::arguments());
    if (!language.isEmpty() && Translations::normalize(language).isEmpty())
        return usageError(QStringLiteral("unsupported language \"%1\" (use en or zh_CN)").arg(language));
    Translations::install(language.isEmpty() ? Translations::languageForLocale(QLocale::system()) : language);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    const QList<QCommandLineOption> allOptions = commandLineOptions();
    parser.addOptions(allOptions);

    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        // 80 terminal columns, also where a Chinese character takes two.
        writeOut(helpText(QCoreApplication::translate(
                              "cudnnctl", "Finds out what a machine has for NVIDIA cuDNN and what fits it."),
                          allOptions));
        return exitcode::Success;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        writeOut(QStringLiteral("cudnnctl %1\n").arg(QCoreApplication::applicationVersion()));
        return exitcode::Success;
    }

    CommandContext context;
    if (const QString error = context.readRunOptions(parser); !error.isEmpty())
        return usageError(error);
    guardElevatedProcessAgainstUserRedirections(Elevation::host());

    if (context.positional.isEmpty())
        return usageError(QCoreApplication::translate("cudnnctl", "No command given."));
    const QString command = context.positional.first();
    const CommandSpec *spec = findCommand(command);
    // The verifier's child, which loads libraries in a process that has loaded nothing else yet, and
    // the MSI's deferred custom action, run as SYSTEM: no check of the command line is theirs.
    if (spec && spec->hidden)
        return spec->run(context, parser);
    if (!spec)
        return usageError(QCoreApplication::translate("cudnnctl", "Unknown command \"%1\".").arg(command));
    for (const QString &option : parser.optionNames()) {
        if (const QString misplaced = misplacedOption(command, option); !misplaced.isEmpty())
            return usageError(misplaced);
    }
    if (command == QLatin1String("inspect") && context.positional.size() < 2)
        return usageError(QCoreApplication::translate(
            "cudnnctl", "inspect needs the archive to check: cudnnctl inspect FILE.zip"));
    if (context.positional.size() > 1 + spec->arguments)
        return usageError(QCoreApplication::translate("cudnnctl", "Unexpected argument \"%1\".")
                              .arg(context.positional.at(1 + spec->arguments)));
    if (spec->readsSystem) {
        if (const QString error = context.readSystemOptions(parser); !error.isEmpty())
            return usageError(error);
    }
    return spec->run(context, parser);
}
