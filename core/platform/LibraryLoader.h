#pragma once

#include <QString>
#include <QStringList>

#include <memory>

namespace cudnnsetup {

// One loaded shared library (DLL / .so), unloaded when destroyed.
class LoadedLibrary
{
public:
    ~LoadedLibrary();
    LoadedLibrary(const LoadedLibrary &) = delete;
    LoadedLibrary &operator=(const LoadedLibrary &) = delete;

    // The file the loader actually mapped, which is not always the one asked for.
    QString loadedPath() const { return m_loadedPath; }
    void *symbol(const char *name) const;
    // Linux: the folders, in order, where a dlopen() by bare name from code of this library looks
    // (LD_LIBRARY_PATH, its own RUNPATH with $ORIGIN expanded, the system's; dlinfo
    // RTLD_DI_SERINFO): where a program that loads cuDNN only at run time finds it. Windows: none
    // (a DLL's run-time loads search as the process does).
    QStringList searchFolders() const;
    // Not unloaded when destroyed: it stays until the process ends, as in the programs that load
    // it, some of whose modules do not survive being unloaded.
    void keepLoaded() { m_keptLoaded = true; }

    template <typename Function>
    Function function(const char *name) const
    {
        return reinterpret_cast<Function>(symbol(name));
    }

private:
    friend class LibraryLoader;
    LoadedLibrary() = default;

    void *m_handle = nullptr;
    QString m_loadedPath;
    bool m_keptLoaded = false;
};

struct LoadResult
{
    std::unique_ptr<LoadedLibrary> library; // null when loading failed
    int errorCode = 0;                      // Windows: GetLastError() (126, 127, 193, ...); Linux: 0
    QString errorString;                    // the loader's own words (dlerror(), FormatMessage)
};

// Loads libraries into this process: LoadLibraryExW on Windows, dlopen elsewhere.
class LibraryLoader
{
public:
    enum class Search
    {
        // The loader's standard search: on Windows application folder, System32, Windows, PATH;
        // on Linux LD_LIBRARY_PATH, the ld.so cache, the default folders.
        Standard,
        // Windows: only the application folder, System32 and, for a full path, the DLL's own folder
        // (LOAD_LIBRARY_SEARCH_* flags), so a planted copy on PATH is never picked up. Linux: Standard.
        Safe,
        // Windows: System32 alone, for the driver's own DLLs (nvml.dll, nvcuda.dll), so a copy
        // planted beside the program (a download folder) or on PATH is never loaded. Linux: Standard.
        System32,
        // Windows: a full path with LOAD_WITH_ALTERED_SEARCH_PATH, its own folder searched first
        // for what it imports, then the standard search (how conda's Python loads from an
        // activated environment). Linux: Standard.
        AlteredSearchPath,
    };

    virtual ~LibraryLoader() = default;
    virtual LoadResult load(const QString &nameOrPath, Search search = Search::Safe) const;

    // Windows: from here on, every DLL this process loads without naming its own search (Qt's,
    // the system's, the imports they pull in) comes from System32, never from the program's folder,
    // the current one or PATH; so a DLL planted beside a copy of the program in Downloads is not
    // loaded into it, elevated or not. The first thing both programs do, except the verifier's probe
    // child, which has to load as the user's programs do. Elsewhere: nothing.
    static void loadFromSystem32Only();
    // Windows: from here on, loads search only the application folder, System32 and `folders`
    // (AddDllDirectory), never PATH: what Python 3.8+ does at start and with os.add_dll_directory.
    // For the verifier's probe child, which loads as the target's consumers do. Elsewhere: nothing.
    static void searchLikePython(const QStringList &folders);
    // The files of every library mapped into this process now, as the loader names them
    // (dl_iterate_phdr; a module snapshot on Windows): what a load really bound.
    static QStringList loadedModules();
};

} // namespace cudnnsetup
