#include "verify/VerificationRecord.h"

#include "install/Installer.h"
#include "platform/DurableFiles.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace cudnnsetup {

VerificationRecord VerificationRecord::of(const VerifyReport &report)
{
    VerificationRecord record;
    record.receiptId = report.receiptId;
    record.when = (report.createdAt.isValid() ? report.createdAt : QDateTime::currentDateTimeUtc()).toUTC();
    record.passed = report.passed();
    for (const VerifyStage &stage : report.stages)
        record.stages.append({stage.id, VerifyStage::statusName(stage.status)});
    return record;
}

QJsonObject VerificationRecord::toJson() const
{
    QJsonArray stageArray;
    for (const auto &[id, status] : stages)
        stageArray.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("status"), status}});
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("receiptId"), receiptId},
            {QStringLiteral("when"), when.toUTC().toString(Qt::ISODate)},
            {QStringLiteral("passed"), passed},
            {QStringLiteral("stages"), stageArray}};
}

std::optional<VerificationRecord> VerificationRecord::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return std::nullopt;
    VerificationRecord record;
    record.receiptId = object.value(QStringLiteral("receiptId")).toString();
    record.when = QDateTime::fromString(object.value(QStringLiteral("when")).toString(), Qt::ISODate);
    if (!record.when.isValid() || !object.value(QStringLiteral("passed")).isBool())
        return std::nullopt;
    record.passed = object.value(QStringLiteral("passed")).toBool();
    for (const QJsonValue &stage : object.value(QStringLiteral("stages")).toArray())
        record.stages.append({stage.toObject().value(QStringLiteral("id")).toString(),
                              stage.toObject().value(QStringLiteral("status")).toString()});
    return record;
}

QString verificationRecordPath(const QString &receiptPath, const QString &receiptId)
{
    return QFileInfo(receiptPath).absolutePath() + QLatin1Char('/') + receiptId +
           QStringLiteral(".verify.json");
}

SystemResult writeVerificationRecord(const QString &receiptPath, const VerificationRecord &record)
{
    const QString path = verificationRecordPath(receiptPath, record.receiptId);
    return durable::write(QJsonDocument(record.toJson()).toJson(), path + QStringLiteral(".partial"), path);
}

std::optional<VerificationRecord> readVerificationRecord(const QString &receiptPath, const QString &receiptId)
{
    QFile file(verificationRecordPath(receiptPath, receiptId));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    std::optional<VerificationRecord> record =
        VerificationRecord::fromJson(QJsonDocument::fromJson(file.readAll()).object());
    if (record && record->receiptId != receiptId)
        return std::nullopt;
    return record;
}

SystemResult recordVerification(const SystemContext &context, const VerifyReport &report)
{
    if (report.receiptId.isEmpty())
        return {};
    for (const auto &[receipt, path] : installedReceipts(context)) {
        if (receipt.id == report.receiptId)
            return writeVerificationRecord(path, VerificationRecord::of(report));
    }
    return {};
}

SystemResult removeVerificationRecord(const QString &receiptPath, const QString &receiptId)
{
    return durable::remove(verificationRecordPath(receiptPath, receiptId));
}

} // namespace cudnnsetup
