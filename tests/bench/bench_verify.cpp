// Times `cudnnctl verify --json` on the running system (detection of the copy in use, the probe in
// a fresh process, the dependency walk and, with a GPU, the handle and the convolution), optionally
// beside a peer (--peer "python3 tests/bench/torch_cudnn_check.py") timed in the same run. The
// stage timings of the last run are printed too.
#include "BenchRuns.h"
#include "BuildPaths.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTextStream>

#include <algorithm>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"),
                                        QStringLiteral("runs of each command (default 9)"),
                                        QStringLiteral("N"), QStringLiteral("9"));
    const QCommandLineOption peerOption(QStringLiteral("peer"),
                                        QStringLiteral("a peer command to time in the same run"),
                                        QStringLiteral("COMMAND"));
    const QCommandLineOption peerRunsOption(QStringLiteral("peer-runs"),
                                            QStringLiteral("runs of the peer (default: --runs)"),
                                            QStringLiteral("N"));
    const QCommandLineOption cudnnctlOption(QStringLiteral("cudnnctl"),
                                            QStringLiteral("the cudnnctl to time"), QStringLiteral("PATH"),
                                            BuildPaths::cudnnctl());
    const QCommandLineOption argumentOption(
        QStringLiteral("argument"), QStringLiteral("one more argument for cudnnctl verify (repeatable)"),
        QStringLiteral("ARG"));
    parser.addOptions({runsOption, peerOption, peerRunsOption, cudnnctlOption, argumentOption});
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QStringList arguments =
        QStringList{QStringLiteral("verify"), QStringLiteral("--json"), QStringLiteral("--no-framework")} +
        parser.values(argumentOption);
    const QString subject = QStringLiteral("cudnnctl ") + arguments.join(QLatin1Char(' '));

    bench::timeRuns(parser.value(cudnnctlOption), arguments, environment, 1, 1); // warm the page cache
    // verify answers 0 or 1 (a stage failed); anything else means it did not really run.
    const QList<double> times =
        bench::timeRuns(parser.value(cudnnctlOption), arguments, environment, runs, 1);

    QProcess last;
    last.setProcessEnvironment(environment);
    last.start(parser.value(cudnnctlOption), arguments);
    last.waitForFinished(120000);
    const QJsonObject report = QJsonDocument::fromJson(last.readAllStandardOutput()).object();
    QJsonObject stages;
    QTextStream out(stdout);
    out << subject << "\n  median " << QString::number(bench::median(times), 'f', 1) << " ms over " << runs
        << " runs\n  stages of the last run:";
    for (const QJsonValue &value : report.value(QStringLiteral("stages")).toArray()) {
        const QJsonObject stage = value.toObject();
        const QString id = stage.value(QStringLiteral("id")).toString();
        stages.insert(id, QJsonObject{{QStringLiteral("status"), stage.value(QStringLiteral("status"))},
                                      {QStringLiteral("ms"), stage.value(QStringLiteral("milliseconds"))}});
        out << ' ' << id << '=' << stage.value(QStringLiteral("status")).toString() << '/'
            << QString::number(stage.value(QStringLiteral("milliseconds")).toDouble(), 'f', 1) << "ms";
    }
    out << '\n';
    QJsonObject result{{QStringLiteral("subject"), subject},
                       {QStringLiteral("runs"), runs},
                       {QStringLiteral("medianMs"), bench::median(times)},
                       {QStringLiteral("minMs"), *std::min_element(times.cbegin(), times.cend())},
                       {QStringLiteral("maxMs"), *std::max_element(times.cbegin(), times.cend())},
                       {QStringLiteral("stages"), stages},
                       {QStringLiteral("gpu"),
                        report.value(QStringLiteral("probe")).toObject().value(QStringLiteral("gpu"))}};
    if (parser.isSet(peerOption)) {
        const QString peer = parser.value(peerOption);
        const int peerRuns =
            parser.isSet(peerRunsOption) ? std::max(1, parser.value(peerRunsOption).toInt()) : runs;
        const QList<double> peerTimes = bench::timeRuns(
            QStringLiteral("/bin/sh"), {QStringLiteral("-c"), peer}, environment, peerRuns, 0);
        const double ratio = bench::median(times) / std::max(0.001, bench::median(peerTimes));
        out << peer << "\n  median " << QString::number(bench::median(peerTimes), 'f', 1) << " ms over "
            << peerRuns << " runs\n  cudnnctl verify takes " << QString::number(ratio, 'f', 2)
            << "x the peer's time\n";
        result.insert(QStringLiteral("peer"),
                      QJsonObject{{QStringLiteral("command"), peer},
                                  {QStringLiteral("runs"), peerRuns},
                                  {QStringLiteral("medianMs"), bench::median(peerTimes)},
                                  {QStringLiteral("ratio"), ratio}});
    }
    out << QJsonDocument(result).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}
