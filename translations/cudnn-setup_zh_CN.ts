<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>cudnn-setup</name>
    <message>
        <source>cuDNN Setup</source>
        <translation>cuDNN 安装向导</translation>
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation>系统根目录 %1 不是一个文件夹。</translation>
    </message>
    <message>
        <source>Language of the wizard: en or zh_CN.</source>
        <translation>向导使用的语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation>检查文件位于 DIR 下的系统（例如挂载的镜像或测试沙箱）。</translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation>同时把日志写入 FILE。</translation>
    </message>
</context>
<context>
    <name>cudnnctl</name>
    <message>
        <source>Run "cudnnctl --help" for the commands and options.</source>
        <translation>运行 "cudnnctl --help" 查看可用的命令和选项。</translation>
    </message>
    <message>
        <source>The command to run: detect.</source>
        <translation>要运行的命令：detect。</translation>
    </message>
    <message>
        <source>Print JSON (schema cudnn-setup/snapshot/1) instead of a table.</source>
        <translation>输出 JSON（格式 cudnn-setup/snapshot/1），而不是表格。</translation>
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation>检查文件位于 DIR 下的系统（例如挂载的镜像或测试沙箱）。</translation>
    </message>
    <message>
        <source>Language of messages: en or zh_CN.</source>
        <translation>提示信息的语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Do not ask Python interpreters about torch (faster).</source>
        <translation>不询问 Python 解释器的 torch 信息（速度更快）。</translation>
    </message>
    <message>
        <source>Log what is looked at to stderr.</source>
        <translation>把检查过程的日志输出到 stderr。</translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation>同时把日志写入 FILE。</translation>
    </message>
    <message>
        <source>The log file %1 cannot be written.</source>
        <translation>无法写入日志文件 %1。</translation>
    </message>
    <message>
        <source>No command given.</source>
        <translation>没有指定命令。</translation>
    </message>
    <message>
        <source>Unknown command "%1".</source>
        <translation>未知命令“%1”。</translation>
    </message>
    <message>
        <source>Unexpected argument "%1".</source>
        <translation>多余的参数“%1”。</translation>
    </message>
    <message>
        <source>--tool-timeout needs a number of seconds between 0 and 3600.</source>
        <translation>--tool-timeout 需要一个 0 到 3600 之间的秒数。</translation>
    </message>
    <message>
        <source>The system root %1 is not a folder.</source>
        <translation>系统根目录 %1 不是一个文件夹。</translation>
    </message>
    <message>
        <source>Finds out what a machine has for NVIDIA cuDNN: GPUs, driver, CUDA toolkits, cuDNN
copies and the Python interpreters that use them.

Commands:
  detect    Show the GPUs, driver, CUDA toolkits, cuDNN copies and Python
            interpreters of this system (or of --system-root).</source>
        <translation>查明一台机器上与 NVIDIA cuDNN 有关的一切：显卡、驱动、CUDA 工具包、
cuDNN 副本，以及会用到它们的 Python 解释器。

