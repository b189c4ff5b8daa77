#include "install/Receipt.h"

#include <QJsonArray>

namespace cudnnsetup {

namespace {

QJsonValue valueJson(const std::optional<StoredEnvironmentValue> &value)
{
    if (!value)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("text"), value->text},
                       {QStringLiteral("type"),
                        value->expandable ? QStringLiteral("REG_EXPAND_SZ") : QStringLiteral("REG_SZ")}};
}

std::optional<StoredEnvironmentValue> valueFrom(const QJsonValue &json)
{
    if (!json.isObject())
        return std::nullopt;
    const QJsonObject object = json.toObject();
    return StoredEnvironmentValue{object.value(QStringLiteral("text")).toString(),
                                  object.value(QStringLiteral("type")).toString() ==
                                      QLatin1String("REG_EXPAND_SZ")};
}

} // namespace

QJsonObject Receipt::toJson() const
{
    QJsonArray fileArray;
    for (const File &file : files) {
        QJsonObject object{
            {QStringLiteral("path"), file.path},
            {QStringLiteral("sha256"), file.sha256},
            {QStringLiteral("size"), file.size},
            {QStringLiteral("replaced"), file.replaced.isEmpty() ? QJsonValue() : QJsonValue(file.replaced)}};
        if (links.contains(file.path))
            object.insert(QStringLiteral("link"), links.value(file.path));
        fileArray.append(object);
    }
    QJsonArray environmentArray;
    for (const EnvironmentChange &change : environment) {
        QJsonObject object{{QStringLiteral("scope"), change.scope},
                           {QStringLiteral("name"), change.name},
                           {QStringLiteral("before"), valueJson(change.before)},
                           {QStringLiteral("after"), valueJson(change.after)}};
        if (!change.entry.isEmpty())
            object.insert(QStringLiteral("entry"), change.entry);
        environmentArray.append(object);
    }
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("id"), id},
            {QStringLiteral("created"), created},
            {QStringLiteral("tool"), tool},
            {QStringLiteral("archive"), archive.toJson()},
            {QStringLiteral("target"), target ? QJsonValue(target->toJson()) : QJsonValue()},
            {QStringLiteral("files"), fileArray},
            {QStringLiteral("folders"), QJsonArray::fromStringList(folders)},
            {QStringLiteral("environment"), environmentArray},
            {QStringLiteral("result"), result},
            {QStringLiteral("partOf"), partOf.isEmpty() ? QJsonValue() : QJsonValue(partOf)}};
}

Expected<Receipt> Receipt::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema) ||
        object.value(QStringLiteral("id")).toString().isEmpty()) {
        return Finding::error(QStringLiteral("receipt.invalid"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "This is not a cuDNN Setup receipt.")),
                              QStringLiteral("schema %1 expected").arg(QLatin1String(kSchema)));
    }
    Receipt receipt;
    const QJsonValue target = object.value(QStringLiteral("target"));
    if (target.isObject() && !target.toObject().isEmpty()) {
        Expected<InstallTarget> typed = InstallTarget::fromJson(target.toObject());
        if (!typed)
            return Finding::error(QStringLiteral("receipt.invalid"), typed.error().message,
                                  typed.error().details);
        receipt.target = *typed;
    }
    receipt.id = object.value(QStringLiteral("id")).toString();
    receipt.created = object.value(QStringLiteral("created")).toString();
    receipt.tool = object.value(QStringLiteral("tool")).toString();
    receipt.archive = ArchiveIdentity::fromJson(object.value(QStringLiteral("archive")).toObject());
    receipt.result = object.value(QStringLiteral("result")).toString();
    receipt.partOf = object.value(QStringLiteral("partOf")).toString();
    for (const QJsonValue &value : object.value(QStringLiteral("files")).toArray()) {
        const QJsonObject file = value.toObject();
        receipt.files.append({file.value(QStringLiteral("path")).toString(),
                              file.value(QStringLiteral("sha256")).toString(),
                              file.value(QStringLiteral("size")).toInteger(),
                              file.value(QStringLiteral("replaced")).toString()});
        if (file.contains(QStringLiteral("link")))
            receipt.links.insert(receipt.files.last().path, file.value(QStringLiteral("link")).toString());
    }
    for (const QJsonValue &value : object.value(QStringLiteral("folders")).toArray())
        receipt.folders.append(value.toString());
    for (const QJsonValue &value : object.value(QStringLiteral("environment")).toArray()) {
        const QJsonObject change = value.toObject();
        receipt.environment.append({change.value(QStringLiteral("scope")).toString(),
                                    change.value(QStringLiteral("name")).toString(),
                                    change.value(QStringLiteral("entry")).toString(),
                                    valueFrom(change.value(QStringLiteral("before"))),
                                    valueFrom(change.value(QStringLiteral("after")))});
    }
    return receipt;
}

QString keptFilesFolder(const QString &receiptsFolder, const QString &id)
{
    const QChar separator = receiptsFolder.contains(QLatin1Char('\\')) ? QLatin1Char('\\') : QLatin1Char('/');
    return receiptsFolder + separator + id + separator + QStringLiteral("replaced");
}

QString keptFileName(int index, const QString &fileName)
{
    return QString::number(index) + QLatin1Char('-') + fileName;
}

} // namespace cudnnsetup
