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
        <source>The cuDNN Setup wizard. With --unattended it installs, repairs or uninstalls without a window and exits with the Windows installer codes (0, 3010, 1602, 1603, 1618, 87).

Windows starts this program without waiting for it: a script sees its exit code only with &quot;start /wait cudnn-setup.exe --unattended ...&quot; or &quot;Start-Process -Wait -PassThru&quot;. For scripts, cudnnctl (install, uninstall, status) is the better tool: a console program with the same exit codes.</source>
        <translation>cuDNN 安装向导。加上 --unattended 时不显示窗口，直接安装、修复或卸载，并以 Windows 安装程序的退出码（0、3010、1602、1603、1618、87）结束。

Windows 启动本程序后不会等待它结束：脚本只有用“start /wait cudnn-setup.exe --unattended ...”或“Start-Process -Wait -PassThru”才能拿到退出码。编写脚本时更推荐使用 cudnnctl（install、uninstall、status）：它是控制台程序，退出码相同。</translation>
    </message>
    <message>
        <source>Run without a window (see the options below); the log and a JSON result are written, the exit code says how it went.</source>
        <translation>不显示窗口运行（选项见下）；会写日志和一份 JSON 结果，退出码表示执行结果。</translation>
    </message>
    <message>
        <source>--unattended: read the [setup] settings from this INI file (options given here override it).</source>
        <translation>--unattended：从这个 INI 文件的 [setup] 节读取设置（命令行上给出的选项优先）。</translation>
    </message>
    <message>
        <source>--unattended: install (default), repair or uninstall.</source>
        <translation>--unattended：install（默认）、repair 或 uninstall。</translation>
    </message>
    <message>
        <source>--unattended: the cuDNN archive (ZIP) to install.</source>
        <translation>--unattended：要安装的 cuDNN 压缩包（.zip）。</translation>
    </message>
    <message>
        <source>--unattended: where to install: cuda[:VERSION], dir[:PATH], user, conda:ENV or venv:PATH.</source>
        <translation>--unattended：安装位置：cuda[:VERSION]、dir[:PATH]、user、conda:ENV 或 venv:PATH。</translation>
    </message>
    <message>
        <source>--unattended: which PATH gets the DLL folder: user, system or none.</source>
        <translation>--unattended：把 DLL 文件夹加入哪个 PATH：user、system 或 none。</translation>
    </message>
    <message>
        <source>--unattended: do not verify the install.</source>
        <translation>--unattended：安装后不做验证。</translation>
    </message>
    <message>
        <source>--unattended --action uninstall: the install to remove.</source>
        <translation>--unattended --action uninstall：要卸载的那次安装。</translation>
    </message>
    <message>
        <source>--%1 belongs to --unattended.</source>
        <translation>--%1 只能和 --unattended 一起用。</translation>
    </message>
    <message>
        <source>--unattended: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.</source>
        <translation>--unattended：同时为当前用户或整个系统设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY。</translation>
    </message>
    <message>
        <source>--unattended: when programs hold files to be replaced: fail or restart (replace them now; those programs keep the old ones until they restart, 3010).</source>
        <translation>--unattended：要替换的文件正被程序使用时怎么办：fail（失败）或 restart（立即替换；这些程序在重新启动前仍使用旧文件，返回 3010）。</translation>
    </message>
    <message>
        <source>--unattended without --archive: where to download the recommended archive from: NVIDIA (default), a mirror&apos;s URL, or a folder or share.</source>
        <translation>--unattended 且未给出 --archive 时：从哪里下载推荐的压缩包：NVIDIA（默认）、镜像的网址，或文件夹或共享文件夹。</translation>
    </message>
