// Runs the real cudnnctl against sandbox roots and checks what it prints and returns.
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"

#include <algorithm>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

QJsonObject copyIn(const QJsonObject &snapshot, const QString &directory)
{
    for (const QJsonValue &copy : snapshot.value(QStringLiteral("cudnn")).toArray()) {
        if (copy.toObject().value(QStringLiteral("directory")).toString() == directory)
            return copy.toObject();
    }
    return {};
}

} // namespace

class TestCudnnctlDetect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonDescribesTheSandbox()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::workstation(sandbox);
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"), QStringLiteral("--lang"),
                         QStringLiteral("en"), QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        const QJsonObject snapshot = outputJson(run);
        QCOMPARE(snapshot.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/snapshot/1"));
        QCOMPARE(snapshot.value(QStringLiteral("systemRoot")).toString(), sandbox.root());

        const QJsonObject gpu = snapshot.value(QStringLiteral("gpus")).toArray().first().toObject();
        QCOMPARE(gpu.value(QStringLiteral("name")).toString(), QStringLiteral("NVIDIA H200"));
        QCOMPARE(gpu.value(QStringLiteral("computeCapability")).toString(), QStringLiteral("9.0"));
        QCOMPARE(gpu.value(QStringLiteral("memoryMiB")).toInt(), 143771);
        QCOMPARE(gpu.value(QStringLiteral("uuid")).toString(),
                 QStringLiteral("GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0"));
        const QJsonObject driver = snapshot.value(QStringLiteral("driver")).toObject();
        QCOMPARE(driver.value(QStringLiteral("version")).toString(), QStringLiteral("580.159.04"));
        QCOMPARE(driver.value(QStringLiteral("maxCuda")).toString(), QStringLiteral("13.0"));

        const QJsonArray toolkits = snapshot.value(QStringLiteral("cudaToolkits")).toArray();
        QCOMPARE(toolkits.size(), 3);
        QStringList versions;
        for (const QJsonValue &toolkit : toolkits)
            versions.append(toolkit.toObject().value(QStringLiteral("version")).toString());
        QCOMPARE(versions,
                 (QStringList{QStringLiteral("13.0.2"), QStringLiteral("12.2.2"), QStringLiteral("11.8.0")}));

        QCOMPARE(snapshot.value(QStringLiteral("cudnn")).toArray().size(), 4);
        const QJsonObject cuda11 =
            copyIn(snapshot, QStringLiteral("/usr/local/cuda-11.8/targets/x86_64-linux/lib"));
        QCOMPARE(cuda11.value(QStringLiteral("version")).toString(), QStringLiteral("8.9.7"));
        QCOMPARE(cuda11.value(QStringLiteral("cudaMajor")).toInt(), 11);
        QVERIFY(cuda11.value(QStringLiteral("loadOrder")).isNull());
        const QJsonObject system = copyIn(snapshot, QStringLiteral("/usr/lib/x86_64-linux-gnu"));
        QCOMPARE(system.value(QStringLiteral("version")).toString(), QStringLiteral("9.14.0"));
        QVERIFY(system.value(QStringLiteral("cudaMajor")).isNull());
        QCOMPARE(system.value(QStringLiteral("loadOrder")).toInt(), 1);
        QCOMPARE(system.value(QStringLiteral("path")).toString(),
                 QStringLiteral("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"));
        const QJsonObject pip = copyIn(
            snapshot, QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib"));
        QCOMPARE(pip.value(QStringLiteral("version")).toString(), QStringLiteral("9.19.0"));
        QCOMPARE(pip.value(QStringLiteral("source")).toString(), QStringLiteral("pip"));
        QCOMPARE(pip.value(QStringLiteral("cudaMajor")).toInt(), 13);
        QCOMPARE(snapshot.value(QStringLiteral("cudnnLoadedByDefault")).toString(),
                 system.value(QStringLiteral("path")).toString());

        const QJsonObject python = snapshot.value(QStringLiteral("pythons")).toArray().first().toObject();
        QCOMPARE(python.value(QStringLiteral("version")).toString(), QStringLiteral("3.12.3"));
        QCOMPARE(python.value(QStringLiteral("torch")).toObject().value(QStringLiteral("cudnn")).toString(),
                 QStringLiteral("9.19.0"));
        QVERIFY(findingIds(snapshot).contains(QStringLiteral("detect.system-root")));
    }

    // The workstation's venv interpreter would take 20 s to answer and leaves a mark when run:
    // detect describes its torch from the files, check and doctor the same, and none runs it.
    void pythonIsReadNotRun()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "the stand-in interpreter is a shell script");
        Sandbox sandbox;
        trees::workstation(sandbox);
        const QString ran = sandbox.hostPath(QStringLiteral("/tmp/python-ran"));
        sandbox.writeScriptBody(QStringLiteral("/opt/torch/.venv/bin/python3"),
                                "touch '" + ran.toUtf8() + "'\nsleep 20\n");
        for (const QString &command :
             {QStringLiteral("detect"), QStringLiteral("check"), QStringLiteral("doctor")}) {
            const CudnnctlRun run =
                runCudnnctl({command, QStringLiteral("--json"), QStringLiteral("--lang"),
                             QStringLiteral("en"), QStringLiteral("--system-root"), sandbox.root()},
                            sandboxEnvironment());
            QVERIFY2(run.exitCode == 0 || run.exitCode == 1, run.err.constData());
            QVERIFY2(!QFile::exists(ran), qPrintable(command));
        }
        const CudnnctlRun run = runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"),
                                             QStringLiteral("--system-root"), sandbox.root()},
                                            sandboxEnvironment());
        const QJsonObject python =
            outputJson(run).value(QStringLiteral("pythons")).toArray().first().toObject();
        QCOMPARE(python.value(QStringLiteral("factsFrom")).toString(), QStringLiteral("files"));
        const QJsonObject torch = python.value(QStringLiteral("torch")).toObject();
        QCOMPARE(torch.value(QStringLiteral("version")).toString(), QStringLiteral("2.11.0+cu130"));
        QCOMPARE(torch.value(QStringLiteral("cuda")).toString(), QStringLiteral("13.0"));
        QCOMPARE(
            torch.value(QStringLiteral("cudnnLoadedFrom")).toString(),
            QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9"));
        QVERIFY(torch.value(QStringLiteral("cudaAvailable")).isNull());
    }

    void tableSpeaksChinese()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::workstation(sandbox);
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--lang"), QStringLiteral("zh_CN"),
                         QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.contains(QStringLiteral("NVIDIA H200")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("显卡")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("/usr/local/cuda-12.2")));
    }

    void missingGpuIsExitOne()
    {
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/usr/bin"));
        const CudnnctlRun run = runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"),
                                             QStringLiteral("--system-root"), sandbox.root()},
                                            sandboxEnvironment());
        QCOMPARE(run.exitCode, 1);
        QVERIFY(findingIds(outputJson(run)).contains(QStringLiteral("gpu.none")));
    }

    void windowsJsonDescribesTheSandbox()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Windows, "runs the Windows tree's programs");
        Sandbox sandbox;
        trees::windowsWorkstation(sandbox);
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"), QStringLiteral("--lang"),
                         QStringLiteral("en"), QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        const QJsonObject snapshot = outputJson(run);
        QCOMPARE(snapshot.value(QStringLiteral("os")).toObject().value(QStringLiteral("family")).toString(),
                 QStringLiteral("windows"));
        const QJsonObject gpu = snapshot.value(QStringLiteral("gpus")).toArray().first().toObject();
        QCOMPARE(gpu.value(QStringLiteral("name")).toString(), QStringLiteral("NVIDIA GeForce RTX 3080"));
        QCOMPARE(gpu.value(QStringLiteral("computeCapability")).toString(), QStringLiteral("8.6"));
        const QJsonObject driver = snapshot.value(QStringLiteral("driver")).toObject();
        QCOMPARE(driver.value(QStringLiteral("version")).toString(), QStringLiteral("591.59"));
        QCOMPARE(driver.value(QStringLiteral("maxCuda")).toString(), QStringLiteral("13.1"));
        QCOMPARE(snapshot.value(QStringLiteral("cudaToolkits")).toArray().size(), 3);
        const QString cuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
        const QJsonObject inToolkit = copyIn(snapshot, cuda + QStringLiteral("v12.2\\bin"));
        QCOMPARE(inToolkit.value(QStringLiteral("version")).toString(), QStringLiteral("8.9.7"));
        QCOMPARE(inToolkit.value(QStringLiteral("cudaMajor")).toInt(), 12);
        const QJsonObject installed =
            copyIn(snapshot, QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4"));
        QCOMPARE(installed.value(QStringLiteral("version")).toString(), QStringLiteral("9.1.0"));
        QVERIFY(installed.value(QStringLiteral("loadOrder")).isNull());
        // The registry belongs to the running system: under a root it is unknown, not this host's.
        QVERIFY(snapshot.value(QStringLiteral("environment"))
                    .toObject()
                    .value(QStringLiteral("pathStale"))
                    .isNull());
        const QJsonObject python = snapshot.value(QStringLiteral("pythons")).toArray().first().toObject();
        QCOMPARE(python.value(QStringLiteral("path")).toString(),
                 QStringLiteral("C:\\Python312\\python.exe"));
        QCOMPARE(python.value(QStringLiteral("bits")).toInt(), 64);
        QVERIFY(python.value(QStringLiteral("torch")).toObject().value(QStringLiteral("cuda")).isNull());
    }

    void hungNvidiaSmiHonoursTheTimeout()
    {
        Sandbox sandbox;
        ToolBehaviour hung;
        hung.sleepMs = 60000;
        trees::hostTool(sandbox, trees::HostTool::NvidiaSmi, hung);
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"), QStringLiteral("--tool-timeout"),
                         QStringLiteral("0.5"), QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 1);
        QVERIFY(findingIds(outputJson(run)).contains(QStringLiteral("nvidia-smi.timeout")));
    }

    // The running system itself (under Wine: Windows, its registry and loader included).
    void detectsTheRunningSystem()
    {
        const CudnnctlRun run = runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json")},
                                            QProcessEnvironment::systemEnvironment());
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, run.err.constData());
        const QJsonObject snapshot = outputJson(run);
        QCOMPARE(snapshot.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/snapshot/1"));
        QVERIFY(snapshot.value(QStringLiteral("systemRoot")).isNull());
        const bool windows = cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows;
        const QJsonObject os = snapshot.value(QStringLiteral("os")).toObject();
        QCOMPARE(os.value(QStringLiteral("family")).toString(),
                 windows ? QStringLiteral("windows") : QStringLiteral("linux"));
        QCOMPARE(os.value(QStringLiteral("arch")).toString(), QStringLiteral("x64"));
        QVERIFY(!os.value(QStringLiteral("name")).toString().isEmpty());
        // Only a live Windows has a registry to compare PATH with.
        QCOMPARE(snapshot.value(QStringLiteral("environment"))
                     .toObject()
                     .value(QStringLiteral("pathStale"))
                     .isBool(),
                 windows);
        // Exit 1 exactly when an error finding says why.
        const QJsonArray findings = snapshot.value(QStringLiteral("findings")).toArray();
        const bool errors = std::any_of(findings.cbegin(), findings.cend(), [](const QJsonValue &finding) {
            return finding.toObject().value(QStringLiteral("severity")).toString() == QLatin1String("error");
        });
        QCOMPARE(run.exitCode, errors ? 1 : 0);
    }

    void usageErrorsAreExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")};
        QTest::newRow("unknown option") << QStringList{QStringLiteral("detect"), QStringLiteral("--bogus")};
        QTest::newRow("root is not a folder") << QStringList{
            QStringLiteral("detect"), QStringLiteral("--system-root"), QStringLiteral("/nonexistent/root")};
        QTest::newRow("bad language")
            << QStringList{QStringLiteral("detect"), QStringLiteral("--lang"), QStringLiteral("xx")};
        QTest::newRow("bad timeout") << QStringList{QStringLiteral("detect"),
                                                    QStringLiteral("--tool-timeout"), QStringLiteral("soon")};
    }
    void usageErrorsAreExitTwo()
    {
        QFETCH(QStringList, arguments);
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void helpAndVersion()
    {
        const CudnnctlRun help = runCudnnctl(
            {QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("en")}, sandboxEnvironment());
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("detect"));
        QVERIFY(help.out.contains("--system-root"));
        const CudnnctlRun version = runCudnnctl({QStringLiteral("--version")}, sandboxEnvironment());
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("cudnnctl "));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlDetect)
#include "tst_cudnnctl_detect.moc"
