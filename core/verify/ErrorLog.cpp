#include "verify/ErrorLog.h"

#include "platform/Console.h"
#include "platform/FileSystem.h"
#include "platform/LegacyText.h"
#include "verify/LoadErrors.h"
#include "verify/LogSignatureReader.h"

#include <QJsonArray>
#include <QStringDecoder>

#include <algorithm>

namespace cudnnsetup {

QJsonObject LogSignature::toJson() const
{
    QJsonObject object{{QStringLiteral("kind"), kind}, {QStringLiteral("line"), line}};
    const auto put = [&object](const char *key, const QString &value) {
        if (!value.isEmpty())
            object.insert(QLatin1String(key), value);
    };
    put("library", library);
    put("dependency", dependency);
    put("symbol", symbol);
    if (cudnnMajor > 0)
        object.insert(QStringLiteral("cudnnMajor"), cudnnMajor);
    if (code)
        object.insert(QStringLiteral("code"), *code);
    put("loadedCudnn", loadedCudnn);
    put("expectedCudnn", expectedCudnn);
    put("sublibrary", sublibrary);
    put("gpuArch", gpuArch);
    if (!builtArchs.isEmpty())
        object.insert(QStringLiteral("builtArchs"), QJsonArray::fromStringList(builtArchs));
    put("driverCuda", driverCuda);
    put("status", status);
    put("environment", environment);
    put("consumer", consumer);
    if (loads)
        object.insert(QStringLiteral("loads"), loads->isEmpty() ? QJsonValue() : QJsonValue(*loads));
    return object;
}

LogSignature LogSignature::fromJson(const QJsonObject &object)
{
    LogSignature signature;
    signature.kind = object.value(QStringLiteral("kind")).toString();
    signature.line = object.value(QStringLiteral("line")).toInt();
    signature.library = object.value(QStringLiteral("library")).toString();
    signature.dependency = object.value(QStringLiteral("dependency")).toString();
    signature.symbol = object.value(QStringLiteral("symbol")).toString();
    signature.cudnnMajor = object.value(QStringLiteral("cudnnMajor")).toInt();
    if (object.value(QStringLiteral("code")).isDouble())
        signature.code = qint64(object.value(QStringLiteral("code")).toDouble());
    signature.loadedCudnn = object.value(QStringLiteral("loadedCudnn")).toString();
    signature.expectedCudnn = object.value(QStringLiteral("expectedCudnn")).toString();
    signature.sublibrary = object.value(QStringLiteral("sublibrary")).toString();
    signature.gpuArch = object.value(QStringLiteral("gpuArch")).toString();
    for (const QJsonValue &arch : object.value(QStringLiteral("builtArchs")).toArray())
        signature.builtArchs.append(arch.toString());
    signature.driverCuda = object.value(QStringLiteral("driverCuda")).toString();
    signature.status = object.value(QStringLiteral("status")).toString();
    signature.environment = object.value(QStringLiteral("environment")).toString();
    signature.consumer = object.value(QStringLiteral("consumer")).toString();
    if (object.contains(QStringLiteral("loads")))
        signature.loads = object.value(QStringLiteral("loads")).toString();
    return signature;
}

bool LogSignature::operator==(const LogSignature &other) const
{
    // The line is where it was seen first, not what it is.
    return kind == other.kind && library == other.library && dependency == other.dependency &&
           symbol == other.symbol && cudnnMajor == other.cudnnMajor && code == other.code &&
           loadedCudnn == other.loadedCudnn && expectedCudnn == other.expectedCudnn &&
           sublibrary == other.sublibrary && gpuArch == other.gpuArch && builtArchs == other.builtArchs &&
           driverCuda == other.driverCuda && status == other.status;
}

QJsonObject ErrorLog::toJson() const
{
    QJsonArray array;
    for (const LogSignature &signature : signatures)
        array.append(signature.toJson());
    return {{QStringLiteral("signatures"), array}};
}

ErrorLog ErrorLog::fromJson(const QJsonObject &object)
{
    ErrorLog log;
    for (const QJsonValue &signature : object.value(QStringLiteral("signatures")).toArray())
        log.signatures.append(LogSignature::fromJson(signature.toObject()));
    return log;
}

ErrorLog readErrorLog(const QString &text)
{
    ErrorLog log;
    log.signatures = readLogSignatures(text);
    log.folders = foldersNear(text, log.signatures);
    std::stable_sort(log.signatures.begin(), log.signatures.end(),
                     [](const LogSignature &a, const LogSignature &b) { return a.line < b.line; });
    return log;
}

QString errorLogText(const QByteArray &bytes)
{
    if (bytes.startsWith("\xFF\xFE"))
        return QStringDecoder(QStringDecoder::Utf16LE).decode(bytes.mid(2));
    if (bytes.startsWith("\xFE\xFF"))
        return QStringDecoder(QStringDecoder::Utf16BE).decode(bytes.mid(2));
    if (bytes.startsWith("\xEF\xBB\xBF"))
        return QString::fromUtf8(bytes.mid(3));
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = utf8.decode(bytes);
    if (!utf8.hasError())
        return text;
    if (const std::optional<QString> gbk = legacytext::decode(bytes, legacytext::Gbk))
        return *gbk;
    return QString::fromLatin1(bytes);
}

Expected<ErrorLog> readErrorLogFrom(const QString &hostPath)
{
    // Far beyond any log a person pastes; a larger file is something else.
    constexpr qint64 kMaxBytes = 256 * 1024 * 1024;
    const bool standardInput = hostPath == QLatin1String("-");
    const auto tooLarge = [&hostPath] {
        return Finding::error(
            QStringLiteral("doctor.log-too-large"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The log %1 is larger than 256 MB: give the "
                                                 "part around the error."))
                .arg(hostPath));
    };
    QByteArray bytes;
    if (standardInput) {
        const std::optional<QByteArray> input = console::readAll(kMaxBytes);
        if (!input)
            return tooLarge();
        bytes = *input;
    } else {
        bool large = false;
        const bool read = readInPieces(hostPath, [&](const char *data, qint64 size) {
            if (bytes.size() + size > kMaxBytes)
                large = true;
            else
                bytes.append(data, qsizetype(size));
        });
        if (large)
            return tooLarge();
        if (!read)
            return Finding::error(
                QStringLiteral("doctor.log-unreadable"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The log %1 cannot be read.")).arg(hostPath));
    }
    return readErrorLog(errorLogText(bytes));
}

namespace {

// What a signature says happened (message) and what to do about it (fix).
struct SignatureWords
{
    Text message;
    Text fix;
};

SignatureWords missingSymbolWords(const LogSignature &signature)
{
    SignatureWords words;
    words.message = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "cuDNN could not find its own function %1 in its libraries (error "
                                           "%2): its main library and its sub-libraries come from different "
                                           "releases."))
                        .arg(Text::verbatim(signature.symbol),
                             Text::verbatim(QString::number(signature.code.value_or(127))));
    words.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use the libraries of one cuDNN release, all of them: "
                                                     "install cuDNN again from one complete archive."));
    return words;
}

