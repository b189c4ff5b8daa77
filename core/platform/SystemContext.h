#pragma once

#include "platform/Elevation.h"
#include "platform/EnvironmentStore.h"
#include "platform/FileSecurity.h"
#include "platform/FileSystem.h"
#include "platform/FilesInUse.h"
#include "platform/LibraryLoader.h"
#include "platform/PersistentEnvironment.h"
#include "platform/PosixOwnership.h"
#include "platform/ProcessRunner.h"
#include "platform/Registry.h"
#include "platform/RunningPrograms.h"
#include "platform/Volumes.h"

#include <memory>

namespace cudnnsetup {

// Everything a probe may touch of the inspected system, in one place: its files, its environment,
// its registry, the programs it can run and the libraries it can load, the rights of the process
// that acts on it, its volumes, the programs that hold its files and those running on it. Probes
// and changes never reach the OS any other way, so tests and --system-root can point them at
// another tree and tell them another machine's answers.
class SystemContext
{
public:
    // The running system.
    static SystemContext running();
    // The system whose files are under `root` (a sandbox, a mounted offline image). The process
    // environment describes it; the registry and the live driver belong to the running system and
    // are reported as unknown.
    static SystemContext rooted(const QString &root);

    SystemContext(FileSystem files, EnvironmentStore environment, std::shared_ptr<Registry> registry,
                  std::shared_ptr<ProcessRunner> processes, std::shared_ptr<LibraryLoader> libraries,
                  std::shared_ptr<FileSecurity> security = FileSecurity::none());

    const FileSystem &files() const { return m_files; }
    const SystemPaths &paths() const { return m_files.paths(); }
    const EnvironmentStore &environment() const { return m_environment; }
    const Registry &registry() const { return *m_registry; }
    const ProcessRunner &processes() const { return *m_processes; }
    const LibraryLoader &libraries() const { return *m_libraries; }
    // Who may change its files: the running Windows system's ACLs; none known for a rooted tree.
    const FileSecurity &fileSecurity() const { return *m_security; }
    // The same system with its file security told by `security` (tests: descriptors as data).
    SystemContext withFileSecurity(std::shared_ptr<FileSecurity> security) const;
    // Who owns its files where it keeps POSIX owners (Linux), and whether this process is root:
    // lstat(2) and geteuid(), for a tree under --system-root too (its files are real files).
    const PosixOwnership &posixOwnership() const { return *m_ownership; }
    // The same system with its owners and modes told by `ownership` (tests: owners as data).
    SystemContext withPosixOwnership(std::shared_ptr<PosixOwnership> ownership) const;
    // The rights of the process that acts on it: this process's, for a rooted tree too.
    const Elevation &elevation() const { return *m_elevation; }
    SystemContext withElevation(std::shared_ptr<const Elevation> elevation) const;
    // Free space, volumes and write tests of its (host) paths: the host's, for a rooted tree too.
    const Volumes &volumes() const { return *m_volumes; }
    SystemContext withVolumes(std::shared_ptr<const Volumes> volumes) const;
    // Which programs hold its files: the host's, for a rooted tree too (its files are real files).
    const FilesInUse &filesInUse() const { return *m_filesInUse; }
    SystemContext withFilesInUse(std::shared_ptr<const FilesInUse> filesInUse) const;
    // The programs running on it: none for a rooted tree, which runs none of the host's programs.
    const RunningPrograms &runningPrograms() const { return *m_runningPrograms; }
    SystemContext withRunningPrograms(std::shared_ptr<const RunningPrograms> runningPrograms) const;
    // The same system, the stored environment values its environment reads (what a new program
    // gets) taken from `stored`, which install operations write: detection after a change then sees
    // it even where the registry is not the one written (a sandbox, --system-root, tests).
    SystemContext withStoredEnvironment(std::shared_ptr<PersistentEnvironment> stored) const;
    OsFamily family() const { return m_files.family(); }

    // True when this is the running system, so its driver can be asked directly (NVML, the CUDA
    // driver API) and its registry read.
    bool isLive() const { return !m_files.isRooted(); }

    // The inspected system's path of an executable: `preferredDirs` first, then PATH (entries are
    // the inspected system's paths). Adds ".exe" on Windows. Empty if not found.
    QString findExecutable(const QString &name, const QStringList &preferredDirs = {}) const;
    // The executable `name` this process is to run: from `fixedDirs`, and from PATH only where the
    // process may trust PATH. An elevated or SYSTEM process on the running system never runs a
    // program found through PATH: anyone who can write one PATH folder would choose what it runs.
    QString toolToRun(const QString &name, const QStringList &fixedDirs) const;
    // The same system, its tools taken from PATH too (`fromPath`) or from their fixed folders only.
    SystemContext withToolsFromPath(bool fromPath) const;
    // Runs an executable given by its inspected-system path, in an empty folder of its own (never the
    // caller's current one); `cancel` stops it early.
    ProcessResult run(const QString &program, const QStringList &arguments, int timeoutMs,
                      const std::atomic<bool> *cancel = nullptr) const;

private:
    QString firstExecutable(const QString &name, const QStringList &dirs) const;

    FileSystem m_files;
    EnvironmentStore m_environment;
    std::shared_ptr<Registry> m_registry;
    std::shared_ptr<ProcessRunner> m_processes;
    std::shared_ptr<LibraryLoader> m_libraries;
    std::shared_ptr<FileSecurity> m_security;
    bool m_toolsFromPath = true;
    std::shared_ptr<PosixOwnership> m_ownership = PosixOwnership::forRunningSystem();
    std::shared_ptr<const Elevation> m_elevation;
    std::shared_ptr<const Volumes> m_volumes;
    std::shared_ptr<const FilesInUse> m_filesInUse;
    std::shared_ptr<const RunningPrograms> m_runningPrograms = RunningPrograms::forRunningSystem();
};

} // namespace cudnnsetup
