#include "verify/InstallStatus.h"

#include "install/Installer.h"
#include "platform/Sha256.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QJsonArray>

#include <algorithm>

namespace cudnnsetup {

namespace {

// "9.1" matches 9.1.0.70 but not 9.10.0.
bool versionMatches(const QString &version, const QString &prefix)
{
    return prefix.isEmpty() || version == prefix || version.startsWith(prefix + QLatin1Char('.'));
}

bool targetMatches(const Receipt &receipt, const std::optional<InstallTarget> &target,
                   const SystemContext &context)
{
    if (!target)
        return true;
    const SystemPaths &paths = context.paths();
    return receipt.target && receipt.target->kind == target->kind &&
           paths.normalize(receipt.target->root)
                   .compare(paths.normalize(target->root), paths.caseSensitivity()) == 0;
}

// The first file of the receipt that is gone or differs; empty when all are intact.
QString firstChanged(const Receipt &receipt, const SystemContext &context)
{
    for (const Receipt::File &file : receipt.files) {
        if (Sha256::ofFile(context.files().toHost(file.path)) != file.sha256)
            return file.path;
    }
    return {};
}

} // namespace

QString InstallStatus::line() const
{
    if (!receipt)
        return {};
    const QString verifiedText =
        verified ? (verified->passed ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "verified %1"))
                                     : Text(QT_TRANSLATE_NOOP("cudnnsetup", "verification failed %1")))
                       .arg(verified->when.toString(Qt::ISODate))
                       .toString()
                 : Text(QT_TRANSLATE_NOOP("cudnnsetup", "not verified")).toString();
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 for CUDA %2 installed in %3 (receipt %4, %5)"))
        .arg(receipt->archive.cudnn.toString(), receipt->archive.cudaVariant,
             receipt->target ? receipt->target->root : QString(), receipt->id, verifiedText)
        .toString();
}

QJsonObject InstallStatus::toJson() const
{
    QJsonObject object{{QStringLiteral("schema"), QLatin1String(kSchema)},
                       {QStringLiteral("installed"), installed()}};
    const auto orNull = [](const QString &value) {
        return value.isEmpty() ? QJsonValue() : QJsonValue(value);
    };
    object.insert(QStringLiteral("receipt"), receipt ? orNull(receipt->id) : QJsonValue());
    object.insert(QStringLiteral("cudnn"),
                  receipt ? orNull(receipt->archive.cudnn.toString()) : QJsonValue());
    object.insert(QStringLiteral("cudaVariant"),
                  receipt ? orNull(receipt->archive.cudaVariant) : QJsonValue());
    object.insert(QStringLiteral("target"),
                  receipt && receipt->target ? QJsonValue(receipt->target->toJson()) : QJsonValue());
    object.insert(QStringLiteral("verified"),
                  verified
                      ? QJsonValue(QJsonObject{{QStringLiteral("when"), verified->when.toString(Qt::ISODate)},
                                               {QStringLiteral("passed"), verified->passed}})
                      : QJsonValue());
    if (!receipt)
        object.insert(QStringLiteral("findings"), QJsonArray{reason.toJson()});
    return object;
}

InstallStatus installStatus(const SystemContext &context, const StatusQuery &query)
{
    QList<std::pair<Receipt, QString>> candidates;
    for (const auto &entry : installedReceipts(context)) {
        const Receipt &receipt = entry.first;
        if (receipt.partOf.isEmpty() && receipt.result == QLatin1String("installed") &&
            versionMatches(receipt.archive.cudnn.toString(), query.cudnnVersion) &&
            targetMatches(receipt, query.target, context))
            candidates.append(entry);
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto &a, const auto &b) { return a.first.created > b.first.created; });

    InstallStatus status;
    if (candidates.isEmpty()) {
        status.reason = Finding::error(
            QStringLiteral("status.not-installed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup has installed no cuDNN that matches here.")));
        return status;
    }
    QString changed;
    for (const auto &[receipt, path] : candidates) {
        const QString firstDifferent = firstChanged(receipt, context);
        if (firstDifferent.isEmpty()) {
            status.receipt = receipt;
            status.receiptPath = path;
            status.verified = readVerificationRecord(path, receipt.id);
            return status;
        }
        if (changed.isEmpty())
            changed = firstDifferent;
    }
    status.changed = changed;
    status.reason = Finding::error(
        QStringLiteral("status.changed"),
        Text(
            QT_TRANSLATE_NOOP("cudnnsetup", "The install is no longer intact: %1 is missing or was changed."))
            .arg(changed));
    return status;
}

} // namespace cudnnsetup
