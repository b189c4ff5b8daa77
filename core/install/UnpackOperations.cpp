// The operations that unpack the archive, and place what the unpacked files turn out to need
// (zlibwapi.dll).
#include "install/OperationFamilies.h"

#include "install/Zlibwapi.h"
#include "platform/DurableFiles.h"
#include "platform/SystemContext.h"

#include <QFileInfo>
#include <QJsonArray>

namespace cudnnsetup {

namespace operations {

namespace {

class UnpackArchive final : public Operation
{
public:
    UnpackArchive(QString archive, QList<ArchiveFile> files, QList<ArchiveFile> checkOnly, QString staging,
                  std::shared_ptr<Extraction> result, ArchiveHashed archiveHashed = {})
        : m_archive(std::move(archive))
        , m_files(std::move(files))
        , m_checkOnly(std::move(checkOnly))
        , m_staging(std::move(staging))
        , m_result(std::move(result))
        , m_archiveHashed(std::move(archiveHashed))
    {
    }

    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        const auto filesOf = [](const QJsonValue &list) {
            QList<ArchiveFile> files;
            for (const QJsonValue &value : list.toArray()) {
                const QJsonObject file = value.toObject();
                ArchiveFile archiveFile;
                archiveFile.path = file.value(QStringLiteral("path")).toString();
                archiveFile.entry = file.value(QStringLiteral("entry")).toInt(-1);
                archiveFile.crc32 = quint32(file.value(QStringLiteral("crc32")).toInteger());
                archiveFile.size = file.value(QStringLiteral("size")).toInteger();
                files.append(archiveFile);
            }
            return files;
        };
        return std::make_unique<UnpackArchive>(arguments.value(QStringLiteral("archive")).toString(),
                                               filesOf(arguments.value(QStringLiteral("files"))),
                                               filesOf(arguments.value(QStringLiteral("checkOnly"))),
                                               arguments.value(QStringLiteral("staging")).toString(),
                                               std::make_shared<Extraction>());
    }

    QString name() const override { return QStringLiteral("unpack-archive"); }
    QJsonObject arguments() const override
    {
        const auto listOf = [](const QList<ArchiveFile> &files) {
            QJsonArray list;
            for (const ArchiveFile &file : files) {
                list.append(QJsonObject{{QStringLiteral("path"), file.path},
                                        {QStringLiteral("entry"), file.entry},
                                        {QStringLiteral("crc32"), qint64(file.crc32)},
                                        {QStringLiteral("size"), file.size}});
            }
            return list;
        };
        return {{QStringLiteral("archive"), m_archive},
                {QStringLiteral("staging"), m_staging},
                {QStringLiteral("files"), listOf(m_files)},
                {QStringLiteral("checkOnly"), listOf(m_checkOnly)}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Unpacking %1")).arg(QFileInfo(m_archive).fileName());
    }

    Expected<void> perform(OperationContext &context) override
    {
        context.remember({{QStringLiteral("staging"), m_staging}});
        ExtractOptions options;
        options.progress = [&context](const ExtractionProgress &progress) {
            if (context.bytesProgress)
                context.bytesProgress(progress.bytesDone, progress.bytesTotal);
        };
        options.cancelled = context.cancelled;
        options.checkOnly = m_checkOnly;
        options.hashArchive = bool(m_archiveHashed);
        auto extraction = extractArchive(m_archive, m_files, m_staging, options);
        if (!extraction)
            return extraction.error();
        if (m_archiveHashed) {
            if (Expected<void> judged = m_archiveHashed(extraction->archiveSha256); !judged)
                return judged;
        }
        if (m_result)
            *m_result = *extraction;
        return {};
    }

    Expected<void> undo(OperationContext &, const QJsonObject &remembered) override
    {
        if (!remembered.isEmpty())
            durable::discardTree(m_staging);
        return {};
    }

    Expected<void> finish(OperationContext &, const QJsonObject &) override
    {
        durable::discardTree(m_staging);
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {m_staging}; }

private:
    QString m_archive;
    QList<ArchiveFile> m_files;
    QList<ArchiveFile> m_checkOnly;
    QString m_staging;
    std::shared_ptr<Extraction> m_result;
    ArchiveHashed m_archiveHashed;
};

// Performs `inner` as a piece of the operation that is running: what the inner one would remember
// is already known to the outer one's undo, and must not take the place of what it remembered.
Expected<void> performAsPartOf(Operation &inner, OperationContext &context)
{
    const auto remember = std::exchange(context.remember, [](const QJsonObject &) {});
    Expected<void> done = inner.perform(context);
    context.remember = remember;
    return done;
}

// zlibwapi.dll beside the cuDNN DLLs when, once they are unpacked, their imports ask for it and the
// loader would find no 64-bit copy first. Decided while the transaction runs (the imports are read
// from the unpacked files, where a random access is cheap), undone like any other file.
class PlaceZlibwapi final : public Operation
{
public:
    PlaceZlibwapi(QString destination, QStringList dlls, QString dllFolder,
                  std::shared_ptr<const SystemContext> context, std::shared_ptr<bool> placed)
        : m_destination(std::move(destination))
        , m_dlls(std::move(dlls))
        , m_dllFolder(std::move(dllFolder))
        , m_context(std::move(context))
        , m_placed(std::move(placed))
    {
    }

