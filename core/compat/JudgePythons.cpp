// The judge on the Python environments and the cuDNN their frameworks bring.
#include "compat/Judge.h"

#include "compat/ConsumerVerdicts.h"

#include <algorithm>

namespace cudnnsetup {

namespace judge {

void Judge::checkPythons()
{
    for (const MatchFacts::Python &python : m_facts.pythons) {
        if (python.bits == 32) {
            add(Finding::warning(
                QStringLiteral("match.python-32bit"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a 32-bit Python; cuDNN and CUDA exist only "
                                                     "for 64-bit programs, so it can never use them."))
                    .arg(python.path),
                QString(),
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "Install a 64-bit Python (python.org's \"Windows installer (64-bit)\")."))));
        }
        if (python.hasTorch && !python.torchCuda.isValid()) {
            add(Finding::warning(
                QStringLiteral("match.torch-cpu-only"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "torch %1 in %2 is a CPU-only build: it will never use the GPU or cuDNN."))
                    .arg(python.torchVersion, python.path),
                QString(), torchFix()));
        }
        if (python.hasTorch && python.torchCuda.isValid() && m_maxCuda.isValid()) {
            if (python.torchCuda.major() > m_maxCuda.major()) {
                add(Finding::error(
                    QStringLiteral("match.torch-cuda-newer-than-driver"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "torch %1 is built for CUDA %2, but the driver supports CUDA "
                                           "up to %3: torch.cuda.is_available() will be False."))
                        .arg(python.torchVersion, text(python.torchCuda), text(m_maxCuda)),
                    python.path, branchFix(python.torchCuda)));
            } else if (python.torchCuda > m_maxCuda) {
                add(Finding::info(
                    QStringLiteral("match.torch-minor-version-compatibility"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "torch %1 is built for CUDA %2 and the driver reports %3: it "
                                           "runs through minor-version compatibility."))
                        .arg(python.torchVersion, text(python.torchCuda), text(m_maxCuda)),
                    python.path));
            }
        }
        if (python.hasTorch && python.torchCuda.isValid())
            adviseOnBundledCudnn(python);
        if (m_facts.os == OsFamily::Windows && !m_facts.wsl2 && python.tensorflow.isValid() &&
            python.tensorflow.truncated(2) > m_kb.tensorflowLastNativeWindowsGpu()) {
            add(Finding::warning(
                QStringLiteral("match.tensorflow-windows"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "TensorFlow %1 in %2 cannot use the GPU on native "
                                                     "Windows; the last version that could is %3."))
                    .arg(python.tensorflow.toString(), python.path,
                         m_kb.tensorflowLastNativeWindowsGpu().toString()),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run TensorFlow under WSL 2, or install TensorFlow "
                                                     "%1 with CUDA 11.2 and cuDNN 8.1."))
                    .arg(m_kb.tensorflowLastNativeWindowsGpu().toString())));
        }
        // JAX publishes its CUDA builds for Linux only: on native Windows it runs on the CPU.
        if (m_facts.os == OsFamily::Windows && !m_facts.wsl2 && !python.jax.isEmpty()) {
            add(Finding::warning(
                QStringLiteral("match.jax-windows"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "JAX %1 in %2 cannot use the GPU on native Windows: "
                                                     "JAX's CUDA builds exist for Linux only."))
                    .arg(python.jax, python.path),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run JAX under WSL 2 and install its CUDA build "
                                                     "there, as JAX's installation guide says."))));
        }
    }
}

void Judge::adviseOnBundledCudnn(const MatchFacts::Python &python)
{
    Version cudnn = python.torchCudnn;
    const Version torch = Version::parse(python.torchVersion.section(QLatin1Char('+'), 0, 0));
    for (const TorchRelease &release : m_kb.torchReleases()) {
        if (cudnn.isValid() || release.torch != torch.truncated(2))
            continue;
        for (const TorchBuild &build : release.builds) {
            if (build.cuda == python.torchCuda.truncated(2))
                cudnn = build.cudnn;
        }
    }
    // Who does need one is said in the same sentence: the reason to install anyway.
    const Text message =
        !cudnn.isValid()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "torch %1 in %2 brings its own cuDNN. If PyTorch is all you use, "
                                     "you need no system-wide cuDNN, only a driver that runs CUDA %3; "
                                     "one is for TensorFlow 2.10 and older on Windows, ONNX Runtime "
                                     "with CUDA, OpenCV's DNN module, building from source and C/C++ "
                                     "programs."))
                  .arg(python.torchVersion, python.path, text(python.torchCuda.truncated(2)))
        : python.torchCudnnFile.isEmpty()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "torch %1 in %2 brings its own cuDNN %3. If PyTorch is all you "
                                     "use, you need no system-wide cuDNN, only a driver that runs CUDA "
                                     "%4; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime "
                                     "with CUDA, OpenCV's DNN module, building from source and C/C++ "
                                     "programs."))
                  .arg(python.torchVersion, python.path, text(cudnn), text(python.torchCuda.truncated(2)))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "torch %1 in %2 brings its own cuDNN %3 (%4). If PyTorch is all "
                                     "you use, you need no system-wide cuDNN, only a driver that runs "
                                     "CUDA %5; one is for TensorFlow 2.10 and older on Windows, ONNX "
                                     "Runtime with CUDA, OpenCV's DNN module, building from source and "
                                     "C/C++ programs."))
                  .arg(python.torchVersion, python.path, text(cudnn), python.torchCudnnFile)
                  .arg(text(python.torchCuda.truncated(2)));
    add(Finding::info(QStringLiteral("match.framework-brings-cudnn"), message, python.path));
}

Text Judge::torchFix() const
{
    const Text fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install a CUDA build: pip install torch "
                                                          "--index-url https://download.pytorch.org/whl/%1"));
    if (const std::optional<TorchIndex> index = torchIndexFor(m_facts, m_kb))
        return fix.arg(index->tag);
    const QList<TorchRelease> &releases = m_kb.torchReleases();
    for (auto release = releases.crbegin(); release != releases.crend(); ++release) {
        Version best;
        for (const TorchBuild &build : release->builds) {
            if (build.channel == QLatin1String("experimental"))
                continue;
            if ((!m_maxCuda.isValid() || build.cuda <= m_maxCuda) && build.cuda > best)
                best = build.cuda;
        }
        if (best.isValid())
            return fix.arg(QStringLiteral("cu%1%2").arg(best.major()).arg(best.minor()));
    }
    return {};
}

} // namespace judge

} // namespace cudnnsetup
