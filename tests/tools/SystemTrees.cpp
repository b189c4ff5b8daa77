#include "SystemTrees.h"

namespace trees {

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
    sandbox.writeScriptBody(root + QStringLiteral("/bin/nvcc"),
                            "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                            "echo 'Cuda compilation tools, release " +
                                shortVersion.toUtf8() + ", V" + cudart.toUtf8() + "'\n");
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
    sandbox.write(path + QStringLiteral(".query"),
                  "0, NVIDIA H200, GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0, 00000000:00:06.0, 580.159.04, "
                  "143771, 9.0\n");
    sandbox.write(path + QStringLiteral(".table"),
                  Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/table.txt")));
    const QByteArray base = sandbox.hostPath(path).toUtf8();
    sandbox.writeScriptBody(path, "case \"$1\" in\n  --query-gpu=*) /bin/cat '" + base +
                                      ".query' ;;\n  *) /bin/cat '" + base + ".table' ;;\nesac\n");
}

void windowsSystem(const Sandbox &sandbox)
{
    sandbox.mkdir(QStringLiteral("C:\\Windows\\System32"));
}

} // namespace trees
