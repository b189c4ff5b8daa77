#include "install/Operations.h"

#include "common/Logging.h"
#include "install/PathEditor.h"
#include "install/Zlibwapi.h"
#include "platform/DurableFiles.h"
#include "platform/FilesInUse.h"
#include "platform/ProcessRunner.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>

namespace cudnnsetup {

namespace operations {

namespace {

const QString kPartialSuffix = QStringLiteral(".cudnn-setup-partial");

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

} // namespace

Finding fileFailure(const QString &path, const SystemFailure &failure)
{
    const QString &details = failure.message;
    if (failure.code != 0 && FilesInUse::host().isInUseError(failure)) {
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

// `from` at `to`, renamed where it can be, else copied (`from` stays then): what moving a file
// to another volume starts with. Nothing is left at `to` when it fails.
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
class PlaceFile : public Operation
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
                m_destination,
                SystemFailure{
                    QStringLiteral("%1 is in the way of the replaced file").arg(aside), 0, {aside}});
        context.remember({{QStringLiteral("replaced"), replacing}});
        if (replacing) {
            if (SystemResult setAside = moveAside(m_destination, aside); !setAside)
                return fileFailure(m_destination, setAside.error());
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
            if (stopped)
                return crashed();
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
            return fileFailure(m_destination, placed.error());
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
                return fileFailure(m_destination, taken.error());
        }
        if (replaced && present(aside)) {
            if (SystemResult restored = moveAside(aside, m_destination); !restored)
                return fileFailure(m_destination, restored.error());
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
            return fileFailure(m_keepReplacedAs, kept.error());
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

class UnpackArchive : public Operation
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

class MakeDirectory : public Operation
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
                    return fileFailure(folder, made.error());
                continue;
            }
            if (!QDir().mkdir(folder) && !QFileInfo(folder).isDir())
                return fileFailure(folder, SystemFailure{QStringLiteral("mkdir failed"), 0, {folder}});
        }
        if (!QFileInfo(m_path).isDir())
            return fileFailure(m_path, SystemFailure{QStringLiteral("not a folder"), 0, {m_path}});
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

class RemoveFile : public Operation
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
            return fileFailure(m_path, setAside.error());
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        const QString backup = context.backupPath(QFileInfo(m_path).fileName());
        if (!remembered.value(QStringLiteral("existed")).toBool() || !isThere(backup))
            return {};
        if (SystemResult restored = moveAside(backup, m_path); !restored)
            return fileFailure(m_path, restored.error());
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

class RemoveEmptyDirectory : public Operation
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

QJsonValue valueToJson(const std::optional<StoredEnvironmentValue> &value)
{
    if (!value)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("text"), value->text},
                       {QStringLiteral("expandable"), value->expandable}};
}

std::optional<StoredEnvironmentValue> valueFromJson(const QJsonValue &json)
{
    if (!json.isObject())
        return std::nullopt;
    const QJsonObject object = json.toObject();
    return StoredEnvironmentValue{object.value(QStringLiteral("text")).toString(),
                                  object.value(QStringLiteral("expandable")).toBool()};
}

class SetEnvironmentValue : public Operation
{
public:
    SetEnvironmentValue(EnvironmentScope scope, QString name, std::optional<StoredEnvironmentValue> value)
        : m_scope(scope)
        , m_name(std::move(name))
        , m_value(std::move(value))
    {
    }
    QString name() const override { return QStringLiteral("set-environment-value"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("scope"), scopeName(m_scope)},
                {QStringLiteral("name"), m_name},
                {QStringLiteral("value"), valueToJson(m_value)}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Setting the environment variable %1")).arg(m_name);
    }

