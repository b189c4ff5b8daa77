#include "report/CheckReport.h"

#include "compat/ConsumerVerdicts.h"
#include "compat/CudaNumbers.h"
#include "compat/DatabaseChoice.h"
#include "compat/Matcher.h"
#include "report/TextTable.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace cudnnsetup {

namespace {

QJsonValue versionValue(const Version &version)
{
    return version.isValid() ? QJsonValue(version.toString()) : QJsonValue();
}

QString orUnknown(const Version &version)
{
    return version.isValid() ? version.toString() : QCoreApplication::translate("cudnnsetup", "unknown");
}

} // namespace

std::optional<bool> consumersCompatible(const QList<JudgedConsumer> &consumers)
{
    bool open = false;
    for (const JudgedConsumer &entry : consumers) {
        if (entry.verdict.runs == ConsumerVerdict::Runs::No ||
            entry.verdict.findsCudnn == ConsumerVerdict::FindsCudnn::No || !entry.verdict.missing.isEmpty() ||
            !entry.found)
            return false;
        open = open || !entry.verdict.fine();
    }
    return open ? std::nullopt : std::optional<bool>(true);
}

QString consumerVerdictsText(const QList<JudgedConsumer> &consumers)
{
    const auto runs = [](ConsumerVerdict::Runs value) {
        switch (value) {
        case ConsumerVerdict::Runs::Yes:
            return QCoreApplication::translate("cudnnsetup", "yes");
        case ConsumerVerdict::Runs::No:
            return QCoreApplication::translate("cudnnsetup", "no");
        case ConsumerVerdict::Runs::CannotTell:
            break;
        }
        return QCoreApplication::translate("cudnnsetup", "cannot tell");
    };
    const auto finds = [&runs](ConsumerVerdict::FindsCudnn value) {
        switch (value) {
        case ConsumerVerdict::FindsCudnn::Yes:
            return runs(ConsumerVerdict::Runs::Yes);
        case ConsumerVerdict::FindsCudnn::No:
            return runs(ConsumerVerdict::Runs::No);
        case ConsumerVerdict::FindsCudnn::CannotTell:
            return runs(ConsumerVerdict::Runs::CannotTell);
        case ConsumerVerdict::FindsCudnn::NotNeeded:
            break;
        }
        return QCoreApplication::translate("cudnnsetup", "not needed");
    };
    QString out;
    for (const JudgedConsumer &entry : consumers) {
        const ConsumerInfo &consumer = entry.consumer;
        out += consumer.version.isEmpty() ? consumer.name
                                          : QStringLiteral("%1 %2").arg(consumer.name, consumer.version);
        if (!consumer.location.isEmpty())
            out += QStringLiteral("  ") + consumer.location;
        out += QLatin1Char('\n');
        out += QStringLiteral("  ") +
               QCoreApplication::translate("cudnnsetup", "Runs on this GPU: %1; finds its cuDNN: %2")
                   .arg(runs(entry.verdict.runs), finds(entry.verdict.findsCudnn)) +
               QLatin1Char('\n');
        if (!entry.verdict.summary.isEmpty())
            out += QStringLiteral("  ") + entry.verdict.summary.toString() + QLatin1Char('\n');
        out += QStringLiteral("  ") +
               QCoreApplication::translate("cudnnsetup", "Fix: %1").arg(entry.verdict.fix.toString()) +
               QLatin1Char('\n');
        if (!entry.verdict.command.isEmpty())
            out += QStringLiteral("    %1\n")
                       .arg(entry.verdict.command.split(QLatin1Char('\n')).join(QStringLiteral("\n    ")));
    }
    return out;
}

