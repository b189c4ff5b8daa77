#include "report/ReportFacts.h"

namespace cudnnsetup {

using reportfacts::isoTime;
using reportfacts::loadedCudnn;

namespace {

class KeyValueLines
{
public:
    // One line per key whatever the value holds; an empty value is spelled "unknown".
    void add(const QString &key, QString value)
    {
        value.replace(QLatin1Char('\r'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
        m_text += key + QStringLiteral(": ") +
                  (value.trimmed().isEmpty() ? QStringLiteral("unknown") : value.trimmed()) +
                  QLatin1Char('\n');
    }
    const QString &text() const { return m_text; }

private:
    QString m_text;
};

QString orNone(const QString &value)
{
    return value.isEmpty() ? QStringLiteral("none") : value;
}

QString yesNoUnknown(const std::optional<bool> &value)
{
    return value ? (*value ? QStringLiteral("yes") : QStringLiteral("no")) : QString();
}

// verify, verify.cudnn_version, verify.loaded_from and a line per stage.
void addVerifyLines(KeyValueLines &lines, const ReportInput &input)
{
    if (!input.verify) {
        lines.add(QStringLiteral("verify"), QStringLiteral("not run"));
    } else {
        lines.add(QStringLiteral("verify"),
                  input.verify->passed() ? QStringLiteral("passed") : QStringLiteral("failed"));
        lines.add(QStringLiteral("verify.cudnn_version"), input.verify->cudnnVersion);
        lines.add(QStringLiteral("verify.loaded_from"), input.verify->loadedFrom());
        for (const VerifyStage &stage : input.verify->stages)
            lines.add(QStringLiteral("verify.") + stage.id, VerifyStage::statusName(stage.status));
    }
}

// python.count, python.N with its torch and TensorFlow, and every TensorFlow found.
void addPythonLines(KeyValueLines &lines, const SystemSnapshot &snapshot)
{
    QStringList tensorflows;
    lines.add(QStringLiteral("python.count"), QString::number(snapshot.pythons.size()));
    for (int i = 0; i < snapshot.pythons.size(); ++i) {
        const PythonInstall &python = snapshot.pythons.at(i);
        const QString key = QStringLiteral("python.%1").arg(i);
        lines.add(key, QStringLiteral("%1 %2 %3")
                           .arg(python.version.isEmpty() ? QStringLiteral("unknown") : python.version,
                                python.bits ? QStringLiteral("%1-bit").arg(python.bits)
                                            : QStringLiteral("unknown-bit"),
                                python.path));
        // An interpreter that could not be asked has unknown torch and TensorFlow, not none.
        const bool asked = python.probeError.isEmpty();
        const auto torchValue = [&](const QString &value) { return asked ? orNone(value) : QString(); };
        const TorchInfo torch = python.torch.value_or(TorchInfo{});
        lines.add(key + QStringLiteral(".torch"), torchValue(torch.version));
        lines.add(key + QStringLiteral(".torch_cuda"), torchValue(torch.cuda));
        lines.add(key + QStringLiteral(".torch_cudnn"), torchValue(torch.cudnn));
        lines.add(key + QStringLiteral(".torch_cudnn_file"), torchValue(torch.cudnnLoadedFrom));
        lines.add(key + QStringLiteral(".tensorflow"), torchValue(python.tensorflow));
        if (!python.tensorflow.isEmpty())
            tensorflows.append(QStringLiteral("%1 (%2)").arg(python.tensorflow, key));
    }
    lines.add(QStringLiteral("tensorflow"), orNone(tensorflows.join(QStringLiteral("; "))));
}
} // namespace

// Keys of environment_versions.txt, one "key: value" line each, in English whatever the language,
// so that two machines' files can be compared line by line. "unknown" where a value could not be
// read, "none" where there is nothing. N counts from 0.
//   tool, created                  the program that wrote the report, when (ISO 8601, UTC)
//   os                             name, version, architecture: "Ubuntu 24.04.3 LTS 24.04 x64"
//   os.kernel                      Linux kernel release (Linux only)
//   os.wsl                         "no", or "2 Ubuntu" (WSL version and distribution)
//   gpu.count, gpu.N               "NVIDIA H200, compute capability 9.0, 143771 MiB"
//   driver                         driver version, "none" without a driver
//   driver.max_cuda                newest CUDA the driver runs
//   driver.working                 yes / no
//   cuda_path                      CUDA_PATH, "unset"
//   cuda_toolkit.count             number of toolkits found
//   cuda_toolkit.N                 "13.0.2 /usr/local/cuda-13.0"
//   cudnn.count                    number of cuDNN copies found
//   cudnn.N                        "9.19.0 /path/libcudnn.so.9, cuda 13, load order 1" (load order none:
//                                  not on the search path)
//   cudnn.loaded                   "9.14.0 /path/libcudnn.so.9": what a newly started program loads
//                                  (seen by the probe when verified, else from the search order)
//   verify                         passed / failed / "not run"
//   verify.cudnn_version, verify.loaded_from, verify.<stage id>   (verified reports only; a stage
//                                  is passed / failed / skipped)
//   python.count, python.N         "3.12.3 64-bit /usr/bin/python3"
//   python.N.torch                 torch version, "none"
//   python.N.torch_cuda            CUDA torch was built for, "none" (CPU only or no torch)
//   python.N.torch_cudnn           torch.backends.cudnn.version(), "none"
//   python.N.torch_cudnn_file      the cuDNN file torch maps, "none"
//   python.N.tensorflow            TensorFlow version, "none"
//   tensorflow                     every TensorFlow found, "2.20.0 (python.0)", "none"
//   receipt.count, receipt.N       installs by cuDNN Setup: "ID result cuDNN VERSION in FOLDER"
QString environmentVersionsText(const ReportInput &input)
{
    const SystemSnapshot &snapshot = input.snapshot;
    KeyValueLines lines;
    lines.add(QStringLiteral("tool"), input.tool);
    lines.add(QStringLiteral("created"), isoTime(input.createdAt));

    QStringList system{snapshot.os.name, snapshot.os.version, snapshot.os.arch};
    system.removeAll(QString());
    lines.add(QStringLiteral("os"), system.join(QLatin1Char(' ')));
    if (snapshot.os.family == QLatin1String("linux"))
        lines.add(QStringLiteral("os.kernel"), snapshot.os.kernel);
    lines.add(QStringLiteral("os.wsl"),
              snapshot.os.wsl
                  ? QStringLiteral("%1 %2").arg(snapshot.os.wsl->version).arg(snapshot.os.wsl->distribution)
                  : QStringLiteral("no"));

    lines.add(QStringLiteral("gpu.count"), QString::number(snapshot.gpus.size()));
    for (int i = 0; i < snapshot.gpus.size(); ++i) {
        const GpuInfo &gpu = snapshot.gpus.at(i);
        lines.add(
            QStringLiteral("gpu.%1").arg(i),
            QStringLiteral("%1, compute capability %2, %3")
                .arg(gpu.name.isEmpty() ? QStringLiteral("unknown") : gpu.name,
                     gpu.computeCapability.isEmpty() ? QStringLiteral("unknown") : gpu.computeCapability,
                     gpu.memoryMiB >= 0 ? QStringLiteral("%1 MiB").arg(gpu.memoryMiB)
                                        : QStringLiteral("unknown MiB")));
    }

    lines.add(QStringLiteral("driver"), snapshot.driver ? snapshot.driver->version : QStringLiteral("none"));
    lines.add(QStringLiteral("driver.max_cuda"), snapshot.driver ? snapshot.driver->maxCuda : QString());
    lines.add(QStringLiteral("driver.working"),
              snapshot.driver ? yesNoUnknown(snapshot.driver->working) : QStringLiteral("no"));
    lines.add(QStringLiteral("cuda_path"), snapshot.environment.cudaPath.isNull()
                                               ? QStringLiteral("unset")
                                               : snapshot.environment.cudaPath);

    lines.add(QStringLiteral("cuda_toolkit.count"), QString::number(snapshot.cudaToolkits.size()));
    for (int i = 0; i < snapshot.cudaToolkits.size(); ++i) {
        const CudaToolkit &toolkit = snapshot.cudaToolkits.at(i);
        lines.add(QStringLiteral("cuda_toolkit.%1").arg(i),
                  QStringLiteral("%1 %2").arg(
                      toolkit.version.isEmpty() ? QStringLiteral("unknown") : toolkit.version, toolkit.path));
    }

    lines.add(QStringLiteral("cudnn.count"), QString::number(snapshot.cudnn.size()));
    for (int i = 0; i < snapshot.cudnn.size(); ++i) {
        const CudnnCopy &copy = snapshot.cudnn.at(i);
        lines.add(QStringLiteral("cudnn.%1").arg(i),
                  QStringLiteral("%1 %2, cuda %3, load order %4")
                      .arg(copy.version.isEmpty() ? QStringLiteral("unknown") : copy.version, copy.path,
                           copy.cudaMajor ? QString::number(*copy.cudaMajor) : QStringLiteral("unknown"),
                           copy.loadOrder ? QString::number(*copy.loadOrder) : QStringLiteral("none")));
    }
    QString loadedVersion;
    const QString loaded = loadedCudnn(input, &loadedVersion);
    lines.add(QStringLiteral("cudnn.loaded"),
              loaded.isEmpty()
                  ? QStringLiteral("none")
                  : QStringLiteral("%1 %2").arg(
                        loadedVersion.isEmpty() ? QStringLiteral("unknown") : loadedVersion, loaded));

    addVerifyLines(lines, input);
    addPythonLines(lines, snapshot);

    lines.add(QStringLiteral("receipt.count"), QString::number(input.receipts.size()));
    for (int i = 0; i < input.receipts.size(); ++i) {
        const Receipt &receipt = input.receipts.at(i);
        lines.add(QStringLiteral("receipt.%1").arg(i),
                  QStringLiteral("%1 %2 cuDNN %3 in %4")
                      .arg(receipt.id, receipt.result, receipt.archive.cudnn.toString(),
                           receipt.target ? receipt.target->root : QString()));
    }
    return lines.text();
}
} // namespace cudnnsetup
