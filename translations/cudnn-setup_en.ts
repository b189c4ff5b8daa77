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
        <source>Language of the wizard: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
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
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language of messages: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not ask Python interpreters about torch (faster).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log what is looked at to stderr.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
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
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
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
        <source>check: as if the NVIDIA driver were version V.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check: as if the CUDA toolkit were version V.</source>
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
        <source>check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 belongs to the check command.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finds out what a machine has for NVIDIA cuDNN and what fits it.

Commands:
  detect    Show the GPUs, driver, CUDA toolkits, cuDNN copies and Python
            interpreters of this system (or of --system-root).
  check     Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA&apos;s
            tables and name the archive to download. Values not given with
            --os --arch --driver --cuda --sm --gpu --cudnn come from detection.
  inspect   Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA&apos;s own
            file, and which cuDNN for which CUDA it truly holds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command to run: detect, check or inspect ZIP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This build has no zip backend &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: cudnn-setup/archive/1).</source>
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
        <source>--%1 belongs to the inspect command.</source>
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
        <source>%1 MiB</source>
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
        <source>The compute capability of %1 is not in the database; the checks that need it are skipped.</source>
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
        <source>Update the driver to the R%1 branch or newer.</source>
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
        <source>NVIDIA published no support matrix for cuDNN %1; the nearest earlier one (cuDNN %2 for CUDA %3) lists %4, and this toolkit is %5. It usually works, but that combination is not known to be tested.</source>
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
        <source>&quot;%1&quot; declares more than %2 GiB, far more than any cuDNN file (%3 in all).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GiB when unpacked, beyond the %3 entries and %4 GiB any cuDNN archive stays within.</source>
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
        <source>Name says</source>
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
        <source>%1 in the archive %2 is stored in the Zip64 format, which this build cannot read.</source>
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
        <source>Choose the cuDNN zip you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
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
        <source>Holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name says</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 libraries, %2 headers, %3 import libraries; %4 MiB unpacked</source>
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
        <source>The archive is intact, but it does not fit this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive is intact and fits; read the notes below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive is intact and fits this computer.</source>
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
        <source>cudnn-windows-x86_64-…_cudaNN-archive.zip</source>
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
        <source>Checking progress</source>
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
</context>
<context>
    <name>cudnnsetup::wizard::FindingsView</name>
    <message>
        <source>What to do: %1</source>
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
        <source>%1 GiB memory</source>
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
    <message numerus="yes">
        <source>This computer can run cuDNN; %n thing(s) below deserve a look.</source>
        <translation>
            <numerusform>This computer can run cuDNN; %n thing below deserves a look.</numerusform>
            <numerusform>This computer can run cuDNN; %n things below deserve a look.</numerusform>
        </translation>
    </message>
    <message>
        <source>This computer is ready for cuDNN.</source>
        <translation type="unfinished"></translation>
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
</context>
<context>
    <name>cudnnsetup::wizard::MatchPage</name>
    <message>
        <source>—</source>
        <comment>no value</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The newest CUDA version the installed driver can run (nvidia-smi&apos;s &quot;CUDA Version&quot;). It is not an installed toolkit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA toolkit cuDNN goes with (nvcc --version).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
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
    <message numerus="yes">
        <source>cuDNN fits this computer; %n thing(s) below deserve a look.</source>
        <translation>
            <numerusform>cuDNN fits this computer; %n thing below deserves a look.</numerusform>
            <numerusform>cuDNN fits this computer; %n things below deserve a look.</numerusform>
        </translation>
    </message>
    <message>
        <source>cuDNN fits this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility data: version %1 (%2), built in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility data: version %1 (%2) from %3.</source>
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
</context>
<context>
    <name>cudnnsetup::wizard::SetupWizard</name>
    <message>
        <source>cuDNN Setup</source>
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
        <source>&lt;p&gt;This wizard looks at this computer first: its NVIDIA GPU and driver, the CUDA toolkits, every copy of cuDNN already on it, and the Python interpreters that will use it.&lt;/p&gt;&lt;p&gt;It tells you in plain words what is there, what is missing, and why it matters. Nothing on your computer is changed until you say so.&lt;/p&gt;</source>
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
</context>
</TS>
