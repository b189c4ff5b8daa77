// cudnnctl: the command-line face of cuDNN Setup. Parses arguments and calls core.
#include "BaselineCommands.h"
#include "ChangeCommands.h"
#include "Commands.h"
#include "DownloadCommand.h"
#include "FleetCommand.h"
#include "ProbeCommand.h"
#include "VerifyCommands.h"
#include "archive/ArchiveInspector.h"
#include "common/ExitCodes.h"
#include "common/GlobalOptions.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/DatabaseChoice.h"
#include "compat/Matcher.h"
#include "compat/WhatIf.h"
#include "detect/Detector.h"
#include "install/ElevatedExchange.h"
#include "platform/Console.h"
#include "platform/Elevation.h"
#include "platform/LibraryLoader.h"
#include "platform/RedirectionGuard.h"
#include "platform/SystemContext.h"
#include "report/ArchiveText.h"
#include "report/CheckReport.h"
#include "report/SnapshotText.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>

using namespace cudnnsetup;

namespace {

void writeOut(const QString &text)
{
    console::out(text);
}

void writeJson(const QJsonObject &object)
{
    writeOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

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

// `status --against` answers with the Nagios codes, where 2 is "broken": a command line it cannot
// use is "unknown" (3) there.
int usageExitCode = exitcode::UsageError;

int usageError(const QString &message)
{
    console::error(
        message + QLatin1Char('\n') +
        QCoreApplication::translate("cudnnctl", "Run \"cudnnctl --help\" for the commands and options.") +
        QLatin1Char('\n'));
    return usageExitCode;
}

// `status --against` on the command line, before it is parsed: its usage errors are unknown (3).
bool statusAgainstRequested(int argc, char *argv[])
{
    bool status = false;
    bool against = false;
    for (int i = 1; i < argc; ++i) {
        status = status || qstrcmp(argv[i], "status") == 0;
        against = against || qstrcmp(argv[i], "--against") == 0 || qstrncmp(argv[i], "--against=", 10) == 0;
    }
    return status && against;
}

} // namespace

int main(int argc, char *argv[])
{
    // The verifier's probe child loads cuDNN as the user's programs would; everything else here
    // takes DLLs from System32 only (the elevated helper above all).
    if (argc < 2 || qstrcmp(argv[1], "probe") != 0)
        LibraryLoader::loadFromSystem32Only();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cudnnctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));
    if (statusAgainstRequested(argc, argv))
        usageExitCode = exitcode::Unknown;

    const QString language = Translations::languageArgument(QCoreApplication::arguments());
    if (!language.isEmpty() && Translations::normalize(language).isEmpty())
        return usageError(QStringLiteral("unsupported language \"%1\" (use en or zh_CN)").arg(language));
    Translations::install(language.isEmpty() ? Translations::languageForLocale(QLocale::system()) : language);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QCoreApplication::translate(
            "cudnnctl", "Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: "
                        "cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: "
                        "cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: "
                        "cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1)."));
    const GlobalOptions global;
    const QCommandLineOption &rootOption = global.systemRoot;
    const QCommandLineOption &compatOption = global.compatDb;
    const QCommandLineOption &logOption = global.log;
    const QCommandLineOption pythonProbeOption(
        QStringLiteral("python-probe"),
        QCoreApplication::translate("cudnnctl",
                                    "Also run each Python interpreter to ask torch whether it sees a GPU and "
                                    "which cuDNN it loaded (seconds each); without it, what their files tell "
                                    "is reported."));
    const QCommandLineOption timeoutOption(
        QStringLiteral("tool-timeout"),
        QCoreApplication::translate("cudnnctl", "Seconds to wait for nvidia-smi and nvcc (default 15) and "
                                                "for each Python interpreter (default 10)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption verboseOption(
        QStringLiteral("verbose"),
        QCoreApplication::translate("cudnnctl", "Log what is looked at to stderr."));
    const QCommandLineOption osOption(
        QStringLiteral("os"),
        QCoreApplication::translate("cudnnctl", "check: as if the system were windows or linux."),
        QStringLiteral("OS"));
    const QCommandLineOption archOption(
        QStringLiteral("arch"),
        QCoreApplication::translate("cudnnctl", "check: as if the processor were x86_64 or arm64."),
        QStringLiteral("ARCH"));
    const QCommandLineOption driverOption(
        QStringLiteral("driver"),
        QCoreApplication::translate("cudnnctl", "check: as if the NVIDIA driver were version V; baseline "
                                                "export: the minimum driver (default: this machine's)."),
        QStringLiteral("V"));
    const QCommandLineOption cudaOption(
        QStringLiteral("cuda"),
        QCoreApplication::translate("cudnnctl", "check: as if the CUDA toolkit were version V; download: the "
                                                "CUDA major of the archive (the _cudaNN of its name)."),
        QStringLiteral("V"));
    const QCommandLineOption smOption(
        QStringLiteral("sm"),
        QCoreApplication::translate("cudnnctl", "check: as if the GPU's compute capability were X.Y."),
        QStringLiteral("X.Y"));
    const QCommandLineOption gpuOption(
        QStringLiteral("gpu"),
        QCoreApplication::translate("cudnnctl",
                                    "check: as if the GPU were NAME (its compute capability is looked up)."),
        QStringLiteral("NAME"));
    const QCommandLineOption cudnnOption(
        QStringLiteral("cudnn"),
        QCoreApplication::translate(
            "cudnnctl",
            "check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name; "
            "download: the version to get (default: what check recommends); "
            "status: the version the install must have (9.1 matches 9.1.0.70)."),
        QStringLiteral("V"));
    const QCommandLineOption backendOption(
        QStringLiteral("zip-backend"),
        QCoreApplication::translate(
            "cudnnctl",
            "inspect: read the archive with quazip or minizip (default: the first this build has)."),
        QStringLiteral("NAME"));
    const QCommandLineOption archiveOption(
        QStringLiteral("archive"),
        QCoreApplication::translate("cudnnctl",
                                    "install: the cuDNN archive (ZIP) to install; doctor: the archive "
                                    "to replace damaged or mismatched files from."),
        QStringLiteral("FILE"));
    const QCommandLineOption targetOption(
        QStringLiteral("target"),
        QCoreApplication::translate(
            "cudnnctl",
            "install: where to: cuda[:VERSION], dir[:PATH], user[:PATH], conda:ENV or venv:PATH (default: "
            "the toolkit that fits, else its own folder); verify: which install to check (default: the "
            "last one cuDNN Setup made, else what a new program loads)."),
        QStringLiteral("TARGET"));
    const QCommandLineOption pathOption(
        QStringLiteral("path"),
        QCoreApplication::translate(
            "cudnnctl", "install: which PATH gets the DLL folder: user, system or none (default: the "
                        "target's own choice)."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption variablesOption(
        QStringLiteral("cudnn-variables"),
        QCoreApplication::translate(
            "cudnnctl",
            "install: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption inUseOption(
        QStringLiteral("if-in-use"),
        QCoreApplication::translate("cudnnctl",
                                    "install: when programs hold files to be replaced: fail (default) or "
                                    "restart (replace them now, as an administrator; those programs keep the "
                                    "old ones until they restart, exit 3010)."),
        QStringLiteral("WHAT"));
    const QCommandLineOption unverifiedOption(
        QStringLiteral("allow-unverified-archive"),
        QCoreApplication::translate("cudnnctl",
                                    "install: an administrator at their own console takes an archive whose "
                                    "SHA-256 NVIDIA did not publish into a target every program loads from "
                                    "(system PATH, a CUDA toolkit, the loader's configuration). Never passed "
                                    "on to an elevated helper."));
    // How an elevated run answers the process that started it: in a folder it makes itself under the
    // machine state folder, named by that process's nonce and readable by its account
    // (exchange::writeResult). --exchange makes this run that process's helper.
    QCommandLineOption exchangeOption(
        QStringLiteral("exchange"),
        QStringLiteral("install, uninstall, doctor: the helper of another process: leave the outcome in "
                       "the machine's exchange folder NONCE (32 hexadecimal digits)"),
        QStringLiteral("NONCE"));
    exchangeOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption requesterOption(
        QStringLiteral("requester"),
        QStringLiteral("install, uninstall, doctor: the account (SID) that may read that outcome"),
        QStringLiteral("SID"));
    requesterOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption cancelOption(
        QStringLiteral("cancel-file"),
        QStringLiteral("install, uninstall, doctor: stop and roll back once FILE appears"),
        QStringLiteral("FILE"));
    cancelOption.setFlags(
        QCommandLineOption::HiddenFromHelp); // how the parent's Cancel reaches an elevated run
    const QCommandLineOption appOption(
        QStringLiteral("app"),
        QCoreApplication::translate("cudnnctl",
                                    "detect: also read the programs in FOLDER (a portable ComfyUI, "
                                    "a bundled app) for the cuDNN and CUDA they need (may be given "
                                    "more than once)."),
        QStringLiteral("FOLDER"));
    const QCommandLineOption forOption(
        QStringLiteral("for"),
        QCoreApplication::translate("cudnnctl",
                                    "check: judge only this program: torch, tensorflow, onnxruntime, "
                                    "ctranslate2, jax or app:FOLDER (the programs in FOLDER); verify: "
                                    "load its own module in a fresh process and name the cuDNN it binds."),
        QStringLiteral("WHAT"));
    const QCommandLineOption dryRunOption(
        QStringLiteral("dry-run"),
        QCoreApplication::translate("cudnnctl", "install, uninstall: show the steps, change nothing."));
    const QCommandLineOption pythonOption(
        QStringLiteral("python"),
        QCoreApplication::translate("cudnnctl", "verify: ask torch in this Python interpreter (may be given "
                                                "more than once; default: each one found with torch)."),
        QStringLiteral("PATH"));
    const QCommandLineOption noGpuOption(
        QStringLiteral("no-gpu"),
        QCoreApplication::translate("cudnnctl", "verify: skip the GPU stage (handle and convolution)."));
    const QCommandLineOption noFrameworkOption(
        QStringLiteral("no-framework"),
        QCoreApplication::translate("cudnnctl", "verify, report: do not ask torch."));
    const QCommandLineOption fixOption(
        QStringLiteral("fix"),
        QCoreApplication::translate("cudnnctl", "doctor: apply the repairs it offers, each after asking."));
    const QCommandLineOption yesOption(
        QStringLiteral("yes"),
        QCoreApplication::translate("cudnnctl", "doctor --fix: apply every offered repair without asking."));
    const QCommandLineOption fromLogOption(
        QStringLiteral("from-log"),
        QCoreApplication::translate(
            "cudnnctl", "doctor: also read the error you saw from FILE (a traceback, a loader log, "
                        "a copied Windows message; \"-\" reads the standard input) and explain it."),
        QStringLiteral("FILE"));
    const QCommandLineOption outOption(
        QStringLiteral("out"),
        QCoreApplication::translate("cudnnctl",
                                    "report, download: the folder to write into (download: default "
                                    "the user's Downloads folder); baseline export: the file to write."),
        QStringLiteral("DIR|FILE"));
    const QCommandLineOption toOption(
        QStringLiteral("to"),
        QCoreApplication::translate(
            "cudnnctl", "report: write this machine's report as FOLDER/<machine>.json (a lab's "
                        "share, for \"cudnnctl fleet summarize\"), replacing its last one whole."),
        QStringLiteral("FOLDER"));
    const QCommandLineOption machineOption(
        QStringLiteral("machine"),
        QCoreApplication::translate("cudnnctl", "report --to: the machine's name (default: its host name)."),
        QStringLiteral("NAME"));
    const QCommandLineOption htmlOption(
        QStringLiteral("html"),
        QCoreApplication::translate("cudnnctl", "fleet summarize: also write the summary as one page, FILE."),
        QStringLiteral("FILE"));
    const QCommandLineOption staleDaysOption(
        QStringLiteral("stale-days"),
        QCoreApplication::translate(
            "cudnnctl", "fleet summarize: a report older than N days is listed as old (default 7)."),
        QStringLiteral("N"));
    const QCommandLineOption againstOption(
        QStringLiteral("against"),
        QCoreApplication::translate("cudnnctl", "status: judge this machine against the baseline in FILE "
                                                "(cudnnctl baseline export)."),
        QStringLiteral("FILE"));
    const QCommandLineOption formatOption(
        QStringLiteral("format"),
        QCoreApplication::translate("cudnnctl", "status --against: text (default), json, intune (the flat "
                                                "JSON of a custom compliance script) or sccm (ConfigMgr's "
                                                "detection rule)."),
        QStringLiteral("NAME"));
    const QCommandLineOption repairFileOption(
        QStringLiteral("repair-file"),
        QCoreApplication::translate("cudnnctl", "status --against: write the answer file that brings this "
                                                "machine back to the baseline (cudnn-setup --unattended "
                                                "--answer-file FILE)."),
        QStringLiteral("FILE"));
    const QCommandLineOption fromAnswerOption(
        QStringLiteral("from-answer"),
        QCoreApplication::translate("cudnnctl", "baseline export: take the baseline from this answer file "
                                                "rather than from this machine's install."),
        QStringLiteral("FILE"));
    const QCommandLineOption platformOption(
        QStringLiteral("platform"),
        QCoreApplication::translate("cudnnctl",
                                    "download: the archive's platform: windows-x86_64, linux-x86_64 or "
                                    "linux-sbsa (default: this computer's)."),
        QStringLiteral("NAME"));
    const QCommandLineOption sourceOption(
        QStringLiteral("source"),
        QCoreApplication::translate(
            "cudnnctl", "download: where from: NVIDIA's redist (default), a mirror with its layout "
                        "(https://…), or a folder or share holding the archives."),
        QStringLiteral("URL|DIR"));
    const QCommandLineOption caFileOption(
        QStringLiteral("ca-file"),
        QCoreApplication::translate("cudnnctl",
                                    "download: also trust the certificates in FILE (a mirror's own "
                                    "certificate authority)."),
        QStringLiteral("FILE"));
    QCommandLineOption requestOption(QStringLiteral("request"),
                                     QStringLiteral("probe, doctor: the request file (what to load, which "
                                                    "repairs to apply elevated)"),
                                     QStringLiteral("FILE"));
    // How verify talks to its probe child, and a repair or an install to its elevated helper.
    requestOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption planSealOption(
        QStringLiteral("plan-sha256"),
        QStringLiteral("install: the helper of another process: install the plan in the --request file, "
                       "whose SHA-256 must be SEAL"),
        QStringLiteral("SEAL"));
    planSealOption.setFlags(QCommandLineOption::HiddenFromHelp);
    const QList<QCommandLineOption> allOptions =
        global.all() +
        QList<QCommandLineOption>{
            jsonOption,      pythonProbeOption, timeoutOption,     verboseOption,   osOption,
            archOption,      driverOption,      cudaOption,        smOption,        gpuOption,
            cudnnOption,     backendOption,     archiveOption,     targetOption,    pathOption,
            variablesOption, inUseOption,       unverifiedOption,  exchangeOption,  dryRunOption,
            pythonOption,    noGpuOption,       noFrameworkOption, fixOption,       yesOption,
            outOption,       requestOption,     cancelOption,      platformOption,  sourceOption,
            caFileOption,    requesterOption,   planSealOption,    fromLogOption,   appOption,
            forOption,       toOption,          machineOption,     htmlOption,      staleDaysOption,
            againstOption,   formatOption,      repairFileOption,  fromAnswerOption};
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

    // Paths are made absolute here, once: an elevated child starts in another folder.
    const auto absolutePath = [&parser](const QCommandLineOption &option) {
        const QString value = parser.value(option);
        return value.isEmpty() ? value : QDir::cleanPath(QFileInfo(value).absoluteFilePath());
    };
    // The helper of another process (--exchange) takes no file of that process's choosing: it may be
    // a standard user's, whose paths can become links to any file while an administrator types the
    // password. So it logs nowhere the caller names, and judges archives by the database it was
    // built with (helperDatabase); --request and --cancel-file it only reads.
    const bool helper = parser.isSet(exchangeOption);
    if (helper && !exchange::isNonce(parser.value(exchangeOption)))
        return usageError(QStringLiteral("--exchange takes 32 hexadecimal digits, not \"%1\"")
                              .arg(parser.value(exchangeOption)));
    if (parser.isSet(requesterOption) && !exchange::isAccountSid(parser.value(requesterOption)))
        return usageError(QStringLiteral("--requester takes an account SID, not \"%1\"")
                              .arg(parser.value(requesterOption)));
    const QString logFile = helper ? QString() : absolutePath(logOption);
    logging::configure(parser.isSet(verboseOption));
    if (!logFile.isEmpty() && !logging::writeTo(logFile))
        return usageError(QCoreApplication::translate("cudnnctl", "The log file %1 cannot be written.")
                              .arg(QDir::toNativeSeparators(logFile)));
    guardElevatedProcessAgainstUserRedirections(Elevation::host());

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(QCoreApplication::translate("cudnnctl", "No command given."));
    const QString command = positional.first();
    // The verifier's child: loads libraries in a process that has loaded nothing else yet.
    if (command == QLatin1String("probe"))
        return runProbeCommand(parser.value(requestOption));
    // The MSI's deferred custom action, run as SYSTEM when the programs are installed.
    if (command == QLatin1String("prepare-state"))
        return runPrepareState(SystemContext::running());
    const CommandSpec *spec = findCommand(command);
    if (!spec || spec->hidden)
        return usageError(QCoreApplication::translate("cudnnctl", "Unknown command \"%1\".").arg(command));
    for (const QString &option : parser.optionNames()) {
        if (const QString misplaced = misplacedOption(command, option); !misplaced.isEmpty())
            return usageError(misplaced);
    }
    const bool status = command == QLatin1String("status");
    const bool verifying = command == QLatin1String("verify") || command == QLatin1String("doctor") ||
                           command == QLatin1String("report") || status;
    const bool inspect = command == QLatin1String("inspect");
    const bool installing = command == QLatin1String("install");
    const bool downloading = command == QLatin1String("download");
    const bool uninstalling = command == QLatin1String("uninstall");
    const bool check = command == QLatin1String("check");
    if (inspect && positional.size() < 2)
        return usageError(QCoreApplication::translate(
            "cudnnctl", "inspect needs the archive to check: cudnnctl inspect FILE.zip"));
    if (positional.size() > 1 + spec->arguments)
        return usageError(QCoreApplication::translate("cudnnctl", "Unexpected argument \"%1\".")
                              .arg(positional.at(1 + spec->arguments)));
    // Reads the share only: no detection of this system.
    if (command == QLatin1String("fleet")) {
        FleetRequest request;
        request.subcommand = positional.value(1);
        request.folder = positional.value(2);
        request.htmlFile = absolutePath(htmlOption);
        request.staleDays = parser.value(staleDaysOption);
        request.json = parser.isSet(jsonOption);
        return runFleetCommand(request);
    }

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
    options.probePythons = parser.isSet(pythonProbeOption);
    // --app and --for app:FOLDER. Under --system-root the folder is the inspected system's; otherwise
    // it is made absolute here.
    QStringList appFolders = parser.values(appOption);
    const QString forWhat = parser.value(forOption);
    if (const QString folder = appFolderOf(forWhat); !folder.isEmpty())
        appFolders.append(folder);
    for (const QString &folder : std::as_const(appFolders)) {
        if (!parser.isSet(rootOption) && !QFileInfo(folder).isDir())
            return usageError(
                QCoreApplication::translate("cudnnctl", "The application folder %1 is not a folder.")
                    .arg(folder));
        options.appFolders.append(
            parser.isSet(rootOption) ? folder : QDir::cleanPath(QFileInfo(folder).absoluteFilePath()));
    }
    // With --for, the folder of app:FOLDER is the one detection was given (made absolute).
    const QString forConsumer =
        appFolderOf(forWhat).isEmpty() ? forWhat : QStringLiteral("app:") + options.appFolders.constLast();

    QString root;
    if (parser.isSet(rootOption)) {
        // A system root of the caller's would have the helper write wherever that folder's links lead.
        if (helper && !kHelperTakesSystemRoot)
            return usageError(QStringLiteral("--system-root is not for a run with --exchange"));
        root = parser.value(rootOption);
        if (!QFileInfo(root).isDir())
            return usageError(
                QCoreApplication::translate("cudnnctl", "The system root %1 is not a folder.").arg(root));
        root = QDir(root).absolutePath();
    }

    DatabaseChoice database = DatabaseChoice::choose(helper ? helperDatabase() : absolutePath(compatOption),
                                                     QCoreApplication::applicationDirPath());
    if (!helper && parser.isSet(compatOption) && hasErrors(database.findings))
        return usageError(database.findings.first().message.toString() + QLatin1Char('\n') +
                          database.findings.first().details);

    const bool baseline = command == QLatin1String("baseline");
    if (baseline && positional.value(1) != QLatin1String("export"))
        return usageError(QCoreApplication::translate("cudnnctl",
                                                      "baseline takes one action: cudnnctl baseline "
                                                      "export --out FILE"));
    if (status && !parser.isSet(againstOption) &&
        (parser.isSet(formatOption) || parser.isSet(repairFileOption)))
        return usageError(
            QCoreApplication::translate("cudnnctl", "--format and --repair-file go with --against."));
    if (status && parser.isSet(againstOption) && (parser.isSet(cudnnOption) || parser.isSet(targetOption)))
        return usageError(QCoreApplication::translate(
            "cudnnctl",
            "--against takes the version and the target from the baseline: leave out --cudnn and --target."));
    if (baseline || (status && parser.isSet(againstOption))) {
        BaselineRequest request;
        request.outFile = absolutePath(outOption);
        request.fromAnswer = absolutePath(fromAnswerOption);
        request.driver = parser.value(driverOption);
        request.against = absolutePath(againstOption);
        request.format = parser.value(formatOption);
        request.repairFile = absolutePath(repairFileOption);
        request.json = parser.isSet(jsonOption);
        request.detect = options;
        const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
        return baseline ? runBaselineExport(request, context, database.database)
                        : runStatusAgainst(request, context, database.database);
    }

    if (verifying) {
        VerifyRequest request;
        request.command = command;
        request.target = parser.value(targetOption);
        request.forWhat = forConsumer;
        request.pythons = parser.values(pythonOption);
        request.gpu = !parser.isSet(noGpuOption);
        request.framework = !parser.isSet(noFrameworkOption);
        request.fix = parser.isSet(fixOption);
        request.yes = parser.isSet(yesOption);
        request.archive = absolutePath(archiveOption);
        request.fromLog = parser.value(fromLogOption) == QLatin1String("-") ? parser.value(fromLogOption)
                                                                            : absolutePath(fromLogOption);
        request.outFolder = absolutePath(outOption);
        request.toFolder = absolutePath(toOption);
        request.machine = parser.value(machineOption);
        request.cudnnVersion = parser.value(cudnnOption);
        request.requestFile = absolutePath(requestOption);
        request.exchangeNonce = parser.value(exchangeOption);
        request.requesterSid = parser.value(requesterOption);
        request.cancelFile = absolutePath(cancelOption);
        request.json = parser.isSet(jsonOption);
        request.detect = options;
        return runVerifyCommand(request,
                                root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root),
                                database.database);
    }

    if (command == QLatin1String("apply")) {
        if (positional.size() < 2)
            return usageError(QCoreApplication::translate(
                "cudnnctl", "apply needs the answer file: cudnnctl apply FILE.ini"));
        return runApply(QDir::cleanPath(QFileInfo(positional.at(1)).absoluteFilePath()), logFile,
                        root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root),
                        database.database);
    }

    if (installing || uninstalling) {
        ChangeRequest request;
        request.command = command;
        request.receiptId = uninstalling ? positional.value(1) : QString();
        request.archive = absolutePath(archiveOption);
        request.target = parser.value(targetOption);
        request.path = parser.value(pathOption);
        request.variables = parser.value(variablesOption);
        request.ifInUse = parser.value(inUseOption);
        request.allowUnverifiedArchive = parser.isSet(unverifiedOption);
        request.exchangeNonce = parser.value(exchangeOption);
        request.requesterSid = parser.value(requesterOption);
        request.cancelFile = absolutePath(cancelOption);
        request.planFile = absolutePath(requestOption);
        request.planSeal = parser.value(planSealOption);
        request.dryRun = parser.isSet(dryRunOption);
        request.json = parser.isSet(jsonOption);
        request.detect = options;
        request.detect.probePythons = false; // a venv or conda target is named by its folder
        return runChange(request, root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root),
                         database.database);
    }

    if (downloading) {
        DownloadCommandRequest request;
        request.cudnn = parser.value(cudnnOption);
        request.cuda = parser.value(cudaOption);
        request.platform = parser.value(platformOption);
        request.source = parser.value(sourceOption);
        request.outFolder = absolutePath(outOption);
        request.caFile = absolutePath(caFileOption);
        request.json = parser.isSet(jsonOption);
        request.detect = options;
        return runDownloadCommand(request,
                                  root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root),
                                  database.database);
    }

    if (inspect) {
        InspectOptions inspectOptions;
        if (parser.isSet(backendOption)) {
            for (const ZipSource::Backend backend : ZipSource::backends()) {
                if (ZipSource::backendName(backend) == parser.value(backendOption))
                    inspectOptions.backend = backend;
            }
            if (!inspectOptions.backend)
                return usageError(
                    QCoreApplication::translate("cudnnctl", "This build has no zip backend \"%1\".")
                        .arg(parser.value(backendOption)));
        }
        const auto report =
            inspectArchive(positional.at(1), database.database.publishedArchives(), inspectOptions);
        if (!report)
            return usageError(report.error().message.toString());
        if (parser.isSet(jsonOption))
            writeJson(report->toJson());
        else
            writeOut(archiveText(*report));
        return report->verdict == ArchiveReport::Verdict::Ok ? exitcode::Success : exitcode::ProblemsFound;
    }

    const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
    const SystemSnapshot snapshot = detectSystem(context, options);
    if (!check) {
        const QList<JudgedConsumer> judged =
            judgeConsumers(snapshot.consumers, MatchFacts::fromSnapshot(snapshot), database.database);
        if (parser.isSet(jsonOption))
            writeJson(snapshotJsonWithVerdicts(snapshot, judged));
        else
            writeOut(snapshotText(snapshot) +
                     (judged.isEmpty()
                          ? QString()
                          : QLatin1Char('\n') +
                                QCoreApplication::translate("cudnnsetup", "Programs that use cuDNN/CUDA") +
                                QLatin1Char('\n') + consumerVerdictsText(judged)));
        return hasErrors(snapshot.findings) ? exitcode::ProblemsFound : exitcode::Success;
    }

    WhatIf whatIf;
    whatIf.os = parser.value(osOption);
    whatIf.arch = parser.value(archOption);
    whatIf.driver = parser.value(driverOption);
    whatIf.cuda = parser.value(cudaOption);
    whatIf.sm = parser.value(smOption);
    whatIf.gpu = parser.value(gpuOption);
    whatIf.cudnn = parser.value(cudnnOption);
    const auto facts = applyWhatIf(MatchFacts::fromSnapshot(snapshot), whatIf, database.database);
    if (!facts)
        return usageError(facts.error().message.toString());
    MatchResult result = match(*facts, database.database);
    result.findings = database.findings + result.findings;
    const auto judged =
        forWhat.isEmpty()
            ? Expected<QList<JudgedConsumer>>(judgeConsumers(snapshot.consumers, *facts, database.database))
            : judgeFor(forConsumer, snapshot.consumers, *facts, database.database);
    if (!judged)
        return usageError(judged.error().message.toString());
    if (parser.isSet(jsonOption))
        writeJson(checkJson(*facts, result, database, *judged, forWhat));
    else
        writeOut(checkText(*facts, result, database, *judged, forWhat));
    if (!forWhat.isEmpty())
        return consumersCompatible(*judged) == true ? exitcode::Success : exitcode::ProblemsFound;
    return result.compatible() ? exitcode::Success : exitcode::ProblemsFound;
}
