// Times the wizard's start: `cudnn-setup` from the process start until its first page has been
// painted (CUDNN_SETUP_EXIT_AFTER_FIRST_PAINT makes it quit right then), the goal being 500 ms.
// Offscreen unless QT_QPA_PLATFORM says otherwise; --system-root DIR starts it on a mounted tree.
#include "BenchRuns.h"
#include "BuildPaths.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>

namespace {
constexpr int kGoalMs = 500;
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("runs (default 9)"),
                                        QStringLiteral("N"), QStringLiteral("9"));
    const QCommandLineOption programOption(QStringLiteral("program"),
                                           QStringLiteral("the cudnn-setup to time"), QStringLiteral("PATH"),
                                           BuildPaths::cudnnSetup());
    const QCommandLineOption rootOption(QStringLiteral("system-root"),
                                        QStringLiteral("start the wizard on the system under DIR"),
                                        QStringLiteral("DIR"));
    const QCommandLineOption langOption(QStringLiteral("lang"), QStringLiteral("the wizard's language"),
                                        QStringLiteral("LANG"), QStringLiteral("en"));
    parser.addOptions({runsOption, programOption, rootOption, langOption});
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CUDNN_SETUP_EXIT_AFTER_FIRST_PAINT"), QStringLiteral("1"));
    if (!environment.contains(QStringLiteral("QT_QPA_PLATFORM")))
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QStringList arguments{QStringLiteral("--lang"), parser.value(langOption)};
    if (parser.isSet(rootOption))
        arguments << QStringLiteral("--system-root") << parser.value(rootOption);
    const QString subject = QStringLiteral("cudnn-setup ") + arguments.join(QLatin1Char(' ')) +
                            QStringLiteral(" (start to first page painted, ") +
                            environment.value(QStringLiteral("QT_QPA_PLATFORM")) + QLatin1Char(')');

    bench::timeRuns(parser.value(programOption), arguments, environment, 1, 0); // warm the page cache
    const QList<double> times = bench::timeRuns(parser.value(programOption), arguments, environment, runs, 0);
    const double median = bench::median(times);
    QTextStream out(stdout);
    out << subject << "\n  median " << QString::number(median, 'f', 1) << " ms over " << runs << " runs ("
        << (median <= kGoalMs ? "within" : "over") << " the goal of " << kGoalMs << " ms)\n";
    const QJsonObject result{{QStringLiteral("subject"), subject},
                             {QStringLiteral("runs"), runs},
                             {QStringLiteral("medianMs"), median},
                             {QStringLiteral("minMs"), *std::min_element(times.cbegin(), times.cend())},
                             {QStringLiteral("maxMs"), *std::max_element(times.cbegin(), times.cend())},
                             {QStringLiteral("goalMs"), kGoalMs}};
    out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}
