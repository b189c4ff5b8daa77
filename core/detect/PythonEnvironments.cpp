#include "detect/PythonEnvironments.h"

#include "binary/PeReader.h"
#include "common/Logging.h"
#include "platform/SystemContext.h"

#include <QRegularExpression>

#include <algorithm>

namespace cudnnsetup {

namespace {

class Collector
{
public:
    Collector(const SystemContext &context)
        : m_context(context)
    {
    }

    // `reachedBy`: a shim or launcher path that stands for `interpreter`, listed among its names.
    void addInterpreter(const QString &interpreter, const QString &source, const QString &reachedBy = {})
    {
        const FileSystem &files = m_context.files();
        const SystemPaths &paths = m_context.paths();
        if (interpreter.isEmpty() || !files.isFile(interpreter))
            return;
        const bool windows = m_context.family() == OsFamily::Windows;
        // A Windows Store alias is a zero-byte reparse point that opens the Store when run.
        if (windows && files.size(interpreter) == 0)
            return;
        PythonEnvironment environment;
        environment.interpreter = paths.normalize(interpreter);
        environment.source = source;
        if (!reachedBy.isEmpty())
            environment.names.append(paths.normalize(reachedBy));
        const QString dir = paths.parent(environment.interpreter);
        // A venv: pyvenv.cfg one level above bin/ or Scripts\ (Windows venvs keep python.exe in Scripts).
        const QString venvRoot = paths.parent(dir);
        if (files.isFile(paths.join(venvRoot, QStringLiteral("pyvenv.cfg")))) {
            environment.prefix = venvRoot;
            if (source == QLatin1String("path"))
                environment.source = QStringLiteral("venv");
            readPyvenv(environment);
        } else if (windows) {
            environment.prefix = dir;
        } else {
            // bin/python3 -> the prefix is the folder above bin; follow links to find it.
            const QString canonical = files.canonical(environment.interpreter);
            environment.prefix =
                paths.parent(paths.parent(canonical.isEmpty() ? environment.interpreter : canonical));
        }
        add(environment);
    }

    void addConda(const QString &prefix)
    {
        const SystemPaths &paths = m_context.paths();
        const bool windows = m_context.family() == OsFamily::Windows;
        const QString interpreter =
            paths.join(prefix, windows ? QStringLiteral("python.exe") : QStringLiteral("bin/python"));
        if (!m_context.files().isFile(interpreter) &&
            !m_context.files().isDir(paths.join(prefix, QStringLiteral("conda-meta"))))
            return;
        PythonEnvironment environment;
        environment.interpreter = m_context.files().isFile(interpreter) ? interpreter : QString();
        environment.prefix = paths.normalize(prefix);
        environment.source = QStringLiteral("conda");
        environment.libraryDir =
            paths.join(prefix, windows ? QStringLiteral("Library\\bin") : QStringLiteral("lib"));
        add(environment);
    }

    QList<PythonEnvironment> take(const QStringList &homes)
    {
        for (PythonEnvironment &environment : m_environments)
            fillSitePackages(environment, homes);
        return m_environments;
    }

private:
    void add(const PythonEnvironment &environment)
    {
        const SystemPaths &paths = m_context.paths();
        const QString canonical = m_context.files().canonical(environment.interpreter);
        for (PythonEnvironment &known : m_environments) {
            if (!paths.equal(known.prefix, environment.prefix))
                continue;
            // Two different interpreters in one prefix (python3.11 and python3.12 in /usr/bin) are
            // two installations; links to one interpreter (python3 -> python3.11) are one.
            if (!known.interpreter.isEmpty() && !environment.interpreter.isEmpty() &&
                !paths.equal(m_context.files().canonical(known.interpreter), canonical))
                continue;
            // Same environment reached twice: keep the first interpreter, remember the other path,
            // learn the conda library folder.
            const QStringList reaching = QStringList(environment.names) << environment.interpreter;
            for (const QString &name : reaching) {
                if (!name.isEmpty() && !paths.equal(name, known.interpreter) &&
                    !known.names.contains(name, paths.caseSensitivity()))
                    known.names.append(name);
            }
            if (known.libraryDir.isEmpty())
                known.libraryDir = environment.libraryDir;
            if (known.interpreter.isEmpty())
                known.interpreter = environment.interpreter;
            if (environment.source == QLatin1String("conda"))
                known.source = environment.source;
            return;
        }
        m_environments.append(environment);
    }