</context>
<context>
    <name>cudnnctl</name>
    <message>
        <source>Run &quot;cudnnctl --help&quot; for the commands and options.</source>
        <translation>运行“cudnnctl --help”查看命令和选项。</translation>
    </message>
    <message>
        <source>Log what is looked at to stderr.</source>
        <translation>把检查过程的日志输出到 stderr。</translation>
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
        <source>Unknown command &quot;%1&quot;.</source>
        <translation>未知命令“%1”。</translation>
    </message>
    <message>
        <source>Unexpected argument &quot;%1&quot;.</source>
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
        <source>Seconds to wait for nvidia-smi and nvcc (default 15) and for each Python interpreter (default 10).</source>
        <translation>等待 nvidia-smi 和 nvcc 的秒数（默认 15），以及等待每个 Python 解释器的秒数（默认 10）。</translation>
    </message>
    <message>
        <source>check: as if the system were windows or linux.</source>
        <translation>check：假定系统为 windows 或 linux。</translation>
    </message>
    <message>
        <source>check: as if the processor were x86_64 or arm64.</source>
        <translation>check：假定处理器为 x86_64 或 arm64。</translation>
    </message>
    <message>
        <source>check: as if the GPU&apos;s compute capability were X.Y.</source>
        <translation>check：假定显卡的计算能力为 X.Y。</translation>
    </message>
    <message>
        <source>check: as if the GPU were NAME (its compute capability is looked up).</source>
        <translation>check：假定显卡型号为 NAME（据此查出其计算能力）。</translation>
    </message>
    <message>
        <source>This build has no zip backend &quot;%1&quot;.</source>
        <translation>本版本没有名为“%1”的 ZIP 读取后端。</translation>
    </message>
    <message>
        <source>inspect: read the archive with quazip or minizip (default: the first this build has).</source>
        <translation>inspect：用 quazip 或 minizip 读取压缩包（默认用本版本自带的第一个）。</translation>
    </message>
    <message>
        <source>inspect needs the archive to check: cudnnctl inspect FILE.zip</source>
        <translation>inspect 需要指定要检查的压缩包：cudnnctl inspect FILE.zip</translation>
    </message>
    <message>
        <source>Installed.</source>
        <translation>安装完成。</translation>
    </message>
    <message>
        <source>Uninstalled.</source>
        <translation>卸载完成。</translation>
    </message>
    <message>
        <source>Already installed there; nothing to do.</source>
        <translation>该位置已安装相同版本，无需操作。</translation>
    </message>
    <message>
        <source>Dry run: nothing was changed. The steps would be:</source>
        <translation>试运行（dry run）：没有做任何更改。实际执行时的步骤如下：</translation>
    </message>
    <message>
        <source>Cancelled; everything done was undone.</source>
        <translation>已取消；已做的改动全部撤销。</translation>
    </message>
    <message>
        <source>Failed; nothing was changed.</source>
        <translation>失败；没有做任何更改。</translation>
    </message>
    <message>
        <source>Another install is running.</source>
        <translation>另一个安装正在进行。</translation>
    </message>
    <message>
        <source>Receipt %1: %2</source>
        <translation>安装记录 %1：%2</translation>
    </message>
    <message>
        <source>install: which PATH gets the DLL folder: user, system or none (default: the target&apos;s own choice).</source>
        <translation>install：把 DLL 文件夹加入哪个 PATH：user、system 或 none（默认：按安装位置的惯例）。</translation>
    </message>
    <message>
        <source>install: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY, for the user or the system.</source>
        <translation>install：同时为当前用户或整个系统设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY。</translation>
    </message>
    <message>
        <source>install, uninstall: show the steps, change nothing.</source>
        <translation>install、uninstall：只列出步骤，不做任何更改。</translation>
    </message>
    <message>
        <source>Apply: %1? [y/N] </source>
        <translation>是否执行：%1？[y/N] </translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>没有做任何改动。</translation>
    </message>
    <message>
        <source>After the repairs:</source>
        <translation>修复之后：</translation>
    </message>
    <message>
        <source>Undo them with: cudnnctl uninstall %1</source>
        <translation>如需撤销，请运行：cudnnctl uninstall %1</translation>
    </message>
    <message>
        <source>install: the cuDNN archive (ZIP) to install; doctor: the archive to replace damaged or mismatched files from.</source>
        <translation>install：要安装的 cuDNN 压缩包（.zip）；doctor：用来替换损坏或不匹配文件的压缩包。</translation>
    </message>
    <message>
        <source>verify: ask torch in this Python interpreter (may be given more than once; default: each one found with torch).</source>
        <translation>verify：在这个 Python 解释器中查询 torch（可多次指定；默认：所有检测到的装有 torch 的解释器）。</translation>
    </message>
    <message>
        <source>verify: skip the GPU stage (handle and convolution).</source>
        <translation>verify：跳过在显卡上运行的测试（创建句柄和卷积）。</translation>
    </message>
    <message>
        <source>verify, report: do not ask torch.</source>
        <translation>verify、report：不查询 torch。</translation>
    </message>
    <message>
        <source>doctor: apply the repairs it offers, each after asking.</source>
        <translation>doctor：执行它提供的修复，每项执行前先询问。</translation>
    </message>
    <message>
        <source>doctor --fix: apply every offered repair without asking.</source>
        <translation>doctor --fix：不再询问，执行全部提供的修复。</translation>
    </message>
    <message>
        <source>--%1 belongs to the %2 command.</source>
        <translation>--%1 只能用于 %2 命令。</translation>
    </message>
    <message>
        <source>The result could not be recorded beside the receipt: %1</source>
        <translation>未能把结果记录到安装记录旁边：%1</translation>
    </message>
    <message>
        <source>Installed; restart Windows to finish (the findings say why).</source>
        <translation>已安装；需要重启 Windows 才能完成（原因见下面的提示）。</translation>
    </message>
    <message>
        <source>install: where to: cuda[:VERSION], dir[:PATH], user[:PATH], conda:ENV or venv:PATH (default: the toolkit that fits, else its own folder); verify: which install to check (default: the last one cuDNN Setup made, else what a new program loads).</source>
        <translation>install：安装位置：cuda[:VERSION]、dir[:PATH]、user[:PATH]、conda:ENV 或 venv:PATH（默认：匹配的 CUDA 工具包，没有则安装到独立文件夹）；verify：要检查哪一份安装（默认：cuDNN 安装向导最近一次的安装，没有则检查新启动的程序会加载的那份）。</translation>
    </message>
    <message>
        <source>install: when programs hold files to be replaced: fail (default) or restart (replace them now, as an administrator; those programs keep the old ones until they restart, exit 3010).</source>
        <translation>install：要替换的文件正被程序使用时怎么办：fail（默认，失败）或 restart（以管理员身份立即替换；这些程序在重新启动前仍使用旧文件，退出码 3010）。</translation>
    </message>
    <message>
        <source>--platform must be one of %1.</source>
        <translation>--platform 只能是 %1 之一。</translation>
    </message>
    <message>
        <source>%1 holds no certificate (PEM or DER).</source>
        <translation>%1 中没有证书（PEM 或 DER 格式）。</translation>
    </message>
    <message>
        <source>No archive fits this machine yet, so there is nothing to download; name one with --cudnn and --cuda.</source>
        <translation>目前没有适合这台电脑的压缩包，因此无可下载；请用 --cudnn 和 --cuda 指定一个。</translation>
    </message>
    <message>
        <source>--cudnn needs a version such as 9.10.2 or 9.10.2.21.</source>
        <translation>--cudnn 需要一个版本号，例如 9.10.2 或 9.10.2.21。</translation>
    </message>
    <message>
        <source>Add --cuda with the CUDA major the archive is for (for example --cuda 12).</source>
        <translation>请加上 --cuda，写明压缩包对应的 CUDA 主版本（例如 --cuda 12）。</translation>
    </message>
    <message>
        <source>cuDNN %1 comes for more than one CUDA: add %2.</source>
        <translation>cuDNN %1 有面向多个 CUDA 版本的压缩包：请加上 %2。</translation>
    </message>
    <message>
        <source>--cuda needs the CUDA major, such as 12 or 13.</source>
        <translation>--cuda 需要 CUDA 主版本号，例如 12 或 13。</translation>
    </message>
    <message>
        <source>check: as if the CUDA toolkit were version V; download: the CUDA major of the archive (the _cudaNN of its name).</source>
        <translation>check：假定 CUDA 工具包版本为 V；download：压缩包对应的 CUDA 主版本（文件名中的 _cudaNN）。</translation>
    </message>
    <message>
        <source>check: the cuDNN to judge: a version (8.9.7, 8.9.7.29) or an NVIDIA archive file name; download: the version to get (default: what check recommends); status: the version the install must have (9.1 matches 9.1.0.70).</source>
        <translation>check：要评判的 cuDNN：版本号（8.9.7、8.9.7.29）或 NVIDIA 压缩包的文件名；download：要下载的版本（默认为 check 推荐的版本）；status：要求安装的版本（9.1 可匹配 9.1.0.70）。</translation>
    </message>
    <message>
        <source>download: the archive&apos;s platform: windows-x86_64, linux-x86_64 or linux-sbsa (default: this computer&apos;s).</source>
        <translation>download：压缩包的平台：windows-x86_64、linux-x86_64 或 linux-sbsa（默认为这台电脑的平台）。</translation>
    </message>
    <message>
        <source>download: where from: NVIDIA&apos;s redist (default), a mirror with its layout (https://…), or a folder or share holding the archives.</source>
        <translation>download：下载来源：NVIDIA 公开下载目录（默认）、目录结构相同的镜像（https://…），或存放压缩包的文件夹或共享文件夹。</translation>
    </message>
    <message>
        <source>download: also trust the certificates in FILE (a mirror&apos;s own certificate authority).</source>
        <translation>download：同时信任 FILE 中的证书（镜像自己的证书颁发机构）。</translation>
    </message>
    <message>
        <source>Judge driver, CUDA, cuDNN, GPU and frameworks against NVIDIA&apos;s
tables and name the archive to download. Values not given with
--os --arch --driver --cuda --sm --gpu --cudnn come from detection.</source>
        <translation>按 NVIDIA 的兼容性表核对驱动、CUDA、cuDNN、显卡和框架，并给出应下载的
压缩包。--os --arch --driver --cuda --sm --gpu --cudnn 未给出的值取自检测结果。</translation>
    </message>
    <message>
        <source>Check a cuDNN archive (ZIP): safe to unpack, intact, NVIDIA&apos;s own
file, and which cuDNN for which CUDA it truly holds.</source>
        <translation>检查 cuDNN 压缩包（.zip）：能否安全解压、是否完好、是否为 NVIDIA 原版文件，
以及其中实际是适用于哪个 CUDA 的哪个 cuDNN。</translation>
    </message>
    <message>
        <source>Get the archive check recommends (or --cudnn/--cuda) from NVIDIA,
a lab mirror or a folder (--source), checked before it is saved.</source>
        <translation>从 NVIDIA、实验室镜像或文件夹（--source）下载 check 推荐的压缩包
（或 --cudnn/--cuda 指定的），校验无误后才保存。</translation>
    </message>
    <message>
        <source>Install a cuDNN archive as one transaction (--archive --target
--path): all of it or nothing, with a receipt.</source>
        <translation>以单个事务安装 cuDNN 压缩包（--archive --target --path）：
要么全部完成，要么什么都不改，并留下安装记录。</translation>
    </message>
    <message>
        <source>Reverse an install by its receipt (cudnnctl uninstall [ID]).</source>
        <translation>按安装记录卸载一次安装（cudnnctl uninstall [ID]）。</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>--%1 belongs to the %2 commands.</source>
        <translation>--%1 只能用于 %2 命令。</translation>
    </message>
    <message>
        <source>Finds out what a machine has for NVIDIA cuDNN and what fits it.</source>
        <translation>查明一台电脑上与 NVIDIA cuDNN 相关的组件，以及适合它的 cuDNN。</translation>
    </message>
    <message>
        <source>Also run each Python interpreter to ask torch whether it sees a GPU and which cuDNN it loaded (seconds each); without it, what their files tell is reported.</source>
        <translation>另外逐个运行 Python 解释器，问 torch 能否看到显卡、实际加载了哪个 cuDNN（每个要几秒）；不加此选项时，只报告从文件中读到的信息。</translation>
    </message>
    <message>
        <source>This account has no Downloads folder: name the folder to download into with --out.</source>
        <translation>当前账户没有“下载”文件夹：请用 --out 指定下载到哪个文件夹。</translation>
    </message>
    <message>
        <source>install: an administrator at their own console takes an archive whose SHA-256 NVIDIA did not publish into a target every program loads from (system PATH, a CUDA toolkit, the loader&apos;s configuration). Never passed on to an elevated helper.</source>
        <translation>install：管理员在自己的电脑前操作时，允许把 SHA-256 不在 NVIDIA 公布列表中的压缩包安装到所有程序都会加载的位置（系统 PATH、CUDA 工具包、动态链接器配置）。此选项不会传给以管理员身份运行的辅助进程。</translation>
    </message>
    <message>
        <source>Find what keeps cuDNN from working and offer repairs (--fix);
--from-log FILE also explains the error you saw.</source>
        <translation>找出 cuDNN 无法正常工作的原因，并提供修复（--fix）；
加上 --from-log FILE 还会解释你看到的错误。</translation>
    </message>
    <message>
        <source>Show the GPUs, driver, CUDA toolkits, cuDNN copies, Python
interpreters and the programs that use cuDNN (also in --app
FOLDER) of this system (or of --system-root).</source>
        <translation>显示这台电脑（或 --system-root 所指系统）的显卡、驱动、CUDA 工具包、
cuDNN 副本、Python 解释器，以及用到 cuDNN 的程序
（也包括 --app FOLDER 里的程序）。</translation>
    </message>
    <message>
        <source>detect: also read the programs in FOLDER (a portable ComfyUI, a bundled app) for the cuDNN and CUDA they need (may be given more than once).</source>
        <translation>detect：同时读取 FOLDER 里的程序（便携版 ComfyUI、自带运行库的应用），查出它们需要的 cuDNN 和 CUDA（可多次指定）。</translation>
    </message>
    <message>
        <source>The application folder %1 is not a folder.</source>
        <translation>应用目录 %1 不是文件夹。</translation>
    </message>
    <message>
        <source>doctor: also read the error you saw from FILE (a traceback, a loader log, a copied Windows message; &quot;-&quot; reads the standard input) and explain it.</source>
        <translation>doctor：同时从 FILE 读取你看到的错误（Python 回溯、加载器日志、复制的 Windows 提示；“-”表示从标准输入读取）并加以解释。</translation>
    </message>
    <message>
        <source>Try the installed cuDNN in a fresh process: load every library,
find missing dependencies, compare versions, run a convolution
on the GPU and ask torch which cuDNN it uses; --for PROGRAM
loads that program&apos;s own module and names the cuDNN it binds.</source>
        <translation>在新进程中试用已安装的 cuDNN：逐个加载所有库，找出缺失的依赖，
核对版本，在显卡上运行一次卷积，并查明 torch 实际使用哪份 cuDNN；
加上 --for PROGRAM 时，加载该程序自己的模块，
并指出它实际加载的 cuDNN。</translation>
    </message>
    <message>
        <source>check: judge only this program: torch, tensorflow, onnxruntime, ctranslate2, jax or app:FOLDER (the programs in FOLDER); verify: load its own module in a fresh process and name the cuDNN it binds.</source>
        <translation>check：只评判这个程序：torch、tensorflow、onnxruntime、ctranslate2、jax 或 app:FOLDER（FOLDER 中的程序）；verify：在新进程中加载它自己的模块，并指出它实际加载的 cuDNN。</translation>
    </message>
    <message>
        <source>command</source>
        <comment>the argument&apos;s name in --help</comment>
        <translation>命令</translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation>显示这份帮助。</translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation>显示版本号。</translation>
    </message>
    <message>
        <source>Usage: cudnnctl [options] %1 [arguments]</source>
        <translation>用法：cudnnctl [选项] %1 [参数]</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>Write report.json, report.html and environment_versions.txt
into --out DIR, for asking for help; --to FOLDER writes this
machine&apos;s report (--machine NAME) into a lab&apos;s share.</source>
        <translation>把 report.json、report.html 和 environment_versions.txt 写入
--out 指定的文件夹，方便求助时附上；--to FOLDER 把这台电脑的
报告（--machine NAME）写入实验室的共享文件夹。</translation>
    </message>
    <message>
        <source>fleet summarize FOLDER: the machine reports in a share at a
glance: for each item the majority, the machines that differ
and their repair, old reports (--stale-days N); --html FILE.</source>
        <translation>fleet summarize FOLDER：汇总共享文件夹中各台电脑的报告：
每一项的多数值、与之不同的电脑及其修复办法，以及过期的报告
（--stale-days N）；--html FILE 另存为网页。</translation>
    </message>
    <message>
        <source>fleet needs a folder: cudnnctl fleet summarize FOLDER</source>
        <translation>fleet 需要指定文件夹：cudnnctl fleet summarize FOLDER</translation>
    </message>
    <message>
        <source>The reports folder %1 is not a folder.</source>
        <translation>报告文件夹 %1 不是文件夹。</translation>
    </message>
    <message>
        <source>--stale-days needs a number of days between 0 and 3650.</source>
        <translation>--stale-days 需要一个 0 到 3650 之间的天数。</translation>
    </message>
    <message>
        <source>The page %1 could not be written: %2</source>
        <translation>无法写入网页 %1：%2</translation>
    </message>
    <message>
        <source>report needs a folder: cudnnctl report --out DIR, or --to FOLDER for a share</source>
        <translation>report 需要指定文件夹：cudnnctl report --out DIR，写入共享文件夹则用 --to FOLDER</translation>
    </message>
    <message>
        <source>Print JSON (detect: cudnn-setup/snapshot/1, check: cudnn-setup/check/1, inspect: cudnn-setup/archive/1, download: cudnn-setup/download/1, verify: cudnn-setup/verify/1, doctor: cudnn-setup/doctor/1, status: cudnn-setup/status/1, fleet: cudnn-setup/fleet-summary/1).</source>
        <translation>输出 JSON（detect：cudnn-setup/snapshot/1，check：cudnn-setup/check/1，inspect：cudnn-setup/archive/1，download：cudnn-setup/download/1，verify：cudnn-setup/verify/1，doctor：cudnn-setup/doctor/1，status：cudnn-setup/status/1，fleet：cudnn-setup/fleet-summary/1）。</translation>
    </message>
    <message>
        <source>report: write this machine&apos;s report as FOLDER/&lt;machine&gt;.json (a lab&apos;s share, for &quot;cudnnctl fleet summarize&quot;), replacing its last one whole.</source>
        <translation>report：把这台电脑的报告写成 FOLDER/&lt;machine&gt;.json（实验室的共享文件夹，供“cudnnctl fleet summarize”汇总），整份替换上一次的报告。</translation>
    </message>
    <message>
        <source>report --to: the machine&apos;s name (default: its host name).</source>
        <translation>report --to：这台电脑的名称（默认为主机名）。</translation>
    </message>
    <message>
        <source>fleet summarize: also write the summary as one page, FILE.</source>
        <translation>fleet summarize：同时把汇总写成一个网页文件 FILE。</translation>
    </message>
    <message>
        <source>fleet summarize: a report older than N days is listed as old (default 7).</source>
        <translation>fleet summarize：早于 N 天前写入的报告列为过期（默认 7 天）。</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>--driver takes a version such as 560.94, not &quot;%1&quot;.</source>
        <translation>--driver 需要一个版本号，例如 560.94，而不是“%1”。</translation>
    </message>
    <message>
        <source>--format takes text, json, intune or sccm, not &quot;%1&quot;.</source>
        <translation>--format 只能是 text、json、intune 或 sccm，而不是“%1”。</translation>
    </message>
    <message>
        <source>No repair file was written: nothing that differs here can be repaired by one.</source>
        <translation>没有写出修复文件：这里不一致的各项都无法靠修复文件恢复。</translation>
    </message>
    <message>
        <source>Whether an install of cuDNN Setup is there, intact (--cudnn
--target): exit 0 and one line, else exit 1 (detection rules).
--against FILE: this machine against a lab&apos;s baseline, exit 0
compliant, 1 drifted, 2 broken, 3 unknown (--format
text|json|intune|sccm, --repair-file FILE).</source>
        <translation>cuDNN 安装向导的某次安装是否还在、是否完好（--cudnn --target）：
是则退出码 0 并输出一行，否则退出码 1（用作检测规则）。
--against FILE：按实验室基线检查这台电脑，退出码 0 合规、1 已偏离
（可修复）、2 已损坏、3 无法判断（--format text|json|intune|sccm，
--repair-file FILE）。</translation>
    </message>
    <message>
        <source>baseline export --out FILE: write what every machine of a lab
must have, from this one or from an answer file (--from-answer
FILE; --driver V: the minimum driver).</source>
        <translation>baseline export --out FILE：写出实验室每台电脑都应具备的配置（基线），
取自这台电脑或应答文件（--from-answer FILE；
--driver V：最低驱动版本）。</translation>
    </message>
    <message>
        <source>check: as if the NVIDIA driver were version V; baseline export: the minimum driver (default: this machine&apos;s).</source>
        <translation>check：假定 NVIDIA 驱动版本为 V；baseline export：最低驱动版本（默认取这台电脑的驱动版本）。</translation>
    </message>
    <message>
        <source>report, download: the folder to write into (download: default the user&apos;s Downloads folder); baseline export: the file to write.</source>
        <translation>report、download：写入哪个文件夹（download 默认为当前用户的“下载”文件夹）；baseline export：要写出的文件。</translation>
    </message>
    <message>
        <source>status: judge this machine against the baseline in FILE (cudnnctl baseline export).</source>
        <translation>status：按 FILE 中的基线检查这台电脑（基线由 cudnnctl baseline export 生成）。</translation>
    </message>
    <message>
        <source>status --against: text (default), json, intune (the flat JSON of a custom compliance script) or sccm (ConfigMgr&apos;s detection rule).</source>
        <translation>status --against：text（默认）、json、intune（自定义合规性脚本所需的扁平 JSON）或 sccm（ConfigMgr 的检测规则）。</translation>
    </message>
    <message>
        <source>status --against: write the answer file that brings this machine back to the baseline (cudnn-setup --unattended --answer-file FILE).</source>
        <translation>status --against：写出能让这台电脑恢复到基线的应答文件（用 cudnn-setup --unattended --answer-file FILE 执行）。</translation>
    </message>
    <message>
        <source>baseline export: take the baseline from this answer file rather than from this machine&apos;s install.</source>
        <translation>baseline export：从这个应答文件生成基线，而不是从这台电脑上的安装生成。</translation>
    </message>
    <message>
        <source>baseline takes one action: cudnnctl baseline export --out FILE</source>
        <translation>baseline 只有一个操作：cudnnctl baseline export --out FILE</translation>
    </message>
    <message>
        <source>--format and --repair-file go with --against.</source>
        <translation>--format 和 --repair-file 只能和 --against 一起用。</translation>
    </message>
    <message>
        <source>--against takes the version and the target from the baseline: leave out --cudnn and --target.</source>
        <translation>--against 会从基线中读取版本和安装位置：请去掉 --cudnn 和 --target。</translation>
    </message>
    <message>
        <source>%1 cannot be removed: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>%1: exit code %2. The log is %3, the result %4.</source>
        <translation>%1：退出码 %2。日志是 %3，结果是 %4。</translation>
    </message>
    <message>
        <source>apply FILE: do what an answer file says (install, repair or
uninstall) without asking, as cudnn-setup --unattended does:
the repair file of status --against --repair-file, say. Its
log (--log) has a JSON result beside it; exit codes as install.</source>
        <translation>apply FILE：不询问任何问题，照应答文件的要求安装、修复或卸载，
与 cudnn-setup --unattended 相同，例如执行 status --against
--repair-file 写出的修复文件。日志（--log）旁边有一份 JSON
结果；退出码与 install 相同。</translation>
    </message>
    <message>
        <source>apply needs the answer file: cudnnctl apply FILE.ini</source>
        <translation>apply 需要指定应答文件：cudnnctl apply FILE.ini</translation>
    </message>
</context>
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation>这不是 cuDNN 安装向导生成的系统快照（应为 %1 格式）。</translation>
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
        <translation>没有找到 CUDA 工具包。cuDNN 仍可以安装到独立文件夹、conda 环境或 Python 虚拟环境中；但编译 CUDA 代码的程序需要工具包。</translation>
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
        <translation>本系统中没有找到 cuDNN。</translation>
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
        <source>CUDA_VISIBLE_DEVICES is set to &quot;%1&quot;, which hides every GPU from CUDA programs.</source>
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
        <source>Restart the computer. If it happens again, check the GPU&apos;s power cables and cooling.</source>
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
        <source>The driver did not say which CUDA versions it supports (nvidia-smi printed &quot;%1&quot;).</source>
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
        <translation>当前是 WSL 2 中的 Linux。显卡驱动由 Windows 提供；而供 Linux 程序使用的 cuDNN 必须安装在这里，即 Linux 系统内。</translation>
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
        <translation>被其他副本抢先加载（在搜索路径上排第 %1）</translation>
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
        <translation>、</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>The compatibility database is not valid.</source>
        <translation>兼容性数据库无效。</translation>
    </message>
    <message>
        <source>The compatibility database %1 cannot be used; the built-in one (version %2) is used instead.</source>
        <translation>兼容性数据库 %1 无法使用，改用内置数据库（版本 %2）。</translation>
    </message>
    <message>
        <source>The compatibility database %1 (version %2) is older than the built-in one (version %3); it is used as asked.</source>
        <translation>兼容性数据库 %1（版本 %2）比内置数据库（版本 %3）旧，但已按你的要求使用它。</translation>
    </message>
    <message>
        <source>the GPU</source>
        <translation>该显卡</translation>
    </message>
    <message>
        <source>%1 (compute capability %2)</source>
        <translation>%1（计算能力 %2）</translation>
    </message>
    <message>
        <source>%1 (%2, compute capability %3)</source>
        <translation>%1（%2 架构，计算能力 %3）</translation>
    </message>
    <message>
        <source>NVIDIA publishes cuDNN for Windows only for x64 PCs; this is Windows on ARM.</source>
        <translation>NVIDIA 只为 x64 电脑发布 Windows 版 cuDNN，而这台是 ARM 版 Windows。</translation>
    </message>
    <message>
        <source>Under WSL 2, cuDNN goes inside this Linux distribution: use NVIDIA&apos;s Linux archive (cudnn-linux-x86_64-…-archive.tar.xz), not the Windows one. The driver stays the Windows driver.</source>
        <translation>在 WSL 2 中，cuDNN 要安装在这个 Linux 发行版内：请使用 NVIDIA 的 Linux 版压缩包（cudnn-linux-x86_64-…-archive.tar.xz），而不是 Windows 版。驱动仍使用 Windows 上安装的驱动。</translation>
    </message>
    <message>
        <source>Look the GPU up on developer.nvidia.com/cuda-gpus and run the check again with --sm X.Y.</source>
        <translation>请在 developer.nvidia.com/cuda-gpus 上查到这块显卡的计算能力，再加上 --sm X.Y 重新检查。</translation>
    </message>
    <message>
        <source>There is no working NVIDIA driver, so no CUDA program can run.</source>
        <translation>没有可用的 NVIDIA 驱动，任何 CUDA 程序都无法运行。</translation>
    </message>
    <message>
        <source>Install the current NVIDIA driver for this GPU from nvidia.com/drivers.</source>
        <translation>请从 nvidia.com/drivers 安装适合这块显卡的最新 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Driver %1 is too old for CUDA %2, which needs driver %3 or newer.</source>
        <translation>驱动 %1 太旧，无法运行 CUDA %2：它需要 %3 或更新的驱动。</translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer.</source>
        <translation>请把驱动更新到 %1 或更新版本。</translation>
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run CUDA %3.</source>
        <translation>驱动 %1 最高只支持 CUDA %2，因此无法运行 CUDA %3。</translation>
    </message>
    <message>
        <source>NVIDIA publishes no minimum driver for CUDA %1 on this system, so driver %2 cannot be checked against it (the driver reports CUDA %3).</source>
        <translation>NVIDIA 没有公布 CUDA %1 在本系统上的最低驱动版本，因此无法核对驱动 %2 是否够用（驱动报告支持 CUDA %3）。</translation>
    </message>
    <message>
        <source>Driver %1 runs CUDA %2 through minor-version compatibility (the toolkit&apos;s own minimum is %3); code that needs newer driver features, such as compiling newer PTX at run time, can fail.</source>
        <translation>驱动 %1 依靠次版本兼容性运行 CUDA %2（该工具包自身要求 %3）；需要较新驱动功能的代码，例如运行时编译较新的 PTX，可能会失败。</translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer to use every feature of this toolkit.</source>
        <translation>要使用该工具包的全部功能，请把驱动更新到 %1 或更新版本。</translation>
    </message>
    <message>
        <source>The CUDA %1 toolkit in %2 cannot be used: driver %3 runs CUDA up to %4.</source>
        <translation>无法使用 %2 中的 CUDA %1 工具包：驱动 %3 最高只能运行 CUDA %4。</translation>
    </message>
    <message>
        <source>Update the driver to the newest one NVIDIA offers for this GPU.</source>
        <translation>请把驱动更新到 NVIDIA 为这块显卡提供的最新版本。</translation>
    </message>
    <message>
        <source>CUDA %1 no longer supports %2: it needs compute capability %3 or newer.</source>
        <translation>CUDA %1 已不再支持 %2：它要求计算能力 %3 或更高。</translation>
    </message>
    <message>
        <source>Use CUDA %1 and the cuDNN archive for CUDA %1, the newest that still support this GPU.</source>
        <translation>请使用 CUDA %1 和对应 CUDA %1 的 cuDNN 压缩包，这是仍支持这块显卡的最新组合。</translation>
    </message>
    <message>
        <source>This cuDNN archive is built for %1, but this system needs %2.</source>
        <translation>这个 cuDNN 压缩包是为 %1 构建的，而本系统需要 %2 版。</translation>
    </message>
    <message>
        <source>Download the %1 archive instead.</source>
        <translation>请改为下载 %1 版的压缩包。</translation>
    </message>
    <message>
        <source>cuDNN %1 is not in the compatibility database (version %2), so only its CUDA major can be checked.</source>
        <translation>兼容性数据库（版本 %2）中没有 cuDNN %1，只能核对它对应的 CUDA 主版本。</translation>
    </message>
    <message>
        <source>Use a newer compatibility database (--compat-db) if this release is newer than it.</source>
        <translation>如果这个版本比数据库新，请用 --compat-db 指定更新的兼容性数据库。</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not work with the CUDA %3 toolkit.</source>
        <translation>适用于 CUDA %2 的 cuDNN %1 不能与 CUDA %3 工具包配合使用。</translation>
    </message>
    <message>
        <source>Download %1 instead.</source>
        <translation>请改为下载 %1。</translation>
    </message>
    <message>
        <source>Driver %1 supports CUDA up to %2, so it cannot run cuDNN built for CUDA %3.</source>
        <translation>驱动 %1 最高只支持 CUDA %2，因此无法运行适用于 CUDA %3 的 cuDNN。</translation>
    </message>
    <message>
        <source>Driver %1 is too old for cuDNN %2 for CUDA %3, which needs %4 or newer.</source>
        <translation>驱动 %1 太旧，不能运行适用于 CUDA %3 的 cuDNN %2：它需要 %4 或更新的驱动。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s support matrix gives no minimum driver for cuDNN %1 for CUDA %2 on this system, so driver %3 cannot be checked against it.</source>
        <translation>NVIDIA 的支持矩阵没有给出适用于 CUDA %2 的 cuDNN %1 在本系统上的最低驱动，因此无法核对驱动 %3 是否够用。</translation>
    </message>
    <message>
        <source>CUDA %1 to %2</source>
        <translation>CUDA %1 至 %2</translation>
    </message>
    <message>
        <source>CUDA %1 and newer</source>
        <translation>CUDA %1 及更新版本</translation>
    </message>
    <message>
        <source>CUDA up to %1</source>
        <translation>最高 CUDA %1</translation>
    </message>
    <message>
        <source>NVIDIA tested cuDNN %1 for CUDA %2 with %3; this toolkit is %4. It usually works, but that combination is untested.</source>
        <translation>NVIDIA 测试过适用于 CUDA %2 的 cuDNN %1 与 %3 的组合，而这里的工具包是 %4。通常可以工作，但这个组合未经测试。</translation>
    </message>
    <message>
        <source>%1 needs driver %2 or newer with cuDNN %3 (driver %4 is installed).</source>
        <translation>%1 搭配 cuDNN %3 需要 %2 或更新的驱动（当前安装的是 %4）。</translation>
    </message>
    <message>
        <source>%1 needs CUDA %2 or newer with cuDNN %3; the toolkit is %4.</source>
        <translation>%1 搭配 cuDNN %3 需要 CUDA %2 或更新版本，而当前工具包是 %4。</translation>
    </message>
    <message>
        <source>Install CUDA %1 or newer.</source>
        <translation>请安装 CUDA %1 或更新版本。</translation>
    </message>
    <message>
        <source>%1 is newer than every GPU cuDNN %2 for CUDA %3 lists; it may work through PTX, but NVIDIA does not support it.</source>
        <translation>%1 比适用于 CUDA %3 的 cuDNN %2 所列的所有显卡都新；它或许能通过 PTX 运行，但 NVIDIA 不提供支持。</translation>
    </message>
    <message>
        <source>Use a newer cuDNN release.</source>
        <translation>请使用更新的 cuDNN 版本。</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 does not support %3.</source>
        <translation>适用于 CUDA %2 的 cuDNN %1 不支持 %3。</translation>
    </message>
    <message>
        <source>%1 needs zlibwapi.dll on Windows, and none was found: it fails with &quot;Could not locate zlibwapi.dll&quot;.</source>
        <translation>%1 在 Windows 上需要 zlibwapi.dll，但没有找到它：运行时会报错“Could not locate zlibwapi.dll”。</translation>
    </message>
    <message>
        <source>Download %1 and put dll_x64\zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation>请下载 %1，把其中的 dll_x64\zlibwapi.dll 放到 cuDNN 的 DLL 旁边。</translation>
    </message>
    <message>
        <source>%1 is a 32-bit Python; cuDNN and CUDA exist only for 64-bit programs, so it can never use them.</source>
        <translation>%1 是 32 位 Python；cuDNN 和 CUDA 只有 64 位版本，它永远无法使用。</translation>
    </message>
    <message>
        <source>Install a 64-bit Python (python.org&apos;s &quot;Windows installer (64-bit)&quot;).</source>
        <translation>请安装 64 位 Python（python.org 上的“Windows installer (64-bit)”）。</translation>
    </message>
    <message>
        <source>torch %1 in %2 is a CPU-only build: it will never use the GPU or cuDNN.</source>
        <translation>%2 中的 torch %1 是纯 CPU 版本：它永远不会使用显卡和 cuDNN。</translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2, but the driver supports CUDA up to %3: torch.cuda.is_available() will be False.</source>
        <translation>torch %1 是为 CUDA %2 构建的，但驱动最高只支持 CUDA %3：torch.cuda.is_available() 会返回 False。</translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2 and the driver reports %3: it runs through minor-version compatibility.</source>
        <translation>torch %1 是为 CUDA %2 构建的，驱动报告支持 %3：它依靠次版本兼容性运行。</translation>
    </message>
    <message>
        <source>TensorFlow %1 in %2 cannot use the GPU on native Windows; the last version that could is %3.</source>
        <translation>%2 中的 TensorFlow %1 在原生 Windows 上无法使用显卡；最后一个可以的版本是 %3。</translation>
    </message>
    <message>
        <source>Run TensorFlow under WSL 2, or install TensorFlow %1 with CUDA 11.2 and cuDNN 8.1.</source>
        <translation>请在 WSL 2 中运行 TensorFlow，或安装 TensorFlow %1 并搭配 CUDA 11.2 和 cuDNN 8.1。</translation>
    </message>
    <message>
        <source>Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/%1</source>
        <translation>请安装 CUDA 版本：pip install torch --index-url https://download.pytorch.org/whl/%1</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot; cannot be used: %3</source>
        <translation>%1 “%2”无法使用：%3</translation>
    </message>
    <message>
        <source>use windows or linux</source>
        <translation>请使用 windows 或 linux</translation>
    </message>
    <message>
        <source>use x86_64 or arm64</source>
        <translation>请使用 x86_64 或 arm64</translation>
    </message>
    <message>
        <source>a driver version looks like 535.98 or 580.65.06</source>
        <translation>驱动版本的格式如 535.98 或 580.65.06</translation>
    </message>
    <message>
        <source>a CUDA version looks like 12, 12.2 or 12.2.1</source>
        <translation>CUDA 版本的格式如 12、12.2 或 12.2.1</translation>
    </message>
    <message>
        <source>a compute capability looks like 8.6</source>
        <translation>计算能力的格式如 8.6</translation>
    </message>
    <message>
        <source>give a cuDNN version such as 8.9.7 or 8.9.7.29, or an NVIDIA archive file name such as cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip</source>
        <translation>请给出 cuDNN 版本号（如 8.9.7 或 8.9.7.29），或 NVIDIA 压缩包的文件名（如 cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip）</translation>
    </message>
    <message>
        <source>Compatible: yes</source>
        <translation>兼容：是</translation>
    </message>
    <message>
        <source>Compatible: no</source>
        <translation>兼容：否</translation>
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation>驱动能运行的最高 CUDA</translation>
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation>CUDA 工具包（nvcc）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>CUDA the framework was built for</source>
        <translation>框架构建时所用的 CUDA</translation>
    </message>
    <message>
        <source>no framework found</source>
        <translation>未找到框架</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>纯 CPU</translation>
    </message>
    <message>
        <source>CUDA of the recommended cuDNN archive</source>
        <translation>推荐的 cuDNN 压缩包对应的 CUDA</translation>
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation>cuDNN 压缩包对应的 CUDA</translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>Download %1</source>
        <translation>下载 %1</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s SHA-256: %1</source>
        <translation>NVIDIA 公布的 SHA-256：%1</translation>
    </message>
    <message>
        <source>For the CUDA %1 toolkit in %2</source>
        <translation>用于 %2 中的 CUDA %1 工具包</translation>
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation>请先安装 %1 或更新版本的驱动。</translation>
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation>请先安装支持该 CUDA 版本的驱动。</translation>
    </message>
    <message>
        <source>Compatibility database %1 (%2), built in</source>
        <translation>兼容性数据库：版本 %1（%2，内置）</translation>
    </message>
    <message>
        <source>Compatibility database %1 (%2) from %3</source>
        <translation>兼容性数据库：版本 %1（%2），来自 %3</translation>
    </message>
    <message>
        <source>The archive %1 cannot be read.</source>
        <translation>无法读取压缩包 %1。</translation>
    </message>
    <message>
        <source>Reading the archive was cancelled.</source>
        <translation>已取消读取压缩包。</translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; does not match its checksum: the archive is damaged.</source>
        <translation>“%1”的数据与其校验值不符：压缩包已损坏。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be unpacked: the archive is damaged or incomplete.</source>
        <translation>无法解压“%1”：压缩包已损坏或不完整。</translation>
    </message>
    <message>
        <source>Not every DLL is for 64-bit x64 Windows, such as %1: this is not an x64 cuDNN package, or it was tampered with.</source>
        <translation>并非所有 DLL 都是 64 位 x64 Windows 版，例如 %1：这不是 x64 的 cuDNN 包，或者已被篡改。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is named like a DLL but is not a Windows program file: the archive is damaged.</source>
        <translation>“%1”的文件名看起来是 DLL，却不是 Windows 程序文件：压缩包已损坏。</translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s %1, saved under another name.</source>
        <translation>这就是 NVIDIA 发布的 %1，只是换了个文件名保存。</translation>
    </message>
    <message>
        <source>This file is named like NVIDIA&apos;s %1, but it is not that file: its SHA-256 differs from the one NVIDIA published. It was damaged or altered after NVIDIA published it.</source>
        <translation>这个文件的文件名与 NVIDIA 的 %1 相同，但并不是那个文件：它的 SHA-256 与 NVIDIA 公布的不一致。它在 NVIDIA 发布之后被损坏或改动过。</translation>
    </message>
    <message>
        <source>Download it again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation>请从 NVIDIA 官网的 cuDNN 历史版本下载页（cuDNN Archive）重新下载。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s checksum for this file is not in the compatibility database (version %1), so it cannot be compared.</source>
        <translation>兼容性数据库（版本 %1）中没有这个文件的 NVIDIA 校验值，无法比对。</translation>
    </message>
    <message>
        <source>The file name is not one NVIDIA uses; what it holds was read from its content.</source>
        <translation>文件名不符合 NVIDIA 的命名规则；已根据压缩包内容识别其版本。</translation>
    </message>
    <message>
        <source>The file name says cuDNN %1, but the archive holds cuDNN %2.</source>
        <translation>文件名写的是 cuDNN %1，压缩包里实际是 cuDNN %2。</translation>
    </message>
    <message>
        <source>The file name says it is for CUDA %1, but the archive is for CUDA %2.</source>
        <translation>文件名写的是适用于 CUDA %1，压缩包实际适用于 CUDA %2。</translation>
    </message>
    <message>
        <source>The file name says %1, but the archive holds the %2 files.</source>
        <translation>文件名写的是 %1，压缩包里却是 %2 的文件。</translation>
    </message>
    <message>
        <source>This zip holds no cuDNN: neither cudnn64_N.dll nor cudnn_version.h is in it.</source>
        <translation>这个压缩包里没有 cuDNN：既没有 cudnn64_N.dll，也没有 cudnn_version.h。</translation>
    </message>
    <message>
        <source>The cuDNN files are not where NVIDIA&apos;s archives put them (the libraries are in &quot;%1&quot;): it was re-packed by someone.</source>
        <translation>cuDNN 文件不在 NVIDIA 压缩包中的通常位置（库文件在“%1”中）：它经过了他人重新打包。</translation>
    </message>
    <message>
        <source>The archive has no readable cudnn_version.h, so its true version is unknown.</source>
        <translation>压缩包中没有可读的 cudnn_version.h，无法确定其真实版本。</translation>
    </message>
    <message>
        <source>This is a Windows program, not a zip archive: perhaps NVIDIA&apos;s graphical cuDNN installer.</source>
        <translation>这是一个 Windows 程序，不是 .zip 压缩包：可能是 NVIDIA 的图形界面 cuDNN 安装程序。</translation>
    </message>
    <message>
        <source>Download the zip archive (cudnn-windows-x86_64-…-archive.zip) from NVIDIA&apos;s cuDNN archive page instead.</source>
        <translation>请改为从 NVIDIA 官网的 cuDNN 历史版本下载页（cuDNN Archive）下载压缩包（cudnn-windows-x86_64-…-archive.zip）。</translation>
    </message>
    <message>
        <source>an empty name</source>
        <translation>名称为空</translation>
    </message>
    <message>
        <source>a network or device path</source>
        <translation>网络路径或设备路径</translation>
    </message>
    <message>
        <source>an absolute path</source>
        <translation>绝对路径</translation>
    </message>
    <message>
        <source>a drive letter</source>
        <translation>盘符</translation>
    </message>
    <message>
        <source>an empty folder name</source>
        <translation>空的文件夹名</translation>
    </message>
    <message>
        <source>a &quot;.&quot; or &quot;..&quot; folder</source>
        <translation>“.”或“..”文件夹</translation>
    </message>
    <message>
        <source>a character Windows does not allow in names</source>
        <translation>Windows 不允许在名称中使用的字符</translation>
    </message>
    <message>
        <source>a name Windows reserves for a device</source>
        <translation>Windows 保留给设备的名称</translation>
    </message>
    <message>
        <source>a name ending in a dot or a space</source>
        <translation>以句点或空格结尾的名称</translation>
    </message>
    <message>
        <source>Entries of this archive would land outside the target folder or under names Windows cannot create, such as &quot;%1&quot; (%2); %3 in all.</source>
        <translation>压缩包中有条目会被写到目标文件夹之外，或使用 Windows 无法创建的名称，例如“%1”（%2）；共 %3 个。</translation>
    </message>
    <message>
        <source>Entry names are marked as UTF-8 but are not valid UTF-8, such as %1; %2 in all.</source>
        <translation>有条目名标记为 UTF-8，却不是有效的 UTF-8，例如 %1；共 %2 个。</translation>
    </message>
    <message>
        <source>The archive holds symbolic links, such as &quot;%1&quot; (%2 in all). A cuDNN archive for Windows has none, and a link can point outside the target folder.</source>
        <translation>压缩包中含有符号链接，例如“%1”（共 %2 个）。Windows 版 cuDNN 压缩包里没有符号链接，而链接可能指向目标文件夹之外。</translation>
    </message>
    <message>
        <source>The archive has encrypted entries, such as &quot;%1&quot; (%2 in all); NVIDIA&apos;s archives are not encrypted.</source>
        <translation>压缩包中有加密的条目，例如“%1”（共 %2 个）；NVIDIA 的压缩包不加密。</translation>
    </message>
    <message>
        <source>The archive compresses &quot;%1&quot; with a method other than stored or deflated (%2 in all); NVIDIA&apos;s archives use only those.</source>
        <translation>压缩包对“%1”使用了存储和 deflate 以外的压缩方式（共 %2 个）；NVIDIA 的压缩包只用这两种。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; and &quot;%2&quot; would be the same file or folder on Windows, which ignores case: one would overwrite the other.</source>
        <translation>Windows 不区分大小写，“%1”和“%2”在 Windows 上是同一个文件或文件夹：一个会覆盖另一个。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; declares more than %2 GB, far more than any cuDNN file (%3 in all).</source>
        <translation>“%1”声明的大小超过 %2 GB，远大于任何 cuDNN 文件（共 %3 个）。</translation>
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GB when unpacked, beyond the %3 entries and %4 GB any cuDNN archive stays within.</source>
        <translation>压缩包声明有 %1 个条目、解压后 %2 GB，超出了任何 cuDNN 压缩包都不会超过的 %3 个条目和 %4 GB。</translation>
    </message>
    <message>
        <source>The sizes declared for &quot;%1&quot; are impossible for its compression (%2 in all): the archive is forged, as zip bombs are.</source>
        <translation>“%1”声明的大小在其压缩方式下不可能出现（共 %2 个）：这是 zip 炸弹常用的伪造手法。</translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; and &quot;%2&quot; overlap in the file, a trick of zip bombs; no honest archive does that.</source>
        <translation>“%1”和“%2”的数据在文件中相互重叠，这是 zip 炸弹的手法；正常的压缩包不会这样。</translation>
    </message>
    <message>
        <source>The data of &quot;%1&quot; runs past the end of the file (%2 in all): the download is incomplete or damaged.</source>
        <translation>“%1”的数据超出了文件末尾（共 %2 个）：下载不完整或已损坏。</translation>
    </message>
    <message>
        <source>Verdict: ok, safe to install</source>
        <translation>结论：正常，可以安全安装</translation>
    </message>
    <message>
        <source>Verdict: unsafe, refused</source>
        <translation>结论：不安全，拒绝使用</translation>
    </message>
    <message>
        <source>Verdict: corrupt, refused</source>
        <translation>结论：已损坏，拒绝使用</translation>
    </message>
    <message>
        <source>Verdict: not a cuDNN archive</source>
        <translation>结论：不是 cuDNN 压缩包</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s file</source>
        <translation>NVIDIA 原版文件</translation>
    </message>
    <message>
        <source>yes, %1</source>
        <translation>是，%1</translation>
    </message>
    <message>
        <source>NO: the checksum differs from the published one</source>
        <translation>否：校验值与公布的不一致</translation>
    </message>
    <message>
        <source>unknown: no published checksum to compare with</source>
        <translation>未知：没有可比对的公布校验值</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation>适用于 CUDA %2 的 cuDNN %1（%3）</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>实际版本</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>目录结构</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>%1 (%2 unpacked), names %3</source>
        <translation>%1 个（解压后 %2），文件名编码 %3</translation>
    </message>
    <message>
        <source>%1 ends before the size the archive&apos;s table of contents gives.</source>
        <translation>%1 的数据在达到压缩包目录所记录的大小之前就结束了。</translation>
    </message>
    <message>
        <source>%1 holds more data than the archive&apos;s table of contents says.</source>
        <translation>%1 的数据比压缩包目录中记录的要多。</translation>
    </message>
    <message>
        <source>%1 could not be read from the archive.</source>
        <translation>无法从压缩包中读取 %1。</translation>
    </message>
    <message>
        <source>%1 was closed because another entry of the archive was opened.</source>
        <translation>%1 已被关闭，因为打开了压缩包中的另一个文件。</translation>
    </message>
    <message>
        <source>The compressed data of %1 is damaged.</source>
        <translation>%1 的压缩数据已损坏。</translation>
    </message>
    <message>
        <source>The archive changed after it was checked; it is not used. Choose it again to check it anew.</source>
        <translation>压缩包在检查之后被改动过，因此不会使用它。请重新选择它，再检查一遍。</translation>
    </message>
    <message>
        <source>%1 cannot be written. Is the disk full?</source>
        <translation>无法写入 %1，请检查磁盘空间是否已满。</translation>
    </message>
    <message>
        <source>The staging folder %1 exists already; it is left as it is.</source>
        <translation>暂存文件夹 %1 已经存在，将保持原样。</translation>
    </message>
    <message>
        <source>Check that the file exists and that you may read it.</source>
        <translation>请确认该文件存在，并且你有权限读取它。</translation>
    </message>
    <message>
        <source>%1 is not a zip archive.</source>
        <translation>%1 不是 .zip 压缩包。</translation>
    </message>
    <message>
        <source>Choose the .zip archive itself.</source>
        <translation>请选择 .zip 压缩包本身。</translation>
    </message>
    <message>
        <source>The archive %1 has no entry number %2.</source>
        <translation>压缩包 %1 中没有编号为 %2 的条目。</translation>
    </message>
    <message>
        <source>%1 in the archive %2 is encrypted and cannot be read.</source>
        <translation>压缩包 %2 中的 %1 已加密，无法读取。</translation>
    </message>
    <message>
        <source>%1 in the archive %2 is compressed with method %3; only stored and deflated entries can be read.</source>
        <translation>压缩包 %2 中的 %1 使用了压缩方法 %3；只能读取未压缩（stored）或用 deflate 压缩的文件。</translation>
    </message>
    <message>
        <source>The archive %1 is damaged or incomplete.</source>
        <translation>压缩包 %1 已损坏或不完整。</translation>
    </message>
    <message>
        <source>Download the archive again.</source>
        <translation>请重新下载该压缩包。</translation>
    </message>
    <message>
        <source>Choose a cuDNN release that NVIDIA built for CUDA %1.</source>
        <translation>请换一个 NVIDIA 为 CUDA %1 构建的 cuDNN 版本。</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 needs the CUDA %2 libraries, but no CUDA %2 toolkit is installed (the newest here is CUDA %3).</source>
        <translation>cuDNN %1（CUDA %2 版）需要 CUDA %2 的运行库，但这台电脑没有安装 CUDA %2 工具包（已安装的最新版本是 CUDA %3）。</translation>
    </message>
    <message>
        <source>%1 is not a Python virtual environment: it has no pyvenv.cfg or no %2.</source>
        <translation>%1 不是 Python 虚拟环境：其中没有 pyvenv.cfg 或没有 %2。</translation>
    </message>
    <message>
        <source>Give the folder that holds pyvenv.cfg, or create the environment with python -m venv.</source>
        <translation>请指定包含 pyvenv.cfg 的文件夹，或先用 python -m venv 创建该环境。</translation>
    </message>
    <message>
        <source>%1 is not a conda environment: it has no conda-meta folder.</source>
        <translation>%1 不是 conda 环境：其中没有 conda-meta 文件夹。</translation>
    </message>
    <message>
        <source>Give the environment&apos;s name or folder as &quot;conda env list&quot; shows it.</source>
        <translation>请按“conda env list”显示的内容填写环境名称或文件夹。</translation>
    </message>
    <message>
        <source>No conda environment named &quot;%1&quot; was found.</source>
        <translation>未找到名为“%1”的 conda 环境。</translation>
    </message>
    <message>
        <source>%1 already holds this cuDNN, installed the same way; its files are replaced.</source>
        <translation>%1 中已按相同方式安装过这个 cuDNN，其中的文件将被替换。</translation>
    </message>
    <message>
        <source>%1 already holds cuDNN files that were not put there by this setup; those with the same names are replaced, the others stay.</source>
        <translation>%1 中已有并非由本安装程序放入的 cuDNN 文件；同名文件将被替换，其余文件保留。</translation>
    </message>
    <message>
        <source>Choose an empty folder to keep the existing copy as it is.</source>
        <translation>如需保持现有副本不变，请选择一个空文件夹。</translation>
    </message>
    <message>
        <source>%1 is not empty: it holds files that are not part of this cuDNN, such as %2 (%3 in all).</source>
        <translation>%1 不是空文件夹：其中有不属于此 cuDNN 的文件，例如 %2（共 %3 个）。</translation>
    </message>
    <message>
        <source>Choose an empty folder, or a new folder inside this one.</source>
        <translation>请选择一个空文件夹，或在此文件夹中新建一个文件夹。</translation>
    </message>
    <message>
        <source>Writing to %1 was refused; administrator rights would allow it.</source>
        <translation>写入 %1 被拒绝；以管理员身份运行即可写入。</translation>
    </message>
    <message>
        <source>Let the setup run as administrator, or choose a folder you can write to, such as the per-user folder.</source>
        <translation>请以管理员身份运行安装程序，或选择一个你有写入权限的文件夹，例如当前用户的文件夹。</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation>%1 是文件，不是文件夹</translation>
    </message>
    <message>
        <source>%1 cannot be written (%2); administrator rights would not help.</source>
        <translation>无法写入 %1（%2）；即使有管理员权限也无济于事。</translation>
    </message>
    <message>
        <source>Choose another folder.</source>
        <translation>请选择其他文件夹。</translation>
    </message>
    <message>
        <source>The free space on the drive of %1 could not be read; the installation needs %2.</source>
        <translation>无法读取 %1 所在磁盘的可用空间；安装需要 %2。</translation>
    </message>
    <message>
        <source>The drive of %1 has %2 free, but the installation needs %3.</source>
        <translation>%1 所在磁盘只剩 %2 可用空间，但安装需要 %3。</translation>
    </message>
    <message>
        <source>Free %1 on that drive, or choose a folder on another drive.</source>
        <translation>请在该磁盘上再腾出 %1，或选择其他磁盘上的文件夹。</translation>
    </message>
    <message>
        <source>%1 is on another drive than %2, so its files cannot be moved into place in one step.</source>
        <translation>%1 与 %2 不在同一个磁盘上，文件无法一步移动到位。</translation>
    </message>
    <message>
        <source>Choose a folder whose subfolders are all on one drive.</source>
        <translation>请选择其子文件夹都在同一磁盘上的文件夹。</translation>
    </message>
    <message>
        <source>The name &quot;%1&quot; in %2 is reserved by Windows (a device name, or a name ending in a dot or a space).</source>
        <translation>%2 中的名称“%1”是 Windows 保留的名称（设备名，或以句点或空格结尾的名称）。</translation>
    </message>
    <message>
        <source>Choose another folder name.</source>
        <translation>请换一个文件夹名称。</translation>
    </message>
    <message>
        <source>The name &quot;%1&quot; in %2 contains %3, which Windows does not allow in file names.</source>
        <translation>%2 中的名称“%1”含有 %3，Windows 不允许在文件名中使用该字符。</translation>
    </message>
    <message>
        <source>%1 is too long: its longest file path would have %2 characters, and many programs still cannot open paths of %3 characters or more.</source>
        <translation>%1 太长：其中最长的文件路径将有 %2 个字符，而许多程序仍无法打开 %3 个字符及以上的路径。</translation>
    </message>
    <message>
        <source>Choose a folder with a shorter path.</source>
        <translation>请选择路径更短的文件夹。</translation>
    </message>
    <message>
        <source>There is no CUDA toolkit in %1.</source>
        <translation>%1 中没有 CUDA 工具包。</translation>
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder.</source>
        <translation>请先安装 CUDA 工具包，或将 cuDNN 安装到单独的文件夹。</translation>
    </message>
    <message>
        <source>No CUDA %1 toolkit that this driver can run is installed for cuDNN for CUDA %2.</source>
        <translation>未安装可供 CUDA %2 版 cuDNN 使用、且当前驱动能运行的 CUDA %1 工具包。</translation>
    </message>
    <message>
        <source>The archive does not say which CUDA it is for, so no toolkit can be chosen for it.</source>
        <translation>压缩包没有说明它对应哪个 CUDA 版本，因此无法为它选择工具包。</translation>
    </message>
    <message>
        <source>No CUDA %1 toolkit is installed.</source>
        <translation>未安装 CUDA %1 工具包。</translation>
    </message>
    <message>
        <source>Install the CUDA toolkit first, or install cuDNN into its own folder (--target dir).</source>
        <translation>请先安装 CUDA 工具包，或将 cuDNN 安装到单独的文件夹（--target dir）。</translation>
    </message>
    <message>
        <source>The per-user program folder is not known: LOCALAPPDATA is not set.</source>
        <translation>无法确定当前用户的程序文件夹：未设置 LOCALAPPDATA。</translation>
    </message>
    <message>
        <source>Give the folder with --target dir:PATH.</source>
        <translation>请用 --target dir:PATH 指定文件夹。</translation>
    </message>
    <message>
        <source>No target folder is given.</source>
        <translation>未指定目标文件夹。</translation>
    </message>
    <message>
        <source>Choose the folder to install cuDNN into.</source>
        <translation>请选择要安装 cuDNN 的文件夹。</translation>
    </message>
    <message>
        <source>The target %1 is a relative path.</source>
        <translation>目标 %1 是相对路径。</translation>
    </message>
    <message>
        <source>Give the full path of the folder, with its drive (C:\...).</source>
        <translation>请给出包含盘符的完整文件夹路径（如 C:\…）。</translation>
    </message>
    <message>
        <source>Another install, uninstall or repair of cuDNN is running.</source>
        <translation>另一个 cuDNN 的安装、卸载或修复正在进行。</translation>
    </message>
    <message>
        <source>Wait until it has finished, then try again.</source>
        <translation>请等它结束后再试。</translation>
    </message>
    <message>
        <source>Checking whether the DLLs need zlibwapi.dll</source>
        <translation>正在检查这些 DLL 是否需要 zlibwapi.dll</translation>
    </message>
    <message>
        <source>The archive %1 did not pass its check, so nothing is installed.</source>
        <translation>压缩包 %1 没有通过检查，因此什么都没有安装。</translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl inspect&quot; on it to see why.</source>
        <translation>请对它运行“cudnnctl inspect”查看原因。</translation>
    </message>
    <message>
        <source>No install with the id %1 was found.</source>
        <translation>找不到编号为 %1 的安装。</translation>
    </message>
    <message>
        <source>cuDNN Setup has installed nothing here.</source>
        <translation>cuDNN 安装向导还没有在这里安装过任何内容。</translation>
    </message>
    <message>
        <source>There are %1 installs; say which one to remove: %2.</source>
        <translation>这里有 %1 次安装，请指明要卸载哪一次：%2。</translation>
    </message>
    <message>
        <source>These files changed since cuDNN Setup installed them, so nothing is removed: %1</source>
        <translation>这些文件在 cuDNN 安装向导安装之后被改动过，因此没有删除任何文件：%1</translation>
    </message>
    <message>
        <source>Put the files back as they were, or remove them yourself if you changed them on purpose.</source>
        <translation>请把这些文件恢复原样；如果是你有意改动的，请自行删除。</translation>
    </message>
    <message>
        <source>%1 was changed since the install, so it is left as it is.</source>
        <translation>%1 在安装之后被改动过，因此保持原样。</translation>
    </message>
    <message>
        <source>The install journal %1 cannot be written.</source>
        <translation>无法写入安装日志 %1。</translation>
    </message>
    <message>
        <source>Make room on the disk and try again.</source>
        <translation>请腾出磁盘空间后再试。</translation>
    </message>
    <message>
        <source>The install journal %1 cannot be read.</source>
        <translation>无法读取安装日志 %1。</translation>
    </message>
    <message>
        <source>%1 cannot be changed.</source>
        <translation>无法更改 %1。</translation>
    </message>
    <message>
        <source>Close programs that use it, check that the disk is not full, and try again.</source>
        <translation>请关闭正在使用它的程序，确认磁盘没有写满，然后再试。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Placing %1</source>
        <translation>正在放置 %1</translation>
    </message>
    <message>
        <source>Unpacking %1</source>
        <translation>正在解压 %1</translation>
    </message>
    <message>
        <source>Creating %1</source>
        <translation>正在创建 %1</translation>
    </message>
    <message>
        <source>Removing %1</source>
        <translation>正在删除 %1</translation>
    </message>
    <message>
        <source>Setting the environment variable %1</source>
        <translation>正在设置环境变量 %1</translation>
    </message>
    <message>
        <source>Adding %1 to PATH</source>
        <translation>正在把 %1 加入 PATH</translation>
    </message>
    <message>
        <source>Taking %1 off PATH</source>
        <translation>正在从 PATH 中移除 %1</translation>
    </message>
    <message>
        <source>PATH changed after it was examined, so the planned changes were not made.</source>
        <translation>PATH 在检查之后又被修改过，因此未执行计划中的更改。</translation>
    </message>
    <message>
        <source>Check PATH again, then repeat the step.</source>
        <translation>请重新检查 PATH，然后再执行这一步。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be put on PATH: its name contains %2.</source>
        <translation>无法将文件夹 %1 加入 PATH：其名称中含有 %2。</translation>
    </message>
    <message>
        <source>Choose a folder whose name does not contain %1.</source>
        <translation>请选择名称中不含 %1 的文件夹。</translation>
    </message>
    <message>
        <source>%1 is on PATH more than once; only the first one counts.</source>
        <translation>%1 在 PATH 中出现了多次，只有第一个生效。</translation>
    </message>
    <message>
        <source>Remove the later copy.</source>
        <translation>删除后面重复的那一项。</translation>
    </message>
    <message>
        <source>%1 holds another cuDNN and comes before %2 on PATH, so programs would load that cuDNN instead.</source>
        <translation>%1 中有另一个 cuDNN，并且在 PATH 中位于 %2 之前，程序会改为加载那个 cuDNN。</translation>
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2 and comes before %3 on PATH, so programs may load that toolkit&apos;s libraries instead.</source>
        <translation>%1 是 CUDA %2 的 bin 文件夹，并且在 PATH 中位于 %3 之前，程序可能会改为加载该工具包的库。</translation>
    </message>
    <message>
        <source>Move %1 behind %2 on PATH, or remove it from PATH.</source>
        <translation>在 PATH 中把 %1 移到 %2 之后，或将其从 PATH 中删除。</translation>
    </message>
    <message>
        <source>%1 holds another cuDNN; it comes after %2 on PATH, so it does not get in the way.</source>
        <translation>%1 中有另一个 cuDNN；它在 PATH 中位于 %2 之后，因此不会造成影响。</translation>
    </message>
    <message>
        <source>%1 is the bin folder of CUDA %2; it comes after %3 on PATH, so it does not get in the way.</source>
        <translation>%1 是 CUDA %2 的 bin 文件夹；它在 PATH 中位于 %3 之后，因此不会造成影响。</translation>
    </message>
    <message>
        <source>Remove it from PATH if nothing uses it any more.</source>
        <translation>如果已不再使用，可将其从 PATH 中删除。</translation>
    </message>
    <message>
        <source>Remove folders that are no longer needed from PATH.</source>
        <translation>请从 PATH 中删除不再需要的文件夹。</translation>
    </message>
    <message>
        <source>PATH would be %1 characters long, more than the %2 characters an environment variable can hold.</source>
        <translation>PATH 将达到 %1 个字符，超过了环境变量最多能容纳的 %2 个字符。</translation>
    </message>
    <message>
        <source>PATH is %1 characters long. The Windows environment variable editor and some older tools cut or refuse values longer than %2 characters.</source>
        <translation>PATH 长度为 %1 个字符。Windows 的环境变量编辑器和一些旧工具会截断或拒绝超过 %2 个字符的值。</translation>
    </message>
    <message>
        <source>This is not a cuDNN Setup receipt.</source>
        <translation>这不是 cuDNN 安装向导的安装记录。</translation>
    </message>
    <message>
        <source>A step of the interrupted install (%1) cannot be undone.</source>
        <translation>被中断的安装中有一步（%1）无法撤销。</translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair had finished its work; it was completed.</source>
        <translation>发现一次被中断的安装、卸载或修复，它的工作其实已经做完，现已收尾。</translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair was found and undone; the system is as it was before it.</source>
        <translation>发现一次被中断的安装、卸载或修复，已将其撤销；系统已恢复到它开始之前的样子。</translation>
    </message>
    <message>
        <source>%1 needs zlibwapi.dll, and this build of cuDNN Setup has none to install.</source>
        <translation>%1 需要 zlibwapi.dll，但此版本的 cuDNN 安装向导没有附带可安装的 zlibwapi.dll。</translation>
    </message>
    <message>
        <source>Put a 64-bit zlibwapi.dll beside the cuDNN DLLs, or use a build of cuDNN Setup that includes it.</source>
        <translation>请把 64 位的 zlibwapi.dll 放到 cuDNN DLL 所在的文件夹，或改用附带该文件的 cuDNN 安装向导版本。</translation>
    </message>
    <message>
        <source>Whether %1 needs zlibwapi.dll is unknown: the list of DLLs it imports could not be read.</source>
        <translation>无法确定 %1 是否需要 zlibwapi.dll：读取不到它所依赖的 DLL 列表。</translation>
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is not a Windows DLL: cuDNN cannot load it.</source>
        <translation>程序会最先找到 %1 这个 zlibwapi.dll，但它不是 Windows DLL，cuDNN 无法加载。</translation>
    </message>
    <message>
        <source>Remove or replace %1; cuDNN Setup puts a 64-bit zlibwapi.dll beside the cuDNN DLLs.</source>
        <translation>请删除或替换 %1；cuDNN 安装向导会在 cuDNN DLL 旁边放一个 64 位的 zlibwapi.dll。</translation>
    </message>
    <message>
        <source>%1 is the first zlibwapi.dll programs would find, but it is a %2-bit DLL for %3, not 64-bit x64: cuDNN cannot load it (Windows error 193).</source>
        <translation>程序会最先找到 %1 这个 zlibwapi.dll，但它是面向 %3 的 %2 位 DLL，而不是 64 位 x64 版本，cuDNN 无法加载它（Windows 错误 193）。</translation>
    </message>
    <message>
        <source>The environment variable %1 in %2 does not hold plain text, so it is left as it is.</source>
        <translation>%2 中的环境变量 %1 不是纯文本，因此保持原样不动。</translation>
    </message>
    <message>
        <source>Look at the value with the Registry Editor (regedit) and repair or delete it, then try again.</source>
        <translation>请用注册表编辑器（regedit）检查该值，修复或删除后再试。</translation>
    </message>
    <message>
        <source>The stored environment variable %1 cannot be read or changed on this system.</source>
        <translation>在此系统上无法读取或更改已保存的环境变量 %1。</translation>
    </message>
    <message>
        <source>The environment variable %1 could not be read from %2.</source>
        <translation>无法从 %2 读取环境变量 %1。</translation>
    </message>
    <message>
        <source>The environment variable %1 could not be removed from %2.</source>
        <translation>无法从 %2 删除环境变量 %1。</translation>
    </message>
    <message>
        <source>The environment variable %1 could not be written to %2.</source>
        <translation>无法将环境变量 %1 写入 %2。</translation>
    </message>
    <message>
        <source>Changing the system&apos;s environment variables needs an administrator: run the setup as an administrator, or choose the user PATH instead.</source>
        <translation>更改系统环境变量需要管理员权限：请以管理员身份运行安装程序，或改为使用用户 PATH。</translation>
    </message>
    <message>
        <source>Check that your account may change %1.</source>
        <translation>请确认你的账户有权修改 %1。</translation>
    </message>
    <message>
        <source>Access to the environment variable %1 in %2 was denied.</source>
        <translation>访问 %2 中的环境变量 %1 被拒绝。</translation>
    </message>
    <message>
        <source>Starting a program with administrator rights works on Windows only.</source>
        <translation>只有在 Windows 上才能以管理员权限启动程序。</translation>
    </message>
    <message>
        <source>Run the command as root instead, for example with sudo.</source>
        <translation>请改用 root 身份运行该命令，例如使用 sudo。</translation>
    </message>
    <message>
        <source>This account is not an administrator and User Account Control is turned off, so administrator rights cannot be requested.</source>
        <translation>此账户不是管理员，且用户账户控制（UAC）已关闭，因此无法申请管理员权限。</translation>
    </message>
    <message>
        <source>Choose a per-user target, or sign in as an administrator and run it again.</source>
        <translation>请选择仅对当前用户生效的安装位置，或以管理员身份登录后重新运行。</translation>
    </message>
    <message>
        <source>The administrator permission was declined; nothing was changed.</source>
        <translation>已拒绝授予管理员权限，未做任何更改。</translation>
    </message>
    <message>
        <source>Run it again and choose Yes when Windows asks for permission, or choose a per-user target.</source>
        <translation>请重新运行，并在 Windows 请求权限时选择“是”；或者选择仅对当前用户生效的安装位置。</translation>
    </message>
    <message>
        <source>%1 could not be started with administrator rights.</source>
        <translation>无法以管理员权限启动 %1。</translation>
    </message>
    <message>
        <source>Check that the program exists and that this account may run programs as an administrator.</source>
        <translation>请检查该程序是否存在，以及此账户能否以管理员身份运行程序。</translation>
    </message>
    <message>
        <source>This runs as the SYSTEM account, so the per-user PATH would be SYSTEM&apos;s own and no person&apos;s; it is not changed.</source>
        <translation>当前以 SYSTEM 账户运行，用户级 PATH 将是 SYSTEM 自己的，不属于任何实际用户，因此不做更改。</translation>
    </message>
    <message>
        <source>Choose the system PATH (--path system), or run it as the user whose PATH should change.</source>
        <translation>请改选系统 PATH（--path system），或以需要修改 PATH 的那个用户身份运行。</translation>
    </message>
    <message>
        <source>The programs that use the files to be replaced cannot be listed.</source>
        <translation>无法列出正在使用待替换文件的程序。</translation>
    </message>
    <message>
        <source>Close the programs that may use cuDNN (Python, Jupyter, IDEs) and try again.</source>
        <translation>请关闭可能正在使用 cuDNN 的程序（Python、Jupyter、IDE 等）后重试。</translation>
    </message>
    <message>
        <source>cuDNN files that would be replaced are in use by: %1.</source>
        <translation>要替换的 cuDNN 文件正被这些程序使用：%1。</translation>
    </message>
    <message>
        <source>The part that ran with administrator rights left no result (exit code %1).</source>
        <translation>以管理员权限运行的那部分没有留下结果（退出码 %1）。</translation>
    </message>
    <message>
        <source>Windows will ask for administrator rights when the installation starts: %1 is writable only for administrators.</source>
        <translation>开始安装时 Windows 会请求管理员权限：只有管理员才能写入 %1。</translation>
    </message>
    <message>
        <source>Install one first: cudnnctl install --archive FILE.zip</source>
        <translation>请先安装：cudnnctl install --archive FILE.zip</translation>
    </message>
    <message>
        <source>The file is shorter than its ELF headers say; it is probably an incomplete download or copy.</source>
        <translation>文件比 ELF 头声明的要短，可能是下载或复制不完整。</translation>
    </message>
    <message>
        <source>The list of libraries the file needs (its ELF dynamic section) is damaged.</source>
        <translation>文件中记录所需依赖库的部分（ELF 动态段）已损坏。</translation>
    </message>
    <message>
        <source>The file is a big-endian ELF file; only little-endian ones (x86-64, AArch64) are read.</source>
        <translation>该文件是大端序 ELF 文件；本程序只读取小端序文件（x86-64、AArch64）。</translation>
    </message>
    <message>
        <source>The system changed since the diagnosis, so the repair is not made.</source>
        <translation>诊断之后系统又有变动，本次修复不执行。</translation>
    </message>
    <message>
        <source>Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1.</source>
        <translation>让修复程序把 64 位的 zlibwapi.dll 放到 %1 中 cuDNN DLL 的旁边。</translation>
    </message>
    <message>
        <source>Let the repair put a 64-bit zlibwapi.dll beside the cuDNN DLLs in %1. Python 3.8 and newer (%2) do not look for it on PATH: only beside the cuDNN DLLs, in System32 and beside python.exe.</source>
        <translation>让修复程序把 64 位的 zlibwapi.dll 放到 %1 中 cuDNN DLL 的旁边。Python 3.8 及更高版本（%2）不会在 PATH 里找它，只会在 cuDNN DLL 所在目录、System32 和 python.exe 所在目录里找。</translation>
    </message>
    <message>
        <source>The cuDNN in %1 is incomplete: %2 is there, but %3 are missing, so programs fail when cuDNN loads them (error 126).</source>
        <translation>%1 中的 cuDNN 不完整：%2 在，但缺少 %3，程序在 cuDNN 加载它们时会失败（错误 126）。</translation>
    </message>
    <message>
        <source>Copy every library of the cuDNN archive into %1, not only %2, or give the archive to the repair (--archive) so that it copies them.</source>
        <translation>把 cuDNN 压缩包里的所有库文件都复制到 %1，而不只是 %2；或者把压缩包交给修复程序（--archive），由它来复制。</translation>
    </message>
    <message>
        <source>%1 could not be loaded (%2): %3</source>
        <translation>无法加载 %1（%2）：%3</translation>
    </message>
    <message>
        <source>%1 needs %2, but the first %2 the loader finds is %3, a DLL for %4: loading fails with error 193.</source>
        <translation>%1 依赖 %2，但加载器最先找到的 %2 是 %3，这是 %4 平台的 DLL，加载会以错误 193 失败。</translation>
    </message>
    <message>
        <source>Remove or rename %1, or put a folder with the 64-bit %2 earlier on PATH.</source>
        <translation>删除或重命名 %1，或者把含有 64 位 %2 的文件夹放到 PATH 中更靠前的位置。</translation>
    </message>
    <message>
        <source>%1 needs %2, which is nowhere the loader looks (error 126).</source>
        <translation>%1 依赖 %2，但加载器搜索的所有位置都找不到它（错误 126）。</translation>
    </message>
    <message>
        <source>Install the CUDA toolkit that provides %1 and put the folder that holds it on PATH.</source>
        <translation>安装提供 %1 的 CUDA 工具包，并把包含它的文件夹加入 PATH。</translation>
    </message>
    <message>
        <source>%1 is a %2-bit DLL for %3, not x64: a 64-bit program cannot load it (error 193).</source>
        <translation>%1 是 %3 平台的 %2 位 DLL，不是 x64 的，64 位程序无法加载它（错误 193）。</translation>
    </message>
    <message>
        <source>Replace it with the DLLs of NVIDIA&apos;s windows-x86_64 archive.</source>
        <translation>请换成 NVIDIA windows-x86_64 压缩包里的 DLL。</translation>
    </message>
    <message>
        <source>Move %1 behind %2 on PATH.</source>
        <translation>在 PATH 中把 %1 移到 %2 之后。</translation>
    </message>
    <message>
        <source>Let the repair rename the cuDNN DLLs in %1 so that the loader skips them (uninstalling the repair renames them back).</source>
        <translation>让修复程序把 %1 中的 cuDNN DLL 改名，使加载器跳过它们（卸载这次修复时会改回原名）。</translation>
    </message>
    <message>
        <source>Let the repair move %1 behind %2 on PATH.</source>
        <translation>让修复程序在 PATH 中把 %1 移到 %2 之后。</translation>
    </message>
    <message>
        <source>%1 is on the PATH of this session only: open a new terminal, or take it off the PATH of the program that starts yours.</source>
        <translation>%1 只在当前会话的 PATH 里：请打开一个新的终端，或者从启动你的程序的父进程的 PATH 中移除它。</translation>
    </message>
    <message>
        <source>Take %1 out of LD_LIBRARY_PATH (and your shell profile), or put %2 before it.</source>
        <translation>把 %1 从 LD_LIBRARY_PATH（以及 shell 配置文件）中去掉，或者把 %2 放到它前面。</translation>
    </message>
    <message>
        <source>Programs load %1 (cuDNN %2) instead of %3 (cuDNN %4), because %5 comes first in the library search.</source>
        <translation>程序加载的是 %1（cuDNN %2），而不是 %3（cuDNN %4），因为库搜索时 %5 排在前面。</translation>
    </message>
    <message>
        <source>torch %1 in %2 can load the cuDNN in %3 (%4): Windows searches that folder before PATH and before torch&apos;s own DLLs.</source>
        <translation>%2 中的 torch %1 可能会加载 %3 里的 cuDNN（%4）：Windows 会先搜索这个文件夹，再搜索 PATH 和 torch 自带的 DLL。</translation>
    </message>
    <message>
        <source>Add %2 to the end of PATH; %1 stays for the programs in it.</source>
        <translation>把 %2 加到 PATH 末尾；%1 保留，供其中的程序使用。</translation>
    </message>
    <message>
        <source>PATH names %1, but cuDNN %2 keeps its DLLs in the subfolder %3: Windows does not search subfolders, so programs do not find %4.</source>
        <translation>PATH 中写的是 %1，但 cuDNN %2 的 DLL 在子文件夹 %3 里：Windows 不会搜索子文件夹，所以程序找不到 %4。</translation>
    </message>
    <message>
        <source>PATH names %1 instead of %2, the folder that holds the cuDNN DLLs: Windows does not search subfolders, so programs do not find %3.</source>
        <translation>PATH 中写的是 %1，而不是真正存放 cuDNN DLL 的 %2：Windows 不会搜索子文件夹，所以程序找不到 %3。</translation>
    </message>
    <message>
        <source>Let the repair add %2 to the end of PATH; %1 stays for the programs in it.</source>
        <translation>让修复程序把 %2 加到 PATH 末尾；%1 保留，供其中的程序使用。</translation>
    </message>
    <message>
        <source>Add %1 to your user PATH.</source>
        <translation>把 %1 加入用户 PATH。</translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 is on no PATH, so programs that load %3 by name do not find it.</source>
        <translation>%2 中的 cuDNN %1 不在任何 PATH 里，按名称加载 %3 的程序找不到它。</translation>
    </message>
    <message>
        <source>Let the repair add %1 to your user PATH, then open a new terminal.</source>
        <translation>让修复程序把 %1 加入用户 PATH，然后打开一个新的终端。</translation>
    </message>
    <message>
        <source>%1 (Python %2) does not search PATH for the DLLs its modules import, so %3 may not find the cuDNN in %4, which only PATH names.</source>
        <translation>%1（Python %2）不会在 PATH 中查找模块所依赖的 DLL，所以 %3 可能找不到 %4 里的 cuDNN——这个目录只出现在 PATH 中。</translation>
    </message>
    <message>
        <source>Call os.add_dll_directory(r&quot;%1&quot;) in the program before it imports %2, or let cuDNN Setup install cuDNN into this Python environment.</source>
        <translation>在程序导入 %2 之前调用 os.add_dll_directory(r&quot;%1&quot;)，或者让 cuDNN 安装向导把 cuDNN 安装到这个 Python 环境。</translation>
    </message>
    <message>
        <source>cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): it is built for CUDA %1, but the program uses the CUDA %2 runtime.</source>
        <translation>cuDNN 无法初始化（CUDNN_STATUS_NOT_INITIALIZED）：它是为 CUDA %1 编译的，而程序用的是 CUDA %2 运行时。</translation>
    </message>
    <message>
        <source>cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): most often the driver is too old for the CUDA runtime, or this cuDNN is built for another CUDA than the program uses.</source>
        <translation>cuDNN 无法初始化（CUDNN_STATUS_NOT_INITIALIZED）：最常见的原因是驱动对这个 CUDA 运行时来说太旧，或者这个 cuDNN 是为另一个 CUDA 版本编译的。</translation>
    </message>
    <message>
        <source>Use the cuDNN archive built for the CUDA major the program uses, and update the driver if the check reports it too old.</source>
        <translation>使用与程序所用 CUDA 主版本对应的 cuDNN 压缩包；如果检查提示驱动太旧，请更新驱动。</translation>
    </message>
    <message>
        <source>This machine has no NVIDIA GPU or driver: cuDNN can be installed and loaded, but not run here.</source>
        <translation>这台电脑没有 NVIDIA 显卡或驱动：cuDNN 可以安装和加载，但无法在这里运行。</translation>
    </message>
    <message>
        <source>%1 has no working NVIDIA driver.</source>
        <translation>%1 没有可用的 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Install the newest NVIDIA driver for this GPU, then run the check again.</source>
        <translation>请为这块显卡安装最新的 NVIDIA 驱动，然后重新检查。</translation>
    </message>
    <message>
        <source>The driver is too old for the CUDA %1 runtime the program loaded (cudaErrorInsufficientDriver): it supports CUDA up to %2.</source>
        <translation>驱动对程序加载的 CUDA %1 运行时来说太旧（cudaErrorInsufficientDriver）：它最高只支持 CUDA %2。</translation>
    </message>
    <message>
        <source>Restore PATH from a backup or type the lost entries again (System Properties &gt; Environment Variables); never change PATH with setx.</source>
        <translation>请用备份恢复 PATH，或者手动补上丢失的条目（系统属性 &gt; 环境变量）；不要用 setx 修改 PATH。</translation>
    </message>
    <message>
        <source>PATH in %1 is exactly 1,024 characters long, the most setx stores: it was probably cut off, and the entries after the cut are lost.</source>
        <translation>%1 中的 PATH 正好 1024 个字符，这是 setx 能保存的上限：它很可能被截断了，截断处之后的条目已经丢失。</translation>
    </message>
    <message>
        <source>PATH in %1 looks cut off: it ends in the middle of a folder name (%2, where %3 exists), as setx leaves it when it cuts a value to 1,024 characters. The entries after the cut are lost.</source>
        <translation>%1 中的 PATH 看起来被截断了：它结束在一个文件夹名的中间（%2，而实际存在的是 %3），这正是 setx 把值截到 1024 个字符后留下的样子。截断处之后的条目已经丢失。</translation>
    </message>
    <message>
        <source>CUDA_PATH names %1, but the cuDNN in use belongs to CUDA %2 in %3; build tools and programs that go by CUDA_PATH take the other toolkit.</source>
        <translation>CUDA_PATH 指向 %1，但正在使用的 cuDNN 属于 %3 中的 CUDA %2；依据 CUDA_PATH 的构建工具和程序会用到另一个工具包。</translation>
    </message>
    <message>
        <source>Let the repair set CUDA_PATH to %1.</source>
        <translation>让修复程序把 CUDA_PATH 设为 %1。</translation>
    </message>
    <message>
        <source>%1 holds cuDNN files (%2) that Windows redirected there from %3: only this user&apos;s programs without a manifest see them; every other program sees %3 without them.</source>
        <translation>%1 里有 cuDNN 文件（%2），是 Windows 把写入 %3 的操作重定向到了这里：只有当前用户的、没有清单（manifest）的程序能看到它们，其他程序看到的 %3 里都没有这些文件。</translation>
    </message>
    <message>
        <source>Install cuDNN again with administrator rights (cuDNN Setup asks for them), then delete %1.</source>
        <translation>请以管理员权限重新安装 cuDNN（cuDNN 安装向导会请求权限），然后删除 %1。</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES names %1, but this machine has no such GPU (it has %2): CUDA ignores that entry and every one after it.</source>
        <translation>CUDA_VISIBLE_DEVICES 指定了 %1，但这台电脑上没有这块显卡（共有 %2 块）：CUDA 会忽略这一项及其后的所有项。</translation>
    </message>
    <message>
        <source>Set CUDA_VISIBLE_DEVICES to GPU numbers from 0 to %1, or remove it.</source>
        <translation>把 CUDA_VISIBLE_DEVICES 设为 0 到 %1 之间的 GPU 编号，或者删除这个变量。</translation>
    </message>
    <message>
        <source>Close the terminal, IDE or Jupyter and open them again; sign out and in if a program started from the desktop still does not see the change.</source>
        <translation>请关闭终端、IDE 或 Jupyter 后重新打开；如果从桌面启动的程序仍然看不到变化，请注销后重新登录。</translation>
    </message>
    <message>
        <source>Rename the cuDNN files in %1 so that no program loads them any more (uninstalling the repair renames them back).</source>
        <translation>把 %1 中的 cuDNN 文件改名，让程序不再加载它们（卸载这次修复时会改回原名）。</translation>
    </message>
    <message>
        <source>Put cuDNN Setup&apos;s own 64-bit zlibwapi.dll into %1.</source>
        <translation>把 cuDNN 安装向导自带的 64 位 zlibwapi.dll 放到 %1。</translation>
    </message>
    <message>
        <source>Set %1 to %2.</source>
        <translation>把 %1 设为 %2。</translation>
    </message>
    <message>
        <source>Copy the %1 missing or different cuDNN DLLs from %2 into %3.</source>
        <translation>从 %2 中把缺失或不一致的 %1 个 cuDNN DLL 复制到 %3。</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Loading the library</source>
        <translation>加载库文件</translation>
    </message>
    <message>
        <source>Libraries it needs</source>
        <translation>所依赖的库</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Creating a cuDNN handle on the GPU</source>
        <translation>在显卡上创建 cuDNN 句柄</translation>
    </message>
    <message>
        <source>Test convolution on the GPU</source>
        <translation>在显卡上运行测试卷积</translation>
    </message>
    <message>
        <source>Frameworks (torch)</source>
        <translation>深度学习框架（torch）</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>WORKS</source>
        <translation>可以正常使用</translation>
    </message>
    <message>
        <source>cuDNN loads and runs on this computer.</source>
        <translation>cuDNN 在这台电脑上能正常加载和运行。</translation>
    </message>
    <message>
        <source>PROBLEMS</source>
        <translation>存在问题</translation>
    </message>
    <message>
        <source>cuDNN does not work here yet: see the problems below.</source>
        <translation>cuDNN 目前在这里还不能正常工作，请查看下面列出的问题。</translation>
    </message>
    <message>
        <source>NOT VERIFIED</source>
        <translation>尚未验证</translation>
    </message>
    <message>
        <source>No error was found, but cuDNN was not run to prove that it works.</source>
        <translation>没有发现错误，但还没有实际运行 cuDNN 来确认它能正常工作。</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Errors: %1, warnings: %2</source>
        <translation>错误 %1 个，警告 %2 个</translation>
    </message>
    <message>
        <source>cuDNN a newly started program loads</source>
        <translation>新启动的程序会加载的 cuDNN</translation>
    </message>
    <message>
        <source>Report made</source>
        <translation>报告生成时间</translation>
    </message>
    <message>
        <source>Made by</source>
        <translation>生成工具</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>Linux kernel</source>
        <translation>Linux 内核</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>CUDA toolkits</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>cuDNN copies</source>
        <translation>cuDNN 副本</translation>
    </message>
    <message>
        <source>For CUDA</source>
        <translation>适用的 CUDA</translation>
    </message>
    <message>
        <source>A newly started program</source>
        <translation>新启动的程序</translation>
    </message>
    <message>
        <source>Python and torch</source>
        <translation>Python 与 torch</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>Could not be asked</source>
        <translation>无法查询</translation>
    </message>
    <message>
        <source>CUDA torch was built for</source>
        <translation>torch 构建时所用的 CUDA</translation>
    </message>
    <message>
        <source>none (CPU only)</source>
        <translation>无（仅 CPU）</translation>
    </message>
    <message>
        <source>torch sees a GPU</source>
        <translation>torch 能否识别显卡</translation>
    </message>
    <message>
        <source>cuDNN torch uses</source>
        <translation>torch 使用的 cuDNN</translation>
    </message>
    <message>
        <source>cuDNN file torch loads</source>
        <translation>torch 加载的 cuDNN 文件</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is found nowhere the loader looks.</source>
        <translation>%2 需要的 %1 在加载器查找的所有位置都找不到。</translation>
    </message>
    <message>
        <source>%1 (needed by %2) is taken from %3, which is built for %4.</source>
        <translation>%2 需要的 %1 会从 %3 加载，但该文件是为 %4 构建的。</translation>
    </message>
    <message>
        <source>%1 (needed by %2) is taken from %3, which is not a library that can be loaded.</source>
        <translation>%2 需要的 %1 会从 %3 加载，但该文件不是可以加载的库。</translation>
    </message>
    <message>
        <source>It is delay-loaded: loading fails only when it is first used.</source>
        <translation>它是延迟加载的：只有在第一次用到时才会加载失败。</translation>
    </message>
    <message>
        <source>Folders looked in, in order:</source>
        <translation>依次查找过的文件夹：</translation>
    </message>
    <message>
        <source>It is the cuDNN that was checked</source>
        <translation>是否为本次检查的 cuDNN</translation>
    </message>
    <message>
        <source>Test convolution</source>
        <translation>测试卷积</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>cuDNN was not verified for this report.</source>
        <translation>本报告没有对 cuDNN 进行验证。</translation>
    </message>
    <message>
        <source>Folder checked</source>
        <translation>检查的文件夹</translation>
    </message>
    <message>
        <source>Chosen because</source>
        <translation>选择依据</translation>
    </message>
    <message>
        <source>Expected version</source>
        <translation>预期版本</translation>
    </message>
    <message>
        <source>Version the library reports</source>
        <translation>库自身报告的版本</translation>
    </message>
    <message>
        <source>Search path used</source>
        <translation>使用的搜索路径</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>What was found</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <source>Libraries that stop cuDNN from loading</source>
        <translation>导致 cuDNN 无法加载的库</translation>
    </message>
    <message>
        <source>Problems and fixes</source>
        <translation>问题与解决办法</translation>
    </message>
    <message>
        <source>Offered repair: %1</source>
        <translation>可用的修复：%1</translation>
    </message>
    <message>
        <source>It needs administrator rights.</source>
        <translation>需要管理员权限。</translation>
    </message>
    <message>
        <source>Found while looking at this computer</source>
        <translation>检测这台电脑时发现的情况</translation>
    </message>
    <message>
        <source>Installs by cuDNN Setup</source>
        <translation>cuDNN 安装向导的安装记录</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>压缩包</translation>
    </message>
    <message>
        <source>Installed into</source>
        <translation>安装位置</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>Environment changes</source>
        <translation>环境变量改动</translation>
    </message>
    <message>
        <source>Part of</source>
        <translation>所属安装记录</translation>
    </message>
    <message>
        <source>cuDNN Setup report</source>
        <translation>cuDNN 安装向导报告</translation>
    </message>
    <message>
        <source>Choose a folder you can write to.</source>
        <translation>请选择一个有写入权限的文件夹。</translation>
    </message>
    <message>
        <source>The folder %1 for the report could not be created.</source>
        <translation>无法创建用于保存报告的文件夹 %1。</translation>
    </message>
    <message>
        <source>The report file %1 could not be written.</source>
        <translation>无法写入报告文件 %1。</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>Dependencies</source>
        <translation>依赖</translation>
    </message>
    <message>
        <source>cuDNN handle</source>
        <translation>cuDNN 句柄</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>[ok]  </source>
        <translation>[通过]</translation>
    </message>
    <message>
        <source>[FAIL]</source>
        <translation>[失败]</translation>
    </message>
    <message>
        <source>[skip]</source>
        <translation>[跳过]</translation>
    </message>
    <message>
        <source>cuDNN checked: %1 (%2)</source>
        <translation>已检查的 cuDNN：%1（%2）</translation>
    </message>
    <message>
        <source>Verified in %1 s.</source>
        <translation>验证通过，用时 %1 秒。</translation>
    </message>
    <message>
        <source>Verification failed (%1 s).</source>
        <translation>验证未通过（用时 %1 秒）。</translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation>没有发现问题。</translation>
    </message>
    <message>
        <source>Repair offered: %1</source>
        <translation>可自动修复：%1</translation>
    </message>
    <message>
        <source>The library check gave an answer that cannot be read.</source>
        <translation>库文件检查返回的结果无法解析。</translation>
    </message>
    <message>
        <source>Copy the whole bin folder of the cuDNN archive, not only the main DLL; for cuDNN 8.3 to 8.9 also put a 64-bit zlibwapi.dll beside the cuDNN DLLs; and put the folder that holds the DLLs itself (not one above it) on PATH.</source>
        <translation>复制 cuDNN 压缩包里的整个 bin 文件夹，不要只复制主 DLL；cuDNN 8.3 到 8.9 还需要在 cuDNN 的 DLL 旁边放一个 64 位的 zlibwapi.dll；并把 DLL 所在的那一级文件夹（不是它的上级）加入 PATH。</translation>
    </message>
    <message>
        <source>The loader found %1 in none of the folders it searches (LD_LIBRARY_PATH, the library&apos;s RUNPATH, the ld.so.conf folders).</source>
        <translation>加载器在它搜索的所有文件夹（LD_LIBRARY_PATH、库的 RUNPATH、ld.so.conf 中的文件夹）里都没有找到 %1。</translation>
    </message>
    <message>
        <source>%1 needs %2, which the loader found in none of the folders it searches (LD_LIBRARY_PATH, the library&apos;s RUNPATH, the ld.so.conf folders).</source>
        <translation>%1 依赖 %2，但加载器在它搜索的所有文件夹（LD_LIBRARY_PATH、库的 RUNPATH、ld.so.conf 中的文件夹）里都没有找到它。</translation>
    </message>
    <message>
        <source>Install the missing library, or add the folder that holds it to LD_LIBRARY_PATH or to a file in /etc/ld.so.conf.d and run ldconfig.</source>
        <translation>安装缺少的库，或者把它所在的文件夹加入 LD_LIBRARY_PATH，或写入 /etc/ld.so.conf.d 下的配置文件后运行 ldconfig。</translation>
    </message>
    <message>
        <source>%1 needs the function %2, which none of the libraries loaded with it has: usually an older or other copy of a cuDNN or CUDA library was found first.</source>
        <translation>%1 需要函数 %2，但与它一起加载的库里都没有这个函数：通常是先找到了另一份或更旧的 cuDNN 或 CUDA 库。</translation>
    </message>
    <message>
        <source>Remove the older copy, or put the folder of the right one first in LD_LIBRARY_PATH, so that the libraries of one cuDNN release are found together.</source>
        <translation>删除旧的那份，或者把正确版本所在的文件夹放到 LD_LIBRARY_PATH 的最前面，确保加载到的都是同一个 cuDNN 版本的库。</translation>
    </message>
    <message>
        <source>%1 or a library it needs is built for another word size: a 32-bit library in a 64-bit program, or the reverse.</source>
        <translation>%1 或它依赖的某个库位数不对：在 64 位程序里加载了 32 位的库，或者反过来。</translation>
    </message>
    <message>
        <source>Use the 64-bit (x86_64 or sbsa) libraries of the cuDNN archive and a 64-bit program.</source>
        <translation>请使用 cuDNN 压缩包中的 64 位库（x86_64 或 sbsa），并用 64 位程序加载。</translation>
    </message>
    <message>
        <source>%1 needs version %2 of %3, but the copy the loader found is older than the one %1 was built against.</source>
        <translation>%1 需要 %3 的 %2 版本，但加载器找到的那份比 %1 编译时用的版本旧。</translation>
    </message>
    <message>
        <source>Update that library, or remove the older copy that the loader finds first.</source>
        <translation>升级该库，或删除加载器先找到的那份旧库。</translation>
    </message>
    <message>
        <source>%1 could not be loaded. The loader said: %2</source>
        <translation>无法加载 %1。加载器的原话：%2</translation>
    </message>
    <message>
        <source>Check that %1 and every library it needs are present, built for this processor, and in a folder the loader searches.</source>
        <translation>请确认 %1 及其依赖的所有库都存在、是为当前处理器构建的，并且位于加载器会搜索的文件夹中。</translation>
    </message>
    <message>
        <source>The call succeeded.</source>
        <translation>调用成功。</translation>
    </message>
    <message>
        <source>Nothing needs to be done.</source>
        <translation>无需处理。</translation>
    </message>
    <message>
        <source>cuDNN could not start (cudnnCreate failed). This is most often a GPU driver older than this cuDNN and CUDA need, or a cuDNN built for another CUDA version than the program uses.</source>
        <translation>cuDNN 无法初始化（cudnnCreate 失败）。最常见的原因是显卡驱动版本低于这个 cuDNN 和 CUDA 的要求，或者 cuDNN 是针对另一个 CUDA 版本构建的，与程序使用的 CUDA 不一致。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver, and use the cuDNN build for the CUDA version your program or framework was built with (the _cuda12 / _cuda13 part of the archive name).</source>
        <translation>请升级 NVIDIA 驱动，并使用与程序或框架编译时 CUDA 版本对应的 cuDNN 构建（看压缩包名中的 _cuda12 / _cuda13）。</translation>
    </message>
    <message>
        <source>The cuDNN libraries that were loaded come from different releases: files of two cuDNN copies are mixed.</source>
        <translation>加载的 cuDNN 库来自不同版本：两份 cuDNN 的文件混在了一起。</translation>
    </message>
    <message>
        <source>Copy the whole set of cuDNN libraries of one archive again, and remove the older copies that are found earlier on the search path.</source>
        <translation>重新复制同一个压缩包里的全部 cuDNN 库，并删除搜索路径中排在前面的旧版本。</translation>
    </message>
    <message>
        <source>The feature needs a license and checking it failed.</source>
        <translation>该功能需要许可证，但许可证检查失败。</translation>
    </message>
    <message>
        <source>Check that the license file is present and valid and that NVIDIA_LICENSE_FILE points to it.</source>
        <translation>请确认许可证文件存在且有效，并且 NVIDIA_LICENSE_FILE 指向该文件。</translation>
    </message>
    <message>
        <source>Work queued on the CUDA stream has not finished yet (an answer of cudnnQueryRuntimeError).</source>
        <translation>CUDA 流中排队的任务尚未完成（cudnnQueryRuntimeError 的返回结果）。</translation>
    </message>
    <message>
        <source>Not an installation problem: ask again once the stream has finished.</source>
        <translation>这不是安装问题：等流中的任务完成后再查询即可。</translation>
    </message>
    <message>
        <source>A numerical overflow happened while a GPU kernel ran.</source>
        <translation>GPU 核函数运行时发生了数值溢出。</translation>
    </message>
    <message>
        <source>Not an installation problem: the program&apos;s data or settings cause it; report it to the program&apos;s authors with the cuDNN version.</source>
        <translation>这不是安装问题，而是程序的数据或设置导致的；请附上 cuDNN 版本反馈给程序作者。</translation>
    </message>
    <message>
        <source>cuDNN could not allocate memory, usually GPU memory (cudaMalloc failed).</source>
        <translation>cuDNN 无法分配内存，通常是显存不足（cudaMalloc 失败）。</translation>
    </message>
    <message>
        <source>Close other programs that use the GPU (nvidia-smi lists them), or use a smaller batch or model.</source>
        <translation>关闭其他占用显卡的程序（可用 nvidia-smi 查看），或者减小 batch 或模型规模。</translation>
    </message>
    <message>
        <source>The program passed a wrong value or parameter to cuDNN.</source>
        <translation>程序向 cuDNN 传入了错误的值或参数。</translation>
    </message>
    <message>
        <source>Not an installation problem but a fault of the calling program; report it to its authors with the cuDNN version.</source>
        <translation>这不是安装问题，而是调用方程序的缺陷；请附上 cuDNN 版本反馈给程序作者。</translation>
    </message>
    <message>
        <source>An internal cuDNN operation failed.</source>
        <translation>cuDNN 内部操作失败。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and make sure every cuDNN library comes from the same release; if it still happens, report it to NVIDIA with the cuDNN and driver versions.</source>
        <translation>请升级 NVIDIA 驱动，并确认所有 cuDNN 库都来自同一版本；如果问题依旧，请附上 cuDNN 和驱动版本向 NVIDIA 反馈。</translation>
    </message>
    <message>
        <source>The GPU lacks a feature this function needs: its compute capability is not supported by this cuDNN.</source>
        <translation>显卡缺少该函数所需的功能：这个 cuDNN 不支持它的计算能力（compute capability）。</translation>
    </message>
    <message>
        <source>Use a cuDNN release whose support matrix lists this GPU&apos;s compute capability, or another GPU.</source>
        <translation>请换用支持矩阵中包含该显卡计算能力的 cuDNN 版本，或换一块显卡。</translation>
    </message>
    <message>
        <source>Accessing GPU memory failed, usually while binding a texture.</source>
        <translation>访问显存失败，通常发生在绑定纹理时。</translation>
    </message>
    <message>
        <source>A cuDNN kernel failed to launch or to run on the GPU.</source>
        <translation>cuDNN 核函数在显卡上启动或运行失败。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver, check that other CUDA programs work on this GPU, and run the check again with no other GPU work running.</source>
        <translation>请升级 NVIDIA 驱动，确认其他 CUDA 程序能在这块显卡上正常运行，然后在显卡没有运行其他任务时重新检查。</translation>
    </message>
    <message>
        <source>This cuDNN does not support the requested operation or configuration.</source>
        <translation>这个 cuDNN 不支持所请求的操作或配置。</translation>
    </message>
    <message>
        <source>Not an installation problem: the program asked for something cuDNN does not offer; a newer cuDNN or other settings in the program may support it.</source>
        <translation>这不是安装问题：程序请求了 cuDNN 不提供的功能；更新的 cuDNN 或程序中的其他设置也许可以支持。</translation>
    </message>
    <message>
        <source>A library cuDNN loads at run time, the CUDA driver&apos;s nvcuda.dll / libcuda.so, was not found.</source>
        <translation>找不到 cuDNN 运行时要加载的 CUDA 驱动库（nvcuda.dll / libcuda.so）。</translation>
    </message>
    <message>
        <source>Install or update the NVIDIA driver, then restart the computer.</source>
        <translation>安装或升级 NVIDIA 驱动，然后重启电脑。</translation>
    </message>
    <message>
        <source>cuDNN could not load one of its sub-libraries (such as cudnn_graph64_9.dll or libcudnn_graph.so.9): cuDNN 9 loads them by name when they are first needed.</source>
        <translation>cuDNN 无法加载它的某个子库（例如 cudnn_graph64_9.dll 或 libcudnn_graph.so.9）：cuDNN 9 会在首次用到时按文件名去加载这些子库。</translation>
    </message>
    <message>
        <source>Copy the whole set of cuDNN libraries of the archive into one folder and put that folder on the search path; Python 3.8 and later also need os.add_dll_directory() for it.</source>
        <translation>把压缩包里的全部 cuDNN 库复制到同一个文件夹，并把该文件夹加入搜索路径；Python 3.8 及以上版本还需要对它调用 os.add_dll_directory()。</translation>
    </message>
    <message>
        <source>A saved execution plan was made by another cuDNN version and cannot be read by this one.</source>
        <translation>保存的执行计划是由另一个 cuDNN 版本生成的，当前版本无法读取。</translation>
    </message>
    <message>
        <source>Not an installation problem: let the program build its saved plans again with this cuDNN.</source>
        <translation>这不是安装问题：让程序用当前的 cuDNN 重新生成保存的执行计划即可。</translation>
    </message>
    <message>
        <source>The program called a function that this cuDNN marks as deprecated.</source>
        <translation>程序调用了这个 cuDNN 标记为已弃用的函数。</translation>
    </message>
    <message>
        <source>The program passed a null pointer where cuDNN needs one.</source>
        <translation>程序在 cuDNN 需要有效指针的地方传入了空指针。</translation>
    </message>
    <message>
        <source>The program passed a pointer that is not aligned as cuDNN needs.</source>
        <translation>程序传入的指针没有按 cuDNN 要求对齐。</translation>
    </message>
    <message>
        <source>The program used a descriptor before finalizing it.</source>
        <translation>程序在描述符完成 finalize 之前就使用了它。</translation>
    </message>
    <message>
        <source>The program passed a value outside the range cuDNN accepts.</source>
        <translation>程序传入的值超出了 cuDNN 接受的范围。</translation>
    </message>
    <message>
        <source>A buffer or workspace the program passed is too small.</source>
        <translation>程序传入的缓冲区或工作空间太小。</translation>
    </message>
    <message>
        <source>The program mixed CUDA streams that do not belong together.</source>
        <translation>程序混用了本不应一起使用的 CUDA 流。</translation>
    </message>
    <message>
        <source>The tensor shapes the program passed do not fit together.</source>
        <translation>程序传入的张量形状互不匹配。</translation>
    </message>
    <message>
        <source>The program passed the same entry twice.</source>
        <translation>程序重复传入了同一项。</translation>
    </message>
    <message>
        <source>The program set a descriptor attribute with the wrong type.</source>
        <translation>程序用错误的类型设置了描述符属性。</translation>
    </message>
    <message>
        <source>The CUDA graph the program passed does not match what cuDNN expects.</source>
        <translation>程序传入的 CUDA 图与 cuDNN 预期的不一致。</translation>
    </message>
    <message>
        <source>The program passed a descriptor of the wrong type.</source>
        <translation>程序传入了类型错误的描述符。</translation>
    </message>
    <message>
        <source>No cuDNN engine supports this pattern of operations.</source>
        <translation>没有任何 cuDNN 引擎支持这种操作组合。</translation>
    </message>
    <message>
        <source>This cuDNN does not support these tensor shapes.</source>
        <translation>这个 cuDNN 不支持这些张量形状。</translation>
    </message>
    <message>
        <source>This cuDNN does not support this data type here.</source>
        <translation>这个 cuDNN 在此处不支持该数据类型。</translation>
    </message>
    <message>
        <source>This cuDNN does not support this memory layout.</source>
        <translation>这个 cuDNN 不支持这种内存布局。</translation>
    </message>
    <message>
        <source>The installed NVIDIA driver is too old for this cuDNN.</source>
        <translation>已安装的 NVIDIA 驱动对这个 cuDNN 来说太旧了。</translation>
    </message>
    <message>
        <source>The CUDA runtime the program loaded does not fit the CUDA version this cuDNN was built for.</source>
        <translation>程序加载的 CUDA 运行时与这个 cuDNN 构建时针对的 CUDA 版本不匹配。</translation>
    </message>
    <message>
        <source>The cuDNN sub-library this operation needs is not available.</source>
        <translation>该操作所需的 cuDNN 子库不可用。</translation>
    </message>
    <message>
        <source>The GPU has too little shared memory for this operation.</source>
        <translation>显卡的共享内存不足以执行该操作。</translation>
    </message>
    <message>
        <source>This cuDNN does not support this padding.</source>
        <translation>这个 cuDNN 不支持这种填充（padding）方式。</translation>
    </message>
    <message>
        <source>The operation would need GPU launch parameters this GPU does not allow.</source>
        <translation>该操作需要的核函数启动参数超出了这块显卡的限制。</translation>
    </message>
    <message>
        <source>This operation cannot be captured into a CUDA graph by cuDNN&apos;s native API.</source>
        <translation>该操作无法通过 cuDNN 原生 API 捕获到 CUDA 图中。</translation>
    </message>
    <message>
        <source>This cuDNN does not support these dynamic shapes.</source>
        <translation>这个 cuDNN 不支持这些动态形状。</translation>
    </message>
    <message>
        <source>cuDNN failed to compile a GPU kernel at run time.</source>
        <translation>cuDNN 在运行时编译 GPU 核函数失败。</translation>
    </message>
    <message>
        <source>cuDNN met a value it did not expect inside itself.</source>
        <translation>cuDNN 内部遇到了意外的值。</translation>
    </message>
    <message>
        <source>cuDNN could not allocate memory on the computer (host memory).</source>
        <translation>cuDNN 无法分配主机内存。</translation>
    </message>
    <message>
        <source>Close other programs to free memory and try again.</source>
        <translation>关闭其他程序释放内存后再试。</translation>
    </message>
    <message>
        <source>cuDNN could not allocate GPU memory.</source>
        <translation>cuDNN 无法分配显存。</translation>
    </message>
    <message>
        <source>cuDNN chose GPU launch parameters that the GPU refused.</source>
        <translation>cuDNN 选择的核函数启动参数被显卡拒绝。</translation>
    </message>
    <message>
        <source>The CUDA driver reported an error while cuDNN ran GPU work.</source>
        <translation>cuDNN 在显卡上执行任务时，CUDA 驱动报告了错误。</translation>
    </message>
    <message>
        <source>cuBLAS, which cuDNN calls, reported an error.</source>
        <translation>cuDNN 调用的 cuBLAS 报告了错误。</translation>
    </message>
    <message>
        <source>Make sure the cuBLAS libraries of the CUDA version this cuDNN was built for are found first, and update the NVIDIA driver.</source>
        <translation>确保优先找到的是与该 cuDNN 构建所用 CUDA 版本一致的 cuBLAS 库，并升级 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>The CUDA runtime reported an error while cuDNN ran GPU work.</source>
        <translation>cuDNN 在显卡上执行任务时，CUDA 运行时报告了错误。</translation>
    </message>
    <message>
        <source>cuRAND, which cuDNN calls, reported an error.</source>
        <translation>cuDNN 调用的 cuRAND 报告了错误。</translation>
    </message>
    <message>
        <source>The CUDA runtime could not allocate enough GPU memory or other resources.</source>
        <translation>CUDA 运行时无法分配足够的显存或其他资源。</translation>
    </message>
    <message>
        <source>The CUDA driver and runtime could not be initialized.</source>
        <translation>CUDA 驱动和运行时无法初始化。</translation>
    </message>
    <message>
        <source>The program loaded the CUDA toolkit&apos;s stub of the driver library instead of the real driver.</source>
        <translation>程序加载的是 CUDA 工具包里的驱动库桩文件（stub），而不是真正的驱动。</translation>
    </message>
    <message>
        <source>Remove the toolkit&apos;s stubs folder from PATH or LD_LIBRARY_PATH so that the driver&apos;s own library is found.</source>
        <translation>从 PATH 或 LD_LIBRARY_PATH 中去掉工具包的 stubs 文件夹，让程序找到驱动自带的库。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is older than this CUDA runtime needs (&quot;CUDA driver version is insufficient for CUDA runtime version&quot;).</source>
        <translation>NVIDIA 驱动版本低于这个 CUDA 运行时的要求（“CUDA driver version is insufficient for CUDA runtime version”）。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to one that supports this CUDA version, or use the cuDNN and CUDA builds for the CUDA version the driver supports (nvidia-smi shows it).</source>
        <translation>把 NVIDIA 驱动升级到支持该 CUDA 版本的版本，或者改用与驱动所支持的 CUDA 版本对应的 cuDNN 和 CUDA（nvidia-smi 会显示该版本）。</translation>
    </message>
    <message>
        <source>This call needs a newer NVIDIA driver than the installed one.</source>
        <translation>该调用需要比当前安装的更新的 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Every CUDA GPU is busy or unavailable: set to an exclusive or prohibited compute mode, or filled by other work.</source>
        <translation>所有支持 CUDA 的显卡都处于忙碌或不可用状态：被设置为独占或禁止计算模式，或者已被其他任务占满。</translation>
    </message>
    <message>
        <source>Close the other programs that use the GPU (nvidia-smi lists them), or ask the administrator to set the GPU&apos;s compute mode back to Default.</source>
        <translation>关闭其他占用显卡的程序（可用 nvidia-smi 查看），或请管理员把显卡的计算模式改回 Default。</translation>
    </message>
    <message>
        <source>The CUDA driver found no CUDA-capable GPU.</source>
        <translation>CUDA 驱动没有找到支持 CUDA 的显卡。</translation>
    </message>
    <message>
        <source>Check that nvidia-smi lists the GPU, and that CUDA_VISIBLE_DEVICES is not set to hide every GPU.</source>
        <translation>确认 nvidia-smi 能列出这块显卡，并检查 CUDA_VISIBLE_DEVICES 没有把所有显卡都屏蔽掉。</translation>
    </message>
    <message>
        <source>The GPU number asked for does not exist; CUDA_VISIBLE_DEVICES often names a GPU that is not there.</source>
        <translation>请求的 GPU 编号不存在；常见原因是 CUDA_VISIBLE_DEVICES 指定了一块并不存在的显卡。</translation>
    </message>
    <message>
        <source>Unset CUDA_VISIBLE_DEVICES, or set it to GPUs that exist (nvidia-smi numbers them from 0).</source>
        <translation>取消设置 CUDA_VISIBLE_DEVICES，或把它设为实际存在的 GPU 编号（nvidia-smi 从 0 开始编号）。</translation>
    </message>
    <message>
        <source>The program or a library it loaded has no GPU code for this GPU&apos;s architecture (&quot;no kernel image is available for execution on the device&quot;).</source>
        <translation>程序或它加载的库中没有适用于这块显卡架构的 GPU 代码（“no kernel image is available for execution on the device”）。</translation>
    </message>
    <message>
        <source>Use builds of the program, CUDA and cuDNN that support this GPU, and do not mix CUDA versions in one environment.</source>
        <translation>请使用支持这块显卡的程序、CUDA 和 cuDNN 版本，并且不要在同一个环境里混用多个 CUDA 版本。</translation>
    </message>
    <message>
        <source>The GPU code was compiled by a newer CUDA toolkit than the driver supports.</source>
        <translation>GPU 代码是用比驱动所支持的更新的 CUDA 工具包编译的。</translation>
    </message>
    <message>
        <source>The system is not ready for CUDA work: a service the NVIDIA driver needs is not running.</source>
        <translation>系统尚未准备好运行 CUDA 任务：NVIDIA 驱动所需的某个服务没有运行。</translation>
    </message>
    <message>
        <source>Check that the NVIDIA driver&apos;s services are running, or restart the computer.</source>
        <translation>检查 NVIDIA 驱动的相关服务是否在运行，或者重启电脑。</translation>
    </message>
    <message>
        <source>The display driver and the CUDA driver library are of different versions.</source>
        <translation>显示驱动和 CUDA 驱动库的版本不一致。</translation>
    </message>
    <message>
        <source>Reinstall the NVIDIA driver so that all its parts are of one version, then restart the computer.</source>
        <translation>重新安装 NVIDIA 驱动，使其各组件版本一致，然后重启电脑。</translation>
    </message>
    <message>
        <source>A CUDA forward-compatibility package is in use, but this GPU does not support it.</source>
        <translation>正在使用 CUDA 前向兼容包，但这块显卡不支持它。</translation>
    </message>
    <message>
        <source>Remove the forward-compatibility package, or limit the program to the GPUs that support it with CUDA_VISIBLE_DEVICES.</source>
        <translation>卸载前向兼容包，或用 CUDA_VISIBLE_DEVICES 让程序只使用支持它的显卡。</translation>
    </message>
    <message>
        <source>An unknown internal error happened in the CUDA driver or runtime.</source>
        <translation>CUDA 驱动或运行时发生了未知的内部错误。</translation>
    </message>
    <message>
        <source>Restart the computer; if it still happens, reinstall the NVIDIA driver.</source>
        <translation>请重启电脑；如果问题依旧，重新安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Windows found %1 or a DLL it needs nowhere it looks (error 126 means either). For cuDNN 8.3 to 8.9 it is usually zlibwapi.dll; it also happens when only the main cuDNN DLL was copied or its folder is not on the search path.</source>
        <translation>Windows 在它搜索的位置都找不到 %1 或它依赖的某个 DLL（错误 126 两种情况都有可能）。对于 cuDNN 8.3 到 8.9，通常是缺 zlibwapi.dll；只复制了 cuDNN 主 DLL，或者 DLL 所在文件夹不在搜索路径中，也会出现这个错误。</translation>
    </message>
    <message>
        <source>The Windows loader could not find a DLL that %1 needs (STATUS_DLL_NOT_FOUND, the loader&apos;s own code for error 126).</source>
        <translation>Windows 加载器找不到 %1 依赖的某个 DLL（STATUS_DLL_NOT_FOUND，即加载器内部对错误 126 的表示）。</translation>
    </message>
    <message>
        <source>%1 was found, but a function it needs is missing from a DLL it loaded: usually an older or other copy of a cuDNN or CUDA DLL was found first on the search path.</source>
        <translation>找到了 %1，但它加载的某个 DLL 缺少所需的函数：通常是搜索路径上先找到了另一份或更旧的 cuDNN 或 CUDA DLL。</translation>
    </message>
    <message>
        <source>Remove the older copy, or its folder from PATH, so that the DLLs of one cuDNN release are found together; look in the program&apos;s folder, conda environments and pip&apos;s nvidia\cudnn\bin too.</source>
        <translation>删除旧的那份，或把它所在的文件夹从 PATH 中移除，确保找到的都是同一个 cuDNN 版本的 DLL；也要检查程序自身的文件夹、conda 环境以及 pip 安装的 nvidia\cudnn\bin。</translation>
    </message>
    <message>
        <source>%1 or a DLL it needs is built for another processor architecture: typically a 32-bit DLL, often zlibwapi.dll, in a 64-bit program, or the reverse.</source>
        <translation>%1 或它依赖的某个 DLL 的处理器架构不对：典型情况是 64 位程序加载了 32 位 DLL（常见的是 zlibwapi.dll），或者反过来。</translation>
    </message>
    <message>
        <source>Replace the 32-bit DLL with its 64-bit build (cuDNN and the zlibwapi.dll it needs are 64-bit only), and use a 64-bit program or Python.</source>
        <translation>把 32 位的 DLL 换成 64 位版本（cuDNN 及其所需的 zlibwapi.dll 都只有 64 位），并使用 64 位的程序或 Python。</translation>
    </message>
    <message>
        <source>cuDNN returned status %1, which cuDNN %2 does not define.</source>
        <translation>cuDNN 返回了状态码 %1，而 cuDNN %2 中没有定义这个状态码。</translation>
    </message>
    <message>
        <source>The CUDA runtime returned error %1.</source>
        <translation>CUDA 运行时返回了错误 %1。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and run the check again; if it still happens, look the error number up in NVIDIA&apos;s CUDA runtime documentation.</source>
        <translation>请升级 NVIDIA 驱动后重新检查；如果问题依旧，可在 NVIDIA 的 CUDA 运行时文档中查询该错误号。</translation>
    </message>
    <message>
        <source>%1 of %2 cuDNN libraries did not load: %3. %4</source>
        <translation>%2 个 cuDNN 库中有 %1 个加载失败：%3。%4</translation>
    </message>
    <message>
        <source>A freshly started program loads another cuDNN copy: %1 instead of the one in %2.</source>
        <translation>新启动的程序加载的是另一份 cuDNN：%1，而不是 %2 里的那份。</translation>
    </message>
    <message>
        <source>Remove the older copy or its folder from PATH, or put %1 before it (cudnnctl doctor offers both).</source>
        <translation>把旧的那份或它所在的文件夹从 PATH 中去掉，或者把 %1 排到它前面（cudnnctl doctor 两种都能帮你做）。</translation>
    </message>
    <message>
        <source>All %1 cuDNN libraries load from %2.</source>
        <translation>全部 %1 个 cuDNN 库都从 %2 加载。</translation>
    </message>
    <message>
        <source>%1 is not found; %2 asks for it only when a feature needs it.</source>
        <translation>找不到 %1；%2 只在用到相关功能时才会去加载它。</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is a %3 file at %4: a 64-bit program cannot load it (error 193).</source>
        <translation>%2 依赖的 %1 在 %4 处是 %3 的文件：64 位程序无法加载它（错误 193）。</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is a %3 file at %4: a 64-bit program cannot load it.</source>
        <translation>%2 依赖的 %1 在 %4 处是 %3 的文件：64 位程序无法加载它。</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is damaged or not a library: %3.</source>
        <translation>%2 依赖的 %1 已损坏或根本不是库文件：%3。</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is not found anywhere the loader looks (error 126).</source>
        <translation>%2 依赖的 %1 在加载器搜索的所有位置都找不到（错误 126）。</translation>
    </message>
    <message>
        <source>%1, which %2 needs, is not found anywhere the loader looks.</source>
        <translation>%2 依赖的 %1 在加载器搜索的所有位置都找不到。</translation>
    </message>
    <message>
        <source>The version could not be asked: the main library did not load.</source>
        <translation>无法查询版本：主库没有加载成功。</translation>
    </message>
    <message>
        <source>This cuDNN was built for CUDA %1, but it sits with CUDA %2.</source>
        <translation>这份 cuDNN 是为 CUDA %1 编译的，却安装在 CUDA %2 中。</translation>
    </message>
    <message>
        <source>Install the cuDNN archive made for CUDA %1 (its name ends in _cuda%1-archive.zip).</source>
        <translation>请安装为 CUDA %1 打包的 cuDNN 压缩包（文件名以 _cuda%1-archive.zip 结尾）。</translation>
    </message>
    <message>
        <source>cuDNN %1, built for CUDA %2.</source>
        <translation>cuDNN %1，为 CUDA %2 编译。</translation>
    </message>
    <message>
        <source>cuDNN %1.</source>
        <translation>cuDNN %1。</translation>
    </message>
    <message>
        <source>Skipped, as asked (--no-gpu).</source>
        <translation>已按要求跳过（--no-gpu）。</translation>
    </message>
    <message>
        <source>Skipped: cuDNN itself did not load.</source>
        <translation>已跳过：cuDNN 本身没有加载成功。</translation>
    </message>
    <message>
        <source>Skipped: no NVIDIA driver is installed on this machine.</source>
        <translation>已跳过：这台电脑没有安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver for the GPU, then verify again.</source>
        <translation>请先为显卡安装 NVIDIA 驱动，然后重新验证。</translation>
    </message>
    <message>
        <source>Skipped: the GPU cannot be used here (%1). %2</source>
        <translation>已跳过：这里无法使用显卡（%1）。%2</translation>
    </message>
    <message>
        <source>Skipped: no CUDA runtime library (cudart) could be loaded.</source>
        <translation>已跳过：无法加载任何 CUDA 运行时库（cudart）。</translation>
    </message>
    <message>
        <source>Install the CUDA toolkit cuDNN was built for, or put its bin folder on PATH.</source>
        <translation>请安装这份 cuDNN 对应的 CUDA 工具包，或把它的 bin 文件夹加入 PATH。</translation>
    </message>
    <message>
        <source>Skipped: no NVIDIA GPU answers on this machine.</source>
        <translation>已跳过：这台电脑上没有可响应的 NVIDIA 显卡。</translation>
    </message>
    <message>
        <source>cudnnCreate failed with %1. %2</source>
        <translation>cudnnCreate 失败，返回 %1。%2</translation>
    </message>
    <message>
        <source>cuDNN works with %1.</source>
        <translation>cuDNN 在 %1 上工作正常。</translation>
    </message>
    <message>
        <source>A convolution on the GPU matches the CPU&apos;s result (largest difference %1).</source>
        <translation>显卡上的卷积结果与 CPU 计算结果一致（最大差值 %1）。</translation>
    </message>
    <message>
        <source>The GPU&apos;s convolution differs from the CPU&apos;s by %1 (allowed %2): this cuDNN computes wrong results here.</source>
        <translation>显卡上的卷积结果与 CPU 计算结果相差 %1（允许 %2）：这份 cuDNN 在这台电脑上算出了错误结果。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver and reinstall cuDNN from NVIDIA&apos;s archive; report it if it stays.</source>
        <translation>请更新 NVIDIA 驱动，并用 NVIDIA 官方压缩包重新安装 cuDNN；如果问题依旧，请反馈。</translation>
    </message>
    <message>
        <source>The convolution failed with %1. %2</source>
        <translation>卷积失败，返回 %1。%2</translation>
    </message>
    <message>
        <source>The convolution failed in CUDA with %1. %2</source>
        <translation>卷积在 CUDA 中失败，返回 %1。%2</translation>
    </message>
    <message>
        <source>The convolution could not be run: %1.</source>
        <translation>无法运行卷积：%1。</translation>
    </message>
    <message>
        <source>torch could not be asked in %1.</source>
        <translation>无法在 %1 中查询 torch。</translation>
    </message>
    <message>
        <source>torch %1 in %2 is a CPU-only build: it never uses cuDNN.</source>
        <translation>%2 中的 torch %1 是纯 CPU 版本：它根本不会用到 cuDNN。</translation>
    </message>
    <message>
        <source>Install a CUDA build of torch; cudnnctl doctor names the exact pip command for this driver.</source>
        <translation>请安装带 CUDA 的 torch；cudnnctl doctor 会给出适合当前驱动的 pip 安装命令。</translation>
    </message>
    <message>
        <source>torch %1 in %2 cannot run a convolution on the GPU.</source>
        <translation>%2 中的 torch %1 无法在显卡上运行卷积。</translation>
    </message>
    <message>
        <source>torch in %1 uses its own cuDNN (%2), not the one checked here: a working torch says nothing about that one.</source>
        <translation>%1 中的 torch 用的是它自带的 cuDNN（%2），不是这里检查的那份：torch 能用并不能说明那份 cuDNN 没问题。</translation>
    </message>
    <message>
        <source>torch cannot use the GPU through cuDNN.</source>
        <translation>torch 无法通过 cuDNN 使用显卡。</translation>
    </message>
    <message>
        <source>torch runs a convolution through cuDNN on the GPU.</source>
        <translation>torch 能通过 cuDNN 在显卡上运行卷积。</translation>
    </message>
    <message>
        <source>There is no cuDNN library in %1.</source>
        <translation>%1 中没有 cuDNN 库。</translation>
    </message>
    <message>
        <source>The libraries could not be tried in a fresh process.</source>
        <translation>无法在新进程中试加载这些库。</translation>
    </message>
    <message>
        <source>Skipped, as asked (--no-framework).</source>
        <translation>已按要求跳过（--no-framework）。</translation>
    </message>
    <message>
        <source>The verification report cannot be read.</source>
        <translation>无法读取验证报告。</translation>
    </message>
    <message>
        <source>The library check was given a request that cannot be read.</source>
        <translation>库文件检查收到的请求无法解析。</translation>
    </message>
    <message>
        <source>The cuDNN check failed at %1 with %2. %3</source>
        <translation>cuDNN 检查在 %1 步骤失败，返回 %2。%3</translation>
    </message>
    <message>
        <source>The cuDNN check could not run: %1.</source>
        <translation>无法运行 cuDNN 检查：%1。</translation>
    </message>
    <message>
        <source>Reinstall cuDNN from NVIDIA&apos;s archive: its libraries do not offer what every cuDNN offers.</source>
        <translation>请用 NVIDIA 官方压缩包重新安装 cuDNN：这些库缺少任何 cuDNN 都应提供的函数。</translation>
    </message>
    <message>
        <source>--path takes user, system or none.</source>
        <translation>--path 只能是 user、system 或 none。</translation>
    </message>
    <message>
        <source>--cudnn-variables takes user or system.</source>
        <translation>--cudnn-variables 只能是 user 或 system。</translation>
    </message>
    <message>
        <source>--if-in-use takes fail or restart.</source>
        <translation>--if-in-use 只能是 fail 或 restart。</translation>
    </message>
    <message>
        <source>install needs the archive: --archive FILE.zip</source>
        <translation>install 需要指定压缩包：--archive FILE.zip</translation>
    </message>
    <message>
        <source>The record of the last verification could not be removed.</source>
        <translation>无法删除上次验证的结果记录。</translation>
    </message>
    <message>
        <source>The answer file %1 cannot be read.</source>
        <translation>无法读取应答文件 %1。</translation>
    </message>
    <message>
        <source>Line %1 of the answer file is not &quot;key=value&quot;.</source>
        <translation>应答文件第 %1 行不是“键=值”的格式。</translation>
    </message>
    <message>
        <source>verify= in the answer file takes true or false.</source>
        <translation>应答文件里的 verify= 只能是 true 或 false。</translation>
    </message>
    <message>
        <source>The answer file has a key this version does not know: %1.</source>
        <translation>应答文件里有本版本不认识的键：%1。</translation>
    </message>
    <message>
        <source>The action is install, repair or uninstall, not &quot;%1&quot;.</source>
        <translation>操作只能是 install、repair 或 uninstall，不能是“%1”。</translation>
    </message>
    <message>
        <source>verified %1</source>
        <translation>已于 %1 验证通过</translation>
    </message>
    <message>
        <source>verification failed %1</source>
        <translation>%1 验证未通过</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>尚未验证</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 installed in %3 (receipt %4, %5)</source>
        <translation>cuDNN %1（适用于 CUDA %2）已安装在 %3（安装记录 %4，%5）</translation>
    </message>
    <message>
        <source>cuDNN Setup has installed no cuDNN that matches here.</source>
        <translation>cuDNN 安装向导没有在这台电脑上安装过符合条件的 cuDNN。</translation>
    </message>
    <message>
        <source>The install is no longer intact: %1 is missing or was changed.</source>
        <translation>这次安装已不完整：%1 不见了或被改动过。</translation>
    </message>
    <message>
        <source>Make this change yourself (cuDNN Setup cannot change the stored environment here): %1</source>
        <translation>请手动完成这项改动（cuDNN 安装向导在这里无法修改保存的环境变量）：%1</translation>
    </message>
    <message>
        <source>The report could not be saved in %1: %2</source>
        <translation>无法把报告保存到 %1：%2</translation>
    </message>
    <message>
        <source>The report was saved in %1: %2.</source>
        <translation>报告已保存到 %1：%2。</translation>
    </message>
    <message>
        <source>Windows described who may change a file in a form this program does not understand, so it does not trust the file.</source>
        <translation>Windows 给出的文件权限信息本程序无法解读，因此不信任这个文件。</translation>
    </message>
    <message>
        <source>An unfinished install journal was found that cuDNN Setup cannot have written, so it was not replayed: %1</source>
        <translation>发现了一份未完成的安装日志，但它不可能由 cuDNN 安装向导写出，因此没有按它回滚或补完：%1</translation>
    </message>
    <message>
        <source>Ask an administrator to look at it and remove it; nothing it names was changed.</source>
        <translation>请管理员检查并删除它；它提到的文件和设置都没有被改动。</translation>
    </message>
    <message>
        <source>It was renamed to %1 and nothing it names was changed. Ask an administrator to look at it: someone may have put it there.</source>
        <translation>它已被改名为 %1，它提到的文件和设置都没有被改动。请管理员检查一下：可能有人故意把它放在那里。</translation>
    </message>
    <message>
        <source>A receipt was found that cuDNN Setup cannot have written, so it is ignored: %1</source>
        <translation>发现了一份不可能由 cuDNN 安装向导写出的安装记录，已忽略：%1</translation>
    </message>
    <message>
        <source>%1 is on the system PATH, but %2 can be changed by others than the administrators (%3): a DLL put there is loaded by the programs of every user, services too.</source>
        <translation>%1 在系统 PATH 上，但除管理员以外的人（%3）也能修改 %2：放入其中的任何 DLL 都会被这台电脑上所有用户的程序（包括系统服务）加载。</translation>
    </message>
    <message>
        <source>Take it off the system PATH (or put it on the PATH of the one user who needs it), or let only administrators change the folder, from an administrator&apos;s prompt: icacls &quot;%1&quot; /inheritance:r /grant:r *S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX</source>
        <translation>把它从系统 PATH 中去掉（或只加到需要它的那个用户自己的 PATH 里），或者在管理员命令提示符中运行下面的命令，只允许管理员修改这个文件夹：icacls &quot;%1&quot; /inheritance:r /grant:r *S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX</translation>
    </message>
    <message>
        <source>%1 would go on the system PATH, but %2 can be changed by others than the administrators (%3): whatever DLL they put there, every program of every user would load.</source>
        <translation>%1 将被加入系统 PATH，但除管理员以外的人（%3）也能修改 %2：他们放进去的任何 DLL，都会被这台电脑上所有用户的程序加载。</translation>
    </message>
    <message>
        <source>PATH and the variables were changed by the system account, whose notice reaches no one&apos;s desktop: programs see the change once their user signs out and in again, or after a restart.</source>
        <translation>PATH 和环境变量是由系统账户修改的，它发出的变更通知无法送达任何用户的桌面：要等用户注销并重新登录，或重启电脑之后，程序才能看到这些修改。</translation>
    </message>
    <message>
        <source>Restart the PC, or have each user sign out and in again.</source>
        <translation>请重启电脑，或让每位用户注销后重新登录。</translation>
    </message>
    <message>
        <source>cuDNN Setup&apos;s folder %1 cannot be made ready.</source>
        <translation>无法准备 cuDNN 安装向导的文件夹 %1。</translation>
    </message>
    <message>
        <source>Check that the disk is not full and that %1 is a plain folder, then try again.</source>
        <translation>请确认磁盘没有满，并且 %1 是普通文件夹（不是链接），然后再试一次。</translation>
    </message>
    <message>
        <source>This change is recorded in %1, which only an administrator may create.</source>
        <translation>这项更改要记录在 %1 中，而这个文件夹只能由管理员创建。</translation>
    </message>
    <message>
        <source>Run cuDNN Setup as an administrator, or choose a target in your own folder with PATH for your account.</source>
        <translation>请以管理员身份运行 cuDNN 安装向导，或者改选你自己文件夹里的目标，并只修改你这个账户的 PATH。</translation>
    </message>
    <message>
        <source>%1 is in use by another program, so it cannot be changed.</source>
        <translation>%1 正被其他程序使用，所以无法更改。</translation>
    </message>
    <message>
        <source>Close the programs that use it (Python, Jupyter, an editor), then try again.</source>
        <translation>请关闭正在使用它的程序（Python、Jupyter、编辑器等），然后再试一次。</translation>
    </message>
    <message>
        <source>This account may not change %1.</source>
        <translation>当前账户没有权限更改 %1。</translation>
    </message>
    <message>
        <source>Run cuDNN Setup as an administrator (the wizard asks Windows for that when a target needs it), or choose a folder of your own.</source>
        <translation>请以管理员身份运行 cuDNN 安装向导（目标需要时，向导会请 Windows 提升权限），或者改选你自己的文件夹。</translation>
    </message>
    <message>
        <source>What the part with administrator rights is to do cannot be written down.</source>
        <translation>无法写下需要以管理员权限执行的操作内容。</translation>
    </message>
    <message>
        <source>%1 is not run with administrator rights: %2 may be changed by %3, who could put another program in its place.</source>
        <translation>不会以管理员权限运行 %1：%3 可以修改 %2，可能把它换成别的程序。</translation>
    </message>
    <message>
        <source>Install cuDNN Setup with its installer, which puts it under Program Files, and start it from there.</source>
        <translation>请用 cuDNN 安装向导的安装包安装它（会安装到 Program Files 下），再从那里启动。</translation>
    </message>
    <message>
        <source>Another account holds cuDNN Setup&apos;s lock, and this one may not even open it: a change may be running under that account, or a program is keeping the lock to block installs.</source>
        <translation>另一个账户持有 cuDNN 安装向导的锁，而当前账户甚至无权打开它：可能是那个账户正在进行更改，也可能是某个程序一直占用这把锁来阻止安装。</translation>
    </message>
    <message>
        <source>The change was made, but not all of its tidying up after it: the files it replaced are kept, and cuDNN Setup finishes it when it next starts.</source>
        <translation>更改已完成，但收尾工作没有全部做完：被替换的文件都已保留，cuDNN 安装向导下次启动时会完成收尾。</translation>
    </message>
    <message>
        <source>Not everything could be put back as it was: what could not is listed above. The files it replaced are kept, and cuDNN Setup tries again when it next starts.</source>
        <translation>没能全部恢复原样，未能恢复的内容见上方列表。被替换的文件都已保留，cuDNN 安装向导下次启动时会再试一次。</translation>
    </message>
    <message>
        <source>Close the programs that use cuDNN, then start cuDNN Setup again.</source>
        <translation>请关闭正在使用 cuDNN 的程序，然后重新启动 cuDNN 安装向导。</translation>
    </message>
    <message>
        <source>An interrupted install, uninstall or repair was found, but it could not be undone whole.</source>
        <translation>发现一次中断的安装、卸载或修复，但没能将它完全撤销。</translation>
    </message>
    <message>
        <source>The free space on the drive of %1 could not be read; keeping the replaced files there needs %2.</source>
        <translation>无法读取 %1 所在磁盘的可用空间；在那里保留被替换的文件需要 %2。</translation>
    </message>
    <message>
        <source>The files this install replaces are kept in %1 for an uninstall to put back, but its drive has %2 free and they need %3.</source>
        <translation>本次安装替换掉的文件会保留在 %1，以便卸载时放回原处；但该磁盘只剩 %2，而这些文件需要 %3。</translation>
    </message>
    <message>
        <source>Free %1 on that drive, then try again.</source>
        <translation>请在该磁盘上腾出 %1 的空间，然后重试。</translation>
    </message>
    <message>
        <source>The archive declares %1 entries, beyond the %2 any cuDNN archive stays within, so its list of entries is not read.</source>
        <translation>该压缩包声称有 %1 个条目，超出了任何 cuDNN 压缩包都不会超过的 %2 个，因此不再读取它的条目列表。</translation>
    </message>
    <message>
        <source>%1 inside the target is a link to %2: the files installed through it would land outside the target.</source>
        <translation>目标文件夹中的 %1 是指向 %2 的链接：经由它安装的文件会落到目标文件夹之外。</translation>
    </message>
    <message>
        <source>Remove the link (what it leads to stays as it is), or choose another folder.</source>
        <translation>请删除这个链接（它指向的内容不受影响），或者换一个文件夹。</translation>
    </message>
    <message>
        <source>%1 is an empty zip archive: it holds no files.</source>
        <translation>%1 是一个空压缩包，里面没有任何文件。</translation>
    </message>
    <message>
        <source>Download the cuDNN archive again: the download may have stopped before it began.</source>
        <translation>请重新下载 cuDNN 压缩包：下载可能在开始之前就中断了。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in the archive twice (as a file and as a folder, or as two files): one would overwrite the other.</source>
        <translation>“%1”在压缩包中出现了两次（一次是文件一次是文件夹，或者两次都是文件）：其中一个会覆盖另一个。</translation>
    </message>
    <message>
        <source>%1 is one part of a zip archive split into several files (.z01, .z02, …, .zip): it cannot be read alone.</source>
        <translation>%1 只是分卷压缩包（.z01、.z02 等文件加一个 .zip 文件）中的一部分，单独一个分卷无法读取。</translation>
    </message>
    <message>
        <source>Download the cuDNN archive as one .zip file, as NVIDIA publishes it.</source>
        <translation>请按 NVIDIA 发布的原样，下载完整的单个 .zip 文件。</translation>
    </message>
    <message>
        <source>The archive has no readable cudnn_version.h: its version, %1, was read from the version stamp of %2.</source>
        <translation>压缩包里没有可读的 cudnn_version.h：版本 %1 是从 %2 的版本信息里读出来的。</translation>
    </message>
    <message>
        <source>cudnn_version.h says cuDNN %1, but %2 is stamped cuDNN %3: the archive mixes files of two releases, and cuDNN does not run that way.</source>
        <translation>cudnn_version.h 写的是 cuDNN %1，但 %2 标注的是 cuDNN %3：这个压缩包混装了两个版本的文件，cuDNN 这样无法正常运行。</translation>
    </message>
    <message>
        <source>Download the archive again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation>请从 NVIDIA 官网的 cuDNN 历史版本下载页（cuDNN Archive）重新下载这个压缩包。</translation>
    </message>
    <message>
        <source>The archive is incomplete: %1 of the %2 libraries of cuDNN %3 are missing, such as %4. cuDNN loads them when a program first needs them, so the program would fail then.</source>
        <translation>压缩包不完整：cuDNN %3 的 %2 个库文件缺了 %1 个，例如 %4。cuDNN 在程序第一次用到它们时才加载，到那时程序就会出错。</translation>
    </message>
    <message>
        <source>Download the complete archive again from NVIDIA&apos;s cuDNN archive page.</source>
        <translation>请从 NVIDIA 官网的 cuDNN 历史版本下载页（cuDNN Archive）重新下载完整的压缩包。</translation>
    </message>
    <message>
        <source>The archive would unpack to %1 GB from a file of %2 MB, more than %3 times its size: cuDNN does not compress that well, zip bombs do.</source>
        <translation>这个 %2 MB 的压缩包解压后会有 %1 GB，超过自身大小的 %3 倍：cuDNN 压缩不到这个程度，只有 zip 炸弹才会这样。</translation>
    </message>
    <message>
        <source>%1 is missing from %2 (%3 of cuDNN %4&apos;s libraries in all). cuDNN loads it when a program first needs it and, not finding it, ends that program with &quot;Could not locate %1&quot;; so nothing was loaded to try.</source>
        <translation>%2 里缺少 %1（cuDNN %4 的库文件共缺 %3 个）。cuDNN 在程序第一次用到它时才加载，找不到就会以“Could not locate %1”结束整个程序；因此这里没有加载任何库来测试。</translation>
    </message>
    <message>
        <source>Install cuDNN again from its complete archive, which holds every one of these libraries.</source>
        <translation>请用完整的压缩包重新安装 cuDNN，其中包含所有这些库文件。</translation>
    </message>
    <message>
        <source>cuDNN looked for %1 and did not find it, and ended the program (NVIDIA&apos;s words: &quot;%2&quot;). A program looks for it in %3 and then along PATH.</source>
        <translation>cuDNN 没有找到 %1，于是结束了程序（NVIDIA 的原话：“%2”）。程序会先在 %3 里找它，然后按 PATH 的顺序找。</translation>
    </message>
    <message>
        <source>cuDNN could not load %1 and ended the program (NVIDIA&apos;s words: &quot;%2&quot;): %3</source>
        <translation>cuDNN 无法加载 %1，于是结束了程序（NVIDIA 的原话：“%2”）：%3</translation>
    </message>
    <message>
        <source>Install cuDNN again from its complete archive, so that %1 is beside cuDNN&apos;s other libraries.</source>
        <translation>请用完整的压缩包重新安装 cuDNN，让 %1 和 cuDNN 的其他库文件放在一起。</translation>
    </message>
    <message>
        <source>Close these programs and try again: only an administrator may replace files that are in use, because Windows removes the old ones only at its next start.</source>
        <translation>请关闭这些程序后重试：只有管理员才能替换正在使用的文件，因为旧文件要等 Windows 下次启动时才能删除。</translation>
    </message>
    <message>
        <source>Close these programs and try again, or replace the files anyway: these programs keep the old ones until they are restarted.</source>
        <translation>请关闭这些程序后重试，或者仍然替换这些文件：这些程序在重新启动前会继续使用旧文件。</translation>
    </message>
    <message>
        <source>%1 are in use: the new cuDNN files are in place for every program started from now on, and these programs keep the old ones until they are restarted (or Windows is).</source>
        <translation>%1 正在使用旧文件：从现在起启动的程序都会用上新的 cuDNN 文件，而这些程序在它们（或 Windows）重新启动前仍使用旧文件。</translation>
    </message>
    <message>
        <source>Replacing %1, which is in use</source>
        <translation>正在替换使用中的 %1</translation>
    </message>
    <message>
        <source>The replaced %1 cannot be removed, not even at the next start; it stays as %2.</source>
        <translation>被替换的 %1 无法删除，连安排在下次启动时删除也不行；它会以 %2 的名称保留下来。</translation>
    </message>
    <message>
        <source>A path the installation works with would have %1 characters, and Windows programs cannot all handle paths of %2 characters or more: %3.</source>
        <translation>安装过程中要用到的一个路径会有 %1 个字符，而并非所有 Windows 程序都能处理 %2 个字符及以上的路径：%3。</translation>
    </message>
    <message>
        <source>NVIDIA published no support matrix for cuDNN %1; the nearest published one (cuDNN %2 for CUDA %3) lists %4, and this toolkit is %5. It usually works, but that combination is not known to be tested.</source>
        <translation>NVIDIA 没有发布 cuDNN %1 的支持矩阵；离它最近的已发布版本（适用于 CUDA %3 的 cuDNN %2）列出的是 %4，而这里的工具包是 %5。通常可以工作，但不确定这个组合是否经过测试。</translation>
    </message>
    <message>
        <source>NVIDIA published no support matrix for cuDNN %1; from the nearest published ones (cuDNN %2 and %3 for CUDA %4) it is taken to support %5, the narrower where they differ, and this toolkit is %6. It usually works, but that combination is not known to be tested.</source>
        <translation>NVIDIA 没有发布 cuDNN %1 的支持矩阵；根据前后最近的已发布版本（适用于 CUDA %4 的 cuDNN %2 和 %3），两者不一致时取较窄的范围，推断它支持 %5，而这里的工具包是 %6。通常可以工作，但不确定这个组合是否经过测试。</translation>
    </message>
    <message>
        <source>This PC has CUDA %1, newer than anything the compatibility database (%2, of %3) knows: it stops at CUDA %4, so the verdicts about CUDA %1 may be out of date.</source>
        <translation>这台电脑上有 CUDA %1，比兼容性数据库（%2 版，%3）知道的都新：它只记录到 CUDA %4，所以关于 CUDA %1 的结论可能已经过时。</translation>
    </message>
    <message>
        <source>Put a newer cudnn-compat.json beside the program (your lab&apos;s IT or the cuDNN Setup project publishes it), or give one with --compat-db.</source>
        <translation>把更新的 cudnn-compat.json 放到程序旁边（由实验室的 IT 人员或 cuDNN 安装向导项目发布），或用 --compat-db 指定。</translation>
    </message>
    <message>
        <source>%1 is a Jetson module: its CUDA and cuDNN come with NVIDIA JetPack, not from the cuDNN archives for PCs.</source>
        <translation>%1 是 Jetson 模组：它的 CUDA 和 cuDNN 随 NVIDIA JetPack 提供，不能用面向电脑的 cuDNN 压缩包。</translation>
    </message>
    <message>
        <source>Install or upgrade JetPack (with NVIDIA SDK Manager, or with apt on the device): it brings the cuDNN that fits the module.</source>
        <translation>安装或升级 JetPack（用 NVIDIA SDK Manager，或在设备上用 apt）：它自带与模组匹配的 cuDNN。</translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN. If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %3; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation>%2 中的 torch %1 自带 cuDNN。如果你只用 PyTorch，就不需要安装系统级的 cuDNN，只要驱动能运行 CUDA %3 就行；系统级的 cuDNN 是给 Windows 上的 TensorFlow 2.10 及更早版本、带 CUDA 的 ONNX Runtime、OpenCV 的 DNN 模块、从源码编译以及 C/C++ 程序用的。</translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN %3. If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %4; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation>%2 中的 torch %1 自带 cuDNN %3。如果你只用 PyTorch，就不需要安装系统级的 cuDNN，只要驱动能运行 CUDA %4 就行；系统级的 cuDNN 是给 Windows 上的 TensorFlow 2.10 及更早版本、带 CUDA 的 ONNX Runtime、OpenCV 的 DNN 模块、从源码编译以及 C/C++ 程序用的。</translation>
    </message>
    <message>
        <source>torch %1 in %2 brings its own cuDNN %3 (%4). If PyTorch is all you use, you need no system-wide cuDNN, only a driver that runs CUDA %5; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime with CUDA, OpenCV&apos;s DNN module, building from source and C/C++ programs.</source>
        <translation>%2 中的 torch %1 自带 cuDNN %3（%4）。如果你只用 PyTorch，就不需要安装系统级的 cuDNN，只要驱动能运行 CUDA %5 就行；系统级的 cuDNN 是给 Windows 上的 TensorFlow 2.10 及更早版本、带 CUDA 的 ONNX Runtime、OpenCV 的 DNN 模块、从源码编译以及 C/C++ 程序用的。</translation>
    </message>
    <message>
        <source>Verdict: not NVIDIA&apos;s original file, refused</source>
        <translation>结论：不是 NVIDIA 原版文件，拒绝使用</translation>
    </message>
    <message>
        <source>of unknown version</source>
        <translation>（版本未知）</translation>
    </message>
    <message>
        <source>Renamed: %1 → %2</source>
        <translation>重命名：%1 → %2</translation>
    </message>
    <message>
        <source>Added: %1 (64-bit, SHA-256 %2)</source>
        <translation>新增：%1（64 位，SHA-256 %2）</translation>
    </message>
    <message>
        <source>User PATH before: %1</source>
        <translation>用户环境变量 Path 原值：%1</translation>
    </message>
    <message>
        <source>System PATH before: %1</source>
        <translation>系统环境变量 Path 原值：%1</translation>
    </message>
    <message>
        <source>User PATH after: %1</source>
        <translation>用户环境变量 Path 新值：%1</translation>
    </message>
    <message>
        <source>System PATH after: %1</source>
        <translation>系统环境变量 Path 新值：%1</translation>
    </message>
    <message>
        <source>%1 for this user: %2 → %3</source>
        <translation>当前用户的 %1：%2 → %3</translation>
    </message>
    <message>
        <source>%1 for all users: %2 → %3</source>
        <translation>所有用户的 %1：%2 → %3</translation>
    </message>
    <message>
        <source>From the archive: %1 → %2</source>
        <translation>从压缩包复制：%1 → %2</translation>
    </message>
    <message>
        <source>Remove the older copy or its folder from PATH, or put %1 before it: Repair… below offers both.</source>
        <translation>把旧的那份或它所在的文件夹从 PATH 中去掉，或者把 %1 排到它前面：点击下方的“修复…”，两种都可以自动完成。</translation>
    </message>
    <message>
        <source>on PATH</source>
        <translation>在 PATH 上</translation>
    </message>
    <message>
        <source>system library</source>
        <translation>系统库目录</translation>
    </message>
    <message>
        <source>System32</source>
        <translation>System32</translation>
    </message>
    <message>
        <source>conda environment</source>
        <translation>conda 环境</translation>
    </message>
    <message>
        <source>virtual environment</source>
        <translation>虚拟环境</translation>
    </message>
    <message>
        <source>pip wheel</source>
        <translation>pip 安装包</translation>
    </message>
    <message>
        <source>inside torch</source>
        <translation>torch 自带</translation>
    </message>
    <message>
        <source>on LD_LIBRARY_PATH</source>
        <translation>在 LD_LIBRARY_PATH 上</translation>
    </message>
    <message>
        <source>registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Copy every library of the cuDNN archive into %1, not only %2, or install the archive again: Install cuDNN on this wizard&apos;s first page.</source>
        <translation>把 cuDNN 压缩包中的所有库都复制到 %1，而不只是 %2；或者重新安装这个压缩包：在本向导第一页选择“安装 cuDNN”。</translation>
    </message>
    <message>
        <source>Choose another source under Download settings (a lab mirror or a shared folder), or get the archive another way and open it with Browse.</source>
        <translation>在“下载设置”中换一个来源（实验室镜像或共享文件夹），或通过其他途径获取压缩包，再用“浏览”打开。</translation>
    </message>
    <message>
        <source>Give another source with --source (a lab mirror or a shared folder), or get the archive another way and check it with cudnnctl inspect.</source>
        <translation>用 --source 指定其他来源（实验室镜像或共享文件夹），或通过其他途径获取压缩包，再用 cudnnctl inspect 检查。</translation>
    </message>
    <message>
        <source>%1 cannot be reached from this computer.</source>
        <translation>这台电脑无法连接到 %1。</translation>
    </message>
    <message>
        <source>Check the internet connection and the proxy settings. %1</source>
        <translation>请检查网络连接和代理设置。%1</translation>
    </message>
    <message>
        <source>%1 is not there (the server answered %2).</source>
        <translation>服务器上没有 %1（服务器返回 %2）。</translation>
    </message>
    <message>
        <source>The source may not have this release: choose another version or another source.</source>
        <translation>该来源可能没有这个版本：请换一个版本或换一个来源。</translation>
    </message>
    <message>
        <source>The proxy server between this computer and %1 asks for a user name and password.</source>
        <translation>这台电脑与 %1 之间的代理服务器要求提供用户名和密码。</translation>
    </message>
    <message>
        <source>Put them in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or ask IT for a mirror inside the network. %1</source>
        <translation>请把它们写进代理地址（HTTPS_PROXY=http://user:password@proxy:port），或向网络管理员要一个内网镜像。%1</translation>
    </message>
    <message>
        <source>The connection to %1 could not be secured.</source>
        <translation>无法与 %1 建立安全连接。</translation>
    </message>
    <message>
        <source>Check the computer&apos;s date and time. A network that inspects HTTPS, or a mirror with its own certificate authority, needs that authority&apos;s certificate trusted by this computer.</source>
        <translation>请检查电脑的日期和时间。如果所在网络会检查 HTTPS 流量，或镜像使用自己的证书颁发机构，需要让这台电脑信任该机构的证书。</translation>
    </message>
    <message>
        <source>The connection to %1 kept breaking. %2 of %3 are kept in %4; the next try continues from there.</source>
        <translation>与 %1 的连接多次中断。已下载的 %2（共 %3）保存在 %4，下次下载会从这里继续。</translation>
    </message>
    <message>
        <source>Try again later.</source>
        <translation>请稍后重试。</translation>
    </message>
    <message>
        <source>%1 could not be written.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Free space on that drive (the archive needs %1), or download into another folder.</source>
        <translation>请清理该磁盘的空间（压缩包需要 %1），或下载到其他文件夹。</translation>
    </message>
    <message>
        <source>The download was cancelled. %1 are kept in %2; the next download continues from there.</source>
        <translation>下载已取消。已下载的 %1 保存在 %2，下次下载会从这里继续。</translation>
    </message>
    <message>
        <source>%1 could not be downloaded (the server answered %2).</source>
        <translation>无法下载 %1（服务器返回 %2）。</translation>
    </message>
    <message>
        <source>%1 is not a cuDNN redistrib manifest.</source>
        <translation>%1 不是 cuDNN 的 redistrib 清单文件。</translation>
    </message>
    <message>
        <source>%1 cannot be read.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>No archive of %1 is known to this program, and the source lists none.</source>
        <translation>本向导不知道 %1 的压缩包，来源中也没有列出。</translation>
    </message>
    <message>
        <source>Check the version and the CUDA major. For a release newer than this program, the source must serve NVIDIA&apos;s redistrib_%1.json beside the archives.</source>
        <translation>请检查版本号和 CUDA 主版本。如果版本比本向导更新，来源必须在压缩包旁提供 NVIDIA 的 redistrib_%1.json。</translation>
    </message>
    <message>
        <source>The source %1 lists %2 with another checksum than NVIDIA publishes: its copy is not NVIDIA&apos;s file, and is not downloaded.</source>
        <translation>来源 %1 为 %2 列出的校验值与 NVIDIA 公布的不同：它提供的不是 NVIDIA 原版文件，因此不会下载。</translation>
    </message>
    <message>
        <source>Tell whoever runs the mirror; use NVIDIA&apos;s own download meanwhile.</source>
        <translation>请告知镜像的维护者；在此期间请从 NVIDIA 官方下载。</translation>
    </message>
    <message>
        <source>%1 is newer than NVIDIA&apos;s list built into this program: it is checked against the checksum the source itself lists, not against NVIDIA&apos;s.</source>
        <translation>%1 比本向导内置的 NVIDIA 清单更新：将按来源自己列出的校验值检查，而不是按 NVIDIA 公布的校验值。</translation>
    </message>
    <message>
        <source>No checksum of %1 is known, so a download could not be checked; it is not made.</source>
        <translation>不知道 %1 的校验值，下载后无法校验，因此不下载。</translation>
    </message>
    <message>
        <source>NVIDIA offers %1 only after signing in, not for download by programs.</source>
        <translation>NVIDIA 只在登录后提供 %1，程序无法直接下载。</translation>
    </message>
    <message>
        <source>Download it in a browser from NVIDIA&apos;s cuDNN archive page, or give a folder that holds it as the source.</source>
        <translation>请在浏览器中从 NVIDIA 官网 cuDNN 历史版本下载页（cuDNN Archive）下载，或把存放它的文件夹指定为来源。</translation>
    </message>
    <message>
        <source>%1 is not in %2.</source>
        <translation>%2 中没有 %1。</translation>
    </message>
    <message>
        <source>%1 is there already but is not NVIDIA&apos;s file (its checksum differs); it is replaced once the download is checked.</source>
        <translation>%1 已存在，但不是 NVIDIA 原版文件（校验值不同）；新下载的文件校验通过后会替换它。</translation>
    </message>
    <message>
        <source>%1 has %2 free; the archive needs %3 more.</source>
        <translation>%1 的可用空间为 %2；压缩包还需要 %3。</translation>
    </message>
    <message>
        <source>Free space on that drive, or download into another folder.</source>
        <translation>请清理该磁盘的空间，或下载到其他文件夹。</translation>
    </message>
    <message>
        <source>What %1 sent is not the file it should be: its checksum or size differs. It was deleted.</source>
        <translation>%1 发来的不是应有的文件：校验值或大小不符。该文件已删除。</translation>
    </message>
    <message>
        <source>The source %1 names no server.</source>
        <translation>来源 %1 中没有服务器名称。</translation>
    </message>
    <message>
        <source>The source %1 is neither a web address nor a folder.</source>
        <translation>来源 %1 既不是网址，也不是文件夹。</translation>
    </message>
    <message>
        <source>Give an http:// or https:// address of a mirror, or a folder or network share that holds the archives.</source>
        <translation>请提供镜像的 http:// 或 https:// 地址，或存放压缩包的文件夹或网络共享文件夹。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be found.</source>
        <translation>找不到文件夹 %1。</translation>
    </message>
    <message>
        <source>Check the path, and that the share is reachable from this computer.</source>
        <translation>请检查路径，并确认这台电脑能访问该共享文件夹。</translation>
    </message>
    <message>
        <source>Already downloaded and intact: nothing fetched</source>
        <translation>已下载且完好：无需再次下载</translation>
    </message>
    <message>
        <source>Downloaded and checked</source>
        <translation>已下载并校验</translation>
    </message>
    <message>
        <source>Not downloaded</source>
        <translation>未下载</translation>
    </message>
    <message>
        <source>Saved as</source>
        <translation>保存为</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>%1 (NVIDIA&apos;s, built into cuDNN Setup)</source>
        <translation>%1（NVIDIA 公布，内置于 cuDNN 安装向导）</translation>
    </message>
    <message>
        <source>%1 (listed by the source, not by NVIDIA&apos;s list built into cuDNN Setup)</source>
        <translation>%1（由来源列出，而非 cuDNN 安装向导内置的 NVIDIA 清单）</translation>
    </message>
    <message>
        <source>Continued</source>
        <translation>续传</translation>
    </message>
    <message>
        <source>from %1 an earlier download had saved</source>
        <translation>从之前下载保存的 %1 处继续</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message numerus="yes">
        <source>%n min left</source>
        <translation>
            <numerusform>还需 %n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>还需 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is newer than NVIDIA&apos;s list built into this program: it is checked against the checksum NVIDIA&apos;s download server lists for it.</source>
        <translation>%1 比本向导内置的 NVIDIA 清单更新：将按 NVIDIA 下载服务器为它列出的校验值检查。</translation>
    </message>
    <message>
        <source>%1 (NVIDIA&apos;s, from its download server&apos;s list)</source>
        <translation>%1（NVIDIA 公布，取自其下载服务器的清单）</translation>
    </message>
    <message>
        <source>No archive fits this computer yet, so there is nothing to download.</source>
        <translation>目前没有适合这台电脑的压缩包，因此无可下载。</translation>
    </message>
    <message>
        <source>No archive was given and none fits this computer, so there is nothing to download and install.</source>
        <translation>没有指定压缩包，也没有适合这台电脑的压缩包，因此无可下载和安装。</translation>
    </message>
    <message>
        <source>Inspect the system whose files are under DIR (a mounted image, a test sandbox).</source>
        <translation>检查文件位于 DIR 下的系统（例如挂载的镜像或测试沙箱）。</translation>
    </message>
    <message>
        <source>Use the compatibility database in FILE instead of the built-in one.</source>
        <translation>使用 FILE 中的兼容性数据库，而不是内置的那一份。</translation>
    </message>
    <message>
        <source>Language: en or zh_CN.</source>
        <translation>语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Also write the log to FILE.</source>
        <translation>同时把日志写入 FILE。</translation>
    </message>
    <message>
        <source>Reading the Python environments&apos; files</source>
        <translation>正在读取各 Python 环境的文件</translation>
    </message>
    <message>
        <source>not asked (its files were read)</source>
        <translation>未询问（只读取了它的文件）</translation>
    </message>
    <message>
        <source>torch loaded %1</source>
        <translation>torch 已加载 %1</translation>
    </message>
    <message>
        <source>torch will load %1</source>
        <translation>torch 会加载 %1</translation>
    </message>
    <message>
        <source>cuDNN checked: %1</source>
        <translation>已检查的 cuDNN：%1</translation>
    </message>
    <message>
        <source>%1 is damaged or not a library: %2.</source>
        <translation>%1 已损坏，或者不是库文件：%2。</translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s libraries are not loaded on this one.</source>
        <translation>未运行（检查的是另一个系统）：另一个系统的库不会在这台电脑上加载。</translation>
    </message>
    <message>
        <source>Not run, on purpose: only a loaded library can be asked, and its files do not name the version.</source>
        <translation>未运行（库未加载）：只有加载后的库才能询问版本，而它的文件里没有写明版本。</translation>
    </message>
    <message>
        <source>Not run, on purpose: only a loaded library can be asked; its files say cuDNN %1.</source>
        <translation>未运行（库未加载）：只有加载后的库才能询问版本；它的文件表明是 cuDNN %1。</translation>
    </message>
    <message>
        <source>Not run, on purpose: the GPU of another system&apos;s files cannot be used from this one.</source>
        <translation>未运行（检查的是另一个系统）：无法在这台电脑上使用另一个系统的显卡。</translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s Python is not run on this one.</source>
        <translation>未运行（检查的是另一个系统）：另一个系统的 Python 不会在这台电脑上运行。</translation>
    </message>
    <message>
        <source>%1 (measured with %2 first on %3)</source>
        <translation>%1（把 %2 放在 %3 最前面时测得）</translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 works when it is found first, but a freshly started program finds %3 before it.</source>
        <translation>%2 中的 cuDNN %1 在被最先找到时可以正常工作，但新启动的程序会先找到 %3。</translation>
    </message>
    <message>
        <source>cuDNN %1 in %2 works when it is found first, but a freshly started program finds %3 (cuDNN %4) before it.</source>
        <translation>%2 中的 cuDNN %1 在被最先找到时可以正常工作，但新启动的程序会先找到 %3（cuDNN %4）。</translation>
    </message>
    <message>
        <source>%1 names the library folder, but the loader&apos;s cache is rebuilt only when ldconfig runs on that system.</source>
        <translation>%1 已写明库文件夹，但只有在那个系统上运行 ldconfig 之后，加载器的缓存才会更新。</translation>
    </message>
    <message>
        <source>Run ldconfig as root on that system once it runs.</source>
        <translation>等那个系统启动后，以 root 身份运行一次 ldconfig。</translation>
    </message>
    <message>
        <source>ldconfig could not rebuild the loader&apos;s cache of library folders.</source>
        <translation>ldconfig 无法重建加载器的库文件夹缓存。</translation>
    </message>
    <message>
        <source>Run the install as root (sudo), or run ldconfig yourself.</source>
        <translation>请以 root 身份（sudo）运行安装，或者自己运行 ldconfig。</translation>
    </message>
    <message>
        <source>CUDA %1, cuDNN %2</source>
        <translation>CUDA %1，cuDNN %2</translation>
    </message>
    <message>
        <source>unknown version</source>
        <translation>版本未知</translation>
    </message>
    <message>
        <source>%1 %2 (CPU only)</source>
        <translation>%1 %2（仅 CPU）</translation>
    </message>
    <message>
        <source>%1 %2 (CUDA %3, cuDNN %4)</source>
        <translation>%1 %2（CUDA %3，cuDNN %4）</translation>
    </message>
    <message>
        <source>On Linux a library folder cannot be made known to one user only: programs find libraries through the system&apos;s loader configuration or LD_LIBRARY_PATH.</source>
        <translation>在 Linux 上，无法只让某一个用户知道一个库文件夹：程序是通过系统的加载器配置或 LD_LIBRARY_PATH 来查找库的。</translation>
    </message>
    <message>
        <source>Name the folder for the whole system instead (as root: it goes into /etc/ld.so.conf.d), or add it to LD_LIBRARY_PATH in your shell&apos;s profile.</source>
        <translation>请改为对整个系统登记这个文件夹（需要 root，会写入 /etc/ld.so.conf.d），或者在你的 shell 配置文件里把它加入 LD_LIBRARY_PATH。</translation>
    </message>
    <message>
        <source>The archive %1 could not be copied into cuDNN Setup&apos;s protected folder, so nothing is installed.</source>
        <translation>无法把压缩包 %1 复制到 cuDNN 安装向导受保护的文件夹中，因此没有安装任何内容。</translation>
    </message>
    <message>
        <source>Make room on the disk that holds %1, and check that the archive can be read, then try again.</source>
        <translation>请在 %1 所在的磁盘上腾出空间，并确认压缩包可以读取，然后重试。</translation>
    </message>
    <message>
        <source>The archive %1 changed while it was being installed, so nothing is installed.</source>
        <translation>压缩包 %1 在安装过程中被改动了，因此没有安装任何内容。</translation>
    </message>
    <message>
        <source>The source %1 is a plain http:// address, and the checksum of %2 is not built into this program: only that source could say what the file must be, and anyone on the network in between could change both. It is not downloaded.</source>
        <translation>来源 %1 是未加密的 http:// 地址，而本程序没有内置 %2 的校验值：文件应该是什么只能由这个来源说了算，而中间网络上的任何人都能把校验值与文件一起篡改。因此不会下载。</translation>
    </message>
    <message>
        <source>Use the mirror&apos;s https:// address, or a cuDNN release this program knows.</source>
        <translation>请改用镜像的 https:// 地址，或者选择本程序已知的 cuDNN 版本。</translation>
    </message>
    <message>
        <source>The source %1 lists %2 under a name that is not one of NVIDIA&apos;s archive names, and could put the file outside the download folder: it is not downloaded.</source>
        <translation>来源 %1 为 %2 列出的文件名不符合 NVIDIA 压缩包的命名，可能把文件写到下载文件夹之外，因此不会下载。</translation>
    </message>
    <message>
        <source>Tell whoever runs the source: NVIDIA names the archives cudnn/&lt;platform&gt;/cudnn-&lt;platform&gt;-&lt;version&gt;_cuda&lt;major&gt;-archive.zip (or .tar.xz). %1</source>
        <translation>请告知该来源的维护者：NVIDIA 的压缩包命名为 cudnn/&lt;platform&gt;/cudnn-&lt;platform&gt;-&lt;version&gt;_cuda&lt;major&gt;-archive.zip（或 .tar.xz）。%1</translation>
    </message>
    <message>
        <source>its owner and mode cannot be read</source>
        <translation>无法读取它的所有者和权限</translation>
    </message>
    <message>
        <source>a symbolic link to %1</source>
        <translation>它是指向 %1 的符号链接</translation>
    </message>
    <message>
        <source>owner %1, mode %2</source>
        <translation>所有者 %1，权限 %2</translation>
    </message>
    <message>
        <source>The folder %1 has %2 in its path, which the loader&apos;s configuration cannot hold: it takes one folder a line, and &quot;#&quot; starts a comment.</source>
        <translation>文件夹 %1 的路径中含有 %2，加载器的配置文件写不下这样的路径：配置文件每行写一个文件夹，而“#”表示注释的开始。</translation>
    </message>
    <message>
        <source>Choose a folder whose path has no control characters and no &quot;#&quot;.</source>
        <translation>请选择路径中不含控制字符和“#”的文件夹。</translation>
    </message>
    <message>
        <source>%1 would be named in the loader&apos;s configuration, but %2 can be changed by others than root (%3): any library put there would be loaded by programs of every user, root&apos;s too.</source>
        <translation>%1 将被写入加载器的配置，但除 root 以外的人也能修改 %2（%3）：放入其中的任何库，都会被这台电脑上所有用户的程序（包括 root 的程序）加载。</translation>
    </message>
    <message>
        <source>cuDNN Setup runs as root and would write into %1, but %2 can be changed by others than root (%3): they could swap what root writes there, or lead it elsewhere through a link.</source>
        <translation>cuDNN 安装向导正以 root 身份运行，将写入 %1，但除 root 以外的人也能修改 %2（%3）：他们可以调换 root 写入的文件，或者通过链接把写入引向别处。</translation>
    </message>
    <message>
        <source>Choose a folder that root owns and only root may change, with every folder above it the same, such as /opt/cudnn; for a folder of your own, install without root and without --path system.</source>
        <translation>请选择归 root 所有、只有 root 能修改的文件夹（它的每一级上层文件夹也须如此），例如 /opt/cudnn；如果要安装到你自己的文件夹，请不要以 root 身份运行，也不要使用 --path system。</translation>
    </message>
    <message>
        <source>possibly anyone: its permissions cannot be read</source>
        <translation>可能是任何人：无法读取它的权限设置</translation>
    </message>
    <message>
        <source>Wait until it has finished. If it stays so after a restart of Windows, ask an administrator to find the program that holds %1 (Process Explorer: Find Handle) and end it.</source>
        <translation>请等它完成。如果重启 Windows 后仍然如此，请管理员找出占用 %1 的程序（Process Explorer：查找句柄）并结束它。</translation>
    </message>
    <message>
        <source>Make sure no other program is writing to the archive (a download still running?), then try again.</source>
        <translation>请确认没有其他程序正在写入这个压缩包（是否还有下载没有完成？），然后重试。</translation>
    </message>
    <message>
        <source>The archive %1 is not one NVIDIA published (its SHA-256 is not among NVIDIA&apos;s checksums). Administrator rights install only NVIDIA&apos;s own archives for someone else.</source>
        <translation>压缩包 %1 不是 NVIDIA 发布的文件（它的 SHA-256 不在 NVIDIA 公布的校验值中）。借用管理员权限替别人安装时，只接受 NVIDIA 官方的压缩包。</translation>
    </message>
    <message>
        <source>Install into a folder for you only, which needs no administrator rights, or download the archive from NVIDIA (or your lab&apos;s copy of NVIDIA&apos;s files) and choose that one.</source>
        <translation>请改为安装到当前用户目录（不需要管理员权限），或者从 NVIDIA 官网（或实验室保存的 NVIDIA 官方文件副本）下载压缩包，然后选择那个文件。</translation>
    </message>
    <message>
        <source>The archive %1 is not one NVIDIA published (its SHA-256 is not among NVIDIA&apos;s checksums). Files that every program on this computer loads are installed only from NVIDIA&apos;s own archives.</source>
        <translation>压缩包 %1 不是 NVIDIA 发布的文件（它的 SHA-256 不在 NVIDIA 公布的校验值中）。这台电脑上所有程序都会加载的文件，只能来自 NVIDIA 官方的压缩包。</translation>
    </message>
    <message>
        <source>Install into a folder for you only, or download the archive from NVIDIA (or your lab&apos;s copy of NVIDIA&apos;s files). An administrator at their own console who trusts this file may add --allow-unverified-archive to cudnnctl install.</source>
        <translation>请改为安装到当前用户目录，或者从 NVIDIA 官网（或实验室保存的 NVIDIA 官方文件副本）下载压缩包。如果管理员在自己的电脑前操作并且信任这个文件，可以在 cudnnctl install 中加上 --allow-unverified-archive。</translation>
    </message>
    <message>
        <source>%1 would go on your PATH, but %2 can be changed by others (%3): whatever DLL they put there, your programs would load.</source>
        <translation>%1 将被加入你的 PATH，但其他人（%3）可以修改 %2：他们放进去的任何 DLL 都会被你的程序加载。</translation>
    </message>
    <message>
        <source>Install into a folder for you only (the default, in your profile), or into a folder under Program Files for the system PATH.</source>
        <translation>请安装到当前用户目录（默认位置，在你的个人目录中），或者安装到 Program Files 下的文件夹并加入系统 PATH。</translation>
    </message>
    <message>
        <source>cuDNN Setup&apos;s folder holds something that others than the administrators may have changed, so it is not used: %1</source>
        <translation>cuDNN 安装向导的文件夹中有一项内容可能被管理员以外的人改动过，因此不会使用它：%1</translation>
    </message>
    <message>
        <source>Install into a folder under Program Files (the default), or into a folder for you only on your own PATH (--target user --path user).</source>
        <translation>请安装到 Program Files 下的文件夹（默认位置），或者安装到当前用户目录并只加入你自己的 PATH（--target user --path user）。</translation>
    </message>
    <message>
        <source>The install handed over to the administrator part is damaged, so nothing is installed.</source>
        <translation>交给管理员权限部分的安装内容已损坏，因此没有安装任何东西。</translation>
    </message>
    <message>
        <source>The install that was approved is not the one handed over (the plan changed after the approval), so nothing is installed.</source>
        <translation>交过来的安装不是获批准的那一个（安装计划在批准之后被改动过），因此没有安装任何东西。</translation>
    </message>
    <message>
        <source>Start the installation again, and approve it only if you started it yourself.</source>
        <translation>请重新开始安装；只有在确认是你自己发起的安装时才批准它。</translation>
    </message>
    <message>
        <source>The recorded install target is damaged.</source>
        <translation>记录的安装位置已损坏。</translation>
    </message>
    <message>
        <source>Nothing is installed into %1 with administrator rights: %2 can be changed by %3, who could swap a folder for a link to a system folder while it is written.</source>
        <translation>不会以管理员权限向 %1 安装任何东西：%3 可以修改 %2，他们可能在写入过程中把某个文件夹换成指向系统文件夹的链接。</translation>
    </message>
    <message>
        <source>Cannot tell whether %1 can run CUDA and cuDNN: its compute capability is not known (NVIDIA&apos;s table in the compatibility database does not list this name).</source>
        <translation>无法判断 %1 能否运行 CUDA 和 cuDNN：不知道它的计算能力（兼容性数据库里的 NVIDIA 显卡列表中没有这个名称）。</translation>
    </message>
    <message>
        <source>Cannot tell whether cuDNN %1 for CUDA %2 runs on %3: the compatibility database has no list of the GPUs it supports.</source>
        <translation>无法判断适用于 CUDA %2 的 cuDNN %1 能否在 %3 上运行：兼容性数据库里没有它所支持的显卡列表。</translation>
    </message>
    <message>
        <source>Choose a cuDNN release whose support matrix lists compute capability %1, such as the recommended one.</source>
        <translation>请选用支持矩阵中列出了计算能力 %1 的 cuDNN 版本，例如推荐的那个。</translation>
    </message>
    <message>
        <source>%1 could not be loaded. %2 It belongs to cuDNN %3: the program needs cuDNN %3 itself, whatever other cuDNN is installed.</source>
        <translation>无法加载 %1。%2它属于 cuDNN %3：程序需要的正是 cuDNN %3，即使安装了其他版本的 cuDNN 也无济于事。</translation>
    </message>
    <message>
        <source>%1 could not be loaded. %2</source>
        <translation>无法加载 %1。%2</translation>
    </message>
    <message>
        <source>cuDNN reported %1: %2</source>
        <translation>cuDNN 报告 %1：%2</translation>
    </message>
    <message>
        <source>The program was built for cuDNN %1 but loaded cuDNN %2 at run time: an older copy was found first.</source>
        <translation>程序编译时使用的是 cuDNN %1，运行时却加载了 cuDNN %2：系统先找到了一个较旧的副本。</translation>
    </message>
    <message>
        <source>Let the program find a cuDNN of the same major version and at least the version it was built with: update the older copy, or remove its folder from LD_LIBRARY_PATH or PATH so that the program&apos;s own cuDNN is found.</source>
        <translation>让程序找到主版本相同、且不低于其编译版本的 cuDNN：更新那个较旧的副本，或把它所在的文件夹从 LD_LIBRARY_PATH 或 PATH 中移除，使程序找到自带的 cuDNN。</translation>
    </message>
    <message>
        <source>This GPU (%1) is not among the architectures the program was built for (%2).</source>
        <translation>这块显卡（%1）不在程序编译时支持的架构之列（%2）。</translation>
    </message>
    <message>
        <source>Install a build of the framework made for this GPU: for torch, a wheel whose CUDA version supports it (RTX 50 series, sm_120: cu128 or newer; cards before Turing: cu126).</source>
        <translation>安装支持这块显卡的框架版本：对于 torch，选择其 CUDA 版本支持该显卡的 wheel（RTX 50 系列即 sm_120：cu128 或更新；Turing 之前的显卡：cu126）。</translation>
    </message>
    <message>
        <source>The NVIDIA driver supports CUDA up to %1 only, older than the CUDA the program was built for.</source>
        <translation>NVIDIA 驱动最高只支持 CUDA %1，低于程序编译时使用的 CUDA 版本。</translation>
    </message>
    <message>
        <source>The framework installed is a CPU-only build: it cannot use the GPU, whatever cuDNN is installed.</source>
        <translation>已安装的框架是仅支持 CPU 的版本：无论安装哪个 cuDNN，都无法使用显卡。</translation>
    </message>
    <message>
        <source>Install its GPU build instead: for torch, the wheel from download.pytorch.org/whl/cuXXX that the driver supports; for PaddlePaddle, paddlepaddle-gpu; OpenCV needs a build with CUDA.</source>
        <translation>改为安装其显卡版本：torch 请从 download.pytorch.org/whl/cuXXX 安装驱动所支持的 wheel；PaddlePaddle 请安装 paddlepaddle-gpu；OpenCV 需要启用 CUDA 编译的版本。</translation>
    </message>
    <message>
        <source>a status this version does not know.</source>
        <translation>本版本无法识别的状态。</translation>
    </message>
    <message>
        <source>The program ended with code %1 (%2) while loading cuDNN, without an error message: typically a program built for cuDNN 8 (CTranslate2, faster-whisper) that found cuDNN 9, or files of two cuDNN releases mixed.</source>
        <translation>程序在加载 cuDNN 时以代码 %1（%2）退出，没有任何错误信息：通常是为 cuDNN 8 编译的程序（CTranslate2、faster-whisper）找到了 cuDNN 9，或者混用了两个 cuDNN 版本的文件。</translation>
    </message>
    <message>
        <source>Give the program the cuDNN major version it was built for, in its own folder or first on its search path (cuDNN 8.9 for CUDA 12 for CTranslate2 before 4.5), and keep the files of one cuDNN release together.</source>
        <translation>为程序提供其编译时所用主版本的 cuDNN，放在程序自己的文件夹中，或放在其搜索路径的最前面（4.5 之前的 CTranslate2 需要适用于 CUDA 12 的 cuDNN 8.9），并确保同一 cuDNN 版本的文件放在一起。</translation>
    </message>
    <message>
        <source>Under WSL2 the loader did not find the Windows driver&apos;s %1 as it expects (in /usr/lib/wsl/lib, known to ldconfig).</source>
        <translation>在 WSL2 中，加载器没有按预期找到 Windows 驱动提供的 %1（应位于 /usr/lib/wsl/lib，并已登记到 ldconfig）。</translation>
    </message>
    <message>
        <source>Do not install a Linux NVIDIA driver inside WSL; make /usr/lib/wsl/lib known to the loader (a file in /etc/ld.so.conf.d naming it, then sudo ldconfig) or add it to LD_LIBRARY_PATH. The &quot;is not a symbolic link&quot; warning alone is harmless.</source>
        <translation>不要在 WSL 中安装 Linux 版 NVIDIA 驱动；让加载器知道 /usr/lib/wsl/lib（在 /etc/ld.so.conf.d 中新建一个写有该路径的文件，然后运行“sudo ldconfig”），或将其添加到 LD_LIBRARY_PATH。单独出现的“is not a symbolic link”警告并无影响。</translation>
    </message>
    <message>
        <source>The log %1 is larger than 256 MB: give the part around the error.</source>
        <translation>日志 %1 超过 256 MB：请只提供错误附近的部分。</translation>
    </message>
    <message>
        <source>The log %1 cannot be read.</source>
        <translation>无法读取日志 %1。</translation>
    </message>
    <message>
        <source>%1 The folder %2 named in the error exists on this system.</source>
        <translation>%1错误信息中提到的文件夹 %2 在本系统上存在。</translation>
    </message>
    <message>
        <source>The error you pasted:</source>
        <translation>你粘贴的错误：</translation>
    </message>
    <message>
        <source>Not recognised: the text holds no cuDNN, CUDA or driver failure this version knows, so nothing is concluded from it.</source>
        <translation>无法识别：这段文字中没有本版本已知的 cuDNN、CUDA 或驱动故障，因此不据此得出任何结论。</translation>
    </message>
    <message>
        <source>This system:</source>
        <translation>本系统：</translation>
    </message>
    <message>
        <source>The section table of the ELF file is damaged.</source>
        <translation>该 ELF 文件的节表已损坏。</translation>
    </message>
    <message>
        <source>The GPU code list of the file (its fatbin) is damaged; it was read only in part.</source>
        <translation>该文件的 GPU 代码列表（fatbin）已损坏，只读出了一部分。</translation>
    </message>
    <message>
        <source>Uses cuDNN/CUDA</source>
        <translation>使用 cuDNN/CUDA 的程序</translation>
    </message>
    <message>
        <source>%1 %2 (needs cuDNN %3, CUDA %4)  %5</source>
        <translation>%1 %2（需要 cuDNN %3、CUDA %4）  %5</translation>
    </message>
    <message>
        <source>GPU code: %1; PTX: %2</source>
        <translation>GPU 代码：%1；PTX：%2</translation>
    </message>
    <message>
        <source>%1 -&gt; %2 (%3)</source>
        <translation>%1 -&gt; %2（%3）</translation>
    </message>
    <message>
        <source>%1 -&gt; not found</source>
        <translation>%1 -&gt; 未找到</translation>
    </message>
    <message>
        <source>Compatible: cannot tell</source>
        <translation>兼容：无法判断</translation>
    </message>
    <message>
        <source>Line %1 of the text: %2</source>
        <translation>文字第 %1 行：%2</translation>
    </message>
    <message>
        <source>Install into a folder under Program Files (the default), or into a folder of yours without administrator rights.</source>
        <translation>请安装到 Program Files 下的文件夹（默认位置），或者不用管理员权限安装到你自己的文件夹。</translation>
    </message>
    <message>
        <source>Diagnose again and choose the repairs anew.</source>
        <translation>请重新诊断，再选择要做的修复。</translation>
    </message>
    <message>
        <source>Remove %1 from PATH; add %2 at the end of PATH.</source>
        <translation>从 PATH 中删除 %1；把 %2 添加到 PATH 末尾。</translation>
    </message>
    <message>
        <source>Let the repair remove %1 from PATH and add %2 at the end of PATH.</source>
        <translation>让修复程序从 PATH 中删除 %1，并把 %2 添加到 PATH 末尾。</translation>
    </message>
    <message>
        <source>PATH has changed: terminals and IDEs opened before the change, and the programs they start, still use the old PATH.</source>
        <translation>PATH 已被修改：修改之前打开的终端、IDE 以及从它们启动的程序仍在使用旧的 PATH。</translation>
    </message>
    <message>
        <source>File name says</source>
        <translation>文件名所示</translation>
    </message>
    <message>
        <source>How it was found</source>
        <translation>发现方式</translation>
    </message>
    <message>
        <source>No diagnosis was made for this report.</source>
        <translation>本报告没有进行诊断。</translation>
    </message>
    <message>
        <source>The diagnosis found no problem.</source>
        <translation>诊断没有发现问题。</translation>
    </message>
    <message>
        <source>Passed in part, the GPU was not used (%1 s).</source>
        <translation>部分通过，没有在显卡上运行（用时 %1 秒）。</translation>
    </message>
    <message>
        <source>The repairs handed over for administrator rights were not applied: they are not what the diagnosis offers.</source>
        <translation>交给管理员权限执行的修复没有被应用：它们与诊断给出的修复不一致。</translation>
    </message>
    <message>
        <source>Diagnose again and choose the repairs from what the diagnosis offers then.</source>
        <translation>请重新诊断，并从这次诊断给出的修复中选择。</translation>
    </message>
    <message>
        <source>The cuDNN that loaded is %1, but %2 was expected there.</source>
        <translation>实际加载的 cuDNN 是 %1，但那里应该是 %2。</translation>
    </message>
    <message>
        <source>Another copy loads first, or the files were replaced: press Repair… below.</source>
        <translation>可能是另一份 cuDNN 先被加载了，或者文件被替换过：请点击下方的“修复…”。</translation>
    </message>
    <message>
        <source>Programs that use cuDNN/CUDA</source>
        <translation>使用 cuDNN/CUDA 的程序能否运行</translation>
    </message>
    <message>
        <source>%1 needs %2, and its own search for libraries does not reach it.</source>
        <translation>%1 需要 %2，但按它自己的库搜索方式找不到。</translation>
    </message>
    <message>
        <source>Make %1 reachable for it: install the CUDA %2 toolkit, or put those libraries beside its files in %3.</source>
        <translation>让它能找到 %1：安装 CUDA %2 工具包，或把这些库放到它在 %3 中的文件旁边。</translation>
    </message>
    <message>
        <source>Nothing to do.</source>
        <translation>无需任何操作。</translation>
    </message>
    <message>
        <source>Nothing its files show can be fixed from here; whether it works shows when it runs.</source>
        <translation>从它的文件中看不出有什么需要修复；能否正常工作，要运行后才能知道。</translation>
    </message>
    <message>
        <source>No %1 was found here.</source>
        <translation>这里没有找到 %1。</translation>
    </message>
    <message>
        <source>TensorFlow newer than %1 has no GPU build for native Windows.</source>
        <translation>TensorFlow %1 之后的版本没有面向原生 Windows 的显卡版本。</translation>
    </message>
    <message>
        <source>Install %1, then check again.</source>
        <translation>请先安装 %1，然后再检查一次。</translation>
    </message>
    <message>
        <source>Use WSL 2: install a Linux distribution with &quot;wsl --install&quot;, then install the GPU build inside it (the Windows driver serves it).</source>
        <translation>改用 WSL 2：运行“wsl --install”安装一个 Linux 发行版，再在其中安装显卡版本（由 Windows 上的驱动提供支持）。</translation>
    </message>
    <message>
        <source>%1 cannot use the GPU on native Windows: the last TensorFlow that could is %2.</source>
        <translation>%1 在原生 Windows 上无法使用显卡：最后一个能使用显卡的 TensorFlow 版本是 %2。</translation>
    </message>
    <message>
        <source>%1 has no NVIDIA GPU support on native Windows.</source>
        <translation>%1 在原生 Windows 上不支持 NVIDIA 显卡。</translation>
    </message>
    <message>
        <source>%1 finds its cuDNN: %2.</source>
        <translation>%1 能找到它需要的 cuDNN：%2。</translation>
    </message>
    <message>
        <source>%1 is built for CUDA %2, but driver %3 runs CUDA up to %4.</source>
        <translation>%1 是为 CUDA %2 编译的，但驱动 %3 最高只支持 CUDA %4。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU is known here, so whether %1 runs cannot be told.</source>
        <translation>这里没有已知的 NVIDIA 显卡，因此无法判断 %1 能否运行。</translation>
    </message>
    <message>
        <source>Cannot tell whether %1 runs on %2: its compute capability is not known.</source>
        <translation>无法判断 %1 能否在 %2 上运行：这块显卡的计算能力未知。</translation>
    </message>
    <message>
        <source>%1 lists no GPU code in its files, so whether it runs on %2 cannot be told.</source>
        <translation>%1 的文件中没有列出 GPU 代码，因此无法判断它能否在 %2 上运行。</translation>
    </message>
    <message>
        <source>%1 has no GPU code for %2 except PTX of CUDA %3, which driver %4 (CUDA %5) cannot compile.</source>
        <translation>%1 中适用于 %2 的 GPU 代码只有 CUDA %3 的 PTX，而驱动 %4（CUDA %5）无法编译它。</translation>
    </message>
    <message>
        <source>%1 can run on %2 only by compiling its PTX (ISA %3), and whether driver %4 can is not known.</source>
        <translation>%1 只有编译其 PTX（ISA %3）后才能在 %2 上运行，而驱动 %4 能否编译未知。</translation>
    </message>
    <message>
        <source>%1 runs on %2 by having the driver compile its PTX (slow on first use).</source>
        <translation>%1 可以在 %2 上运行：由驱动编译其 PTX（首次使用时较慢）。</translation>
    </message>
    <message>
        <source>%1 has GPU code for %2.</source>
        <translation>%1 带有适用于 %2 的 GPU 代码。</translation>
    </message>
    <message>
        <source>%1 carries GPU code for %2 only, none of which runs on %3: &quot;no kernel image is available&quot;.</source>
        <translation>%1 只带有 %2 的 GPU 代码，其中没有一个能在 %3 上运行：会报错“no kernel image is available”。</translation>
    </message>
    <message>
        <source>Get a build of %1 made for compute capability %2 (a newer release, or one built from source).</source>
        <translation>请换用为计算能力 %2 编译的 %1（较新的版本，或自行从源码编译）。</translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer (it runs CUDA %2).</source>
        <translation>请把驱动更新到 %1 或更高版本（它支持 CUDA %2）。</translation>
    </message>
    <message>
        <source>Update the driver to one that runs CUDA %1.</source>
        <translation>请把驱动更新到支持 CUDA %1 的版本。</translation>
    </message>
    <message>
        <source>No PyTorch build the compatibility database knows carries GPU code for %1.</source>
        <translation>兼容性数据库中已知的 PyTorch 版本都不带有适用于 %1 的 GPU 代码。</translation>
    </message>
    <message>
        <source>Update the driver to %1 or newer, then install torch from PyTorch&apos;s %2 index (CUDA %3).</source>
        <translation>请先把驱动更新到 %1 或更高版本，再从 PyTorch 的 %2 源（CUDA %3）安装 torch。</translation>
    </message>
    <message>
        <source>Update the driver to one that runs CUDA %1, then install torch from PyTorch&apos;s %2 index.</source>
        <translation>请先把驱动更新到支持 CUDA %1 的版本，再从 PyTorch 的 %2 源安装 torch。</translation>
    </message>
    <message>
        <source>Install torch from PyTorch&apos;s %1 index: its builds (torch %2, CUDA %3) carry GPU code for %4 and run on this driver.</source>
        <translation>请从 PyTorch 的 %1 源安装 torch：其中的版本（torch %2，CUDA %3）带有适用于 %4 的 GPU 代码，并且能在当前驱动上运行。</translation>
    </message>
    <message>
        <source>%1 needs cuDNN %2 and does not reach it (%3).</source>
        <translation>%1 需要 cuDNN %2，但找不到（%3）。</translation>
    </message>
    <message>
        <source>No cuDNN %1 for CUDA %2 in the compatibility database supports %3: get a build of the program made for a newer cuDNN.</source>
        <translation>兼容性数据库中没有支持 %3 的、适用于 CUDA %2 的 cuDNN %1：请换用为较新 cuDNN 编译的该程序版本。</translation>
    </message>
    <message>
        <source>cannot tell</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <source>not needed</source>
        <translation>不需要</translation>
    </message>
    <message>
        <source>Runs on this GPU: %1; finds its cuDNN: %2</source>
        <translation>能否在这块显卡上运行：%1；能否找到所需的 cuDNN：%2</translation>
    </message>
    <message>
        <source>Another copy loads first, or the files were replaced: run cudnnctl doctor.</source>
        <translation>可能是另一份 cuDNN 先被加载了，或者文件被替换过：请运行 cudnnctl doctor。</translation>
    </message>
    <message>
        <source>cuDNN could not find its own function %1 in its libraries (error %2): its main library and its sub-libraries come from different releases.</source>
        <translation>cuDNN 在自己的库中找不到函数 %1（错误 %2）：它的主库和子库来自不同的版本。</translation>
    </message>
    <message>
        <source>Use the libraries of one cuDNN release, all of them: install cuDNN again from one complete archive.</source>
        <translation>只使用同一个 cuDNN 版本的库，而且要用全：从一个完整的压缩包重新安装 cuDNN。</translation>
    </message>
    <message>
        <source>The cuDNN libraries in %1 come from %2 different releases (%3): cuDNN&apos;s main library cannot use the sub-libraries of another release, so programs fail with &quot;Could not load symbol&quot; (error 127) or end without a word.</source>
        <translation>%1 中的 cuDNN 库来自 %2 个不同的版本（%3）：cuDNN 的主库无法使用其他版本的子库，因此程序会报“Could not load symbol”（错误 127），或者不提示任何信息就退出。</translation>
    </message>
    <message>
        <source>Use the libraries of one cuDNN release, all of them: install cuDNN again from one complete archive, so that every library in %1 is replaced.</source>
        <translation>只使用同一个 cuDNN 版本的库，而且要用全：从一个完整的压缩包重新安装 cuDNN，替换 %1 中的每一个库。</translation>
    </message>
    <message>
        <source>JAX %1 in %2 cannot use the GPU on native Windows: JAX&apos;s CUDA builds exist for Linux only.</source>
        <translation>%2 中的 JAX %1 在原生 Windows 上无法使用显卡：JAX 的 CUDA 版本只提供 Linux 版。</translation>
    </message>
    <message>
        <source>Run JAX under WSL 2 and install its CUDA build there, as JAX&apos;s installation guide says.</source>
        <translation>请在 WSL 2 中运行 JAX，并按照 JAX 安装指南在其中安装它的 CUDA 版本。</translation>
    </message>
    <message>
        <source>A Linux NVIDIA driver is installed inside WSL (%1): programs load its libcuda instead of the Windows driver&apos;s in %2, and CUDA finds no GPU.</source>
        <translation>WSL 中安装了 Linux 版 NVIDIA 驱动（%1）：程序会加载它的 libcuda，而不是 %2 中 Windows 驱动提供的那个，于是 CUDA 找不到显卡。</translation>
    </message>
    <message>
        <source>Remove the Linux driver from WSL (sudo apt-get remove --purge the nvidia-driver and libnvidia-compute packages), keep only the Windows driver, then run sudo ldconfig.</source>
        <translation>从 WSL 中卸载 Linux 驱动（用 sudo apt-get remove --purge 卸载 nvidia-driver 和 libnvidia-compute 软件包），只保留 Windows 驱动，然后运行 sudo ldconfig。</translation>
    </message>
    <message>
        <source>The loader&apos;s cache (/etc/ld.so.cache) does not name %1, and LD_LIBRARY_PATH does not either: programs under WSL do not find the Windows driver&apos;s libcuda.so.1.</source>
        <translation>加载器缓存（/etc/ld.so.cache）中没有 %1，LD_LIBRARY_PATH 中也没有：WSL 中的程序找不到 Windows 驱动提供的 libcuda.so.1。</translation>
    </message>
    <message>
        <source>Name the folder in a file of /etc/ld.so.conf.d (echo %1 | sudo tee /etc/ld.so.conf.d/ld.wsl.conf), then run sudo ldconfig.</source>
        <translation>在 /etc/ld.so.conf.d 下的文件中写入该文件夹（echo %1 | sudo tee /etc/ld.so.conf.d/ld.wsl.conf），然后运行 sudo ldconfig。</translation>
    </message>
    <message>
        <source>ldconfig warns that %1 is not a symbolic link: WSL ships it as a file, and the loader finds it all the same.</source>
        <translation>ldconfig 提示 %1 不是符号链接：WSL 本来就以普通文件的形式提供它，加载器照样能找到。</translation>
    </message>
    <message>
        <source>Nothing to do: the warning is harmless.</source>
        <translation>无需处理：这条警告不影响使用。</translation>
    </message>
    <message>
        <source>the environment&apos;s own copy</source>
        <translation>这是该环境自带的副本</translation>
    </message>
    <message>
        <source>a folder Windows searches before PATH</source>
        <translation>Windows 会先于 PATH 搜索这个文件夹</translation>
    </message>
    <message>
        <source>number %1 in the library search path</source>
        <translation>它在库搜索路径中排第 %1 位</translation>
    </message>
    <message>
        <source>where the program&apos;s own loader looks</source>
        <translation>程序自己的加载器会在这里查找</translation>
    </message>
    <message>
        <source>torch %1 is built for CUDA %2: update the driver to %3 or newer.</source>
        <translation>torch %1 是为 CUDA %2 构建的：请把驱动更新到 %3 或更高版本。</translation>
    </message>
    <message>
        <source>torch %1 has no code for the %2 (compute capability %3): install the torch wheel built for a CUDA version that supports it and that the driver (CUDA up to %4) runs, with pip install torch --index-url https://download.pytorch.org/whl/cuXXX.</source>
        <translation>torch %1 不包含适用于 %2（计算能力 %3）的代码：请安装为支持这块显卡、且当前驱动（最高支持 CUDA %4）能运行的 CUDA 版本构建的 torch wheel，命令为 pip install torch --index-url https://download.pytorch.org/whl/cuXXX。</translation>
    </message>
    <message>
        <source>Let the repair put the cuDNN %1 libraries of %2 into %3, beside the program.</source>
        <translation>让修复把 %2 中的 cuDNN %1 库放到 %3，与程序放在一起。</translation>
    </message>
    <message>
        <source>Put every library of a cuDNN %1 archive into %2, beside the program (or give that archive to the repair with --archive).</source>
        <translation>把 cuDNN %1 压缩包中的所有库放到 %2，与程序放在一起（也可以用 --archive 把该压缩包交给修复）。</translation>
    </message>
    <message>
        <source>%1 None of the folders the error names is on this system: it came from another machine (or an environment since removed), so this is what it means in general.</source>
        <translation>%1 错误中提到的文件夹在本系统上都不存在：它来自另一台电脑（或一个已删除的环境），因此这里给出的是一般性的解释。</translation>
    </message>
    <message>
        <source>On this system the error is from %1 in %2.</source>
        <translation>在本系统上，这个错误来自 %2 中的 %1。</translation>
    </message>
    <message>
        <source>On this system the error is from %1.</source>
        <translation>在本系统上，这个错误来自 %1。</translation>
    </message>
    <message>
        <source>%1 Here it loads %2 (cuDNN %3), %4.</source>
        <translation>%1 在这里它加载的是 %2（cuDNN %3），原因是：%4。</translation>
    </message>
    <message>
        <source>%1 Here no copy of %2 is reachable from it.</source>
        <translation>%1 在这里它找不到任何 %2 副本。</translation>
    </message>
    <message>
        <source>The folder %1 named in the error exists on this system.</source>
        <translation>错误中提到的文件夹 %1 在本系统上存在。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Put cuDNN %1 for CUDA %2 beside it, for this program only: download %3 and install its libraries into %4, with no PATH change.</source>
        <translation>只为这个程序在它旁边放一份适用于 CUDA %2 的 cuDNN %1：下载 %3，把其中的库安装到 %4，不改动 PATH。</translation>
    </message>
    <message>
        <source>CUDNN_PATH and its kin are for building programs, which needs the headers and import libraries that an install beside one program leaves out.</source>
        <translation>CUDNN_PATH 等变量是编译程序用的，编译需要头文件和导入库，而只装在某个程序旁边时不会装这些文件。</translation>
    </message>
    <message>
        <source>Leave out --cudnn-variables, or install into a folder of its own (--target dir) to build with cuDNN.</source>
        <translation>去掉 --cudnn-variables；如果要用 cuDNN 编译程序，请安装到单独的文件夹（--target dir）。</translation>
    </message>
    <message>
        <source>%1 is not a folder: cuDNN for one program goes into the folder that holds the program.</source>
        <translation>%1 不是文件夹：只给一个程序用的 cuDNN 要安装到这个程序所在的文件夹。</translation>
    </message>
    <message>
        <source>Give the folder of the program&apos;s .exe (or its library folder), as it is now.</source>
        <translation>请给出程序 .exe 所在的文件夹（或它的库文件夹），必须是现在已经存在的文件夹。</translation>
    </message>
    <message>
        <source>%1 is a folder of the system, not of one program: cuDNN put there would reach every program, or mix with the system&apos;s own files.</source>
        <translation>%1 是系统文件夹，不属于某一个程序：放在这里的 cuDNN 会被所有程序加载，或者和系统自带的文件混在一起。</translation>
    </message>
    <message>
        <source>Give the folder that holds the program itself; for every program, install into a folder of its own (--target dir).</source>
        <translation>请给出程序本身所在的文件夹；如果要让所有程序都能用，请安装到单独的文件夹（--target dir）。</translation>
    </message>
    <message>
        <source>cuDNN beside one program is found by that program without any PATH change, so it is not added to the %1 PATH.</source>
        <translation>放在程序旁边的 cuDNN 不改 PATH 就能被这个程序找到，所以不会把它加到 %1 PATH 中。</translation>
    </message>
    <message>
        <source>Leave out --path (or give --path none); for every program, install into its own folder (--target dir).</source>
        <translation>去掉 --path（或写 --path none）；如果要让所有程序都能用，请安装到单独的文件夹（--target dir）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a target: use cuda, cuda:VERSION, dir, dir:PATH, user, user:PATH, conda:NAME, venv:PATH or app:FOLDER.</source>
        <translation>“%1”不是有效的安装目标：请使用 cuda、cuda:VERSION、dir、dir:PATH、user、user:PATH、conda:NAME、venv:PATH 或 app:FOLDER。</translation>
    </message>
    <message>
        <source>PyTorch brings its own cuDNN: no system-wide cuDNN is needed.</source>
        <translation>PyTorch 自带 cuDNN：不需要安装系统级的 cuDNN。</translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds its cuDNN: nothing to do. To install PyTorch for this GPU in another environment:</source>
        <translation>%1 能在这块显卡上运行，也能找到自己的 cuDNN：无需任何操作。如果要在其他环境中安装适合这块显卡的 PyTorch，请运行：</translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds its cuDNN: nothing to do.</source>
        <translation>%1 能在这块显卡上运行，也能找到自己的 cuDNN：无需任何操作。</translation>
    </message>
    <message>
        <source>Install it first, or go on: the next pages install a system-wide cuDNN that programs can find.</source>
        <translation>请先安装它，或者继续：接下来的页面会安装一个各程序都能找到的系统级 cuDNN。</translation>
    </message>
    <message>
        <source>%1 runs on this GPU and finds the cuDNN it needs: nothing to install.</source>
        <translation>%1 能在这块显卡上运行，也能找到所需的 cuDNN：无需安装任何内容。</translation>
    </message>
    <message>
        <source>Your own code needs cuDNN&apos;s headers and libraries: the next pages install them into the CUDA toolkit or a folder of your own.</source>
        <translation>你自己的代码需要 cuDNN 的头文件和库：接下来的页面会把它们安装到 CUDA 工具包或你自己选择的文件夹。</translation>
    </message>
    <message>
        <source>Then tell CMake where they are (the folder is the one you choose on the &quot;Where cuDNN goes&quot; page, which can also set these as environment variables):</source>
        <translation>然后告诉 CMake 它们在哪里（文件夹就是你在“cuDNN 安装位置”页选择的那个；该页也可以把这些设置为环境变量）：</translation>
    </message>
    <message>
        <source>Choose the program&apos;s folder, or one of the folders found.</source>
        <translation>请选择该程序所在的文件夹，或从检测到的文件夹中选一个。</translation>
    </message>
    <message>
        <source>No program that uses cuDNN was found on this computer.</source>
        <translation>这台电脑上没有找到使用 cuDNN 的程序。</translation>
    </message>
    <message>
        <source>If you will use PyTorch, choose it above: it brings its own cuDNN. Otherwise the next pages install a system-wide cuDNN that programs can find.</source>
        <translation>如果你要用 PyTorch，请在上面选择它：PyTorch 自带 cuDNN。否则，接下来的页面会安装一个各程序都能找到的系统级 cuDNN。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source> (%1 ms)</source>
        <translation>（%1 毫秒）</translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message>
        <source>as cuDNN 8.2 and earlier (cuda/bin, include, lib/x64)</source>
        <translation>与 cuDNN 8.2 及更早版本相同（cuda/bin、include、lib/x64）</translation>
    </message>
    <message>
        <source>as cuDNN 8.3 to 9.17 (bin, include, lib/x64)</source>
        <translation>与 cuDNN 8.3 至 9.17 相同（bin、include、lib/x64）</translation>
    </message>
    <message>
        <source>as cuDNN 9.18 and later (bin/x64, include, lib/x64)</source>
        <translation>与 cuDNN 9.18 及更新版本相同（bin/x64、include、lib/x64）</translation>
    </message>
    <message>
        <source>as NVIDIA&apos;s Linux archives (lib, include)</source>
        <translation>与 NVIDIA 的 Linux 压缩包相同（lib、include）</translation>
    </message>
    <message>
        <source>not where NVIDIA&apos;s archives put them</source>
        <translation>文件不在 NVIDIA 压缩包的标准位置</translation>
    </message>
    <message>
        <source>no cuDNN files</source>
        <translation>没有 cuDNN 文件</translation>
    </message>
    <message>
        <source>%1, libraries in %2</source>
        <translation>%1，库文件位于 %2</translation>
    </message>
    <message>
        <source>larger than %1 MB, not read</source>
        <translation>大于 %1 MB，未读取</translation>
    </message>
    <message>
        <source>not a plain file (a link, a folder or a device)</source>
        <translation>不是普通文件（而是链接、文件夹或设备）</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>not valid JSON (damaged or cut short)</source>
        <translation>不是有效的 JSON（已损坏或不完整）</translation>
    </message>
    <message>
        <source>not a machine report of cudnnctl</source>
        <translation>不是 cudnnctl 写的电脑报告</translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>PyTorch build</source>
        <translation>PyTorch 构建版本</translation>
    </message>
    <message>
        <source>Last verification</source>
        <translation>最近一次验证</translation>
    </message>
    <message>
        <source>entry %1 of PATH</source>
        <translation>PATH 的第 %1 项</translation>
    </message>
    <message>
        <source>installed, not working</source>
        <translation>已安装，但无法工作</translation>
    </message>
    <message>
        <source>cuDNN&apos;s folder is on no PATH entry</source>
        <translation>cuDNN 的文件夹不在 PATH 中</translation>
    </message>
    <message>
        <source>%1 (open: %2)</source>
        <translation>%1（未解决：%2）</translation>
    </message>
    <message>
        <source>no time written</source>
        <translation>未写明时间</translation>
    </message>
    <message>
        <source>No repair is recorded: run &quot;cudnnctl doctor&quot; there.</source>
        <translation>报告中没有记录修复办法，请在那台电脑上运行“cudnnctl doctor”。</translation>
    </message>
    <message>
        <source>No machine reports were found in %1.</source>
        <translation>%1 中没有找到电脑报告。</translation>
    </message>
    <message>
        <source>%1 machine reports in %2, read %3.</source>
        <translation>%2 中共有 %1 份电脑报告，读取时间 %3。</translation>
    </message>
    <message>
        <source>%1: %2 on all %3 machines</source>
        <translation>%1：%2（全部 %3 台电脑）</translation>
    </message>
    <message>
        <source>%1: %2 on %3 of %4 machines; different on %5:</source>
        <translation>%1：%2（%4 台电脑中的 %3 台）；以下 %5 台不同：</translation>
    </message>
    <message>
        <source>Repair: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>Reports older than %1 days (%2):</source>
        <translation>超过 %1 天的报告（%2 份）：</translation>
    </message>
    <message>
        <source>Files that are not machine reports (%1):</source>
        <translation>不是电脑报告的文件（%1 个）：</translation>
    </message>
    <message>
        <source>cuDNN on the lab&apos;s machines</source>
        <translation>实验室各台电脑的 cuDNN</translation>
    </message>
    <message>
        <source>At a glance</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Most machines</source>
        <translation>多数电脑</translation>
    </message>
    <message>
        <source>Machines</source>
        <translation>电脑数</translation>
    </message>
    <message>
        <source>Different</source>
        <translation>不同</translation>
    </message>
    <message>
        <source>Most machines: %1</source>
        <translation>多数电脑：%1</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>电脑</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复办法</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>写入时间</translation>
    </message>
    <message>
        <source>Why it was not read</source>
        <translation>未读取的原因</translation>
    </message>
    <message>
        <source>Each machine writes its report with &quot;cudnnctl report --to FOLDER&quot;; this page was made by &quot;cudnnctl fleet summarize&quot;.</source>
        <translation>每台电脑用“cudnnctl report --to FOLDER”写入自己的报告；本页由“cudnnctl fleet summarize”生成。</translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl verify&quot; on this machine.</source>
        <translation>请在这台电脑上运行“cudnnctl verify”。</translation>
    </message>
    <message>
        <source>Run &quot;cudnnctl doctor&quot; on this machine for the cause and the repair.</source>
        <translation>请在这台电脑上运行“cudnnctl doctor”，查明原因和修复办法。</translation>
    </message>
    <message>
        <source>--for takes torch, tensorflow, onnxruntime, ctranslate2, jax or app:FOLDER, not &quot;%1&quot;.</source>
        <translation>--for 只能是 torch、tensorflow、onnxruntime、ctranslate2、jax 或 app:FOLDER，不能是“%1”。</translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation>模块：%1</translation>
    </message>
    <message>
        <source>%1 (cuDNN %2)</source>
        <translation>%1（cuDNN %2）</translation>
    </message>
    <message>
        <source>cuDNN bound: %1</source>
        <translation>实际加载的 cuDNN：%1</translation>
    </message>
    <message>
        <source>no cuDNN needed</source>
        <translation>不需要 cuDNN</translation>
    </message>
    <message>
        <source>%1 reaches no copy</source>
        <translation>找不到 %1 的任何副本</translation>
    </message>
    <message>
        <source>Detection expected: %1</source>
        <translation>检测预期：%1</translation>
    </message>
    <message>
        <source>Each program bound the cuDNN it needs.</source>
        <translation>每个程序都加载了它所需的 cuDNN。</translation>
    </message>
    <message>
        <source>Verification failed.</source>
        <translation>验证未通过。</translation>
    </message>
    <message>
        <source>cudnnctl check --for %1 names the one fix.</source>
        <translation>运行“cudnnctl check --for %1”可查看唯一的解决办法。</translation>
    </message>
    <message>
        <source>Loading %1 bound no cuDNN library; detection expected %2.</source>
        <translation>加载 %1 时没有加载任何 cuDNN 库；检测预期的是 %2。</translation>
    </message>
    <message>
        <source>Loading %1 bound no cuDNN library.</source>
        <translation>加载 %1 时没有加载任何 cuDNN 库。</translation>
    </message>
    <message>
        <source>%1 needs cuDNN %2, but the loader bound %3 (cuDNN %4).</source>
        <translation>%1 需要 cuDNN %2，但加载器加载的是 %3（cuDNN %4）。</translation>
    </message>
    <message>
        <source>The loader bound %1, but detection expected %2 for %3.</source>
        <translation>加载器加载的是 %1，但检测预期 %3 会加载 %2。</translation>
    </message>
    <message>
        <source>The loader bound %1, where detection found no cuDNN %2 reaches.</source>
        <translation>加载器加载了 %1，而检测没有找到 %2 能加载到的 cuDNN。</translation>
    </message>
    <message>
        <source>No %1 was found here, so there is nothing to load.</source>
        <translation>这里没有找到 %1，因此没有可加载的内容。</translation>
    </message>
    <message>
        <source>Not run, on purpose: another system&apos;s programs are not loaded on this one; cudnnctl check --for %1 gives what their files say.</source>
        <translation>未运行（检查的是另一个系统）：另一个系统的程序不会在这台电脑上加载；“cudnnctl check --for %1”会给出从其文件中读到的信息。</translation>
    </message>
    <message>
        <source>Loading %1 ended the test process before it could answer.</source>
        <translation>加载 %1 时，测试进程在给出结果之前就已退出。</translation>
    </message>
    <message>
        <source>%1 needs no cuDNN, and loading it bound none.</source>
        <translation>%1 不需要 cuDNN，加载它时也没有加载任何 cuDNN。</translation>
    </message>
    <message>
        <source>The symbolic link &quot;%1&quot; points outside its own folder (%2 in all): NVIDIA&apos;s links name a file beside them, and a link that leaves its folder can reach any file of the system.</source>
        <translation>符号链接“%1”指向它所在文件夹之外（共 %2 个）：NVIDIA 的链接只指向同一文件夹中的文件，而离开所在文件夹的链接可以指向系统中的任何文件。</translation>
    </message>
    <message>
        <source>The symbolic link &quot;%1&quot; names no file of the archive (%2 in all): it would point at whatever is there, or at nothing.</source>
        <translation>符号链接“%1”指向的不是压缩包中的文件（共 %2 个）：安装后它会指向那里碰巧存在的文件，或者什么也不指向。</translation>
    </message>
    <message>
        <source>The archive holds hard links, such as &quot;%1&quot; (%2 in all). NVIDIA&apos;s archives have none, and a hard link can stand for a file outside the target folder.</source>
        <translation>压缩包中含有硬链接，例如“%1”（共 %2 个）。NVIDIA 的压缩包里没有硬链接，而硬链接可能代表目标文件夹之外的文件。</translation>
    </message>
    <message>
        <source>The archive holds devices or pipes, such as &quot;%1&quot; (%2 in all); a cuDNN archive holds only files, folders and links.</source>
        <translation>压缩包中含有设备文件或管道，例如“%1”（共 %2 个）；cuDNN 压缩包只包含文件、文件夹和链接。</translation>
    </message>
    <message>
        <source>The archive declares %1 entries and %2 GB so far from a file of %3 MB, beyond what any cuDNN archive holds: it is not read further.</source>
        <translation>到目前为止，这个 %3 MB 的压缩包已声明 %1 个条目、解压后 %2 GB，超出了任何 cuDNN 压缩包的范围：不再继续读取。</translation>
    </message>
    <message>
        <source>%1 is an empty tar archive: it holds no files.</source>
        <translation>%1 是一个空的 tar 压缩包：里面没有任何文件。</translation>
    </message>
    <message>
        <source>%1 cannot be read as a tar archive: it is damaged or incomplete.</source>
        <translation>%1 无法作为 tar 压缩包读取：文件已损坏或不完整。</translation>
    </message>
    <message>
        <source>Download the cuDNN archive again from NVIDIA.</source>
        <translation>请从 NVIDIA 官网重新下载 cuDNN 压缩包。</translation>
    </message>
    <message>
        <source>%1 is a tar archive, NVIDIA&apos;s format for Linux: this build of cuDNN Setup reads only zip archives.</source>
        <translation>%1 是 tar 压缩包，这是 NVIDIA 为 Linux 提供的格式：此版本的 cuDNN 安装向导只能读取 ZIP 压缩包。</translation>
    </message>
    <message>
        <source>On Windows, download the cuDNN archive for Windows (cudnn-windows-x86_64-…-archive.zip).</source>
        <translation>在 Windows 上，请下载 Windows 版 cuDNN 压缩包（cudnn-windows-x86_64-…-archive.zip）。</translation>
    </message>
    <message>
        <source>The baseline file is not one this version reads: %1 (%2).</source>
        <translation>当前版本无法读取这个基线文件：%1（%2）。</translation>
    </message>
    <message>
        <source>Write it again with: cudnnctl baseline export --out FILE</source>
        <translation>请用以下命令重新生成：cudnnctl baseline export --out FILE</translation>
    </message>
    <message>
        <source>The baseline file %1 cannot be read.</source>
        <translation>无法读取基线文件 %1。</translation>
    </message>
    <message>
        <source>cuDNN Setup has installed no intact cuDNN here to take the baseline from.</source>
        <translation>这台电脑上没有由 cuDNN 安装向导安装且完好的 cuDNN，无法从中生成基线。</translation>
    </message>
    <message>
        <source>Install it as the lab wants it first, or use --from-answer FILE.</source>
        <translation>请先按实验室的要求完成安装，或者使用 --from-answer FILE。</translation>
    </message>
    <message>
        <source>A baseline is taken from an answer file that installs an archive named as NVIDIA names it (action=install, archive=).</source>
        <translation>只能从安装压缩包的应答文件生成基线，且压缩包须沿用 NVIDIA 的文件名（action=install，archive=）。</translation>
    </message>
    <message>
        <source>path= in the answer file takes user, system or none, not &quot;%1&quot;.</source>
        <translation>应答文件中的 path= 只能是 user、system 或 none，而不是“%1”。</translation>
    </message>
    <message>
        <source>Install cuDNN %1 into %2 again; the baseline names no archive, so no repair file can do it.</source>
        <translation>请把 cuDNN %1 重新安装到 %2；基线中没有指定压缩包，因此无法用修复文件完成。</translation>
    </message>
    <message>
        <source>Install cuDNN %1 from %2 into %3 again (--repair-file writes the answer file that does it).</source>
        <translation>用 %2 把 cuDNN %1 重新安装到 %3（--repair-file 会写出完成此操作的应答文件）。</translation>
    </message>
    <message>
        <source>The NVIDIA driver&apos;s version cannot be read here: check it with nvidia-smi.</source>
        <translation>无法在这里读取 NVIDIA 驱动的版本：请用 nvidia-smi 检查。</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver to %1 or newer.</source>
        <translation>请把 NVIDIA 驱动更新到 %1 或更高版本。</translation>
    </message>
    <message>
        <source>Run the doctor&apos;s repairs (cudnnctl doctor --fix, or the repair file with action=repair).</source>
        <translation>请执行诊断提供的修复（cudnnctl doctor --fix，或 action=repair 的修复文件）。</translation>
    </message>
    <message>
        <source>Which cuDNN a new program loads cannot be told here: run cudnnctl doctor.</source>
        <translation>无法在这里判断新启动的程序会加载哪份 cuDNN：请运行 cudnnctl doctor。</translation>
    </message>
    <message>
        <source>Run cudnnctl verify on this machine (with its GPU and driver) to record the result.</source>
        <translation>请在这台电脑上（连同显卡和驱动）运行 cudnnctl verify，记录验证结果。</translation>
    </message>
    <message>
        <source>Compliant with the baseline %1.</source>
        <translation>符合基线 %1。</translation>
    </message>
    <message>
        <source>Drifted from the baseline %1; the repair file brings it back.</source>
        <translation>已偏离基线 %1；修复文件可以将其恢复。</translation>
    </message>
    <message>
        <source>Broken against the baseline %1: something here needs more than the repair file.</source>
        <translation>与基线 %1 相比已损坏：有些问题靠修复文件无法解决。</translation>
    </message>
    <message>
        <source>Compliance with the baseline %1 cannot be told here.</source>
        <translation>无法在这里判断是否符合基线 %1。</translation>
    </message>
    <message>
        <source>expected %1, found %2</source>
        <translation>应为 %1，实际为 %2</translation>
    </message>
    <message>
        <source>nothing (or unknown)</source>
        <translation>无（或未知）</translation>
    </message>
    <message>
        <source>Remove the file %1</source>
        <translation>删除文件 %1</translation>
    </message>
    <message>
        <source>Remove %1 files in %2</source>
        <translation>删除 %2 中的 %1 个文件</translation>
    </message>
    <message>
        <source>Put back the files it replaced: %1</source>
        <translation>恢复安装时被替换的文件：%1</translation>
    </message>
    <message>
        <source>Remove %1 from the system PATH</source>
        <translation>从系统环境变量 Path 中删除 %1</translation>
    </message>
    <message>
        <source>Remove %1 from your PATH</source>
        <translation>从用户环境变量 Path 中删除 %1</translation>
    </message>
    <message>
        <source>Set the variable %1 back to what it was</source>
        <translation>把环境变量 %1 恢复为原来的值</translation>
    </message>
    <message>
        <source>Remove the variable %1</source>
        <translation>删除环境变量 %1</translation>
    </message>
    <message>
        <source>PyTorch: nothing to do. It brings its own cuDNN and does not use a system-wide one.</source>
        <translation>PyTorch：无需任何操作。它自带 cuDNN，不使用系统级的 cuDNN。</translation>
    </message>
    <message>
        <source>PyTorch: %1</source>
        <translation>PyTorch：%1</translation>
    </message>
    <message>
        <source>Your own Python code: add this line before it imports a module that uses cuDNN (Python 3.8 and later do not look for DLLs on PATH):</source>
        <translation>你自己的 Python 代码：在导入用到 cuDNN 的模块之前加上这一行（Python 3.8 及以后的版本不会在环境变量 Path 中查找 DLL）：</translation>
    </message>
    <message>
        <source>%1 is part of a Python package: it needs the interpreter&apos;s own function %2, so it loads only inside Python.</source>
        <translation>%1 属于 Python 包：它需要解释器自己的函数 %2，因此只能在 Python 中加载。</translation>
    </message>
    <message>
        <source>Nothing to fix here: import the package from its Python environment.</source>
        <translation>这里无需修复：请在该包所在的 Python 环境中导入它。</translation>
    </message>
    <message>
        <source>no NVIDIA driver found</source>
        <translation>没有找到 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>the newest CUDA it runs</source>
        <translation>驱动能运行的最高 CUDA 版本</translation>
    </message>
    <message>
        <source>too old for CUDA %1</source>
        <translation>太旧，无法运行 CUDA %1</translation>
    </message>
    <message>
        <source>only needed to build programs</source>
        <translation>只有自己编译程序时才需要</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>does not match the archive (CUDA %1)</source>
        <translation>与压缩包不匹配（压缩包适用于 CUDA %1）</translation>
    </message>
    <message>
        <source>matches the archive</source>
        <translation>与压缩包匹配</translation>
    </message>
    <message>
        <source>CPU-only</source>
        <translation>仅 CPU 版</translation>
    </message>
    <message>
        <source>this PyTorch does not use the GPU</source>
        <translation>这个 PyTorch 不会使用显卡</translation>
    </message>
    <message>
        <source>brings its own CUDA and cuDNN</source>
        <translation>自带 CUDA 和 cuDNN</translation>
    </message>
    <message>
        <source>no archive fits this computer</source>
        <translation>没有适合这台电脑的压缩包</translation>
    </message>
    <message>
        <source>%1.x</source>
        <translation>%1.x</translation>
    </message>
    <message>
        <source>the recommended download</source>
        <translation>推荐下载的版本</translation>
    </message>
    <message>
        <source>the archive you chose</source>
        <translation>你选择的压缩包</translation>
    </message>
    <message>
        <source>%1 So this error does not happen here now.</source>
        <translation>%1 所以这台电脑现在不会再出现这个错误。</translation>
    </message>
    <message>
        <source>Run the program again; if the error comes back, paste the new text.</source>
        <translation>重新运行程序；如果错误再次出现，请粘贴新的错误信息。</translation>
    </message>
    <message>
        <source>Apply the repair file as an administrator (or SYSTEM): it puts %1 back at the front of the system PATH.</source>
        <translation>以管理员（或 SYSTEM）身份执行修复文件：它会把 %1 放回系统 PATH 的最前面。</translation>
    </message>
    <message>
        <source>Apply the repair file as this user: it puts %1 back at the front of the user PATH.</source>
        <translation>以该用户身份执行修复文件：它会把 %1 放回用户 PATH 的最前面。</translation>
    </message>
    <message>
        <source>Apply the repair file (as an administrator where the system PATH changes): it moves %1 behind %2 on PATH.</source>
        <translation>执行修复文件（需要改动系统 PATH 时以管理员身份执行）：它会把 PATH 中的 %1 移到 %2 之后。</translation>
    </message>
    <message>
        <source>The answer file puts the DLL folder of %1 back on PATH, but cuDNN Setup has no intact install there.</source>
        <translation>应答文件要把 %1 的 DLL 文件夹放回 PATH，但 cuDNN 安装向导在那里没有完好的安装。</translation>
    </message>
    <message>
        <source>Write the repair file again (cudnnctl status --against BASELINE --repair-file FILE): it installs cuDNN there.</source>
        <translation>重新写出修复文件（cudnnctl status --against BASELINE --repair-file FILE）：新的修复文件会把 cuDNN 安装到那里。</translation>
    </message>
    <message>
        <source>Put %1 first on PATH, as the baseline has it.</source>
        <translation>按基线的要求，把 %1 放在 PATH 的最前面。</translation>
    </message>
    <message>
        <source>no Python here has PyTorch</source>
        <translation>所有 Python 中都没有 PyTorch</translation>
    </message>
    <message>
        <source>runs the archive&apos;s CUDA %1</source>
        <translation>能运行压缩包的 CUDA %1</translation>
    </message>
    <message>
        <source>Every library cuDNN needs is found (%1 checked).</source>
        <translation>cuDNN 所需的库都能找到（共检查 %1 个）。</translation>
    </message>
    <message>
        <source>Open a new Command Prompt, PowerShell or terminal window, and restart programs such as PyCharm or Jupyter: those already open keep the old PATH.</source>
        <translation>请打开新的命令提示符、PowerShell 或终端窗口，并重启 PyCharm、Jupyter 等程序：之前已打开的窗口和程序仍使用旧的环境变量 Path。</translation>
    </message>
    <message>
        <source>No Python with torch was found or named.</source>
        <translation>没有找到也没有指定装有 torch 的 Python。</translation>
    </message>
    <message>
        <source>There is no cuDNN handle.</source>
        <translation>没有可用的 cuDNN 句柄。</translation>
    </message>
    <message>
        <source>The cuDNN libraries here name no other library, so none was looked for.</source>
        <translation>这里的 cuDNN 库没有声明依赖其他库，因此没有可查找的库。</translation>
    </message>
    <message>
        <source>Not loaded, on purpose: with administrator rights the test would load libraries from %1, which %2 may change.</source>
        <translation>未加载（出于安全考虑）：以管理员权限运行时，测试会从 %1 加载库，而 %2 可以修改该文件夹。</translation>
    </message>
    <message>
        <source>Run cudnnctl verify without administrator rights, as the user who will use cuDNN; or make that folder the administrators&apos; alone.</source>
        <translation>请以将要使用 cuDNN 的用户身份、不带管理员权限运行 cudnnctl verify；或者把该文件夹设为只有管理员能修改。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::ArchivePage</name>
    <message>
        <source>Choose the cuDNN archive</source>
        <translation>选择 cuDNN 压缩包</translation>
    </message>
    <message>
        <source>cuDNN archives (cudnn*.zip);;Zip archives (*.zip);;All files (*)</source>
        <translation>cuDNN 压缩包 (cudnn*.zip);;压缩包 (*.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1……</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s file</source>
        <translation>NVIDIA 原版文件</translation>
    </message>
    <message>
        <source>Yes: the checksum is the one NVIDIA published for %1</source>
        <translation>是：校验值与 NVIDIA 为 %1 公布的一致</translation>
    </message>
    <message>
        <source>No: the checksum differs from the one NVIDIA published</source>
        <translation>否：校验值与 NVIDIA 公布的不一致</translation>
    </message>
    <message>
        <source>Unknown: NVIDIA&apos;s checksum for it is not in the database</source>
        <translation>未知：数据库中没有它的 NVIDIA 校验值</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>cuDNN %1 for CUDA %2 (%3)</source>
        <translation>适用于 CUDA %2 的 cuDNN %1（%3）</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>文件清单</translation>
    </message>
    <message>
        <source>This archive is unsafe and will not be used.</source>
        <translation>这个压缩包不安全，不会使用。</translation>
    </message>
    <message>
        <source>This archive is damaged and will not be used.</source>
        <translation>这个压缩包已损坏，不会使用。</translation>
    </message>
    <message>
        <source>This is not a cuDNN archive.</source>
        <translation>这不是 cuDNN 压缩包。</translation>
    </message>
    <message>
        <source>Your cuDNN archive</source>
        <translation>你的 cuDNN 压缩包</translation>
    </message>
    <message>
        <source>The zip from NVIDIA, checked before anything is installed: safe to unpack, intact, and the right one for this computer.</source>
        <translation>安装前先检查从 NVIDIA 下载的压缩包：能否安全解压、是否完好、是否适合这台电脑。</translation>
    </message>
    <message>
        <source>Archive file</source>
        <translation>压缩包文件</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Cancel check</source>
        <translation>取消检查</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>What the archive is</source>
        <translation>压缩包的情况</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation>我了解这些问题，仍要继续(&amp;C)</translation>
    </message>
    <message>
        <source>Not read: nothing is unpacked from an unsafe archive</source>
        <translation>未读取：不安全的压缩包里的任何内容都不会被解压</translation>
    </message>
    <message>
        <source>Unknown: the archive has no readable cudnn_version.h</source>
        <translation>未知：压缩包里没有可读的 cudnn_version.h</translation>
    </message>
    <message>
        <source>The cuDNN archive (.zip) from NVIDIA</source>
        <translation>从 NVIDIA 下载的 cuDNN 压缩包（.zip）</translation>
    </message>
    <message>
        <source>Recommended for this computer: %1&lt;br&gt;cuDNN %2 for CUDA %3, from NVIDIA&apos;s download page.</source>
        <translation>推荐这台电脑使用：%1&lt;br&gt;适用于 CUDA %3 的 cuDNN %2，可从 NVIDIA 下载页获取。</translation>
    </message>
    <message>
        <source>Recommended for this computer: %1</source>
        <translation>推荐这台电脑使用：%1</translation>
    </message>
    <message>
        <source>Choose the cuDNN archive you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
        <translation>请选择从 NVIDIA 下载的 cuDNN 压缩包，或把它拖到这里。现在还不会安装任何东西，只会先检查它。</translation>
    </message>
    <message>
        <source>%1 libraries, %2 headers, %3 import libraries; %4 unpacked</source>
        <translation>%1 个库、%2 个头文件、%3 个导入库；解压后共 %4</translation>
    </message>
    <message>
        <source>This is not NVIDIA&apos;s original file, so it will not be used.</source>
        <translation>这不是 NVIDIA 的原版文件，不会使用。</translation>
    </message>
    <message>
        <source>This archive does not fit this computer: the findings below say why.</source>
        <translation>这个压缩包不适合这台电脑，原因见下方检查结果。</translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s original archive and it fits; read the notes below.</source>
        <translation>这是 NVIDIA 的原版压缩包，适合这台电脑；请看下方的提示。</translation>
    </message>
    <message>
        <source>The archive is undamaged and fits; read the notes below.</source>
        <translation>压缩包完好，适合这台电脑；请看下方的提示。</translation>
    </message>
    <message>
        <source>This is NVIDIA&apos;s original archive, and it fits this computer.</source>
        <translation>这是 NVIDIA 的原版压缩包，适合这台电脑。</translation>
    </message>
    <message>
        <source>The archive is undamaged and fits this computer.</source>
        <translation>压缩包完好，适合这台电脑。</translation>
    </message>
    <message>
        <source>&amp;Use the one in Downloads</source>
        <translation>使用“下载”文件夹中的这个(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Download it for me (%1)</source>
        <translation>帮我下载(&amp;D)（%1）</translation>
    </message>
    <message>
        <source>&amp;Download it for me</source>
        <translation>帮我下载(&amp;D)</translation>
    </message>
    <message>
        <source>Downloads %1 from %2 into %3, checks it and opens it here.</source>
        <translation>从 %2 下载 %1 到 %3，校验后在这里打开。</translation>
    </message>
    <message>
        <source>NVIDIA</source>
        <translation>NVIDIA</translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation>正在下载 %1……</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>Download &amp;settings…</source>
        <translation>下载设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Press “Download it for me”, or choose the cuDNN archive you downloaded from NVIDIA, or drop it here. Nothing is installed yet: it is checked first.</source>
        <translation>点击“帮我下载”，或选择从 NVIDIA 下载的 cuDNN 压缩包，或把它拖到这里。现在还不会安装任何东西，只会先检查它。</translation>
    </message>
    <message>
        <source>Actual version</source>
        <translation>实际版本</translation>
    </message>
    <message>
        <source>File name says</source>
        <translation>文件名所示</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::DownloadSourceDialog</name>
    <message>
        <source>Download settings</source>
        <translation>下载设置</translation>
    </message>
    <message>
        <source>From &amp;NVIDIA (developer.download.nvidia.com, no sign-in needed)</source>
        <translation>从 NVIDIA 下载(&amp;N)（developer.download.nvidia.com，无需登录）</translation>
    </message>
    <message>
        <source>From a lab &amp;mirror (https://…) or a folder or network share:</source>
        <translation>从实验室镜像（https://…）、文件夹或网络共享文件夹获取(&amp;M)：</translation>
    </message>
    <message>
        <source>https://mirror.example.edu/cudnn/ or \\server\share\cudnn</source>
        <translation>https://mirror.example.edu/cudnn/ 或 \\server\share\cudnn</translation>
    </message>
    <message>
        <source>Mirror address or folder</source>
        <translation>镜像地址或文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Folder that holds the archives</source>
        <translation>存放压缩包的文件夹</translation>
    </message>
    <message>
        <source>Type the mirror&apos;s address or the folder.</source>
        <translation>请输入镜像地址或文件夹。</translation>
    </message>
    <message>
        <source>Where “Download it for me” gets the cuDNN archive. Whichever you choose, the file is checked before it is used, against NVIDIA&apos;s published checksum wherever cuDNN Setup knows it.</source>
        <translation>“帮我下载”从哪里获取 cuDNN 压缩包。无论选择哪种来源，文件在使用前都会经过校验；只要 cuDNN 安装向导知道 NVIDIA 公布的校验值，就按它校验。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::FindingsView</name>
    <message>
        <source>What to do: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>Technical details, in English:</source>
        <translation>技术细节（英文，与日志一致）：</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::FinishPage</name>
    <message>
        <source>Repaired: %1</source>
        <translation>已修复：%1</translation>
    </message>
    <message>
        <source>Nothing on this computer was changed.</source>
        <translation>这台电脑上的内容没有任何改动。</translation>
    </message>
    <message>
        <source>Verification: not run.</source>
        <translation>验证：未运行。</translation>
    </message>
    <message>
        <source>Verification: failed. The report names the check that failed.</source>
        <translation>验证：未通过。报告中列出了未通过的检查项。</translation>
    </message>
    <message>
        <source>Verification: passed. cuDNN loads and works.</source>
        <translation>验证：通过。cuDNN 能正常加载并运行。</translation>
    </message>
    <message>
        <source>Verification: passed in part. Some checks were skipped; the Verify page says why.</source>
        <translation>验证：部分通过。有些检查被跳过了，原因见“验证”页。</translation>
    </message>
    <message>
        <source>Diagnosis: problems remain. The report lists them with what to do.</source>
        <translation>诊断：仍有问题。报告中列出了这些问题和处理办法。</translation>
    </message>
    <message>
        <source>Keep the log and the report: they say what was found and changed, for support.</source>
        <translation>请保留日志和报告：里面记录了检查结果和所做的改动，寻求技术支持时会用到。</translation>
    </message>
    <message>
        <source>Save the report in</source>
        <translation>报告保存位置</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>What was done, and what to do next.</source>
        <translation>已完成的操作，以及接下来要做的事。</translation>
    </message>
    <message>
        <source>What was done</source>
        <translation>已完成的操作</translation>
    </message>
    <message>
        <source>What to do next</source>
        <translation>接下来要做的事</translation>
    </message>
    <message>
        <source>Open &amp;log</source>
        <translation>打开日志(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation>保存报告(&amp;S)…</translation>
    </message>
    <message>
        <source>cuDNN %1 was installed in %2.</source>
        <translation>cuDNN %1 已安装到 %2。</translation>
    </message>
    <message>
        <source>Receipt %1</source>
        <translation>安装记录 %1</translation>
    </message>
    <message>
        <source>No log could be written on this computer.</source>
        <translation>无法在这台电脑上写入日志。</translation>
    </message>
    <message>
        <source>Save as answer file</source>
        <translation>另存为应答文件</translation>
    </message>
    <message>
        <source>Answer files (*.ini)</source>
        <translation>应答文件 (*.ini)</translation>
    </message>
    <message>
        <source>Answer file saved as %1. On the other computers, run: cudnn-setup.exe --unattended --answer-file &quot;%1&quot;</source>
        <translation>应答文件已保存为 %1。在其他电脑上运行：cudnn-setup.exe --unattended --answer-file &quot;%1&quot;</translation>
    </message>
    <message>
        <source>The answer file could not be saved as %1: %2</source>
        <translation>无法把应答文件保存为 %1：%2</translation>
    </message>
    <message>
        <source>Save as &amp;answer file…</source>
        <translation>另存为应答文件(&amp;A)…</translation>
    </message>
    <message>
        <source>For lab IT: the choices made here, for cudnn-setup --unattended on other computers.</source>
        <translation>供机房管理员使用：把这里的选择保存下来，在其他电脑上用 cudnn-setup --unattended 按同样的方式安装。</translation>
    </message>
    <message>
        <source>cuDNN %1 was uninstalled from %2.</source>
        <translation>已从 %2 卸载 cuDNN %1。</translation>
    </message>
    <message>
        <source>cuDNN Setup diagnosed this computer; no repair was made.</source>
        <translation>已对这台电脑做了诊断，没有进行任何修复。</translation>
    </message>
    <message numerus="yes">
        <source>Diagnosis: nothing stops cuDNN from working, but %n warning(s) remain. The Repair page lists them with what to do.</source>
        <translation>
            <numerusform>诊断：没有妨碍 cuDNN 工作的问题，但还有 %n 个警告。“修复”页面列出了它们和解决办法。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy this line to the clipboard.</source>
        <translation>把这一行复制到剪贴板。</translation>
    </message>
    <message>
        <source>For programmers</source>
        <translation>面向开发者</translation>
    </message>
    <message>
        <source>Diagnosis: healthy. No problem is left.</source>
        <translation>诊断：正常。没有遗留问题。</translation>
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
        <translation>不在环境变量 Path 中，只有显式指定此文件夹的程序才会用到</translation>
    </message>
    <message>
        <source>loaded by default</source>
        <translation>默认加载</translation>
    </message>
    <message>
        <source>hidden by another copy</source>
        <translation>被另一份副本抢先加载（不会生效）</translation>
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
    <message numerus="yes">
        <source>%n problem(s) must be solved before cuDNN can work on this computer.</source>
        <translation>
            <numerusform>要让 cuDNN 在这台电脑上工作，还需要先解决 %n 个问题。</numerusform>
        </translation>
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
        <translation>、</translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found, so cuDNN cannot run on this computer yet. If it has an NVIDIA GPU, install the GPU&apos;s driver from nvidia.com/drivers, restart, and run cuDNN Setup again. You can still install cuDNN now, for example on a machine being imaged without its GPU: it will be in place once a GPU and its driver are.</source>
        <translation>没有找到 NVIDIA 显卡，所以 cuDNN 暂时无法在这台电脑上运行。如果电脑装有 NVIDIA 显卡，请从 nvidia.com/drivers 安装它的驱动，重启后再运行 cuDNN 安装向导。你现在仍然可以先安装 cuDNN，比如为尚未装上显卡的电脑制作系统镜像时：等显卡和驱动安装好后即可直接使用。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is missing or not working, so cuDNN cannot run yet. Install the current driver for this GPU from nvidia.com/drivers, restart, and run cuDNN Setup again. You can still install cuDNN now: it will be in place once the driver works.</source>
        <translation>NVIDIA 驱动没有安装或无法正常工作，所以 cuDNN 暂时无法运行。请从 nvidia.com/drivers 安装这块显卡的最新驱动，重启后再运行 cuDNN 安装向导。你现在仍然可以先安装 cuDNN：等驱动正常工作后即可直接使用。</translation>
    </message>
    <message>
        <source>%1 memory</source>
        <translation>显存 %1</translation>
    </message>
    <message>
        <source>Its folder is not on PATH: programs find this copy only when they are pointed at that folder.</source>
        <translation>它所在的文件夹不在环境变量 Path 中：只有显式指定这个文件夹的程序才会用到它。</translation>
    </message>
    <message>
        <source>Another copy comes earlier on the search path (PATH), so programs load that one and never this one.</source>
        <translation>另一份副本在搜索路径（环境变量 Path）上排得更靠前，程序会加载那一份，而不会用到这一份。</translation>
    </message>
    <message>
        <source>torch %1 for CUDA %2 with cuDNN %3</source>
        <translation>torch %1，适用于 CUDA %2，使用 cuDNN %3</translation>
    </message>
    <message>
        <source>%1 %2 without CUDA (CPU only)</source>
        <translation>%1 %2，不含 CUDA（仅 CPU）</translation>
    </message>
    <message>
        <source>%1 %2 for CUDA %3</source>
        <translation>%1 %2，适用于 CUDA %3</translation>
    </message>
    <message numerus="yes">
        <source>This computer is ready for a cuDNN install; %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>这台电脑满足安装 cuDNN 的条件；下面有 %n 项值得检查。</numerusform>
        </translation>
    </message>
    <message>
        <source>This computer is ready for a cuDNN install.</source>
        <translation>这台电脑满足安装 cuDNN 的条件。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::InfoIcon</name>
    <message>
        <source>Compute capability is how CUDA numbers a graphics card&apos;s generation (8.6 for an RTX 3060). Each cuDNN release runs on a range of them; this wizard checks yours.</source>
        <translation>计算能力是 CUDA 给显卡架构代际编的号（例如 RTX 3060 是 8.6）。每个 cuDNN 版本只支持一定范围的计算能力，本向导会替你核对。</translation>
    </message>
    <message>
        <source>A handle is what a program gets from cuDNN when it starts to use it on a graphics card. Getting one proves that cuDNN, the driver and the card work together.</source>
        <translation>句柄（handle）是程序开始在显卡上使用 cuDNN 时从 cuDNN 获得的对象。能成功获得句柄，说明 cuDNN、驱动和显卡可以协同工作。</translation>
    </message>
    <message>
        <source>Import libraries (.lib files) are what a C++ compiler links against to use the DLLs. Only people who compile their own code need them.</source>
        <translation>导入库（.lib 文件）是 C++ 编译器链接 DLL 时使用的文件。只有自己编译代码时才需要它们。</translation>
    </message>
    <message>
        <source>PATH (the environment variable Path) is the list of folders where Windows looks for programs and DLLs. Programs read it when they start: windows already open keep the old list.</source>
        <translation>环境变量 Path 是 Windows 查找程序和 DLL 时搜索的文件夹列表。程序在启动时读取它：已经打开的窗口仍使用旧的列表。</translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation>说明</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::InstallPage</name>
    <message>
        <source>Command Prompt, PowerShell and Windows Terminal windows</source>
        <translation>命令提示符、PowerShell 和 Windows 终端窗口</translation>
    </message>
    <message>
        <source>PyCharm</source>
        <translation>PyCharm</translation>
    </message>
    <message>
        <source>Visual Studio Code</source>
        <translation>Visual Studio Code</translation>
    </message>
    <message>
        <source>Jupyter (the server, and with it its kernels)</source>
        <translation>Jupyter（服务器本身及其内核）</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在准备……</translation>
    </message>
    <message>
        <source>Cancelling: undoing what was done so far…</source>
        <translation>正在取消：撤销已完成的操作……</translation>
    </message>
    <message>
        <source>Estimating the time left…</source>
        <translation>正在估算剩余时间……</translation>
    </message>
    <message numerus="yes">
        <source>About %n second(s) left</source>
        <translation>
            <numerusform>大约还剩 %n 秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %n minute(s) left</source>
        <translation>
            <numerusform>大约还剩 %n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>压缩包</translation>
    </message>
    <message>
        <source>%1 (cuDNN %2 for CUDA %3)</source>
        <translation>%1（适用于 CUDA %3 的 cuDNN %2）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>the CUDA %1 toolkit</source>
        <translation>CUDA %1 目录</translation>
    </message>
    <message>
        <source>a folder of its own</source>
        <translation>独立文件夹（所有用户）</translation>
    </message>
    <message>
        <source>a folder for you only</source>
        <translation>当前用户目录</translation>
    </message>
    <message>
        <source>a conda environment</source>
        <translation>conda 环境</translation>
    </message>
    <message>
        <source>a Python virtual environment</source>
        <translation>Python 虚拟环境</translation>
    </message>
    <message>
        <source>Into</source>
        <translation>安装到</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>DLLs in</source>
        <translation>DLL 位置</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>环境变量 Path</translation>
    </message>
    <message>
        <source>%1 added to the system PATH</source>
        <translation>%1 已添加到系统环境变量 Path</translation>
    </message>
    <message>
        <source>%1 added to your PATH</source>
        <translation>%1 已添加到用户环境变量 Path</translation>
    </message>
    <message>
        <source>Not changed</source>
        <translation>不变</translation>
    </message>
    <message>
        <source>PATH clean-up</source>
        <translation>环境变量 Path 清理</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>cuDNN 环境变量</translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY not set</source>
        <translation>不设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY</translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for all users</source>
        <translation>为所有用户设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY</translation>
    </message>
    <message>
        <source>CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for you</source>
        <translation>仅为你设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY</translation>
    </message>
    <message>
        <source>Administrator</source>
        <translation>管理员权限</translation>
    </message>
    <message>
        <source>Needed</source>
        <translation>需要</translation>
    </message>
    <message>
        <source>Not needed</source>
        <translation>不需要</translation>
    </message>
    <message>
        <source>Press Install to put cuDNN in place. It takes a minute or two; you can cancel until the end, and then nothing is changed.</source>
        <translation>点击“安装”开始安装 cuDNN，大约需要一两分钟；完成前随时可以取消，取消后不会有任何改动。</translation>
    </message>
    <message>
        <source>cuDNN %1 is installed in %2.</source>
        <translation>cuDNN %1 已安装到 %2。</translation>
    </message>
    <message>
        <source>cuDNN %1 was already installed in %2, intact: nothing was changed.</source>
        <translation>%2 中已装有完好的 cuDNN %1，未做任何改动。</translation>
    </message>
    <message>
        <source>The installation was cancelled. Everything it had done was undone: nothing was changed.</source>
        <translation>安装已取消。已做的操作全部撤销，系统没有任何改动。</translation>
    </message>
    <message>
        <source>Another installation of cuDNN is running, so this one did not start: nothing was changed.</source>
        <translation>另一个 cuDNN 安装正在进行，本次安装没有开始，系统没有任何改动。</translation>
    </message>
    <message>
        <source>The installation failed. Everything it had done was undone: nothing was changed.</source>
        <translation>安装失败。已做的操作全部撤销，系统没有任何改动。</translation>
    </message>
    <message>
        <source>Programs that are already running keep the PATH and variables they started with. Restart these to see the new ones; programs started from now on see them at once:</source>
        <translation>已在运行的程序仍沿用启动时的环境变量（包括 Path）。请重启以下程序以使用新设置；之后新启动的程序会立即生效：</translation>
    </message>
    <message>
        <source>%1 (running now)</source>
        <translation>%1（正在运行）</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <source>cuDNN is put in place as one step: if anything goes wrong, or you cancel, everything is undone.</source>
        <translation>安装一步完成：中途出错或取消，所有改动都会自动还原。</translation>
    </message>
    <message>
        <source>What will be done</source>
        <translation>将要进行的操作</translation>
    </message>
    <message>
        <source>&amp;Install</source>
        <translation>安装(&amp;I)</translation>
    </message>
    <message>
        <source>Cancel installation</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <source>Installation progress</source>
        <translation>安装进度</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>What was done</source>
        <translation>已完成的操作</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <source>Move %1 behind the cuDNN folder</source>
        <translation>将 %1 移到 cuDNN 文件夹之后</translation>
    </message>
    <message>
        <source>cuDNN %1 is installed in %2, but some of the files it replaces are in use: Windows puts them in place when it next starts. Restart the computer before you use cuDNN.</source>
        <translation>cuDNN %1 已安装到 %2，但它要替换的部分文件正被占用：Windows 会在下次启动时把它们换上。使用 cuDNN 前请先重启电脑。</translation>
    </message>
    <message>
        <source>&amp;Replace them anyway</source>
        <translation>仍然替换(&amp;R)</translation>
    </message>
    <message>
        <source>The new files take their place now, for every program started from now on; the programs that hold the old ones keep them until they are restarted.</source>
        <translation>新文件立即就位，之后启动的程序都会使用它们；正在使用旧文件的程序在重新启动前仍使用旧文件。</translation>
    </message>
    <message>
        <source>A record of every file and change is kept, so that Uninstall can undo exactly this install.</source>
        <translation>每个文件和每项改动都已记录下来，以后可在“卸载”中准确撤销这次安装。</translation>
    </message>
    <message>
        <source>Receipt %1, kept in %2</source>
        <translation>安装记录 %1，保存在 %2</translation>
    </message>
    <message>
        <source>How programs find it</source>
        <translation>程序如何找到它</translation>
    </message>
    <message>
        <source>the folder of one program</source>
        <translation>某个程序的文件夹</translation>
    </message>
    <message>
        <source>&amp;Verify &gt;</source>
        <translation>验证(&amp;V) &gt;</translation>
    </message>
    <message>
        <source>Used for this install</source>
        <translation>本次安装已使用</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::MatchPage</name>
    <message>
        <source>The newest CUDA version the installed driver can run (nvidia-smi&apos;s &quot;CUDA Version&quot;). It is not an installed toolkit.</source>
        <translation>已安装的驱动能运行的最高 CUDA 版本（即 nvidia-smi 显示的“CUDA Version”）。它并不代表已安装的工具包。</translation>
    </message>
    <message>
        <source>The CUDA toolkit cuDNN goes with (nvcc --version).</source>
        <translation>cuDNN 要配合的 CUDA 工具包（nvcc --version）。</translation>
    </message>
    <message>
        <source>No PyTorch was found.</source>
        <translation>没有找到 PyTorch。</translation>
    </message>
    <message>
        <source>The CUDA version %1 was built for; it brings its own CUDA libraries.</source>
        <translation>%1 构建时所用的 CUDA 版本；它自带 CUDA 运行库。</translation>
    </message>
    <message>
        <source>The CUDA major the cuDNN archive is built for (the _cudaNN in its name). It must match the toolkit&apos;s major.</source>
        <translation>cuDNN 压缩包适用的 CUDA 主版本（文件名中的 _cudaNN），必须与工具包的主版本一致。</translation>
    </message>
    <message>
        <source>Download &lt;b&gt;%1&lt;/b&gt; from NVIDIA&apos;s cuDNN archive.</source>
        <translation>请从 NVIDIA 官网的 cuDNN 历史版本下载页（cuDNN Archive）下载 &lt;b&gt;%1&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>It goes with the CUDA %1 toolkit in %2.</source>
        <translation>它配合 %2 中的 CUDA %1 工具包使用。</translation>
    </message>
    <message>
        <source>Install the CUDA %1 toolkit first if you build programs yourself; frameworks such as PyTorch bring their own.</source>
        <translation>如果你要自己编译程序，请先安装 CUDA %1 工具包；PyTorch 等框架自带 CUDA，无需另装。</translation>
    </message>
    <message>
        <source>First update the driver to %1 or newer.</source>
        <translation>请先安装 %1 或更新版本的驱动。</translation>
    </message>
    <message>
        <source>First update the driver to one that supports this CUDA version.</source>
        <translation>请先安装支持该 CUDA 版本的驱动。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s SHA-256: %1</source>
        <translation>NVIDIA 公布的 SHA-256：%1</translation>
    </message>
    <message>
        <source>No cuDNN archive fits this machine as it is; the findings below say why.</source>
        <translation>就目前的状况，没有适合这台电脑的 cuDNN 压缩包；原因见下面的检查结果。</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) stand in the way of cuDNN on this computer.</source>
        <translation>
            <numerusform>有 %n 个问题妨碍 cuDNN 在这台电脑上使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>cuDNN fits this computer.</source>
        <translation>cuDNN 适合这台电脑。</translation>
    </message>
    <message>
        <source>What fits</source>
        <translation>适配结果</translation>
    </message>
    <message>
        <source>Driver, CUDA, cuDNN, graphics card and frameworks, checked against NVIDIA&apos;s tables.</source>
        <translation>按 NVIDIA 的兼容性表核对驱动、CUDA、cuDNN、显卡和框架。</translation>
    </message>
    <message>
        <source>Newest CUDA the driver runs</source>
        <translation>驱动能运行的最高 CUDA</translation>
    </message>
    <message>
        <source>CUDA toolkit (nvcc)</source>
        <translation>CUDA 工具包（nvcc）</translation>
    </message>
    <message>
        <source>CUDA of PyTorch</source>
        <translation>PyTorch 的 CUDA</translation>
    </message>
    <message>
        <source>CUDA of the cuDNN archive</source>
        <translation>cuDNN 压缩包对应的 CUDA</translation>
    </message>
    <message>
        <source>Recommended download</source>
        <translation>推荐下载</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>I understand these problems and want to &amp;continue anyway</source>
        <translation>我了解这些问题，仍要继续(&amp;C)</translation>
    </message>
    <message>
        <source>Cannot tell whether cuDNN fits this computer: something it depends on is not known (see below).</source>
        <translation>无法判断 cuDNN 是否适合这台电脑：它所依赖的某项信息未知（见下文）。</translation>
    </message>
    <message numerus="yes">
        <source>cuDNN fits this computer; %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>cuDNN 适合这台电脑；下面有 %n 项值得检查。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <comment>a CUDA number&apos;s name, its value and what it means</comment>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>It is what %1 needs, and goes beside it in %2, for that program only.</source>
        <translation>这正是 %1 需要的版本，会放到它所在的文件夹 %2 中，只给这个程序用。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s checksum for this file is not in the compatibility database, so it cannot be checked, and an install into the CUDA toolkit or for every user refuses it: on &quot;Where cuDNN goes&quot;, choose a folder for you only or beside one program.</source>
        <translation>兼容性数据库中没有 NVIDIA 为这个文件公布的校验值，因此无法核对；安装到 CUDA 目录或供所有用户使用的位置时会被拒绝：请在“cuDNN 安装位置”页面选择安装到当前用户目录，或放在某个程序旁边。</translation>
    </message>
    <message>
        <source>Download &lt;b&gt;%1&lt;/b&gt; from NVIDIA&apos;s cuDNN download page.</source>
        <translation>请从 NVIDIA 官网 cuDNN 下载页下载 &lt;b&gt;%1&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>Compatibility data: version %1, built in.</source>
        <translation>兼容性数据版本：%1（内置）。</translation>
    </message>
    <message>
        <source>Compatibility data: version %1, from %2.</source>
        <translation>兼容性数据版本：%1，来自 %2。</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s tables as of %1.</source>
        <translation>NVIDIA 截至 %1 公布的兼容性表格。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::PurposePage</name>
    <message>
        <source>The program&apos;s folder</source>
        <translation>程序所在的文件夹</translation>
    </message>
    <message>
        <source>Reading the program&apos;s files…</source>
        <translation>正在读取程序的文件……</translation>
    </message>
    <message>
        <source>• %1</source>
        <translation>• %1</translation>
    </message>
    <message>
        <source>What is cuDNN for?</source>
        <translation>cuDNN 用来做什么？</translation>
    </message>
    <message>
        <source>Your answer decides whether this computer needs a system-wide cuDNN at all.</source>
        <translation>你的回答决定这台电脑是否真的需要安装系统级的 cuDNN。</translation>
    </message>
    <message>
        <source>I will use cuDNN with:</source>
        <translation>我要配合以下软件使用 cuDNN：</translation>
    </message>
    <message>
        <source>&amp;PyTorch</source>
        <translation>PyTorch(&amp;P)</translation>
    </message>
    <message>
        <source>The Python library for deep learning used as &quot;import torch&quot;.</source>
        <translation>用于深度学习的 Python 库，代码中写作“import torch”。</translation>
    </message>
    <message>
        <source>&amp;TensorFlow</source>
        <translation>TensorFlow(&amp;T)</translation>
    </message>
    <message>
        <source>The Python library for deep learning used as &quot;import tensorflow&quot;. On Windows, versions after 2.10 use the GPU only inside WSL 2 (Windows Subsystem for Linux).</source>
        <translation>用于深度学习的 Python 库，代码中写作“import tensorflow”。在 Windows 上，2.10 之后的版本只能在 WSL 2（适用于 Linux 的 Windows 子系统）中使用显卡。</translation>
    </message>
    <message>
        <source>&amp;ONNX Runtime</source>
        <translation>ONNX Runtime(&amp;O)</translation>
    </message>
    <message>
        <source>Runs trained models saved as .onnx files (&quot;import onnxruntime&quot;).</source>
        <translation>运行以 .onnx 文件保存的已训练模型（“import onnxruntime”）。</translation>
    </message>
    <message>
        <source>A p&amp;rogram:</source>
        <translation>某个程序(&amp;R)：</translation>
    </message>
    <message>
        <source>A program in a folder of its own, such as a portable ComfyUI or a speech-to-text app. Pick its folder: its files tell which cuDNN it needs.</source>
        <translation>放在独立文件夹中的程序，例如便携版 ComfyUI 或语音转文字软件。请选择它所在的文件夹：从它的文件可以看出它需要哪个 cuDNN。</translation>
    </message>
    <message>
        <source>&amp;My own C++ code</source>
        <translation>我自己的 C++ 代码(&amp;M)</translation>
    </message>
    <message>
        <source>Code you compile yourself that includes cudnn.h and links the cuDNN library.</source>
        <translation>你自己编译的代码，包含 cudnn.h 并链接 cuDNN 库。</translation>
    </message>
    <message>
        <source>Not s&amp;ure</source>
        <translation>不确定(&amp;U)</translation>
    </message>
    <message>
        <source>The programs found on this computer decide.</source>
        <translation>根据在这台电脑上找到的程序来判断。</translation>
    </message>
    <message>
        <source>Folders where programs that use cuDNN were found.</source>
        <translation>找到使用 cuDNN 的程序的文件夹。</translation>
    </message>
    <message>
        <source>Program folder</source>
        <translation>程序文件夹</translation>
    </message>
    <message>
        <source>Choose fol&amp;der…</source>
        <translation>选择文件夹(&amp;D)…</translation>
    </message>
    <message>
        <source>A system-wide cuDNN is one installed for the whole computer (in the CUDA toolkit or a folder of its own) where any program can find it. PyTorch and many other programs bring their own copy instead.</source>
        <translation>系统级的 cuDNN 是为整台电脑安装的一份 cuDNN（在 CUDA 工具包中或独立文件夹中），任何程序都能找到它。PyTorch 和许多其他程序则自带一份。</translation>
    </message>
    <message>
        <source>Paste this into a terminal (Command Prompt, PowerShell or a Linux shell).</source>
        <translation>把它粘贴到终端中运行（命令提示符、PowerShell 或 Linux 终端）。</translation>
    </message>
    <message>
        <source>Command to run</source>
        <translation>要运行的命令</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the command to the clipboard.</source>
        <translation>把命令复制到剪贴板。</translation>
    </message>
    <message>
        <source>None found yet: choose its folder</source>
        <translation>尚未找到：请选择它所在的文件夹</translation>
    </message>
    <message>
        <source>No system-wide cuDNN is needed for this: press Finish. Next goes on to install one anyway.</source>
        <translation>这种用法不需要系统级的 cuDNN：请点击“完成”。点击“下一步”则仍会继续安装。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::RepairPage</name>
    <message>
        <source>Cancelling: undoing what was done so far…</source>
        <translation>正在取消：撤销已完成的操作……</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1:&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;%1：&lt;/b&gt;%2</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Repair, with administrator rights: %1</source>
        <translation>修复（需要管理员权限）：%1</translation>
    </message>
    <message>
        <source>Repair: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>Making the repairs: if one of them fails, all are undone…</source>
        <translation>正在修复：只要有一项失败，所有修复都会撤销……</translation>
    </message>
    <message>
        <source>Looking at this computer: the cuDNN copies, PATH, the receipts…</source>
        <translation>正在检查这台电脑：各份 cuDNN、环境变量 Path 和安装记录……</translation>
    </message>
    <message>
        <source>&amp;Apply selected as administrator</source>
        <translation>以管理员身份执行所选修复(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Apply selected</source>
        <translation>执行所选修复(&amp;A)</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) stop cuDNN from working.</source>
        <translation>
            <numerusform>有 %n 个问题导致 cuDNN 无法正常工作。</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation>没有发现问题。</translation>
    </message>
    <message>
        <source>Repairing…</source>
        <translation>正在修复……</translation>
    </message>
    <message>
        <source>Looking for what stops cuDNN from working…</source>
        <translation>正在查找妨碍 cuDNN 工作的原因……</translation>
    </message>
    <message>
        <source>Tick what to repair: the box below shows exactly what it changes. Every repair can be undone.</source>
        <translation>勾选要修复的项目，下方的框里会列出它具体改动什么。每一项修复都可以撤销。</translation>
    </message>
    <message numerus="yes">
        <source>%n repair(s) made.</source>
        <translation>
            <numerusform>已完成 %n 项修复。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n repair(s) made, but files in use are replaced when Windows next starts: restart the computer before you use cuDNN.</source>
        <translation>
            <numerusform>已完成 %n 项修复，但有些文件正被占用，要等 Windows 下次启动时才会替换：请先重启电脑，再使用 cuDNN。</numerusform>
        </translation>
    </message>
    <message>
        <source>The repairs were cancelled. Everything they had done was undone: nothing was changed.</source>
        <translation>修复已取消，已做的改动全部撤销，系统没有任何变化。</translation>
    </message>
    <message>
        <source>The repairs were not made: nothing was changed.</source>
        <translation>没有执行修复，系统没有任何变化。</translation>
    </message>
    <message>
        <source>The repairs failed. Everything they had done was undone: nothing was changed.</source>
        <translation>修复失败，已做的改动全部撤销，系统没有任何变化。</translation>
    </message>
    <message>
        <source>What changed:</source>
        <translation>改动内容：</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>&amp;Exactly what the ticked repairs change</source>
        <translation>所选修复的具体改动(&amp;E)</translation>
    </message>
    <message>
        <source>Exactly what the ticked repairs change</source>
        <translation>所选修复的具体改动</translation>
    </message>
    <message>
        <source>Tick a repair to see exactly what it changes.</source>
        <translation>勾选一项修复，就能在这里看到它的具体改动。</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>正在处理</translation>
    </message>
    <message>
        <source>&amp;Diagnose again</source>
        <translation>重新诊断(&amp;D)</translation>
    </message>
    <message>
        <source>To undo these repairs later, start cuDNN Setup again and choose Uninstall on its first page: they are listed as the repair of %1.</source>
        <translation>以后如需撤销这些修复，请再次打开 cuDNN 安装向导，在第一页选择“卸载”：它们在列表中显示为“%1 的修复”。</translation>
    </message>
    <message numerus="yes">
        <source>No problem stops cuDNN from working, but %n thing(s) below are worth checking.</source>
        <translation>
            <numerusform>没有妨碍 cuDNN 工作的问题，但下面有 %n 项值得检查。</numerusform>
        </translation>
    </message>
    <message>
        <source>What the diagnosis finds now</source>
        <translation>现在的诊断结果</translation>
    </message>
    <message>
        <source>What the diagnosis found</source>
        <translation>诊断结果</translation>
    </message>
    <message>
        <source>Since the last diagnosis: %1 fixed, %2 still open, %3 new.</source>
        <translation>与上次诊断相比：已解决 %1 个，仍存在 %2 个，新发现 %3 个。</translation>
    </message>
    <message>
        <source>Fixed: %1</source>
        <translation>已解决：%1</translation>
    </message>
    <message>
        <source>Still open: %1</source>
        <translation>仍存在：%1</translation>
    </message>
    <message>
        <source>New: %1</source>
        <translation>新发现：%1</translation>
    </message>
    <message>
        <source>What stops cuDNN from working on this computer, and the repairs cuDNN Setup can make with your consent.</source>
        <translation>找出 cuDNN 在这台电脑上无法工作的原因，并在你同意后进行修复。</translation>
    </message>
    <message numerus="yes">
        <source>%n known error(s) in the text: the first rows below say what each means on this computer and offer the repair.</source>
        <translation>
            <numerusform>在文本中发现 %n 个已知错误：下面最前面的几行说明了它们在这台电脑上意味着什么，并提供修复。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not recognised: the text holds no known cuDNN, CUDA or driver error (out of memory, shape errors and missing Python modules are other problems), so nothing is diagnosed from it.</source>
        <translation>未能识别：文本中没有已知的 cuDNN、CUDA 或驱动错误（显存不足、形状错误和缺少 Python 模块属于其他问题），因此不会据此给出诊断。</translation>
    </message>
    <message>
        <source>&amp;Paste the error you saw (or drop a log file here)</source>
        <translation>粘贴你看到的错误信息（也可以把日志文件拖到这里）(&amp;P)</translation>
    </message>
    <message>
        <source>Paste the error you saw</source>
        <translation>粘贴你看到的错误信息</translation>
    </message>
    <message>
        <source>A traceback, a loader log, a Windows message: the diagnosis says what it means on this computer.</source>
        <translation>Python 报错堆栈、加载器日志或 Windows 提示框中的文字均可：诊断会说明它在这台电脑上意味着什么。</translation>
    </message>
    <message>
        <source>Diagnose &amp;with this error</source>
        <translation>根据此错误诊断(&amp;W)</translation>
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
    <name>cudnnsetup::wizard::TargetPage</name>
    <message>
        <source>Remove it from PATH</source>
        <translation>从环境变量 Path 中移除</translation>
    </message>
    <message>
        <source>Move it behind the cuDNN folder</source>
        <translation>移到 cuDNN 文件夹之后</translation>
    </message>
    <message>
        <source>In the system PATH, which Windows puts before yours:</source>
        <translation>系统环境变量 Path 中的条目（Windows 会把它们排在用户环境变量 Path 之前）：</translation>
    </message>
    <message>
        <source>The folder that holds the cuDNN DLLs: %1</source>
        <translation>存放 cuDNN DLL 的文件夹：%1</translation>
    </message>
    <message>
        <source>Choose the folder for cuDNN</source>
        <translation>选择 cuDNN 的安装文件夹</translation>
    </message>
    <message>
        <source>Into a folder of its own</source>
        <translation>安装到独立文件夹（所有用户）</translation>
    </message>
    <message>
        <source>Keeps cuDNN apart from CUDA, so it can be updated or removed on its own; for every user of this computer.</source>
        <translation>与 CUDA 分开存放，可单独更新或删除；供这台电脑的所有用户使用。</translation>
    </message>
    <message>
        <source>Into a folder for you only</source>
        <translation>安装到当前用户目录</translation>
    </message>
    <message>
        <source>Only for your user account, in your own profile: for when you cannot or do not want to change the whole computer.</source>
        <translation>只供你的用户账户使用，放在你的个人目录中：适合无法或不想改动整台电脑的情况。</translation>
    </message>
    <message>
        <source>Into the conda environment %1</source>
        <translation>安装到 conda 环境 %1</translation>
    </message>
    <message>
        <source>Only for programs run in this conda environment, such as the PyTorch or TensorFlow installed in it.</source>
        <translation>只供在这个 conda 环境中运行的程序使用，例如其中安装的 PyTorch 或 TensorFlow。</translation>
    </message>
    <message>
        <source>Into the Python virtual environment %1</source>
        <translation>安装到 Python 虚拟环境 %1</translation>
    </message>
    <message>
        <source>Only for Python in this virtual environment: a .pth file tells Python where cuDNN is, whatever PATH says.</source>
        <translation>只供这个虚拟环境中的 Python 使用：由一个 .pth 文件告诉 Python cuDNN 在哪里，与环境变量 Path 无关。</translation>
    </message>
    <message>
        <source>Needs administrator rights.</source>
        <translation>需要管理员权限。</translation>
    </message>
    <message>
        <source>No administrator rights needed.</source>
        <translation>无需管理员权限。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>what a choice is for, then whether it needs an administrator</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>This setup changes PATH and environment variables only on the Windows it runs on, not on Linux nor on a system given with --system-root: cuDNN is installed without them.</source>
        <translation>本向导只修改它所运行的 Windows 上的环境变量（包括 Path），不会修改 Linux 或用 --system-root 指定的系统：cuDNN 将在不修改环境变量的情况下安装。</translation>
    </message>
    <message>
        <source>PATH stays as it is: CUDA&apos;s installer put this toolkit&apos;s DLL folder on it.</source>
        <translation>环境变量 Path 保持不变：CUDA 安装程序已把这个工具包的 DLL 文件夹加入 Path。</translation>
    </message>
    <message>
        <source>PATH stays as it is: conda puts the environment&apos;s Library\bin on it when the environment is activated.</source>
        <translation>环境变量 Path 保持不变：激活环境时 conda 会把该环境的 Library\bin 加入 Path。</translation>
    </message>
    <message>
        <source>PATH stays as it is: Python 3.8 and later do not use it to find DLLs; the .pth file tells Python where cuDNN is.</source>
        <translation>环境变量 Path 保持不变：Python 3.8 及以上版本查找 DLL 时不使用 Path，由 .pth 文件告诉 Python cuDNN 在哪里。</translation>
    </message>
    <message>
        <source>Without a PATH entry, only programs you point at the folder yourself find cuDNN.</source>
        <translation>不添加到环境变量 Path 时，只有你自己指定了该文件夹的程序才能找到 cuDNN。</translation>
    </message>
    <message>
        <source>Not available on this system.</source>
        <translation>此系统上不可用。</translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for all users.</source>
        <translation>用于从源码编译 OpenCV、ONNX Runtime 或 TensorFlow；为所有用户设置。</translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source; set for you only.</source>
        <translation>用于从源码编译 OpenCV、ONNX Runtime 或 TensorFlow；仅为你设置。</translation>
    </message>
    <message>
        <source>For building OpenCV, ONNX Runtime or TensorFlow from source.</source>
        <translation>用于从源码编译 OpenCV、ONNX Runtime 或 TensorFlow。</translation>
    </message>
    <message>
        <source>Space: %1 needed; the free space on that drive could not be read.</source>
        <translation>空间：需要 %1；无法读取该磁盘的可用空间。</translation>
    </message>
    <message>
        <source>Space: %1 free on that drive, %2 needed.</source>
        <translation>空间：该磁盘可用 %1，需要 %2。</translation>
    </message>
    <message>
        <source>Where cuDNN goes</source>
        <translation>cuDNN 安装位置</translation>
    </message>
    <message>
        <source>Choose where the files go and how programs will find them. Nothing is changed until you press Install on the next page.</source>
        <translation>选择文件放在哪里、程序如何找到它们。在下一页点击“安装”之前不会做任何改动。</translation>
    </message>
    <message>
        <source>Install into</source>
        <translation>安装到</translation>
    </message>
    <message>
        <source>Folder for cuDNN</source>
        <translation>cuDNN 文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>环境变量 Path</translation>
    </message>
    <message>
        <source>Leave PATH as it is</source>
        <translation>不修改环境变量 Path</translation>
    </message>
    <message>
        <source>Add to my PATH</source>
        <translation>添加到用户环境变量 Path</translation>
    </message>
    <message>
        <source>Add to the system PATH</source>
        <translation>添加到系统环境变量 Path</translation>
    </message>
    <message>
        <source>Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY</source>
        <translation>同时设置 CUDNN_PATH、CUDNN_INCLUDE_DIR 和 CUDNN_LIBRARY</translation>
    </message>
    <message>
        <source>PATH now</source>
        <translation>当前的环境变量 Path</translation>
    </message>
    <message>
        <source>PATH after the installation</source>
        <translation>安装后的环境变量 Path</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>%1 is added at the front of the system PATH (for all users), so programs started from now on load this cuDNN.</source>
        <translation>%1 将添加到系统环境变量 Path（所有用户）的最前面，此后启动的程序都会加载这个 cuDNN。</translation>
    </message>
    <message>
        <source>%1 is added at the front of your own PATH, so programs started from now on load this cuDNN.</source>
        <translation>%1 将添加到用户环境变量 Path 的最前面，此后启动的程序都会加载这个 cuDNN。</translation>
    </message>
    <message>
        <source>Into the CUDA %1 toolkit (what the common tutorials do)</source>
        <translation>安装到 CUDA %1 目录，与常见教程做法相同</translation>
    </message>
    <message>
        <source>%1 — recommended</source>
        <translation>%1（推荐）</translation>
    </message>
    <message>
        <source>Why: there is no CUDA toolkit for this archive here, and a folder of its own is easy to update or remove.</source>
        <translation>理由：这台电脑上没有与这个压缩包对应的 CUDA 工具包；放在独立文件夹里也便于以后更新或删除。</translation>
    </message>
    <message>
        <source>Why: it needs no administrator rights.</source>
        <translation>理由：不需要管理员权限。</translation>
    </message>
    <message>
        <source>Why: the programs that use cuDNN here run in this environment.</source>
        <translation>理由：使用 cuDNN 的程序就在这个环境中运行。</translation>
    </message>
    <message numerus="yes">
        <source>Advanced: PATH before and after, and %n thing(s) in it to look at</source>
        <translation>
            <numerusform>高级选项：环境变量 Path 修改前后对比，其中有 %n 项值得留意</numerusform>
        </translation>
    </message>
    <message>
        <source>Advanced: PATH before and after, CUDNN_* variables</source>
        <translation>高级选项：环境变量 Path 修改前后对比、CUDNN_* 变量</translation>
    </message>
    <message>
        <source>Only for this program: its libraries go into its own folder, where it looks first; PATH is not changed.</source>
        <translation>只给这个程序用：库文件放进程序自己的文件夹，程序会最先在这里查找；不改动 PATH。</translation>
    </message>
    <message>
        <source>Why: this program needs another cuDNN than the rest of the computer.</source>
        <translation>原因：这个程序需要的 cuDNN 版本和这台电脑上其他程序用的不同。</translation>
    </message>
    <message>
        <source>Only for this program (%1)</source>
        <translation>只给这个程序用：%1</translation>
    </message>
    <message>
        <source>For building programs with this toolkit (nvcc, CMake, Visual Studio): cuDNN goes beside CUDA&apos;s own files.</source>
        <translation>适合用这个工具包编译程序（nvcc、CMake、Visual Studio）：cuDNN 放在 CUDA 自带文件旁边。</translation>
    </message>
    <message>
        <source>Why: CUDA programs and build tools already look for cuDNN there.</source>
        <translation>理由：CUDA 程序和编译工具默认就在这里查找 cuDNN。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::UninstallPage</name>
    <message>
        <source>Not uninstalled: nothing was changed. The findings below say why.</source>
        <translation>未卸载：没有做任何改动。原因见下面的检查结果。</translation>
    </message>
    <message>
        <source>Uninstall</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Installed on</source>
        <translation>安装时间</translation>
    </message>
    <message>
        <source>Installs made by cuDNN Setup</source>
        <translation>cuDNN 安装向导的安装记录</translation>
    </message>
    <message>
        <source>&amp;Uninstall</source>
        <translation>卸载(&amp;U)</translation>
    </message>
    <message>
        <source>Uninstalling</source>
        <translation>正在卸载</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>%1
Receipt %2</source>
        <translation>%1
安装记录 %2</translation>
    </message>
    <message>
        <source>Uninstalled: cuDNN %1 in %2. Its files, PATH entry and variables are gone; the files it had replaced are back.</source>
        <translation>已卸载 %2 中的 cuDNN %1。它的文件、环境变量 Path 中的条目和其他环境变量均已删除，被它替换过的文件也已还原。</translation>
    </message>
    <message>
        <source>Choose the install to uninstall. If a file changed after it was installed, cuDNN Setup names it and removes nothing.</source>
        <translation>请选择要卸载的安装。如果安装后有文件被改动过，会列出这些文件，此时不会删除任何内容。</translation>
    </message>
    <message>
        <source>Pressing Uninstall will:</source>
        <translation>点击“卸载”后将：</translation>
    </message>
    <message>
        <source>Uninstall what cuDNN Setup installed, exactly as it recorded the install.</source>
        <translation>按安装记录，卸载由 cuDNN 安装向导安装的 cuDNN。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::VerifyPage</name>
    <message>
        <source>Details of %1</source>
        <translation>%1 的详细信息</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查……</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>under 1 ms</source>
        <translation>不到 1 毫秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>解决办法：%1</translation>
    </message>
    <message>
        <source>Checking: %1…</source>
        <translation>正在检查：%1……</translation>
    </message>
    <message>
        <source>Checking the cuDNN that a freshly started program loads, in %1.</source>
        <translation>正在检查新启动的程序会加载的 cuDNN，位于 %1。</translation>
    </message>
    <message>
        <source>Verifying… This takes a few seconds, a minute when torch is asked too.</source>
        <translation>正在验证……通常只需几秒钟；如果还要检查 torch，大约需要一分钟。</translation>
    </message>
    <message>
        <source>There is nothing to verify.</source>
        <translation>没有可以验证的 cuDNN。</translation>
    </message>
    <message numerus="yes">
        <source>cuDNN does not work yet: %n check(s) failed. What to do is written under each.</source>
        <translation>
            <numerusform>cuDNN 目前还不能正常工作：有 %n 项检查未通过，每一项下面都写了解决办法。</numerusform>
        </translation>
    </message>
    <message>
        <source>cuDNN works: it loads as your programs will load it, and it ran a convolution on the GPU.</source>
        <translation>cuDNN 可以正常使用：已按程序实际的加载方式加载成功，并在显卡上成功运行了一次卷积。</translation>
    </message>
    <message>
        <source>cuDNN loads as your programs will load it, but it was not run on the GPU: the checks below say why.</source>
        <translation>cuDNN 能按你的程序实际加载它的方式正常加载，但尚未在显卡上实际运行，原因见下方各项检查。</translation>
    </message>
    <message>
        <source>The report was copied to the clipboard.</source>
        <translation>报告已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Save the report in a folder</source>
        <translation>选择保存报告的文件夹</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>cuDNN is loaded in a fresh process, as your programs will load it, and run on the GPU.</source>
        <translation>在新进程中按你的程序实际的加载方式加载 cuDNN，并在显卡上实际运行。</translation>
    </message>
    <message>
        <source>&amp;Repair…</source>
        <translation>修复(&amp;R)…</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Verification progress</source>
        <translation>验证进度</translation>
    </message>
    <message>
        <source>Verify &amp;again</source>
        <translation>重新验证(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Copy report</source>
        <translation>复制报告(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save report…</source>
        <translation>保存报告(&amp;S)…</translation>
    </message>
    <message>
        <source>Not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <source>Checking what the install placed in %1.</source>
        <translation>正在检查刚才安装到 %1 的文件。</translation>
    </message>
    <message>
        <source>Receipt %1</source>
        <translation>安装记录 %1</translation>
    </message>
    <message>
        <source>Technical details</source>
        <translation>技术细节（英文）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a name and its value</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>cuDNN was not loaded here, so these checks prove nothing yet: each says why it was skipped.</source>
        <translation>这台电脑上没有实际加载 cuDNN，以下结果尚不能证明它可用；每一项都注明了跳过的原因。</translation>
    </message>
</context>
<context>
    <name>cudnnsetup::wizard::WelcomePage</name>
    <message>
        <source>Welcome to cuDNN Setup</source>
        <translation>欢迎使用 cuDNN 安装向导（cuDNN Setup）</translation>
    </message>
    <message>
        <source>Install NVIDIA cuDNN so that it loads, and prove that it works.</source>
        <translation>安装 NVIDIA cuDNN，确保它能被正确加载，并验证它确实可用。</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>What do you want to do?</source>
        <translation>你想做什么？</translation>
    </message>
    <message>
        <source>&amp;Install cuDNN</source>
        <translation>安装 cuDNN(&amp;I)</translation>
    </message>
    <message>
        <source>Install cuDNN</source>
        <translation>安装 cuDNN</translation>
    </message>
    <message>
        <source>Check this computer, choose NVIDIA&apos;s cuDNN archive and a folder, install it and verify that it loads.</source>
        <translation>检查这台电脑，选择 NVIDIA 的 cuDNN 压缩包和安装位置，完成安装并验证它能正常加载。</translation>
    </message>
    <message>
        <source>&amp;Repair an installation</source>
        <translation>修复现有安装(&amp;R)</translation>
    </message>
    <message>
        <source>Repair an installation</source>
        <translation>修复现有安装</translation>
    </message>
    <message>
        <source>Find what keeps the cuDNN already on this computer from loading, and fix it.</source>
        <translation>找出电脑上已有的 cuDNN 无法加载的原因，并加以修复。</translation>
    </message>
    <message>
        <source>&amp;Uninstall</source>
        <translation>卸载(&amp;U)</translation>
    </message>
    <message>
        <source>Uninstall</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What it does:&lt;/b&gt; checks this computer&apos;s NVIDIA graphics card, driver, CUDA and Python, tells you which cuDNN fits, installs it and proves that it works.&lt;/p&gt;&lt;p&gt;&lt;b&gt;What you need:&lt;/b&gt; the NVIDIA driver for your graphics card, about 1.5 GB of free disk space, and about 5 minutes.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Nothing changes&lt;/b&gt; on your computer until you press Install.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;它会做什么：&lt;/b&gt;检查这台电脑的 NVIDIA 显卡、驱动、CUDA 和 Python，告诉你适合哪个 cuDNN，然后安装并验证它确实可用。&lt;/p&gt;&lt;p&gt;&lt;b&gt;你需要准备：&lt;/b&gt;显卡对应的 NVIDIA 驱动、约 1.5 GB 可用磁盘空间，以及大约 5 分钟。&lt;/p&gt;&lt;p&gt;在你点击“安装”之前，&lt;b&gt;电脑上的任何内容都不会改动&lt;/b&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Uninstall what cuDNN Setup installed: its files, PATH entry and variables.</source>
        <translation>卸载由 cuDNN 安装向导安装的 cuDNN：删除它安装的文件、它添加到环境变量 Path 的条目和它设置的环境变量。</translation>
    </message>
    <message>
        <source>Not available: cuDNN Setup has not installed cuDNN on this computer, so there is nothing of its own to uninstall.</source>
        <translation>不可用：cuDNN 安装向导还没有在这台电脑上安装过 cuDNN，没有可卸载的内容。</translation>
    </message>
</context>
</TS>
