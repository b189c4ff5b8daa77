// Times reading a pasted error log, as `cudnnctl doctor --from-log` does: the bytes decoded (UTF-8,
// or GBK where they are not UTF-8) and every signature found. The log is a 10 MB training run made
// here: tracebacks, progress bars glued with \r, warnings, and a few real signatures spread through
// it, one in Chinese; the goal is 100 ms.
//
// usage: bench_errorlog [--runs N] [--megabytes N]
#include "BenchRuns.h"
#include "verify/ErrorLog.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace cudnnsetup;

namespace {

constexpr double kGoalMs = 100;

// Lines a long run prints, most of them noise to the reader.
QString syntheticLog(qsizetype bytes)
{
    const QStringList noise{
        QStringLiteral(
            "  File \"/home/ana/venv/lib/python3.12/site-packages/torch/nn/modules/module.py\", line "
            "1751, in _call_impl\n"),
        QStringLiteral("    return forward_call(*args, **kwargs)\n"),
        QStringLiteral("Epoch 3/50:  41%|████      | 410/1000 [01:12<01:44,  5.66it/s, loss=0.4312]\r"
                       "Epoch 3/50:  41%|████      | 411/1000 [01:12<01:44,  5.66it/s, loss=0.4309]\n"),
        QStringLiteral("2026-03-01 12:00:01.123456: I external/local_xla/xla/service/service.cc:168] XLA "
                       "service 0x5581c2a0 initialized for platform CUDA (this does not guarantee that XLA "
                       "will be used). Devices:\n"),
        QStringLiteral("W0301 12:00:02.000000 140 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute "
                       "Capability: 8.6, Driver API Version: 12.4, Runtime API Version: 11.8\n"),
        QStringLiteral("UserWarning: TypedStorage is deprecated. It will be removed in the future.\n"),
    };
    const QStringList signatures{
        QStringLiteral("Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n"),
        QStringLiteral(
            "OSError: [WinError 126] 找不到指定的模块。 Error loading \"C:\\venv\\Lib\\site-packages\\"
            "torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.\n"),
        QStringLiteral("E cuda_dnn.cc:447] Loaded runtime CuDNN library: 8.7.0 but source was compiled with: "
                       "8.9.4.\n"),
        QStringLiteral("Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n"),
    };
    QString log;
    log.reserve(bytes);
    for (qsizetype i = 0; log.size() < bytes; ++i) {
        log += noise.at(i % noise.size());
        if (i % 20000 == 19999)
            log += signatures.at(i / 20000 % signatures.size());
    }
    return log;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("runs (default 9)"),
                                        QStringLiteral("N"), QStringLiteral("9"));
    const QCommandLineOption sizeOption(QStringLiteral("megabytes"), QStringLiteral("log size (default 10)"),
                                        QStringLiteral("N"), QStringLiteral("10"));
    parser.addOptions({runsOption, sizeOption});
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());
    const qsizetype characters = parser.value(sizeOption).toLongLong() * 1000 * 1000;

    const QByteArray bytes = syntheticLog(characters).toUtf8();
    QList<double> times;
    QList<double> decodeTimes;
    qsizetype found = 0;
    for (int run = 0; run < runs; ++run) {
        QElapsedTimer clock;
        clock.start();
        const QString decoded = errorLogText(bytes);
        decodeTimes.append(clock.nsecsElapsed() / 1e6);
        const ErrorLog log = readErrorLog(decoded);
        times.append(clock.nsecsElapsed() / 1e6);
        found = log.signatures.size();
    }
    const double median = bench::median(times);
    const QString subject =
        QStringLiteral("errorLogText + readErrorLog of a %1 MB UTF-8 log").arg(bytes.size() / 1e6, 0, 'f', 1);
    QTextStream out(stdout);
    out << subject << "\n  median " << QString::number(median, 'f', 1) << " ms over " << runs << " runs, "
        << found << " signatures (" << (median <= kGoalMs ? "within" : "over") << " the goal of " << kGoalMs
        << " ms); decoding alone " << QString::number(bench::median(decodeTimes), 'f', 1) << " ms\n";
    const QJsonObject result{{QStringLiteral("subject"), subject},
                             {QStringLiteral("runs"), runs},
                             {QStringLiteral("signatures"), qint64(found)},
                             {QStringLiteral("medianMs"), median},
                             {QStringLiteral("decodeMedianMs"), bench::median(decodeTimes)},
                             {QStringLiteral("minMs"), *std::min_element(times.cbegin(), times.cend())},
                             {QStringLiteral("maxMs"), *std::max_element(times.cbegin(), times.cend())},
                             {QStringLiteral("goalMs"), kGoalMs}};
    out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    return found == 4 ? 0 : 1;
}
