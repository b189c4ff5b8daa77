#include "CudnnArchiveLists.h"

#include "ElfImage.h"
#include "PeImage.h"

#include "compat/ArchiveName.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>

namespace archives {

namespace {

int part(const QString &version, int index)
{
    return version.section(QLatin1Char('.'), index, index).toInt();
}

QStringList dllStems(int major)
{
    if (major >= 9)
        return {QStringLiteral("cudnn"),
                QStringLiteral("cudnn_adv"),
                QStringLiteral("cudnn_cnn"),
                QStringLiteral("cudnn_engines_precompiled"),
                QStringLiteral("cudnn_engines_runtime_compiled"),
                QStringLiteral("cudnn_graph"),
                QStringLiteral("cudnn_heuristic"),
                QStringLiteral("cudnn_ops")};
    return {QStringLiteral("cudnn"),           QStringLiteral("cudnn_ops_infer"),
            QStringLiteral("cudnn_ops_train"), QStringLiteral("cudnn_cnn_infer"),
            QStringLiteral("cudnn_cnn_train"), QStringLiteral("cudnn_adv_infer"),
            QStringLiteral("cudnn_adv_train")};
}

QStringList headers(int major)
{
    if (major >= 9)
        return {QStringLiteral("cudnn.h"),         QStringLiteral("cudnn_adv.h"),
                QStringLiteral("cudnn_backend.h"), QStringLiteral("cudnn_cnn.h"),
                QStringLiteral("cudnn_graph.h"),   QStringLiteral("cudnn_ops.h"),
                QStringLiteral("cudnn_version.h")};
    return {QStringLiteral("cudnn.h"),           QStringLiteral("cudnn_adv_infer.h"),
            QStringLiteral("cudnn_adv_train.h"), QStringLiteral("cudnn_backend.h"),
            QStringLiteral("cudnn_cnn_infer.h"), QStringLiteral("cudnn_cnn_train.h"),
            QStringLiteral("cudnn_ops_infer.h"), QStringLiteral("cudnn_ops_train.h"),
            QStringLiteral("cudnn_version.h")};
}

} // namespace

QString windowsRoot(const QString &version, const QString &cudaVariant)
{
    return QStringLiteral("cudnn-windows-x86_64-%1_cuda%2-archive").arg(version, cudaVariant);
}

QStringList windowsFiles(const QString &version, const QString &cudaVariant)
{
    const int major = part(version, 0);
    const int minor = part(version, 1);
    const QString root = windowsRoot(version, cudaVariant);
    const QString bin =
        major > 9 || (major == 9 && minor >= 18) ? QStringLiteral("/bin/x64/") : QStringLiteral("/bin/");
    QStringList files;
    for (const QString &stem : dllStems(major))
        files.append(root + bin + stem + QStringLiteral("64_%1.dll").arg(major));
    for (const QString &header : headers(major))
        files.append(root + QStringLiteral("/include/") + header);
    for (const QString &stem : dllStems(major)) {
        files.append(root + QStringLiteral("/lib/x64/%1.lib").arg(stem));
        files.append(root + QStringLiteral("/lib/x64/") + stem + QStringLiteral("64_%1.lib").arg(major));
    }
    files.append(root + QStringLiteral("/LICENSE"));
    return files;
}

QStringList cudaRootFiles(int cudnnMajor)
{
    QStringList files;
    for (const QString &stem : dllStems(cudnnMajor))
        files.append(QStringLiteral("cuda/bin/") + stem + QStringLiteral("64_%1.dll").arg(cudnnMajor));
    for (const QString &header : headers(cudnnMajor))
        files.append(QStringLiteral("cuda/include/") + header);
    for (const QString &stem : dllStems(cudnnMajor))
        files.append(QStringLiteral("cuda/lib/x64/%1.lib").arg(stem));
    files.append(QStringLiteral("NVIDIA_SLA_cuDNN_Support.txt"));
    return files;
}

QStringList linuxFiles(const QString &version, const QString &cudaVariant)
{
    const int major = part(version, 0);
    const QString root = QStringLiteral("cudnn-linux-x86_64-%1_cuda%2-archive").arg(version, cudaVariant);
    const QString full = version.section(QLatin1Char('.'), 0, 2);
    QStringList files;
    for (const QString &stem : dllStems(major)) {
        files.append(root + QStringLiteral("/lib/lib%1.so.%2").arg(stem, full));
        files.append(root + QStringLiteral("/lib/lib%1_static.a").arg(stem));
    }
    for (const QString &header : headers(major))
        files.append(root + QStringLiteral("/include/") + header);
    files.append(root + QStringLiteral("/LICENSE"));
    return files;
}

QByteArray versionHeader(const QString &version)
{
    const int major = part(version, 0);
    return QStringLiteral(
               "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR %1\n#define "
               "CUDNN_MINOR %2\n#define CUDNN_PATCHLEVEL %3\n\n#define CUDNN_VERSION (CUDNN_MAJOR * %4 + "
               "CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n/* cannot use constexpr here since this is a "
               "C-only file */\n#endif /* CUDNN_VERSION_H */\n")
        .arg(major)
        .arg(part(version, 1))
        .arg(part(version, 2))
        .arg(major >= 9 ? 10000 : 1000)
        .toUtf8();
}

QList<ZipWriter::Entry> entriesOf(const QStringList &files, const QString &headerVersion)
{
    QList<ZipWriter::Entry> entries;
    for (const QString &file : files) {
        QByteArray data;
        if (file.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive))
            data = peimage::x64Dll() + file.toUtf8();
        else if (file.endsWith(QLatin1String("/cudnn_version.h")))
            data = versionHeader(headerVersion);
        else
            data = "contents of " + file.toUtf8() + '\n';
        entries.append(ZipWriter::Entry::file(file.toUtf8(), data));
    }
    return entries;
}

