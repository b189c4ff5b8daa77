#include "report/ReportFacts.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include "common/Logging.h"
#include "platform/DurableFiles.h"

namespace cudnnsetup {

namespace reportfacts {

QString isoTime(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODate) : QString();
}

QString loadedCudnn(const ReportInput &input, QString *version)
{
    if (input.verify && !input.verify->loadedFrom().isEmpty()) {
        *version = input.verify->cudnnVersion;
        return input.verify->loadedFrom();
    }
    if (const CudnnCopy *copy = input.snapshot.cudnnLoadedByDefault()) {
        *version = copy->version;
        return copy->path;
    }
    return {};
}

} // namespace reportfacts

QJsonObject reportJson(const ReportInput &input)
{
    QJsonArray receipts;
    for (const Receipt &receipt : input.receipts)
        receipts.append(receipt.toJson());
    const QString created = reportfacts::isoTime(input.createdAt);
    return {{QStringLiteral("schema"), QLatin1String(ReportInput::kSchema)},
            {QStringLiteral("tool"), input.tool},
            {QStringLiteral("createdAt"), created.isEmpty() ? QJsonValue() : QJsonValue(created)},
            {QStringLiteral("snapshot"), input.snapshot.toJson()},
            {QStringLiteral("verify"), input.verify ? QJsonValue(input.verify->toJson()) : QJsonValue()},
            {QStringLiteral("doctor"), input.doctor ? QJsonValue(input.doctor->toJson()) : QJsonValue()},
            {QStringLiteral("receipts"), receipts}};
}

namespace {

const Text kWritableFolderFix(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder you can write to."));

} // namespace

Expected<void> makeReportFolder(const QString &folder)
{
    if (QDir().mkpath(folder))
        return {};
    return Finding::error(
        QStringLiteral("report.folder"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The folder %1 for the report could not be created."))
            .arg(QDir::toNativeSeparators(folder)),
        QStringLiteral("mkpath failed: %1").arg(folder), kWritableFolderFix);
}

Finding reportWriteFailure(const QString &path, const QString &details)
{
    return Finding::error(QStringLiteral("report.write"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The report file %1 could not be written."))
                              .arg(QDir::toNativeSeparators(path)),
                          details, kWritableFolderFix);
}

Expected<QStringList> writeReport(const ReportInput &input, const QString &folder)
{
    if (const Expected<void> made = makeReportFolder(folder); !made)
        return made.error();
    const std::pair<QString, QByteArray> files[] = {
        {QStringLiteral("report.json"), QJsonDocument(reportJson(input)).toJson(QJsonDocument::Indented)},
        {QStringLiteral("report.html"), reportHtml(input).toUtf8()},
        {QStringLiteral("environment_versions.txt"), environmentVersionsText(input).toUtf8()},
    };
    QStringList written;
    for (const auto &[name, content] : files) {
        const QString path = QDir(folder).absoluteFilePath(name);
        const QString partial = path + QStringLiteral(".partial");
        if (const SystemResult saved = durable::write(content, partial, path); !saved) {
            durable::discard(partial);
            return reportWriteFailure(path, saved.error().message);
        }
        written.append(path);
    }
    qCInfo(lcCore) << "report written:" << written;
    return written;
}

QString writeReportMessage(const QString &folder, const Expected<QStringList> &written)
{
    if (!written) {
        return QCoreApplication::translate("cudnnsetup", "The report could not be saved in %1: %2")
            .arg(QDir::toNativeSeparators(folder), written.error().message.toString());
    }
    QStringList names;
    for (const QString &file : *written)
        names.append(QFileInfo(file).fileName());
    return QCoreApplication::translate("cudnnsetup", "The report was saved in %1: %2.")
        .arg(QDir::toNativeSeparators(folder), Text::list(names).toString());
}

} // namespace cudnnsetup
