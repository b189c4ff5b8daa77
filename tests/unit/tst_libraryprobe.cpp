// The probe a verification runs in a fresh process: its JSON, and what it finds with the real cuDNN
// and CUDA runtime libraries of /usr/local/cuda-13.0 on a machine without an NVIDIA driver.
#include "ElfImage.h"
#include "Suite.h"
#include "platform/LibraryLoader.h"
#include "verify/LibraryProbe.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kCudaRoot = QStringLiteral("/usr/local/cuda-13.0");

// libcudnn.so.9 first, then each sub-library, by full path; empty without the real libraries
// (and on Windows, where Wine shows the Linux files too).
QStringList realCudnnLibraries()
{
#ifdef Q_OS_LINUX
    const QDir lib(kCudaRoot + QStringLiteral("/lib"));
    if (!lib.exists(QStringLiteral("libcudnn.so.9")))
        return {};
    QStringList libraries{lib.filePath(QStringLiteral("libcudnn.so.9"))};
    for (const QString &name : lib.entryList({QStringLiteral("libcudnn_*.so.9")}, QDir::Files, QDir::Name))
        libraries.append(lib.filePath(name));
    return libraries;
#else
    return {};
#endif
}

// CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL, as cudnn_version.h defines them.
qint64 headerVersion()
{
    QFile header(kCudaRoot + QStringLiteral("/include/cudnn_version.h"));
    if (!header.open(QIODevice::ReadOnly))
        return -1;
    const QString text = QString::fromUtf8(header.readAll());
    const auto define = [&](const char *name) {
        const QRegularExpression pattern(QStringLiteral("#define\\s+%1\\s+(\\d+)").arg(QLatin1String(name)));
        const QRegularExpressionMatch match = pattern.match(text);
        return match.hasMatch() ? match.captured(1).toLongLong() : -1000000;
    };
    return define("CUDNN_MAJOR") * 10000 + define("CUDNN_MINOR") * 100 + define("CUDNN_PATCHLEVEL");
}

// A library every machine has that exports nothing of cuDNN.
QString foreignLibrary()
{
#ifdef Q_OS_WIN
    return QStringLiteral("kernel32.dll");
#else
    return QStringLiteral("libz.so.1");
#endif
}

QStringList stepNames(const ProbeGpu &gpu)
{
    QStringList names;
    for (const auto &step : gpu.milliseconds)
        names.append(step.first);
    return names;
}

} // namespace

class TestLibraryProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requestRoundTrip()
    {
        ProbeRequest request;
        request.libraries = {QStringLiteral("cudnn64_9.dll"),
                             QStringLiteral("C:/cuDNN 中文/cudnn_ops64_9.dll")};
        request.cudartCandidates = {QStringLiteral("cudart64_13.dll"), QStringLiteral("cudart64_12.dll")};
        request.gpu = false;
        request.consumerModules = {QStringLiteral("C:/Apps/Whisper/ctranslate2.dll")};
        const Expected<ProbeRequest> back = ProbeRequest::fromJson(request.toJson());
        QVERIFY(back);
        QCOMPARE(back->libraries, request.libraries);
        QCOMPARE(back->consumerModules, request.consumerModules);
        QCOMPARE(back->cudartCandidates, request.cudartCandidates);
        QCOMPARE(back->gpu, false);
        QCOMPARE(back->toJson(), request.toJson());

        // verify --for: a program's modules alone, nothing loaded before them.
        ProbeRequest modulesOnly;
        modulesOnly.consumerModules = request.consumerModules;
        const Expected<ProbeRequest> alone = ProbeRequest::fromJson(modulesOnly.toJson());
        QVERIFY2(alone, qPrintable(alone ? QString() : alone.error().details));
        QCOMPARE(alone->consumerModules, modulesOnly.consumerModules);
        QVERIFY(!ProbeRequest::fromJson(ProbeRequest().toJson()));
    }

    void resultRoundTrip_data()
    {
        QTest::addColumn<ProbeResult>("result");
        ProbeResult passed;
        passed.loads = {{QStringLiteral("cudnn64_9.dll"),
                         QStringLiteral("C:/Program Files/cuDNN/cudnn64_9.dll"),
                         0,
                         {},
                         1.25},
                        {QStringLiteral("cudnn_ops64_9.dll"),
                         {},
                         126,
                         QStringLiteral("cudnn_ops64_9.dll: not found"),
                         0.5}};
        passed.cudnnVersion = 91800;
        passed.cudnnCudartVersion = 12020;
        passed.cudnnBound = {QStringLiteral("C:/Program Files/cuDNN/cudnn64_9.dll")};
        passed.gpu.status = ProbeGpu::Status::Passed;
        passed.gpu.cudartLoadedFrom = QStringLiteral("C:/CUDA/bin/cudart64_12.dll");
        passed.gpu.cudaRuntimeVersion = 12020;
        passed.gpu.cudaDriverVersion = 12080;
        passed.gpu.deviceCount = 2;
        passed.gpu.deviceName = QStringLiteral("NVIDIA GeForce RTX 4090");
        passed.gpu.maxAbsoluteError = 3.5e-6;
        passed.gpu.tolerance = 1e-4;
        passed.gpu.milliseconds = {{QStringLiteral("cudart"), 2.5}, {QStringLiteral("compare"), 0.125}};
        passed.totalMilliseconds = 812.5;
        QTest::newRow("passed, all values") << passed;

        ProbeResult failed;
        failed.loads = {
            {QStringLiteral("libcudnn.so.9"), QStringLiteral("/usr/lib/libcudnn.so.9"), 0, {}, 3}};
        failed.gpu.status = ProbeGpu::Status::Failed;
        failed.gpu.stage = QStringLiteral("handle");
        failed.gpu.reason = QStringLiteral("cudnnCreate returned 1001 (CUDNN_STATUS_NOT_INITIALIZED)");
        failed.gpu.cudnnStatus = 1001;
        failed.gpu.cudnnStatusName = QStringLiteral("CUDNN_STATUS_NOT_INITIALIZED");
        QTest::newRow("failed, versions unknown") << failed;

        ProbeResult skipped;
        skipped.gpu.stage = QStringLiteral("device");
        skipped.gpu.cudaError = 35;
        skipped.gpu.cudaErrorName = QStringLiteral("cudaErrorInsufficientDriver");
        skipped.gpu.cudaDriverVersion = 0;
        QTest::newRow("skipped, nothing loaded") << skipped;
    }

    void resultRoundTrip()
    {
        QFETCH(ProbeResult, result);
        const QJsonObject json = result.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QLatin1String(ProbeResult::kSchema));
        const Expected<ProbeResult> back = ProbeResult::fromJson(json);
        QVERIFY2(back, qPrintable(back.error().details));
        QCOMPARE(back->toJson(), json);
        QCOMPARE(back->loads.size(), result.loads.size());
        for (int i = 0; i < result.loads.size(); ++i) {
            QCOMPARE(back->loads[i].loadedFrom, result.loads[i].loadedFrom);
            QCOMPARE(back->loads[i].loaded(), result.loads[i].loaded());
            QCOMPARE(back->loads[i].errorCode, result.loads[i].errorCode);
        }
        QCOMPARE(back->cudnnVersion, result.cudnnVersion);
        QCOMPARE(back->cudnnCudartVersion, result.cudnnCudartVersion);
        QCOMPARE(back->cudnnBound, result.cudnnBound);
        QCOMPARE(back->gpu.status, result.gpu.status);
        QCOMPARE(back->gpu.cudaError, result.gpu.cudaError);
        QCOMPARE(back->gpu.cudaDriverVersion, result.gpu.cudaDriverVersion);
        QCOMPARE(back->gpu.cudnnStatus, result.gpu.cudnnStatus);
        QCOMPARE(back->gpu.maxAbsoluteError, result.gpu.maxAbsoluteError);
        QCOMPARE(back->gpu.milliseconds, result.gpu.milliseconds);
        // Unknown is null, not 0.
        if (!result.cudnnVersion)
            QVERIFY(json.value(QStringLiteral("cudnnVersion")).isNull());
    }

    void malformedJsonIsAFinding_data()
    {
        QTest::addColumn<QJsonObject>("object");
        QTest::addColumn<bool>("isRequest");
        const QJsonObject result = ProbeResult().toJson();
        QJsonObject wrongSchema = result;
        wrongSchema.insert(QStringLiteral("schema"), QStringLiteral("cudnn-setup/verify/1"));
        QJsonObject loadsNotArray = result;
        loadsNotArray.insert(QStringLiteral("loads"), QStringLiteral("cudnn64_9.dll"));
        QJsonObject gpuMissing = result;
        gpuMissing.remove(QStringLiteral("gpu"));
        QJsonObject unknownStatus = result;
        QJsonObject gpu = unknownStatus.value(QStringLiteral("gpu")).toObject();
        gpu.insert(QStringLiteral("status"), QStringLiteral("maybe"));
        unknownStatus.insert(QStringLiteral("gpu"), gpu);
        QTest::newRow("result: wrong schema") << wrongSchema << false;
        QTest::newRow("result: loads not an array") << loadsNotArray << false;
        QTest::newRow("result: no gpu object") << gpuMissing << false;
        QTest::newRow("result: unknown GPU status") << unknownStatus << false;
        QTest::newRow("result: empty") << QJsonObject() << false;
        QTest::newRow("request: empty") << QJsonObject() << true;
        QTest::newRow("request: no libraries")
            << QJsonObject{{QStringLiteral("libraries"), QJsonArray()},
                           {QStringLiteral("cudartCandidates"), QJsonArray()}}
            << true;
        QTest::newRow("request: libraries a string")
            << QJsonObject{{QStringLiteral("libraries"), QStringLiteral("cudnn64_9.dll")},
                           {QStringLiteral("cudartCandidates"), QJsonArray()}}
            << true;
    }

    void malformedJsonIsAFinding()
    {
        QFETCH(QJsonObject, object);
        QFETCH(bool, isRequest);
        const Finding error =
            isRequest ? ProbeRequest::fromJson(object).error() : ProbeResult::fromJson(object).error();
        QCOMPARE(error.id,
                 isRequest ? QStringLiteral("probe.invalid-request") : QStringLiteral("probe.invalid"));
        QCOMPARE(error.severity, Severity::Error);
        QVERIFY(!error.message.isEmpty());
        QVERIFY(!error.details.isEmpty());
    }

    void realLibrariesLoadAndTheGpuStageIsSkippedWithoutADriver()
    {
        const QStringList libraries = realCudnnLibraries();
        if (libraries.isEmpty())
            QSKIP("no Linux cuDNN 9 in /usr/local/cuda-13.0/lib");
        const QString cudart = kCudaRoot + QStringLiteral("/lib/libcudart.so.13");
        ProbeRequest request;
        request.libraries = libraries;
        request.cudartCandidates = {QStringLiteral("libcudart-missing.so.13"), cudart};
        const ProbeResult result = runProbe(request, LibraryLoader());

        QCOMPARE(result.loads.size(), libraries.size());
        QVERIFY(libraries.size() >= 8); // main + adv, cnn, engines x2, graph, heuristic, ops
        for (int i = 0; i < libraries.size(); ++i) {
            const ProbeLoad &load = result.loads[i];
            QCOMPARE(load.name, libraries[i]);
            QVERIFY2(load.loaded(), qPrintable(load.errorString));
            QCOMPARE(QFileInfo(load.loadedFrom).canonicalFilePath(),
                     QFileInfo(libraries[i]).canonicalFilePath());
            QCOMPARE(load.errorCode, 0);
            QVERIFY(load.milliseconds > 0);
        }
        QCOMPARE(result.cudnnVersion, std::optional<qint64>(headerVersion()));
        QVERIFY(result.cudnnCudartVersion);

        const ProbeGpu &gpu = result.gpu;
        QCOMPARE(gpu.status, ProbeGpu::Status::Skipped);
        QCOMPARE(gpu.stage, QStringLiteral("device"));
        QCOMPARE(QFileInfo(gpu.cudartLoadedFrom).canonicalFilePath(), QFileInfo(cudart).canonicalFilePath());
        QVERIFY(gpu.cudaRuntimeVersion);
        // cuDNN reports the CUDA it was built for; the runtime beside it is of the same major.
        QCOMPARE(*gpu.cudaRuntimeVersion / 1000, int(*result.cudnnCudartVersion / 1000));
        QVERIFY(gpu.cudaError);
        const int error = *gpu.cudaError;
        QVERIFY2(error == 35 || error == 100, qPrintable(gpu.reason));
        QCOMPARE(gpu.cudaErrorName, error == 35 ? QStringLiteral("cudaErrorInsufficientDriver")
                                                : QStringLiteral("cudaErrorNoDevice"));
        QVERIFY2(gpu.reason.contains(
                     QStringLiteral("cudaGetDeviceCount returned %1 (%2)").arg(error).arg(gpu.cudaErrorName)),
                 qPrintable(gpu.reason));
        QVERIFY2(gpu.reason.contains(error == 35 ? QStringLiteral("driver") : QStringLiteral("GPU")),
                 qPrintable(gpu.reason));
        QCOMPARE(gpu.deviceCount, 0);
        QVERIFY(!gpu.maxAbsoluteError);
        QCOMPARE(stepNames(gpu), (QStringList{QStringLiteral("cudart"), QStringLiteral("device")}));
        QVERIFY(result.totalMilliseconds > 0);

        // What the child prints, the parent reads back the same.
        const Expected<ProbeResult> back = ProbeResult::fromJson(result.toJson());
        QVERIFY(back);
        QCOMPARE(back->toJson(), result.toJson());
    }

    void missingLibraryFailsInTheLoadersWords()
    {
        const QString missing =
            QDir(QDir::tempPath()).filePath(QStringLiteral("no-such-folder/libcudnn.so.9"));
        const LoadResult direct = LibraryLoader().load(missing, LibraryLoader::Search::Standard);
        QVERIFY(!direct.library);
        ProbeRequest request;
        request.libraries = {missing, foreignLibrary()};
        const ProbeResult result = runProbe(request, LibraryLoader());
        QCOMPARE(result.loads.size(), 2);
        QVERIFY(!result.loads[0].loaded());
        QVERIFY(result.loads[0].loadedFrom.isNull());
        QCOMPARE(result.loads[0].errorString, direct.errorString);
        QCOMPARE(result.loads[0].errorCode, direct.errorCode);
        QVERIFY(!result.loads[0].errorString.isEmpty());
        QVERIFY(result.loads[1].loaded()); // a later library still loads
        QVERIFY(!result.cudnnVersion);
        QCOMPARE(result.gpu.status, ProbeGpu::Status::Skipped);
        QVERIFY2(result.gpu.reason.contains(QStringLiteral("did not load")), qPrintable(result.gpu.reason));
        QVERIFY(result.gpu.milliseconds.isEmpty());
    }

    void libraryWithoutCudnnExportsIsNoCudnn()
    {
        ProbeRequest request;
        request.libraries = {foreignLibrary()};
        const ProbeResult result = runProbe(request, LibraryLoader());
        QVERIFY2(result.loads[0].loaded(), qPrintable(result.loads[0].errorString));
        QVERIFY(!result.cudnnVersion);
        QVERIFY(!result.cudnnCudartVersion);
        QCOMPARE(result.gpu.status, ProbeGpu::Status::Failed);
        QCOMPARE(result.gpu.stage, QStringLiteral("symbols"));
        QVERIFY2(result.gpu.reason.contains(QStringLiteral("cudnnCreate")), qPrintable(result.gpu.reason));
        QVERIFY2(result.gpu.reason.contains(QStringLiteral("cudnnConvolutionForward")),
                 qPrintable(result.gpu.reason));
    }

    // verify --for: a program's module, loaded by its full path, brings the real cuDNN in through
    // its own RUNPATH; the probe names that file and asks it its version.
    void consumerModuleBindsCudnnByItsRunpath()
    {
        const QStringList real = realCudnnLibraries();
        if (real.isEmpty())
            QSKIP("no cuDNN 9 in /usr/local/cuda-13.0");
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        elfimage::SharedObject program;
        program.soname = QStringLiteral("libprogram.so");
        program.needed = {QStringLiteral("libcudnn.so.9")};
        program.runpath = {kCudaRoot + QStringLiteral("/lib")};
        const QString module = folder.filePath(program.soname);
        QFile file(module);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(elfimage::build(program)) > 0);
        file.close();

        ProbeRequest request;
        request.consumerModules = {module};
        request.gpu = false;
        const ProbeResult result = runProbe(request, LibraryLoader());
        QCOMPARE(result.loads.size(), 1);
        QVERIFY2(result.loads[0].loaded(), qPrintable(result.loads[0].errorString));
        QVERIFY2(result.cudnnBound.contains(real.first()),
                 qPrintable(result.cudnnBound.join(QLatin1Char(' '))));
        QCOMPARE(result.cudnnVersion, std::optional<qint64>(headerVersion()));
        QCOMPARE(result.gpu.status, ProbeGpu::Status::Skipped);
    }

    void gpuStageOnlyWhenAsked()
    {
        ProbeRequest request;
        request.libraries = {foreignLibrary()};
        request.gpu = false;
        const ProbeResult result = runProbe(request, LibraryLoader());
        QVERIFY(result.loads[0].loaded());
        QCOMPARE(result.gpu.status, ProbeGpu::Status::Skipped);
        QVERIFY(result.gpu.stage.isEmpty());
        QVERIFY2(result.gpu.reason.contains(QStringLiteral("not asked")), qPrintable(result.gpu.reason));
        QVERIFY(result.gpu.milliseconds.isEmpty());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestLibraryProbe)
#include "tst_libraryprobe.moc"