SignatureWords missingLibraryWords(const LogSignature &signature, const QString &library)
{
    SignatureWords words;
    const qint64 code = signature.code.value_or(0);
    ErrorExplanation explanation =
        !signature.dependency.isEmpty()
            ? explainLoaderError(
                  0, QStringLiteral("%1: cannot open shared object file").arg(signature.dependency), library)
        : library.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive) || code != 0
            ? explainLoaderError(int(code == 0 ? 126 : code), {}, library)
            : explainLoaderError(0, QStringLiteral("%1: cannot open shared object file").arg(library),
                                 library);
    words.message =
        signature.cudnnMajor > 0
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded. %2 It belongs to cuDNN %3: "
                                                   "the program needs cuDNN %3 itself, whatever other "
                                                   "cuDNN is installed."))
                  .arg(Text::verbatim(library), explanation.cause)
                  .arg(qint64(signature.cudnnMajor))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded. %2"))
                  .arg(Text::verbatim(library), explanation.cause);
    words.fix = explanation.fix;
    return words;
}

SignatureWords versionMismatchWords(const LogSignature &signature)
{
    SignatureWords words;
    if (!signature.status.isEmpty()) {
        const ErrorExplanation explanation =
            explainCudnnStatusName(signature.status)
                .value_or(explainCudnnStatus(14, 8)); // CUDNN_STATUS_VERSION_MISMATCH
        words.message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN reported %1: %2"))
                            .arg(Text::verbatim(signature.status), explanation.cause);
        words.fix = explanation.fix;
    } else {
        words.message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The program was built for cuDNN %1 but loaded cuDNN %2 at run "
                                   "time: an older copy was found first."))
                .arg(signature.expectedCudnn.isEmpty() ? QStringLiteral("?") : signature.expectedCudnn,
                     signature.loadedCudnn.isEmpty() ? QStringLiteral("?") : signature.loadedCudnn);
        words.fix = Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Let the program find a cuDNN of the same major version and at least the "
                          "version it was built with: update the older copy, or remove its folder "
                          "from LD_LIBRARY_PATH or PATH so that the program's own cuDNN is found."));
    }
    return words;
}

SignatureWords gpuArchWords(const LogSignature &signature)
{
    SignatureWords words;
    const ErrorExplanation noKernel = explainCudaError(209);
    words.message =
        signature.gpuArch.isEmpty()
            ? noKernel.cause
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "This GPU (%1) is not among the architectures the "
                                                   "program was built for (%2)."))
                  .arg(signature.gpuArch, signature.builtArchs.isEmpty()
                                              ? QStringLiteral("?")
                                              : signature.builtArchs.join(QLatin1Char(' ')));
    words.fix = Text(QT_TRANSLATE_NOOP(
        "cudnnsetup", "Install a build of the framework made for this GPU: for torch, a wheel whose "
                      "CUDA version supports it (RTX 50 series, sm_120: cu128 or newer; cards "
                      "before Turing: cu126)."));
    return words;
}

