#include "detect/PythonProbe.h"

#include "common/Logging.h"
#include "detect/PythonFacts.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"

#include <algorithm>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

namespace cudnnsetup {

QString pythonProbeScript()
{
    static const QString script = [] {
        QFile file(QStringLiteral(":/probes/python_probe.py"));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }();
    return script;
}

std::optional<QJsonObject> probeOutputObject(const QByteArray &output)
{
    const QByteArray marker("CUDNNSETUP-PROBE ");
    const qsizetype at = output.lastIndexOf(marker);
    if (at < 0)
        return std::nullopt;
    const qsizetype end = output.indexOf('\n', at);
    const QByteArray json = output.mid(at + marker.size(), end < 0 ? -1 : end - at - marker.size());
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

bool readProbeOutput(const QByteArray &output, PythonInstall &python)
{
    const std::optional<QJsonObject> probed = probeOutputObject(output);
    if (!probed)
        return false;
    const QJsonObject &object = *probed;
    python.version = object.value(QStringLiteral("version")).toString();
    python.tensorflow = object.value(QStringLiteral("tensorflow")).toString();
    if (python.tensorflow.isEmpty())
        python.tensorflow = QString();
    if (!python.bits)
        python.bits = object.value(QStringLiteral("bits")).toInt();
    const QJsonValue torchValue = object.value(QStringLiteral("torch"));
    if (torchValue.isObject()) {
        const QJsonObject torchObject = torchValue.toObject();
        TorchInfo torch;
        torch.version = torchObject.value(QStringLiteral("version")).toString();
        const QJsonValue cuda = torchObject.value(QStringLiteral("cuda"));
        torch.cuda = cuda.isString() ? cuda.toString() : QString();
        const QJsonValue cudnn = torchObject.value(QStringLiteral("cudnn"));
        if (cudnn.isDouble()) {
            const Version version = versions::fromCudnnVersionNumber(qint64(cudnn.toDouble()));
            if (version.isValid())
                torch.cudnn = version.toString();
        }
        torch.cudnnLoadedFrom = torchObject.value(QStringLiteral("cudnnLoadedFrom")).toString();
        if (torch.cudnnLoadedFrom.isEmpty())
            torch.cudnnLoadedFrom = QString();
        const QJsonValue available = torchObject.value(QStringLiteral("cudaAvailable"));
        if (available.isBool())
            torch.cudaAvailable = available.toBool();
        const QString torchError = torchObject.value(QStringLiteral("error")).toString();
        if (!torchError.isEmpty())
            python.probeError = QStringLiteral("import torch: %1").arg(torchError);
        python.torch = torch;
    }
    return true;
}

QList<PythonInstall> probePythons(const SystemContext &context, const QList<PythonEnvironment> &environments,
                                  const DetectOptions &options, Findings &findings)
{
    QList<PythonEnvironment> runnable;
    for (const PythonEnvironment &environment : environments) {
        if (!environment.interpreter.isEmpty())
            runnable.append(environment);
    }
    const QString script = pythonProbeScript();
    const bool canRun = context.family() == hostOsFamily() && !script.isEmpty();
    const std::function<PythonInstall(const PythonEnvironment &)> probe =
        [&](const PythonEnvironment &environment) {
            const PythonInstall fromFiles = pythonFromFiles(context, environment);
            if (!options.probePythons || options.cancelled() || !canRun)
                return fromFiles;
            const ProcessResult result = context.run(environment.interpreter, {QStringLiteral("-c"), script},
                                                     options.pythonTimeoutMs, options.cancel);
            PythonInstall asked = fromFiles;
            asked.torch.reset();
            asked.tensorflow.clear();
            if (!readProbeOutput(result.standardOutput, asked)) {
                PythonInstall failed = fromFiles;
                failed.probeError = result.summary();
                return failed;
            }
            asked.factsFrom = QStringLiteral("interpreter");
            return asked;
        };
    // Interpreters mostly wait (importing torch); give each its own thread, whatever the core count.
    QThreadPool pool;
    pool.setMaxThreadCount(int(std::clamp<qsizetype>(runnable.size(), 1, 16)));
    QList<PythonInstall> pythons = QtConcurrent::blockingMapped<QList<PythonInstall>>(&pool, runnable, probe);

    for (const PythonInstall &python : std::as_const(pythons)) {
        if (!python.probeError.isEmpty()) {
            findings.append(Finding::warning(
                QStringLiteral("python.probe-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The Python interpreter %1 could not be asked about its torch build."))
                    .arg(python.path),
                python.probeError));
        }
        qCDebug(lcDetect) << "python" << python.path << python.version << python.bits
                          << (python.torch ? python.torch->version : QString());
    }
    return pythons;
}

} // namespace cudnnsetup