    void readPyvenv(PythonEnvironment &environment) const
    {
        const auto config = m_context.files().read(
            m_context.paths().join(environment.prefix, QStringLiteral("pyvenv.cfg")), 64 * 1024);
        if (!config)
            return;
        const QString text = QString::fromUtf8(*config);
        static const QRegularExpression version(
            QStringLiteral("^\\s*(?:version|version_info)\\s*=\\s*(\\d+\\.\\d+(?:\\.\\d+)?)"),
            QRegularExpression::MultilineOption);
        if (const auto match = version.match(text); match.hasMatch())
            environment.versionHint = match.captured(1);
        static const QRegularExpression home(QStringLiteral("^\\s*home\\s*=\\s*(.+?)\\s*$"),
                                             QRegularExpression::MultilineOption);
        if (const auto match = home.match(text);
            match.hasMatch() && m_context.paths().isAbsolute(match.captured(1)))
            environment.home = m_context.paths().normalize(match.captured(1));
    }

    void fillSitePackages(PythonEnvironment &environment, const QStringList &homes) const
    {
        const FileSystem &files = m_context.files();
        const SystemPaths &paths = m_context.paths();
        QStringList candidates = userSitePackages(environment, homes);
        if (m_context.family() == OsFamily::Windows) {
            candidates.append(paths.join(environment.prefix, QStringLiteral("Lib\\site-packages")));
        } else {
            for (const QString &lib : {QStringLiteral("lib"), QStringLiteral("local/lib")}) {
                const QString libDir = paths.join(environment.prefix, lib);
                for (const QString &python :
                     files.entries(libDir, {QStringLiteral("python3*")}, FileSystem::Dirs)) {
                    for (const QString &kind :
                         {QStringLiteral("site-packages"), QStringLiteral("dist-packages")})
                        candidates.append(paths.join(libDir, python + QLatin1Char('/') + kind));
                }
            }
        }
        for (const QString &candidate : std::as_const(candidates)) {
            if (files.isDir(candidate))
                environment.sitePackages.append(candidate);
        }
    }

    // pip install --user's folders for this interpreter's X.Y, searched before the installation's
    // own site-packages; venvs do not see them.
    QStringList userSitePackages(PythonEnvironment &environment, const QStringList &homes) const
    {
        const FileSystem &files = m_context.files();
        const SystemPaths &paths = m_context.paths();
        if (environment.interpreter.isEmpty() || environment.source == QLatin1String("venv") ||
            files.isFile(paths.join(environment.prefix, QStringLiteral("pyvenv.cfg"))))
            return {};
        static const QRegularExpression inName(QStringLiteral("python(\\d+)\\.(\\d+)"));
        QStringList candidates;
        if (m_context.family() == OsFamily::Windows) {
            // %APPDATA%\Python\Python312\site-packages (Python312-32 for a 32-bit Python).
            const auto pe = pe::readFile(files.toHost(environment.interpreter));
            if (!pe || !pe->fileVersion.isValid() || pe->fileVersion.major() < 3)
                return {};
            const QString folder = QStringLiteral("Python%1%2%3")
                                       .arg(pe->fileVersion.part(0))
                                       .arg(pe->fileVersion.part(1))
                                       .arg(pe->bits() == 32 ? QStringLiteral("-32") : QString());
            for (const QString &home : homes)
                candidates.append(paths.join(home, QStringLiteral("AppData\\Roaming\\Python\\") + folder +
                                                       QStringLiteral("\\site-packages")));
            return candidates;
        }
        auto match = inName.match(paths.fileName(environment.interpreter));
        if (!match.hasMatch())
            match = inName.match(paths.fileName(files.canonical(environment.interpreter)));
        if (!match.hasMatch())
            return {};
        if (environment.versionHint.isEmpty())
            environment.versionHint = match.captured(1) + QLatin1Char('.') + match.captured(2);
        for (const QString &home : homes)
            candidates.append(paths.join(home, QStringLiteral(".local/lib/python%1.%2/site-packages")
                                                   .arg(match.captured(1), match.captured(2))));
        return candidates;
    }

