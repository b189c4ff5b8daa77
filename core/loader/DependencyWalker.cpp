#include "loader/DependencyWalker.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <QJsonArray>
#include <QProcessEnvironment>
#include <QSet>

#include "binary/ElfReader.h"
#include "binary/PeReader.h"
#include "common/Logging.h"
#include "loader/SearchOrder.h"
#include "platform/SystemContext.h"

namespace cudnnsetup {

namespace {

// Windows resolves these itself: API sets are names in the loader's schema, not files
// (windows-platform.md §2).
bool isApiSet(const QString &name)
{
    return name.startsWith(QLatin1String("api-ms-win-"), Qt::CaseInsensitive) ||
           name.startsWith(QLatin1String("ext-ms-"), Qt::CaseInsensitive);
}

// DLLs every Windows has in System32 and serves as KnownDLLs. A tree without System32 files (a
// sandbox, an image copied without them) still gets them at run time, so not finding them as
// files is no problem, and their own imports are Windows's business. Kept short on purpose:
// vcruntime140.dll and msvcp140.dll are redistributables that must be found as files.
bool isWindowsOwnDll(const QString &name)
{
    static const QStringList names{
        QStringLiteral("kernel32.dll"), QStringLiteral("kernelbase.dll"), QStringLiteral("ntdll.dll"),
        QStringLiteral("user32.dll"),   QStringLiteral("advapi32.dll"),   QStringLiteral("msvcrt.dll"),
        QStringLiteral("ucrtbase.dll"),
    };
    return names.contains(name, Qt::CaseInsensitive);
}

// The folders the loader adds on its own (System32 and the Windows folder; the ld.so.conf and
// default folders): librarySearchOrder() of the same system without PATH / LD_LIBRARY_PATH and
// registry, so that the caller's `searchPath` can take their place in the order.
QStringList loaderFolders(const SystemContext &context)
{
    const QString variable =
        context.family() == OsFamily::Windows ? QStringLiteral("PATH") : QStringLiteral("LD_LIBRARY_PATH");
    QProcessEnvironment environment = context.environment().processEnvironment();
    const QStringList names = environment.keys();
    for (const QString &name : names) {
        if (name.compare(variable, context.paths().caseSensitivity()) == 0)
            environment.remove(name);
    }
    const auto registry = Registry::unavailable();
    const SystemContext withoutPath(context.files(),
                                    EnvironmentStore(context.family(), environment, registry), registry,
                                    std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
    return librarySearchOrder(withoutPath);
}

// What the walk needs of one library file, PE or ELF alike.
struct LibraryFile
{
    QString path;   // inspected system's path
    QString soname; // ELF: the name other libraries need it by
    QString machine;
    int bits = 0;
    QStringList imports; // PE imports, ELF DT_NEEDED
    QStringList delayImports;
    QStringList rpath; // ELF, $ORIGIN expanded
    QStringList runpath;
};

// A library whose dependencies are still to be resolved.
struct Pending
{
    LibraryFile file;
    QString rootFolder; // the folder of the library the walk started from
    bool delayLoaded = false;
};

class Walker
{
public:
    Walker(const SystemContext &context, const QStringList &searchPath, LoadModel model,
           const QStringList &dllDirectories)
        : m_context(context)
        , m_paths(context.paths())
        , m_windows(context.family() == OsFamily::Windows)
        , m_searchPath(absoluteFolders(searchPath))
        , m_loaderFolders(loaderFolders(context))
        , m_model(model)
        , m_dllDirectories(absoluteFolders(dllDirectories))
    {
    }

    DependencyWalk run(const QStringList &libraries, const QStringList &openedAtRunTime)
    {
        // Every library's static closure first, then what hangs off delay imports, so that a
        // library reached both ways counts as loaded at start.
        for (const QString &library : libraries) {
            const bool first = m_walked.isEmpty();
            addRoot(m_paths.normalize(library));
            if (first && !m_immediate.isEmpty()) {
                for (const QString &name : openedAtRunTime)
                    m_delayImports.append({name, m_immediate.first()});
            }
            while (!m_immediate.isEmpty())
                walkImports(m_immediate.takeFirst());
        }
        for (const auto &[name, importer] : std::as_const(m_delayImports))
            resolve(name, importer, true);
        while (!m_deferred.isEmpty())
            walkImports(m_deferred.takeFirst());
        qCInfo(lcCore).noquote() << QStringLiteral("dependencies of %1: %2 resolved, %3 problems")
                                        .arg(libraries.join(QStringLiteral(", ")))
                                        .arg(m_walk.resolved.size())
                                        .arg(m_walk.problems.size());
        return m_walk;
    }

private:
    QString nameKey(const QString &name) const { return m_windows ? name.toLower() : name; }

    QStringList absoluteFolders(const QStringList &folders) const
    {
        QStringList result;
        for (const QString &folder : folders) {
            if (!m_paths.isAbsolute(folder))
                continue; // relative to a working folder a fresh process does not share
            const QString normalized = m_paths.normalize(folder);
            if (!std::any_of(result.cbegin(), result.cend(),
                             [&](const QString &seen) { return m_paths.equal(seen, normalized); }))
                result.append(normalized);
        }
        return result;
    }

    Expected<LibraryFile> read(const QString &path) const
    {
        LibraryFile file;
        file.path = path;
        const QString host = m_context.files().toHost(path);
        if (m_windows) {
            const Expected<PeInfo> pe = pe::readFile(host);
            if (!pe)
                return pe.error();
            file.machine = pe->machineName();
            file.bits = pe->bits();
            file.imports = pe->imports;
            file.delayImports = pe->delayImports;
            return file;
        }
        const Expected<ElfDynamic> elf = elf::readDynamicFile(host);
        if (!elf)
            return elf.error();
        file.machine = elf->header.machineName();
        file.bits = elf->header.bits;
        file.soname = elf->soname;
        file.imports = elf->needed;
        file.rpath = expandOrigin(elf->rpath, path);
        file.runpath = expandOrigin(elf->runpath, path);
        return file;
    }

    QStringList expandOrigin(const QStringList &entries, const QString &path) const
    {
        const QString origin = m_paths.parent(path);
        QStringList expanded;
        for (QString entry : entries) {
            entry.replace(QLatin1String("${ORIGIN}"), origin).replace(QLatin1String("$ORIGIN"), origin);
            expanded.append(entry);
        }
        return absoluteFolders(expanded);
    }

    // ELF checks the class and the machine before a file counts as found.
    bool fitsChain(const QString &path, QString &machine) const
    {
        const auto head = m_context.files().readHead(path, 64);
        const Expected<ElfInfo> header = head ? elf::readHeader(*head) : Expected<ElfInfo>(head.error());
        if (!header)
            return true; // not a library at all: the loader stops there, reading reports it
        machine = header->machineName();
        return !m_architecture ||
               (m_architecture->first == machine && m_architecture->second == header->bits);
    }

    // The folders looked in for a dependency of `importer`, in the loader's order.
    QStringList folders(const Pending &importer) const
    {
        QStringList order;
        if (m_windows) {
            if (m_model != LoadModel::Program)
                order.append(importer.rootFolder);
            order += m_loaderFolders;
            // Python 3.8+ looks in the folders os.add_dll_directory gave it, not along PATH.
            order += m_model == LoadModel::PythonDllDirectories ? m_dllDirectories : m_searchPath;
        } else {
            if (importer.file.runpath.isEmpty())
                order += importer.file.rpath; // DT_RPATH counts only without DT_RUNPATH
            order += m_searchPath;
            order += importer.file.runpath;
            order += m_loaderFolders;
        }
        return absoluteFolders(order);
    }

    void addRoot(const QString &path)
    {
        m_known.insert(nameKey(m_paths.fileName(path)));
        if (m_walked.contains(nameKey(path)))
            return;
        m_walked.insert(nameKey(path));
        DependencyProblem problem;
        problem.library = m_paths.fileName(path);
        problem.foundAt = path;
        const Expected<LibraryFile> file = read(path);
        if (!file) {
            problem.kind = DependencyProblem::Kind::Unreadable;
            report(problem, file.error().details);
            return;
        }
        markLoaded(*file);
        if (!m_architecture) {
            m_architecture = std::make_pair(file->machine, file->bits);
        } else if (!sameArchitecture(*file)) {
            problem.kind = DependencyProblem::Kind::WrongArchitecture;
            problem.machine = file->machine;
            report(problem, {});
            return;
        }
        m_immediate.append({*file, m_paths.parent(path), false});
    }

    // glibc also answers a later request for a library's soname with the library already loaded.
    void markLoaded(const LibraryFile &file)
    {
        if (!file.soname.isEmpty())
            m_known.insert(nameKey(file.soname));
    }

    bool sameArchitecture(const LibraryFile &file) const
    {
        return m_architecture->first == file.machine && m_architecture->second == file.bits;
    }

    void walkImports(const Pending &importer)
    {
        for (const QString &name : importer.file.imports)
            resolve(name, importer, false);
        for (const QString &name : importer.file.delayImports) {
            if (importer.delayLoaded)
                resolve(name, importer, true);
            else
                m_delayImports.append({name, importer});
        }
    }

    void resolve(const QString &name, const Pending &importer, bool delayImport)
    {
        // A name is resolved once per process: the loader reuses what it loaded first.
        if (m_known.contains(nameKey(name)))
            return;
        m_known.insert(nameKey(name));
        if (m_windows && isApiSet(name)) {
            m_walk.resolved.append({name, QString()});
            return;
        }
        DependencyProblem problem;
        problem.library = name;
        problem.neededBy = importer.file.path;
        problem.delayLoaded = importer.delayLoaded || delayImport;
        const bool pathGiven = !m_windows && name.contains(QLatin1Char('/'));
        problem.searched = pathGiven ? absoluteFolders({m_paths.parent(name)}) : folders(importer);
        QString skipped; // ELF: the first file of another class or machine, which the loader passes over
        QString skippedMachine;
        for (const QString &folder : std::as_const(problem.searched)) {
            const QString candidate = pathGiven ? name : m_paths.join(folder, name);
            if (!m_context.files().isFile(candidate))
                continue;
            if (m_windows && isWindowsOwnDll(name)) {
                m_walk.resolved.append({name, candidate});
                return;
            }
            QString machine;
            if (!m_windows && !fitsChain(candidate, machine)) {
                if (skipped.isEmpty()) {
                    skipped = candidate;
                    skippedMachine = machine;
                }
                continue;
            }
            problem.foundAt = candidate;
            const Expected<LibraryFile> file = read(candidate);
            if (!file) {
                problem.kind = DependencyProblem::Kind::Unreadable;
                report(problem, file.error().details);
                return;
            }
            if (!sameArchitecture(*file)) {
                problem.kind = DependencyProblem::Kind::WrongArchitecture;
                problem.machine = file->machine;
                report(problem, {});
                return;
            }
            m_walk.resolved.append({name, candidate});
            markLoaded(*file);
            if (!m_walked.contains(nameKey(candidate))) {
                m_walked.insert(nameKey(candidate));
                (problem.delayLoaded ? m_deferred : m_immediate)
                    .append({*file, importer.rootFolder, problem.delayLoaded});
            }
            return;
        }
        if (m_windows && isWindowsOwnDll(name)) {
            m_walk.resolved.append({name, QString()});
            return;
        }
        if (!skipped.isEmpty()) {
            problem.kind = DependencyProblem::Kind::WrongArchitecture;
            problem.foundAt = skipped;
            problem.machine = skippedMachine;
        }
        report(problem, {});
    }

    void report(const DependencyProblem &problem, const QString &details)
    {
        qCInfo(lcCore).noquote() << QStringLiteral("dependency %1 of %2: %3 %4 %5 (searched %6)")
                                        .arg(problem.library, problem.neededBy,
                                             DependencyProblem::kindName(problem.kind), problem.foundAt,
                                             details, problem.searched.join(QLatin1Char(';')));
        m_walk.problems.append(problem);
    }

    const SystemContext &m_context;
    const SystemPaths &m_paths;
    const bool m_windows;
    const QStringList m_searchPath;
    const QStringList m_loaderFolders;
    const LoadModel m_model;
    const QStringList m_dllDirectories;
    std::optional<std::pair<QString, int>> m_architecture; // machine and bits of the first library
    QSet<QString> m_known;                                 // names already resolved or reported
    QSet<QString> m_walked;                                // paths whose imports are walked or queued
    QList<Pending> m_immediate;
    QList<std::pair<QString, Pending>> m_delayImports; // of the static closure, resolved after it
    QList<Pending> m_deferred;                         // reached through a delay import
    DependencyWalk m_walk;
};

} // namespace

QString DependencyProblem::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Missing:
        return QStringLiteral("missing");
    case Kind::WrongArchitecture:
        return QStringLiteral("wrong-architecture");
    case Kind::Unreadable:
        return QStringLiteral("unreadable");
    }
    return QStringLiteral("missing");
}

