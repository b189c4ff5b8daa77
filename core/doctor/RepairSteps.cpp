#include "doctor/RepairSteps.h"

#include "detect/VersionParsers.h"
#include "install/InstallTarget.h"
#include "install/Operations.h"
#include "install/StateTrust.h"
#include "install/Zlibwapi.h"
#include "platform/FileSecurity.h"
#include "platform/FileSystem.h"

#include <zlib.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace cudnnsetup {

namespace repairs {

namespace {

const QString kAsideSuffix = QStringLiteral(".cudnn-setup-aside");

// Where a file moved aside goes: beside it (one volume, so a rename), under a name no loader asks
// for and that no earlier repair took.
QString asidePath(const SystemContext &context, const QString &path)
{
    QString aside = path + kAsideSuffix;
    for (int n = 2; QFileInfo::exists(context.files().toHost(aside)); ++n)
        aside = path + kAsideSuffix + QLatin1Char('-') + QString::number(n);
    return aside;
}

std::optional<quint32> crc32OfFile(const QString &hostPath)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    if (!readInPieces(hostPath, [&crc](const char *data, qint64 size) {
            crc = crc32(crc, reinterpret_cast<const Bytef *>(data), uInt(size));
        }))
        return std::nullopt;
    return quint32(crc);
}

// An environment value as the preview shows it: its text, or that it is not set.
Text shownValue(const std::optional<QString> &text)
{
    return text ? Text::verbatim(*text) : Text(QT_TRANSLATE_NOOP("cudnnsetup", "not set"));
}

} // namespace

QJsonObject step(const Operation &operation, const QString &record)
{
    QJsonObject object{{QStringLiteral("operation"), operation.name()},
                       {QStringLiteral("arguments"), operation.arguments()}};
    if (!record.isEmpty())
        object.insert(QStringLiteral("record"), record);
    return object;
}

bool folderNeedsAdministrator(const SystemContext &context, const QString &folder)
{
    InstallTarget target;
    target.family = context.family();
    target.root = folder;
    return target.needsAdmin(context);
}

Repair moveAside(const SystemContext &context, const QString &directory, const QStringList &fileNames)
{
    Repair repair;
    repair.id = QStringLiteral("repair.move-aside");
    repair.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Rename the cuDNN files in %1 so that no program "
                                                          "loads them any more (uninstalling the repair "
                                                          "renames them back)."))
                         .arg(directory);
    for (const QString &name : fileNames) {
        const QString path = context.paths().join(directory, name);
        const QString aside = asidePath(context, path);
        repair.steps.append(
            step(*operations::moveIntoPlace(context.files().toHost(path), context.files().toHost(aside)),
                 QLatin1String(kMovedAside)));
        repair.preview.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Renamed: %1 → %2")).arg(path, aside));
    }
    repair.needsAdministrator = folderNeedsAdministrator(context, directory);
    return repair;
}

Repair placeZlibwapi(const SystemContext &context, const QString &dllFolder)
{
    const QString destination = context.paths().join(dllFolder, QLatin1String(kZlibwapiName));
    Repair repair;
    if (context.files().isFile(destination))
        repair = moveAside(context, dllFolder, {QLatin1String(kZlibwapiName)});
    repair.id = QStringLiteral("repair.place-zlibwapi");
    repair.summary =
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put cuDNN Setup's own 64-bit zlibwapi.dll into %1."))
            .arg(dllFolder);
    repair.steps.append(step(
        *operations::copyFile(QString::fromLatin1(kZlibwapiResource), context.files().toHost(destination)),
        QLatin1String(kPlaced)));
    repair.preview.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Added: %1 (64-bit, SHA-256 %2)"))
                              .arg(destination, embeddedZlibwapiSha256()));
    repair.needsAdministrator = folderNeedsAdministrator(context, dllFolder);
    return repair;
}

Repair pathChange(const QString &id, const Text &summary, EnvironmentScope scope, const QString &before,
                  const QString &after, const Operation &operation)
{
    Repair repair;
    repair.id = id;
    repair.summary = summary;
    const bool user = scope == EnvironmentScope::User;
    repair.preview = {(user ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "User PATH before: %1"))
                            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "System PATH before: %1")))
                          .arg(before),
                      (user ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "User PATH after: %1"))
                            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "System PATH after: %1")))
                          .arg(after)};
    repair.steps.append(step(operation));
    repair.needsAdministrator = scope == EnvironmentScope::System;
    return repair;
}

