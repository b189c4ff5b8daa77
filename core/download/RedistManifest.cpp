#include "download/RedistManifest.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace cudnnsetup {

const RedistManifest::File *RedistManifest::file(const QString &fileName) const
{
    for (const File &entry : files) {
        if (entry.fileName().compare(fileName, Qt::CaseInsensitive) == 0)
            return &entry;
    }
    return nullptr;
}

const RedistManifest::File *RedistManifest::file(const QString &platform, int cudaMajor) const
{
    for (const File &entry : files) {
        if (entry.platform == platform &&
            entry.cudaVariant.section(QLatin1Char('.'), 0, 0).toInt() == cudaMajor)
            return &entry;
    }
    return nullptr;
}

Expected<RedistManifest> RedistManifest::parse(const QByteArray &json, const QString &origin)
{
    const auto invalid = [&](const QString &why) {
        return Finding::error(
            QStringLiteral("download.manifest-invalid"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a cuDNN redistrib manifest.")).arg(origin), why);
    };
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (!document.isObject())
        return invalid(error.errorString());
    const QJsonObject root = document.object();
    const QJsonObject cudnn = root.value(QStringLiteral("cudnn")).toObject();
    if (cudnn.isEmpty())
        return invalid(QStringLiteral("no \"cudnn\" product"));
    RedistManifest manifest;
    manifest.releaseLabel = root.value(QStringLiteral("release_label")).toString();
    manifest.version = Version::parse(cudnn.value(QStringLiteral("version")).toString());
    if (!manifest.version.isValid())
        return invalid(QStringLiteral("no cudnn.version"));
    for (auto platform = cudnn.begin(); platform != cudnn.end(); ++platform) {
        if (!platform.value().isObject())
            continue; // name, license, version, cuda_variant
        const QJsonObject byVariant = platform.value().toObject();
        const auto addFile = [&](const QString &variant, const QJsonObject &entry) {
            File file;
            file.platform = platform.key();
            file.cudaVariant = variant;
            file.relativePath = entry.value(QStringLiteral("relative_path")).toString();
            file.sha256 = entry.value(QStringLiteral("sha256")).toString().toLower();
            const QJsonValue size = entry.value(QStringLiteral("size"));
            file.size = size.isString() ? size.toString().toLongLong() : qint64(size.toDouble(-1));
            if (!file.relativePath.isEmpty())
                manifest.files.append(file);
        };
        if (byVariant.contains(QStringLiteral("relative_path"))) {
            addFile(QString(), byVariant);
            continue;
        }
        for (auto variant = byVariant.begin(); variant != byVariant.end(); ++variant) {
            if (variant.key().startsWith(QLatin1String("cuda")))
                addFile(variant.key().mid(4), variant.value().toObject());
        }
    }
    if (manifest.files.isEmpty())
        return invalid(QStringLiteral("no archives listed"));
    return manifest;
}

QStringList RedistManifest::fileNames(const Version &cudnn)
{
    QStringList names{QStringLiteral("redistrib_%1.json").arg(cudnn.truncated(3).toString())};
    if (cudnn.size() >= 4)
        names.append(QStringLiteral("redistrib_%1.json").arg(cudnn.truncated(4).toString()));
    names.removeDuplicates();
    return names;
}

} // namespace cudnnsetup
