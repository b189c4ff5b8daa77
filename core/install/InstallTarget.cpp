#include "install/InstallTarget.h"

#include "install/TargetPaths.h"
#include "platform/Sha256.h"

#include <QJsonValue>
#include <QRegularExpression>

namespace cudnnsetup {

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

} // namespace cudnnsetup
