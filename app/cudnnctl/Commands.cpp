#include "Commands.h"

#include "BaselineCommands.h"
#include "ChangeCommands.h"
#include "DetectCommands.h"
#include "DownloadCommand.h"
#include "FleetCommand.h"
#include "InspectCommand.h"
#include "ProbeCommand.h"
#include "VerifyCommands.h"

#include "common/GlobalOptions.h"
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
         {QStringLiteral("app")},
         detectCommand},
        {QStringLiteral("check"),
         QT_TRANSLATE_NOOP("cudnnctl", "Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA's\n"
                                       "tables and name the archive to download. Values not given with\n"
                                       "--os --arch --driver --cuda --sm --gpu --cudnn come from detection."),
         {QStringLiteral("os"), QStringLiteral("arch"), QStringLiteral("driver"), QStringLiteral("cuda"),
          QStringLiteral("sm"), QStringLiteral("gpu"), QStringLiteral("cudnn"), QStringLiteral("for")},
         checkCommand},
        {QStringLiteral("inspect"),
         QT_TRANSLATE_NOOP("cudnnctl", "Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA's own\n"
                                       "file, and which cuDNN for which CUDA it truly holds."),
         {QStringLiteral("zip-backend")},
         inspectCommand,
         1},
        {QStringLiteral("download"),
         QT_TRANSLATE_NOOP("cudnnctl", "Get the archive check recommends (or --cudnn/--cuda) from NVIDIA,\n"
                                       "a lab mirror or a folder (--source), checked before it is saved."),
         {QStringLiteral("cudnn"), QStringLiteral("cuda"), QStringLiteral("platform"),
          QStringLiteral("source"), QStringLiteral("out"), QStringLiteral("ca-file")},
         downloadCommand},
        {QStringLiteral("install"),
         QT_TRANSLATE_NOOP("cudnnctl", "Install a cuDNN archive as one transaction (--archive --target\n"
                                       "--path): all of it or nothing, with a receipt."),
         {QStringLiteral("archive"), QStringLiteral("target"), QStringLiteral("path"),
          QStringLiteral("cudnn-variables"), QStringLiteral("if-in-use"), QStringLiteral("dry-run"),
          QStringLiteral("allow-unverified-archive")},
         changeCommand},
        {QStringLiteral("uninstall"),
         QT_TRANSLATE_NOOP("cudnnctl", "Reverse an install by its receipt (cudnnctl uninstall [ID])."),
         {QStringLiteral("dry-run")},
         changeCommand,
         1},
        {QStringLiteral("apply"),
         QT_TRANSLATE_NOOP("cudnnctl", "apply FILE: do what an answer file says (install, repair or\n"
                                       "uninstall) without asking, as cudnn-setup --unattended does:\n"
                                       "the repair file of status --against --repair-file, say. Its\n"
                                       "log (--log) has a JSON result beside it; exit codes as install."),
         {},
         applyCommand,
         1},
        {QStringLiteral("verify"),
         QT_TRANSLATE_NOOP("cudnnctl", "Try the installed cuDNN in a fresh process: load every library,\n"
                                       "find missing dependencies, compare versions, run a convolution\n"
                                       "on the GPU and ask torch which cuDNN it uses; --for PROGRAM\n"
                                       "loads that program's own module and names the cuDNN it binds."),
         {QStringLiteral("target"), QStringLiteral("python"), QStringLiteral("no-gpu"),
          QStringLiteral("no-framework"), QStringLiteral("for")},
         verifyCommand},
        {QStringLiteral("doctor"),
         QT_TRANSLATE_NOOP("cudnnctl", "Find what keeps cuDNN from working and offer repairs (--fix);\n"
                                       "--from-log FILE also explains the error you saw."),
         {QStringLiteral("archive"), QStringLiteral("no-gpu"), QStringLiteral("fix"), QStringLiteral("yes"),
          QStringLiteral("from-log")},
         verifyCommand},
        {QStringLiteral("status"),
         QT_TRANSLATE_NOOP("cudnnctl", "Whether an install of cuDNN Setup is there, intact (--cudnn\n"
                                       "--target): exit 0 and one line, else exit 1 (detection rules).\n"
                                       "--against FILE: this machine against a lab's baseline, exit 0\n"
                                       "compliant, 1 drifted, 2 broken, 3 unknown (--format\n"
                                       "text|json|intune|sccm, --repair-file FILE)."),
         {QStringLiteral("cudnn"), QStringLiteral("target"), QStringLiteral("against"),
          QStringLiteral("format"), QStringLiteral("repair-file")},
         statusCommand},
        {QStringLiteral("baseline"),
         QT_TRANSLATE_NOOP("cudnnctl", "baseline export --out FILE: write what every machine of a lab\n"
                                       "must have, from this one or from an answer file (--from-answer\n"
                                       "FILE; --driver V: the minimum driver)."),
         {QStringLiteral("out"), QStringLiteral("from-answer"), QStringLiteral("driver")},
         baselineCommand,
         1},
        {QStringLiteral("report"),
         QT_TRANSLATE_NOOP("cudnnctl", "Write report.json, report.html and environment_versions.txt\n"
                                       "into --out DIR, for asking for help; --to FOLDER writes this\n"
                                       "machine's report (--machine NAME) into a lab's share."),
         {QStringLiteral("target"), QStringLiteral("python"), QStringLiteral("no-gpu"),
          QStringLiteral("no-framework"), QStringLiteral("out"), QStringLiteral("to"),
          QStringLiteral("machine")},
         verifyCommand},
        {QStringLiteral("fleet"),
         QT_TRANSLATE_NOOP("cudnnctl", "fleet summarize FOLDER: the machine reports in a share at a\n"
                                       "glance: for each item the majority, the machines that differ\n"
                                       "and their repair, old reports (--stale-days N); --html FILE."),
         {QStringLiteral("html"), QStringLiteral("stale-days")},
         fleetCommand,
         2,
         false,
         false}, // reads the share only
        {QStringLiteral("probe"), "", {}, probeCommand, 0, true, false},
        {QStringLiteral("prepare-state"), "", {}, prepareStateCommand, 0, true, false},
    };
    return table;
}

