// The operations on single files and folders: placing (also over a file in use), creating,
// removing.
#include "install/OperationFamilies.h"

#include "common/Logging.h"
#include "install/PathEditor.h"
#include "platform/DurableFiles.h"
#include "platform/FilesInUse.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace cudnnsetup {

namespace operations {

const QString kPartialSuffix = QStringLiteral(".cudnn-setup-partial");

SystemResult renameOrCopy(const QString &from, const QString &to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    if (durable::rename(from, to))
        return {};
    if (SystemResult copied = durable::copy(from, to + kPartialSuffix, to); !copied) {
        durable::discard(to + kPartialSuffix);
        return copied;
    }
    return {};
}

namespace {

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

} // namespace

Finding fileFailure(const OperationContext &context, const QString &path, const SystemFailure &failure)
{
    const QString &details = failure.message;
    if (failure.code != 0 && context.filesInUse && context.filesInUse->isInUseError(failure)) {
        return Finding::error(
            QStringLiteral("install.file-in-use"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is in use by another program, so it cannot be changed."))
                .arg(native(path)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Close the programs that use it (Python, Jupyter, an editor), then try "
                                   "again.")));
    }
    if (durable::isAccessDenied(failure)) {
        return Finding::error(
            QStringLiteral("install.needs-administrator"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "This account may not change %1.")).arg(native(path)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Run cuDNN Setup as an administrator (the wizard asks Windows for that "
                                   "when a target needs it), or choose a folder of your own.")));
    }
    return Finding::error(
        QStringLiteral("install.file-failed"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be changed.")).arg(native(path)), details,
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "Close programs that use it, check that the disk is not full, and try again.")));
}