Repair setVariable(EnvironmentScope scope, const QString &name,
                   const std::optional<StoredEnvironmentValue> &before, const StoredEnvironmentValue &value)
{
    Repair repair;
    repair.id = QStringLiteral("repair.set-variable");
    repair.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Set %1 to %2.")).arg(name, value.text);
    repair.preview = {(scope == EnvironmentScope::User
                           ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 for this user: %2 → %3"))
                           : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 for all users: %2 → %3")))
                          .arg(Text::verbatim(name))
                          .arg(shownValue(before ? std::optional<QString>(before->text) : std::nullopt))
                          .arg(Text::verbatim(value.text))};
    repair.steps.append(step(*operations::setEnvironmentValue(scope, name, value)));
    repair.needsAdministrator = scope == EnvironmentScope::System;
    return repair;
}

std::optional<Repair> fromArchive(const SystemContext &context, const QString &directory,
                                  const QString &archivePath, const ArchiveReport &archive, bool underSonames)
{
    const SystemPaths &paths = context.paths();
    QList<ArchiveFile> toUnpack;
    QStringList destinations;
    for (const ArchiveFile &file : archive.files) {
        if (file.kind != ArchiveFile::Kind::Library)
            continue;
        const QString name = file.path.section(QLatin1Char('/'), -1);
        const QString destination = paths.join(
            directory, underSonames && context.family() == OsFamily::Linux ? versions::sonameOf(name) : name);
        const QString host = context.files().toHost(destination);
        const bool same = QFileInfo(host).isFile() && QFileInfo(host).size() == file.size &&
                          crc32OfFile(host) == std::optional<quint32>(file.crc32);
        if (same)
            continue;
        toUnpack.append(file);
        destinations.append(destination);
    }
    if (toUnpack.isEmpty())
        return std::nullopt;
    // Unpacked beside the DLLs, so each one is renamed into place on the same volume.
    const QString staging =
        context.files().toHost(paths.join(directory, QLatin1String(kRepairStagingFolder)));
    Repair repair;
    repair.id = QStringLiteral("repair.from-archive");
    repair.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Copy the %1 missing or different cuDNN DLLs from "
                                                          "%2 into %3."))
                         .arg(QString::number(toUnpack.size()), QFileInfo(archivePath).fileName(), directory);
    // The rest of the archive is held to its CRCs in the same pass, as an install does.
    QList<ArchiveFile> toCheck;
    for (const ArchiveFile &file : archive.files) {
        if (std::none_of(toUnpack.cbegin(), toUnpack.cend(),
                         [&](const ArchiveFile &unpacked) { return unpacked.entry == file.entry; }))
            toCheck.append(file);
    }
    repair.steps.append(step(*operations::unpackArchive(archivePath, toUnpack, toCheck, staging, nullptr)));
    for (int i = 0; i < toUnpack.size(); ++i) {
        repair.steps.append(
            step(*operations::moveIntoPlace(staging + QLatin1Char('/') + stagedPath(i, toUnpack.at(i).path),
                                            context.files().toHost(destinations.at(i))),
                 QLatin1String(kPlaced)));
        repair.preview.append(Text(QT_TRANSLATE_NOOP("cudnnsetup", "From the archive: %1 → %2"))
                                  .arg(toUnpack.at(i).path, destinations.at(i)));
    }
    repair.needsAdministrator = folderNeedsAdministrator(context, directory);
    return repair;
}

