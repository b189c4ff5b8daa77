#include "BuildPaths.h"
#include "Suite.h"
#include "common/Translations.h"
#include "verify/VerifyReport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace cudnnsetup;

Q_DECLARE_METATYPE(QList<VerifyStage::Status>)

namespace {

VerifyStage stage(const QString &id, VerifyStage::Status status, const Text &message, const Text &fix = {})
{
    VerifyStage result;
    result.id = id;
    result.status = status;
    result.message = message;
    result.fix = fix;
    return result;
}

// Every field set, with values that cannot be mistaken for defaults.
VerifyReport populatedReport()
{
    VerifyReport report;
    report.createdAt = QDateTime(QDate(2026, 11, 30), QTime(20, 14, 19, 250), Qt::UTC);
    report.directory = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\13.0");
    report.libraries = {QStringLiteral("cudnn64_9.dll"), QStringLiteral("cudnn_ops64_9.dll")};
    report.subjectSource = QStringLiteral("receipt");
    report.receiptId = QStringLiteral("20261130-201419-ab12");
    report.expectedVersion = QStringLiteral("9.19.0");
    report.cudnnVersion = QStringLiteral("9.19.0");
    report.cudaToolkitVersion = QStringLiteral("13.0.2");
    report.probePath = {QStringLiteral("C:\\Windows\\system32"), QStringLiteral("C:\\用户\\50%2 off")};
    report.probeEnvironmentSource = QStringLiteral("registry");

    report.probe.loads = {{QStringLiteral("cudnn64_9.dll"),
                           report.directory + QStringLiteral("\\cudnn64_9.dll"), 0, QString(), 3.5},
                          {QStringLiteral("cudnn_ops64_9.dll"), QString(), 126,
                           QStringLiteral("The specified module could not be found."), 1.25}};
    report.probe.cudnnVersion = 91900;
    report.probe.cudnnCudartVersion = 13000;
    report.probe.gpu.status = ProbeGpu::Status::Failed;
    report.probe.gpu.reason = QStringLiteral("cudnnCreate returned 1001");
    report.probe.gpu.stage = QStringLiteral("handle");
    report.probe.gpu.cudartLoadedFrom = QStringLiteral("C:\\CUDA\\bin\\x64\\cudart64_13.dll");
    report.probe.gpu.cudaRuntimeVersion = 13000;
    report.probe.gpu.cudaDriverVersion = 13000;
    report.probe.gpu.cudnnStatus = 1001;
    report.probe.gpu.cudnnStatusName = QStringLiteral("CUDNN_STATUS_NOT_INITIALIZED");
    report.probe.gpu.deviceCount = 1;
    report.probe.gpu.deviceName = QStringLiteral("NVIDIA GeForce RTX 4090");
    report.probe.gpu.tolerance = 0.001;
    report.probe.gpu.milliseconds = {{QStringLiteral("cudart"), 12.5}, {QStringLiteral("handle"), 80}};
    report.probe.totalMilliseconds = 101.5;

    report.dependencies.resolved = {
        {QStringLiteral("KERNEL32.dll"), QString()},
        {QStringLiteral("cublasLt64_13.dll"), QStringLiteral("C:\\CUDA\\bin\\x64\\cublasLt64_13.dll")}};
    DependencyProblem missing;
    missing.kind = DependencyProblem::Kind::Missing;
    missing.library = QStringLiteral("zlibwapi.dll");
    missing.neededBy = report.directory + QStringLiteral("\\cudnn_ops64_9.dll");
    missing.delayLoaded = true;
    missing.searched = {QStringLiteral("C:\\Windows\\system32"), QStringLiteral("C:\\Windows")};
    DependencyProblem wrongMachine;
    wrongMachine.kind = DependencyProblem::Kind::WrongArchitecture;
    wrongMachine.library = QStringLiteral("cublas64_13.dll");
    wrongMachine.neededBy = report.directory + QStringLiteral("\\cudnn64_9.dll");
    wrongMachine.foundAt = QStringLiteral("C:\\x86\\cublas64_13.dll");
    wrongMachine.machine = QStringLiteral("x86");
    report.dependencies.problems = {missing, wrongMachine};

    FrameworkCheck torch;
    torch.python = QStringLiteral("C:\\Python312\\python.exe");
    torch.torchVersion = QStringLiteral("2.9.0+cu130");
    torch.torchCuda = QStringLiteral("13.0");
    torch.cudaAvailable = true;
    torch.cudnnVersion = QStringLiteral("9.13.0");
    torch.cudnnLoadedFrom = QStringLiteral("C:\\Python312\\Lib\\site-packages\\torch\\lib\\cudnn64_9.dll");
    torch.usesCheckedCudnn = false;
    torch.convolutionPassed = true;
    torch.milliseconds = 2300;
    FrameworkCheck cpuOnly;
    cpuOnly.python = QStringLiteral("C:\\venv\\Scripts\\python.exe");
    cpuOnly.error = QStringLiteral("ModuleNotFoundError: No module named 'torch'");
    report.frameworks = {torch, cpuOnly};

    report.stages = {
        stage(QStringLiteral("load"), VerifyStage::Status::Passed,
              Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system."))),
        stage(QStringLiteral("handle"), VerifyStage::Status::Failed,
              Text(QT_TRANSLATE_NOOP("cudnnsetup", "A GPU stopped responding to the driver.")),
              Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "Update the driver to the newest one NVIDIA offers for this GPU."))),
        stage(QStringLiteral("convolution"), VerifyStage::Status::Skipped,
              Text::verbatim(QStringLiteral("not run"))),
    };
    report.stages[1].details = QStringLiteral("cudnnCreate: CUDNN_STATUS_NOT_INITIALIZED");
    report.stages[1].milliseconds = 80.5;
    report.findings = {
        Finding::warning(QStringLiteral("verify.other-cudnn"),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system.")),
                         QStringLiteral("details"))};
    report.totalMilliseconds = 2500.25;
    return report;
}

} // namespace

class TestVerifyReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // Written in Chinese, read back after switching to English: texts stay as written, and every
    // other field survives.
    void roundTrip()
    {
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        const VerifyReport original = populatedReport();
        const QJsonObject written = original.toJson();
        const QString chineseMessage = original.stages.at(1).message.toString();
        QVERIFY(chineseMessage != original.stages.at(1).message.toEnglish());
        QVERIFY(Translations::install(QStringLiteral("en")));

        // Through text, as a file would carry it.
        const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(written).toJson()).object();
        const Expected<VerifyReport> read = VerifyReport::fromJson(reread);
        QVERIFY2(read, qPrintable(read.error().details));
        QCOMPARE(read->toJson(), written);

        QCOMPARE(written.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/verify/1"));
        QCOMPARE(read->createdAt, original.createdAt);
        QCOMPARE(read->directory, original.directory);
        QCOMPARE(read->libraries, original.libraries);
        QCOMPARE(read->receiptId, original.receiptId);
        QCOMPARE(read->probePath, original.probePath);
        QCOMPARE(read->probeEnvironmentSource, original.probeEnvironmentSource);
        QCOMPARE(read->stages.size(), 3);
        QCOMPARE(read->stages.at(1).message.toString(), chineseMessage);
        QCOMPARE(read->stages.at(1).fix.toString(),
                 written.value(QStringLiteral("stages")).toArray().at(1)[QStringLiteral("fix")].toString());
        QVERIFY(read->stages.at(0).fix.isEmpty());
        QCOMPARE(read->stages.at(1).details, original.stages.at(1).details);
        QCOMPARE(read->stages.at(1).milliseconds, 80.5);
        QCOMPARE(read->findings.size(), 1);
        QCOMPARE(read->findings.first().severity, Severity::Warning);

        QCOMPARE(read->probe.loads.size(), 2);
        QCOMPARE(read->probe.loads.at(1).errorCode, 126);
        QCOMPARE(read->probe.cudnnVersion, std::optional<qint64>(91900));
        QCOMPARE(read->probe.gpu.status, ProbeGpu::Status::Failed);
        QCOMPARE(read->probe.gpu.cudnnStatusName, QStringLiteral("CUDNN_STATUS_NOT_INITIALIZED"));
        QCOMPARE(read->loadedFrom(), original.loadedFrom());
        QCOMPARE(written.value(QStringLiteral("loadedFrom")).toString(),
                 original.directory + QStringLiteral("\\cudnn64_9.dll"));

        QCOMPARE(read->dependencies.resolved, original.dependencies.resolved);
        QCOMPARE(read->dependencies.problems.size(), 2);
        const DependencyProblem &missing = read->dependencies.problems.at(0);
        QCOMPARE(missing.kind, DependencyProblem::Kind::Missing);
        QVERIFY(missing.delayLoaded);
        QCOMPARE(missing.searched, original.dependencies.problems.at(0).searched);
        const DependencyProblem &wrongMachine = read->dependencies.problems.at(1);
        QCOMPARE(wrongMachine.kind, DependencyProblem::Kind::WrongArchitecture);
        QCOMPARE(wrongMachine.foundAt, QStringLiteral("C:\\x86\\cublas64_13.dll"));
        QCOMPARE(wrongMachine.machine, QStringLiteral("x86"));

        QCOMPARE(read->frameworks.size(), 2);
        QCOMPARE(read->frameworks.at(0).usesCheckedCudnn, std::optional<bool>(false));
        QCOMPARE(read->frameworks.at(0).cudaAvailable, std::optional<bool>(true));
        QCOMPARE(read->frameworks.at(0).cudnnLoadedFrom, original.frameworks.at(0).cudnnLoadedFrom);
        // Unknown stays unknown: null in JSON, nullopt / null string read back.
        QVERIFY(read->frameworks.at(1).torchVersion.isNull());
        QVERIFY(!read->frameworks.at(1).cudaAvailable);
        QVERIFY(written.value(QStringLiteral("frameworks"))
                    .toArray()
                    .at(1)[QStringLiteral("torchVersion")]
                    .isNull());
        QCOMPARE(read->frameworks.at(1).error, original.frameworks.at(1).error);
        QCOMPARE(read->totalMilliseconds, 2500.25);
    }

    void stageJson_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonValue>("ok");
        QTest::newRow("passed") << int(VerifyStage::Status::Passed) << "passed" << QJsonValue(true);
        QTest::newRow("failed") << int(VerifyStage::Status::Failed) << "failed" << QJsonValue(false);
        QTest::newRow("skipped is neither") << int(VerifyStage::Status::Skipped) << "skipped" << QJsonValue();
    }
    void stageJson()
    {
        QFETCH(int, status);
        QFETCH(QString, name);
        QFETCH(QJsonValue, ok);
        const VerifyStage written =
            stage(QStringLiteral("handle"), VerifyStage::Status(status), Text::verbatim(QStringLiteral("m")));
        const QJsonObject object = written.toJson();
        QCOMPARE(object.value(QStringLiteral("status")).toString(), name);
        QCOMPARE(object.value(QStringLiteral("ok")), ok);
        QVERIFY(object.contains(QStringLiteral("ok")));
        QCOMPARE(object.value(QStringLiteral("fix")), QJsonValue());
        QCOMPARE(VerifyStage::fromJson(object).status, VerifyStage::Status(status));
        QCOMPARE(VerifyStage::statusFromName(name),
                 std::optional<VerifyStage::Status>(VerifyStage::Status(status)));
    }

    void passedIgnoresSkippedStages_data()
    {
        QTest::addColumn<QList<VerifyStage::Status>>("statuses");
        QTest::addColumn<bool>("passed");
        using S = VerifyStage::Status;
        QTest::newRow("no stages") << QList<S>{} << true;
        QTest::newRow("all passed") << QList<S>{S::Passed, S::Passed} << true;
        QTest::newRow("passed and skipped") << QList<S>{S::Passed, S::Skipped, S::Skipped} << true;
        QTest::newRow("only skipped") << QList<S>{S::Skipped} << true;
        QTest::newRow("one failed among passed") << QList<S>{S::Passed, S::Failed, S::Passed} << false;
        QTest::newRow("failed last, after a skip") << QList<S>{S::Skipped, S::Failed} << false;
    }
    void passedIgnoresSkippedStages()
    {
        QFETCH(QList<VerifyStage::Status>, statuses);
        QFETCH(bool, passed);
        VerifyReport report;
        for (int i = 0; i < statuses.size(); ++i)
            report.stages.append(
                stage(QStringLiteral("stage%1").arg(i), statuses.at(i), Text::verbatim(QStringLiteral("m"))));
        QCOMPARE(report.passed(), passed);
        QCOMPARE(report.toJson().value(QStringLiteral("passed")).toBool(), passed);
        QCOMPARE(VerifyReport::fromJson(report.toJson())->passed(), passed);
    }

    void stageLookupAndLoadedFrom()
    {
        const VerifyReport report = populatedReport();
        QVERIFY(report.stage(QStringLiteral("handle")));
        QCOMPARE(report.stage(QStringLiteral("handle"))->status, VerifyStage::Status::Failed);
        QVERIFY(!report.stage(QStringLiteral("framework")));
        // The main library is asked for first; what the loader mapped for it is the answer.
        QCOMPARE(report.loadedFrom(), report.directory + QStringLiteral("\\cudnn64_9.dll"));
        VerifyReport notLoaded;
        QVERIFY(notLoaded.loadedFrom().isNull());
        QVERIFY(notLoaded.toJson().value(QStringLiteral("loadedFrom")).isNull());
    }

    void rejectsWhatItDidNotWrite_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("another schema") << "schema" << QJsonValue(QStringLiteral("cudnn-setup/probe/1"));
        QTest::newRow("no stages") << "stages" << QJsonValue();
        QTest::newRow("unknown stage status")
            << "stages"
            << QJsonValue(QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("load")},
                                                 {QStringLiteral("status"), QStringLiteral("ok")}}});
        QTest::newRow("damaged probe") << "probe" << QJsonValue(QJsonObject{{QStringLiteral("schema"), 1}});
    }
    void rejectsWhatItDidNotWrite()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QJsonObject object = populatedReport().toJson();
        QVERIFY(VerifyReport::fromJson(object));
        if (value.isNull())
            object.remove(key);
        else
            object.insert(key, value);
        const Expected<VerifyReport> read = VerifyReport::fromJson(object);
        QVERIFY(!read);
        QCOMPARE(read.error().id, QStringLiteral("verify.report-invalid"));
        QCOMPARE(read.error().severity, Severity::Error);
        QVERIFY(!read.error().message.toString().isEmpty());
    }

    // What `cudnnctl verify --json` printed on the H200 machine reads back: every stage passed,
    // the convolution ran on the H200 and matched the CPU, and torch used its own cuDNN.
    void realH200ReportReadsBack()
    {
        QFile file(BuildPaths::fixtures() + QStringLiteral("/nvidia-h200-linux/cudnnctl-verify.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        const Expected<VerifyReport> read = VerifyReport::fromJson(json);
        QVERIFY2(read, qPrintable(read.error().details));
        QVERIFY(read->passed());
        QCOMPARE(read->stages.size(), 6);
        for (const VerifyStage &stage : read->stages)
            QCOMPARE(stage.status, VerifyStage::Status::Passed);
        QCOMPARE(read->cudnnVersion, QStringLiteral("9.14.0"));
        QCOMPARE(read->probe.gpu.deviceName, QStringLiteral("NVIDIA H200"));
        QVERIFY(read->probe.gpu.maxAbsoluteError.value_or(1) <= read->probe.gpu.tolerance);
        QCOMPARE(read->frameworks.size(), 1);
        QCOMPARE(read->frameworks.first().usesCheckedCudnn, std::optional<bool>(false));
        QVERIFY(read->frameworks.first().cudnnLoadedFrom.contains(QStringLiteral("nvidia/cudnn")));
        QCOMPARE(read->toJson().value(QStringLiteral("stages")), json.value(QStringLiteral("stages")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestVerifyReport)
#include "tst_verifyreport.moc"