    Expected<void> perform(OperationContext &context) override
    {
        const auto before = context.environment->read(m_scope, m_name);
        if (!before)
            return before.error();
        context.remember({{QStringLiteral("before"), valueToJson(*before)}});
        if (*before == m_value)
            return {};
        if (const std::optional<Finding> error = m_value
                                                     ? context.environment->write(m_scope, m_name, *m_value)
                                                     : context.environment->remove(m_scope, m_name))
            return *error;
        context.environment->announceChange();
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.contains(QStringLiteral("before")))
            return {};
        const std::optional<StoredEnvironmentValue> before =
            valueFromJson(remembered.value(QStringLiteral("before")));
        const auto now = context.environment->read(m_scope, m_name);
        if (!now)
            return now.error();
        if (*now != m_value) {
            // Someone changed it since (or it was never written): theirs stays.
            if (*now != before)
                qCWarning(lcInstall).noquote() << m_name << "changed since it was set; left as it is";
            return {};
        }
        if (const std::optional<Finding> error = before ? context.environment->write(m_scope, m_name, *before)
                                                        : context.environment->remove(m_scope, m_name))
            return *error;
        context.environment->announceChange();
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {}; }
    std::optional<EnvironmentScope> changedEnvironment() const override { return m_scope; }

private:
    EnvironmentScope m_scope;
    QString m_name;
    std::optional<StoredEnvironmentValue> m_value;
};

// One entry added to or taken from a PATH value, the rest kept byte for byte.
class EditPath : public Operation
{
public:
    EditPath(bool adding, OsFamily family, EnvironmentScope scope, QString entry, bool atFront,
             QList<PathFix> fixes = {})
        : m_adding(adding)
        , m_family(family)
        , m_scope(scope)
        , m_entry(std::move(entry))
        , m_atFront(atFront)
        , m_fixes(std::move(fixes))
    {
    }

    static std::unique_ptr<Operation> fromJson(bool adding, const QJsonObject &arguments)
    {
        const auto scope = scopeFromName(arguments.value(QStringLiteral("scope")).toString());
        if (!scope)
            return nullptr;
        const OsFamily family = arguments.value(QStringLiteral("os")).toString() == QLatin1String("linux")
                                    ? OsFamily::Linux
                                    : OsFamily::Windows;
        QList<PathFix> fixes;
        for (const QJsonValue &value : arguments.value(QStringLiteral("fixes")).toArray()) {
            const QJsonObject fix = value.toObject();
            fixes.append({fix.value(QStringLiteral("action")).toString() == QLatin1String("move-behind-ours")
                              ? PathFix::Action::MoveBehindOurs
                              : PathFix::Action::Remove,
                          fix.value(QStringLiteral("index")).toInt(-1),
                          fix.value(QStringLiteral("entry")).toString()});
        }
        return std::make_unique<EditPath>(
            adding, family, *scope, arguments.value(QStringLiteral("entry")).toString(),
            arguments.value(QStringLiteral("position")).toString() != QLatin1String("back"), fixes);
    }

    QString name() const override
    {
        return m_adding ? QStringLiteral("add-path-entry") : QStringLiteral("remove-path-entry");
    }
    QJsonObject arguments() const override
    {
        QJsonObject object{
            {QStringLiteral("os"),
             m_family == OsFamily::Linux ? QStringLiteral("linux") : QStringLiteral("windows")},
            {QStringLiteral("scope"), scopeName(m_scope)},
            {QStringLiteral("entry"), m_entry},
            {QStringLiteral("position"), m_atFront ? QStringLiteral("front") : QStringLiteral("back")}};
        if (!m_fixes.isEmpty()) {
            QJsonArray fixes;
            for (const PathFix &fix : m_fixes) {
                fixes.append(
                    QJsonObject{{QStringLiteral("action"), fix.action == PathFix::Action::MoveBehindOurs
                                                               ? QStringLiteral("move-behind-ours")
                                                               : QStringLiteral("remove")},
                                {QStringLiteral("index"), fix.index},
                                {QStringLiteral("entry"), fix.entry}});
            }
            object.insert(QStringLiteral("fixes"), fixes);
        }
        return object;
    }
    Text description() const override
    {
        return m_adding ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Adding %1 to PATH")).arg(m_entry)
                        : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Taking %1 off PATH")).arg(m_entry);
    }

