#include "CommandOptions.h"

#include "common/GlobalOptions.h"
#include "common/InstallOptions.h"

#include <QCoreApplication>

namespace {

// ---- Options several commands take: one description says what each means to each ---------------

QCommandLineOption driverOption()
{
    return QCommandLineOption(
        QStringLiteral("driver"),
        QCoreApplication::translate("cudnnctl", "check: as if the NVIDIA driver were version V; baseline "
                                                "export: the minimum driver (default: this machine's)."),
        QStringLiteral("V"));
}

QCommandLineOption cudaOption()
{
    return QCommandLineOption(
        QStringLiteral("cuda"),
        QCoreApplication::translate("cudnnctl", "check: as if the CUDA toolkit were version V; download: the "
                                                "CUDA major of the archive (the _cudaNN of its name)."),
        QStringLiteral("V"));
}

QCommandLineOption cudnnOption()
{
    return QCommandLineOption(
        QStringLiteral("cudnn"),
        QCoreApplication::translate(
            "cudnnctl",
            "check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name; "
            "download: the version to get (default: what check recommends); "
            "status: the version the install must have (9.1 matches 9.1.0.70)."),
        QStringLiteral("V"));
}

QCommandLineOption forOption()
{
    return QCommandLineOption(
        QStringLiteral("for"),
        QCoreApplication::translate("cudnnctl",
                                    "check: judge only this program: torch, tensorflow, onnxruntime, "
                                    "ctranslate2, jax or app:FOLDER (the programs in FOLDER); verify: "
                                    "load its own module in a fresh process and name the cuDNN it binds."),
        QStringLiteral("WHAT"));
}

QCommandLineOption outOption()
{
    return QCommandLineOption(
        QStringLiteral("out"),
        QCoreApplication::translate("cudnnctl",
                                    "report, download: the folder to write into (download: default "
                                    "the user's Downloads folder); baseline export: the file to write."),
        QStringLiteral("DIR|FILE"));
}

QCommandLineOption dryRunOption()
{
    return QCommandLineOption(
        QStringLiteral("dry-run"),
        QCoreApplication::translate("cudnnctl", "install, uninstall: show the steps, change nothing."));
}

QCommandLineOption pythonOption()
{
    return QCommandLineOption(
        QStringLiteral("python"),
        QCoreApplication::translate("cudnnctl", "verify: ask torch in this Python interpreter (may be given "
                                                "more than once; default: each one found with torch)."),
        QStringLiteral("PATH"));
}

QCommandLineOption noGpuOption()
{
    return QCommandLineOption(
        QStringLiteral("no-gpu"),
        QCoreApplication::translate("cudnnctl", "verify: skip the GPU stage (handle and convolution)."));
}

QCommandLineOption noFrameworkOption()
{
    return QCommandLineOption(QStringLiteral("no-framework"),
                              QCoreApplication::translate("cudnnctl", "verify, report: do not ask torch."));
}

// The install options as cudnnctl describes them (cudnn-setup --unattended takes the same).
cudnnsetup::InstallOptions cudnnctlInstallOptions()
{
    cudnnsetup::InstallOptions::Descriptions descriptions;
    descriptions.archive = QCoreApplication::translate(
        "cudnnctl", "install: the cuDNN archive (ZIP) to install; doctor: the archive "
                    "to replace damaged or mismatched files from.");
    descriptions.archiveValueName = QStringLiteral("FILE");
    descriptions.target = QCoreApplication::translate(
        "cudnnctl",
        "install: where to: cuda[:VERSION], dir[:PATH], user[:PATH], conda:ENV or venv:PATH (default: "
        "the toolkit that fits, else its own folder); verify: which install to check (default: the "
        "last one cuDNN Setup made, else what a new program loads).");
    descriptions.path = QCoreApplication::translate(
        "cudnnctl", "install: which PATH gets the DLL folder: user, system or none (default: the "
                    "target's own choice).");
    descriptions.cudnnVariables = QCoreApplication::translate(
        "cudnnctl",
        "install: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.");
    descriptions.ifInUse = QCoreApplication::translate(
        "cudnnctl", "install: when programs hold files to be replaced: fail (default) or "
                    "restart (replace them now, as an administrator; those programs keep the "
                    "old ones until they restart, exit 3010).");
    return cudnnsetup::InstallOptions(descriptions);
}

QCommandLineOption archiveOption()
{
    return cudnnctlInstallOptions().archive;
}

QCommandLineOption targetOption()
{
    return cudnnctlInstallOptions().target;
}

} // namespace

