#include "install/TargetPaths.h"

namespace cudnnsetup::targetpaths {

QString sep(OsFamily family)
{
    return family == OsFamily::Windows ? QStringLiteral("\\") : QStringLiteral("/");
}

QString foldedKey(const SystemPaths &paths, const QString &path)
{
    const QString normalized = paths.normalize(path);
    return paths.isWindows() ? normalized.toLower() : normalized;
}

QString relativeTo(const SystemPaths &paths, const QString &base, const QString &path)
{
    const QString b = paths.normalize(base);
    const QString p = paths.normalize(path);
    if (!paths.startsWith(p, b) || paths.equal(p, b))
        return {};
    const qsizetype skip = b.endsWith(sep(paths.family())) ? b.size() : b.size() + 1;
    return p.mid(skip);
}

QString environmentPath(const SystemContext &context, const QString &name)
{
    const QString value = context.environment().value(name).trimmed();
    return value.isEmpty() || !context.paths().isAbsolute(value) ? QString()
                                                                 : context.paths().normalize(value);
}

QString home(const SystemContext &context)
{
    return environmentPath(context, QStringLiteral("HOME"));
}

bool isVenv(const QString &root, const FileSystem &files)
{
    const SystemPaths &paths = files.paths();
    const QString python =
        paths.isWindows() ? QStringLiteral("Scripts\\python.exe") : QStringLiteral("bin/python");
    return files.isFile(paths.join(root, QStringLiteral("pyvenv.cfg"))) &&
           files.isFile(paths.join(root, python));
}

bool isCondaEnv(const QString &root, const FileSystem &files)
{
    return files.isDir(files.paths().join(root, QStringLiteral("conda-meta")));
}

Text notAVenvMessage(const QString &root)
{
    return Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                  "%1 is not a Python virtual environment: it has no pyvenv.cfg or no %2."))
        .arg(root, QStringLiteral("Scripts\\python.exe"));
}

Text notAVenvFix()
{
    return Text(QT_TRANSLATE_NOOP(
        "cudnnsetup",
        "Give the folder that holds pyvenv.cfg, or create the environment with python -m venv."));
}

Text notCondaMessage(const QString &root)
{
    return Text(
               QT_TRANSLATE_NOOP("cudnnsetup", "%1 is not a conda environment: it has no conda-meta folder."))
        .arg(root);
}

Text condaFix()
{
    return Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                  "Give the environment's name or folder as \"conda env list\" shows it."));
}

} // namespace cudnnsetup::targetpaths