    QString name() const override { return QStringLiteral("place-zlibwapi"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("destination"), m_destination},
                {QStringLiteral("dlls"), QJsonArray::fromStringList(m_dlls)},
                {QStringLiteral("dllFolder"), m_dllFolder}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Checking whether the DLLs need zlibwapi.dll"));
    }

    Expected<void> perform(OperationContext &context) override
    {
        QList<DllImage> images;
        // Read where the PE reader points, not whole: cuDNN's DLLs are hundreds of megabytes.
        for (const QString &dll : m_dlls)
            images.append(DllImage::fromHostFile(QFileInfo(dll).fileName(), dll));
        Findings findings;
        const QStringList importers = dllsImportingZlibwapi(images, &findings);
        const bool present = QFileInfo::exists(m_destination) ||
                             (m_context && existingZlibwapi(*m_context, m_dllFolder, &findings));
        const bool needed = !importers.isEmpty() && !present;
        if (needed && !embeddedZlibwapiAvailable())
            return zlibwapiUnavailable(importers);
        context.remember({{QStringLiteral("written"), needed}});
        if (!needed)
            return {};
        // What the write would remember is known: nothing was there to replace.
        if (Expected<void> written = performAsPartOf(*writeFile(m_destination, embeddedZlibwapi()), context);
            !written)
            return written;
        if (m_placed)
            *m_placed = true;
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.value(QStringLiteral("written")).toBool())
            return {};
        // The file write was this operation's own: undone as that write would be.
        return writeFile(m_destination, {})->undo(context, {{QStringLiteral("replaced"), false}});
    }

    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        return writeFile(m_destination, {})->changedPaths(remembered);
    }

    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        QStringList dlls;
        for (const QJsonValue &dll : arguments.value(QStringLiteral("dlls")).toArray())
            dlls.append(dll.toString());
        return std::make_unique<PlaceZlibwapi>(arguments.value(QStringLiteral("destination")).toString(),
                                               dlls, arguments.value(QStringLiteral("dllFolder")).toString(),
                                               nullptr, nullptr);
    }

private:
    QString m_destination;
    QStringList m_dlls;
    QString m_dllFolder;
    std::shared_ptr<const SystemContext> m_context;
    std::shared_ptr<bool> m_placed;
};

} // namespace

void addUnpackOperations(QHash<QString, Operation::Factory> &table)
{
    table.insert(QStringLiteral("unpack-archive"), &UnpackArchive::fromJson);
    table.insert(QStringLiteral("place-zlibwapi"), &PlaceZlibwapi::fromJson);
}

std::unique_ptr<Operation> unpackArchive(const QString &archive, const QList<ArchiveFile> &files,
                                         const QList<ArchiveFile> &checkOnly, const QString &staging,
                                         std::shared_ptr<Extraction> result, ArchiveHashed archiveHashed)
{
    return std::make_unique<UnpackArchive>(archive, files, checkOnly, staging, std::move(result),
                                           std::move(archiveHashed));
}

std::unique_ptr<Operation> placeZlibwapi(const QString &destination, const QStringList &dlls,
                                         const QString &dllFolder,
                                         std::shared_ptr<const SystemContext> context,
                                         std::shared_ptr<bool> placed)
{
    return std::make_unique<PlaceZlibwapi>(destination, dlls, dllFolder, std::move(context),
                                           std::move(placed));
}

} // namespace operations

} // namespace cudnnsetup
