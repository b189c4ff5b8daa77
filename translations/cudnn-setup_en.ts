<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>cudnn-setup</name>
    <message>
        <source>cuDNN Setup</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Language of the wizard: en or zh_CN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnctl</name>
    <message>
        <source>Run "cudnnctl --help" for the commands and options.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Language of messages: en or zh_CN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Do not ask Python interpreters about torch (faster).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Log what is looked at to stderr.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The log file %1 cannot be written.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No command given.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Unknown command "%1".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Unexpected argument "%1".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--tool-timeout needs a number of seconds between 0 and 3600.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Seconds to wait for nvidia-smi and nvcc (default 15) and for each Python interpreter (default 10).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the system were windows or linux.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the processor were x86_64 or arm64.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the NVIDIA driver were version V.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the CUDA toolkit were version V.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the GPU's compute capability were X.Y.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: as if the GPU were NAME (its compute capability is looked up).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--%1 belongs to the check command.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This build has no zip backend "%1".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: cudnn-setup/archive/1).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>inspect: read the archive with quazip or minizip (default: the first this build has).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>inspect needs the archive to check: cudnnctl inspect FILE.zip</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--%1 belongs to the inspect command.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Installed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Uninstalled.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Already installed there; nothing to do.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Dry run: nothing was changed. The steps would be:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Cancelled; everything done was undone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Failed; nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Another install is running.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Receipt %1: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--path takes user, system or none.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--cudnn-variables takes user or system.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install needs the archive: --archive FILE.zip</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Finds out what a machine has for NVIDIA cuDNN and what fits it.