namespace {

Finding crashed()
{
    return Finding::error(QStringLiteral("install.crashed"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Stopped.")), QStringLiteral("fault point"));
}

// A file set aside (renamed, or copied and removed where a rename cannot cross volumes).
SystemResult moveAside(const QString &from, const QString &to)
{
    if (SystemResult placed = renameOrCopy(from, to); !placed)
        return placed;
    if (!QFileInfo::exists(from))
        return {}; // renamed
    if (SystemResult removed = durable::remove(from); !removed) {
        durable::discard(to); // not set aside after all: no second copy for an undo to find
        return removed;
    }
    return {};
}

// The file operations that put a new file where an old one may be: the old one is set aside
// first, kept until the commit (or, for an install, kept for good as `keepReplacedAs`, so an
// uninstall can put it back).
class PlaceFile final : public Operation
{
public:
    enum class How
    {
        Copy,
        Move,
        Write,
        Link, // a symbolic link whose target (the "source") is a file name beside it
    };

    PlaceFile(How how, QString source, QString destination, QByteArray content, QString keepReplacedAs,
              std::function<QByteArray()> makeContent = {})
        : m_how(how)
        , m_source(std::move(source))
        , m_destination(std::move(destination))
        , m_content(std::move(content))
        , m_keepReplacedAs(std::move(keepReplacedAs))
        , m_makeContent(std::move(makeContent))
    {
    }

    static std::unique_ptr<Operation> fromJson(How how, const QJsonObject &arguments)
    {
        return std::make_unique<PlaceFile>(
            how, arguments.value(QStringLiteral("source")).toString(),
            arguments.value(QStringLiteral("destination")).toString(),
            QByteArray::fromBase64(arguments.value(QStringLiteral("content")).toString().toLatin1()),
            arguments.value(QStringLiteral("keepReplacedAs")).toString());
    }

    QString name() const override
    {
        switch (m_how) {
        case How::Copy:
            return QStringLiteral("copy-file");
        case How::Move:
            return QStringLiteral("move-into-place");
        case How::Write:
            return QStringLiteral("write-file");
        case How::Link:
            return QStringLiteral("make-symlink");
        }
        return {};
    }

    QJsonObject arguments() const override
    {
        QJsonObject object{{QStringLiteral("destination"), m_destination}};
        if (m_how == How::Write)
            object.insert(QStringLiteral("content"), QString::fromLatin1(content().toBase64()));
        else
            object.insert(QStringLiteral("source"), m_source);
        if (!m_keepReplacedAs.isEmpty())
            object.insert(QStringLiteral("keepReplacedAs"), m_keepReplacedAs);
        return object;
    }

    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Placing %1")).arg(native(m_destination));
    }

    Expected<void> perform(OperationContext &context) override
    {
        const bool replacing = present(m_destination);
        const QString aside = asidePath(context);
        // Whatever is at the set-aside place is taken for the replaced file by an undo: nothing may be.
        if (replacing && (QFileInfo::exists(aside) || QFileInfo(aside).isSymLink()))
            return fileFailure(
                context, m_destination,
                SystemFailure{
                    QStringLiteral("%1 is in the way of the replaced file").arg(aside), 0, {aside}});
        context.remember({{QStringLiteral("replaced"), replacing}});
        if (replacing) {
            if (SystemResult setAside = moveAside(m_destination, aside); !setAside)
                return fileFailure(context, m_destination, setAside.error());
        }
        SystemResult placed;
        switch (m_how) {
        case How::Move:
            placed = durable::rename(m_source, m_destination);
            break;
        case How::Copy: {
            bool stopped = false;
            placed = durable::copy(m_source, m_destination + kPartialSuffix, m_destination,
                                   [&](QByteArrayView, qint64) {
                                       stopped = context.crashes(FaultPoint::Stage::InsideCopy);
                                       return !stopped;
                                   });
            if (stopped) {
                context.crashedInside = true;
                return crashed();
            }
            break;
        }
        case How::Write:
            placed = durable::write(content(), m_destination + kPartialSuffix, m_destination);
            break;
        case How::Link:
            placed = durable::symlink(m_source, m_destination);
            break;
        }
        if (!placed)
            return fileFailure(context, m_destination, placed.error());
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (remembered.isEmpty())
            return {}; // it wrote its intent down before touching anything
        durable::discard(m_destination + kPartialSuffix);
        const QString aside = foundAside(context);
        const bool replaced = remembered.value(QStringLiteral("replaced")).toBool();
        // Ours is at the destination unless the old file is still there (not yet set aside).
        const bool oursInPlace = present(m_destination) && (!replaced || present(aside));
        if (oursInPlace) {
            const SystemResult taken = m_how == How::Move && !QFileInfo::exists(m_source)
                                           ? durable::rename(m_destination, m_source) // back to staging
                                           : durable::remove(m_destination);
            if (!taken)
                return fileFailure(context, m_destination, taken.error());
        }
        if (replaced && present(aside)) {
            if (SystemResult restored = moveAside(aside, m_destination); !restored)
                return fileFailure(context, m_destination, restored.error());
        }
        return {};
    }

    Expected<void> finish(OperationContext &context, const QJsonObject &remembered) override
    {
        const QString backup = context.backupPath(QFileInfo(m_destination).fileName());
        if (!remembered.value(QStringLiteral("replaced")).toBool() || !QFileInfo::exists(backup))
            return {};
        if (m_keepReplacedAs.isEmpty()) {
            durable::discard(backup);
            return {};
        }
        // Set aside into the backup folder by an older version, which kept it only after the commit.
        if (const SystemResult kept = moveAside(backup, m_keepReplacedAs); !kept)
            return fileFailure(context, m_keepReplacedAs, kept.error());
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override
    {
        QStringList paths{m_destination, m_destination + kPartialSuffix};
        if (m_how == How::Move)
            paths.append(m_source); // moved away, and back by an undo
        if (!m_keepReplacedAs.isEmpty())
            paths << m_keepReplacedAs << m_keepReplacedAs + kPartialSuffix;
        return paths;
    }

private:
    // A link counts as there even where what it names is not (yet, or any more).
    bool present(const QString &path) const
    {
        return QFileInfo::exists(path) || (m_how == How::Link && QFileInfo(path).isSymLink());
    }

    // Where the file it replaces goes: straight to where the receipt keeps it for good, so that no
    // step after the commit can fail to keep it (and lose it with the backups); else a backup until
    // the commit.
    QString asidePath(const OperationContext &context) const
    {
        return m_keepReplacedAs.isEmpty() ? context.backupPath(QFileInfo(m_destination).fileName())
                                          : m_keepReplacedAs;
    }
    // Where an undo finds it: there, or in the backup folder, where an older version put it.
    QString foundAside(const OperationContext &context) const
    {
        const QString aside = asidePath(context);
        const QString backup = context.backupPath(QFileInfo(m_destination).fileName());
        return !QFileInfo::exists(aside) && QFileInfo::exists(backup) ? backup : aside;
    }

    // Made once, when first asked for: the journal's record of the operation comes right before it
    // runs, after the operations it depends on.
    const QByteArray &content() const
    {
        if (m_makeContent) {
            m_content = m_makeContent();
            m_makeContent = {};
        }
        return m_content;
    }

    How m_how;
    QString m_source;
    QString m_destination;
    mutable QByteArray m_content;
    QString m_keepReplacedAs;
    mutable std::function<QByteArray()> m_makeContent;
};

class MakeDirectory final : public Operation
{
public:
    MakeDirectory(QString path, QString protectWith)
        : m_path(std::move(path))
        , m_protectWith(std::move(protectWith))
    {
    }
    QString name() const override { return QStringLiteral("make-directory"); }
    QJsonObject arguments() const override
    {
        QJsonObject object{{QStringLiteral("path"), m_path}};
        if (!m_protectWith.isEmpty())
            object.insert(QStringLiteral("protectWith"), m_protectWith);
        return object;
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Creating %1")).arg(native(m_path));
    }

    Expected<void> perform(OperationContext &context) override
    {
        QStringList missing; // the deepest last
        for (QString folder = QDir::cleanPath(m_path); !QFileInfo::exists(folder);
             folder = QFileInfo(folder).absolutePath()) {
            missing.prepend(folder);
            if (QFileInfo(folder).absolutePath() == folder)
                break;
        }
        context.remember({{QStringLiteral("created"), QJsonArray::fromStringList(missing)}});
        for (const QString &folder : missing) {
            // The first folder made has its descriptor from its first moment (review 2, N2: made,
            // then protected, it would carry C:\'s "Authenticated Users may modify" in between), so
            // all below inherits it.
            if (folder == missing.first() && !m_protectWith.isEmpty() && context.fileSecurity) {
                if (SystemResult made = context.fileSecurity->makeFolder(folder, m_protectWith); !made)
                    return fileFailure(context, folder, made.error());
                continue;
            }
            if (!QDir().mkdir(folder) && !QFileInfo(folder).isDir())
                return fileFailure(context, folder,
                                   SystemFailure{QStringLiteral("mkdir failed"), 0, {folder}});
        }
        if (!QFileInfo(m_path).isDir())
            return fileFailure(context, m_path, SystemFailure{QStringLiteral("not a folder"), 0, {m_path}});
        return {};
    }

    Expected<void> undo(OperationContext &, const QJsonObject &remembered) override
    {
        const QJsonArray created = remembered.value(QStringLiteral("created")).toArray();
        for (auto folder = created.constEnd(); folder != created.constBegin();) {
            --folder;
            QDir().rmdir(folder->toString()); // only while empty: what else is there stays
        }
        return {};
    }

    // With the folders above it that it created, which its undo removes while empty.
    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        QStringList paths{m_path};
        for (const QJsonValue &created : remembered.value(QStringLiteral("created")).toArray())
            paths.append(created.toString());
        return paths;
    }
    bool changesEmptyFoldersOnly() const override { return true; }

private:
    QString m_path;
    QString m_protectWith; // SDDL for the topmost folder it creates, or empty
};

// A symbolic link is there even when what it names is not (removed first, or set aside).
bool isThere(const QString &path)
{
    return QFileInfo::exists(path) || QFileInfo(path).isSymLink();
}

class RemoveFile final : public Operation
{
public:
    explicit RemoveFile(QString path)
        : m_path(std::move(path))
    {
    }
    QString name() const override { return QStringLiteral("remove-file"); }
    QJsonObject arguments() const override { return {{QStringLiteral("path"), m_path}}; }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Removing %1")).arg(native(m_path));
    }

    Expected<void> perform(OperationContext &context) override
    {
        context.remember({{QStringLiteral("existed"), isThere(m_path)}});
        if (!isThere(m_path))
            return {};
        if (SystemResult setAside = moveAside(m_path, context.backupPath(QFileInfo(m_path).fileName()));
            !setAside)
            return fileFailure(context, m_path, setAside.error());
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        const QString backup = context.backupPath(QFileInfo(m_path).fileName());
        if (!remembered.value(QStringLiteral("existed")).toBool() || !isThere(backup))
            return {};
        if (SystemResult restored = moveAside(backup, m_path); !restored)
            return fileFailure(context, m_path, restored.error());
        return {};
    }

    Expected<void> finish(OperationContext &context, const QJsonObject &) override
    {
        durable::discard(context.backupPath(QFileInfo(m_path).fileName()));
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {m_path}; }

private:
    QString m_path;
};

class RemoveEmptyDirectory final : public Operation
{
public:
    explicit RemoveEmptyDirectory(QString path)
        : m_path(std::move(path))
    {
    }
    QString name() const override { return QStringLiteral("remove-empty-directory"); }
    QJsonObject arguments() const override { return {{QStringLiteral("path"), m_path}}; }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Removing %1")).arg(native(m_path));
    }