QList<QCommandLineOption> commandLineOptions()
{
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QCoreApplication::translate(
            "cudnnctl", "Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: "
                        "cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: "
                        "cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: "
                        "cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1)."));
    const cudnnsetup::GlobalOptions global;
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
    return global.all() +
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
        owned += command.options;
    static const QStringList all{
        QStringLiteral("help"),         QStringLiteral("version"),      QStringLiteral("json"),
        QStringLiteral("system-root"),  QStringLiteral("compat-db"),    QStringLiteral("lang"),
        QStringLiteral("python-probe"), QStringLiteral("tool-timeout"), QStringLiteral("verbose"),
        QStringLiteral("log"),          QStringLiteral("exchange"),     QStringLiteral("requester"),
        QStringLiteral("cancel-file"),  QStringLiteral("request"),      QStringLiteral("plan-sha256")};
    QStringList every;
    for (const QString &option : all) {
        if (!owned.contains(option))
            every << option;
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
    if (!spec || spec->options.contains(option) || optionsOfEveryCommand().contains(option))
        return {};
    QStringList owners;
    for (const CommandSpec &candidate : commandTable()) {
        if (candidate.options.contains(option))
            owners << candidate.name;
    }
    if (owners.isEmpty())
        return {}; // not an option of any command: -h, -?, -v
    return owners.size() == 1 ? QCoreApplication::translate("cudnnctl", "--%1 belongs to the %2 command.")
                                    .arg(option, owners.first())
                              : QCoreApplication::translate("cudnnctl", "--%1 belongs to the %2 commands.")
                                    .arg(option, cudnnsetup::Text::list(owners).toString());
}
