#include "detect/Detector.h"

#include "common/Logging.h"
#include "detect/Consumers.h"
#include "detect/CudaToolkitProbe.h"
#include "detect/CudnnProbe.h"
#include "detect/EnvironmentProbe.h"
#include "detect/GpuProbe.h"
#include "detect/OsProbe.h"
#include "detect/PackageDatabase.h"
#include "detect/PythonEnvironments.h"
#include "detect/PythonFacts.h"
#include "detect/PythonProbe.h"
#include "platform/SystemContext.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup {

SystemSnapshot detectSystem(const SystemContext &context, const DetectOptions &options)
{
    QElapsedTimer timer;
    timer.start();
    SystemSnapshot snapshot;
    snapshot.createdAt = QDateTime::currentDateTimeUtc();
    if (context.files().isRooted())
        snapshot.systemRoot = context.files().root();

    if (!context.isLive()) {
        snapshot.findings.append(Finding::info(
            QStringLiteral("detect.system-root"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Inspecting the files under %1. Registry values and the live driver "
                                   "belong to the running system and are reported as unknown."))
                .arg(context.files().root())));
    }

    options.report(0.0, QCoreApplication::translate("cudnnsetup", "Reading the operating system"));
    snapshot.os = probeOs(context, snapshot.findings);

    const QList<PythonEnvironment> environments = findPythonEnvironments(context);
    Findings pythonFindings;
    QFuture<QList<PythonInstall>> pythons =
        QtConcurrent::run([&context, &environments, &options, &pythonFindings] {
            return probePythons(context, environments, options, pythonFindings);
        });

    options.report(0.15,
                   QCoreApplication::translate("cudnnsetup", "Asking the NVIDIA driver about the GPUs"));
    GpuProbeResult gpus = probeGpus(context, options, snapshot.findings);
    snapshot.gpus = gpus.gpus;
    snapshot.driver = gpus.driver;

    options.report(0.4, QCoreApplication::translate("cudnnsetup", "Looking for CUDA toolkits"));
    const PackageDatabase packages = PackageDatabase::read(context);
    snapshot.cudaToolkits = probeCudaToolkits(context, packages, options, snapshot.findings);

    options.report(0.6, QCoreApplication::translate("cudnnsetup", "Looking for cuDNN copies"));
    snapshot.cudnn =
        probeCudnn(context, snapshot.cudaToolkits, environments, packages, options, snapshot.findings);
    snapshot.zlibwapi = findZlibwapi(context, snapshot.cudnn);
    snapshot.environment = probeEnvironment(context, snapshot.cudaToolkits, snapshot.findings);

    options.report(
        0.8, options.probePythons
                 ? QCoreApplication::translate("cudnnsetup", "Asking the Python interpreters about torch")
                 : QCoreApplication::translate("cudnnsetup", "Reading the Python environments' files"));
    snapshot.pythons = pythons.result();
    attachCudnnVersions(snapshot.pythons, snapshot.cudnn, context);
    snapshot.findings += pythonFindings;
    snapshot.consumers = findConsumers(context, environments, options.appFolders, snapshot.cudnn);

    options.report(1.0, QCoreApplication::translate("cudnnsetup", "Done"));
    qCInfo(lcDetect) << "detection took" << timer.elapsed() << "ms";
    return snapshot;
}

} // namespace cudnnsetup