QJsonObject DependencyProblem::toJson() const
{
    QJsonObject object{
        {QStringLiteral("kind"), kindName(kind)},
        {QStringLiteral("library"), library},
        {QStringLiteral("neededBy"), neededBy},
        {QStringLiteral("delayLoaded"), delayLoaded},
        {QStringLiteral("searched"), QJsonArray::fromStringList(searched)},
    };
    if (!foundAt.isEmpty())
        object.insert(QStringLiteral("foundAt"), foundAt);
    if (!machine.isEmpty())
        object.insert(QStringLiteral("machine"), machine);
    return object;
}

DependencyProblem DependencyProblem::fromJson(const QJsonObject &object)
{
    DependencyProblem problem;
    const QString kind = object.value(QStringLiteral("kind")).toString();
    for (Kind candidate : {Kind::Missing, Kind::WrongArchitecture, Kind::Unreadable}) {
        if (kindName(candidate) == kind)
            problem.kind = candidate;
    }
    problem.library = object.value(QStringLiteral("library")).toString();
    problem.neededBy = object.value(QStringLiteral("neededBy")).toString();
    problem.delayLoaded = object.value(QStringLiteral("delayLoaded")).toBool();
    problem.foundAt = object.value(QStringLiteral("foundAt")).toString();
    problem.machine = object.value(QStringLiteral("machine")).toString();
    for (const QJsonValue &folder : object.value(QStringLiteral("searched")).toArray())
        problem.searched.append(folder.toString());
    return problem;
}

DependencyWalk walkDependencies(const SystemContext &context, const QStringList &libraries,
                                const QStringList &searchPath, LoadModel model,
                                const QStringList &dllDirectories, const QStringList &openedAtRunTime)
{
    return Walker(context, searchPath, model, dllDirectories).run(libraries, openedAtRunTime);
}

} // namespace cudnnsetup