    Expected<void> perform(OperationContext &context) override
    {
        const QDir dir(m_path);
        const bool empty = dir.exists() &&
                           dir.isEmpty(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        context.remember({{QStringLiteral("removed"), empty}});
        if (empty)
            QDir().rmdir(m_path);
        return {};
    }

    Expected<void> undo(OperationContext &, const QJsonObject &remembered) override
    {
        if (remembered.value(QStringLiteral("removed")).toBool())
            QDir().mkpath(m_path);
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {m_path}; }
    bool changesEmptyFoldersOnly() const override { return true; }

private:
    QString m_path;
};

} // namespace

void addFileOperations(QHash<QString, Operation::Factory> &table)
{
    table.insert(QStringLiteral("copy-file"),
                 [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Copy, a); });
    table.insert(QStringLiteral("move-into-place"),
                 [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Move, a); });
    table.insert(QStringLiteral("write-file"),
                 [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Write, a); });
    table.insert(QStringLiteral("make-symlink"),
                 [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Link, a); });
    table.insert(QStringLiteral("make-directory"), [](const QJsonObject &a) {
        return std::unique_ptr<Operation>(std::make_unique<MakeDirectory>(
            a.value(QStringLiteral("path")).toString(), a.value(QStringLiteral("protectWith")).toString()));
    });
    table.insert(QStringLiteral("remove-file"), [](const QJsonObject &a) {
        return std::unique_ptr<Operation>(
            std::make_unique<RemoveFile>(a.value(QStringLiteral("path")).toString()));
    });
    table.insert(QStringLiteral("remove-empty-directory"), [](const QJsonObject &a) {
        return std::unique_ptr<Operation>(
            std::make_unique<RemoveEmptyDirectory>(a.value(QStringLiteral("path")).toString()));
    });
}

