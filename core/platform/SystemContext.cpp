#include "platform/SystemContext.h"

#include <QTemporaryDir>

namespace cudnnsetup {

SystemContext::SystemContext(FileSystem files, EnvironmentStore environment,
                             std::shared_ptr<Registry> registry, std::shared_ptr<ProcessRunner> processes,
                             std::shared_ptr<LibraryLoader> libraries, std::shared_ptr<FileSecurity> security)
    : m_files(std::move(files))
    , m_environment(std::move(environment))
    , m_registry(std::move(registry))
    , m_processes(std::move(processes))
    , m_libraries(std::move(libraries))
    , m_security(std::move(security))
{
}

SystemContext SystemContext::running()
{
    auto registry = Registry::forRunningSystem();
    const OsFamily family = hostOsFamily();
    return SystemContext(FileSystem(family, {}),
                         EnvironmentStore(family, QProcessEnvironment::systemEnvironment(), registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>(),
                         FileSecurity::forRunningSystem());
}

SystemContext SystemContext::rooted(const QString &root)
{
    if (root.isEmpty())
        return running();
    auto registry = Registry::unavailable();
    const OsFamily family = FileSystem::detectFamily(root);
    return SystemContext(FileSystem(family, root),
                         EnvironmentStore(family, QProcessEnvironment::systemEnvironment(), registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

SystemContext SystemContext::withFileSecurity(std::shared_ptr<FileSecurity> security) const
{
    SystemContext copy = *this;
    copy.m_security = std::move(security);
    return copy;
}

QString SystemContext::findExecutable(const QString &name, const QStringList &preferredDirs) const
{
    const QString fileName = paths().isWindows() && !name.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive)
                                 ? name + QStringLiteral(".exe")
                                 : name;
    QStringList dirs = preferredDirs;
    dirs += m_environment.processPath();
    for (const QString &dir : std::as_const(dirs)) {
        if (!paths().isAbsolute(dir))
            continue;
        const QString candidate = paths().join(dir, fileName);
        if (m_files.isExecutable(candidate))
            return candidate;
    }
    return {};
}

ProcessResult SystemContext::run(const QString &program, const QStringList &arguments, int timeoutMs,
                                 const std::atomic<bool> *cancel) const
{
    const QString host = m_files.toHost(program);
    if (host.isEmpty()) {
        ProcessResult result;
        result.errorString = QStringLiteral("%1 is not reachable from this system").arg(program);
        return result;
    }
    // An empty folder of its own, not the caller's: Windows looks for DLLs in the current folder
    // before PATH, and Python puts it first on sys.path, so a folder of planted files is never where
    // a tool starts.
    const QTemporaryDir neutral;
    return m_processes->run(host, arguments, timeoutMs, std::nullopt, cancel,
                            neutral.isValid() ? neutral.path() : QString());
}

} // namespace cudnnsetup