QByteArray windowsZip(const QString &version, const QString &cudaVariant)
{
    return ZipWriter(entriesOf(windowsFiles(version, cudaVariant), version)).finish();
}

QByteArray linuxFileData(const QString &file, const QString &version)
{
    if (file.contains(QLatin1String(".so.")))
        return elfimage::build({QFileInfo(file).fileName().section(QLatin1Char('.'), 0, 2), {}, {}, {}});
    if (file.endsWith(QLatin1String("/cudnn_version.h")))
        return versionHeader(version);
    return QByteArray("contents of ") + file.toUtf8() + '\n';
}

QByteArray linuxZip(const QString &version, const QString &cudaVariant)
{
    QList<ZipWriter::Entry> entries;
    for (const QString &file : linuxFiles(version, cudaVariant))
        entries.append(ZipWriter::Entry::file(file.toUtf8(), linuxFileData(file, version)));
    return ZipWriter(entries).finish();
}

QByteArray alteredWindowsZip(const QString &version, const QString &cudaVariant)
{
    QList<ZipWriter::Entry> entries = entriesOf(windowsFiles(version, cudaVariant), version);
    entries.last().data += ' ';
    return ZipWriter(entries).finish();
}

namespace {

// The embedded database's JSON with the checksum of each archive record changed by `checksum`
// (given the file name and the published SHA-256, it returns the one to keep; none: the record goes,
// since a record needs a checksum).
// `sizes`: files whose recorded size changes too (a stand-in is not as large as NVIDIA's file).
QByteArray embeddedWithChecksums(const std::function<QString(const QString &, const QString &)> &checksum,
                                 const QHash<QString, qint64> &sizes = {})
{
    QFile embedded(QStringLiteral(":/compat/cudnn-compat.json"));
    if (!embedded.open(QIODevice::ReadOnly))
        qFatal("the embedded compatibility database is missing");
    QJsonObject root = QJsonDocument::fromJson(embedded.readAll()).object();
    QJsonArray records;
    for (const QJsonValue &value : root.value(QStringLiteral("archives")).toArray()) {
        QJsonObject record = value.toObject();
        const QString sha256 = checksum(record.value(QStringLiteral("file")).toString(),
                                        record.value(QStringLiteral("sha256")).toString());
        if (sha256.isEmpty())
            continue;
        record.insert(QStringLiteral("sha256"), sha256);
        const auto size = sizes.find(record.value(QStringLiteral("file")).toString());
        if (size != sizes.end())
            record.insert(QStringLiteral("size"), double(*size));
        records.append(record);
    }
    root.insert(QStringLiteral("archives"), records);
    return QJsonDocument(root).toJson();
}

cudnnsetup::KnowledgeBase parsed(const QByteArray &json)
{
    auto kb = cudnnsetup::KnowledgeBase::parse(json);
    if (!kb)
        qFatal("the changed database does not parse");
    return *kb;
}

} // namespace