Commands:
  detect    Show the GPUs, driver, CUDA toolkits, cuDNN copies and Python
            interpreters of this system (or of --system-root).
  check     Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA's
            tables and name the archive to download. Values not given with
            --os --arch --driver --cuda --sm --gpu --cudnn come from detection.
  inspect   Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA's own
            file, and which cuDNN for which CUDA it truly holds.
  install   Install a cuDNN archive as one transaction (--archive --target
            --path): all of it or nothing, with a receipt.
  uninstall Reverse an install by its receipt (cudnnctl uninstall [ID]).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The command to run: detect, check, inspect ZIP, install or uninstall [ID].</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install: the cuDNN archive (ZIP) to install.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install: where to: cuda[:VERSION], dir[:PATH], user, conda:ENV or venv:PATH (default: the toolkit that fits, else its own folder).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install: which PATH gets the DLL folder: user, system or none (default: the target's own choice).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install, uninstall: show the steps, change nothing.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--%1 belongs to the install command.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--%1 belongs to the install and uninstall commands.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Installed; restart Windows to finish: the files in use are replaced when it starts.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--if-in-use takes fail or restart.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>install: when programs hold files to be replaced: fail (default) or restart (replace them at the next start of Windows, exit 3010).</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file %1 could not be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file %1 is unexpectedly large and was not read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file is not a Linux program or library (ELF format).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file ends inside its ELF header; it is probably an incomplete download or copy.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The ELF header of the file is damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file is not a Windows program or DLL (PE format).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file ends inside its PE headers; it is probably an incomplete download or copy.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The PE headers of the file are damaged; Windows would not load it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file is shorter than its headers say; it is probably an incomplete download or copy.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The list of DLLs this file depends on is damaged; it was read only in part.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The version information of the file is damaged and was not read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The digital signature table of the file is damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The CUDA version file %1 could not be understood; the version was taken from elsewhere.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No CUDA toolkit was found. cuDNN can still go into its own folder, a conda environment or a Python virtual environment; programs that build CUDA code need the toolkit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the CUDA toolkit that matches your driver from developer.nvidia.com/cuda-downloads if you compile CUDA code.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Programs load %1 (cuDNN %2); the other copies on the search path are never used: %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Keep one cuDNN on the search path: remove the folders of the copies you do not use from PATH, or let Repair do it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No cuDNN was found on this system.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Inspecting the files under %1. Registry values and the live driver belong to the running system and are reported as unknown.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Reading the operating system</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Asking the NVIDIA driver about the GPUs</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Looking for CUDA toolkits</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Looking for cuDNN copies</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Asking the Python interpreters about torch</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA_PATH points to %1, which is not a CUDA toolkit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove CUDA_PATH, or install the CUDA toolkit it should point to.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Point CUDA_PATH at the toolkit you use (for example %1), or remove it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES is set to "%1", which hides every GPU from CUDA programs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove CUDA_VISIBLE_DEVICES, or set it to the GPUs programs should use (for example 0).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA programs see only the GPUs listed in CUDA_VISIBLE_DEVICES (%1).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH changed after this program was started; programs started from the same window do not see the change yet.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Open a new terminal (or sign out and in again) before you run CUDA programs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>nvidia-smi did not answer within %1 seconds and was stopped.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The driver may be hung. Restart the computer and run this again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>nvidia-smi could not be started.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The NVIDIA driver was updated, but the old one is still running.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Restart the computer to finish the driver update.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>A GPU stopped responding to the driver.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Restart the computer. If it happens again, check the GPU's power cables and cooling.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The NVIDIA driver is running but sees no GPU.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check that the GPU is seated and enabled in the firmware settings, and that the installed driver supports it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The NVIDIA driver is installed but does not respond.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Restart the computer. If that does not help, reinstall the NVIDIA driver (choose a clean installation).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The driver did not say which CUDA versions it supports (nvidia-smi printed "%1").</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No NVIDIA GPU was found. cuDNN runs only on NVIDIA GPUs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>If this computer has an NVIDIA GPU, install its driver from nvidia.com and run this again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>An NVIDIA GPU (%1) is present, but no NVIDIA driver is installed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers, restart, and run this again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The output of nvidia-smi could not be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is Windows on ARM. NVIDIA publishes cuDNN for Windows only for x64 PCs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is WSL 1, which cannot use the GPU.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Convert the distribution to WSL 2 (wsl --set-version &lt;name&gt; 2) and run this again inside it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is Linux under WSL 2. The GPU driver comes from Windows; cuDNN must be installed here, inside Linux, for Linux programs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the NVIDIA driver on Windows only (never a Linux driver inside WSL), and the Linux cuDNN archive inside this distribution.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The Python interpreter %1 could not be asked about its torch build.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Inspected root</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>none found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>compute capability %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>not found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>newest supported CUDA unknown</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>supports CUDA up to %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NOT WORKING</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>for CUDA %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>not on the search path</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>loaded by default</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>shadowed (#%1 on the search path)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Python</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1-bit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 (CPU only)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 (CUDA %2, cuDNN %3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Fix: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The compatibility database is not valid.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The compatibility database %1 cannot be used; the built-in one (version %2) is used instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The compatibility database %1 (version %2) is older than the built-in one (version %3); it is used as asked.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>the GPU</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (compute capability %2)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (%2, compute capability %3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA publishes cuDNN for Windows only for x64 PCs; this is Windows on ARM.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Under WSL 2, cuDNN goes inside this Linux distribution: use NVIDIA's Linux archive (cudnn-linux-x86_64-…-archive.tar.xz), not the Windows one. The driver stays the Windows driver.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The compute capability of %1 is not in the database; the checks that need it are skipped.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Look the GPU up on developer.nvidia.com/cuda-gpus and run the check again with --sm X.Y.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>There is no working NVIDIA driver, so no CUDA program can run.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver %1 is too old for CUDA %2, which needs driver %3 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Update the driver to %1 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run CUDA %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA publishes no minimum driver for CUDA %1 on this system, so driver %2 cannot be checked against it (the driver reports CUDA %3).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver %1 runs CUDA %2 through minor-version compatibility (the toolkit's own minimum is %3); code that needs newer driver features, such as compiling newer PTX at run time, can fail.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Update the driver to %1 or newer to use every feature of this toolkit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The CUDA %1 toolkit in %2 cannot be used: driver %3 runs CUDA up to %4.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Update the driver to the R%1 branch or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Update the driver to the newest one NVIDIA offers for this GPU.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA %1 no longer supports %2: it needs compute capability %3 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use CUDA %1 and the cuDNN archive for CUDA %1, the newest that still support this GPU.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This cuDNN archive is built for %1, but this system needs %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download the %1 archive instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 is not in the compatibility database (version %2), so only its CUDA major can be checked.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use a newer compatibility database (--compat-db) if this release is newer than it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not work with the CUDA %3 toolkit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download %1 instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run cuDNN built for CUDA %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver %1 is too old for cuDNN %2 for CUDA %3, which needs %4 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's support matrix gives no minimum driver for cuDNN %1 for CUDA %2 on this system, so driver %3 cannot be checked against it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA %1 to %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA %1 and newer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA up to %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA tested cuDNN %1 for CUDA %2 with %3; this toolkit is %4. It usually works, but that combination is untested.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA published no support matrix for cuDNN %1; the nearest earlier one (cuDNN %2 for CUDA %3) lists %4, and this toolkit is %5. It usually works, but that combination is not known to be tested.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 needs driver %2 or newer with cuDNN %3 (driver %4 is installed).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 needs CUDA %2 or newer with cuDNN %3; the toolkit is %4.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install CUDA %1 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is newer than every GPU cuDNN %2 for CUDA %3 lists; it may work through PTX, but NVIDIA does not support it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Use a newer cuDNN release.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not support %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 needs zlibwapi.dll on Windows, and none was found: it fails with "Could not locate zlibwapi.dll".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download %1 and put dll_x64\zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is a 32-bit Python; cuDNN and CUDA exist only for 64-bit programs, so it can never use them.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install a 64-bit Python (python.org's "Windows installer (64-bit)").</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 in %2 is a CPU-only build: it will never use the GPU or cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 is built for CUDA %2, but the driver supports CUDA up to %3: torch.cuda.is_available() will be False.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 is built for CUDA %2 and the driver reports %3: it runs through minor-version compatibility.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>TensorFlow %1 in %2 cannot use the GPU on native Windows; the last version that could is %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Run TensorFlow under WSL 2, or install TensorFlow %1 with CUDA 11.2 and cuDNN 8.1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/%1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 "%2" cannot be used: %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>use windows or linux</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>use x86_64 or arm64</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a driver version looks like 535.98 or 580.65.06</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a CUDA version looks like 12, 12.2 or 12.2.1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a compute capability looks like 8.6</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>give a cuDNN version such as 8.9.7 or 8.9.7.29, or an NVIDIA archive file name such as cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatible: yes</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatible: no</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA the framework was built for</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>no framework found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CPU only</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA of the recommended cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Recommendation</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's SHA-256: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>For the CUDA %1 toolkit in %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatibility database %1 (%2), built in</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatibility database %1 (%2) from %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive %1 cannot be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Reading the archive was cancelled.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The data of "%1" does not match its checksum: the archive is damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" cannot be unpacked: the archive is damaged or incomplete.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not every DLL is for 64-bit x64 Windows, such as %1: this is not an x64 cuDNN package, or it was tampered with.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" is named like a DLL but is not a Windows program file: the archive is damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is NVIDIA's %1, saved under another name.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This file is named like NVIDIA's %1, but it is not that file: its SHA-256 differs from the one NVIDIA published. It was damaged or altered after NVIDIA published it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download it again from NVIDIA's cuDNN archive page.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's checksum for this file is not in the compatibility database (version %1), so it cannot be compared.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file name is not one NVIDIA uses; what it holds was read from its content.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file name says cuDNN %1, but the archive holds cuDNN %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file name says it is for CUDA %1, but the archive is for CUDA %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The file name says %1, but the archive holds the %2 files.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This zip holds no cuDNN: neither cudnn64_N.dll nor cudnn_version.h is in it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The cuDNN files are not where NVIDIA's archives put them (the libraries are in "%1"): it was re-packed by someone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive has no readable cudnn_version.h, so its true version is unknown.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is a Windows program, not a zip archive: perhaps NVIDIA's graphical cuDNN installer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download the zip archive (cudnn-windows-x86_64-…-archive.zip) from NVIDIA's cuDNN archive page instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>an empty name</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a network or device path</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>an absolute path</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a drive letter</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>an empty folder name</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a "." or ".." folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a character Windows does not allow in names</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a name Windows reserves for a device</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a name ending in a dot or a space</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Entries of this archive would land outside the target folder or under names Windows cannot create, such as "%1" (%2); %3 in all.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Entry names are marked as UTF-8 but are not valid UTF-8, such as %1; %2 in all.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive holds symbolic links, such as "%1" (%2 in all). A cuDNN archive for Windows has none, and a link can point outside the target folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive has encrypted entries, such as "%1" (%2 in all); NVIDIA's archives are not encrypted.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive compresses "%1" with a method other than stored or deflated (%2 in all); NVIDIA's archives use only those.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" and "%2" would be the same file or folder on Windows, which ignores case: one would overwrite the other.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" declares more than %2 GiB, far more than any cuDNN file (%3 in all).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GiB when unpacked, beyond the %3 entries and %4 GiB any cuDNN archive stays within.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The sizes declared for "%1" are impossible for its compression (%2 in all): the archive is forged, as zip bombs are.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The data of "%1" and "%2" overlap in the file, a trick of zip bombs; no honest archive does that.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The data of "%1" runs past the end of the file (%2 in all): the download is incomplete or damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Verdict: ok, safe to install</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Verdict: unsafe, refused</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Verdict: corrupt, refused</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Verdict: not a cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's file</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>yes, %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NO: the checksum differs from the published one</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown: no published checksum to compare with</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Name says</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Content</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Layout</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Entries</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (%2 unpacked), names %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 ends before the size the archive's table of contents gives.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 holds more data than the archive's table of contents says.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 could not be read from the archive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 was closed because another entry of the archive was opened.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The compressed data of %1 is damaged.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive changed after it was checked; it is not used. Choose it again to check it anew.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 cannot be written. Is the disk full?</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The staging folder %1 exists already; it is left as it is.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check that the file exists and that you may read it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is not a zip archive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose the .zip archive itself.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive %1 has no entry number %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 in the archive %2 is encrypted and cannot be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 in the archive %2 is compressed with method %3; only stored and deflated entries can be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 in the archive %2 is stored in the Zip64 format, which this build cannot read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive %1 is damaged or incomplete.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download the archive again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a cuDNN release that NVIDIA built for CUDA %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 needs the CUDA %2 libraries, but no CUDA %2 toolkit is installed (the newest here is CUDA %3).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is not a Python virtual environment: it has no pyvenv.cfg or no %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give the folder that holds pyvenv.cfg, or create the environment with python -m venv.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is not a conda environment: it has no conda-meta folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give the environment's name or folder as "conda env list" shows it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No conda environment named "%1" was found.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 already holds this cuDNN, installed the same way; its files are replaced.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 already holds cuDNN files that were not put there by this setup; those with the same names are replaced, the others stay.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose an empty folder to keep the existing copy as it is.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is not empty: it holds files that are not part of this cuDNN, such as %2 (%3 in all).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose an empty folder, or a new folder inside this one.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Writing to %1 was refused; administrator rights would allow it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Let the setup run as administrator, or choose a folder you can write to, such as the per-user folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 cannot be written (%2); administrator rights would not help.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose another folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The free space on the drive of %1 could not be read; the installation needs %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The drive of %1 has %2 free, but the installation needs %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Free %1 on that drive, or choose a folder on another drive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is on another drive than %2, so its files cannot be moved into place in one step.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a folder whose subfolders are all on one drive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The name "%1" in %2 is reserved by Windows (a device name, or a name ending in a dot or a space).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose another folder name.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The name "%1" in %2 contains %3, which Windows does not allow in file names.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is too long: its longest file path would have %2 characters, and many programs still cannot open paths of %3 characters or more.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a folder with a shorter path.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>There is no CUDA toolkit in %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No CUDA %1 toolkit that this driver can run is installed for cuDNN for CUDA %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive does not say which CUDA it is for, so no toolkit can be chosen for it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No CUDA %1 toolkit is installed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder (--target dir).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The per-user program folder is not known: LOCALAPPDATA is not set.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give the folder with --target dir:PATH.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" is not a target: use cuda, cuda:VERSION, dir, dir:PATH, user, conda:NAME or venv:PATH.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No target folder is given.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose the folder to install cuDNN into.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The target %1 is a relative path.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give the full path of the folder, with its drive (C:\...).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Another install, uninstall or repair of cuDNN is running.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Wait until it has finished, then try again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Checking whether the DLLs need zlibwapi.dll</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive %1 did not pass its check, so nothing is installed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Run "cudnnctl inspect" on it to see why.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No install with the id %1 was found.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN Setup has installed nothing here.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>There are %1 installs; say which one to remove: %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>These files changed since cuDNN Setup installed them, so nothing is removed: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Put the files back as they were, or remove them yourself if you changed them on purpose.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 was changed since the install, so it is left as it is.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The install journal %1 cannot be written.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Make room on the disk and try again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The install journal %1 cannot be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 cannot be changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Close programs that use it, check that the disk is not full, and try again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Placing %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Unpacking %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Creating %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Removing %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Setting the environment variable %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Adding %1 to PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Taking %1 off PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH changed after it was examined, so the planned changes were not made.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check PATH again, then repeat the step.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The folder %1 cannot be put on PATH: its name contains %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a folder whose name does not contain %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is on PATH more than once; only the first one counts.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove the later copy.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 holds another cuDNN and comes before %2 on PATH, so programs would load that cuDNN instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2 and comes before %3 on PATH, so programs may load that toolkit's libraries instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Move %1 behind %2 on PATH, or remove it from PATH.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 holds another cuDNN; it comes after %2 on PATH, so it does not get in the way.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2; it comes after %3 on PATH, so it does not get in the way.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove it from PATH if nothing uses it any more.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove folders that are no longer needed from PATH.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH would be %1 characters long, more than the %2 characters an environment variable can hold.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH is %1 characters long. The Windows environment variable editor and some older tools cut or refuse values longer than %2 characters.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is not a cuDNN Setup receipt.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>A step of the interrupted install (%1) cannot be undone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>An interrupted install, uninstall or repair had finished its work; it was completed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>An interrupted install, uninstall or repair was found and undone; the system is as it was before it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 needs zlibwapi.dll, and this build of cuDNN Setup has none to install.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Put a 64-bit zlibwapi.dll beside the cuDNN DLLs, or use a build of cuDNN Setup that includes it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Whether %1 needs zlibwapi.dll is unknown: the list of DLLs it imports could not be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is not a Windows DLL: cuDNN cannot load it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove or replace %1; cuDNN Setup puts a 64-bit zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is a %2-bit DLL for %3, not 64-bit x64: cuDNN cannot load it (Windows error 193).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The environment variable %1 in %2 does not hold plain text, so it is left as it is.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Look at the value with the Registry Editor (regedit) and repair or delete it, then try again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The stored environment variable %1 cannot be read or changed on this system.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The environment variable %1 could not be read from %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The environment variable %1 could not be removed from %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The environment variable %1 could not be written to %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Changing the system's environment variables needs an administrator: run the setup as an administrator, or choose the user PATH instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check that your account may change %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Access to the environment variable %1 in %2 was denied.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Starting a program with administrator rights works on Windows only.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Run the command as root instead, for example with sudo.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This account is not an administrator and User Account Control is turned off, so administrator rights cannot be requested.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a per-user target, or sign in as an administrator and run it again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The administrator permission was declined; nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Run it again and choose Yes when Windows asks for permission, or choose a per-user target.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 could not be started with administrator rights.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check that the program exists and that this account may run programs as an administrator.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This runs as the SYSTEM account, so the per-user PATH would be SYSTEM's own and no person's; it is not changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose the system PATH (--path system), or run it as the user whose PATH should change.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The programs that use the files to be replaced cannot be listed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Close the programs that may use cuDNN (Python, Jupyter, IDEs) and try again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Replacing %1 at the next start</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 cannot be replaced at the next start.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN files that would be replaced are in use by: %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Close these programs and try again, or let the files be replaced at the next start of Windows.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 are in use; the cuDNN files they hold are replaced when Windows starts next.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The part that ran with administrator rights left no result (exit code %1).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Windows will ask for administrator rights when the installation starts: %1 is writable only for administrators.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::ArchivePage</name>
    <message>
        <source>Choose the cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN archives (cudnn*.zip);;Zip archives (*.zip);;All files (*)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Checking %1…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose the cuDNN zip you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's file</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Yes: the checksum is the one NVIDIA published for %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No: the checksum differs from the one NVIDIA published</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Unknown: NVIDIA's checksum for it is not in the database</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Holds</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Name says</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 libraries, %2 headers, %3 import libraries; %4 MiB unpacked</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This archive is unsafe and will not be used.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This archive is damaged and will not be used.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This is not a cuDNN archive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive is intact, but it does not fit this computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive is intact and fits; read the notes below.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The archive is intact and fits this computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Your cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The zip from NVIDIA, checked before anything is installed: safe to unpack, intact, and the right one for this computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cudnn-windows-x86_64-…_cudaNN-archive.zip</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Archive file</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Cancel check</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Checking progress</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What the archive is</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not read: nothing is unpacked from an unsafe archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Unknown: the archive has no readable cudnn_version.h</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::FindingsView</name>
    <message>
        <source>What to do: %1</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::HardwarePage</name>
    <message>
        <source>Looking at this computer…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Graphics card</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No NVIDIA GPU found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA GPU</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>compute capability %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 GiB memory</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No NVIDIA driver found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (the newest CUDA it supports is unknown)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1, supports CUDA up to %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1, installed but not working</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>None installed</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 in %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown version</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not installed yet</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>only for programs that look there themselves</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>loaded by default</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>hidden by another copy</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 in %2 (%3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>(version unknown)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1-bit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 without CUDA (CPU only)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>torch %1 for CUDA %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Python</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <source>%n problem(s) must be solved before cuDNN can work on this computer.</source>
        <translation><numerusform>%n problem must be solved before cuDNN can work on this computer.</numerusform><numerusform>%n problems must be solved before cuDNN can work on this computer.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>This computer can run cuDNN; %n thing(s) below deserve a look.</source>
        <translation><numerusform>This computer can run cuDNN; %n thing below deserves a look.</numerusform><numerusform>This computer can run cuDNN; %n things below deserve a look.</numerusform></translation>
    </message>
    <message>
        <source>This computer is ready for cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Save the system report</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The report could not be saved to %1: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Your system</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What this computer has for CUDA and cuDNN, and what is missing.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What was found</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What was found on this computer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Detect again</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Detection progress</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::InstallPage</name>
    <message>
        <source>Command Prompt, PowerShell and Windows Terminal windows</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PyCharm</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Visual Studio Code</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Jupyter (the server, and with it its kernels)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Cancelling: undoing what was done so far…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Estimating the time left…</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <source>About %n second(s) left</source>
        <translation><numerusform>About %n second left</numerusform><numerusform>About %n seconds left</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>About %n minute(s) left</source>
        <translation><numerusform>About %n minute left</numerusform><numerusform>About %n minutes left</numerusform></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (cuDNN %2 for CUDA %3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>the CUDA %1 toolkit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a folder of its own</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a folder for you only</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a conda environment</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>a Python virtual environment</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>DLLs in</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Found through</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 added to the system PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 added to your PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not changed</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH clean-up</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Variables</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY not set</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for all users</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for you</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Administrator</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Needed</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not needed</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Press Install to put cuDNN in place. It takes a minute or two; you can cancel until the end, and then nothing is changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 is installed in %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 was already installed in %2, intact: nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The installation was cancelled. Everything it had done was undone: nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Another installation of cuDNN is running, so this one did not start: nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The installation failed. Everything it had done was undone: nothing was changed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Receipt %1, kept in %2. It lists every file and change, for an uninstall or a repair.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Programs that are already running keep the PATH and variables they started with. Restart these to see the new ones; programs started from now on see them at once:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 (running now)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN is put in place as one step: if anything goes wrong, or you cancel, everything is undone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What will be done</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Install</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Cancel installation</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Installation progress</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What was done</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Move %1 behind the cuDNN folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cuDNN %1 is installed in %2, but some of the files it replaces are in use: Windows puts them in place when it next starts. Restart the computer before you use cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Replace them when Windows next starts</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::MatchPage</name>
    <message>
        <source>—</source>
        <comment>no value</comment>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The newest CUDA version the installed driver can run (nvidia-smi's "CUDA Version"). It is not an installed toolkit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The CUDA toolkit cuDNN goes with (nvcc --version).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No PyTorch was found.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The CUDA version %1 was built for; it brings its own CUDA libraries.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The CUDA major the cuDNN archive is built for (the _cudaNN in its name). It must match the toolkit's major.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Download &lt;b&gt;%1&lt;/b&gt; from NVIDIA's cuDNN archive.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>It goes with the CUDA %1 toolkit in %2.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install the CUDA %1 toolkit first if you build programs yourself; frameworks such as PyTorch bring their own.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NVIDIA's SHA-256: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No cuDNN archive fits this machine as it is; the findings below say why.</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <source>%n problem(s) stand in the way of cuDNN on this computer.</source>
        <translation><numerusform>%n problem stands in the way of cuDNN on this computer.</numerusform><numerusform>%n problems stand in the way of cuDNN on this computer.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>cuDNN fits this computer; %n thing(s) below deserve a look.</source>
        <translation><numerusform>cuDNN fits this computer; %n thing below deserves a look.</numerusform><numerusform>cuDNN fits this computer; %n things below deserve a look.</numerusform></translation>
    </message>
    <message>
        <source>cuDNN fits this computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatibility data: version %1 (%2), built in.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Compatibility data: version %1 (%2) from %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What fits</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Driver, CUDA, cuDNN, graphics card and frameworks, checked against NVIDIA's tables.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA of PyTorch</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Recommended download</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::SetupWizard</name>
    <message>
        <source>cuDNN Setup</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::TargetPage</name>
    <message>
        <source>Remove it from PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Move it behind the cuDNN folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>In the system PATH, which Windows puts before yours:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The folder that holds the cuDNN DLLs: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose the folder for cuDNN</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into the CUDA %1 toolkit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>For building programs with this toolkit (nvcc, CMake, Visual Studio): cuDNN goes beside CUDA's own files, where build tools and CUDA programs already look.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into a folder of its own</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Keeps cuDNN apart from CUDA, so it can be updated or removed on its own; for every user of this computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into a folder for you only</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Only for your user account, in your own profile: for when you cannot or do not want to change the whole computer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into the conda environment %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Only for programs run in this conda environment, such as the PyTorch or TensorFlow installed in it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Into the Python virtual environment %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Only for Python in this virtual environment: a .pth file tells Python where cuDNN is, whatever PATH says.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Needs administrator rights.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No administrator rights needed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 %2</source>
        <comment>what a choice is for, then whether it needs an administrator</comment>
        <translation type="unfinished" />
    </message>
    <message>
        <source>This setup changes PATH and environment variables only on the Windows it runs on, not on Linux nor on a system given with --system-root: cuDNN is installed without them.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH stays as it is: CUDA's installer put this toolkit's DLL folder on it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH stays as it is: conda puts the environment's Library\bin on it when the environment is activated.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH stays as it is: Python 3.8 and later do not use it to find DLLs; the .pth file tells Python where cuDNN is.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Without a PATH entry, only programs you point at the folder yourself find cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Not available on this system.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for all users.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for you only.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Space: %1 needed; the free space on that drive could not be read.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Space: %1 free on that drive, %2 needed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Where cuDNN goes</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose where the files go and how programs will find them. Nothing is changed until you press Install on the next page.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install into</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Folder for cuDNN</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Leave PATH as it is</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Add to my PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Add to the system PATH</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH now</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>PATH after the installation</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is added at the front of the system PATH (for all users), so programs started from now on load this cuDNN.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 is added at the front of your own PATH, so programs started from now on load this cuDNN.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::WelcomePage</name>
    <message>
        <source>Welcome to cuDNN Setup</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Install NVIDIA cuDNN so that it loads, and prove that it works.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&lt;p&gt;This wizard looks at this computer first: its NVIDIA GPU and driver, the CUDA toolkits, every copy of cuDNN already on it, and the Python interpreters that will use it.&lt;/p&gt;&lt;p&gt;It tells you in plain words what is there, what is missing, and why it matters. Nothing on your computer is changed until you say so.&lt;/p&gt;</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished" />
    </message>
</context>
</TS>