    Expected<void> perform(OperationContext &context) override
    {
        const auto before = context.environment->read(m_scope, pathName());
        if (!before)
            return before.error();
        const auto edited = editedValue(context, *before);
        if (!edited)
            return edited.error();
        const StoredEnvironmentValue after = *edited;
        context.remember({{QStringLiteral("before"), valueToJson(*before)},
                          {QStringLiteral("after"), valueToJson(after)}});
        if (before->has_value() && before->value() == after)
            return {};
        if (!before->has_value() && after.text.isEmpty())
            return {};
        if (const std::optional<Finding> error = context.environment->write(m_scope, pathName(), after))
            return *error;
        context.environment->announceChange();
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.contains(QStringLiteral("after")))
            return {};
        const std::optional<StoredEnvironmentValue> before =
            valueFromJson(remembered.value(QStringLiteral("before")));
        const std::optional<StoredEnvironmentValue> after =
            valueFromJson(remembered.value(QStringLiteral("after")));
        const auto now = context.environment->read(m_scope, pathName());
        if (!now)
            return now.error();
        if (*now == before)
            return {}; // never written, or already undone
        std::optional<Finding> error;
        if (*now == after) {
            error = before ? context.environment->write(m_scope, pathName(), *before)
                           : context.environment->remove(m_scope, pathName());
        } else if (m_adding && now->has_value()) {
            // PATH changed since: take out only ours, if it was not there before.
            const PathEditor editor = editorFor(context);
            if (before && editor.indexOf(before->text, m_entry) >= 0)
                return {};
            StoredEnvironmentValue without = now->value();
            without.text = editor.withoutEntry(without.text, m_entry);
            error = context.environment->write(m_scope, pathName(), without);
        } else {
            qCWarning(lcInstall).noquote()
                << "PATH changed since" << m_entry << "was taken off; left as it is";
            return {};
        }
        if (error)
            return *error;
        context.environment->announceChange();
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {}; }
    std::optional<EnvironmentScope> changedEnvironment() const override { return m_scope; }

    // An undo writes the value from before back: it must be the one this edit was made from.
    std::optional<QString> implausibleRecord(OperationContext &context,
                                             const QJsonObject &remembered) const override
    {
        if (!remembered.contains(QStringLiteral("after")))
            return std::nullopt;
        const std::optional<StoredEnvironmentValue> after =
            valueFromJson(remembered.value(QStringLiteral("after")));
        const auto expected = editedValue(context, valueFromJson(remembered.value(QStringLiteral("before"))));
        if (!after || !expected || *expected != *after)
            return QStringLiteral("its PATH after the change is not %1 applied to its PATH before")
                .arg(name());
        return std::nullopt;
    }

private:
    QString pathName() const { return QStringLiteral("PATH"); }
    // The value this edit makes of `before`.
    Expected<StoredEnvironmentValue> editedValue(OperationContext &context,
                                                 const std::optional<StoredEnvironmentValue> &before) const
    {
        const QString raw = before ? before->text : QString();
        const PathEditor editor = editorFor(context);
        QString edited;
        if (m_adding) {
            // The fixes the user chose (stale copies out of the way), applied in the same write.
            const auto added = m_fixes.isEmpty() ? editor.withEntry(raw, m_entry, position())
                                                 : editor.edited(raw, m_entry, position(), m_fixes);
            if (!added)
                return added.error();
            edited = *added;
        } else {
            edited = editor.withoutEntry(raw, m_entry);
        }
        // A new PATH is REG_EXPAND_SZ, as Windows makes it; an existing one keeps its type.
        return StoredEnvironmentValue{edited, before ? before->expandable : true};
    }
    PathEditor::Position position() const
    {
        return m_atFront ? PathEditor::Position::Front : PathEditor::Position::Back;
    }
    PathEditor editorFor(OperationContext &context) const
    {
        return PathEditor::forStoredPath(m_family, m_scope, *context.environment, context.sessionVariable);
    }

    bool m_adding;
    OsFamily m_family;
    EnvironmentScope m_scope;
    QString m_entry;
    bool m_atFront;
    QList<PathFix> m_fixes;
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

