// The probe child's work with the stand-in cuDNN and CUDA runtime DLLs, loaded by full path: the
// versions, the GPU stage without a driver, with a (stand-in) GPU, with a wrong result, and a set
// that cannot load because zlibwapi.dll is missing.
#include "BuildPaths.h"
#include "Suite.h"
#include "detect/VersionParsers.h"
#include "platform/LibraryLoader.h"
#include "verify/LibraryProbe.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kStandins = BuildPaths::standins();

// A family's DLLs by full path, the main library (cudnn64_N.dll) first, as a verification asks.
QStringList familyLibraries(const QString &family, const QString &mainLibrary)
{
    const QDir folder(QFileInfo(kStandins + QLatin1Char('/') + family).absoluteFilePath());
    QStringList libraries{folder.filePath(mainLibrary)};
    for (const QString &name : folder.entryList({QStringLiteral("cudnn_*.dll")}, QDir::Files, QDir::Name))
        libraries.append(folder.filePath(name));
    // As the verifier lists them: a sub-library after those it imports (cudnn_cnn after cudnn_ops).
    return versions::cudnnLibrariesInLoadOrder(libraries);
}

ProbeRequest request918()
{
    ProbeRequest request;
    request.libraries = familyLibraries(QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("cudnn64_9.dll"));
    request.cudartCandidates = {QStringLiteral("cudart64_13.dll"), QStringLiteral("cudart64_12.dll")};
    return request;
}

bool samePath(const QString &a, const QString &b)
{
    return QDir::cleanPath(a).compare(QDir::cleanPath(b), Qt::CaseInsensitive) == 0;
}

} // namespace

class TestWinProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The CUDA runtime is found on PATH, as on a machine with the CUDA toolkit installed; the
    // cuDNN folders are not on it.
    void initTestCase()
    {
        m_savedPath = qgetenv("PATH");
        const QString cuda = QFileInfo(kStandins + QStringLiteral("/cuda-12.2")).absoluteFilePath();
        qputenv("PATH", QDir::toNativeSeparators(cuda).toLocal8Bit() + ';' + m_savedPath);
    }

    void init()
    {
        qunsetenv("CUDNN_STANDIN_GPUS");
        qunsetenv("CUDNN_STANDIN_WRONG_RESULT");
    }

    void cleanupTestCase()
    {
        qputenv("PATH", m_savedPath);
        qunsetenv("CUDNN_STANDIN_GPUS");
        qunsetenv("CUDNN_STANDIN_WRONG_RESULT");
    }

    void setLoadsAndTheGpuStageIsSkippedWithoutADriver()
    {
        const ProbeRequest request = request918();
        QCOMPARE(request.libraries.size(), 8); // cudnn64_9.dll and its seven sub-libraries
        const ProbeResult result = runProbe(request, LibraryLoader());
        QCOMPARE(result.loads.size(), request.libraries.size());
        for (int i = 0; i < result.loads.size(); ++i) {
            QVERIFY2(result.loads[i].loaded(), qPrintable(result.loads[i].errorString));
            QVERIFY2(samePath(result.loads[i].loadedFrom, request.libraries[i]),
                     qPrintable(result.loads[i].loadedFrom));
        }
        QCOMPARE(result.cudnnVersion, std::optional<qint64>(91800));
        QCOMPARE(result.cudnnCudartVersion, std::optional<qint64>(12020));

        const ProbeGpu &gpu = result.gpu;
        QCOMPARE(gpu.status, ProbeGpu::Status::Skipped);
        QCOMPARE(gpu.stage, QStringLiteral("device"));
        QVERIFY2(
            gpu.cudartLoadedFrom.endsWith(QStringLiteral("cuda-12.2/cudart64_12.dll"), Qt::CaseInsensitive),
            qPrintable(gpu.cudartLoadedFrom));
        QCOMPARE(gpu.cudaRuntimeVersion, std::optional<int>(12020));
        QCOMPARE(gpu.cudaDriverVersion, std::optional<int>(0));
        QCOMPARE(gpu.cudaError, std::optional<int>(35));
        QCOMPARE(gpu.cudaErrorName, QStringLiteral("cudaErrorInsufficientDriver"));
        QVERIFY2(gpu.reason.contains(
                     QStringLiteral("cudaGetDeviceCount returned 35 (cudaErrorInsufficientDriver)")),
                 qPrintable(gpu.reason));
        QVERIFY(!gpu.cudnnStatus);
    }

    void convolutionPassesOnAGpu()
    {
        qputenv("CUDNN_STANDIN_GPUS", "1");
        const ProbeResult result = runProbe(request918(), LibraryLoader());
        const ProbeGpu &gpu = result.gpu;
        QVERIFY2(gpu.status == ProbeGpu::Status::Passed,
                 qPrintable(gpu.stage + QStringLiteral(": ") + gpu.reason));
        QVERIFY(gpu.stage.isEmpty());
        QCOMPARE(gpu.deviceCount, 1);
        QCOMPARE(gpu.deviceName, QStringLiteral("Stand-in GPU"));
        QCOMPARE(gpu.cudaDriverVersion, std::optional<int>(12020));
        QVERIFY(gpu.maxAbsoluteError);
        QVERIFY(gpu.tolerance > 0);
        QVERIFY2(*gpu.maxAbsoluteError <= gpu.tolerance, qPrintable(QString::number(*gpu.maxAbsoluteError)));
        QVERIFY(!gpu.cudaError);
        QVERIFY(!gpu.cudnnStatus);
        QStringList steps;
        for (const auto &step : gpu.milliseconds)
            steps.append(step.first);
        QCOMPARE(steps, (QStringList{QStringLiteral("cudart"), QStringLiteral("device"),
                                     QStringLiteral("handle"), QStringLiteral("convolution"),
                                     QStringLiteral("compare"), QStringLiteral("destroy")}));
    }

    void wrongResultFailsTheComparison()
    {
        qputenv("CUDNN_STANDIN_GPUS", "1");
        qputenv("CUDNN_STANDIN_WRONG_RESULT", "1");
        const ProbeResult result = runProbe(request918(), LibraryLoader());
        const ProbeGpu &gpu = result.gpu;
        QCOMPARE(gpu.status, ProbeGpu::Status::Failed);
        QCOMPARE(gpu.stage, QStringLiteral("compare"));
        QVERIFY(gpu.maxAbsoluteError);
        QVERIFY2(*gpu.maxAbsoluteError > gpu.tolerance, qPrintable(gpu.reason));
        QVERIFY2(gpu.reason.contains(QStringLiteral("differs from the CPU reference")),
                 qPrintable(gpu.reason));
    }

    // cuDNN 8.9.7 imports zlibwapi.dll, which NVIDIA does not ship: without it the main library
    // cannot load (126), and neither can the sub-libraries that import it.
    void setWithoutZlibwapiFails126()
    {
        ProbeRequest request;
        request.libraries =
            familyLibraries(QStringLiteral("cudnn-8.9.7.29"), QStringLiteral("cudnn64_8.dll"));
        request.cudartCandidates = {QStringLiteral("cudart64_12.dll")};
        QVERIFY(!QFileInfo::exists(
            QFileInfo(request.libraries.first()).dir().filePath(QStringLiteral("zlibwapi.dll"))));
        const ProbeResult result = runProbe(request, LibraryLoader());
        QCOMPARE(result.loads.size(), 7); // cudnn64_8.dll and six sub-libraries
        for (const ProbeLoad &load : result.loads) {
            QVERIFY2(!load.loaded(), qPrintable(load.name));
            QCOMPARE(load.errorCode, 126);
        }
        QVERIFY2(
            result.loads.first().errorString.contains(QLatin1String("cudnn64_8.dll"), Qt::CaseInsensitive),
            qPrintable(result.loads.first().errorString));
        QVERIFY(!result.cudnnVersion);
        QCOMPARE(result.gpu.status, ProbeGpu::Status::Skipped);
        QVERIFY2(result.gpu.reason.contains(QStringLiteral("did not load")), qPrintable(result.gpu.reason));
    }

private:
    QByteArray m_savedPath;
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinProbe)
#include "tst_win_probe.moc"
