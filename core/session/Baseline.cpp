#include "session/Baseline.h"

#include "archive/ArchiveInspector.h"
#include "common/JsonNull.h"
#include "common/Logging.h"
#include "compat/ArchiveName.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/Matcher.h"
#include "install/TargetSpec.h"
#include "verify/InstallStatus.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace cudnnsetup {

namespace {

const QStringList &verificationStages()
{
    static const QStringList stages{QStringLiteral("load"), QStringLiteral("handle"),
                                    QStringLiteral("convolution")};
    return stages;
}

const QStringList &knownConsumers()
{
    static const QStringList names{QStringLiteral("torch"), QStringLiteral("tensorflow"),
                                   QStringLiteral("onnxruntime"), QStringLiteral("ctranslate2")};
    return names;
}

Finding invalid(const QString &key, const QString &why)
{
    return Finding::error(
        QStringLiteral("baseline.invalid"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The baseline file is not one this version reads: %1 (%2)."))
            .arg(key, why),
        key,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Write it again with: cudnnctl baseline export --out FILE")));
}

// Every key of `object` is one of `known`: a misspelt key would otherwise be ignored.
std::optional<Finding> unknownKey(const QJsonObject &object, const QStringList &known, const QString &where)
{
    for (auto key = object.constBegin(); key != object.constEnd(); ++key) {
        if (!known.contains(key.key()))
            return invalid(where.isEmpty() ? key.key() : where + QLatin1Char('.') + key.key(),
                           QStringLiteral("unknown key"));
    }
    return std::nullopt;
}

// The programs judged to work here, by the names `check --for` takes, with the cuDNN majors they use.
QList<Baseline::Consumer> workingConsumers(const SystemSnapshot &snapshot, const KnowledgeBase &kb)
{
    const MatchFacts facts = MatchFacts::fromSnapshot(snapshot);
    QList<Baseline::Consumer> working;
    for (const QString &name : knownConsumers()) {
        const Expected<QList<JudgedConsumer>> judged = judgeFor(name, snapshot.consumers, facts, kb);
        if (!judged)
            continue;
        Baseline::Consumer consumer{name, {}};
        bool fine = false;
        for (const JudgedConsumer &entry : *judged) {
            if (!entry.found || !entry.verdict.fine())
                continue;
            fine = true;
            if (entry.consumer.cudnnMajor && !consumer.cudnnMajors.contains(*entry.consumer.cudnnMajor))
                consumer.cudnnMajors.append(*entry.consumer.cudnnMajor);
        }
        if (fine)
            working.append(consumer);
    }
    return working;
}

// Whether the copy a new program loads is the one in `folder`.
bool loadedFirstFrom(const SystemSnapshot &snapshot, const QString &folder, const SystemContext &context)
{
    const CudnnCopy *loaded = snapshot.cudnnLoadedByDefault();
    return loaded && context.paths().equal(loaded->directory, folder);
}

Version driverOf(const SystemSnapshot &snapshot, const Version &given)
{
    if (given.isValid() || !snapshot.driver)
        return given;
    return Version::parse(snapshot.driver->version);
}

} // namespace

QString Baseline::pathPositionName(PathPosition position)
{
    return position == PathPosition::First ? QStringLiteral("first") : QStringLiteral("any");
}

QJsonObject Baseline::toJson() const
{
    QJsonArray consumerArray;
    for (const Consumer &consumer : consumers) {
        QJsonArray majors;
        for (const int major : consumer.cudnnMajors)
            majors.append(major);
        consumerArray.append(
            QJsonObject{{QStringLiteral("name"), consumer.name}, {QStringLiteral("cudnnMajors"), majors}});
    }
    return {
        {QStringLiteral("schema"), QLatin1String(kSchema)},
        {QStringLiteral("created"), created},
        {QStringLiteral("madeFrom"), madeFrom},
        {QStringLiteral("driver"),
         QJsonObject{{QStringLiteral("minimum"),
                      driverMinimum.isValid() ? QJsonValue(driverMinimum.toString()) : QJsonValue()}}},
        {QStringLiteral("cudnn"), QJsonObject{{QStringLiteral("version"), cudnn.toString()},
                                              {QStringLiteral("cudaMajor"), cudaMajor},
                                              {QStringLiteral("archive"), orNull(archive)}}},
        {QStringLiteral("target"), target.toJson()},
        {QStringLiteral("path"), QJsonObject{{QStringLiteral("scope"), pathScopeName(target.pathScope)},
                                             {QStringLiteral("position"), pathPositionName(pathPosition)}}},
        {QStringLiteral("consumers"), consumerArray},
        {QStringLiteral("verification"), QJsonArray::fromStringList(verification)},
    };
}

Expected<Baseline> Baseline::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return invalid(
            QStringLiteral("schema"),
            QStringLiteral("\"%1\", expected \"%2\"")
                .arg(object.value(QStringLiteral("schema")).toVariant().toString(), QLatin1String(kSchema)));
    if (const auto unknown =
            unknownKey(object,
                       {QStringLiteral("schema"), QStringLiteral("created"), QStringLiteral("madeFrom"),
                        QStringLiteral("driver"), QStringLiteral("cudnn"), QStringLiteral("target"),
                        QStringLiteral("path"), QStringLiteral("consumers"), QStringLiteral("verification")},
                       {}))
        return *unknown;
    Baseline baseline;
    baseline.created = object.value(QStringLiteral("created")).toString();
    baseline.madeFrom = object.value(QStringLiteral("madeFrom")).toString();

    const QJsonObject driver = object.value(QStringLiteral("driver")).toObject();
    if (const auto unknown = unknownKey(driver, {QStringLiteral("minimum")}, QStringLiteral("driver")))
        return *unknown;
    const QJsonValue minimum = driver.value(QStringLiteral("minimum"));
    if (!minimum.isNull() && !minimum.isUndefined()) {
        baseline.driverMinimum = Version::parse(minimum.toString());
        if (!baseline.driverMinimum.isValid())
            return invalid(QStringLiteral("driver.minimum"), QStringLiteral("not a version"));
    }

    const QJsonValue cudnnValue = object.value(QStringLiteral("cudnn"));
    if (!cudnnValue.isObject())
        return invalid(QStringLiteral("cudnn"), QStringLiteral("missing"));
    const QJsonObject cudnn = cudnnValue.toObject();
    if (const auto unknown = unknownKey(
            cudnn, {QStringLiteral("version"), QStringLiteral("cudaMajor"), QStringLiteral("archive")},
            QStringLiteral("cudnn")))
        return *unknown;
    baseline.cudnn = Version::parse(cudnn.value(QStringLiteral("version")).toString());
    if (!baseline.cudnn.isValid())
        return invalid(QStringLiteral("cudnn.version"), QStringLiteral("not a version"));
    baseline.cudaMajor = cudnn.value(QStringLiteral("cudaMajor")).toInt(0);
    if (baseline.cudaMajor <= 0 || baseline.cudaMajor > 99)
        return invalid(QStringLiteral("cudnn.cudaMajor"), QStringLiteral("not a CUDA major"));
    const QJsonValue archive = cudnn.value(QStringLiteral("archive"));
    if (!archive.isNull() && !archive.isUndefined() && !archive.isString())
        return invalid(QStringLiteral("cudnn.archive"), QStringLiteral("not a path"));
    baseline.archive = archive.toString();

    const Expected<InstallTarget> target =
        InstallTarget::fromJson(object.value(QStringLiteral("target")).toObject());
    if (!target)
        return invalid(QStringLiteral("target"), target.error().details);
    baseline.target = *target;

    const QJsonObject path = object.value(QStringLiteral("path")).toObject();
    if (const auto unknown =
            unknownKey(path, {QStringLiteral("scope"), QStringLiteral("position")}, QStringLiteral("path")))
        return *unknown;
    const std::optional<PathScope> scope = pathScopeFromName(path.value(QStringLiteral("scope")).toString());
    if (!scope || *scope != baseline.target.pathScope)
        return invalid(QStringLiteral("path.scope"),
                       QStringLiteral("none, user or system, as target.pathScope"));
    const QString position = path.value(QStringLiteral("position")).toString();
    if (position != pathPositionName(PathPosition::Any) && position != pathPositionName(PathPosition::First))
        return invalid(QStringLiteral("path.position"), QStringLiteral("any or first"));
    baseline.pathPosition =
        position == pathPositionName(PathPosition::First) ? PathPosition::First : PathPosition::Any;

    for (const QJsonValue &value : object.value(QStringLiteral("consumers")).toArray()) {
        const QJsonObject entry = value.toObject();
        if (const auto unknown = unknownKey(entry, {QStringLiteral("name"), QStringLiteral("cudnnMajors")},
                                            QStringLiteral("consumers")))
            return *unknown;
        Consumer consumer;
        consumer.name = entry.value(QStringLiteral("name")).toString();
        if (!knownConsumers().contains(consumer.name) && appFolderOf(consumer.name).isEmpty())
            return invalid(QStringLiteral("consumers.name"),
                           QStringLiteral("\"%1\": torch, tensorflow, onnxruntime, ctranslate2 or app:FOLDER")
                               .arg(consumer.name));
        for (const QJsonValue &major : entry.value(QStringLiteral("cudnnMajors")).toArray()) {
            if (!major.isDouble() || major.toInt() <= 0)
                return invalid(QStringLiteral("consumers.cudnnMajors"), QStringLiteral("not a major"));
            consumer.cudnnMajors.append(major.toInt());
        }
        baseline.consumers.append(consumer);
    }
    for (const QJsonValue &stage : object.value(QStringLiteral("verification")).toArray()) {
        if (!verificationStages().contains(stage.toString()))
            return invalid(QStringLiteral("verification"),
                           QStringLiteral("\"%1\": load, handle or convolution").arg(stage.toString()));
        baseline.verification.append(stage.toString());
    }
    return baseline;
}

Expected<Baseline> Baseline::read(const QString &file)
{
    const auto unreadable = [&file](const QString &details) {
        return Finding::error(QStringLiteral("baseline.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The baseline file %1 cannot be read."))
                                  .arg(QDir::toNativeSeparators(file)),
                              details);
    };
    QFile input(file);
    // A baseline is a few hundred bytes; a share that hands out something else is not read whole.
    constexpr qint64 kLargestBaseline = 1024 * 1024;
    if (!input.open(QIODevice::ReadOnly))
        return unreadable(input.errorString());
    if (input.size() > kLargestBaseline)
        return unreadable(QStringLiteral("%1 bytes").arg(input.size()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(input.readAll(), &error);
    if (!document.isObject())
        return unreadable(error.error == QJsonParseError::NoError ? QStringLiteral("not a JSON object")
                                                                  : error.errorString());
    return fromJson(document.object());
}

Expected<Baseline> baselineOfMachine(const SystemContext &context, const SystemSnapshot &snapshot,
                                     const KnowledgeBase &kb, const Version &driverMinimum)
{
    const InstallStatus status = installStatus(context, StatusQuery{});
    if (!status.installed() || !status.receipt->target)
        return Finding::error(
            QStringLiteral("baseline.no-install"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup has installed no intact cuDNN here to take "
                                                 "the baseline from.")),
            status.reason.message.toString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install it as the lab wants it first, or use --from-answer "
                                                 "FILE.")));
    const Receipt &receipt = *status.receipt;
    Baseline baseline;
    baseline.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    baseline.madeFrom = QStringLiteral("machine");
    baseline.driverMinimum = driverOf(snapshot, driverMinimum);
    baseline.cudnn = receipt.archive.cudnn;
    baseline.cudaMajor = receipt.archive.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt();
    baseline.archive = receipt.archive.path;
    baseline.target = *receipt.target;
    baseline.pathPosition = baseline.target.pathScope != PathScope::None &&
                                    loadedFirstFrom(snapshot, baseline.target.dllFolder(), context)
                                ? Baseline::PathPosition::First
                                : Baseline::PathPosition::Any;
    baseline.consumers = workingConsumers(snapshot, kb);
    if (status.verified) {
        for (const auto &[stage, result] : status.verified->stages) {
            if (verificationStages().contains(stage) && result == QLatin1String("passed"))
                baseline.verification.append(stage);
        }
    }
    qCInfo(lcSession).noquote() << QStringLiteral(
                                       "baseline of this machine: cuDNN %1 for CUDA %2 in %3, receipt %4")
                                       .arg(baseline.cudnn.toString())
                                       .arg(baseline.cudaMajor)
                                       .arg(baseline.target.root, receipt.id);
    return baseline;
}