命令：
  detect    列出本机（或 --system-root 指定的系统）的显卡、驱动、CUDA 工具包、
            cuDNN 副本和 Python 解释器。</translation>
    </message>
    <message>
        <source>Seconds to wait for nvidia-smi and nvcc (default 15) and for each Python interpreter (default 10).</source>
        <translation>等待 nvidia-smi 和 nvcc 的秒数（默认 15），以及等待每个 Python 解释器的秒数（默认 10）。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation>这不是 cuDNN Setup 的系统快照（应为 %1 格式）。</translation>
    </message>
    <message>
        <source>The file %1 could not be read.</source>
        <translation>无法读取文件 %1。</translation>
    </message>
    <message>
        <source>The file %1 is unexpectedly large and was not read.</source>
        <translation>文件 %1 大得异常，已跳过读取。</translation>
    </message>
    <message>
        <source>The file is not a Linux program or library (ELF format).</source>
        <translation>该文件不是 Linux 程序或库（ELF 格式）。</translation>
    </message>
    <message>
        <source>The file ends inside its ELF header; it is probably an incomplete download or copy.</source>
        <translation>文件在 ELF 头中途就结束了，可能是下载或复制不完整。</translation>
    </message>
    <message>
        <source>The ELF header of the file is damaged.</source>
        <translation>该文件的 ELF 头已损坏。</translation>
    </message>
    <message>
        <source>The file is not a Windows program or DLL (PE format).</source>
        <translation>该文件不是有效的 Windows 程序或 DLL（PE 格式）。</translation>
    </message>
    <message>
        <source>The file ends inside its PE headers; it is probably an incomplete download or copy.</source>
        <translation>文件在 PE 头中途就结束了，可能是下载或复制不完整。</translation>
    </message>
    <message>
        <source>The PE headers of the file are damaged; Windows would not load it.</source>
        <translation>该文件的 PE 头已损坏，Windows 无法加载它。</translation>
    </message>
    <message>
        <source>The file is shorter than its headers say; it is probably an incomplete download or copy.</source>
        <translation>文件比其头部声明的长度短，可能是下载或复制不完整。</translation>
    </message>
    <message>
        <source>The list of DLLs this file depends on is damaged; it was read only in part.</source>
        <translation>该文件所依赖的 DLL 列表已损坏，只读取到了一部分。</translation>
    </message>
    <message>
        <source>The version information of the file is damaged and was not read.</source>
        <translation>该文件的版本信息已损坏，未能读取。</translation>
    </message>
    <message>
        <source>The digital signature table of the file is damaged.</source>
        <translation>该文件的数字签名表已损坏。</translation>
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation>无法读取该文件。</translation>
    </message>
    <message>
        <source>The CUDA version file %1 could not be understood; the version was taken from elsewhere.</source>
        <translation>无法解析 CUDA 版本文件 %1，版本号改从其他来源获取。</translation>
    </message>
    <message>
        <source>No CUDA toolkit was found. cuDNN can still go into its own folder, a conda environment or a Python virtual environment; programs that build CUDA code need the toolkit.</source>
        <translation>没有找到 CUDA 工具包。cuDNN 仍可以装到单独的文件夹、conda 环境或 Python 虚拟环境中；但编译 CUDA 代码的程序需要工具包。</translation>
    </message>
    <message>
        <source>Install the CUDA toolkit that matches your driver from developer.nvidia.com/cuda-downloads if you compile CUDA code.</source>
        <translation>如果需要编译 CUDA 代码，请从 developer.nvidia.com/cuda-downloads 安装与驱动匹配的 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Programs load %1 (cuDNN %2); the other copies on the search path are never used: %3.</source>
        <translation>程序实际加载的是 %1（cuDNN %2）；搜索路径上的其他副本永远不会被用到：%3。</translation>
    </message>
    <message>
        <source>Keep one cuDNN on the search path: remove the folders of the copies you do not use from PATH, or let Repair do it.</source>
        <translation>搜索路径上只保留一份 cuDNN：把不用的副本所在文件夹从 PATH 中移除，或者交给“修复”来处理。</translation>
    </message>
    <message>
        <source>No cuDNN was found on this system.</source>
        <translation>本机上没有找到 cuDNN。</translation>
    </message>
    <message>
        <source>Inspecting the files under %1. Registry values and the live driver belong to the running system and are reported as unknown.</source>
        <translation>正在检查 %1 下的文件。注册表和正在运行的驱动属于当前系统，因此这些信息标记为未知。</translation>
    </message>
    <message>
        <source>Reading the operating system</source>
        <translation>正在读取操作系统信息</translation>
    </message>
    <message>
        <source>Asking the NVIDIA driver about the GPUs</source>
        <translation>正在向 NVIDIA 驱动查询显卡信息</translation>
    </message>
    <message>
        <source>Looking for CUDA toolkits</source>
        <translation>正在查找 CUDA 工具包</translation>
    </message>
    <message>
        <source>Looking for cuDNN copies</source>
        <translation>正在查找 cuDNN 副本</translation>
    </message>
    <message>
        <source>Asking the Python interpreters about torch</source>
        <translation>正在询问 Python 解释器的 torch 信息</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>CUDA_PATH points to %1, which is not a CUDA toolkit.</source>
        <translation>CUDA_PATH 指向 %1，但那里不是 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Remove CUDA_PATH, or install the CUDA toolkit it should point to.</source>
        <translation>删除 CUDA_PATH，或者安装它应当指向的 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Point CUDA_PATH at the toolkit you use (for example %1), or remove it.</source>
        <translation>把 CUDA_PATH 改为你实际使用的工具包（例如 %1），或者删除它。</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES is set to "%1", which hides every GPU from CUDA programs.</source>
        <translation>CUDA_VISIBLE_DEVICES 被设为“%1”，CUDA 程序因此看不到任何显卡。</translation>
    </message>
    <message>
        <source>Remove CUDA_VISIBLE_DEVICES, or set it to the GPUs programs should use (for example 0).</source>
        <translation>删除 CUDA_VISIBLE_DEVICES，或者把它设为程序应使用的显卡（例如 0）。</translation>
    </message>
    <message>
        <source>CUDA programs see only the GPUs listed in CUDA_VISIBLE_DEVICES (%1).</source>
        <translation>CUDA 程序只能看到 CUDA_VISIBLE_DEVICES 中列出的显卡（%1）。</translation>
    </message>
    <message>
        <source>PATH changed after this program was started; programs started from the same window do not see the change yet.</source>
        <translation>本程序启动之后 PATH 又被修改过；从同一个窗口启动的程序还看不到这些改动。</translation>
    </message>
    <message>
        <source>Open a new terminal (or sign out and in again) before you run CUDA programs.</source>
        <translation>运行 CUDA 程序之前，请先打开一个新的终端（或者注销后重新登录）。</translation>
    </message>
    <message>
        <source>nvidia-smi did not answer within %1 seconds and was stopped.</source>
        <translation>nvidia-smi 在 %1 秒内没有响应，已被终止。</translation>
    </message>
    <message>
        <source>The driver may be hung. Restart the computer and run this again.</source>
        <translation>驱动可能卡住了。请重启电脑后再运行一次。</translation>
    </message>
    <message>
        <source>nvidia-smi could not be started.</source>
        <translation>无法启动 nvidia-smi。</translation>
    </message>
    <message>
        <source>The NVIDIA driver was updated, but the old one is still running.</source>
        <translation>NVIDIA 驱动已经更新，但正在运行的仍是旧驱动。</translation>
    </message>
    <message>
        <source>Restart the computer to finish the driver update.</source>
        <translation>请重启电脑以完成驱动更新。</translation>
    </message>
    <message>
        <source>A GPU stopped responding to the driver.</source>
        <translation>有一块显卡不再响应驱动。</translation>
    </message>
    <message>
        <source>Restart the computer. If it happens again, check the GPU's power cables and cooling.</source>
        <translation>请重启电脑。如果问题再次出现，请检查显卡的供电线和散热。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is running but sees no GPU.</source>
        <translation>NVIDIA 驱动在运行，但没有识别到任何显卡。</translation>
    </message>
    <message>
        <source>Check that the GPU is seated and enabled in the firmware settings, and that the installed driver supports it.</source>
        <translation>请确认显卡已插好、在 BIOS/UEFI 中已启用，并且当前安装的驱动支持这块显卡。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is installed but does not respond.</source>
        <translation>NVIDIA 驱动已安装，但没有响应。</translation>
    </message>
    <message>
        <source>Restart the computer. If that does not help, reinstall the NVIDIA driver (choose a clean installation).</source>
        <translation>请重启电脑。如果仍然不行，请重新安装 NVIDIA 驱动（选择“执行清洁安装”）。</translation>
    </message>
    <message>
        <source>The driver did not say which CUDA versions it supports (nvidia-smi printed "%1").</source>
        <translation>驱动没有给出它支持的 CUDA 版本（nvidia-smi 显示为“%1”）。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found. cuDNN runs only on NVIDIA GPUs.</source>
        <translation>没有找到 NVIDIA 显卡。cuDNN 只能在 NVIDIA 显卡上运行。</translation>
    </message>
    <message>
        <source>If this computer has an NVIDIA GPU, install its driver from nvidia.com and run this again.</source>
        <translation>如果这台电脑装有 NVIDIA 显卡，请从 nvidia.com 安装驱动后再运行一次。</translation>
    </message>
    <message>
        <source>An NVIDIA GPU (%1) is present, but no NVIDIA driver is installed.</source>
        <translation>检测到 NVIDIA 显卡（%1），但没有安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers, restart, and run this again.</source>
        <translation>请从 nvidia.com/drivers 安装适用于这块显卡的最新驱动，重启后再运行一次。</translation>
    </message>
    <message>
        <source>The output of nvidia-smi could not be read.</source>
        <translation>nvidia-smi 的输出无法解析。</translation>
    </message>
    <message>
        <source>This is Windows on ARM. NVIDIA publishes cuDNN for Windows only for x64 PCs.</source>
        <translation>这是 ARM 版 Windows。NVIDIA 只为 x64 电脑提供 Windows 版 cuDNN。</translation>
    </message>
    <message>
        <source>Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN.</source>
        <translation>请在装有 NVIDIA 显卡的 x64 电脑上使用 CUDA 和 cuDNN。</translation>
    </message>
    <message>
        <source>This is WSL 1, which cannot use the GPU.</source>
        <translation>当前是 WSL 1，无法使用显卡。</translation>
    </message>
    <message>
        <source>Convert the distribution to WSL 2 (wsl --set-version &lt;name&gt; 2) and run this again inside it.</source>
        <translation>请把该发行版转换为 WSL 2（wsl --set-version &lt;名称&gt; 2），然后在其中再运行一次。</translation>
    </message>
    <message>
        <source>This is Linux under WSL 2. The GPU driver comes from Windows; cuDNN must be installed here, inside Linux, for Linux programs.</source>
        <translation>当前是 WSL 2 中的 Linux。显卡驱动由 Windows 提供；而 Linux 程序使用的 cuDNN 必须装在这里，也就是 Linux 里面。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver on Windows only (never a Linux driver inside WSL), and the Linux cuDNN archive inside this distribution.</source>
        <translation>NVIDIA 驱动只在 Windows 上安装（切勿在 WSL 中安装 Linux 驱动），并在这个发行版里安装 Linux 版 cuDNN 压缩包。</translation>
    </message>
    <message>
        <source>The Python interpreter %1 could not be asked about its torch build.</source>
        <translation>无法向 Python 解释器 %1 查询它的 torch 版本信息。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>note</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Inspected root</source>
        <translation>检查的根目录</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>compute capability %1</source>
        <translation>计算能力 %1</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>显卡 %1</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>newest supported CUDA unknown</source>
        <translation>支持的最高 CUDA 版本未知</translation>
    </message>
    <message>
        <source>supports CUDA up to %1</source>
        <translation>最高支持 CUDA %1</translation>
    </message>
    <message>
        <source>NOT WORKING</source>
        <translation>无法工作</translation>
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>for CUDA %1</source>
        <translation>适用于 CUDA %1</translation>
    </message>
    <message>
        <source>not on the search path</source>
        <translation>不在搜索路径上</translation>
    </message>
    <message>
        <source>loaded by default</source>
        <translation>默认加载</translation>
    </message>
    <message>
        <source>shadowed (#%1 on the search path)</source>
        <translation>被遮蔽（搜索路径上排第 %1）</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>%1-bit</source>
        <translation>%1 位</translation>
    </message>
    <message>
        <source>torch %1 (CPU only)</source>
        <translation>torch %1（仅 CPU）</translation>
    </message>
    <message>
        <source>torch %1 (CUDA %2, cuDNN %3)</source>
        <translation>torch %1（CUDA %2，cuDNN %3）</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>The compatibility database is not valid.</source>
        <translation>兼容性数据库无效。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::HardwarePage</name>
    <message>
        <source>Looking at this computer…</source>
        <translation>正在检查这台电脑……</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Graphics card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found</source>
        <translation>未找到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>NVIDIA GPU</source>
        <translation>NVIDIA 显卡</translation>
    </message>
    <message>
        <source>compute capability %1</source>
        <translation>计算能力 %1</translation>
    </message>
    <message>
        <source>%1 GiB memory</source>
        <translation>显存 %1 GiB</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>No NVIDIA driver found</source>
        <translation>未找到 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>%1 (the newest CUDA it supports is unknown)</source>
        <translation>%1（支持的最高 CUDA 版本未知）</translation>
    </message>
    <message>
        <source>%1, supports CUDA up to %2</source>
        <translation>%1，最高支持 CUDA %2</translation>
    </message>
    <message>
        <source>%1, installed but not working</source>
        <translation>%1，已安装但无法工作</translation>
    </message>
    <message>
        <source>CUDA toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <source>None installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>unknown version</source>
        <translation>版本未知</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>Not installed yet</source>
        <translation>尚未安装</translation>
    </message>
    <message>
        <source>only for programs that look there themselves</source>
        <translation>只有自己会去那里找的程序才用得到</translation>
    </message>
    <message>
        <source>loaded by default</source>
        <translation>默认加载</translation>
    </message>
    <message>
        <source>hidden by another copy</source>
        <translation>被另一份副本遮蔽</translation>
    </message>
    <message>
        <source>%1 in %2 (%3)</source>
        <translation>%1，位于 %2（%3）</translation>
    </message>
    <message>
        <source>(version unknown)</source>
        <translation>（版本未知）</translation>
    </message>
    <message>
        <source>%1-bit</source>
        <translation>%1 位</translation>
    </message>
    <message>
        <source>torch %1 without CUDA (CPU only)</source>
        <translation>torch %1，不含 CUDA（仅 CPU）</translation>
    </message>
    <message>
        <source>torch %1 for CUDA %2</source>
        <translation>torch %1，适用于 CUDA %2</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) must be solved before cuDNN can work on this computer.</source>
        <translation><numerusform>要让 cuDNN 在这台电脑上工作，还需要先解决 %n 个问题。</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>This computer can run cuDNN; %n thing(s) below deserve a look.</source>
        <translation><numerusform>这台电脑可以运行 cuDNN；下面有 %n 项值得留意。</numerusform></translation>
    </message>
    <message>
        <source>This computer is ready for cuDNN.</source>
        <translation>这台电脑已经可以使用 cuDNN。</translation>
    </message>
    <message>
        <source>Save the system report</source>
        <translation>保存系统报告</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>The report could not be saved to %1: %2</source>
        <translation>无法把报告保存到 %1：%2</translation>
    </message>
    <message>
        <source>Your system</source>
        <translation>你的系统</translation>
    </message>
    <message>
        <source>What this computer has for CUDA and cuDNN, and what is missing.</source>
        <translation>这台电脑上与 CUDA 和 cuDNN 有关的组件，以及还缺少什么。</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>What was found</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <source>What was found on this computer</source>
        <translation>在这台电脑上检测到的内容</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>&amp;Detect again</source>
        <translation>重新检测(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation>保存报告(&amp;S)…</translation>
    </message>
    <message>
        <source>Detection progress</source>
        <translation>检测进度</translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::SetupWizard</name>
    <message>
        <source>cuDNN Setup</source>
        <translation>cuDNN 安装向导</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::WelcomePage</name>
    <message>
        <source>Welcome to cuDNN Setup</source>
        <translation>欢迎使用 cuDNN 安装向导</translation>
    </message>
    <message>
        <source>Install NVIDIA cuDNN so that it loads, and prove that it works.</source>
        <translation>安装 NVIDIA cuDNN，确保它能被正确加载，并验证它确实可用。</translation>
    </message>
    <message>
        <source>&lt;p&gt;This wizard looks at this computer first: its NVIDIA GPU and driver, the CUDA toolkits, every copy of cuDNN already on it, and the Python interpreters that will use it.&lt;/p&gt;&lt;p&gt;It tells you in plain words what is there, what is missing, and why it matters. Nothing on your computer is changed until you say so.&lt;/p&gt;</source>
        <translation>&lt;p&gt;本向导会先检查这台电脑：NVIDIA 显卡和驱动、CUDA 工具包、电脑上已有的每一份 cuDNN，以及将要使用它的 Python 解释器。&lt;/p&gt;&lt;p&gt;它会用通俗的话告诉你：已经有什么、还缺什么、为什么重要。在你确认之前，电脑上的任何内容都不会被改动。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
</context>
</TS>