// The new file of one in use goes beside it, and Windows swaps them at its next start
// (MoveFileEx with MOVEFILE_DELAY_UNTIL_REBOOT). Undo removes the waiting file, so the swap at
// the next start finds nothing to do.
// A file in use (a DLL a running python.exe loaded) cannot be overwritten or removed, but it can
// be renamed within its folder: the running programs keep their copy under the new name, and
// programs started from now on load the new file at once.
class ReplaceInUse final : public Operation
{
public:
    ReplaceInUse(QString staged, QString destination, QString keepReplacedAs, const FilesInUse *files)
        : m_staged(std::move(staged))
        , m_destination(std::move(destination))
        , m_keepReplacedAs(std::move(keepReplacedAs))
        , m_files(files)
    {
    }
    QString name() const override { return QStringLiteral("replace-in-use"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("staged"), m_staged},
                {QStringLiteral("destination"), m_destination},
                {QStringLiteral("keepReplacedAs"), m_keepReplacedAs}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Replacing %1, which is in use"))
            .arg(QDir::toNativeSeparators(m_destination));
    }
    Expected<void> perform(OperationContext &context) override
    {
        // Beside it, so the rename stays on its volume; a name no earlier replacement left behind
        // (the file an earlier one set aside goes only at the next start of Windows).
        QString aside = m_destination + kAsideSuffix;
        for (int n = 2; QFileInfo::exists(aside) || QFileInfo(aside).isSymLink(); ++n)
            aside = m_destination + kAsideSuffix + QString::number(n);
        context.remember({{QStringLiteral("aside"), aside}});
        if (const SystemResult setAside = durable::rename(m_destination, aside); !setAside)
            return fileFailure(m_destination, setAside.error());
        if (const SystemResult placed = durable::rename(m_staged, m_destination); !placed) {
            if (const SystemResult back = durable::rename(aside, m_destination); !back)
                return fileFailure(m_destination, back.error());
            return fileFailure(m_destination, placed.error());
        }
        return {};
    }
    Expected<void> undo(OperationContext &, const QJsonObject &remembered) override
    {
        const QString aside = remembered.value(QStringLiteral("aside")).toString();
        if (aside.isEmpty() || !QFileInfo::exists(aside))
            return {}; // nothing was set aside: the destination is still the old file
        if (QFileInfo::exists(m_destination) && !QFileInfo::exists(m_staged)) {
            if (const SystemResult restaged = durable::rename(m_destination, m_staged); !restaged)
                return fileFailure(m_destination, restaged.error());
        }
        if (const SystemResult restored = durable::rename(aside, m_destination); !restored)
            return fileFailure(m_destination, restored.error());
        return {};
    }
    // After the commit the old file goes where the receipt keeps it, by a rename where the state
    // folder is on the same volume (a loaded file may be renamed); else it is copied there, and the
    // file set aside, which stays loaded until its programs end, is removed at the next start.
    Expected<void> finish(OperationContext &, const QJsonObject &remembered) override
    {
        const QString aside = remembered.value(QStringLiteral("aside")).toString();
        if (aside.isEmpty() || !QFileInfo::exists(aside))
            return {};
        if (!m_keepReplacedAs.isEmpty() && !QFileInfo::exists(m_keepReplacedAs)) {
            if (const SystemResult kept = renameOrCopy(aside, m_keepReplacedAs); !kept)
                return fileFailure(m_keepReplacedAs, kept.error());
            if (!QFileInfo::exists(aside))
                return {}; // renamed
        }
        if (durable::remove(aside))
            return {};
        if (const SystemResult scheduled = (m_files ? *m_files : FilesInUse::host()).removeAtReboot(aside);
            !scheduled) {
            return Finding::error(
                QStringLiteral("install.restart-removal-failed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The replaced %1 cannot be removed, not even at the next "
                                       "start; it stays as %2."))
                    .arg(QDir::toNativeSeparators(m_destination), QDir::toNativeSeparators(aside)),
                scheduled.error().message);
        }
        return {};
    }
    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        QStringList paths{m_staged, m_destination, remembered.value(QStringLiteral("aside")).toString()};
        if (!m_keepReplacedAs.isEmpty())
            paths << m_keepReplacedAs << m_keepReplacedAs + kPartialSuffix;
        return paths;
    }
    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        return std::make_unique<ReplaceInUse>(arguments.value(QStringLiteral("staged")).toString(),
                                              arguments.value(QStringLiteral("destination")).toString(),
                                              arguments.value(QStringLiteral("keepReplacedAs")).toString(),
                                              nullptr);
    }

private:
    static inline const QString kAsideSuffix = QStringLiteral(".cudnn-setup-replaced");

    QString m_staged;
    QString m_destination;
    QString m_keepReplacedAs;
    const FilesInUse *m_files;
};

class RefreshingLibraryCache final : public Operation
{
public:
    RefreshingLibraryCache(std::unique_ptr<Operation> change, bool rebuildsCache)
        : m_change(std::move(change))
        , m_rebuildsCache(rebuildsCache)
    {
    }