QJsonObject checkJson(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database,
                      const QList<JudgedConsumer> &consumers, const QString &forWhat)
{
    const CudaNumbers numbers = CudaNumbers::of(facts, result, database.database);
    QJsonArray gpus;
    for (const MatchFacts::Gpu &gpu : facts.gpus)
        gpus.append(QJsonObject{{QStringLiteral("name"), gpu.name},
                                {QStringLiteral("computeCapability"), versionValue(gpu.computeCapability)}});
    QJsonObject inputs{{QStringLiteral("os"), osFamilyName(facts.os)},
                       {QStringLiteral("arch"), facts.arch},
                       {QStringLiteral("wsl2"), facts.wsl2},
                       {QStringLiteral("driver"), versionValue(facts.driver)},
                       {QStringLiteral("gpus"), gpus}};
    if (facts.archive) {
        inputs.insert(QStringLiteral("cudnn"),
                      QJsonObject{{QStringLiteral("version"), facts.archive->cudnn.toString()},
                                  {QStringLiteral("cudaVariant"), facts.archive->cudaVariant},
                                  {QStringLiteral("platform"), facts.archive->platform}});
    } else {
        inputs.insert(QStringLiteral("cudnn"), QJsonValue());
    }
    QJsonArray findings;
    for (const Finding &finding : result.findings)
        findings.append(finding.toJson());
    QJsonArray judged;
    for (const JudgedConsumer &entry : consumers)
        judged.append(entry.toJson());
    const std::optional<bool> consumersFit = consumersCompatible(consumers);
    return QJsonObject{
        {QStringLiteral("schema"), QLatin1String(MatchResult::kSchema)},
        // "cannot tell" is null: nobody knows, which is neither yes nor no.
        {QStringLiteral("compatible"),
         !forWhat.isEmpty() ? (consumersFit ? QJsonValue(*consumersFit) : QJsonValue())
         : result.verdict() == MatchResult::Verdict::CannotTell ? QJsonValue()
                                                                : QJsonValue(result.compatible())},
        {QStringLiteral("for"), forWhat.isEmpty() ? QJsonValue() : QJsonValue(forWhat)},
        {QStringLiteral("consumers"), judged},
        {QStringLiteral("database"), QJsonObject{{QStringLiteral("version"), database.database.version()},
                                                 {QStringLiteral("date"), database.database.date()},
                                                 {QStringLiteral("origin"), database.origin}}},
        {QStringLiteral("cuda"),
         QJsonObject{{QStringLiteral("driverMaxCuda"), versionValue(numbers.driverMaxCuda)},
                     {QStringLiteral("toolkit"), versionValue(numbers.toolkit)},
                     {QStringLiteral("framework"), versionValue(numbers.framework)},
                     {QStringLiteral("archive"),
                      numbers.archiveCuda.isEmpty() ? QJsonValue() : QJsonValue(numbers.archiveCuda)}}},
        {QStringLiteral("inputs"), inputs},
        {QStringLiteral("findings"), findings},
        {QStringLiteral("recommendation"),
         result.recommendation ? QJsonValue(result.recommendation->toJson()) : QJsonValue()}};
}

