// cudnnctl: the command-line face of cuDNN Setup. Parses arguments and calls core.
#include "common/ExitCodes.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "detect/Detector.h"
#include "platform/SystemContext.h"
#include "report/SnapshotText.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QTextStream>

#include <cstdio>

using namespace cudnnsetup;

namespace {

void writeOut(const QString &text)
{
    QTextStream(stdout) << text;
}

int usageError(const QString &message)
{
    QTextStream(stderr) << message << '\n'
                        << QCoreApplication::translate(
                               "cudnnctl", "Run \"cudnnctl --help\" for the commands and options.")
                        << '\n';
    return exitcode::UsageError;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cudnnctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));

    const QString language = Translations::languageArgument(QCoreApplication::arguments());
    if (!language.isEmpty() && Translations::normalize(language).isEmpty())
        return usageError(QStringLiteral("unsupported language \"%1\" (use en or zh_CN)").arg(language));
    Translations::install(language.isEmpty() ? Translations::languageForLocale(QLocale::system()) : language);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "cudnnctl", "Finds out what a machine has for NVIDIA cuDNN: GPUs, driver, CUDA toolkits, cuDNN\n"
                    "copies and the Python interpreters that use them.\n\n"
                    "Commands:\n"
                    "  detect    Show the GPUs, driver, CUDA toolkits, cuDNN copies and Python\n"
                    "            interpreters of this system (or of --system-root)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"),
                                 QCoreApplication::translate("cudnnctl", "The command to run: detect."));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QCoreApplication::translate("cudnnctl",
                                    "Print JSON (schema cudnn-setup/snapshot/1) instead of a table."));
    const QCommandLineOption rootOption(
        QStringLiteral("system-root"),
        QCoreApplication::translate(
            "cudnnctl", "Inspect the system whose files are under DIR (a mounted image, a test sandbox)."),
        QStringLiteral("DIR"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QCoreApplication::translate("cudnnctl", "Language of messages: en or zh_CN."),
        QStringLiteral("LANG"));
    const QCommandLineOption noPythonOption(
        QStringLiteral("no-python"),
        QCoreApplication::translate("cudnnctl", "Do not ask Python interpreters about torch (faster)."));
    const QCommandLineOption timeoutOption(
        QStringLiteral("tool-timeout"),
        QCoreApplication::translate("cudnnctl", "Seconds to wait for nvidia-smi and nvcc (default 15) and "
                                                "for each Python interpreter (default 10)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption verboseOption(
        QStringLiteral("verbose"),
        QCoreApplication::translate("cudnnctl", "Log what is looked at to stderr."));
    const QCommandLineOption logOption(QStringLiteral("log"),
                                       QCoreApplication::translate("cudnnctl", "Also write the log to FILE."),
                                       QStringLiteral("FILE"));
    parser.addOptions(
        {jsonOption, rootOption, langOption, noPythonOption, timeoutOption, verboseOption, logOption});

    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText());
        return exitcode::Success;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        writeOut(QStringLiteral("cudnnctl %1\n").arg(QCoreApplication::applicationVersion()));
        return exitcode::Success;
    }

    logging::configure(parser.isSet(verboseOption));
    if (parser.isSet(logOption) && !logging::writeTo(parser.value(logOption)))
        return usageError(QCoreApplication::translate("cudnnctl", "The log file %1 cannot be written.")
                              .arg(parser.value(logOption)));

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(QCoreApplication::translate("cudnnctl", "No command given."));
    const QString command = positional.first();
    if (command != QLatin1String("detect"))
        return usageError(QCoreApplication::translate("cudnnctl", "Unknown command \"%1\".").arg(command));
    if (positional.size() > 1)
        return usageError(
            QCoreApplication::translate("cudnnctl", "Unexpected argument \"%1\".").arg(positional.at(1)));

    DetectOptions options;
    if (parser.isSet(timeoutOption)) {
        bool ok = false;
        const double seconds = parser.value(timeoutOption).toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 3600)
            return usageError(QCoreApplication::translate(
                "cudnnctl", "--tool-timeout needs a number of seconds between 0 and 3600."));
        options.toolTimeoutMs = int(seconds * 1000);
        options.pythonTimeoutMs = options.toolTimeoutMs;
    }
    options.probePythons = !parser.isSet(noPythonOption);

    QString root;
    if (parser.isSet(rootOption)) {
        root = parser.value(rootOption);
        if (!QFileInfo(root).isDir())
            return usageError(
                QCoreApplication::translate("cudnnctl", "The system root %1 is not a folder.").arg(root));
        root = QDir(root).absolutePath();
    }
    const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
    const SystemSnapshot snapshot = detectSystem(context, options);

    if (parser.isSet(jsonOption))
        writeOut(QString::fromUtf8(QJsonDocument(snapshot.toJson()).toJson(QJsonDocument::Indented)));
    else
        writeOut(snapshotText(snapshot));
    return hasErrors(snapshot.findings) ? exitcode::ProblemsFound : exitcode::Success;
}
