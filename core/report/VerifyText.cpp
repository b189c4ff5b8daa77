#include "report/VerifyText.h"

#include <algorithm>

#include "doctor/Doctor.h"
#include "report/TextTable.h"
#include "verify/ConsumerVerify.h"
#include "verify/VerifyReport.h"

#include <QCoreApplication>
#include <QDir>

namespace cudnnsetup {

namespace {

QString statusMark(VerifyStage::Status status)
{
    switch (status) {
    case VerifyStage::Status::Passed:
        return QCoreApplication::translate("cudnnsetup", "[ok]  ");
    case VerifyStage::Status::Failed:
        return QCoreApplication::translate("cudnnsetup", "[FAIL]");
    case VerifyStage::Status::Skipped:
        return QCoreApplication::translate("cudnnsetup", "[skip]");
    }
    return {};
}

} // namespace

QString verifyStageName(const QString &id)
{
    if (id == QLatin1String("load"))
        return QCoreApplication::translate("cudnnsetup", "Load");
    if (id == QLatin1String("dependencies"))
        return QCoreApplication::translate("cudnnsetup", "Dependencies");
    if (id == QLatin1String("version"))
        return QCoreApplication::translate("cudnnsetup", "Version");
    if (id == QLatin1String("handle"))
        return QCoreApplication::translate("cudnnsetup", "cuDNN handle");
    if (id == QLatin1String("convolution"))
        return QCoreApplication::translate("cudnnsetup", "Convolution");
    if (id == QLatin1String("framework"))
        return QCoreApplication::translate("cudnnsetup", "Framework");
    return id;
}

QString verifyText(const VerifyReport &report)
{
    QString out;
    const QString version = report.cudnnVersion.isEmpty() ? report.expectedVersion : report.cudnnVersion;
    out += (version.isEmpty() ? QCoreApplication::translate("cudnnsetup", "cuDNN checked: %1")
                                    .arg(QDir::toNativeSeparators(report.directory))
                              : QCoreApplication::translate("cudnnsetup", "cuDNN checked: %1 (%2)")
                                    .arg(QDir::toNativeSeparators(report.directory), version)) +
           QLatin1Char('\n');
    for (const VerifyStage &stage : report.stages) {
        // The separator and the unit are translated too: a Chinese report reads "加载：……（12 毫秒）".
        out += QStringLiteral("%1 ").arg(statusMark(stage.status)) +
               QCoreApplication::translate("cudnnsetup", "%1: %2")
                   .arg(verifyStageName(stage.id), stage.message.toString());
        if (stage.milliseconds > 0)
            out += QCoreApplication::translate("cudnnsetup", " (%1 ms)").arg(stage.milliseconds, 0, 'f', 0);
        out += QLatin1Char('\n');
        if (stage.status == VerifyStage::Status::Failed && !stage.fix.isEmpty())
            out += QStringLiteral("       ") +
                   QCoreApplication::translate("cudnnsetup", "Fix: %1").arg(stage.fix.toString()) +
                   QLatin1Char('\n');
    }
    // "Verified" only when cuDNN ran on the GPU, as the Verify and Finish pages say.
    out += (!report.passed() ? QCoreApplication::translate("cudnnsetup", "Verification failed (%1 s).")
            : report.ranOnGpu()
                ? QCoreApplication::translate("cudnnsetup", "Verified in %1 s.")
                : QCoreApplication::translate("cudnnsetup", "Passed in part, the GPU was not used (%1 s)."))
               .arg(report.totalMilliseconds / 1000.0, 0, 'f', 2) +
           QLatin1Char('\n');
    if (!report.findings.isEmpty())
        out += QLatin1Char('\n') + findingsText(report.findings);
    return out;
}

QString consumerVerifyText(const ConsumerVerifyReport &report)
{
    QString out;
    for (const ConsumerLoadCheck &check : report.consumers) {
        const ConsumerInfo &consumer = check.consumer;
        out += QStringLiteral("%1 %2 (%3)\n")
                   .arg(check.passed() ? statusMark(VerifyStage::Status::Passed)
                                       : statusMark(VerifyStage::Status::Failed),
                        consumer.version.isEmpty()
                            ? consumer.name
                            : QStringLiteral("%1 %2").arg(consumer.name, consumer.version),
                        QDir::toNativeSeparators(consumer.location));
        for (const QString &module : check.modules)
            out += QStringLiteral("       ") +
                   QCoreApplication::translate("cudnnsetup", "Module: %1")
                       .arg(QDir::toNativeSeparators(module)) +
                   QLatin1Char('\n');
        const QString bound = check.bound.isEmpty() ? QCoreApplication::translate("cudnnsetup", "none")
                              : check.boundVersion.isEmpty()
                                  ? QDir::toNativeSeparators(check.bound)
                                  : QCoreApplication::translate("cudnnsetup", "%1 (cuDNN %2)")
                                        .arg(QDir::toNativeSeparators(check.bound), check.boundVersion);
        out += QStringLiteral("       ") +
               QCoreApplication::translate("cudnnsetup", "cuDNN bound: %1").arg(bound) + QLatin1Char('\n');
        const QString predicted =
            check.predictedName.isEmpty() ? QCoreApplication::translate("cudnnsetup", "no cuDNN needed")
            : !check.predicted
                ? QCoreApplication::translate("cudnnsetup", "%1 reaches no copy").arg(check.predictedName)
            : check.predicted->version.isEmpty()
                ? QDir::toNativeSeparators(check.predicted->path)
                : QCoreApplication::translate("cudnnsetup", "%1 (cuDNN %2)")
                      .arg(QDir::toNativeSeparators(check.predicted->path), check.predicted->version);
        out += QStringLiteral("       ") +
               QCoreApplication::translate("cudnnsetup", "Detection expected: %1").arg(predicted) +
               QLatin1Char('\n');
        if (!check.findings.isEmpty())
            out += findingsText(check.findings);
    }
    if (!report.findings.isEmpty())
        out += findingsText(report.findings);
    out +=
        (report.passed() ? QCoreApplication::translate("cudnnsetup", "Each program bound the cuDNN it needs.")
                         : QCoreApplication::translate("cudnnsetup", "Verification failed.")) +
        QLatin1Char('\n');
    return out;
}

QString doctorText(const DoctorReport &report)
{
    QString out;
    const auto fromLog = [](const Diagnosis &diagnosis) {
        return diagnosis.finding.id.startsWith(QLatin1String("log."));
    };
    const bool machineHealthy =
        std::none_of(report.diagnoses.cbegin(), report.diagnoses.cend(),
                     [&fromLog](const Diagnosis &diagnosis) { return !fromLog(diagnosis); });
    if (report.log) {
        out += QCoreApplication::translate("cudnnsetup", "The error you pasted:") + QLatin1Char('\n');
        if (!report.log->recognised())
            out += QStringLiteral("   ") +
                   QCoreApplication::translate(
                       "cudnnsetup", "Not recognised: the text holds no cuDNN, CUDA or driver failure "
                                     "this version knows, so nothing is concluded from it.") +
                   QLatin1Char('\n');
    } else if (machineHealthy) {
        return QCoreApplication::translate("cudnnsetup", "No problems found.") + QLatin1Char('\n');
    }
    int number = 0;
    qsizetype logIndex = 0;
    bool systemHeading = !report.log;
    for (const Diagnosis &diagnosis : report.diagnoses) {
        const Finding &finding = diagnosis.finding;
        if (!systemHeading && !fromLog(diagnosis)) {
            out += QCoreApplication::translate("cudnnsetup", "This system:") + QLatin1Char('\n');
            systemHeading = true;
        }
        out +=
            QStringLiteral("%1. [%2] %3\n")
                .arg(QString::number(++number), severityLabel(finding.severity), finding.message.toString());
        if (fromLog(diagnosis) && report.log && logIndex < report.log->signatures.size()) {
            // Where in the text it was: the log's signatures are the first diagnoses, in order.
            const LogSignature &signature = report.log->signatures.at(logIndex++);
            out += QStringLiteral("   ") +
                   QCoreApplication::translate("cudnnsetup", "Line %1 of the text: %2")
                       .arg(signature.line)
                       .arg(signature.excerpt) +
                   QLatin1Char('\n');
        }
        if (!finding.fix.isEmpty())
            out += QStringLiteral("   ") +
                   QCoreApplication::translate("cudnnsetup", "Fix: %1").arg(finding.fix.toString()) +
                   QLatin1Char('\n');
        if (diagnosis.repair) {
            out += QStringLiteral("   ") +
                   QCoreApplication::translate("cudnnsetup", "Repair offered: %1")
                       .arg(diagnosis.repair->summary.toString()) +
                   QLatin1Char('\n');
            for (const Text &line : diagnosis.repair->preview)
                out += QStringLiteral("     ") + line.toString() + QLatin1Char('\n');
        }
    }
    if (report.log && machineHealthy)
        out += QCoreApplication::translate("cudnnsetup", "This system:") + QLatin1Char('\n') +
               QStringLiteral("   ") + QCoreApplication::translate("cudnnsetup", "No problems found.") +
               QLatin1Char('\n');
    return out;
}

} // namespace cudnnsetup
