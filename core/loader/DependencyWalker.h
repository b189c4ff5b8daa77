#pragma once

#include "loader/LoadModel.h"
#include "platform/SystemPaths.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

class SystemContext;

// One dependency that would stop a library from loading.
struct DependencyProblem
{
    enum class Kind
    {
        Missing,           // found nowhere the loader looks (Windows 126)
        WrongArchitecture, // found, but an x86 / ARM64 file in an x64 chain (Windows 193)
        Unreadable,        // found, but not a library this loader can read (damaged, not PE / ELF)
    };
    Kind kind = Kind::Missing;
    QString library;          // the dependency's name as imported: "zlibwapi.dll", "cublasLt64_12.dll"
    QString neededBy;         // the file that imports it (inspected system's path)
    bool delayLoaded = false; // a delay import: missing only fails when first used
    QString foundAt;          // WrongArchitecture / Unreadable: the file the loader would take
    QString machine;          // WrongArchitecture: "x86", "arm64"
    QStringList searched;     // the folders looked in, in the loader's order

    static QString kindName(Kind kind); // "missing", "wrong-architecture", "unreadable"
    QJsonObject toJson() const;
    static DependencyProblem fromJson(const QJsonObject &object);
};

struct DependencyWalk
{
    // Every dependency reached and the file it resolves to (inspected system's path), by the name
    // the importer used; system libraries the OS provides itself (API sets, KnownDLLs that are
    // not files here) map to an empty path.
    QList<std::pair<QString, QString>> resolved;
    QList<DependencyProblem> problems;
};

// Walks the imports and delay imports (PE) or DT_NEEDED entries (ELF) of every library in
// `libraries` (inspected system's paths) and of everything they reach, resolving each name the way
// the target's consumers load (`model`): on Windows the application folder is not known here, so
// the order is, for a program, System32, the Windows folder, then `searchPath` (the fresh
// process's PATH); for conda's Python first the folder of the library the walk started from (as
// LOAD_WITH_ALTERED_SEARCH_PATH does), then the same; for Python 3.8+ that folder, System32, the
// Windows folder and `dllDirectories`, never PATH. The first file of the name is the one taken; on Linux
// DT_RPATH, `searchPath` (LD_LIBRARY_PATH), DT_RUNPATH, the ld.so.conf folders, the default folders, passing
// over files of another ELF class or machine as ld.so does. The architecture of the chain is the
// architecture of the first library. Each name is resolved once, as a process loads it once;
// what is reached only through a delay import has its problems marked `delayLoaded`.
// `openedAtRunTime`: names the first library opens itself (dlopen, LoadLibrary: names in its data),
// resolved from it after its static closure as its delay imports are.
DependencyWalk walkDependencies(const SystemContext &context, const QStringList &libraries,
                                const QStringList &searchPath, LoadModel model = LoadModel::Program,
                                const QStringList &dllDirectories = {},
                                const QStringList &openedAtRunTime = {});

} // namespace cudnnsetup
