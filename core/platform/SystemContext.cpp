#include "platform/SystemContext.h"

#include <QTemporaryDir>

namespace cudnnsetup {

namespace {

// The running system's one `Host::host()`, shared without owning it (it lives as long as the program).
template <typename Host>
std::shared_ptr<const Host> runningSystems()
{
    return std::shared_ptr<const Host>(&Host::host(), [](const Host *) {});
}

// The registry with its two environment keys read through a PersistentEnvironment.
class StoredEnvironmentRegistry final : public Registry
{
public:
    StoredEnvironmentRegistry(std::shared_ptr<Registry> registry,
                              std::shared_ptr<PersistentEnvironment> stored)
        : m_registry(std::move(registry))
        , m_stored(std::move(stored))
    {
    }

    bool isAvailable() const override { return m_stored->isAvailable() || m_registry->isAvailable(); }
    std::optional<RegistryValue> value(RegistryHive hive, const QString &key, const QString &name,
                                       RegistryView view) const override
    {
        const std::optional<EnvironmentScope> scope = environmentScope(hive, key);
        if (!scope || view != RegistryView::Native || !m_stored->isAvailable())
            return m_registry->value(hive, key, name, view);
        const auto stored = m_stored->read(*scope, name);
        if (!stored || !*stored)
            return std::nullopt; // absent, or not text: nothing a new program gets
        RegistryValue value;
        value.type = (*stored)->expandable ? RegistryValue::ExpandString : RegistryValue::String;
        value.text = (*stored)->text;
        return value;
    }
    QStringList valueNames(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        return m_registry->valueNames(hive, key, view);
    }
    QStringList subKeys(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        return m_registry->subKeys(hive, key, view);
    }

private:
    static std::optional<EnvironmentScope> environmentScope(RegistryHive hive, const QString &key)
    {
        for (const EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::System}) {
            const RegistryHive its =
                scope == EnvironmentScope::User ? RegistryHive::CurrentUser : RegistryHive::LocalMachine;
            if (hive == its && key.compare(EnvironmentStore::registryKey(scope), Qt::CaseInsensitive) == 0)
                return scope;
        }
        return std::nullopt;
    }

    std::shared_ptr<Registry> m_registry;
    std::shared_ptr<PersistentEnvironment> m_stored;
};

} // namespace

SystemContext::SystemContext(FileSystem files, EnvironmentStore environment,
                             std::shared_ptr<Registry> registry, std::shared_ptr<ProcessRunner> processes,
                             std::shared_ptr<LibraryLoader> libraries, std::shared_ptr<FileSecurity> security)
    : m_files(std::move(files))
    , m_environment(std::move(environment))
    , m_registry(std::move(registry))
    , m_processes(std::move(processes))
    , m_libraries(std::move(libraries))
    , m_security(std::move(security))
    , m_elevation(runningSystems<Elevation>())
    , m_volumes(runningSystems<Volumes>())
    , m_filesInUse(runningSystems<FilesInUse>())
{
}

SystemContext SystemContext::running()
{
    auto registry = Registry::forRunningSystem();
    const OsFamily family = hostOsFamily();
    const Elevation &elevation = Elevation::host();
    return SystemContext(FileSystem(family, {}),
                         EnvironmentStore(family, QProcessEnvironment::systemEnvironment(), registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>(),
                         FileSecurity::forRunningSystem())
        .withToolsFromPath(!elevation.isElevated() && !elevation.isLocalSystem());
}

SystemContext SystemContext::rooted(const QString &root)
{
    if (root.isEmpty())
        return running();
    auto registry = Registry::unavailable();
    const OsFamily family = FileSystem::detectFamily(root);
    return SystemContext(FileSystem(family, root),
                         EnvironmentStore(family, QProcessEnvironment::systemEnvironment(), registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>())
        .withRunningPrograms(RunningPrograms::none());
}

SystemContext SystemContext::withFileSecurity(std::shared_ptr<FileSecurity> security) const
{
    SystemContext copy = *this;
    copy.m_security = std::move(security);
    return copy;
}

SystemContext SystemContext::withPosixOwnership(std::shared_ptr<PosixOwnership> ownership) const
{
    SystemContext copy = *this;
    copy.m_ownership = std::move(ownership);
    return copy;
}

SystemContext SystemContext::withElevation(std::shared_ptr<const Elevation> elevation) const
{
    SystemContext copy = *this;
    copy.m_elevation = std::move(elevation);
    return copy;
}

SystemContext SystemContext::withVolumes(std::shared_ptr<const Volumes> volumes) const
{
    SystemContext copy = *this;
    copy.m_volumes = std::move(volumes);
    return copy;
}

SystemContext SystemContext::withFilesInUse(std::shared_ptr<const FilesInUse> filesInUse) const
{
    SystemContext copy = *this;
    copy.m_filesInUse = std::move(filesInUse);
    return copy;
}

SystemContext SystemContext::withRunningPrograms(std::shared_ptr<const RunningPrograms> runningPrograms) const
{
    SystemContext copy = *this;
    copy.m_runningPrograms = std::move(runningPrograms);
    return copy;
}

SystemContext SystemContext::withStoredEnvironment(std::shared_ptr<PersistentEnvironment> stored) const
{
    SystemContext copy = *this;
    const auto registry = std::make_shared<StoredEnvironmentRegistry>(m_registry, std::move(stored));
    copy.m_environment = EnvironmentStore(family(), m_environment.processEnvironment(), registry);
    return copy;
}

QString SystemContext::findExecutable(const QString &name, const QStringList &preferredDirs) const
{
    return firstExecutable(name, preferredDirs + m_environment.processPath());
}

QString SystemContext::toolToRun(const QString &name, const QStringList &fixedDirs) const
{
    return m_toolsFromPath ? findExecutable(name, fixedDirs) : firstExecutable(name, fixedDirs);
}

QString SystemContext::firstExecutable(const QString &name, const QStringList &dirs) const
{
    const QString fileName = paths().isWindows() && !name.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive)
                                 ? name + QStringLiteral(".exe")
                                 : name;
    for (const QString &dir : dirs) {
        if (!paths().isAbsolute(dir))
            continue;
        const QString candidate = paths().join(dir, fileName);
        if (m_files.isExecutable(candidate))
            return candidate;
    }
    return {};
}

SystemContext SystemContext::withToolsFromPath(bool fromPath) const
{
    SystemContext copy = *this;
    copy.m_toolsFromPath = fromPath;
    return copy;
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