    const SystemContext &m_context;
    QList<PythonEnvironment> m_environments;
};

// The version names a pyenv version file lists (one per line or word, # comments), or none.
QStringList pyenvVersionFile(const SystemContext &context, const QString &path)
{
    QStringList names;
    if (const auto file = context.files().read(path, 64 * 1024)) {
        for (const QString &line : QString::fromUtf8(*file).split(QLatin1Char('\n'))) {
            if (!line.trimmed().startsWith(QLatin1Char('#')))
                names += line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        }
    }
    return names;
}

// The versions pyenv selects, in order: PYENV_VERSION, else the .python-version of the folder it
// is asked from (PYENV_DIR, else the shell's PWD) or the nearest folder above, else the global
// version file, else "system".
QStringList pyenvSelection(const SystemContext &context, const QString &root)
{
    const EnvironmentStore &environment = context.environment();
    const SystemPaths &paths = context.paths();
    QStringList selected = environment.value(QStringLiteral("PYENV_VERSION"))
                               .split(QRegularExpression(QStringLiteral("[:\\s]+")), Qt::SkipEmptyParts);
    QString folder = environment.value(QStringLiteral("PYENV_DIR"));
    if (folder.isEmpty())
        folder = environment.value(QStringLiteral("PWD"));
    while (selected.isEmpty() && paths.isAbsolute(folder)) {
        selected = pyenvVersionFile(context, paths.join(folder, QStringLiteral(".python-version")));
        const QString above = paths.parent(folder);
        if (above == folder || above.isEmpty())
            break;
        folder = above;
    }
    if (selected.isEmpty())
        selected = pyenvVersionFile(context, paths.join(root, QStringLiteral("version")));
    if (selected.isEmpty())
        selected.append(QStringLiteral("system"));
    return selected;
}

// pyenv (`<root>/shims`) and pyenv-win (`<root>\shims`, root being ...\.pyenv\pyenv-win): each
// Python shim stands for the first selected version that has the command; "system" means what PATH
// finds past the shims, which the PATH walk meets on its own.
bool addPyenvShims(const SystemContext &context, const QString &shims, Collector &collector)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    const QString root = paths.parent(shims);
    if (paths.fileName(shims) != QLatin1String("shims") ||
        !files.isDir(paths.join(root, QStringLiteral("versions"))))
        return false;
    const bool windows = context.family() == OsFamily::Windows;
    static const QRegularExpression linuxName(QStringLiteral("^python(3(\\.\\d+)?)?$"));
    static const QRegularExpression windowsName(QStringLiteral("^python3?(\\.bat)?$"),
                                                QRegularExpression::CaseInsensitiveOption);
    const QStringList selected = pyenvSelection(context, root);
    for (const QString &shim : files.entries(shims, {QStringLiteral("python*")}, FileSystem::Files)) {
        if (!(windows ? windowsName : linuxName).match(shim).hasMatch())
            continue;
        for (const QString &version : selected) {
            if (version == QLatin1String("system"))
                break;
            const QString bin = paths.join(root, QStringLiteral("versions/") + version);
            const QString interpreter = windows ? paths.join(bin, QStringLiteral("python.exe"))
                                                : paths.join(bin, QStringLiteral("bin/") + shim);
            if (files.isFile(interpreter)) {
                collector.addInterpreter(interpreter, QStringLiteral("pyenv"), paths.join(shims, shim));
                break;
            }
        }
    }
    return true;
}

QStringList condaRoots(const SystemContext &context, const QStringList &homes)
{
    const SystemPaths &paths = context.paths();
    const QStringList names = {QStringLiteral("miniconda3"), QStringLiteral("anaconda3"),
                               QStringLiteral("miniforge3"), QStringLiteral("mambaforge"),
                               QStringLiteral("Miniconda3"), QStringLiteral("Anaconda3")};
    QStringList roots;
    for (const QString &home : homes) {
        for (const QString &name : names)
            roots.append(paths.join(home, name));
    }
    if (context.family() == OsFamily::Windows) {
        for (const QString &name : names)
            roots.append(paths.join(QStringLiteral("C:\\ProgramData"), name));
    } else {
        roots.append(QStringLiteral("/opt/conda"));
        for (const QString &name : names)
            roots.append(QStringLiteral("/opt/") + name);
    }
    // CONDA_EXE is <root>/bin/conda or <root>\Scripts\conda.exe.
    const QString condaExe = context.environment().value(QStringLiteral("CONDA_EXE"));
    if (!condaExe.isEmpty())
        roots.prepend(paths.parent(paths.parent(condaExe)));
    return roots;
}

void addPep514(const SystemContext &context, Collector &collector)
{
    const Registry &registry = context.registry();
    const QString root = QStringLiteral("SOFTWARE\\Python");
    for (RegistryHive hive : {RegistryHive::CurrentUser, RegistryHive::LocalMachine}) {
        for (RegistryView view : {RegistryView::Native, RegistryView::Wow32}) {
            if (hive == RegistryHive::CurrentUser && view == RegistryView::Wow32)
                continue; // HKCU has one view
            for (const QString &company : registry.subKeys(hive, root, view)) {
                if (company.compare(QLatin1String("PyLauncher"), Qt::CaseInsensitive) == 0)
                    continue;
                const QString companyKey = root + QLatin1Char('\\') + company;
                for (const QString &tag : registry.subKeys(hive, companyKey, view)) {
                    const QString installKey =
                        companyKey + QLatin1Char('\\') + tag + QStringLiteral("\\InstallPath");
                    QString interpreter;
                    if (const auto executable =
                            registry.value(hive, installKey, QStringLiteral("ExecutablePath"), view))
                        interpreter = executable->text;
                    // A Store Python's ExecutablePath is its zero-byte alias; its folder holds the program.
                    if (interpreter.isEmpty() || context.files().size(interpreter) == 0) {
                        if (const auto folder = registry.value(hive, installKey, QString(), view))
                            interpreter = context.paths().join(folder->text, QStringLiteral("python.exe"));
                    }
                    collector.addInterpreter(interpreter, QStringLiteral("registry"));
                }
            }
        }
    }
}

} // namespace