    // A journal says whether the cache is rebuilt, never with which program: whoever could write
    // the journal would otherwise choose what root runs. One from before this rule named the
    // distribution's ldconfig, which reads as a rebuild; any other program is no step of ours.
    static std::unique_ptr<Operation> fromJson(const QJsonObject &arguments)
    {
        std::unique_ptr<Operation> change =
            Operation::create(arguments.value(QStringLiteral("change")).toString(),
                              arguments.value(QStringLiteral("arguments")).toObject());
        const QJsonValue rebuilds = arguments.value(QStringLiteral("rebuildsCache"));
        const QString namedProgram = arguments.value(QStringLiteral("ldconfig")).toString();
        if (!change || !(rebuilds.isBool() || rebuilds.isUndefined()) ||
            !(namedProgram.isEmpty() || namedProgram == QLatin1String("/usr/sbin/ldconfig") ||
              namedProgram == QLatin1String("/sbin/ldconfig")))
            return nullptr;
        return std::make_unique<RefreshingLibraryCache>(std::move(change),
                                                        rebuilds.toBool() || !namedProgram.isEmpty());
    }

    QString name() const override { return QStringLiteral("refreshing-library-cache"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("change"), m_change->name()},
                {QStringLiteral("arguments"), m_change->arguments()},
                {QStringLiteral("rebuildsCache"), m_rebuildsCache}};
    }
    Text description() const override { return m_change->description(); }

    Expected<void> perform(OperationContext &context) override
    {
        if (Expected<void> changed = m_change->perform(context); !changed)
            return changed;
        return rebuildCache();
    }
    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (Expected<void> undone = m_change->undo(context, remembered); !undone)
            return undone;
        return rebuildCache();
    }
    Expected<void> finish(OperationContext &context, const QJsonObject &remembered) override
    {
        return m_change->finish(context, remembered);
    }
    QStringList changedPaths(const QJsonObject &remembered) const override
    {
        return m_change->changedPaths(remembered);
    }

private:
    Expected<void> rebuildCache() const
    {
        if (!m_rebuildsCache)
            return {};
        const QString ldconfig = hostLdconfig();
        const ProcessResult result =
            ldconfig.isEmpty() ? ProcessResult() : ProcessRunner().run(ldconfig, {}, 120000);
        if (result.succeeded())
            return {};
        return Finding::error(
            QStringLiteral("install.ldconfig-failed"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "ldconfig could not rebuild the loader's cache of library "
                                                 "folders.")),
            ldconfig.isEmpty()
                ? QStringLiteral("no ldconfig in /usr/sbin or /sbin")
                : result.summary() + QLatin1Char('\n') + QString::fromLocal8Bit(result.standardError),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Run the install as root (sudo), or run ldconfig yourself.")));
    }

    std::unique_ptr<Operation> m_change;
    bool m_rebuildsCache = false;
};

const QHash<QString, Operation::Factory> &factories()
{
    static const QHash<QString, Operation::Factory> table{
        {QStringLiteral("copy-file"),
         [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Copy, a); }},
        {QStringLiteral("move-into-place"),
         [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Move, a); }},
        {QStringLiteral("write-file"),
         [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Write, a); }},
        {QStringLiteral("make-symlink"),
         [](const QJsonObject &a) { return PlaceFile::fromJson(PlaceFile::How::Link, a); }},
        {QStringLiteral("unpack-archive"), [](const QJsonObject &a) { return UnpackArchive::fromJson(a); }},
        {QStringLiteral("make-directory"),
         [](const QJsonObject &a) {
             return std::unique_ptr<Operation>(
                 std::make_unique<MakeDirectory>(a.value(QStringLiteral("path")).toString(),
                                                 a.value(QStringLiteral("protectWith")).toString()));
         }},
        {QStringLiteral("remove-file"),
         [](const QJsonObject &a) {
             return std::unique_ptr<Operation>(
                 std::make_unique<RemoveFile>(a.value(QStringLiteral("path")).toString()));
         }},
        {QStringLiteral("remove-empty-directory"),
         [](const QJsonObject &a) {
             return std::unique_ptr<Operation>(
                 std::make_unique<RemoveEmptyDirectory>(a.value(QStringLiteral("path")).toString()));
         }},
        {QStringLiteral("add-path-entry"), [](const QJsonObject &a) { return EditPath::fromJson(true, a); }},
        {QStringLiteral("place-zlibwapi"), &PlaceZlibwapi::fromJson},
        {QStringLiteral("refreshing-library-cache"), &RefreshingLibraryCache::fromJson},
        {QStringLiteral("replace-in-use"), &ReplaceInUse::fromJson},
        {QStringLiteral("remove-path-entry"),
         [](const QJsonObject &a) { return EditPath::fromJson(false, a); }},
        {QStringLiteral("set-environment-value"),
         [](const QJsonObject &a) -> std::unique_ptr<Operation> {
             const auto scope = scopeFromName(a.value(QStringLiteral("scope")).toString());
             if (!scope)
                 return nullptr;
             return std::make_unique<SetEnvironmentValue>(*scope, a.value(QStringLiteral("name")).toString(),
                                                          valueFromJson(a.value(QStringLiteral("value"))));
         }},
    };
    return table;
}

} // namespace

