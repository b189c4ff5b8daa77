#include "verify/VerifyReport.h"

#include <algorithm>

#include <QJsonArray>

namespace cudnnsetup {

namespace {

// Unknown stays null in the JSON, never an empty string that reads like an answer.
QJsonValue nullable(const QString &value)
{
    return value.isNull() ? QJsonValue() : QJsonValue(value);
}

QString nullableString(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isString() ? value.toString() : QString();
}

QJsonValue nullable(const std::optional<bool> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

std::optional<bool> optionalBool(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isBool() ? std::optional<bool>(value.toBool()) : std::nullopt;
}

QStringList stringList(const QJsonObject &object, const char *key)
{
    QStringList list;
    for (const QJsonValue &value : object.value(QLatin1String(key)).toArray())
        list.append(value.toString());
    return list;
}

// Texts read back from JSON are already translated: they come back verbatim, as Finding's do.
QJsonValue textValue(const Text &text)
{
    return text.isEmpty() ? QJsonValue() : QJsonValue(text.toString());
}

Text textFrom(const QJsonObject &object, const char *key)
{
    const QString text = object.value(QLatin1String(key)).toString();
    return text.isEmpty() ? Text() : Text::verbatim(text);
}

Finding invalid(const QString &details)
{
    return Finding::error(QStringLiteral("verify.report-invalid"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The verification report cannot be read.")),
                          details);
}

QJsonObject dependenciesToJson(const DependencyWalk &walk)
{
    QJsonArray resolved;
    for (const auto &[name, path] : walk.resolved)
        resolved.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("path"), path}});
    QJsonArray problems;
    for (const DependencyProblem &problem : walk.problems)
        problems.append(problem.toJson());
    return {{QStringLiteral("resolved"), resolved}, {QStringLiteral("problems"), problems}};
}

DependencyWalk dependenciesFromJson(const QJsonObject &object)
{
    DependencyWalk walk;
    for (const QJsonValue &value : object.value(QStringLiteral("resolved")).toArray()) {
        const QJsonObject entry = value.toObject();
        walk.resolved.append(
            {entry.value(QStringLiteral("name")).toString(), entry.value(QStringLiteral("path")).toString()});
    }
    for (const QJsonValue &value : object.value(QStringLiteral("problems")).toArray())
        walk.problems.append(DependencyProblem::fromJson(value.toObject()));
    return walk;
}

} // namespace

QJsonObject VerifyStage::toJson() const
{
    // "ok" is the one field a script needs: true, false, or null when the stage did not run.
    const QJsonValue ok = status == Status::Skipped ? QJsonValue() : QJsonValue(status == Status::Passed);
    return {{QStringLiteral("id"), id},
            {QStringLiteral("status"), statusName(status)},
            {QStringLiteral("ok"), ok},
            {QStringLiteral("message"), textValue(message)},
            {QStringLiteral("details"), details},
            {QStringLiteral("fix"), textValue(fix)},
            {QStringLiteral("milliseconds"), milliseconds}};
}

VerifyStage VerifyStage::fromJson(const QJsonObject &object)
{
    VerifyStage stage;
    stage.id = object.value(QStringLiteral("id")).toString();
    stage.status =
        statusFromName(object.value(QStringLiteral("status")).toString()).value_or(Status::Skipped);
    stage.message = textFrom(object, "message");
    stage.details = object.value(QStringLiteral("details")).toString();
    stage.fix = textFrom(object, "fix");
    stage.milliseconds = object.value(QStringLiteral("milliseconds")).toDouble();
    return stage;
}

QJsonObject FrameworkCheck::toJson() const
{
    return {{QStringLiteral("python"), nullable(python)},
            {QStringLiteral("torchVersion"), nullable(torchVersion)},
            {QStringLiteral("torchCuda"), nullable(torchCuda)},
            {QStringLiteral("cudaAvailable"), nullable(cudaAvailable)},
            {QStringLiteral("cudnnVersion"), nullable(cudnnVersion)},
            {QStringLiteral("cudnnLoadedFrom"), nullable(cudnnLoadedFrom)},
            {QStringLiteral("usesCheckedCudnn"), nullable(usesCheckedCudnn)},
            {QStringLiteral("convolutionPassed"), nullable(convolutionPassed)},
            {QStringLiteral("error"), nullable(error)},
            {QStringLiteral("milliseconds"), milliseconds}};
}

FrameworkCheck FrameworkCheck::fromJson(const QJsonObject &object)
{
    FrameworkCheck check;
    check.python = nullableString(object, "python");
    check.torchVersion = nullableString(object, "torchVersion");
    check.torchCuda = nullableString(object, "torchCuda");
    check.cudaAvailable = optionalBool(object, "cudaAvailable");
    check.cudnnVersion = nullableString(object, "cudnnVersion");
    check.cudnnLoadedFrom = nullableString(object, "cudnnLoadedFrom");
    check.usesCheckedCudnn = optionalBool(object, "usesCheckedCudnn");
    check.convolutionPassed = optionalBool(object, "convolutionPassed");
    check.error = nullableString(object, "error");
    check.milliseconds = object.value(QStringLiteral("milliseconds")).toDouble();
    return check;
}

QString VerifyReport::loadedFrom() const
{
    // The probe loads the main library first; what it mapped is what a fresh program gets.
    return probe.loads.isEmpty() ? QString() : probe.loads.first().loadedFrom;
}

