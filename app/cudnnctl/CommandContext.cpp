#include "CommandContext.h"

#include "common/ExitCodes.h"
#include "common/Logging.h"
#include "compat/ConsumerVerdicts.h"
#include "install/ElevatedExchange.h"
#include "platform/Console.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

using namespace cudnnsetup;

namespace {

#ifdef CUDNNSETUP_TEST_HOOKS
// The suites' elevated runs change sandboxes (--system-root).
constexpr bool kHelperTakesSystemRoot = true;
#else
constexpr bool kHelperTakesSystemRoot = false;
#endif

// The database the helper of another process judges archives by: the one it was built with, or
// one beside it in its own folder (DatabaseChoice). A build with the suites takes the file that
// CUDNNSETUP_HELPER_COMPAT_DB names, which knows the suites' stand-in archives.
QString helperDatabase()
{
#ifdef CUDNNSETUP_TEST_HOOKS
    return qEnvironmentVariable("CUDNNSETUP_HELPER_COMPAT_DB");
#else
    return {};
#endif
}

// `status --against` on the command line: its usage errors are unknown (3). Read from the
// arguments themselves, as errors come before they are parsed too.
bool statusAgainstRequested()
{
    bool status = false;
    bool against = false;
    for (const QString &argument : QCoreApplication::arguments().mid(1)) {
        status = status || argument == QLatin1String("status");
        against = against || argument == QLatin1String("--against") ||
                  argument.startsWith(QLatin1String("--against="));
    }
    return status && against;
}

} // namespace

QString absolutePath(const QCommandLineParser &parser, const QString &option)
{
    const QString value = parser.value(option);
    return value.isEmpty() ? value : QDir::cleanPath(QFileInfo(value).absoluteFilePath());
}

int usageError(const QString &message)
{
    console::error(
        message + QLatin1Char('\n') +
        QCoreApplication::translate("cudnnctl", "Run \"cudnnctl --help\" for the commands and options.") +
        QLatin1Char('\n'));
    return statusAgainstRequested() ? exitcode::Unknown : exitcode::UsageError;
}

void writeOut(const QString &text)
{
    console::out(text);
}

void writeJson(const QJsonObject &object)
{
    writeOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

QString CommandContext::readRunOptions(const QCommandLineParser &parser)
{
    positional = parser.positionalArguments();
    json = parser.isSet(QStringLiteral("json"));
    // The helper of another process (--exchange) takes no file of that process's choosing: it may be
    // a standard user's, whose paths can become links to any file while an administrator types the
    // password. So it logs nowhere the caller names, and judges archives by the database it was
    // built with (helperDatabase); --request and --cancel-file it only reads.
    helper = parser.isSet(QStringLiteral("exchange"));
    if (helper && !exchange::isNonce(parser.value(QStringLiteral("exchange"))))
        return QStringLiteral("--exchange takes 32 hexadecimal digits, not \"%1\"")
            .arg(parser.value(QStringLiteral("exchange")));
    if (parser.isSet(QStringLiteral("requester")) &&
        !exchange::isAccountSid(parser.value(QStringLiteral("requester"))))
        return QStringLiteral("--requester takes an account SID, not \"%1\"")
            .arg(parser.value(QStringLiteral("requester")));
    logFile = helper ? QString() : absolutePath(parser, QStringLiteral("log"));
    logging::configure(parser.isSet(QStringLiteral("verbose")));
    if (!logFile.isEmpty() && !logging::writeTo(logFile))
        return QCoreApplication::translate("cudnnctl", "The log file %1 cannot be written.")
            .arg(QDir::toNativeSeparators(logFile));
    return {};
}

QString CommandContext::readSystemOptions(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("tool-timeout"))) {
        bool ok = false;
        const double seconds = parser.value(QStringLiteral("tool-timeout")).toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 3600)
            return QCoreApplication::translate(
                "cudnnctl", "--tool-timeout needs a number of seconds between 0 and 3600.");
        detect.toolTimeoutMs = int(seconds * 1000);
        detect.pythonTimeoutMs = detect.toolTimeoutMs;
    }
    detect.probePythons = parser.isSet(QStringLiteral("python-probe"));
    // --app and --for app:FOLDER. Under --system-root the folder is the inspected system's; otherwise
    // it is made absolute here.
    const bool rooted = parser.isSet(QStringLiteral("system-root"));
    QStringList appFolders = parser.values(QStringLiteral("app"));
    const QString forWhat = parser.value(QStringLiteral("for"));
    if (const QString folder = appFolderOf(forWhat); !folder.isEmpty())
        appFolders.append(folder);
    for (const QString &folder : std::as_const(appFolders)) {
        if (!rooted && !QFileInfo(folder).isDir())
            return QCoreApplication::translate("cudnnctl", "The application folder %1 is not a folder.")
                .arg(folder);
        detect.appFolders.append(rooted ? folder : QDir::cleanPath(QFileInfo(folder).absoluteFilePath()));
    }
    // With --for, the folder of app:FOLDER is the one detection was given (made absolute).
    forConsumer =
        appFolderOf(forWhat).isEmpty() ? forWhat : QStringLiteral("app:") + detect.appFolders.constLast();

    if (rooted) {
        // A system root of the caller's would have the helper write wherever that folder's links lead.
        if (helper && !kHelperTakesSystemRoot)
            return QStringLiteral("--system-root is not for a run with --exchange");
        root = parser.value(QStringLiteral("system-root"));
        if (!QFileInfo(root).isDir())
            return QCoreApplication::translate("cudnnctl", "The system root %1 is not a folder.").arg(root);
        root = QDir(root).absolutePath();
    }

    const QString compatDb = QStringLiteral("compat-db");
    database = DatabaseChoice::choose(helper ? helperDatabase() : absolutePath(parser, compatDb),
                                      QCoreApplication::applicationDirPath());
    if (!helper && parser.isSet(compatDb) && hasErrors(database.findings))
        return database.findings.first().message.toString() + QLatin1Char('\n') +
               database.findings.first().details;
    return {};
}

SystemContext CommandContext::system() const
{
    return root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
}
