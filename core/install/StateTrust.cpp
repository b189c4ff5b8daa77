#include "install/StateTrust.h"

#include "common/Logging.h"
#include "install/Installer.h"
#include "install/Operations.h"
#include "platform/FileSecurity.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

namespace cudnnsetup {

namespace {

// The environment values an install, uninstall or repair writes.
const QStringList kInstallVariables{QStringLiteral("PATH"), QStringLiteral("CUDNN_PATH"),
                                    QStringLiteral("CUDNN_INCLUDE_DIR"), QStringLiteral("CUDNN_LIBRARY"),
                                    QStringLiteral("CUDA_PATH")};

} // namespace

bool isCudnnFileName(const QString &name)
{
    return name.startsWith(QLatin1String("cudnn"), Qt::CaseInsensitive) ||
           name.startsWith(QLatin1String("libcudnn"), Qt::CaseInsensitive) ||
           name.startsWith(QLatin1String("zlibwapi.dll"), Qt::CaseInsensitive);
}

StateTrust::StateTrust(const SystemContext &context, const QString &stateFolder, const Elevation &elevation)
    : m_context(context)
    , m_stateFolder(context.files().fromHost(stateFolder))
    , m_trustedAccounts(trustedAccounts(elevation))
{
    const SystemPaths &paths = context.paths();
    const EnvironmentStore &environment = context.environment();
    const auto fromEnvironment = [&](const char *name, const QString &fallback) {
        const QString value = environment.value(QLatin1String(name));
        return value.isEmpty() ? fallback : value;
    };
    const StateFolders folders = StateFolders::of(context);
    m_userFolder =
        folders.user != folders.machine && paths.equal(m_stateFolder, context.files().fromHost(folders.user));
    m_guarded = {context.files().fromHost(folders.machine), context.files().fromHost(folders.user)};
    if (paths.isWindows()) {
        const QString windows = fromEnvironment("SystemRoot", QStringLiteral("C:\\Windows"));
        const QString profile = environment.value(QStringLiteral("USERPROFILE"));
        m_guarded += {windows,
                      fromEnvironment("ProgramFiles", QStringLiteral("C:\\Program Files")),
                      fromEnvironment("ProgramFiles(x86)", QStringLiteral("C:\\Program Files (x86)")),
                      fromEnvironment("ProgramW6432", QStringLiteral("C:\\Program Files")),
                      fromEnvironment("ProgramData", QStringLiteral("C:\\ProgramData")),
                      fromEnvironment("PUBLIC", QStringLiteral("C:\\Users\\Public")),
                      QStringLiteral("C:\\Users")};
        if (!profile.isEmpty()) {
            m_guarded += {profile, paths.parent(profile), paths.join(profile, QStringLiteral("AppData")),
                          environment.value(QStringLiteral("LOCALAPPDATA")),
                          environment.value(QStringLiteral("APPDATA"))};
        }
        m_libraryOnly = {windows};
    } else {
        m_guarded += {QStringLiteral("/usr/local"), QStringLiteral("/usr/lib"),
                      QStringLiteral("/usr/lib64"), QStringLiteral("/usr/include"),
                      QStringLiteral("/etc"),       QStringLiteral("/var"),
                      QStringLiteral("/home"),      QStringLiteral("/opt"),
                      QStringLiteral("/boot"),      QStringLiteral("/bin"),
                      QStringLiteral("/sbin"),      QStringLiteral("/lib"),
                      QStringLiteral("/lib64"),     QStringLiteral("/root"),
                      QStringLiteral("/tmp"),       environment.value(QStringLiteral("HOME"))};
        m_libraryOnly = {QStringLiteral("/usr/lib"), QStringLiteral("/usr/lib64"), QStringLiteral("/lib"),
                         QStringLiteral("/lib64"), QStringLiteral("/usr/include")};
    }
    m_guarded.removeAll(QString());
}

QStringList StateTrust::trustedAccounts(const Elevation &elevation)
{
    const QString account = elevation.isElevated() ? elevation.accountSid() : QString();
    return account.isEmpty() ? QStringList() : QStringList{account};
}

std::optional<QString> StateTrust::accessDoubt(const QString &hostPath) const
{
    // A user's own folder is theirs to write; the integrity-level rule keeps it from an elevated run.
    if (m_userFolder)
        return std::nullopt;
    const QString stateHost = QDir::cleanPath(m_context.files().toHost(m_stateFolder));
    for (QString path = QDir::cleanPath(hostPath); path.startsWith(stateHost);
         path = QFileInfo(path).absolutePath()) {
        const QFileInfo info(path);
        if (info.isSymLink() || info.isJunction())
            return QStringLiteral("%1 is a link to somewhere else").arg(QDir::toNativeSeparators(path));
        if (path == stateHost)
            break;
    }
    // Where the system keeps owners and ACLs, one that cannot be read or understood is trusted by
    // no one (DescriptorAnswer::audit); where it keeps none (Linux, a tree under --system-root),
    // there is nothing to check.
    const FileSecurity &security = m_context.fileSecurity();
    const std::optional<WriteAudit> file =
        security.descriptorOf(hostPath).audit(ObjectRole::File, m_trustedAccounts);
    if (!file)
        return std::nullopt;
    if (!file->trusted())
        return QStringLiteral("others than the administrators may have written it (%1)").arg(file->summary());
    // Whoever may delete, rename or re-permission a folder above it could swap it for their own.
    QString folder = QFileInfo(hostPath).absolutePath();
    for (;;) {
        const std::optional<WriteAudit> above =
            security.descriptorOf(folder).audit(ObjectRole::Ancestor, m_trustedAccounts);
        if (above && !above->trusted())
            return QStringLiteral("others than the administrators may replace it through %1 (%2)")
                .arg(QDir::toNativeSeparators(folder), above->summary());
        const QString parent = QFileInfo(folder).absolutePath();
        if (parent == folder)
            break;
        folder = parent;
    }
    return std::nullopt;
}

std::optional<QString> StateTrust::rootDoubt(const QString &root) const
{
    const SystemPaths &paths = m_context.paths();
    if (!paths.isAbsolute(root))
        return QStringLiteral("its root %1 is not an absolute path").arg(root);
    const QString normalized = paths.normalize(root);
    if (paths.parent(normalized).isEmpty() || normalized == QLatin1String("/"))
        return QStringLiteral("its root %1 is a whole drive").arg(root);
    for (const QString &guarded : m_guarded) {
        if (paths.startsWith(guarded, normalized))
            return QStringLiteral("its root %1 is or holds %2").arg(root, guarded);
    }
    return std::nullopt;
}

bool StateTrust::isLibraryOnly(const QString &root) const
{
    return std::any_of(m_libraryOnly.cbegin(), m_libraryOnly.cend(),
                       [&](const QString &folder) { return m_context.paths().startsWith(root, folder); });
}

bool StateTrust::mayChange(const QString &path, const QStringList &roots) const
{
    const SystemPaths &paths = m_context.paths();
    if (!paths.isAbsolute(path))
        return false;
    if (paths.startsWith(path, m_stateFolder))
        return true;
    for (const QString &root : roots) {
        if (!paths.startsWith(path, root) || paths.equal(path, root))
            continue;
        if (!isLibraryOnly(root))
            return true;
        // In System32 and its like: cuDNN's own files directly in the root, or what a repair
        // unpacks beside them.
        const QString relative = paths.normalize(path).mid(paths.normalize(root).size() + 1);
        const QString first =
            relative.section(paths.isWindows() ? QLatin1Char('\\') : QLatin1Char('/'), 0, 0);
        if ((relative == first && isCudnnFileName(first)) ||
            first.compare(QLatin1String(kRepairStagingFolder), paths.caseSensitivity()) == 0)
            return true;
    }
    // A root itself (the folder an install creates and removes) is changed, not its parent.
    return std::any_of(roots.cbegin(), roots.cend(),
                       [&](const QString &root) { return paths.equal(path, root) && !isLibraryOnly(root); });
}

bool StateTrust::isAboveRoot(const QString &folder, const QStringList &roots) const
{
    const SystemPaths &paths = m_context.paths();
    return std::any_of(roots.cbegin(), roots.cend(),
                       [&](const QString &root) { return paths.startsWith(root, folder); });
}

bool StateTrust::mayChangeFolder(const QString &folder, const QStringList &roots) const
{
    const SystemPaths &paths = m_context.paths();
    if (paths.startsWith(folder, m_stateFolder))
        return true;
    return std::any_of(roots.cbegin(), roots.cend(), [&](const QString &root) {
        return paths.startsWith(folder, root) && !isLibraryOnly(root);
    });
}

std::optional<QString> StateTrust::journalDoubt(const QString &hostPath, const Journal::Contents &contents,
                                                OperationContext &context) const
{
    if (std::optional<QString> doubt = accessDoubt(hostPath))
        return doubt;
    const FileSystem &files = m_context.files();
    if (!contents.header.value(QStringLiteral("roots")).isArray())
        return QStringLiteral("its header names no roots");
    QStringList roots;
    for (const QJsonValue &value : contents.header.value(QStringLiteral("roots")).toArray()) {
        const QString root = files.fromHost(value.toString());
        if (std::optional<QString> doubt = rootDoubt(root))
            return doubt;
        roots.append(root);
    }
    if (contents.backupFolder.isEmpty() || !mayChangeFolder(files.fromHost(contents.backupFolder), roots))
        return QStringLiteral("its backup folder %1 is outside its roots").arg(contents.backupFolder);
    for (const Journal::Entry &entry : contents.entries) {
        const std::unique_ptr<Operation> operation = Operation::create(entry.name, entry.arguments);
        if (!operation)
            return QStringLiteral("step %1 is an unknown operation %2").arg(entry.sequence).arg(entry.name);
        for (const QString &path : operation->changedPaths(entry.state)) {
            const QString changed = files.fromHost(path);
            if (!mayChange(changed, roots) &&
                !(operation->changesEmptyFoldersOnly() && isAboveRoot(changed, roots)))
                return QStringLiteral("step %1 (%2) changes %3, outside its roots")
                    .arg(QString::number(entry.sequence), entry.name, path);
        }
        if (const std::optional<EnvironmentScope> scope = operation->changedEnvironment()) {
            if (m_userFolder && *scope != EnvironmentScope::User)
                return QStringLiteral("step %1 (%2) changes the machine environment from a user's journal")
                    .arg(QString::number(entry.sequence), entry.name);
            const QString variable =
                entry.arguments.value(QStringLiteral("name")).toString(QStringLiteral("PATH"));
            if (!kInstallVariables.contains(variable, Qt::CaseInsensitive))
                return QStringLiteral("step %1 (%2) sets %3, which no install sets")
                    .arg(QString::number(entry.sequence), entry.name, variable);
        }
        if (std::optional<QString> doubt = operation->implausibleRecord(context, entry.state))
            return QStringLiteral("step %1 (%2): %3")
                .arg(QString::number(entry.sequence), entry.name, *doubt);
    }
    return std::nullopt;
}

std::optional<QString> StateTrust::receiptDoubt(const QString &hostPath, const Receipt &receipt) const
{
    if (std::optional<QString> doubt = accessDoubt(hostPath))
        return doubt;
    const QStringList roots = rootsOf(receipt, m_context.paths());
    for (const QString &root : std::as_const(roots)) {
        if (std::optional<QString> doubt = rootDoubt(root))
            return doubt;
    }
    for (const Receipt::File &file : receipt.files) {
        if (!mayChange(file.path, roots))
            return QStringLiteral("it lists %1, outside its roots").arg(file.path);
        if (!file.replaced.isEmpty() && !mayChange(file.replaced, roots))
            return QStringLiteral("it keeps the file %1 replaced at %2, outside its roots")
                .arg(file.path, file.replaced);
        // A kept file its uninstall puts back is trusted as the receipt is.
        const QString kept = m_context.files().toHost(file.replaced);
        if (!file.replaced.isEmpty() && m_context.paths().startsWith(file.replaced, m_stateFolder) &&
            QFileInfo::exists(kept)) {
            if (std::optional<QString> doubt = accessDoubt(kept))
                return QStringLiteral("the file it keeps at %1: %2").arg(file.replaced, *doubt);
        }
    }
    // The folders it created, which its uninstall removes while empty: the root and above it.
    for (const QString &folder : receipt.folders) {
        if (!mayChange(folder, roots) && !isAboveRoot(folder, roots))
            return QStringLiteral("it created the folder %1, outside its roots").arg(folder);
    }
    for (const Receipt::EnvironmentChange &change : receipt.environment) {
        if (!kInstallVariables.contains(change.name, Qt::CaseInsensitive))
            return QStringLiteral("it changed %1, which no install sets").arg(change.name);
        if (m_userFolder && change.scope != QLatin1String("user"))
            return QStringLiteral("a user's receipt changed the %1 environment").arg(change.scope);
    }
    return std::nullopt;
}

QStringList StateTrust::rootsOf(const Receipt &receipt, const SystemPaths &paths)
{
    QStringList roots;
    if (receipt.target) {
        roots.append(receipt.target->root);
        const QString pthFile = receipt.target->pthFile();
        if (!pthFile.isEmpty())
            roots.append(pthFile); // a venv's: in site-packages, above the root
        const QString ldSoConf = receipt.target->ldSoConfFile();
        if (!ldSoConf.isEmpty()) {
            roots.append(ldSoConf); // Linux, system scope: the loader's configuration
            // Older versions named it after the folder alone: the receipt's own loader file, when
            // it is one of ours in that folder.
            for (const Receipt::File &file : receipt.files) {
                const QString name = paths.fileName(file.path);
                if (paths.equal(paths.parent(file.path), paths.parent(ldSoConf)) &&
                    name.startsWith(QLatin1String("cudnn-setup")) && name.endsWith(QLatin1String(".conf")))
                    roots.append(file.path);
            }
        }
    } else {
        // A repair names no target: the folders of the files it moved aside or placed.
        for (const Receipt::File &file : receipt.files)
            roots.append(paths.parent(file.path));
    }
    roots.removeDuplicates();
    return roots;
}

namespace {

// `hostPath` set aside and logged; the finding `id` with `message` (its %1: the file), the doubt as
// its details, and what became of the file as its fix.
Finding setAside(const QString &hostPath, const QString &doubt, const QString &id, const Text &message)
{
    const QString aside = StateTrust::setAsidePath(hostPath);
    // A folder, or a link itself (never what it points at), as well as a file.
    const bool renamed = QDir().rename(hostPath, aside);
    qCWarning(lcInstall).noquote() << id << hostPath << "not acted on:" << doubt
                                   << (renamed ? QStringLiteral("; set aside as ") + aside
                                               : QStringLiteral("; it cannot be set aside"));
    return Finding::warning(
        id, message.arg(QDir::toNativeSeparators(hostPath)), doubt,
        renamed ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "It was renamed to %1 and nothing it names was changed. Ask an "
                                         "administrator to look at it: someone may have put it there."))
                      .arg(QDir::toNativeSeparators(aside))
                : Text(QT_TRANSLATE_NOOP(
                      "cudnnsetup", "Ask an administrator to look at it and remove it; nothing it names was "
                                    "changed.")));
}

} // namespace

