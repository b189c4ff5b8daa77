#include "SystemTrees.h"

#include "ElfImage.h"
#include "platform/LibraryLoader.h"
#include "platform/ProcessRunner.h"
#include "platform/Registry.h"

#include <QProcessEnvironment>

namespace trees {

cudnnsetup::SystemContext windowsLaptopContext(const Sandbox &sandbox)
{
    using namespace cudnnsetup;
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("C:\\Program Files"));
    environment.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
    environment.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\lab"));
    environment.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
    auto registry = Registry::unavailable();
    return SystemContext(FileSystem(OsFamily::Windows, sandbox.root()),
                         EnvironmentStore(OsFamily::Windows, environment, registry), registry,
                         std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

cudnnsetup::PythonInstall pythonInstall(const QString &path, const QString &source)
{
    cudnnsetup::PythonInstall install;
    install.path = path;
    install.source = source;
    install.version = QStringLiteral("3.12.3");
    install.bits = 64;
    return install;
}

const QByteArray kTorchCu130 =
    "{\"version\": \"2.11.0+cu130\", \"cuda\": \"13.0\", \"cudnn\": 91900, \"cudaAvailable\": true}";

QByteArray cudnnVersionHeader(int major, int minor, int patch)
{
    const QByteArray multiplier = major >= 9 ? "10000" : "1000";
    return "/*\n * Copyright NVIDIA Corporation.\n */\n"
           "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
           "#define CUDNN_MAJOR " +
           QByteArray::number(major) +
           "\n"
           "#define CUDNN_MINOR " +
           QByteArray::number(minor) +
           "\n"
           "#define CUDNN_PATCHLEVEL " +
           QByteArray::number(patch) +
           "\n\n"
           "#define CUDNN_VERSION (CUDNN_MAJOR * " +
           multiplier +
           " + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
           "/* cannot use constexpr here since this is a C-only file */\n#endif /* CUDNN_VERSION_H */\n";
}

QByteArray cudaVersionJson(const QString &release, const QString &cudart)
{
    return "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"" + release.toUtf8() +
           "\"\n   },\n   \"cuda_cudart\" : {\n      \"name\" : \"CUDA Runtime (cudart)\",\n      "
           "\"version\" : \"" +
           cudart.toUtf8() + "\"\n   }\n}\n";
}

QStringList cudnnWindowsDlls(int major)
{
    if (major == 8) {
        return {QStringLiteral("cudnn64_8.dll"),           QStringLiteral("cudnn_ops_infer64_8.dll"),
                QStringLiteral("cudnn_ops_train64_8.dll"), QStringLiteral("cudnn_cnn_infer64_8.dll"),
                QStringLiteral("cudnn_cnn_train64_8.dll"), QStringLiteral("cudnn_adv_infer64_8.dll"),
                QStringLiteral("cudnn_adv_train64_8.dll")};
    }
    return {QStringLiteral("cudnn64_9.dll"),
            QStringLiteral("cudnn_adv64_9.dll"),
            QStringLiteral("cudnn_cnn64_9.dll"),
            QStringLiteral("cudnn_engines_precompiled64_9.dll"),
            QStringLiteral("cudnn_engines_runtime_compiled64_9.dll"),
            QStringLiteral("cudnn_graph64_9.dll"),
            QStringLiteral("cudnn_heuristic64_9.dll"),
            QStringLiteral("cudnn_ops64_9.dll")};
}

QStringList cudnnLinuxLibraries(int major, const QString &fullVersion)
{
    const QStringList stems =
        major == 8 ? QStringList{QStringLiteral("libcudnn"),           QStringLiteral("libcudnn_ops_infer"),
                                 QStringLiteral("libcudnn_ops_train"), QStringLiteral("libcudnn_cnn_infer"),
                                 QStringLiteral("libcudnn_cnn_train"), QStringLiteral("libcudnn_adv_infer"),
                                 QStringLiteral("libcudnn_adv_train")}
                   : QStringList{QStringLiteral("libcudnn"),
                                 QStringLiteral("libcudnn_adv"),
                                 QStringLiteral("libcudnn_cnn"),
                                 QStringLiteral("libcudnn_engines_precompiled"),
                                 QStringLiteral("libcudnn_engines_runtime_compiled"),
                                 QStringLiteral("libcudnn_graph"),
                                 QStringLiteral("libcudnn_heuristic"),
                                 QStringLiteral("libcudnn_ops")};
    QStringList names;
    for (const QString &stem : stems) {
        if (!fullVersion.isEmpty())
            names.append(stem + QStringLiteral(".so.") + fullVersion);
        names.append(stem + QStringLiteral(".so.%1").arg(major));
        names.append(stem + QStringLiteral(".so"));
    }
    return names;
}

void linuxToolkit(const Sandbox &sandbox, const QString &release, const QString &cudart, bool withVersionJson)
{
    const QString shortVersion = release.section(QLatin1Char('.'), 0, 1);
    const QString root = QStringLiteral("/usr/local/cuda-") + shortVersion;
    const QString major = release.section(QLatin1Char('.'), 0, 0);
    ToolBehaviour nvcc;
    nvcc.output = "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release " +
                  shortVersion.toUtf8() + ", V" + cudart.toUtf8() + "\n";
    sandbox.writeTool(root + QStringLiteral("/bin/nvcc"), nvcc);
    const QString lib = root + QStringLiteral("/targets/x86_64-linux/lib");
    sandbox.write(lib + QStringLiteral("/libcudart.so.") + cudart);
    sandbox.symlink(QStringLiteral("libcudart.so.") + cudart, lib + QStringLiteral("/libcudart.so.") + major);
    sandbox.symlink(QStringLiteral("targets/x86_64-linux/lib"), root + QStringLiteral("/lib64"));
    sandbox.write(root + QStringLiteral("/include/cuda.h"), "/* cuda.h */\n");
    if (withVersionJson)
        sandbox.write(root + QStringLiteral("/version.json"), cudaVersionJson(release, cudart));
}

void windowsToolkit(const Sandbox &sandbox, const QString &version)
{
    const QString shortVersion = version.section(QLatin1Char('.'), 0, 1);
    const int major = version.section(QLatin1Char('.'), 0, 0).toInt();
    const QString root =
        QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v") + shortVersion;
    const QString bin = major >= 13 ? root + QStringLiteral("\\bin\\x64") : root + QStringLiteral("\\bin");
    const QString cudart =
        major >= 12 ? QStringLiteral("cudart64_%1.dll").arg(major)
                    : QStringLiteral("cudart64_%1.dll").arg(QString(shortVersion).remove(QLatin1Char('.')));
    sandbox.write(bin + QLatin1Char('\\') + cudart, "MZ");
    sandbox.write(root + QStringLiteral("\\bin\\nvcc.exe"), "MZ");
    sandbox.write(root + QStringLiteral("\\version.json"), cudaVersionJson(version, version));
    sandbox.mkdir(root + QStringLiteral("\\include"));
    sandbox.mkdir(root + QStringLiteral("\\lib\\x64"));
}

void linuxCudnn(const Sandbox &sandbox, const QString &libDir, const QString &includeDir, int major,
                int minor, int patch)
{
    const QString full = QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(patch);
    for (const QString &name : cudnnLinuxLibraries(major, full)) {
        if (name.endsWith(full))
            sandbox.write(libDir + QLatin1Char('/') + name, "\x7f"
                                                            "ELF");
        else if (name.endsWith(QStringLiteral(".so.%1").arg(major)))
            sandbox.symlink(name.left(name.lastIndexOf(QStringLiteral(".so"))) + QStringLiteral(".so.") +
                                full,
                            libDir + QLatin1Char('/') + name);
        else
            sandbox.symlink(name + QStringLiteral(".%1").arg(major), libDir + QLatin1Char('/') + name);
    }
    if (!includeDir.isEmpty())
        sandbox.write(includeDir + QStringLiteral("/cudnn_version.h"),
                      cudnnVersionHeader(major, minor, patch));
}

void windowsCudnn(const Sandbox &sandbox, const QString &binDir, const QString &includeDir, int major,
                  int minor, int patch)
{
    for (const QString &name : cudnnWindowsDlls(major))
        sandbox.write(binDir + QLatin1Char('\\') + name, "MZ");
    if (!includeDir.isEmpty())
        sandbox.write(includeDir + QStringLiteral("\\cudnn_version.h"),
                      cudnnVersionHeader(major, minor, patch));
}

void recordedNvidiaSmi(const Sandbox &sandbox, const QString &path)
{
    ToolBehaviour smi;
    smi.output = Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/table.txt"));
    smi.answers.append(qMakePair(QByteArray("--query-gpu="),
                                 QByteArray("0, NVIDIA H200, GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0, "
                                            "00000000:00:06.0, 580.159.04, 143771, 9.0\n")));
    sandbox.writeTool(path, smi);
}

void torchFiles(const Sandbox &sandbox, const QString &site, const QString &version, const QString &cuda)
{
    sandbox.write(
        site + QStringLiteral("/torch/version.py"),
        "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', "
        "'hip']\n__version__ = '" +
            version.toUtf8() + "'\ndebug = False\ncuda: Optional[str] = " +
            (cuda.isEmpty() ? QByteArray("None") : "'" + cuda.toUtf8() + "'") +
            "\ngit_version = 'e2d141dbde55c2a4370fac5165b0561b6af4798b'\nhip: Optional[str] = None\n");
}

void linuxTorchCuda(const Sandbox &sandbox, const QString &site, const QString &cudnnSoname,
                    const QStringList &runpath)
{
    elfimage::SharedObject library;
    library.soname = QStringLiteral("libtorch_cuda.so");
    library.needed = {QStringLiteral("libc10_cuda.so"), cudnnSoname, QStringLiteral("libc.so.6")};
    library.runpath = runpath;
    sandbox.write(site + QStringLiteral("/torch/lib/libtorch_cuda.so"), elfimage::build(library));
}

QByteArray pythonProbeAnswer(const QString &version, const QByteArray &torchJson)
{
    return "CUDNNSETUP-PROBE {\"version\": \"" + version.toUtf8() +
           "\", \"bits\": 64, \"torch\": " + torchJson + "}\n";
}

void pythonStandin(const Sandbox &sandbox, const QString &path, const QString &version,
                   const QByteArray &torchJson)
{
    ToolBehaviour python;
    python.output = pythonProbeAnswer(version, torchJson);
    sandbox.writeTool(path, python);
}

void workstation(const Sandbox &sandbox)
{
    sandbox.write(QStringLiteral("/etc/os-release"),
                  "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nVERSION_ID=\"24.04\"\n");
    linuxToolkit(sandbox, QStringLiteral("11.8.0"), QStringLiteral("11.8.89"));
    linuxToolkit(sandbox, QStringLiteral("12.2.2"), QStringLiteral("12.2.140"));
    linuxToolkit(sandbox, QStringLiteral("13.0.2"), QStringLiteral("13.0.96"));
    sandbox.symlink(QStringLiteral("/usr/local/cuda-13.0"), QStringLiteral("/usr/local/cuda"));
    linuxCudnn(sandbox, QStringLiteral("/usr/local/cuda-11.8/targets/x86_64-linux/lib"),
               QStringLiteral("/usr/local/cuda-11.8/include"), 8, 9, 7);
    linuxCudnn(sandbox, QStringLiteral("/usr/local/cuda-12.2/targets/x86_64-linux/lib"),
               QStringLiteral("/usr/local/cuda-12.2/include"), 9, 5, 1);
    linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
               QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 14, 0);
    const QString site = QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages");
    linuxCudnn(sandbox, site + QStringLiteral("/nvidia/cudnn/lib"),
               site + QStringLiteral("/nvidia/cudnn/include"), 9, 19, 0);
    sandbox.mkdir(site + QStringLiteral("/nvidia_cudnn_cu13-9.19.0.56.dist-info"));
    sandbox.write(QStringLiteral("/opt/torch/.venv/pyvenv.cfg"), "version = 3.12.3\n");
    pythonStandin(sandbox, QStringLiteral("/opt/torch/.venv/bin/python3"), QStringLiteral("3.12.3"),
                  kTorchCu130);
    torchFiles(sandbox, site, QStringLiteral("2.11.0+cu130"), QStringLiteral("13.0"));
    linuxTorchCuda(sandbox, site, QStringLiteral("libcudnn.so.9"),
                   {QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"), QStringLiteral("$ORIGIN")});
    sandbox.write(QStringLiteral("/etc/ld.so.conf"), "/usr/lib/x86_64-linux-gnu\n");
    recordedNvidiaSmi(sandbox, QStringLiteral("/usr/bin/nvidia-smi"));
}

void windowsWorkstation(const Sandbox &sandbox)
{
    windowsSystem(sandbox);
    windowsToolkit(sandbox, QStringLiteral("11.8.0"));
    windowsToolkit(sandbox, QStringLiteral("12.2.2"));
    windowsToolkit(sandbox, QStringLiteral("13.0.2"));
    const QString cuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
    windowsCudnn(sandbox, cuda + QStringLiteral("v12.2\\bin"), cuda + QStringLiteral("v12.2\\include"), 8, 9,
                 7);
    const QString installer = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
    windowsCudnn(sandbox, installer + QStringLiteral("\\bin\\12.4"),
                 installer + QStringLiteral("\\include\\12.4"), 9, 1, 0);
    ToolBehaviour smi;
    smi.output = Sandbox::readFixture(QStringLiteral("nvidia-smi/windows-591.59-driver-model.txt"));
    smi.answers.append(
        qMakePair(QByteArray("--query-gpu="),
                  QByteArray("0, NVIDIA GeForce RTX 3080, GPU-5a4c8a0e-2a4d-4f5e-9b1a-0c2d3e4f5a6b, "
                             "00000000:01:00.0, 591.59, 10240, 8.6\r\n")));
    sandbox.writeTool(QStringLiteral("C:\\Windows\\System32\\nvidia-smi.exe"), smi);
    pythonStandin(sandbox, QStringLiteral("C:\\Python312\\python.exe"), QStringLiteral("3.12.8"),
                  "{\"version\": \"2.5.1+cpu\", \"cuda\": null, \"cudnn\": null, \"cudaAvailable\": false}");
    torchFiles(sandbox, QStringLiteral("C:\\Python312\\Lib\\site-packages"), QStringLiteral("2.5.1+cpu"),
               QString());
}

QString hostTool(const Sandbox &sandbox, HostTool tool, const ToolBehaviour &behaviour)
{
    const bool windows = cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows;
    if (windows)
        windowsSystem(sandbox);
    const QString dir = tool == HostTool::NvidiaSmi
                            ? (windows ? QStringLiteral("C:\\Windows\\System32") : QStringLiteral("/usr/bin"))
                            : (windows ? QStringLiteral("C:\\Python312") : QStringLiteral("/usr/bin"));
    const QString name = tool == HostTool::NvidiaSmi ? QStringLiteral("nvidia-smi")
                         : windows                   ? QStringLiteral("python")
                                                     : QStringLiteral("python3");
    sandbox.writeTool(dir + (windows ? QStringLiteral("\\") : QStringLiteral("/")) + name +
                          (windows ? QStringLiteral(".exe") : QString()),
                      behaviour);
    return dir;
}

void windowsSystem(const Sandbox &sandbox)
{
    sandbox.mkdir(QStringLiteral("C:\\Windows\\System32"));
}

} // namespace trees