const VerifyStage *VerifyReport::stage(const QString &id) const
{
    const auto found = std::find_if(stages.cbegin(), stages.cend(),
                                    [&id](const VerifyStage &stage) { return stage.id == id; });
    return found == stages.cend() ? nullptr : &*found;
}

bool VerifyReport::passed() const
{
    return std::none_of(stages.cbegin(), stages.cend(),
                        [](const VerifyStage &stage) { return stage.status == VerifyStage::Status::Failed; });
}

bool VerifyReport::ranOnGpu() const
{
    const auto passedStage = [this](const char *id) {
        const VerifyStage *found = stage(QString::fromLatin1(id));
        return found && found->status == VerifyStage::Status::Passed;
    };
    return passedStage("handle") && passedStage("convolution");
}

QJsonObject VerifyReport::toJson() const
{
    QJsonArray frameworkArray;
    for (const FrameworkCheck &framework : frameworks)
        frameworkArray.append(framework.toJson());
    QJsonArray stageArray;
    for (const VerifyStage &entry : stages)
        stageArray.append(entry.toJson());
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    const QString loaded = loadedFrom();
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("createdAt"),
             createdAt.isValid() ? QJsonValue(createdAt.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue()},
            {QStringLiteral("passed"), passed()},
            {QStringLiteral("directory"), nullable(directory)},
            {QStringLiteral("libraries"), QJsonArray::fromStringList(libraries)},
            {QStringLiteral("subjectSource"), nullable(subjectSource)},
            {QStringLiteral("receiptId"), nullable(receiptId)},
            {QStringLiteral("expectedVersion"), nullable(expectedVersion)},
            {QStringLiteral("cudnnVersion"), nullable(cudnnVersion)},
            {QStringLiteral("cudaToolkitVersion"), nullable(cudaToolkitVersion)},
            {QStringLiteral("probePath"), QJsonArray::fromStringList(probePath)},
            {QStringLiteral("probeEnvironmentSource"), nullable(probeEnvironmentSource)},
            {QStringLiteral("loadedFrom"), loaded.isEmpty() ? QJsonValue() : QJsonValue(loaded)},
            {QStringLiteral("probe"), probe.toJson()},
            {QStringLiteral("targetProbe"), targetProbe ? QJsonValue(targetProbe->toJson()) : QJsonValue()},
            {QStringLiteral("dependencies"), dependenciesToJson(dependencies)},
            {QStringLiteral("frameworks"), frameworkArray},
            {QStringLiteral("stages"), stageArray},
            {QStringLiteral("findings"), findingArray},
            {QStringLiteral("totalMilliseconds"), totalMilliseconds}};
}

Expected<VerifyReport> VerifyReport::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return invalid(QStringLiteral("schema %1 expected").arg(QLatin1String(kSchema)));
    const QJsonValue stageValues = object.value(QStringLiteral("stages"));
    if (!stageValues.isArray())
        return invalid(QStringLiteral("verify report: \"stages\" array expected"));

    VerifyReport report;
    const QJsonValue created = object.value(QStringLiteral("createdAt"));
    if (created.isString())
        report.createdAt = QDateTime::fromString(created.toString(), Qt::ISODateWithMs);
    report.directory = nullableString(object, "directory");
    report.libraries = stringList(object, "libraries");
    report.subjectSource = nullableString(object, "subjectSource");
    report.receiptId = nullableString(object, "receiptId");
    report.expectedVersion = nullableString(object, "expectedVersion");
    report.cudnnVersion = nullableString(object, "cudnnVersion");
    report.cudaToolkitVersion = nullableString(object, "cudaToolkitVersion");
    report.probePath = stringList(object, "probePath");
    report.probeEnvironmentSource = nullableString(object, "probeEnvironmentSource");

    // A report written before the probe ran has none; one that has a probe must read back whole.
    const QJsonValue probeValue = object.value(QStringLiteral("probe"));
    if (probeValue.isObject()) {
        Expected<ProbeResult> probe = ProbeResult::fromJson(probeValue.toObject());
        if (!probe)
            return invalid(QStringLiteral("verify report: probe: %1").arg(probe.error().details));
        report.probe = probe.value();
    }
    const QJsonValue targetValue = object.value(QStringLiteral("targetProbe"));
    if (targetValue.isObject()) {
        Expected<ProbeResult> target = ProbeResult::fromJson(targetValue.toObject());
        if (!target)
            return invalid(QStringLiteral("verify report: targetProbe: %1").arg(target.error().details));
        report.targetProbe = target.value();
    }
    report.dependencies = dependenciesFromJson(object.value(QStringLiteral("dependencies")).toObject());
    for (const QJsonValue &value : object.value(QStringLiteral("frameworks")).toArray())
        report.frameworks.append(FrameworkCheck::fromJson(value.toObject()));
    for (const QJsonValue &value : stageValues.toArray()) {
        const QJsonObject stageObject = value.toObject();
        const QString status = stageObject.value(QStringLiteral("status")).toString();
        if (!VerifyStage::statusFromName(status))
            return invalid(QStringLiteral("verify report: stage status \"%1\" unknown").arg(status));
        report.stages.append(VerifyStage::fromJson(stageObject));
    }
    for (const QJsonValue &value : object.value(QStringLiteral("findings")).toArray())
        report.findings.append(Finding::fromJson(value.toObject()));
    report.totalMilliseconds = object.value(QStringLiteral("totalMilliseconds")).toDouble();
    return report;
}

} // namespace cudnnsetup
