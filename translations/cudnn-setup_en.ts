<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>cudnn-setup</name>
    <message>
        <source>cuDNN Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN Setup wizard. With --unattended it installs, repairs or uninstalls without a window and exits with the Windows installer codes (0, 3010, 1602, 1603, 1618, 87).

Windows starts this program without waiting for it: a script sees its exit code only with &quot;start /wait cudnn-setup.exe --unattended ...&quot; or &quot;Start-Process -Wait -PassThru&quot;. For scripts, cudnnctl (install, uninstall, status) is the better tool: a console program with the same exit codes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without a window (see the options below); the log and a JSON result are written, the exit code says how it went.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: read the [setup] settings from this INI file (options given here override it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: install (default), repair or uninstall.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: the cuDNN archive (ZIP) to install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: where to install: cuda[:VERSION], dir[:PATH], user, conda:ENV or venv:PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: which PATH gets the DLL folder: user, system or none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: do not verify the install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended --action uninstall: the install to remove.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 belongs to --unattended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended: when programs hold files to be replaced: fail or restart (replace them now; those programs keep the old ones until they restart, 3010).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--unattended without --archive: where to download the recommended archive from: NVIDIA (default), a mirror&apos;s URL, or a folder or share.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnctl</name>
    <message>
        <source>Run &quot;cudnnctl --help&quot; for the commands and options.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log what is looked at to stderr.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The log file %1 cannot be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No command given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown command &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected argument &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--tool-timeout needs a number of seconds between 0 and 3600.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds to wait for nvidia-smi and nvcc (default 15) and for each Python interpreter (default 10).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the system were windows or linux.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the processor were x86_64 or arm64.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the GPU&apos;s compute capability were X.Y.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the GPU were NAME (its compute capability is looked up).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This build has no zip backend &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inspect: read the archive with quazip or minizip (default: the first this build has).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inspect needs the archive to check: cudnnctl inspect FILE.zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstalled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already installed there; nothing to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dry run: nothing was changed. The steps would be:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled; everything done was undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another install is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receipt %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: which PATH gets the DLL folder: user, system or none (default: the target&apos;s own choice).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install, uninstall: show the steps, change nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply: %1? [y/N] </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the repairs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo them with: cudnnctl uninstall %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: the cuDNN archive (ZIP) to install; doctor: the archive to replace damaged or mismatched files from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify: ask torch in this Python interpreter (may be given more than once; default: each one found with torch).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify: skip the GPU stage (handle and convolution).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify, report: do not ask torch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>doctor: apply the repairs it offers, each after asking.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>doctor --fix: apply every offered repair without asking.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 belongs to the %2 command.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The result could not be recorded beside the receipt: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed; restart Windows to finish (the findings say why).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: where to: cuda[:VERSION], dir[:PATH], user[:PATH], conda:ENV or venv:PATH (default: the toolkit that fits, else its own folder); verify: which install to check (default: the last one cuDNN Setup made, else what a new program loads).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: when programs hold files to be replaced: fail (default) or restart (replace them now, as an administrator; those programs keep the old ones until they restart, exit 3010).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--platform must be one of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds no certificate (PEM or DER).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No archive fits this machine yet, so there is nothing to download; name one with --cudnn and --cuda.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--cudnn needs a version such as 9.10.2 or 9.10.2.21.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add --cuda with the CUDA major the archive is for (for example --cuda 12).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 comes for more than one CUDA: add %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--cuda needs the CUDA major, such as 12 or 13.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the CUDA toolkit were version V; download: the CUDA major of the archive (the _cudaNN of its name).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name; download: the version to get (default: what check recommends); status: the version the install must have (9.1 matches 9.1.0.70).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>download: the archive&apos;s platform: windows-x86_64, linux-x86_64 or linux-sbsa (default: this computer&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>download: where from: NVIDIA&apos;s redist (default), a mirror with its layout (https://…), or a folder or share holding the archives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>download: also trust the certificates in FILE (a mirror&apos;s own certificate authority).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA&apos;s
tables and name the archive to download. Values not given with
--os --arch --driver --cuda --sm --gpu --cudnn come from detection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA&apos;s own
file, and which cuDNN for which CUDA it truly holds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get the archive check recommends (or --cudnn/--cuda) from NVIDIA,
a lab mirror or a folder (--source), checked before it is saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a cuDNN archive as one transaction (--archive --target
--path): all of it or nothing, with a receipt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reverse an install by its receipt (cudnnctl uninstall [ID]).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 belongs to the %2 commands.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finds out what a machine has for NVIDIA cuDNN and what fits it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also run each Python interpreter to ask torch whether it sees a GPU and which cuDNN it loaded (seconds each); without it, what their files tell is reported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This account has no Downloads folder: name the folder to download into with --out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install: an administrator at their own console takes an archive whose SHA-256 NVIDIA did not publish into a target every program loads from (system PATH, a CUDA toolkit, the loader&apos;s configuration). Never passed on to an elevated helper.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find what keeps cuDNN from working and offer repairs (--fix);
--from-log FILE also explains the error you saw.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the GPUs, driver, CUDA toolkits, cuDNN copies, Python
interpreters and the programs that use cuDNN (also in --app
FOLDER) of this system (or of --system-root).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detect: also read the programs in FOLDER (a portable ComfyUI, a bundled app) for the cuDNN and CUDA they need (may be given more than once).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The application folder %1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>doctor: also read the error you saw from FILE (a traceback, a loader log, a copied Windows message; &quot;-&quot; reads the standard input) and explain it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the installed cuDNN in a fresh process: load every library,
find missing dependencies, compare versions, run a convolution
on the GPU and ask torch which cuDNN it uses; --for PROGRAM
loads that program&apos;s own module and names the cuDNN it binds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: judge only this program: torch, tensorflow, onnxruntime, ctranslate2, jax or app:FOLDER (the programs in FOLDER); verify: load its own module in a fresh process and name the cuDNN it binds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command</source>
        <comment>the argument&apos;s name in --help</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: cudnnctl [options] %1 [arguments]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Options:</source>
        <translation></translation>
    </message>
    <message>
        <source>Write report.json, report.html and environment_versions.txt
into --out DIR, for asking for help; --to FOLDER writes this
machine&apos;s report (--machine NAME) into a lab&apos;s share.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fleet summarize FOLDER: the machine reports in a share at a
glance: for each item the majority, the machines that differ
and their repair, old reports (--stale-days N); --html FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fleet needs a folder: cudnnctl fleet summarize FOLDER</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reports folder %1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--stale-days needs a number of days between 0 and 3650.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The page %1 could not be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>report needs a folder: cudnnctl report --out DIR, or --to FOLDER for a share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>report: write this machine&apos;s report as FOLDER/&lt;machine&gt;.json (a lab&apos;s share, for &quot;cudnnctl fleet summarize&quot;), replacing its last one whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>report --to: the machine&apos;s name (default: its host name).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fleet summarize: also write the summary as one page, FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fleet summarize: a report older than N days is listed as old (default 7).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--driver takes a version such as 560.94, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--format takes text, json, intune or sccm, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No repair file was written: nothing that differs here can be repaired by one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether an install of cuDNN Setup is there, intact (--cudnn
--target): exit 0 and one line, else exit 1 (detection rules).
--against FILE: this machine against a lab&apos;s baseline, exit 0
compliant, 1 drifted, 2 broken, 3 unknown (--format
text|json|intune|sccm, --repair-file FILE).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>baseline export --out FILE: write what every machine of a lab
must have, from this one or from an answer file (--from-answer
FILE; --driver V: the minimum driver).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the NVIDIA driver were version V; baseline export: the minimum driver (default: this machine&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>report, download: the folder to write into (download: default the user&apos;s Downloads folder); baseline export: the file to write.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>status: judge this machine against the baseline in FILE (cudnnctl baseline export).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>status --against: text (default), json, intune (the flat JSON of a custom compliance script) or sccm (ConfigMgr&apos;s detection rule).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>status --against: write the answer file that brings this machine back to the baseline (cudnn-setup --unattended --answer-file FILE).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>baseline export: take the baseline from this answer file rather than from this machine&apos;s install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>baseline takes one action: cudnnctl baseline export --out FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--format and --repair-file go with --against.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--against takes the version and the target from the baseline: leave out --cudnn and --target.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be removed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: exit code %2. The log is %3, the result %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>apply FILE: do what an answer file says (install, repair or
uninstall) without asking, as cudnn-setup --unattended does:
the repair file of status --against --repair-file, say. Its
log (--log) has a JSON result beside it; exit codes as install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>apply needs the answer file: cudnnctl apply FILE.ini</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 is unexpectedly large and was not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is not a Linux program or library (ELF format).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file ends inside its ELF header; it is probably an incomplete download or copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ELF header of the file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is not a Windows program or DLL (PE format).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file ends inside its PE headers; it is probably an incomplete download or copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PE headers of the file are damaged; Windows would not load it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is shorter than its headers say; it is probably an incomplete download or copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The list of DLLs this file depends on is damaged; it was read only in part.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The version information of the file is damaged and was not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The digital signature table of the file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA version file %1 could not be understood; the version was taken from elsewhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No CUDA toolkit was found. cuDNN can still go into its own folder, a conda environment or a Python virtual environment; programs that build CUDA code need the toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA toolkit that matches your driver from developer.nvidia.com/cuda-downloads if you compile CUDA code.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs load %1 (cuDNN %2); the other copies on the search path are never used: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep one cuDNN on the search path: remove the folders of the copies you do not use from PATH, or let Repair do it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cuDNN was found on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspecting the files under %1. Registry values and the live driver belong to the running system and are reported as unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the operating system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the NVIDIA driver about the GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for CUDA toolkits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for cuDNN copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the Python interpreters about torch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA_PATH points to %1, which is not a CUDA toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove CUDA_PATH, or install the CUDA toolkit it should point to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Point CUDA_PATH at the toolkit you use (for example %1), or remove it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES is set to &quot;%1&quot;, which hides every GPU from CUDA programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove CUDA_VISIBLE_DEVICES, or set it to the GPUs programs should use (for example 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA programs see only the GPUs listed in CUDA_VISIBLE_DEVICES (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH changed after this program was started; programs started from the same window do not see the change yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a new terminal (or sign out and in again) before you run CUDA programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi did not answer within %1 seconds and was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The driver may be hung. Restart the computer and run this again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nvidia-smi could not be started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver was updated, but the old one is still running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the computer to finish the driver update.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A GPU stopped responding to the driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the computer. If it happens again, check the GPU&apos;s power cables and cooling.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver is running but sees no GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the GPU is seated and enabled in the firmware settings, and that the installed driver supports it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver is installed but does not respond.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the computer. If that does not help, reinstall the NVIDIA driver (choose a clean installation).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The driver did not say which CUDA versions it supports (nvidia-smi printed &quot;%1&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found. cuDNN runs only on NVIDIA GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If this computer has an NVIDIA GPU, install its driver from nvidia.com and run this again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An NVIDIA GPU (%1) is present, but no NVIDIA driver is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers, restart, and run this again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The output of nvidia-smi could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is Windows on ARM. NVIDIA publishes cuDNN for Windows only for x64 PCs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is WSL 1, which cannot use the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert the distribution to WSL 2 (wsl --set-version &lt;name&gt; 2) and run this again inside it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is Linux under WSL 2. The GPU driver comes from Windows; cuDNN must be installed here, inside Linux, for Linux programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the NVIDIA driver on Windows only (never a Linux driver inside WSL), and the Linux cuDNN archive inside this distribution.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Python interpreter %1 could not be asked about its torch build.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspected root</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute capability %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newest supported CUDA unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>supports CUDA up to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT WORKING</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for CUDA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not on the search path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loaded by default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shadowed (#%1 on the search path)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-bit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 (CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 (CUDA %2, cuDNN %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compatibility database is not valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compatibility database %1 cannot be used; the built-in one (version %2) is used instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compatibility database %1 (version %2) is older than the built-in one (version %3); it is used as asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (compute capability %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2, compute capability %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA publishes cuDNN for Windows only for x64 PCs; this is Windows on ARM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Under WSL 2, cuDNN goes inside this Linux distribution: use NVIDIA&apos;s Linux archive (cudnn-linux-x86_64-…-archive.tar.xz), not the Windows one. The driver stays the Windows driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look the GPU up on developer.nvidia.com/cuda-gpus and run the check again with --sm X.Y.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no working NVIDIA driver, so no CUDA program can run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 is too old for CUDA %2, which needs driver %3 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run CUDA %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA publishes no minimum driver for CUDA %1 on this system, so driver %2 cannot be checked against it (the driver reports CUDA %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 runs CUDA %2 through minor-version compatibility (the toolkit&apos;s own minimum is %3); code that needs newer driver features, such as compiling newer PTX at run time, can fail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer to use every feature of this toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA %1 toolkit in %2 cannot be used: driver %3 runs CUDA up to %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to the newest one NVIDIA offers for this GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA %1 no longer supports %2: it needs compute capability %3 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use CUDA %1 and the cuDNN archive for CUDA %1, the newest that still support this GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN archive is built for %1, but this system needs %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the %1 archive instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 is not in the compatibility database (version %2), so only its CUDA major can be checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a newer compatibility database (--compat-db) if this release is newer than it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not work with the CUDA %3 toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download %1 instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run cuDNN built for CUDA %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver %1 is too old for cuDNN %2 for CUDA %3, which needs %4 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s support matrix gives no minimum driver for cuDNN %1 for CUDA %2 on this system, so driver %3 cannot be checked against it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA %1 and newer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA up to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA tested cuDNN %1 for CUDA %2 with %3; this toolkit is %4. It usually works, but that combination is untested.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs driver %2 or newer with cuDNN %3 (driver %4 is installed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs CUDA %2 or newer with cuDNN %3; the toolkit is %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install CUDA %1 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is newer than every GPU cuDNN %2 for CUDA %3 lists; it may work through PTX, but NVIDIA does not support it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a newer cuDNN release.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not support %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs zlibwapi.dll on Windows, and none was found: it fails with &quot;Could not locate zlibwapi.dll&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download %1 and put dll_x64\zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a 32-bit Python; cuDNN and CUDA exist only for 64-bit programs, so it can never use them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a 64-bit Python (python.org&apos;s &quot;Windows installer (64-bit)&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 is a CPU-only build: it will never use the GPU or cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2, but the driver supports CUDA up to %3: torch.cuda.is_available() will be False.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2 and the driver reports %3: it runs through minor-version compatibility.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorFlow %1 in %2 cannot use the GPU on native Windows; the last version that could is %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run TensorFlow under WSL 2, or install TensorFlow %1 with CUDA 11.2 and cuDNN 8.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot; cannot be used: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use windows or linux</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use x86_64 or arm64</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a driver version looks like 535.98 or 580.65.06</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a CUDA version looks like 12, 12.2 or 12.2.1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a compute capability looks like 8.6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give a cuDNN version such as 8.9.7 or 8.9.7.29, or an NVIDIA archive file name such as cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatible: yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatible: no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA the framework was built for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no framework found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA of the recommended cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s SHA-256: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For the CUDA %1 toolkit in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility database %1 (%2), built in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility database %1 (%2) from %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the archive was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; does not match its checksum: the archive is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be unpacked: the archive is damaged or incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not every DLL is for 64-bit x64 Windows, such as %1: this is not an x64 cuDNN package, or it was tampered with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is named like a DLL but is not a Windows program file: the archive is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s %1, saved under another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file is named like NVIDIA&apos;s %1, but it is not that file: its SHA-256 differs from the one NVIDIA published. It was damaged or altered after NVIDIA published it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download it again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s checksum for this file is not in the compatibility database (version %1), so it cannot be compared.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file name is not one NVIDIA uses; what it holds was read from its content.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file name says cuDNN %1, but the archive holds cuDNN %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file name says it is for CUDA %1, but the archive is for CUDA %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file name says %1, but the archive holds the %2 files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This zip holds no cuDNN: neither cudnn64_N.dll nor cudnn_version.h is in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN files are not where NVIDIA&apos;s archives put them (the libraries are in &quot;%1&quot;): it was re-packed by someone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive has no readable cudnn_version.h, so its true version is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a Windows program, not a zip archive: perhaps NVIDIA&apos;s graphical cuDNN installer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the zip archive (cudnn-windows-x86_64-…-archive.zip) from NVIDIA&apos;s cuDNN archive page instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a network or device path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an absolute path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a drive letter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty folder name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a &quot;.&quot; or &quot;..&quot; folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a character Windows does not allow in names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a name Windows reserves for a device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a name ending in a dot or a space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries of this archive would land outside the target folder or under names Windows cannot create, such as &quot;%1&quot; (%2); %3 in all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry names are marked as UTF-8 but are not valid UTF-8, such as %1; %2 in all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive holds symbolic links, such as &quot;%1&quot; (%2 in all). A cuDNN archive for Windows has none, and a link can point outside the target folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive has encrypted entries, such as &quot;%1&quot; (%2 in all); NVIDIA&apos;s archives are not encrypted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive compresses &quot;%1&quot; with a method other than stored or deflated (%2 in all); NVIDIA&apos;s archives use only those.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; and &quot;%2&quot; would be the same file or folder on Windows, which ignores case: one would overwrite the other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; declares more than %2 GB, far more than any cuDNN file (%3 in all).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GB when unpacked, beyond the %3 entries and %4 GB any cuDNN archive stays within.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sizes declared for &quot;%1&quot; are impossible for its compression (%2 in all): the archive is forged, as zip bombs are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; and &quot;%2&quot; overlap in the file, a trick of zip bombs; no honest archive does that.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; runs past the end of the file (%2 in all): the download is incomplete or damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: ok, safe to install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: unsafe, refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: corrupt, refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: not a cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NO: the checksum differs from the published one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown: no published checksum to compare with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 unpacked), names %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ends before the size the archive&apos;s table of contents gives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds more data than the archive&apos;s table of contents says.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be read from the archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was closed because another entry of the archive was opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compressed data of %1 is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive changed after it was checked; it is not used. Choose it again to check it anew.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written. Is the disk full?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The staging folder %1 exists already; it is left as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the file exists and that you may read it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a zip archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the .zip archive itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 has no entry number %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the archive %2 is encrypted and cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the archive %2 is compressed with method %3; only stored and deflated entries can be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 is damaged or incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the archive again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a cuDNN release that NVIDIA built for CUDA %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 needs the CUDA %2 libraries, but no CUDA %2 toolkit is installed (the newest here is CUDA %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Python virtual environment: it has no pyvenv.cfg or no %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the folder that holds pyvenv.cfg, or create the environment with python -m venv.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a conda environment: it has no conda-meta folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the environment&apos;s name or folder as &quot;conda env list&quot; shows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conda environment named &quot;%1&quot; was found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already holds this cuDNN, installed the same way; its files are replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already holds cuDNN files that were not put there by this setup; those with the same names are replaced, the others stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an empty folder to keep the existing copy as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not empty: it holds files that are not part of this cuDNN, such as %2 (%3 in all).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an empty folder, or a new folder inside this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing to %1 was refused; administrator rights would allow it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the setup run as administrator, or choose a folder you can write to, such as the per-user folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written (%2); administrator rights would not help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The free space on the drive of %1 could not be read; the installation needs %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The drive of %1 has %2 free, but the installation needs %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free %1 on that drive, or choose a folder on another drive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on another drive than %2, so its files cannot be moved into place in one step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder whose subfolders are all on one drive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name &quot;%1&quot; in %2 is reserved by Windows (a device name, or a name ending in a dot or a space).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another folder name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name &quot;%1&quot; in %2 contains %3, which Windows does not allow in file names.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too long: its longest file path would have %2 characters, and many programs still cannot open paths of %3 characters or more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder with a shorter path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no CUDA toolkit in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No CUDA %1 toolkit that this driver can run is installed for cuDNN for CUDA %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive does not say which CUDA it is for, so no toolkit can be chosen for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No CUDA %1 toolkit is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder (--target dir).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The per-user program folder is not known: LOCALAPPDATA is not set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the folder with --target dir:PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No target folder is given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder to install cuDNN into.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The target %1 is a relative path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the full path of the folder, with its drive (C:\...).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another install, uninstall or repair of cuDNN is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait until it has finished, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking whether the DLLs need zlibwapi.dll</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 did not pass its check, so nothing is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl inspect&quot; on it to see why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No install with the id %1 was found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup has installed nothing here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There are %1 installs; say which one to remove: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These files changed since cuDNN Setup installed them, so nothing is removed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the files back as they were, or remove them yourself if you changed them on purpose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was changed since the install, so it is left as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The install journal %1 cannot be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make room on the disk and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The install journal %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close programs that use it, check that the disk is not full, and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Placing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpacking %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting the environment variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding %1 to PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Taking %1 off PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH changed after it was examined, so the planned changes were not made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check PATH again, then repeat the step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 cannot be put on PATH: its name contains %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder whose name does not contain %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on PATH more than once; only the first one counts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the later copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds another cuDNN and comes before %2 on PATH, so programs would load that cuDNN instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2 and comes before %3 on PATH, so programs may load that toolkit&apos;s libraries instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 behind %2 on PATH, or remove it from PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds another cuDNN; it comes after %2 on PATH, so it does not get in the way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2; it comes after %3 on PATH, so it does not get in the way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove it from PATH if nothing uses it any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove folders that are no longer needed from PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH would be %1 characters long, more than the %2 characters an environment variable can hold.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH is %1 characters long. The Windows environment variable editor and some older tools cut or refuse values longer than %2 characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a cuDNN Setup receipt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A step of the interrupted install (%1) cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair had finished its work; it was completed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair was found and undone; the system is as it was before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs zlibwapi.dll, and this build of cuDNN Setup has none to install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put a 64-bit zlibwapi.dll beside the cuDNN DLLs, or use a build of cuDNN Setup that includes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether %1 needs zlibwapi.dll is unknown: the list of DLLs it imports could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is not a Windows DLL: cuDNN cannot load it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove or replace %1; cuDNN Setup puts a 64-bit zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is a %2-bit DLL for %3, not 64-bit x64: cuDNN cannot load it (Windows error 193).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable %1 in %2 does not hold plain text, so it is left as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look at the value with the Registry Editor (regedit) and repair or delete it, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored environment variable %1 cannot be read or changed on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable %1 could not be read from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable %1 could not be removed from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable %1 could not be written to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changing the system&apos;s environment variables needs an administrator: run the setup as an administrator, or choose the user PATH instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that your account may change %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access to the environment variable %1 in %2 was denied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting a program with administrator rights works on Windows only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the command as root instead, for example with sudo.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This account is not an administrator and User Account Control is turned off, so administrator rights cannot be requested.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a per-user target, or sign in as an administrator and run it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The administrator permission was declined; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run it again and choose Yes when Windows asks for permission, or choose a per-user target.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be started with administrator rights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the program exists and that this account may run programs as an administrator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This runs as the SYSTEM account, so the per-user PATH would be SYSTEM&apos;s own and no person&apos;s; it is not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the system PATH (--path system), or run it as the user whose PATH should change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The programs that use the files to be replaced cannot be listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the programs that may use cuDNN (Python, Jupyter, IDEs) and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN files that would be replaced are in use by: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The part that ran with administrator rights left no result (exit code %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows will ask for administrator rights when the installation starts: %1 is writable only for administrators.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install one first: cudnnctl install --archive FILE.zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is shorter than its ELF headers say; it is probably an incomplete download or copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The list of libraries the file needs (its ELF dynamic section) is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is a big-endian ELF file; only little-endian ones (x86-64, AArch64) are read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system changed since the diagnosis, so the repair is not made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1. Python 3.8 and newer (%2) do not look for it on PATH: only beside the cuDNN DLLs, in System32 and beside python.exe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN in %1 is incomplete: %2 is there, but %3 are missing, so programs fail when cuDNN loads them (error 126).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy every library of the cuDNN archive into %1, not only %2, or give the archive to the repair (--archive) so that it copies them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be loaded (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs %2, but the first %2 the loader finds is %3, a DLL for %4: loading fails with error 193.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove or rename %1, or put a folder with the 64-bit %2 earlier on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs %2, which is nowhere the loader looks (error 126).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA toolkit that provides %1 and put the folder that holds it on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a %2-bit DLL for %3, not x64: a 64-bit program cannot load it (error 193).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace it with the DLLs of NVIDIA&apos;s windows-x86_64 archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 behind %2 on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair rename the cuDNN DLLs in %1 so that the loader skips them (uninstalling the repair renames them back).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair move %1 behind %2 on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on the PATH of this session only: open a new terminal, or take it off the PATH of the program that starts yours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take %1 out of LD_LIBRARY_PATH (and your shell profile), or put %2 before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs load %1 (cuDNN %2) instead of %3 (cuDNN %4), because %5 comes first in the library search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 can load the cuDNN in %3 (%4): Windows searches that folder before PATH and before torch&apos;s own DLLs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %2 to the end of PATH; %1 stays for the programs in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH names %1, but cuDNN %2 keeps its DLLs in the subfolder %3: Windows does not search subfolders, so programs do not find %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH names %1 instead of %2, the folder that holds the cuDNN DLLs: Windows does not search subfolders, so programs do not find %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair add %2 to the end of PATH; %1 stays for the programs in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1 to your user PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 is on no PATH, so programs that load %3 by name do not find it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair add %1 to your user PATH, then open a new terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (Python %2) does not search PATH for the DLLs its modules import, so %3 may not find the cuDNN in %4, which only PATH names.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call os.add_dll_directory(r&quot;%1&quot;) in the program before it imports %2, or let cuDNN Setup install cuDNN into this Python environment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): it is built for CUDA %1, but the program uses the CUDA %2 runtime.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): most often the driver is too old for the CUDA runtime, or this cuDNN is built for another CUDA than the program uses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the cuDNN archive built for the CUDA major the program uses, and update the driver if the check reports it too old.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This machine has no NVIDIA GPU or driver: cuDNN can be installed and loaded, but not run here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no working NVIDIA driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the newest NVIDIA driver for this GPU, then run the check again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The driver is too old for the CUDA %1 runtime the program loaded (cudaErrorInsufficientDriver): it supports CUDA up to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore PATH from a backup or type the lost entries again (System Properties &gt; Environment Variables); never change PATH with setx.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH in %1 is exactly 1,024 characters long, the most setx stores: it was probably cut off, and the entries after the cut are lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH in %1 looks cut off: it ends in the middle of a folder name (%2, where %3 exists), as setx leaves it when it cuts a value to 1,024 characters. The entries after the cut are lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA_PATH names %1, but the cuDNN in use belongs to CUDA %2 in %3; build tools and programs that go by CUDA_PATH take the other toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair set CUDA_PATH to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds cuDNN files (%2) that Windows redirected there from %3: only this user&apos;s programs without a manifest see them; every other program sees %3 without them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN again with administrator rights (cuDNN Setup asks for them), then delete %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES names %1, but this machine has no such GPU (it has %2): CUDA ignores that entry and every one after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set CUDA_VISIBLE_DEVICES to GPU numbers from 0 to %1, or remove it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the terminal, IDE or Jupyter and open them again; sign out and in if a program started from the desktop still does not see the change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename the cuDNN files in %1 so that no program loads them any more (uninstalling the repair renames them back).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put cuDNN Setup&apos;s own 64-bit zlibwapi.dll into %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set %1 to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the %1 missing or different cuDNN DLLs from %2 into %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Libraries it needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating a cuDNN handle on the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test convolution on the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frameworks (torch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WORKS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN loads and runs on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PROBLEMS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN does not work here yet: see the problems below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT VERIFIED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No error was found, but cuDNN was not run to prove that it works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors: %1, warnings: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN a newly started program loads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Linux kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA toolkits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A newly started program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python and torch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not be asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA torch was built for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch sees a GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN torch uses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN file torch loads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is found nowhere the loader looks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (needed by %2) is taken from %3, which is built for %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (needed by %2) is taken from %3, which is not a library that can be loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is delay-loaded: loading fails only when it is first used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders looked in, in order:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is the cuDNN that was checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test convolution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN was not verified for this report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen because</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version the library reports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search path used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Libraries that stop cuDNN from loading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems and fixes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offered repair: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It needs administrator rights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found while looking at this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installs by cuDNN Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder you can write to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 for the report could not be created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report file %1 could not be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dependencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN handle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[ok]  </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[FAIL]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[skip]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN checked: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified in %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification failed (%1 s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair offered: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library check gave an answer that cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the whole bin folder of the cuDNN archive, not only the main DLL; for cuDNN 8.3 to 8.9 also put a 64-bit zlibwapi.dll beside the cuDNN DLLs; and put the folder that holds the DLLs itself (not one above it) on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loader found %1 in none of the folders it searches (LD_LIBRARY_PATH, the library&apos;s RUNPATH, the ld.so.conf folders).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs %2, which the loader found in none of the folders it searches (LD_LIBRARY_PATH, the library&apos;s RUNPATH, the ld.so.conf folders).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the missing library, or add the folder that holds it to LD_LIBRARY_PATH or to a file in /etc/ld.so.conf.d and run ldconfig.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs the function %2, which none of the libraries loaded with it has: usually an older or other copy of a cuDNN or CUDA library was found first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the older copy, or put the folder of the right one first in LD_LIBRARY_PATH, so that the libraries of one cuDNN release are found together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 or a library it needs is built for another word size: a 32-bit library in a 64-bit program, or the reverse.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the 64-bit (x86_64 or sbsa) libraries of the cuDNN archive and a 64-bit program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs version %2 of %3, but the copy the loader found is older than the one %1 was built against.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update that library, or remove the older copy that the loader finds first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be loaded. The loader said: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that %1 and every library it needs are present, built for this processor, and in a folder the loader searches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call succeeded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing needs to be done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not start (cudnnCreate failed). This is most often a GPU driver older than this cuDNN and CUDA need, or a cuDNN built for another CUDA version than the program uses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver, and use the cuDNN build for the CUDA version your program or framework was built with (the _cuda12 / _cuda13 part of the archive name).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN libraries that were loaded come from different releases: files of two cuDNN copies are mixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the whole set of cuDNN libraries of one archive again, and remove the older copies that are found earlier on the search path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The feature needs a license and checking it failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the license file is present and valid and that NVIDIA_LICENSE_FILE points to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work queued on the CUDA stream has not finished yet (an answer of cudnnQueryRuntimeError).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an installation problem: ask again once the stream has finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A numerical overflow happened while a GPU kernel ran.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an installation problem: the program&apos;s data or settings cause it; report it to the program&apos;s authors with the cuDNN version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not allocate memory, usually GPU memory (cudaMalloc failed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close other programs that use the GPU (nvidia-smi lists them), or use a smaller batch or model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed a wrong value or parameter to cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an installation problem but a fault of the calling program; report it to its authors with the cuDNN version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An internal cuDNN operation failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and make sure every cuDNN library comes from the same release; if it still happens, report it to NVIDIA with the cuDNN and driver versions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU lacks a feature this function needs: its compute capability is not supported by this cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a cuDNN release whose support matrix lists this GPU&apos;s compute capability, or another GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accessing GPU memory failed, usually while binding a texture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A cuDNN kernel failed to launch or to run on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver, check that other CUDA programs work on this GPU, and run the check again with no other GPU work running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support the requested operation or configuration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an installation problem: the program asked for something cuDNN does not offer; a newer cuDNN or other settings in the program may support it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A library cuDNN loads at run time, the CUDA driver&apos;s nvcuda.dll / libcuda.so, was not found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install or update the NVIDIA driver, then restart the computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not load one of its sub-libraries (such as cudnn_graph64_9.dll or libcudnn_graph.so.9): cuDNN 9 loads them by name when they are first needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the whole set of cuDNN libraries of the archive into one folder and put that folder on the search path; Python 3.8 and later also need os.add_dll_directory() for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A saved execution plan was made by another cuDNN version and cannot be read by this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an installation problem: let the program build its saved plans again with this cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program called a function that this cuDNN marks as deprecated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed a null pointer where cuDNN needs one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed a pointer that is not aligned as cuDNN needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program used a descriptor before finalizing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed a value outside the range cuDNN accepts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A buffer or workspace the program passed is too small.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program mixed CUDA streams that do not belong together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tensor shapes the program passed do not fit together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed the same entry twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program set a descriptor attribute with the wrong type.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA graph the program passed does not match what cuDNN expects.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program passed a descriptor of the wrong type.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cuDNN engine supports this pattern of operations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support these tensor shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support this data type here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support this memory layout.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The installed NVIDIA driver is too old for this cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA runtime the program loaded does not fit the CUDA version this cuDNN was built for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN sub-library this operation needs is not available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU has too little shared memory for this operation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support this padding.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The operation would need GPU launch parameters this GPU does not allow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This operation cannot be captured into a CUDA graph by cuDNN&apos;s native API.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN does not support these dynamic shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN failed to compile a GPU kernel at run time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN met a value it did not expect inside itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not allocate memory on the computer (host memory).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close other programs to free memory and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not allocate GPU memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN chose GPU launch parameters that the GPU refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA driver reported an error while cuDNN ran GPU work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuBLAS, which cuDNN calls, reported an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make sure the cuBLAS libraries of the CUDA version this cuDNN was built for are found first, and update the NVIDIA driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA runtime reported an error while cuDNN ran GPU work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuRAND, which cuDNN calls, reported an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA runtime could not allocate enough GPU memory or other resources.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA driver and runtime could not be initialized.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program loaded the CUDA toolkit&apos;s stub of the driver library instead of the real driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the toolkit&apos;s stubs folder from PATH or LD_LIBRARY_PATH so that the driver&apos;s own library is found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver is older than this CUDA runtime needs (&quot;CUDA driver version is insufficient for CUDA runtime version&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to one that supports this CUDA version, or use the cuDNN and CUDA builds for the CUDA version the driver supports (nvidia-smi shows it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This call needs a newer NVIDIA driver than the installed one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every CUDA GPU is busy or unavailable: set to an exclusive or prohibited compute mode, or filled by other work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the other programs that use the GPU (nvidia-smi lists them), or ask the administrator to set the GPU&apos;s compute mode back to Default.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA driver found no CUDA-capable GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that nvidia-smi lists the GPU, and that CUDA_VISIBLE_DEVICES is not set to hide every GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU number asked for does not exist; CUDA_VISIBLE_DEVICES often names a GPU that is not there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unset CUDA_VISIBLE_DEVICES, or set it to GPUs that exist (nvidia-smi numbers them from 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program or a library it loaded has no GPU code for this GPU&apos;s architecture (&quot;no kernel image is available for execution on the device&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use builds of the program, CUDA and cuDNN that support this GPU, and do not mix CUDA versions in one environment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU code was compiled by a newer CUDA toolkit than the driver supports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system is not ready for CUDA work: a service the NVIDIA driver needs is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the NVIDIA driver&apos;s services are running, or restart the computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The display driver and the CUDA driver library are of different versions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reinstall the NVIDIA driver so that all its parts are of one version, then restart the computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A CUDA forward-compatibility package is in use, but this GPU does not support it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the forward-compatibility package, or limit the program to the GPUs that support it with CUDA_VISIBLE_DEVICES.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An unknown internal error happened in the CUDA driver or runtime.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the computer; if it still happens, reinstall the NVIDIA driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows found %1 or a DLL it needs nowhere it looks (error 126 means either). For cuDNN 8.3 to 8.9 it is usually zlibwapi.dll; it also happens when only the main cuDNN DLL was copied or its folder is not on the search path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Windows loader could not find a DLL that %1 needs (STATUS_DLL_NOT_FOUND, the loader&apos;s own code for error 126).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was found, but a function it needs is missing from a DLL it loaded: usually an older or other copy of a cuDNN or CUDA DLL was found first on the search path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the older copy, or its folder from PATH, so that the DLLs of one cuDNN release are found together; look in the program&apos;s folder, conda environments and pip&apos;s nvidia\cudnn\bin too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 or a DLL it needs is built for another processor architecture: typically a 32-bit DLL, often zlibwapi.dll, in a 64-bit program, or the reverse.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the 32-bit DLL with its 64-bit build (cuDNN and the zlibwapi.dll it needs are 64-bit only), and use a 64-bit program or Python.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN returned status %1, which cuDNN %2 does not define.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA runtime returned error %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and run the check again; if it still happens, look the error number up in NVIDIA&apos;s CUDA runtime documentation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 cuDNN libraries did not load: %3. %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A freshly started program loads another cuDNN copy: %1 instead of the one in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the older copy or its folder from PATH, or put %1 before it (cudnnctl doctor offers both).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All %1 cuDNN libraries load from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not found; %2 asks for it only when a feature needs it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is a %3 file at %4: a 64-bit program cannot load it (error 193).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is a %3 file at %4: a 64-bit program cannot load it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is damaged or not a library: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is not found anywhere the loader looks (error 126).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, which %2 needs, is not found anywhere the loader looks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The version could not be asked: the main library did not load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cuDNN was built for CUDA %1, but it sits with CUDA %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the cuDNN archive made for CUDA %1 (its name ends in _cuda%1-archive.zip).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1, built for CUDA %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped, as asked (--no-gpu).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: cuDNN itself did not load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: no NVIDIA driver is installed on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the NVIDIA driver for the GPU, then verify again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: the GPU cannot be used here (%1). %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: no CUDA runtime library (cudart) could be loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA toolkit cuDNN was built for, or put its bin folder on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: no NVIDIA GPU answers on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cudnnCreate failed with %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN works with %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A convolution on the GPU matches the CPU&apos;s result (largest difference %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU&apos;s convolution differs from the CPU&apos;s by %1 (allowed %2): this cuDNN computes wrong results here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and reinstall cuDNN from NVIDIA&apos;s archive; report it if it stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The convolution failed with %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The convolution failed in CUDA with %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The convolution could not be run: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch could not be asked in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 is a CPU-only build: it never uses cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a CUDA build of torch; cudnnctl doctor names the exact pip command for this driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 cannot run a convolution on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch in %1 uses its own cuDNN (%2), not the one checked here: a working torch says nothing about that one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch cannot use the GPU through cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch runs a convolution through cuDNN on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no cuDNN library in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The libraries could not be tried in a fresh process.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped, as asked (--no-framework).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The verification report cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library check was given a request that cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN check failed at %1 with %2. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN check could not run: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reinstall cuDNN from NVIDIA&apos;s archive: its libraries do not offer what every cuDNN offers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--path takes user, system or none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--cudnn-variables takes user or system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--if-in-use takes fail or restart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>install needs the archive: --archive FILE.zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The record of the last verification could not be removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1 of the answer file is not &quot;key=value&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify= in the answer file takes true or false.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer file has a key this version does not know: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The action is install, repair or uninstall, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verified %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verification failed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 installed in %3 (receipt %4, %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup has installed no cuDNN that matches here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The install is no longer intact: %1 is missing or was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make this change yourself (cuDNN Setup cannot change the stored environment here): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be saved in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report was saved in %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows described who may change a file in a form this program does not understand, so it does not trust the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An unfinished install journal was found that cuDNN Setup cannot have written, so it was not replayed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask an administrator to look at it and remove it; nothing it names was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It was renamed to %1 and nothing it names was changed. Ask an administrator to look at it: someone may have put it there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A receipt was found that cuDNN Setup cannot have written, so it is ignored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on the system PATH, but %2 can be changed by others than the administrators (%3): a DLL put there is loaded by the programs of every user, services too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it off the system PATH (or put it on the PATH of the one user who needs it), or let only administrators change the folder, from an administrator&apos;s prompt: icacls &quot;%1&quot; /inheritance:r /grant:r *S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would go on the system PATH, but %2 can be changed by others than the administrators (%3): whatever DLL they put there, every program of every user would load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH and the variables were changed by the system account, whose notice reaches no one&apos;s desktop: programs see the change once their user signs out and in again, or after a restart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the PC, or have each user sign out and in again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup&apos;s folder %1 cannot be made ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the disk is not full and that %1 is a plain folder, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This change is recorded in %1, which only an administrator may create.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run cuDNN Setup as an administrator, or choose a target in your own folder with PATH for your account.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is in use by another program, so it cannot be changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the programs that use it (Python, Jupyter, an editor), then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This account may not change %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run cuDNN Setup as an administrator (the wizard asks Windows for that when a target needs it), or choose a folder of your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the part with administrator rights is to do cannot be written down.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not run with administrator rights: %2 may be changed by %3, who could put another program in its place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN Setup with its installer, which puts it under Program Files, and start it from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another account holds cuDNN Setup&apos;s lock, and this one may not even open it: a change may be running under that account, or a program is keeping the lock to block installs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The change was made, but not all of its tidying up after it: the files it replaced are kept, and cuDNN Setup finishes it when it next starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not everything could be put back as it was: what could not is listed above. The files it replaced are kept, and cuDNN Setup tries again when it next starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the programs that use cuDNN, then start cuDNN Setup again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair was found, but it could not be undone whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The free space on the drive of %1 could not be read; keeping the replaced files there needs %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The files this install replaces are kept in %1 for an uninstall to put back, but its drive has %2 free and they need %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free %1 on that drive, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive declares %1 entries, beyond the %2 any cuDNN archive stays within, so its list of entries is not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 inside the target is a link to %2: the files installed through it would land outside the target.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the link (what it leads to stays as it is), or choose another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is an empty zip archive: it holds no files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the cuDNN archive again: the download may have stopped before it began.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in the archive twice (as a file and as a folder, or as two files): one would overwrite the other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is one part of a zip archive split into several files (.z01, .z02, …, .zip): it cannot be read alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the cuDNN archive as one .zip file, as NVIDIA publishes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive has no readable cudnn_version.h: its version, %1, was read from the version stamp of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cudnn_version.h says cuDNN %1, but %2 is stamped cuDNN %3: the archive mixes files of two releases, and cuDNN does not run that way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the archive again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive is incomplete: %1 of the %2 libraries of cuDNN %3 are missing, such as %4. cuDNN loads them when a program first needs them, so the program would fail then.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the complete archive again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive would unpack to %1 GB from a file of %2 MB, more than %3 times its size: cuDNN does not compress that well, zip bombs do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is missing from %2 (%3 of cuDNN %4&apos;s libraries in all). cuDNN loads it when a program first needs it and, not finding it, ends that program with &quot;Could not locate %1&quot;; so nothing was loaded to try.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN again from its complete archive, which holds every one of these libraries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN looked for %1 and did not find it, and ended the program (NVIDIA&apos;s words: &quot;%2&quot;). A program looks for it in %3 and then along PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN could not load %1 and ended the program (NVIDIA&apos;s words: &quot;%2&quot;): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN again from its complete archive, so that %1 is beside cuDNN&apos;s other libraries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close these programs and try again: only an administrator may replace files that are in use, because Windows removes the old ones only at its next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close these programs and try again, or replace the files anyway: these programs keep the old ones until they are restarted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 are in use: the new cuDNN files are in place for every program started from now on, and these programs keep the old ones until they are restarted (or Windows is).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replacing %1, which is in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replaced %1 cannot be removed, not even at the next start; it stays as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A path the installation works with would have %1 characters, and Windows programs cannot all handle paths of %2 characters or more: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA published no support matrix for cuDNN %1; the nearest published one (cuDNN %2 for CUDA %3) lists %4, and this toolkit is %5. It usually works, but that combination is not known to be tested.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA published no support matrix for cuDNN %1; from the nearest published ones (cuDNN %2 and %3 for CUDA %4) it is taken to support %5, the narrower where they differ, and this toolkit is %6. It usually works, but that combination is not known to be tested.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC has CUDA %1, newer than anything the compatibility database (%2, of %3) knows: it stops at CUDA %4, so the verdicts about CUDA %1 may be out of date.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put a newer cudnn-compat.json beside the program (your lab&apos;s IT or the cuDNN Setup project publishes it), or give one with --compat-db.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a Jetson module: its CUDA and cuDNN come with NVIDIA JetPack, not from the cuDNN archives for PCs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install or upgrade JetPack (with NVIDIA SDK Manager, or with apt on the device): it brings the cuDNN that fits the module.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN. If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %3; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN %3. If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %4; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN %3 (%4). If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %5; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: not NVIDIA&apos;s original file, refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of unknown version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renamed: %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added: %1 (64-bit, SHA-256 %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User PATH before: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System PATH before: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User PATH after: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System PATH after: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for this user: %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for all users: %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the archive: %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the older copy or its folder from PATH, or put %1 before it: Repair… below offers both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>system library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>conda environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>virtual environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pip wheel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inside torch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on LD_LIBRARY_PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy every library of the cuDNN archive into %1, not only %2, or install the archive again: Install cuDNN on this wizard&apos;s first page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another source under Download settings (a lab mirror or a shared folder), or get the archive another way and open it with Browse.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give another source with --source (a lab mirror or a shared folder), or get the archive another way and check it with cudnnctl inspect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be reached from this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the internet connection and the proxy settings. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not there (the server answered %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source may not have this release: choose another version or another source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The proxy server between this computer and %1 asks for a user name and password.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put them in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or ask IT for a mirror inside the network. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to %1 could not be secured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the computer&apos;s date and time. A network that inspects HTTPS, or a mirror with its own certificate authority, needs that authority&apos;s certificate trusted by this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to %1 kept breaking. %2 of %3 are kept in %4; the next try continues from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free space on that drive (the archive needs %1), or download into another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download was cancelled. %1 are kept in %2; the next download continues from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be downloaded (the server answered %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a cuDNN redistrib manifest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No archive of %1 is known to this program, and the source lists none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the version and the CUDA major. For a release newer than this program, the source must serve NVIDIA&apos;s redistrib_%1.json beside the archives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source %1 lists %2 with another checksum than NVIDIA publishes: its copy is not NVIDIA&apos;s file, and is not downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell whoever runs the mirror; use NVIDIA&apos;s own download meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is newer than NVIDIA&apos;s list built into this program: it is checked against the checksum the source itself lists, not against NVIDIA&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checksum of %1 is known, so a download could not be checked; it is not made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA offers %1 only after signing in, not for download by programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download it in a browser from NVIDIA&apos;s cuDNN archive page, or give a folder that holds it as the source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is there already but is not NVIDIA&apos;s file (its checksum differs); it is replaced once the download is checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 free; the archive needs %3 more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free space on that drive, or download into another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What %1 sent is not the file it should be: its checksum or size differs. It was deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source %1 names no server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source %1 is neither a web address nor a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give an http:// or https:// address of a mirror, or a folder or network share that holds the archives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 cannot be found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the path, and that the share is reachable from this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already downloaded and intact: nothing fetched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloaded and checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not downloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (NVIDIA&apos;s, built into cuDNN Setup)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (listed by the source, not by NVIDIA&apos;s list built into cuDNN Setup)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from %1 an earlier download had saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n min left</source>
        <translation>
            <numerusform>%n min left</numerusform>
            <numerusform>%n min left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>%n s left</numerusform>
            <numerusform>%n s left</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is newer than NVIDIA&apos;s list built into this program: it is checked against the checksum NVIDIA&apos;s download server lists for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (NVIDIA&apos;s, from its download server&apos;s list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No archive fits this computer yet, so there is nothing to download.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No archive was given and none fits this computer, so there is nothing to download and install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the Python environments&apos; files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not asked (its files were read)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch loaded %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch will load %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN checked: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is damaged or not a library: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s libraries are not loaded on this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: only a loaded library can be asked, and its files do not name the version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: only a loaded library can be asked; its files say cuDNN %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: the GPU of another system&apos;s files cannot be used from this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s Python is not run on this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (measured with %2 first on %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 works when it is found first, but a freshly started program finds %3 before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 works when it is found first, but a freshly started program finds %3 (cuDNN %4) before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 names the library folder, but the loader&apos;s cache is rebuilt only when ldconfig runs on that system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run ldconfig as root on that system once it runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ldconfig could not rebuild the loader&apos;s cache of library folders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the install as root (sudo), or run ldconfig yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA %1, cuDNN %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (CUDA %3, cuDNN %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On Linux a library folder cannot be made known to one user only: programs find libraries through the system&apos;s loader configuration or LD_LIBRARY_PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the folder for the whole system instead (as root: it goes into /etc/ld.so.conf.d), or add it to LD_LIBRARY_PATH in your shell&apos;s profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 could not be copied into cuDNN Setup&apos;s protected folder, so nothing is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make room on the disk that holds %1, and check that the archive can be read, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 changed while it was being installed, so nothing is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source %1 is a plain http:// address, and the checksum of %2 is not built into this program: only that source could say what the file must be, and anyone on the network in between could change both. It is not downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the mirror&apos;s https:// address, or a cuDNN release this program knows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source %1 lists %2 under a name that is not one of NVIDIA&apos;s archive names, and could put the file outside the download folder: it is not downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell whoever runs the source: NVIDIA names the archives cudnn/&lt;platform&gt;/cudnn-&lt;platform&gt;-&lt;version&gt;_cuda&lt;major&gt;-archive.zip (or .tar.xz). %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its owner and mode cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a symbolic link to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>owner %1, mode %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 has %2 in its path, which the loader&apos;s configuration cannot hold: it takes one folder a line, and &quot;#&quot; starts a comment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder whose path has no control characters and no &quot;#&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would be named in the loader&apos;s configuration, but %2 can be changed by others than root (%3): any library put there would be loaded by programs of every user, root&apos;s too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup runs as root and would write into %1, but %2 can be changed by others than root (%3): they could swap what root writes there, or lead it elsewhere through a link.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder that root owns and only root may change, with every folder above it the same, such as /opt/cudnn; for a folder of your own, install without root and without --path system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>possibly anyone: its permissions cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait until it has finished. If it stays so after a restart of Windows, ask an administrator to find the program that holds %1 (Process Explorer: Find Handle) and end it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make sure no other program is writing to the archive (a download still running?), then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 is not one NVIDIA published (its SHA-256 is not among NVIDIA&apos;s checksums). Administrator rights install only NVIDIA&apos;s own archives for someone else.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into a folder for you only, which needs no administrator rights, or download the archive from NVIDIA (or your lab&apos;s copy of NVIDIA&apos;s files) and choose that one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive %1 is not one NVIDIA published (its SHA-256 is not among NVIDIA&apos;s checksums). Files that every program on this computer loads are installed only from NVIDIA&apos;s own archives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into a folder for you only, or download the archive from NVIDIA (or your lab&apos;s copy of NVIDIA&apos;s files). An administrator at their own console who trusts this file may add --allow-unverified-archive to cudnnctl install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would go on your PATH, but %2 can be changed by others (%3): whatever DLL they put there, your programs would load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into a folder for you only (the default, in your profile), or into a folder under Program Files for the system PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup&apos;s folder holds something that others than the administrators may have changed, so it is not used: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into a folder under Program Files (the default), or into a folder for you only on your own PATH (--target user --path user).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The install handed over to the administrator part is damaged, so nothing is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The install that was approved is not the one handed over (the plan changed after the approval), so nothing is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the installation again, and approve it only if you started it yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recorded install target is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is installed into %1 with administrator rights: %2 can be changed by %3, who could swap a folder for a link to a system folder while it is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot tell whether %1 can run CUDA and cuDNN: its compute capability is not known (NVIDIA&apos;s table in the compatibility database does not list this name).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot tell whether cuDNN %1 for CUDA %2 runs on %3: the compatibility database has no list of the GPUs it supports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a cuDNN release whose support matrix lists compute capability %1, such as the recommended one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be loaded. %2 It belongs to cuDNN %3: the program needs cuDNN %3 itself, whatever other cuDNN is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be loaded. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN reported %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program was built for cuDNN %1 but loaded cuDNN %2 at run time: an older copy was found first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the program find a cuDNN of the same major version and at least the version it was built with: update the older copy, or remove its folder from LD_LIBRARY_PATH or PATH so that the program&apos;s own cuDNN is found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This GPU (%1) is not among the architectures the program was built for (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a build of the framework made for this GPU: for torch, a wheel whose CUDA version supports it (RTX 50 series, sm_120: cu128 or newer; cards before Turing: cu126).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver supports CUDA up to %1 only, older than the CUDA the program was built for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The framework installed is a CPU-only build: it cannot use the GPU, whatever cuDNN is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install its GPU build instead: for torch, the wheel from download.pytorch.org/whl/cuXXX that the driver supports; for PaddlePaddle, paddlepaddle-gpu; OpenCV needs a build with CUDA.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a status this version does not know.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program ended with code %1 (%2) while loading cuDNN, without an error message: typically a program built for cuDNN 8 (CTranslate2, faster-whisper) that found cuDNN 9, or files of two cuDNN releases mixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the program the cuDNN major version it was built for, in its own folder or first on its search path (cuDNN 8.9 for CUDA 12 for CTranslate2 before 4.5), and keep the files of one cuDNN release together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Under WSL2 the loader did not find the Windows driver&apos;s %1 as it expects (in /usr/lib/wsl/lib, known to ldconfig).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not install a Linux NVIDIA driver inside WSL; make /usr/lib/wsl/lib known to the loader (a file in /etc/ld.so.conf.d naming it, then sudo ldconfig) or add it to LD_LIBRARY_PATH. The &quot;is not a symbolic link&quot; warning alone is harmless.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The log %1 is larger than 256 MB: give the part around the error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The log %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 The folder %2 named in the error exists on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The error you pasted:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not recognised: the text holds no cuDNN, CUDA or driver failure this version knows, so nothing is concluded from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This system:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The section table of the ELF file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU code list of the file (its fatbin) is damaged; it was read only in part.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uses cuDNN/CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (needs cuDNN %3, CUDA %4)  %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU code: %1; PTX: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 -&gt; %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 -&gt; not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatible: cannot tell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1 of the text: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into a folder under Program Files (the default), or into a folder of yours without administrator rights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnose again and choose the repairs anew.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from PATH; add %2 at the end of PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair remove %1 from PATH and add %2 at the end of PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH has changed: terminals and IDEs opened before the change, and the programs they start, still use the old PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File name says</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How it was found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No diagnosis was made for this report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The diagnosis found no problem.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passed in part, the GPU was not used (%1 s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repairs handed over for administrator rights were not applied: they are not what the diagnosis offers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnose again and choose the repairs from what the diagnosis offers then.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN that loaded is %1, but %2 was expected there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another copy loads first, or the files were replaced: press Repair… below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs that use cuDNN/CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs %2, and its own search for libraries does not reach it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make %1 reachable for it: install the CUDA %2 toolkit, or put those libraries beside its files in %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing its files show can be fixed from here; whether it works shows when it runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No %1 was found here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorFlow newer than %1 has no GPU build for native Windows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install %1, then check again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use WSL 2: install a Linux distribution with &quot;wsl --install&quot;, then install the GPU build inside it (the Windows driver serves it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot use the GPU on native Windows: the last TensorFlow that could is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no NVIDIA GPU support on native Windows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 finds its cuDNN: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is built for CUDA %2, but driver %3 runs CUDA up to %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU is known here, so whether %1 runs cannot be told.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot tell whether %1 runs on %2: its compute capability is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lists no GPU code in its files, so whether it runs on %2 cannot be told.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no GPU code for %2 except PTX of CUDA %3, which driver %4 (CUDA %5) cannot compile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 can run on %2 only by compiling its PTX (ISA %3), and whether driver %4 can is not known.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on %2 by having the driver compile its PTX (slow on first use).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has GPU code for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 carries GPU code for %2 only, none of which runs on %3: &quot;no kernel image is available&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get a build of %1 made for compute capability %2 (a newer release, or one built from source).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer (it runs CUDA %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to one that runs CUDA %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No PyTorch build the compatibility database knows carries GPU code for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer, then install torch from PyTorch&apos;s %2 index (CUDA %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the driver to one that runs CUDA %1, then install torch from PyTorch&apos;s %2 index.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install torch from PyTorch&apos;s %1 index: its builds (torch %2, CUDA %3) carry GPU code for %4 and run on this driver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs cuDNN %2 and does not reach it (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cuDNN %1 for CUDA %2 in the compatibility database supports %3: get a build of the program made for a newer cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot tell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs on this GPU: %1; finds its cuDNN: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another copy loads first, or the files were replaced: run cudnnctl doctor.</source>
        <translation></translation>
    </message>
    <message>
        <source>cuDNN could not find its own function %1 in its libraries (error %2): its main library and its sub-libraries come from different releases.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the libraries of one cuDNN release, all of them: install cuDNN again from one complete archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN libraries in %1 come from %2 different releases (%3): cuDNN&apos;s main library cannot use the sub-libraries of another release, so programs fail with &quot;Could not load symbol&quot; (error 127) or end without a word.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the libraries of one cuDNN release, all of them: install cuDNN again from one complete archive, so that every library in %1 is replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JAX %1 in %2 cannot use the GPU on native Windows: JAX&apos;s CUDA builds exist for Linux only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run JAX under WSL 2 and install its CUDA build there, as JAX&apos;s installation guide says.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Linux NVIDIA driver is installed inside WSL (%1): programs load its libcuda instead of the Windows driver&apos;s in %2, and CUDA finds no GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the Linux driver from WSL (sudo apt-get remove --purge the nvidia-driver and libnvidia-compute packages), keep only the Windows driver, then run sudo ldconfig.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loader&apos;s cache (/etc/ld.so.cache) does not name %1, and LD_LIBRARY_PATH does not either: programs under WSL do not find the Windows driver&apos;s libcuda.so.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the folder in a file of /etc/ld.so.conf.d (echo %1 | sudo tee /etc/ld.so.conf.d/ld.wsl.conf), then run sudo ldconfig.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ldconfig warns that %1 is not a symbolic link: WSL ships it as a file, and the loader finds it all the same.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to do: the warning is harmless.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the environment&apos;s own copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a folder Windows searches before PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>number %1 in the library search path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>where the program&apos;s own loader looks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2: update the driver to %3 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 has no code for the %2 (compute capability %3): install the torch wheel built for a CUDA version that supports it and that the driver (CUDA up to %4) runs, with pip install torch --index-url https://download.pytorch.org/whl/cuXXX.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the repair put the cuDNN %1 libraries of %2 into %3, beside the program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put every library of a cuDNN %1 archive into %2, beside the program (or give that archive to the repair with --archive).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 None of the folders the error names is on this system: it came from another machine (or an environment since removed), so this is what it means in general.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On this system the error is from %1 in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On this system the error is from %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Here it loads %2 (cuDNN %3), %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Here no copy of %2 is reachable from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 named in the error exists on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put cuDNN %1 for CUDA %2 beside it, for this program only: download %3 and install its libraries into %4, with no PATH change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDNN_PATH and its kin are for building programs, which needs the headers and import libraries that an install beside one program leaves out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave out --cudnn-variables, or install into a folder of its own (--target dir) to build with cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder: cuDNN for one program goes into the folder that holds the program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the folder of the program&apos;s .exe (or its library folder), as it is now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder of the system, not of one program: cuDNN put there would reach every program, or mix with the system&apos;s own files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the folder that holds the program itself; for every program, install into a folder of its own (--target dir).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN beside one program is found by that program without any PATH change, so it is not added to the %1 PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave out --path (or give --path none); for every program, install into its own folder (--target dir).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a target: use cuda, cuda:VERSION, dir, dir:PATH, user, user:PATH, conda:NAME, venv:PATH or app:FOLDER.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch brings its own cuDNN: no system-wide cuDNN is needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds its cuDNN: nothing to do. To install PyTorch for this GPU in another environment:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds its cuDNN: nothing to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install it first, or go on: the next pages install a system-wide cuDNN that programs can find.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds the cuDNN it needs: nothing to install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your own code needs cuDNN&apos;s headers and libraries: the next pages install them into the CUDA toolkit or a folder of your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Then tell CMake where they are (the folder is the one you choose on the &quot;Where cuDNN goes&quot; page, which can also set these as environment variables):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the program&apos;s folder, or one of the folders found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No program that uses cuDNN was found on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If you will use PyTorch, choose it above: it brings its own cuDNN. Otherwise the next pages install a system-wide cuDNN that programs can find.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n byte</numerusform>
            <numerusform>%n bytes</numerusform>
        </translation>
    </message>
    <message>
        <source>as cuDNN 8.2 and earlier (cuda/bin, include, lib/x64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as cuDNN 8.3 to 9.17 (bin, include, lib/x64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as cuDNN 9.18 and later (bin/x64, include, lib/x64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as NVIDIA&apos;s Linux archives (lib, include)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not where NVIDIA&apos;s archives put them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no cuDNN files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, libraries in %2</source>
        <translation></translation>
    </message>
    <message>
        <source>larger than %1 MB, not read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a plain file (a link, a folder or a device)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not valid JSON (damaged or cut short)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a machine report of cudnnctl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch build</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entry %1 of PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>installed, not working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN&apos;s folder is on no PATH entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (open: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no time written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No repair is recorded: run &quot;cudnnctl doctor&quot; there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No machine reports were found in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 machine reports in %2, read %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 on all %3 machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 on %3 of %4 machines; different on %5:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reports older than %1 days (%2):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files that are not machine reports (%1):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN on the lab&apos;s machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At a glance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Different</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most machines: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why it was not read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each machine writes its report with &quot;cudnnctl report --to FOLDER&quot;; this page was made by &quot;cudnnctl fleet summarize&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl verify&quot; on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl doctor&quot; on this machine for the cause and the repair.</source>
        <translation></translation>
    </message>
    <message>
        <source>--for takes torch, tensorflow, onnxruntime, ctranslate2, jax or app:FOLDER, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (cuDNN %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN bound: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no cuDNN needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 reaches no copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detection expected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each program bound the cuDNN it needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cudnnctl check --for %1 names the one fix.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 bound no cuDNN library; detection expected %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 bound no cuDNN library.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs cuDNN %2, but the loader bound %3 (cuDNN %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loader bound %1, but detection expected %2 for %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loader bound %1, where detection found no cuDNN %2 reaches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No %1 was found here, so there is nothing to load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s programs are not loaded on this one; cudnnctl check --for %1 gives what their files say.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 ended the test process before it could answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs no cuDNN, and loading it bound none.</source>
        <translation></translation>
    </message>
    <message>
        <source>The symbolic link &quot;%1&quot; points outside its own folder (%2 in all): NVIDIA&apos;s links name a file beside them, and a link that leaves its folder can reach any file of the system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The symbolic link &quot;%1&quot; names no file of the archive (%2 in all): it would point at whatever is there, or at nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive holds hard links, such as &quot;%1&quot; (%2 in all). NVIDIA&apos;s archives have none, and a hard link can stand for a file outside the target folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive holds devices or pipes, such as &quot;%1&quot; (%2 in all); a cuDNN archive holds only files, folders and links.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GB so far from a file of %3 MB, beyond what any cuDNN archive holds: it is not read further.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is an empty tar archive: it holds no files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read as a tar archive: it is damaged or incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the cuDNN archive again from NVIDIA.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a tar archive, NVIDIA&apos;s format for Linux: this build of cuDNN Setup reads only zip archives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On Windows, download the cuDNN archive for Windows (cudnn-windows-x86_64-…-archive.zip).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The baseline file is not one this version reads: %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write it again with: cudnnctl baseline export --out FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The baseline file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup has installed no intact cuDNN here to take the baseline from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install it as the lab wants it first, or use --from-answer FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A baseline is taken from an answer file that installs an archive named as NVIDIA names it (action=install, archive=).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>path= in the answer file takes user, system or none, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN %1 into %2 again; the baseline names no archive, so no repair file can do it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN %1 from %2 into %3 again (--repair-file writes the answer file that does it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver&apos;s version cannot be read here: check it with nvidia-smi.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to %1 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the doctor&apos;s repairs (cudnnctl doctor --fix, or the repair file with action=repair).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which cuDNN a new program loads cannot be told here: run cudnnctl doctor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run cudnnctl verify on this machine (with its GPU and driver) to record the result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compliant with the baseline %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drifted from the baseline %1; the repair file brings it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Broken against the baseline %1: something here needs more than the repair file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compliance with the baseline %1 cannot be told here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected %1, found %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing (or unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the file %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 files in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put back the files it replaced: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from the system PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from your PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the variable %1 back to what it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch: nothing to do. It brings its own cuDNN and does not use a system-wide one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your own Python code: add this line before it imports a module that uses cuDNN (Python 3.8 and later do not look for DLLs on PATH):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is part of a Python package: it needs the interpreter&apos;s own function %2, so it loads only inside Python.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to fix here: import the package from its Python environment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA driver found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the newest CUDA it runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too old for CUDA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only needed to build programs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not match the archive (CUDA %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matches the archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this PyTorch does not use the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>brings its own CUDA and cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no archive fits this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1.x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the recommended download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the archive you chose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 So this error does not happen here now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the program again; if the error comes back, paste the new text.</source>
        <translation></translation>
    </message>
    <message>
        <source>Apply the repair file as an administrator (or SYSTEM): it puts %1 back at the front of the system PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply the repair file as this user: it puts %1 back at the front of the user PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply the repair file (as an administrator where the system PATH changes): it moves %1 behind %2 on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer file puts the DLL folder of %1 back on PATH, but cuDNN Setup has no intact install there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the repair file again (cudnnctl status --against BASELINE --repair-file FILE): it installs cuDNN there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put %1 first on PATH, as the baseline has it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no Python here has PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runs the archive&apos;s CUDA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every library cuDNN needs is found (%1 checked).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a new Command Prompt, PowerShell or terminal window, and restart programs such as PyCharm or Jupyter: those already open keep the old PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Python with torch was found or named.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no cuDNN handle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN libraries here name no other library, so none was looked for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not loaded, on purpose: with administrator rights the test would load libraries from %1, which %2 may change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run cudnnctl verify without administrator rights, as the user who will use cuDNN; or make that folder the administrators&apos; alone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::ArchivePage</name>
    <message>
        <source>Choose the cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN archives (cudnn*.zip);;Zip archives (*.zip);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes: the checksum is the one NVIDIA published for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No: the checksum differs from the one NVIDIA published</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown: NVIDIA&apos;s checksum for it is not in the database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This archive is unsafe and will not be used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This archive is damaged and will not be used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a cuDNN archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The zip from NVIDIA, checked before anything is installed: safe to unpack, intact, and the right one for this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the archive is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not read: nothing is unpacked from an unsafe archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown: the archive has no readable cudnn_version.h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cuDNN archive (.zip) from NVIDIA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended for this computer: %1&lt;br&gt;cuDNN %2 for CUDA %3, from NVIDIA&apos;s download page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended for this computer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the cuDNN archive you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 libraries, %2 headers, %3 import libraries; %4 unpacked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not NVIDIA&apos;s original file, so it will not be used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This archive does not fit this computer: the findings below say why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s original archive and it fits; read the notes below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive is undamaged and fits; read the notes below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s original archive, and it fits this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive is undamaged and fits this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Use the one in Downloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Download it for me (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Download it for me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloads %1 from %2 into %3, checks it and opens it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download &amp;settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press “Download it for me”, or choose the cuDNN archive you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actual version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File name says</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::DownloadSourceDialog</name>
    <message>
        <source>Download settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From &amp;NVIDIA (developer.download.nvidia.com, no sign-in needed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a lab &amp;mirror (https://…) or a folder or network share:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://mirror.example.edu/cudnn/ or \\server\share\cudnn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mirror address or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder that holds the archives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the mirror&apos;s address or the folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where “Download it for me” gets the cuDNN archive. Whichever you choose, the file is checked before it is used, against NVIDIA&apos;s published checksum wherever cuDNN Setup knows it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::FindingsView</name>
    <message>
        <source>What to do: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Technical details, in English:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::FinishPage</name>
    <message>
        <source>Repaired: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing on this computer was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification: not run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification: failed. The report names the check that failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification: passed. cuDNN loads and works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification: passed in part. Some checks were skipped; the Verify page says why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnosis: problems remain. The report lists them with what to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the log and the report: they say what was found and changed, for support.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the report in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was done, and what to do next.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 was installed in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receipt %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No log could be written on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as answer file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer files (*.ini)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer file saved as %1. On the other computers, run: cudnn-setup.exe --unattended --answer-file &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer file could not be saved as %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as &amp;answer file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For lab IT: the choices made here, for cudnn-setup --unattended on other computers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 was uninstalled from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN Setup diagnosed this computer; no repair was made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Diagnosis: nothing stops cuDNN from working, but %n warning(s) remain. The Repair page lists them with what to do.</source>
        <translation>
            <numerusform>Diagnosis: nothing stops cuDNN from working, but %n warning remains. The Repair page lists it with what to do.</numerusform>
            <numerusform>Diagnosis: nothing stops cuDNN from working, but %n warnings remain. The Repair page lists them with what to do.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this line to the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For programmers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnosis: healthy. No problem is left.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::HardwarePage</name>
    <message>
        <source>Looking at this computer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graphics card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute capability %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA driver found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the newest CUDA it supports is unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, supports CUDA up to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, installed but not working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not installed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only for programs that look there themselves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loaded by default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hidden by another copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(version unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-bit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 without CUDA (CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 for CUDA %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) must be solved before cuDNN can work on this computer.</source>
        <translation>
            <numerusform>%n problem must be solved before cuDNN can work on this computer.</numerusform>
            <numerusform>%n problems must be solved before cuDNN can work on this computer.</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the system report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be saved to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What this computer has for CUDA and cuDNN, and what is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was found on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Detect again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detection progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found, so cuDNN cannot run on this computer yet. If it has an NVIDIA GPU, install the GPU&apos;s driver from nvidia.com/drivers, restart, and run cuDNN Setup again. You can still install cuDNN now, for example on a machine being imaged without its GPU: it will be in place once a GPU and its driver are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NVIDIA driver is missing or not working, so cuDNN cannot run yet. Install the current driver for this GPU from nvidia.com/drivers, restart, and run cuDNN Setup again. You can still install cuDNN now: it will be in place once the driver works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its folder is not on PATH: programs find this copy only when they are pointed at that folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another copy comes earlier on the search path (PATH), so programs load that one and never this one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1 for CUDA %2 with cuDNN %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 without CUDA (CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 for CUDA %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>This computer is ready for a cuDNN install; %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>This computer is ready for a cuDNN install; %n thing below is worth checking.</numerusform>
            <numerusform>This computer is ready for a cuDNN install; %n things below are worth checking.</numerusform>
        </translation>
    </message>
    <message>
        <source>This computer is ready for a cuDNN install.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::InfoIcon</name>
    <message>
        <source>Compute capability is how CUDA numbers a graphics card&apos;s generation (8.6 for an RTX 3060). Each cuDNN release runs on a range of them; this wizard checks yours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A handle is what a program gets from cuDNN when it starts to use it on a graphics card. Getting one proves that cuDNN, the driver and the card work together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import libraries (.lib files) are what a C++ compiler links against to use the DLLs. Only people who compile their own code need them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH (the environment variable Path) is the list of folders where Windows looks for programs and DLLs. Programs read it when they start: windows already open keep the old list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::InstallPage</name>
    <message>
        <source>Command Prompt, PowerShell and Windows Terminal windows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyCharm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual Studio Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jupyter (the server, and with it its kernels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling: undoing what was done so far…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimating the time left…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>About %n second(s) left</source>
        <translation>
            <numerusform>About %n second left</numerusform>
            <numerusform>About %n seconds left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %n minute(s) left</source>
        <translation>
            <numerusform>About %n minute left</numerusform>
            <numerusform>About %n minutes left</numerusform>
        </translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (cuDNN %2 for CUDA %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the CUDA %1 toolkit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a folder of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a folder for you only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a conda environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a Python virtual environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DLLs in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 added to the system PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 added to your PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH clean-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for all users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Administrator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Install to put cuDNN in place. It takes a minute or two; you can cancel until the end, and then nothing is changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 is installed in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 was already installed in %2, intact: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The installation was cancelled. Everything it had done was undone: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another installation of cuDNN is running, so this one did not start: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The installation failed. Everything it had done was undone: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs that are already running keep the PATH and variables they started with. Restart these to see the new ones; programs started from now on see them at once:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (running now)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN is put in place as one step: if anything goes wrong, or you cancel, everything is undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What will be done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel installation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installation progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 behind the cuDNN folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 is installed in %2, but some of the files it replaces are in use: Windows puts them in place when it next starts. Restart the computer before you use cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replace them anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new files take their place now, for every program started from now on; the programs that hold the old ones keep them until they are restarted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receipt %1, kept in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How programs find it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the folder of one program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Verify &gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A record of every file and change is kept, so that Uninstall can undo exactly this install.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used for this install</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::MatchPage</name>
    <message>
        <source>The newest CUDA version the installed driver can run (nvidia-smi&apos;s &quot;CUDA Version&quot;). It is not an installed toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA toolkit cuDNN goes with (nvcc --version).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No PyTorch was found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA version %1 was built for; it brings its own CUDA libraries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA major the cuDNN archive is built for (the _cudaNN in its name). It must match the toolkit&apos;s major.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download &lt;b&gt;%1&lt;/b&gt; from NVIDIA&apos;s cuDNN archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It goes with the CUDA %1 toolkit in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the CUDA %1 toolkit first if you build programs yourself; frameworks such as PyTorch bring their own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s SHA-256: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cuDNN archive fits this machine as it is; the findings below say why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) stand in the way of cuDNN on this computer.</source>
        <translation>
            <numerusform>%n problem stands in the way of cuDNN on this computer.</numerusform>
            <numerusform>%n problems stand in the way of cuDNN on this computer.</numerusform>
        </translation>
    </message>
    <message>
        <source>cuDNN fits this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Driver, CUDA, cuDNN, graphics card and frameworks, checked against NVIDIA&apos;s tables.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA of PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot tell whether cuDNN fits this computer: something it depends on is not known (see below).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>cuDNN fits this computer; %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>cuDNN fits this computer; %n thing below is worth checking.</numerusform>
            <numerusform>cuDNN fits this computer; %n things below are worth checking.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <comment>a CUDA number&apos;s name, its value and what it means</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It is what %1 needs, and goes beside it in %2, for that program only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s checksum for this file is not in the compatibility database, so it cannot be checked, and an install into the CUDA toolkit or for every user refuses it: on &quot;Where cuDNN goes&quot;, choose a folder for you only or beside one program.</source>
        <translation></translation>
    </message>
    <message>
        <source>Download &lt;b&gt;%1&lt;/b&gt; from NVIDIA&apos;s cuDNN download page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility data: version %1, built in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility data: version %1, from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA&apos;s tables as of %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::PurposePage</name>
    <message>
        <source>The program&apos;s folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the program&apos;s files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is cuDNN for?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer decides whether this computer needs a system-wide cuDNN at all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>I will use cuDNN with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Python library for deep learning used as &quot;import torch&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;TensorFlow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Python library for deep learning used as &quot;import tensorflow&quot;. On Windows, versions after 2.10 use the GPU only inside WSL 2 (Windows Subsystem for Linux).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;ONNX Runtime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs trained models saved as .onnx files (&quot;import onnxruntime&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A p&amp;rogram:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A program in a folder of its own, such as a portable ComfyUI or a speech-to-text app. Pick its folder: its files tell which cuDNN it needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;My own C++ code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code you compile yourself that includes cudnn.h and links the cuDNN library.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not s&amp;ure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The programs found on this computer decide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders where programs that use cuDNN were found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose fol&amp;der…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A system-wide cuDNN is one installed for the whole computer (in the CUDA toolkit or a folder of its own) where any program can find it. PyTorch and many other programs bring their own copy instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste this into a terminal (Command Prompt, PowerShell or a Linux shell).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command to run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the command to the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None found yet: choose its folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system-wide cuDNN is needed for this: press Finish. Next goes on to install one anyway.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::RepairPage</name>
    <message>
        <source>Cancelling: undoing what was done so far…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1:&lt;/b&gt; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair, with administrator rights: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Making the repairs: if one of them fails, all are undone…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking at this computer: the cuDNN copies, PATH, the receipts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Apply selected as administrator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Apply selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) stop cuDNN from working.</source>
        <translation>
            <numerusform>%n problem stops cuDNN from working.</numerusform>
            <numerusform>%n problems stop cuDNN from working.</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repairing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for what stops cuDNN from working…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick what to repair: the box below shows exactly what it changes. Every repair can be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n repair(s) made.</source>
        <translation>
            <numerusform>%n repair made.</numerusform>
            <numerusform>%n repairs made.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n repair(s) made, but files in use are replaced when Windows next starts: restart the computer before you use cuDNN.</source>
        <translation>
            <numerusform>%n repair made, but files in use are replaced when Windows next starts: restart the computer before you use cuDNN.</numerusform>
            <numerusform>%n repairs made, but files in use are replaced when Windows next starts: restart the computer before you use cuDNN.</numerusform>
        </translation>
    </message>
    <message>
        <source>The repairs were cancelled. Everything they had done was undone: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repairs were not made: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repairs failed. Everything they had done was undone: nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Exactly what the ticked repairs change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exactly what the ticked repairs change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick a repair to see exactly what it changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Diagnose again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To undo these repairs later, start cuDNN Setup again and choose Uninstall on its first page: they are listed as the repair of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>No problem stops cuDNN from working, but %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>No problem stops cuDNN from working, but %n thing below is worth checking.</numerusform>
            <numerusform>No problem stops cuDNN from working, but %n things below are worth checking.</numerusform>
        </translation>
    </message>
    <message>
        <source>What the diagnosis finds now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the diagnosis found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since the last diagnosis: %1 fixed, %2 still open, %3 new.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Still open: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What stops cuDNN from working on this computer, and the repairs cuDNN Setup can make with your consent.</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>%n known error(s) in the text: the first rows below say what each means on this computer and offer the repair.</source>
        <translation>
            <numerusform>%n known error in the text: the first row below says what it means on this computer and offers the repair.</numerusform>
            <numerusform>%n known errors in the text: the first rows below say what each means on this computer and offer the repair.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not recognised: the text holds no known cuDNN, CUDA or driver error (out of memory, shape errors and missing Python modules are other problems), so nothing is diagnosed from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste the error you saw (or drop a log file here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the error you saw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A traceback, a loader log, a Windows message: the diagnosis says what it means on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnose &amp;with this error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::SetupWizard</name>
    <message>
        <source>cuDNN Setup</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::TargetPage</name>
    <message>
        <source>Remove it from PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move it behind the cuDNN folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the system PATH, which Windows puts before yours:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder that holds the cuDNN DLLs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder for cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into a folder of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps cuDNN apart from CUDA, so it can be updated or removed on its own; for every user of this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into a folder for you only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for your user account, in your own profile: for when you cannot or do not want to change the whole computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into the conda environment %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for programs run in this conda environment, such as the PyTorch or TensorFlow installed in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into the Python virtual environment %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for Python in this virtual environment: a .pth file tells Python where cuDNN is, whatever PATH says.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs administrator rights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No administrator rights needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>what a choice is for, then whether it needs an administrator</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This setup changes PATH and environment variables only on the Windows it runs on, not on Linux nor on a system given with --system-root: cuDNN is installed without them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH stays as it is: CUDA&apos;s installer put this toolkit&apos;s DLL folder on it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH stays as it is: conda puts the environment&apos;s Library\bin on it when the environment is activated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH stays as it is: Python 3.8 and later do not use it to find DLLs; the .pth file tells Python where cuDNN is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without a PATH entry, only programs you point at the folder yourself find cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not available on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for all users.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for you only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space: %1 needed; the free space on that drive could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space: %1 free on that drive, %2 needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where cuDNN goes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where the files go and how programs will find them. Nothing is changed until you press Install on the next page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder for cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave PATH as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to my PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to the system PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH after the installation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is added at the front of the system PATH (for all users), so programs started from now on load this cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is added at the front of your own PATH, so programs started from now on load this cuDNN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into the CUDA %1 toolkit (what the common tutorials do)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — recommended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: there is no CUDA toolkit for this archive here, and a folder of its own is easy to update or remove.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: it needs no administrator rights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: the programs that use cuDNN here run in this environment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Advanced: PATH before and after, and %n thing(s) in it to look at</source>
        <translation>
            <numerusform>Advanced: PATH before and after, and %n thing in it to look at</numerusform>
            <numerusform>Advanced: PATH before and after, and %n things in it to look at</numerusform>
        </translation>
    </message>
    <message>
        <source>Advanced: PATH before and after, CUDNN_* variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for this program: its libraries go into its own folder, where it looks first; PATH is not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: this program needs another cuDNN than the rest of the computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for this program (%1)</source>
        <translation></translation>
    </message>
    <message>
        <source>For building programs with this toolkit (nvcc, CMake, Visual Studio): cuDNN goes beside CUDA&apos;s own files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: CUDA programs and build tools already look for cuDNN there.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::UninstallPage</name>
    <message>
        <source>Not uninstalled: nothing was changed. The findings below say why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installs made by cuDNN Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Uninstall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstalling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Receipt %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstalled: cuDNN %1 in %2. Its files, PATH entry and variables are gone; the files it had replaced are back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the install to uninstall. If a file changed after it was installed, cuDNN Setup names it and removes nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pressing Uninstall will:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstall what cuDNN Setup installed, exactly as it recorded the install.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::VerifyPage</name>
    <message>
        <source>Details of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>under 1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking: %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the cuDNN that a freshly started program loads, in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying… This takes a few seconds, a minute when torch is asked too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is nothing to verify.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>cuDNN does not work yet: %n check(s) failed. What to do is written under each.</source>
        <translation>
            <numerusform>cuDNN does not work yet: %n check failed. What to do is written under it.</numerusform>
            <numerusform>cuDNN does not work yet: %n checks failed. What to do is written under each.</numerusform>
        </translation>
    </message>
    <message>
        <source>cuDNN works: it loads as your programs will load it, and it ran a convolution on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN loads as your programs will load it, but it was not run on the GPU: the checks below say why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report was copied to the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the report in a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN is loaded in a fresh process, as your programs will load it, and run on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Repair…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify &amp;again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking what the install placed in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receipt %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a name and its value</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN was not loaded here, so these checks prove nothing yet: each says why it was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::WelcomePage</name>
    <message>
        <source>Welcome to cuDNN Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install NVIDIA cuDNN so that it loads, and prove that it works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What do you want to do?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Install cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install cuDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check this computer, choose NVIDIA&apos;s cuDNN archive and a folder, install it and verify that it loads.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Repair an installation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair an installation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find what keeps the cuDNN already on this computer from loading, and fix it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Uninstall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What it does:&lt;/b&gt; checks this computer&apos;s NVIDIA graphics card, driver, CUDA and Python, tells you which cuDNN fits, installs it and proves that it works.&lt;/p&gt;&lt;p&gt;&lt;b&gt;What you need:&lt;/b&gt; the NVIDIA driver for your graphics card, about 1.5 GB of free disk space, and about 5 minutes.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Nothing changes&lt;/b&gt; on your computer until you press Install.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uninstall what cuDNN Setup installed: its files, PATH entry and variables.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not available: cuDNN Setup has not installed cuDNN on this computer, so there is nothing of its own to uninstall.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