namespace {

QString fileNameOf(const QString &hostPath)
{
    return QFileInfo(hostPath).fileName();
}

// Why a folder a handed-over repair puts on the machine PATH or in a machine variable is doubted:
// someone besides the administrators may change it (or it is no absolute path at all).
std::optional<QString> machineFolderDoubt(const SystemContext &context, const QString &folder)
{
    if (!context.paths().isAbsolute(folder))
        return QStringLiteral("%1 is not an absolute folder").arg(folder);
    if (const std::optional<WritableFolder> writable = firstWritableFolder(context, folder))
        return QStringLiteral("%1 may be changed by %2")
            .arg(writable->folder, Text::list(writable->audit.whoMayChange()).toEnglish());
    return std::nullopt;
}

std::optional<QString> stepDoubt(const QJsonObject &step, const SystemContext &context,
                                 const QString &archivePath, const ArchiveReport *archive)
{
    const QString name = step.value(QStringLiteral("operation")).toString();
    const QJsonObject arguments = step.value(QStringLiteral("arguments")).toObject();
    const Qt::CaseSensitivity caseSensitivity = context.paths().caseSensitivity();
    if (name == QLatin1String("move-into-place")) {
        const QString source = QDir::cleanPath(arguments.value(QStringLiteral("source")).toString());
        const QString destination =
            QDir::cleanPath(arguments.value(QStringLiteral("destination")).toString());
        const QString folder = QFileInfo(destination).absolutePath();
        const bool aside = QFileInfo(source).absolutePath().compare(folder, caseSensitivity) == 0;
        const bool unpacked = source.startsWith(folder + QLatin1Char('/') +
                                                    QLatin1String(kRepairStagingFolder) + QLatin1Char('/'),
                                                caseSensitivity);
        // Unpacked files are staged as "<n>-<name>" (stagedPath).
        static const QRegularExpression staged(QStringLiteral("^\\d+-(.+)$"));
        const QRegularExpressionMatch stagedName = staged.match(fileNameOf(source));
        const QString sourceName =
            unpacked && stagedName.hasMatch() ? stagedName.captured(1) : fileNameOf(source);
        if (!isCudnnFileName(sourceName) || !isCudnnFileName(fileNameOf(destination)) ||
            (!aside && !unpacked) || arguments.contains(QStringLiteral("keepReplacedAs")))
            return QStringLiteral("it moves %1 to %2").arg(source, destination);
        return std::nullopt;
    }
    if (name == QLatin1String("copy-file")) {
        const QString destination = arguments.value(QStringLiteral("destination")).toString();
        if (arguments.value(QStringLiteral("source")).toString() != QLatin1String(kZlibwapiResource) ||
            fileNameOf(destination).compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) != 0)
            return QStringLiteral("it copies %1 to %2")
                .arg(arguments.value(QStringLiteral("source")).toString(), destination);
        return std::nullopt;
    }
    if (name == QLatin1String("unpack-archive")) {
        if (!archive || arguments.value(QStringLiteral("archive")).toString() != archivePath)
            return QStringLiteral("it unpacks an archive this process did not check");
        // Administrator rights put files into system folders for another process: NVIDIA's only.
        if (archive->official != ArchiveReport::Official::Match)
            return QStringLiteral("it unpacks an archive NVIDIA did not publish (sha256 %1, official %2)")
                .arg(archive->sha256, archive->officialName());
        if (fileNameOf(arguments.value(QStringLiteral("staging")).toString()) !=
            QLatin1String(kRepairStagingFolder))
            return QStringLiteral("it unpacks into %1")
                .arg(arguments.value(QStringLiteral("staging")).toString());
        for (const QJsonValue &value : arguments.value(QStringLiteral("files")).toArray()) {
            const QJsonObject file = value.toObject();
            const bool known =
                std::any_of(archive->files.cbegin(), archive->files.cend(), [&](const ArchiveFile &ours) {
                    return ours.kind == ArchiveFile::Kind::Library &&
                           ours.path == file.value(QStringLiteral("path")).toString() &&
                           ours.entry == file.value(QStringLiteral("entry")).toInt(-1) &&
                           qint64(ours.crc32) == file.value(QStringLiteral("crc32")).toInteger() &&
                           ours.size == file.value(QStringLiteral("size")).toInteger();
                });
            if (!known)
                return QStringLiteral("it unpacks %1, which is no cuDNN library of the archive")
                    .arg(file.value(QStringLiteral("path")).toString());
        }
        return std::nullopt;
    }
    const QString scope = arguments.value(QStringLiteral("scope")).toString();
    if (name == QLatin1String("add-path-entry") || name == QLatin1String("remove-path-entry")) {
        if (scope != operations::scopeName(EnvironmentScope::System))
            return QStringLiteral("it changes the %1 PATH").arg(scope);
        if (name == QLatin1String("add-path-entry"))
            return machineFolderDoubt(context, arguments.value(QStringLiteral("entry")).toString());
        return std::nullopt;
    }
    if (name == QLatin1String("set-environment-value")) {
        const QString variable = arguments.value(QStringLiteral("name")).toString();
        static const QStringList variables{QStringLiteral("CUDNN_PATH"), QStringLiteral("CUDNN_INCLUDE_DIR"),
                                           QStringLiteral("CUDNN_LIBRARY"), QStringLiteral("CUDA_PATH")};
        if (scope != operations::scopeName(EnvironmentScope::System) ||
            !variables.contains(variable, Qt::CaseInsensitive))
            return QStringLiteral("it sets %1 (%2)").arg(variable, scope);
        const QJsonValue value = arguments.value(QStringLiteral("value"));
        if (value.isObject())
            return machineFolderDoubt(context, value.toObject().value(QStringLiteral("text")).toString());
        return std::nullopt;
    }
    return QStringLiteral("no repair has a step %1").arg(name);
}

} // namespace

std::optional<QString> handedOverDoubt(const Repair &repair, const SystemContext &context,
                                       const QString &archivePath, const ArchiveReport *archive)
{
    if (repair.steps.isEmpty())
        return QStringLiteral("it has no steps");
    for (const QJsonObject &step : repair.steps) {
        if (std::optional<QString> doubt = stepDoubt(step, context, archivePath, archive))
            return QStringLiteral("%1: %2").arg(repair.id, *doubt);
    }
    return std::nullopt;
}

} // namespace repairs

} // namespace cudnnsetup