Expected<Baseline> baselineOfAnswerFile(const UnattendedSettings &answers, const SystemContext &context,
                                        const SystemSnapshot &snapshot, const KnowledgeBase &kb,
                                        const Version &driverMinimum)
{
    const std::optional<ArchiveName> name =
        answers.archive.isEmpty() ? std::nullopt : ArchiveName::parse(QFileInfo(answers.archive).fileName());
    if (answers.action != QLatin1String("install") || !name)
        return Finding::error(
            QStringLiteral("baseline.answer-file"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "A baseline is taken from an answer file that installs an "
                                   "archive named as NVIDIA names it (action=install, archive=).")),
            answers.archive);
    std::optional<PathScope> scope;
    if (!answers.path.isEmpty()) {
        scope = pathScopeFromName(answers.path);
        if (!scope)
            return Finding::error(QStringLiteral("baseline.answer-file"),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "path= in the answer file takes user, "
                                                                       "system or none, not \"%1\"."))
                                      .arg(answers.path));
    }
    // The target as the install will resolve it: its kind's folders and PATH scope.
    // The archive's own layout where this machine reaches it (a CUDA 13 archive keeps its DLLs in
    // bin\x64), else what its name says.
    const Expected<ArchiveReport> inspected =
        QFileInfo::exists(answers.archive)
            ? inspectArchive(answers.archive, kb.publishedArchives(), InspectOptions{})
            : Expected<ArchiveReport>(ArchiveReport{});
    ArchiveReport archive = inspected.valueOr(ArchiveReport{});
    archive.claimed = name;
    if (!archive.cudnn.isValid()) {
        archive.cudnn = name->cudnn;
        archive.cudaVariant = name->cudaVariant;
        archive.platform = name->platform;
    }
    const Expected<InstallTarget> target =
        answers.target.isEmpty() ? Expected<InstallTarget>(defaultTarget(snapshot, archive, context, kb))
                                 : targetFromSpec(answers.target, scope, snapshot, archive, context, kb);
    if (!target)
        return target.error();
    Baseline baseline;
    baseline.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    baseline.madeFrom = QStringLiteral("answer-file");
    baseline.driverMinimum = driverOf(snapshot, driverMinimum);
    baseline.cudnn = name->cudnn;
    baseline.cudaMajor = name->cudaMajor();
    baseline.archive = answers.archive;
    baseline.target = *target;
    if (scope)
        baseline.target.pathScope = *scope;
    baseline.pathPosition = baseline.target.pathScope == PathScope::None ? Baseline::PathPosition::Any
                                                                         : Baseline::PathPosition::First;
    baseline.consumers = workingConsumers(snapshot, kb);
    if (answers.verify)
        baseline.verification = verificationStages();
    return baseline;
}

} // namespace cudnnsetup
