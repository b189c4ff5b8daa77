// cudnnctl: the command-line face of cuDNN Setup. Reads the command line, interprets the options
// every command takes once (CommandContext) and runs the command's row of the table (Commands.cpp).
#include "CommandContext.h"
#include "Commands.h"
#include "common/ExitCodes.h"
#include "common/GlobalOptions.h"
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
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QCoreApplication::translate(
            "cudnnctl", "Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: "
                        "cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: "
                        "cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: "
                        "cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1)."));
    const GlobalOptions global;
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