cudnnsetup::KnowledgeBase databaseWithChecksum(const QString &file, const QString &sha256)
{
    return parsed(embeddedWithChecksums([&](const QString &recorded, const QString &published) {
        return recorded == file ? sha256 : published;
    }));
}

cudnnsetup::KnowledgeBase databaseWithoutChecksums()
{
    return parsed(embeddedWithChecksums([](const QString &, const QString &) { return QString(); }));
}

QByteArray databaseJsonKnowing(const QStringList &archivePaths)
{
    QHash<QString, QString> made; // NVIDIA's file name -> the test-made file's SHA-256
    QHash<QString, qint64> sizes; // and its size
    for (const QString &path : archivePaths) {
        const std::optional<cudnnsetup::ArchiveName> name =
            cudnnsetup::ArchiveName::parse(QFileInfo(path).fileName());
        if (!name)
            continue; // no record of NVIDIA's to stand in for
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(&file);
        made.insert(name->canonicalFileName(), QString::fromLatin1(hash.result().toHex()));
        sizes.insert(name->canonicalFileName(), file.size());
    }
    return embeddedWithChecksums(
        [&](const QString &recorded, const QString &published) { return made.value(recorded, published); },
        sizes);
}

cudnnsetup::KnowledgeBase databaseKnowing(const QStringList &archivePaths)
{
    return parsed(databaseJsonKnowing(archivePaths));
}

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace

QString writeDatabaseKnowing(const QString &databasePath, const QStringList &archivePaths)
{
    writeFile(databasePath, databaseJsonKnowing(archivePaths));
    return databasePath;
}

QByteArray redistManifest(const QString &version, const QString &file, const QString &sha256, qint64 size)
{
    const QString cuda =
        QStringLiteral("cuda") + file.section(QStringLiteral("_cuda"), 1).section(QLatin1Char('-'), 0, 0);
    QJsonObject entry{{QStringLiteral("relative_path"), QStringLiteral("cudnn/windows-x86_64/") + file},
                      {QStringLiteral("sha256"), sha256},
                      {QStringLiteral("md5"), QStringLiteral("00")},
                      {QStringLiteral("size"), QString::number(size)}};
    QJsonObject cudnn{{QStringLiteral("name"), QStringLiteral("NVIDIA CUDA Deep Neural Network library")},
                      {QStringLiteral("version"), version},
                      {QStringLiteral("cuda_variant"), QJsonArray{QStringLiteral("12")}},
                      {QStringLiteral("windows-x86_64"), QJsonObject{{cuda, entry}}}};
    return QJsonDocument(
               QJsonObject{{QStringLiteral("release_label"), version.section(QLatin1Char('.'), 0, 2)},
                           {QStringLiteral("cudnn"), cudnn}})
        .toJson();
}

StandIn writeStandIn(const QString &folder, const QString &version, const QString &cudaVariant)
{
    const QString archive =
        folder + QLatin1Char('/') + windowsRoot(version, cudaVariant) + QStringLiteral(".zip");
    writeFile(archive, windowsZip(version, cudaVariant));
    return {archive, writeDatabaseKnowing(folder + QStringLiteral("/stand-in-compat.json"), {archive})};
}

} // namespace archives