QString checkText(const MatchFacts &facts, const MatchResult &result, const DatabaseChoice &database,
                  const QList<JudgedConsumer> &consumers, const QString &forWhat)
{
    const QString databaseLine =
        database.origin == QLatin1String("embedded")
            ? QCoreApplication::translate("cudnnsetup", "Compatibility database %1 (%2), built in")
                  .arg(database.database.version(), database.database.date())
            : QCoreApplication::translate("cudnnsetup", "Compatibility database %1 (%2) from %3")
                  .arg(database.database.version(), database.database.date(), database.origin);
    if (!forWhat.isEmpty())
        return consumerVerdictsText(consumers) + QLatin1Char('\n') + databaseLine + QLatin1Char('\n');
    const CudaNumbers numbers = CudaNumbers::of(facts, result, database.database);
    QString out;
    switch (result.verdict()) {
    case MatchResult::Verdict::Compatible:
        out += QCoreApplication::translate("cudnnsetup", "Compatible: yes");
        break;
    case MatchResult::Verdict::CannotTell:
        out += QCoreApplication::translate("cudnnsetup", "Compatible: cannot tell");
        break;
    case MatchResult::Verdict::Incompatible:
        out += QCoreApplication::translate("cudnnsetup", "Compatible: no");
        break;
    }
    out += QLatin1Char('\n');
    out += QLatin1Char('\n');
    TextTable table;
    const auto line = [&table](const QString &label, const QString &value) {
        table.row(QStringLiteral("  ") + label, value);
    };
    line(QCoreApplication::translate("cudnnsetup", "Newest CUDA the driver runs"),
         orUnknown(numbers.driverMaxCuda));
    line(QCoreApplication::translate("cudnnsetup", "CUDA toolkit (nvcc)"),
         numbers.toolkit.isValid() ? numbers.toolkit.toString()
                                   : QCoreApplication::translate("cudnnsetup", "none"));
    line(QCoreApplication::translate("cudnnsetup", "CUDA the framework was built for"),
         numbers.framework.isValid()
             ? QStringLiteral("%1 (%2)").arg(numbers.framework.toString(), numbers.frameworkName)
             : (numbers.frameworkName.isEmpty()
                    ? QCoreApplication::translate("cudnnsetup", "no framework found")
                    : QStringLiteral("%1 (%2)").arg(QCoreApplication::translate("cudnnsetup", "CPU only"),
                                                    numbers.frameworkName)));
    line(numbers.archiveRecommended
             ? QCoreApplication::translate("cudnnsetup", "CUDA of the recommended cuDNN archive")
             : QCoreApplication::translate("cudnnsetup", "CUDA of the cuDNN archive"),
         numbers.archiveCuda.isEmpty() ? QCoreApplication::translate("cudnnsetup", "none")
                                       : numbers.archiveCuda);
    out += table.text();
    if (!result.findings.isEmpty())
        out += QLatin1Char('\n') + findingsText(result.findings);
    if (result.recommendation) {
        const Recommendation &recommendation = *result.recommendation;
        out += QLatin1Char('\n') + QCoreApplication::translate("cudnnsetup", "Recommendation") +
               QLatin1Char('\n');
        out += QStringLiteral("  ") +
               QCoreApplication::translate("cudnnsetup", "Download %1").arg(recommendation.archiveFile) +
               QLatin1Char('\n');
        if (!recommendation.url.isEmpty())
            out += QStringLiteral("  %1\n").arg(recommendation.url);
        if (!recommendation.sha256.isEmpty())
            out +=
                QStringLiteral("  ") +
                QCoreApplication::translate("cudnnsetup", "NVIDIA's SHA-256: %1").arg(recommendation.sha256) +
                QLatin1Char('\n');
        if (recommendation.targetToolkit && !recommendation.targetToolkit->path.isEmpty())
            out += QStringLiteral("  ") +
                   QCoreApplication::translate("cudnnsetup", "For the CUDA %1 toolkit in %2")
                       .arg(recommendation.targetToolkit->version.toString(),
                            recommendation.targetToolkit->path) +
                   QLatin1Char('\n');
        if (recommendation.driverUpdateNeeded) {
            out +=
                QStringLiteral("  ") +
                (recommendation.driverMinimum.isValid()
                     ? QCoreApplication::translate("cudnnsetup", "First update the driver to %1 or newer.")
                           .arg(recommendation.driverMinimum.toString())
                     : QCoreApplication::translate(
                           "cudnnsetup", "First update the driver to one that supports this CUDA version.")) +
                QLatin1Char('\n');
        }
    }
    if (!consumers.isEmpty())
        out += QLatin1Char('\n') + QCoreApplication::translate("cudnnsetup", "Programs that use cuDNN/CUDA") +
               QLatin1Char('\n') + consumerVerdictsText(consumers);
    out += QLatin1Char('\n') + databaseLine + QLatin1Char('\n');
    return out;
}

} // namespace cudnnsetup
