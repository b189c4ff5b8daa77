// Times `cudnnctl fleet summarize SHARE --json` (the real program, start to end) on a share of 5,000
// machine reports written here by the same writer as `cudnnctl report --to`: most machines alike, a
// few with another driver, a CPU-only torch or no verification, with their open findings, and a
// tenth of them a month old. The goal is 2 s on the 2-core CI machine. Peers given with --peer
// (a shell command; $SHARE is the folder) read the same files in the same run, e.g. jq:
//   --peer 'jq -s "[.[] | .items.driver.value] | group_by(.) | map([.[0], length])" "$SHARE"/*.json'
//
// usage: bench_fleet [--runs N] [--reports N] [--peer COMMAND]...
#include "BenchRuns.h"
#include "BuildPaths.h"
#include "report/MachineReport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTextStream>

using namespace cudnnsetup;

namespace {

constexpr double kGoalMs = 2000;

MachineReportInput machineNumber(int index, const QDateTime &now)
{
    MachineReportInput input;
    input.machine = QStringLiteral("LAB-PC-%1").arg(index, 5, 10, QLatin1Char('0'));
    input.writtenAt = index % 10 == 9 ? now.addDays(-30) : now.addSecs(-index);
    input.tool = QStringLiteral("cudnnctl 0.1.0");
    SystemSnapshot &snapshot = input.snapshot;
    snapshot.os = {QStringLiteral("windows"),
                   QStringLiteral("Windows 11 Pro"),
                   QStringLiteral("10.0.26100"),
                   QStringLiteral("x64"),
                   QString(),
                   std::nullopt};
    GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA GeForce RTX 4090");
    gpu.computeCapability = QStringLiteral("8.9");
    snapshot.gpus = {gpu};
    DriverInfo driver;
    driver.version = index % 97 == 0 ? QStringLiteral("551.86") : QStringLiteral("581.57");
    driver.maxCuda = QStringLiteral("13.0");
    snapshot.driver = driver;
    CudnnCopy copy;
    copy.version = QStringLiteral("9.10.2");
    copy.directory = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.10\\bin\\12.9");
    copy.path = copy.directory + QStringLiteral("\\cudnn64_9.dll");
    copy.cudaMajor = 12;
    copy.loadOrder = 1;
    snapshot.cudnn = {copy};
    snapshot.environment.path = {QStringLiteral("C:\\Windows\\system32"), QStringLiteral("C:\\Windows"),
                                 copy.directory, QStringLiteral("C:\\Python312"),
                                 QStringLiteral("C:\\Python312\\Scripts")};
    PythonInstall python;
    python.path = QStringLiteral("C:\\Python312\\python.exe");
    TorchInfo torch;
    torch.version = index % 53 == 0 ? QStringLiteral("2.9.1+cpu") : QStringLiteral("2.9.1+cu129");
    python.torch = torch;
    snapshot.pythons = {python};
    if (index % 53 == 0)
        input.findings.append(Finding::warning(
            QStringLiteral("doctor.torch-cpu-only"),
            Text::verbatim(QStringLiteral("torch 2.9.1+cpu in C:\\Python312 is a CPU-only build.")), {},
            Text::verbatim(QStringLiteral("pip install --force-reinstall torch --index-url "
                                          "https://download.pytorch.org/whl/cu129"))));
    if (index % 97 == 0)
        input.findings.append(Finding::error(
            QStringLiteral("doctor.driver-too-old"),
            Text::verbatim(
                QStringLiteral("Driver 551.86 runs CUDA up to 12.4; cuDNN for CUDA 12.9 needs more.")),
            {}, Text::verbatim(QStringLiteral("Update the NVIDIA driver to 576.02 or newer."))));
    if (index % 31 != 0) {
        VerificationRecord record;
        record.when = now.addDays(-1);
        record.passed = true;
        record.stages = {{QStringLiteral("files"), QStringLiteral("passed")},
                         {QStringLiteral("load"), QStringLiteral("passed")},
                         {QStringLiteral("handle"), QStringLiteral("passed")},
                         {QStringLiteral("convolution"), QStringLiteral("passed")}};
        input.status.verified = record;
    }
    return input;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("cudnnsetup.*.info=false")); // one line a report written
    QStringList arguments = app.arguments().mid(1);
    QTextStream out(stdout);
    const auto take = [&arguments](const QString &name, const QString &fallback) {
        const qsizetype at = arguments.indexOf(name);
        if (at < 0 || at + 1 >= arguments.size())
            return fallback;
        const QString value = arguments.at(at + 1);
        arguments.remove(at, 2);
        return value;
    };
    const int runs = std::max(1, take(QStringLiteral("--runs"), QStringLiteral("5")).toInt());
    const int reports = std::max(1, take(QStringLiteral("--reports"), QStringLiteral("5000")).toInt());
    QStringList peers;
    for (QString peer = take(QStringLiteral("--peer"), QString()); !peer.isEmpty();
         peer = take(QStringLiteral("--peer"), QString()))
        peers.append(peer);

    QTemporaryDir share;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    qint64 bytes = 0;
    for (int i = 0; i < reports; ++i) {
        const Expected<QString> written =
            writeMachineReport(machineReportJson(machineNumber(i, now)), share.path());
        if (!written) {
            QTextStream(stderr) << "cannot write a report: " << written.error().details << '\n';
            return 2;
        }
        bytes += QFileInfo(*written).size();
    }

    // Exit 1: some machines differ, as they do here.
    const QList<double> times = bench::timeRuns(
        BuildPaths::cudnnctl(),
        {QStringLiteral("fleet"), QStringLiteral("summarize"), share.path(), QStringLiteral("--json")},
        QProcessEnvironment::systemEnvironment(), runs, 1);
    const double median = bench::median(times);
    const QString subject = QStringLiteral("cudnnctl fleet summarize --json of %1 reports (%2 MB)")
                                .arg(reports)
                                .arg(bytes / 1e6, 0, 'f', 1);
    out << subject << "\n  median " << QString::number(median, 'f', 0) << " ms over " << runs << " runs ("
        << (median <= kGoalMs ? "within" : "over") << " the goal of " << kGoalMs << " ms)\n";
    QJsonObject result{{QStringLiteral("subject"), subject}, {QStringLiteral("runs"), runs},
                       {QStringLiteral("reports"), reports}, {QStringLiteral("bytes"), bytes},
                       {QStringLiteral("medianMs"), median}, {QStringLiteral("goalMs"), kGoalMs}};

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SHARE"), share.path());
    QJsonArray peerResults;
    for (const QString &peer : std::as_const(peers)) {
        const double peerMedian = bench::median(
            bench::timeRuns(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), peer}, environment, runs, 0));
        out << "peer " << peer << "\n  median " << QString::number(peerMedian, 'f', 0)
            << " ms; cudnnctl takes " << QString::number(median / peerMedian, 'f', 2) << "x its time\n";
        peerResults.append(QJsonObject{{QStringLiteral("command"), peer},
                                       {QStringLiteral("medianMs"), peerMedian},
                                       {QStringLiteral("ratio"), median / peerMedian}});
    }
    result.insert(QStringLiteral("peers"), peerResults);
    out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    return median <= kGoalMs ? 0 : 1;
}