QList<QCommandLineOption> everyCommandOptions()
{
    const QCommandLineOption jsonOption(
        QStringLiteral("json"),
        QCoreApplication::translate(
            "cudnnctl", "Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: "
                        "cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: "
                        "cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: "
                        "cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1)."));
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

    return cudnnsetup::GlobalOptions().all() +
           QList<QCommandLineOption>{jsonOption,    pythonProbeOption, timeoutOption,
                                     verboseOption, exchangeOption,    requesterOption,
                                     cancelOption,  requestOption,     planSealOption};
}

QList<QCommandLineOption> noOptions()
{
    return {};
}

QList<QCommandLineOption> detectOptions()
{
    const QCommandLineOption appOption(
        QStringLiteral("app"),
        QCoreApplication::translate("cudnnctl",
                                    "detect: also read the programs in FOLDER (a portable ComfyUI, "
                                    "a bundled app) for the cuDNN and CUDA they need (may be given "
                                    "more than once)."),
        QStringLiteral("FOLDER"));
    return {appOption};
}

QList<QCommandLineOption> checkOptions()
{
    const QCommandLineOption osOption(
        QStringLiteral("os"),
        QCoreApplication::translate("cudnnctl", "check: as if the system were windows or linux."),
        QStringLiteral("OS"));
    const QCommandLineOption archOption(
        QStringLiteral("arch"),
        QCoreApplication::translate("cudnnctl", "check: as if the processor were x86_64 or arm64."),
        QStringLiteral("ARCH"));
    const QCommandLineOption smOption(
        QStringLiteral("sm"),
        QCoreApplication::translate("cudnnctl", "check: as if the GPU's compute capability were X.Y."),
        QStringLiteral("X.Y"));
    const QCommandLineOption gpuOption(
        QStringLiteral("gpu"),
        QCoreApplication::translate("cudnnctl",
                                    "check: as if the GPU were NAME (its compute capability is looked up)."),
        QStringLiteral("NAME"));
    return {osOption, archOption, driverOption(), cudaOption(),
            smOption, gpuOption,  cudnnOption(),  forOption()};
}

QList<QCommandLineOption> inspectOptions()
{
    const QCommandLineOption backendOption(
        QStringLiteral("zip-backend"),
        QCoreApplication::translate(
            "cudnnctl",
            "inspect: read the archive with quazip or minizip (default: the first this build has)."),
        QStringLiteral("NAME"));
    return {backendOption};
}

QList<QCommandLineOption> downloadOptions()
{
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
    return {cudnnOption(), cudaOption(), platformOption, sourceOption, outOption(), caFileOption};
}

QList<QCommandLineOption> installOptions()
{
    const cudnnsetup::InstallOptions install = cudnnctlInstallOptions();
    const QCommandLineOption unverifiedOption(
        QStringLiteral("allow-unverified-archive"),
        QCoreApplication::translate("cudnnctl",
                                    "install: an administrator at their own console takes an archive whose "
                                    "SHA-256 NVIDIA did not publish into a target every program loads from "
                                    "(system PATH, a CUDA toolkit, the loader's configuration). Never passed "
                                    "on to an elevated helper."));
    return {install.archive, install.target, install.path,    install.cudnnVariables,
            install.ifInUse, dryRunOption(), unverifiedOption};
}

QList<QCommandLineOption> uninstallOptions()
{
    return {dryRunOption()};
}

QList<QCommandLineOption> verifyOptions()
{
    return {targetOption(), pythonOption(), noGpuOption(), noFrameworkOption(), forOption()};
}

QList<QCommandLineOption> doctorOptions()
{
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
    return {archiveOption(), noGpuOption(), fixOption, yesOption, fromLogOption};
}

QList<QCommandLineOption> statusOptions()
{
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
    return {cudnnOption(), targetOption(), againstOption, formatOption, repairFileOption};
}

QList<QCommandLineOption> baselineOptions()
{
    const QCommandLineOption fromAnswerOption(
        QStringLiteral("from-answer"),
        QCoreApplication::translate("cudnnctl", "baseline export: take the baseline from this answer file "
                                                "rather than from this machine's install."),
        QStringLiteral("FILE"));
    return {outOption(), fromAnswerOption, driverOption()};
}

QList<QCommandLineOption> reportOptions()
{
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
    return {targetOption(), pythonOption(), noGpuOption(), noFrameworkOption(),
            outOption(),    toOption,       machineOption};
}

QList<QCommandLineOption> fleetOptions()
{
    const QCommandLineOption htmlOption(
        QStringLiteral("html"),
        QCoreApplication::translate("cudnnctl", "fleet summarize: also write the summary as one page, FILE."),
        QStringLiteral("FILE"));
    const QCommandLineOption staleDaysOption(
        QStringLiteral("stale-days"),
        QCoreApplication::translate(
            "cudnnctl", "fleet summarize: a report older than N days is listed as old (default 7)."),
        QStringLiteral("N"));
    return {htmlOption, staleDaysOption};
}