std::unique_ptr<Operation> makeDirectory(const QString &path, const QString &protectWith)
{
    return std::make_unique<MakeDirectory>(path, protectWith);
}

std::unique_ptr<Operation> copyFile(const QString &source, const QString &destination)
{
    return std::make_unique<PlaceFile>(PlaceFile::How::Copy, source, destination, QByteArray(), QString());
}

std::unique_ptr<Operation> moveIntoPlace(const QString &staged, const QString &destination,
                                         const QString &keepReplacedAs)
{
    return std::make_unique<PlaceFile>(PlaceFile::How::Move, staged, destination, QByteArray(),
                                       keepReplacedAs);
}

std::unique_ptr<Operation> makeSymlink(const QString &target, const QString &destination,
                                       const QString &keepReplacedAs)
{
    return std::make_unique<PlaceFile>(PlaceFile::How::Link, target, destination, QByteArray(),
                                       keepReplacedAs);
}

std::unique_ptr<Operation> writeFile(const QString &destination, const QByteArray &content)
{
    return std::make_unique<PlaceFile>(PlaceFile::How::Write, QString(), destination, content, QString());
}

std::unique_ptr<Operation> writeFileMadeLater(const QString &destination, std::function<QByteArray()> content)
{
    return std::make_unique<PlaceFile>(PlaceFile::How::Write, QString(), destination, QByteArray(), QString(),
                                       std::move(content));
}

std::unique_ptr<Operation> removeFile(const QString &path)
{
    return std::make_unique<RemoveFile>(path);
}

std::unique_ptr<Operation> removeEmptyDirectory(const QString &path)
{
    return std::make_unique<RemoveEmptyDirectory>(path);
}

} // namespace operations

} // namespace cudnnsetup