Finding StateTrust::setAsideJournal(const QString &hostPath, const QString &doubt)
{
    return setAside(hostPath, doubt, QStringLiteral("state.untrusted-journal"),
                    Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup", "An unfinished install journal was found that cuDNN Setup cannot have "
                                      "written, so it was not replayed: %1")));
}

Finding StateTrust::setAsideReceipt(const QString &hostPath, const QString &doubt)
{
    return setAside(
        hostPath, doubt, QStringLiteral("state.untrusted-receipt"),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup", "A receipt was found that cuDNN Setup cannot have written, so it is ignored: %1")));
}

Finding StateTrust::setAsideEntry(const QString &hostPath, const QString &doubt)
{
    return setAside(
        hostPath, doubt, QStringLiteral("state.untrusted-entry"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup's folder holds something that others than the "
                                             "administrators may have changed, so it is not used: %1")));
}

QString StateTrust::setAsidePath(const QString &hostPath)
{
    return hostPath + QStringLiteral(".untrusted-") +
           QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
}

bool StateTrust::isSetAside(const QString &name)
{
    static const QRegularExpression setAsideName(QStringLiteral("\\.untrusted-\\d{8}-\\d{6}-\\d{3}$"));
    return setAsideName.match(name).hasMatch();
}

} // namespace cudnnsetup
