#include "install/InstallTarget.h"

#include "install/TargetPaths.h"
#include "platform/Sha256.h"

#include <QJsonValue>
#include <QRegularExpression>

namespace cudnnsetup {

std::optional<EnvironmentScope> environmentScopeOf(PathScope scope)
{
    switch (scope) {
    case PathScope::None:
        return std::nullopt;
    case PathScope::User:
        return EnvironmentScope::User;
    case PathScope::System:
        return EnvironmentScope::System;
    }
    return std::nullopt;
}

QString pathScopeName(PathScope scope)
{
    switch (scope) {
    case PathScope::None:
        return QStringLiteral("none");
    case PathScope::User:
        return QStringLiteral("user");
    case PathScope::System:
        return QStringLiteral("system");
    }
    return {};
}

std::optional<PathScope> pathScopeFromName(const QString &name)
{
    for (const PathScope scope : {PathScope::None, PathScope::User, PathScope::System}) {
        if (name.compare(pathScopeName(scope), Qt::CaseInsensitive) == 0)
            return scope;
    }
    return std::nullopt;
}

QString InstallTarget::kindName() const
{
    switch (kind) {
    case Kind::CudaToolkit:
        return QStringLiteral("cuda");
    case Kind::Folder:
        return QStringLiteral("dir");
    case Kind::UserFolder:
        return QStringLiteral("user");
    case Kind::Conda:
        return QStringLiteral("conda");
    case Kind::Venv:
        return QStringLiteral("venv");
    case Kind::App:
        return QStringLiteral("app");
    }
    return {};
}

QString InstallTarget::spec() const
{
    switch (kind) {
    case Kind::CudaToolkit:
        return QStringLiteral("cuda:") + toolkitVersion.toString();
    case Kind::UserFolder: // its folder, so that a run under another account installs the same
    case Kind::Folder:
    case Kind::Conda:
    case Kind::Venv:
    case Kind::App:
        return kindName() + QLatin1Char(':') + root;
    }
    return {};
}

QString InstallTarget::pathOf(const QString &relativeFolder) const
{
    if (root.isEmpty())
        return {};
    return SystemPaths(family).join(root, relativeFolder);
}

QString InstallTarget::dllFolder() const
{
    return pathOf(binFolder);
}

QString InstallTarget::pthFile() const
{
    if (kind != Kind::Venv || root.isEmpty())
        return {};
    // site-packages is the folder above the venv folder, which is above bin.
    const SystemPaths paths(family);
    const QString sitePackages = paths.parent(paths.parent(dllFolder()));
    return paths.join(sitePackages, QString::fromLatin1(kVenvPthFile));
}

QString InstallTarget::ldSoConfFile() const
{
    if (family != OsFamily::Linux || pathScope != PathScope::System || root.isEmpty())
        return {};
    // One file per folder, named after it: /opt/cudnn-9.19/lib ->
    // cudnn-setup-opt-cudnn-9.19-lib-<12 hex digits>.conf. The readable part alone would give
    // /opt/a b/lib and /opt/a-b/lib one file, which the second install would take over.
    const QString folder = dllFolder();
    QString readable = folder;
    readable.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._]+")), QStringLiteral("-"));
    return QStringLiteral("/etc/ld.so.conf.d/cudnn-setup%1-%2.conf")
        .arg(readable.left(120), Sha256::of(folder.toUtf8()).left(12));
}

QByteArray InstallTarget::ldSoConfContent() const
{
    return QByteArray("# cuDNN Setup: ") + controlsEscaped(root).toUtf8() + '\n' + dllFolder().toUtf8() +
           '\n';
}

QString InstallTarget::stagingFolder() const
{
    return pathOf(QString::fromLatin1(kStagingFolder));
}

QString InstallTarget::backupFolder() const
{
    return stagingFolder() + QStringLiteral("-backup");
}

bool InstallTarget::needsAdmin(const SystemContext &context) const
{
    if (pathScope == PathScope::System)
        return true;
    const SystemPaths paths(family);
    const QStringList folders = {root, dllFolder(), pathOf(includeFolder), pathOf(libFolder)};
    if (family == OsFamily::Windows) {
        QStringList protectedFolders = {QStringLiteral("C:\\Program Files"),
                                        QStringLiteral("C:\\Program Files (x86)"),
                                        QStringLiteral("C:\\Windows")};
        for (const QString &name :
             {QStringLiteral("ProgramFiles"), QStringLiteral("ProgramW6432"),
              QStringLiteral("ProgramFiles(x86)"), QStringLiteral("SystemRoot"), QStringLiteral("windir")}) {
            const QString value = targetpaths::environmentPath(context, name);
            if (!value.isEmpty())
                protectedFolders.append(value);
        }
        for (const QString &folder : folders) {
            for (const QString &protectedFolder : std::as_const(protectedFolders)) {
                if (!folder.isEmpty() && paths.startsWith(folder, protectedFolder))
                    return true;
            }
        }
        return false;
    }
    const QString homeFolder = targetpaths::home(context);
    for (const QString &folder : folders) {
        if (folder.isEmpty())
            continue;
        if ((homeFolder.isEmpty() || !paths.startsWith(folder, homeFolder)) &&
            !paths.startsWith(folder, QStringLiteral("/tmp")))
            return true;
    }
    return false;
}