QStringList homeFolders(const SystemContext &context)
{
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    QStringList homes;
    if (context.isLive()) {
        const QString home = context.environment().value(
            context.family() == OsFamily::Windows ? QStringLiteral("USERPROFILE") : QStringLiteral("HOME"));
        if (!home.isEmpty())
            homes.append(paths.normalize(home));
        return homes;
    }
    if (context.family() == OsFamily::Windows) {
        const QString users = QStringLiteral("C:\\Users");
        for (const QString &name : files.entries(users, {}, FileSystem::Dirs)) {
            if (name.compare(QLatin1String("Public"), Qt::CaseInsensitive) != 0 &&
                !name.startsWith(QLatin1String("Default"), Qt::CaseInsensitive) &&
                name.compare(QLatin1String("All Users"), Qt::CaseInsensitive) != 0)
                homes.append(paths.join(users, name));
        }
        return homes;
    }
    homes.append(QStringLiteral("/root"));
    for (const QString &name : files.entries(QStringLiteral("/home"), {}, FileSystem::Dirs))
        homes.append(QStringLiteral("/home/") + name);
    return homes;
}

QList<PythonEnvironment> findPythonEnvironments(const SystemContext &context)
{
    Collector collector(context);
    const FileSystem &files = context.files();
    const SystemPaths &paths = context.paths();
    const bool windows = context.family() == OsFamily::Windows;

    const QString virtualEnv = context.environment().value(QStringLiteral("VIRTUAL_ENV"));
    if (!virtualEnv.isEmpty()) {
        collector.addInterpreter(paths.join(virtualEnv, windows ? QStringLiteral("Scripts\\python.exe")
                                                                : QStringLiteral("bin/python")),
                                 QStringLiteral("venv"));
    }
    const QString condaPrefix = context.environment().value(QStringLiteral("CONDA_PREFIX"));
    if (!condaPrefix.isEmpty())
        collector.addConda(condaPrefix);

    static const QRegularExpression linuxName(QStringLiteral("^python(3(\\.\\d+)?)?$"));
    for (const QString &dir : context.environment().processPath()) {
        if (!paths.isAbsolute(dir) || addPyenvShims(context, dir, collector))
            continue;
        if (windows) {
            for (const QString &name : {QStringLiteral("python.exe"), QStringLiteral("python3.exe")})
                collector.addInterpreter(paths.join(dir, name), QStringLiteral("path"));
            continue;
        }
        for (const QString &name : files.entries(dir, {QStringLiteral("python*")}, FileSystem::Files)) {
            if (linuxName.match(name).hasMatch() && files.isExecutable(paths.join(dir, name)))
                collector.addInterpreter(paths.join(dir, name), QStringLiteral("path"));
        }
    }
    if (windows)
        addPep514(context, collector);

    const QStringList homes = homeFolders(context);
    QStringList condaEnvs;
    for (const QString &home : homes) {
        const auto list =
            files.read(paths.join(home, QStringLiteral(".conda/environments.txt")), 1024 * 1024);
        if (!list)
            continue;
        const QStringList lines = QString::fromUtf8(*list).split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            if (paths.isAbsolute(line.trimmed()))
                condaEnvs.append(line.trimmed());
        }
    }
    for (const QString &root : condaRoots(context, homes)) {
        if (!files.isDir(paths.join(root, QStringLiteral("conda-meta"))))
            continue;
        condaEnvs.append(root);
        const QString envs = paths.join(root, QStringLiteral("envs"));
        for (const QString &name : files.entries(envs, {}, FileSystem::Dirs))
            condaEnvs.append(paths.join(envs, name));
    }
    for (const QString &env : std::as_const(condaEnvs))
        collector.addConda(env);

    QList<PythonEnvironment> environments = collector.take(homes);
    qCDebug(lcDetect) << "python environments:" << environments.size();
    return environments;
}

} // namespace cudnnsetup
