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
</context>
<context>
    <name>cudnnctl</name>
    <message>
        <source>Run &quot;cudnnctl --help&quot; for the commands and options.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command to run: detect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print JSON (schema cudnn-setup/snapshot/1) instead of a table.</source>
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
        <source>Finds out what a machine has for NVIDIA cuDNN: GPUs, driver, CUDA toolkits, cuDNN
copies and the Python interpreters that use them.

Commands:
  detect    Show the GPUs, driver, CUDA toolkits, cuDNN copies and Python
            interpreters of this system (or of --system-root).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds to wait for nvidia-smi and nvcc (default 15) and for each Python interpreter (default 10).</source>
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
    <message>
        <source>What to do: %1</source>
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
