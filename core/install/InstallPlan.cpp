#include "install/InstallPlan.h"

#include "install/Operations.h"
#include "platform/Sha256.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace cudnnsetup {

Finding InstallPlan::invalid(const QString &why)
{
    return Finding::error(
        QStringLiteral("plan.invalid"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The install handed over to the administrator part is damaged, "
                                             "so nothing is installed.")),
        why);
}

namespace {

bool isSha256(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    return hex.match(text).hasMatch();
}

} // namespace

ArchiveIdentity ArchiveIdentity::of(const QString &path, const ArchiveReport &report)
{
    ArchiveIdentity identity;
    identity.path = QDir::toNativeSeparators(path);
    identity.fileName = QFileInfo(path).fileName();
    identity.sha256 = report.sha256;
    identity.size = report.size;
    identity.official = report.officialName();
    identity.cudnn = report.cudnn;
    identity.cudaVariant = report.cudaVariant;
    return identity;
}

QJsonObject ArchiveIdentity::toJson() const
{
    QJsonObject object{{QStringLiteral("path"), path}, {QStringLiteral("fileName"), fileName}};
    if (!sha256.isEmpty())
        object.insert(QStringLiteral("sha256"), sha256);
    if (size > 0)
        object.insert(QStringLiteral("size"), size);
    if (!official.isEmpty())
        object.insert(QStringLiteral("official"), official);
    if (cudnn.isValid())
        object.insert(QStringLiteral("cudnn"), cudnn.toString());
    if (!cudaVariant.isEmpty())
        object.insert(QStringLiteral("cudaVariant"), cudaVariant);
    return object;
}

ArchiveIdentity ArchiveIdentity::fromJson(const QJsonObject &object)
{
    ArchiveIdentity identity;
    identity.path = object.value(QStringLiteral("path")).toString();
    identity.fileName = object.value(QStringLiteral("fileName")).toString();
    identity.sha256 = object.value(QStringLiteral("sha256")).toString();
    identity.size = object.value(QStringLiteral("size")).toInteger();
    identity.official = object.value(QStringLiteral("official")).toString();
    identity.cudnn = Version::parse(object.value(QStringLiteral("cudnn")).toString());
    identity.cudaVariant = object.value(QStringLiteral("cudaVariant")).toString();
    return identity;
}

QJsonObject InstallPlan::toJson() const
{
    QJsonObject object{{QStringLiteral("schema"), QLatin1String(kSchema)},
                       {QStringLiteral("target"), target.toJson()},
                       {QStringLiteral("archive"), archive.toJson()},
                       {QStringLiteral("replaceInUse"), replaceInUse}};
    if (cudnnVariables)
        object.insert(QStringLiteral("cudnnVariables"), operations::scopeName(*cudnnVariables));
    if (!pathFixes.isEmpty()) {
        QJsonArray fixes;
        for (const PathFix &fix : pathFixes)
            fixes.append(fix.toJson());
        object.insert(QStringLiteral("pathFixes"), fixes);
    }
    return object;
}

QByteArray InstallPlan::sealedBytes() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

Expected<InstallPlan> InstallPlan::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return invalid(QStringLiteral("schema %1 expected").arg(QLatin1String(kSchema)));
    const Expected<InstallTarget> target =
        InstallTarget::fromJson(object.value(QStringLiteral("target")).toObject());
    if (!target)
        return invalid(target.error().details);
    InstallPlan plan;
    plan.target = *target;
    plan.archive = ArchiveIdentity::fromJson(object.value(QStringLiteral("archive")).toObject());
    if (plan.archive.path.isEmpty() || !isSha256(plan.archive.sha256))
        return invalid(QStringLiteral("the archive is not named by its path and SHA-256"));
    const QJsonValue variables = object.value(QStringLiteral("cudnnVariables"));
    if (!variables.isUndefined()) {
        plan.cudnnVariables = operations::scopeFromName(variables.toString());
        if (!plan.cudnnVariables)
            return invalid(QStringLiteral("unknown scope for the cuDNN variables"));
    }
    const QJsonValue replace = object.value(QStringLiteral("replaceInUse"));
    if (!replace.isBool())
        return invalid(QStringLiteral("replaceInUse is not true or false"));
    plan.replaceInUse = replace.toBool();
    const QJsonValue fixes = object.value(QStringLiteral("pathFixes"));
    if (!fixes.isUndefined() && !fixes.isArray())
        return invalid(QStringLiteral("pathFixes is not a list"));
    for (const QJsonValue &value : fixes.toArray()) {
        const std::optional<PathFix> fix = PathFix::fromJson(value.toObject());
        if (!fix)
            return invalid(
                QStringLiteral("a PATH fix is not one: %1")
                    .arg(QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))));
        plan.pathFixes.append(*fix);
    }
    if (!plan.pathFixes.isEmpty() && plan.target.pathScope == PathScope::None)
        return invalid(QStringLiteral("PATH fixes for a target that changes no PATH"));
    return plan;
}

Expected<InstallPlan> InstallPlan::unsealed(const QByteArray &bytes, const QString &seal)
{
    const QString sha256 = Sha256::of(bytes);
    if (seal.isEmpty() || sha256.compare(seal, Qt::CaseInsensitive) != 0)
        return Finding::error(
            QStringLiteral("plan.changed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The install that was approved is not the one handed over (the plan "
                                   "changed after the approval), so nothing is installed.")),
            QStringLiteral("sha256 %1, approved %2").arg(sha256, seal),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Start the installation again, and approve it only if "
                                                 "you started it yourself.")));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return invalid(error.errorString());
    return fromJson(document.object());
}

} // namespace cudnnsetup