SignatureWords driverTooOldWords(const LogSignature &signature)
{
    SignatureWords words;
    words.message =
        signature.driverCuda.isEmpty()
            ? explainCudaError(35).cause
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "The NVIDIA driver supports CUDA up to %1 only, older "
                                                   "than the CUDA the program was built for."))
                  .arg(signature.driverCuda);
    words.fix = explainCudaError(35).fix;
    return words;
}

SignatureWords cpuOnlyBuildWords()
{
    SignatureWords words;
    words.message = Text(
        QT_TRANSLATE_NOOP("cudnnsetup", "The framework installed is a CPU-only build: it cannot use the GPU, "
                                        "whatever cuDNN is installed."));
    words.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Install its GPU build instead: for torch, the wheel from "
                                       "download.pytorch.org/whl/cuXXX that the driver supports; for "
                                       "PaddlePaddle, paddlepaddle-gpu; OpenCV needs a build with CUDA."));
    return words;
}

SignatureWords cudnnStatusWords(const LogSignature &signature)
{
    SignatureWords words;
    const std::optional<ErrorExplanation> explanation = explainCudnnStatusName(signature.status);
    words.message =
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN reported %1: %2"))
            .arg(Text::verbatim(signature.status),
                 explanation ? explanation->cause
                             : Text(QT_TRANSLATE_NOOP("cudnnsetup", "a status this version does not "
                                                                    "know.")));
    words.fix = explanation ? explanation->fix : explainCudnnStatus(4, 8).fix;
    return words;
}

SignatureWords crashCodeWords(const LogSignature &signature)
{
    SignatureWords words;
    const bool fastFail = signature.code == 0xC0000409LL;
    words.message =
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The program ended with code %1 (%2) while loading cuDNN, without an error "
                               "message: typically a program built for cuDNN 8 (CTranslate2, "
                               "faster-whisper) that found cuDNN 9, or files of two cuDNN releases mixed."))
            .arg(QStringLiteral("0x%1").arg(QString::number(signature.code.value_or(0), 16).toUpper()),
                 fastFail ? QStringLiteral("STATUS_STACK_BUFFER_OVERRUN")
                          : QStringLiteral("STATUS_ACCESS_VIOLATION"));
    words.fix = Text(QT_TRANSLATE_NOOP(
        "cudnnsetup", "Give the program the cuDNN major version it was built for, in its own folder "
                      "or first on its search path (cuDNN 8.9 for CUDA 12 for CTranslate2 before "
                      "4.5), and keep the files of one cuDNN release together."));
    return words;
}

SignatureWords wslLibcudaWords(const QString &library)
{
    SignatureWords words;
    words.message =
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Under WSL2 the loader did not find the Windows driver's %1 as it expects "
                               "(in /usr/lib/wsl/lib, known to ldconfig)."))
            .arg(library);
    words.fix = Text(QT_TRANSLATE_NOOP(
        "cudnnsetup", "Do not install a Linux NVIDIA driver inside WSL; make /usr/lib/wsl/lib known "
                      "to the loader (a file in /etc/ld.so.conf.d naming it, then sudo ldconfig) or "
                      "add it to LD_LIBRARY_PATH. The \"is not a symbolic link\" warning alone is "
                      "harmless."));
    return words;
}

SignatureWords signatureWords(const LogSignature &signature, const QString &library)
{
    if (signature.kind == QLatin1String("missing-library") && !signature.symbol.isEmpty())
        return missingSymbolWords(signature);
    if (signature.kind == QLatin1String("missing-library"))
        return missingLibraryWords(signature, library);
    if (signature.kind == QLatin1String("version-mismatch"))
        return versionMismatchWords(signature);
    if (signature.kind == QLatin1String("gpu-arch-unsupported"))
        return gpuArchWords(signature);
    if (signature.kind == QLatin1String("driver-too-old"))
        return driverTooOldWords(signature);
    if (signature.kind == QLatin1String("cpu-only-build"))
        return cpuOnlyBuildWords();
    if (signature.kind == QLatin1String("cudnn-status"))
        return cudnnStatusWords(signature);
    if (signature.kind == QLatin1String("crash-code"))
        return crashCodeWords(signature);
    if (signature.kind == QLatin1String("wsl-libcuda"))
        return wslLibcudaWords(library);
    return {};
}

} // namespace

Finding explainSignature(const LogSignature &signature, const FileSystem *system)
{
    const QString library = signature.library.isEmpty() ? QStringLiteral("?") : signature.library;
    SignatureWords words = signatureWords(signature, library);
    if (system) {
        // A folder the error names that this system has: the error likely came from here.
        for (const QString &folder : foldersNamedIn(signature.excerpt)) {
            if (system->isDir(folder))
                words.message =
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 The folder %2 named in the error exists on "
                                                         "this system."))
                        .arg(words.message, Text::verbatim(folder));
        }
    }
    return Finding::error(QStringLiteral("log.%1").arg(signature.kind), words.message,
                          QStringLiteral("line %1: %2").arg(signature.line).arg(signature.excerpt),
                          words.fix);
}

} // namespace cudnnsetup
