// Times `cudnnctl detect --json` (and `check`, `doctor` with --command) on a sandbox the size of a
// busy workstation (3 toolkits, 6 cuDNN copies, a 60-entry PATH, a venv with torch), or on the
// running system (--real), optionally beside a peer tool (--peer "python -m torch.utils.collect_env")
// timed in the same run. Every Python environment is described, from its files.
#include "BenchRuns.h"
#include "BuildPaths.h"
#include "Sandbox.h"
#include "SystemTrees.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTextStream>

#include <algorithm>
#include <cstdlib>

namespace {

// The shared workstation plus two more cuDNN copies (6 in all) and a long PATH.
void buildWorkstation(const Sandbox &sandbox, QProcessEnvironment &environment)
{
    trees::workstation(sandbox);
    trees::linuxCudnn(sandbox, QStringLiteral("/usr/local/cuda-13.0/targets/x86_64-linux/lib"),
                      QStringLiteral("/usr/local/cuda-13.0/include"), 9, 19, 0);
    trees::linuxCudnn(sandbox, QStringLiteral("/opt/cudnn-8.6/lib"), QString(), 8, 6, 0);
    sandbox.write(QStringLiteral("/etc/ld.so.conf"),
                  "/usr/local/cuda-13.0/targets/x86_64-linux/lib\n/usr/lib/x86_64-linux-gnu\n");
    QStringList path;
    for (int i = 0; i < 56; ++i) {
        const QString dir = QStringLiteral("/opt/tool%1/bin").arg(i);
        sandbox.mkdir(dir);
        path.append(dir);
    }
    path << QStringLiteral("/opt/torch/.venv/bin") << QStringLiteral("/usr/local/cuda-13.0/bin")
         << QStringLiteral("/usr/bin") << QStringLiteral("/bin");
    environment.insert(QStringLiteral("PATH"), path.join(QLatin1Char(':')));
    // Keep the host's entries (cudnnctl itself may need them); inside the root they name nothing.
    const QString hostLibraryPath = environment.value(QStringLiteral("LD_LIBRARY_PATH"));
    environment.insert(QStringLiteral("LD_LIBRARY_PATH"),
                       hostLibraryPath.isEmpty() ? QStringLiteral("/opt/cudnn-8.6/lib")
                                                 : hostLibraryPath + QStringLiteral(":/opt/cudnn-8.6/lib"));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"),
                                        QStringLiteral("runs of each command (default 15)"),
                                        QStringLiteral("N"), QStringLiteral("15"));
    const QCommandLineOption realOption(QStringLiteral("real"),
                                        QStringLiteral("time detection of the running system"));
    const QCommandLineOption commandOption(
        QStringLiteral("command"),
        QStringLiteral("the cudnnctl command to time, with its options: detect (default), check, "
                       "\"doctor --no-gpu\"; repeatable"),
        QStringLiteral("NAME"));
    const QCommandLineOption peerOption(QStringLiteral("peer"),
                                        QStringLiteral("a peer command to time in the same run"),
                                        QStringLiteral("COMMAND"));
    const QCommandLineOption peerRunsOption(QStringLiteral("peer-runs"),
                                            QStringLiteral("runs of the peer (default: --runs)"),
                                            QStringLiteral("N"));
    const QCommandLineOption cudnnctlOption(QStringLiteral("cudnnctl"),
                                            QStringLiteral("the cudnnctl to time"), QStringLiteral("PATH"),
                                            BuildPaths::cudnnctl());
    parser.addOptions({runsOption, realOption, commandOption, peerOption, peerRunsOption, cudnnctlOption});
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());

    Sandbox sandbox;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QStringList rootArguments;
    QString where = QStringLiteral("this system");
    if (!parser.isSet(realOption)) {
        buildWorkstation(sandbox, environment);
        rootArguments << QStringLiteral("--system-root") << sandbox.root();
        where = QStringLiteral("sandbox: 3 toolkits, 6 cuDNN copies, 60-entry PATH, a venv with torch");
    }
    QStringList commands = parser.values(commandOption);
    if (commands.isEmpty())
        commands.append(QStringLiteral("detect"));
    QTextStream out(stdout);
    QJsonArray results;
    double detectMedian = 0;
    for (const QString &command : std::as_const(commands)) {
        // "doctor --no-gpu": a command with its own options.
        const QStringList arguments = command.split(QLatin1Char(' '), Qt::SkipEmptyParts) +
                                      QStringList{QStringLiteral("--json")} + rootArguments;
        const QString subject = QStringLiteral("cudnnctl %1 --json (%2)").arg(command, where);
        bench::timeRuns(parser.value(cudnnctlOption), arguments, environment, 1, 1); // warm the page cache
        // The commands answer 0 or 1 (problems found); anything else means one did not really run.
        const QList<double> times =
            bench::timeRuns(parser.value(cudnnctlOption), arguments, environment, runs, 1);
        if (command == QLatin1String("detect") || detectMedian == 0)
            detectMedian = bench::median(times);
        results.append(
            QJsonObject{{QStringLiteral("subject"), subject},
                        {QStringLiteral("runs"), runs},
                        {QStringLiteral("medianMs"), bench::median(times)},
                        {QStringLiteral("minMs"), *std::min_element(times.cbegin(), times.cend())},
                        {QStringLiteral("maxMs"), *std::max_element(times.cbegin(), times.cend())}});
        out << subject << "\n  median " << QString::number(bench::median(times), 'f', 1) << " ms over "
            << runs << " runs\n";
    }
    QJsonObject result{{QStringLiteral("commands"), results}};
    if (parser.isSet(peerOption)) {
        const QString peer = parser.value(peerOption);
        const int peerRuns =
            parser.isSet(peerRunsOption) ? std::max(1, parser.value(peerRunsOption).toInt()) : runs;
        const QList<double> peerTimes =
            bench::timeRuns(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), peer},
                            QProcessEnvironment::systemEnvironment(), peerRuns, 1);
        const double ratio = bench::median(peerTimes) / std::max(0.001, detectMedian);
        out << peer << "\n  median " << QString::number(bench::median(peerTimes), 'f', 1) << " ms over "
            << peerRuns << " runs\n"
            << "  cudnnctl " << commands.first() << " is " << QString::number(ratio, 'f', 1) << "x faster\n";
        result.insert(QStringLiteral("peer"),
                      QJsonObject{{QStringLiteral("command"), peer},
                                  {QStringLiteral("runs"), peerRuns},
                                  {QStringLiteral("medianMs"), bench::median(peerTimes)},
                                  {QStringLiteral("ratio"), ratio}});
    }
    out << QJsonDocument(result).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}