QString scopeName(EnvironmentScope scope)
{
    return scope == EnvironmentScope::User ? QStringLiteral("user") : QStringLiteral("machine");
}

std::optional<EnvironmentScope> scopeFromName(const QString &name)
{
    if (name == QLatin1String("user"))
        return EnvironmentScope::User;
    if (name == QLatin1String("machine"))
        return EnvironmentScope::Machine;
    return std::nullopt;
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

std::unique_ptr<Operation> unpackArchive(const QString &archive, const QList<ArchiveFile> &files,
                                         const QList<ArchiveFile> &checkOnly, const QString &staging,
                                         std::shared_ptr<Extraction> result, ArchiveHashed archiveHashed)
{
    return std::make_unique<UnpackArchive>(archive, files, checkOnly, staging, std::move(result),
                                           std::move(archiveHashed));
}

std::unique_ptr<Operation> removeFile(const QString &path)
{
    return std::make_unique<RemoveFile>(path);
}

std::unique_ptr<Operation> refreshingLibraryCache(std::unique_ptr<Operation> change, bool rebuildsCache)
{
    return std::make_unique<RefreshingLibraryCache>(std::move(change), rebuildsCache);
}

std::unique_ptr<Operation> removeEmptyDirectory(const QString &path)
{
    return std::make_unique<RemoveEmptyDirectory>(path);
}

std::unique_ptr<Operation> addPathEntry(OsFamily family, EnvironmentScope scope, const QString &entry,
                                        bool atFront, const QList<PathFix> &fixes)
{
    return std::make_unique<EditPath>(true, family, scope, entry, atFront, fixes);
}

std::unique_ptr<Operation> removePathEntry(OsFamily family, EnvironmentScope scope, const QString &entry)
{
    return std::make_unique<EditPath>(false, family, scope, entry, true);
}

std::unique_ptr<Operation> setEnvironmentValue(EnvironmentScope scope, const QString &name,
                                               const std::optional<StoredEnvironmentValue> &value)
{
    return std::make_unique<SetEnvironmentValue>(scope, name, value);
}

std::unique_ptr<Operation> placeZlibwapi(const QString &destination, const QStringList &dlls,
                                         const QString &dllFolder,
                                         std::shared_ptr<const SystemContext> context,
                                         std::shared_ptr<bool> placed)
{
    return std::make_unique<PlaceZlibwapi>(destination, dlls, dllFolder, std::move(context),
                                           std::move(placed));
}

std::unique_ptr<Operation> replaceInUse(const QString &staged, const QString &destination,
                                        const QString &keepReplacedAs, const FilesInUse *files)
{
    return std::make_unique<ReplaceInUse>(staged, destination, keepReplacedAs, files);
}

} // namespace operations

std::function<QString(const QString &)> sessionVariablesOf(const SystemContext &context)
{
    return [&context](const QString &name) { return context.environment().value(name); };
}

std::unique_ptr<Operation> Operation::create(const QString &name, const QJsonObject &arguments)
{
    const auto factory = operations::factories().constFind(name);
    return factory == operations::factories().constEnd() ? nullptr : (*factory)(arguments);
}

} // namespace cudnnsetup