QString controlsEscaped(const QString &text)
{
    QString escaped;
    escaped.reserve(text.size());
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control)
            escaped += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            escaped += c;
    }
    return escaped;
}

QJsonObject InstallTarget::toJson() const
{
    const auto str = [](const QString &value) { return value.isEmpty() ? QJsonValue() : QJsonValue(value); };
    return QJsonObject{
        {QStringLiteral("kind"), kindName()},
        {QStringLiteral("family"),
         family == OsFamily::Linux ? QStringLiteral("linux") : QStringLiteral("windows")},
        {QStringLiteral("root"), root},
        {QStringLiteral("toolkitVersion"),
         toolkitVersion.isValid() ? QJsonValue(toolkitVersion.toString()) : QJsonValue()},
        {QStringLiteral("binFolder"), binFolder},
        {QStringLiteral("includeFolder"), includeFolder},
        {QStringLiteral("libFolder"), libFolder},
        {QStringLiteral("dllFolder"), str(dllFolder())},
        {QStringLiteral("pthFile"), str(pthFile())},
        {QStringLiteral("ldSoConfFile"), str(ldSoConfFile())},
        {QStringLiteral("pathScope"), pathScopeName(pathScope)},
    };
}

namespace {

Finding invalidTarget(const QString &why)
{
    return Finding::error(QStringLiteral("target.invalid"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The recorded install target is damaged.")),
                          why);
}

bool hasControlCharacter(const QString &text)
{
    return controlsEscaped(text) != text;
}

} // namespace

Expected<InstallTarget> InstallTarget::fromJson(const QJsonObject &object)
{
    InstallTarget target;
    const QString kindText = object.value(QStringLiteral("kind")).toString();
    bool knownKind = false;
    for (const Kind kind :
         {Kind::CudaToolkit, Kind::Folder, Kind::UserFolder, Kind::Conda, Kind::Venv, Kind::App}) {
        target.kind = kind;
        if (target.kindName() == kindText) {
            knownKind = true;
            break;
        }
    }
    if (!knownKind)
        return invalidTarget(QStringLiteral("unknown kind \"%1\"").arg(kindText));
    target.root = object.value(QStringLiteral("root")).toString();
    // Receipts written before the family was recorded: a Linux root starts with '/'.
    const QString family = object.value(QStringLiteral("family")).toString();
    if (family == QLatin1String("linux") || (family.isEmpty() && target.root.startsWith(QLatin1Char('/'))))
        target.family = OsFamily::Linux;
    else if (family.isEmpty() || family == QLatin1String("windows"))
        target.family = OsFamily::Windows;
    else
        return invalidTarget(QStringLiteral("unknown family \"%1\"").arg(family));
    const SystemPaths paths(target.family);
    if (target.root.isEmpty() || !paths.isAbsolute(target.root) || hasControlCharacter(target.root))
        return invalidTarget(
            QStringLiteral("root \"%1\" is not an absolute path").arg(controlsEscaped(target.root)));
    target.toolkitVersion = Version::parse(object.value(QStringLiteral("toolkitVersion")).toString());
    if (target.kind == Kind::CudaToolkit && !target.toolkitVersion.isValid())
        return invalidTarget(QStringLiteral("a toolkit without its version"));
    const bool app = target.kind == Kind::App;
    const auto folderOf = [&](const char *key, QString &folder) -> std::optional<Finding> {
        folder = object.value(QLatin1String(key)).toString();
        // An app folder's libraries go into root itself, and nowhere else.
        if (app)
            return folder.isEmpty()
                       ? std::nullopt
                       : std::optional(invalidTarget(QStringLiteral("%1 \"%2\" for an app folder")
                                                         .arg(QLatin1String(key), controlsEscaped(folder))));
        const QStringList parts =
            QString(folder).replace(QLatin1Char('\\'), QLatin1Char('/')).split(QLatin1Char('/'));
        if (folder.isEmpty() || paths.isAbsolute(folder) || folder.startsWith(QLatin1Char('/')) ||
            folder.startsWith(QLatin1Char('\\')) || parts.contains(QStringLiteral("..")) ||
            parts.contains(QString()) || hasControlCharacter(folder))
            return invalidTarget(QStringLiteral("%1 \"%2\" is not a folder below the root")
                                     .arg(QLatin1String(key), controlsEscaped(folder)));
        return std::nullopt;
    };
    for (const auto &[key, folder] :
         {std::pair{"binFolder", &target.binFolder}, std::pair{"includeFolder", &target.includeFolder},
          std::pair{"libFolder", &target.libFolder}}) {
        if (std::optional<Finding> wrong = folderOf(key, *folder))
            return *wrong;
    }
    const std::optional<PathScope> scope =
        pathScopeFromName(object.value(QStringLiteral("pathScope")).toString());
    if (!scope)
        return invalidTarget(QStringLiteral("unknown PATH scope"));
    if (app && *scope != PathScope::None)
        return invalidTarget(QStringLiteral("an app folder with a PATH scope"));
    target.pathScope = *scope;
    return target;
}

} // namespace cudnnsetup
