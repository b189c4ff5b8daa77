#include "platform/LibraryLoader.h"

#include "common/Logging.h"

#include <vector>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#include <tlhelp32.h>

#include "platform/Win32Handles.h"
#else
#include <dlfcn.h>
#include <link.h>
#endif

namespace cudnnsetup {

LoadedLibrary::~LoadedLibrary()
{
    if (!m_handle || m_keptLoaded)
        return;
#ifdef Q_OS_WIN
    FreeLibrary(static_cast<HMODULE>(m_handle));
#else
    dlclose(m_handle);
#endif
}

void *LoadedLibrary::symbol(const char *name) const
{
#ifdef Q_OS_WIN
    return reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(m_handle), name));
#else
    return dlsym(m_handle, name);
#endif
}

QStringList LoadedLibrary::searchFolders() const
{
    QStringList folders;
#ifndef Q_OS_WIN
    Dl_serinfo size;
    if (dlinfo(m_handle, RTLD_DI_SERINFOSIZE, &size) != 0 || size.dls_size < sizeof(Dl_serinfo))
        return folders;
    // One block: the header, the dls_cnt entries and the strings they point at.
    std::vector<char> buffer(size.dls_size);
    auto *info = reinterpret_cast<Dl_serinfo *>(buffer.data());
    if (dlinfo(m_handle, RTLD_DI_SERINFOSIZE, info) != 0 || dlinfo(m_handle, RTLD_DI_SERINFO, info) != 0)
        return folders;
    for (unsigned int i = 0; i < info->dls_cnt; ++i)
        folders.append(QFile::decodeName(info->dls_serpath[i].dls_name));
#endif
    return folders;
}

#ifdef Q_OS_WIN
static QString windowsErrorText(DWORD code)
{
    wchar_t *allocated = nullptr;
    const DWORD length = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                            FORMAT_MESSAGE_IGNORE_INSERTS,
                                        nullptr, code, 0, reinterpret_cast<LPWSTR>(&allocated), 0, nullptr);
    const LocalMemory<wchar_t> buffer(allocated);
    return length ? QString::fromWCharArray(buffer.get(), int(length)).trimmed() : QString();
}
#endif

LoadResult LibraryLoader::load(const QString &nameOrPath, Search search) const
{
    LoadResult result;
#ifdef Q_OS_WIN
    // A path goes in fully qualified (drive included): LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR refuses
    // anything less. A bare name is searched for.
    const bool absolute = nameOrPath.contains(QLatin1Char('/')) || nameOrPath.contains(QLatin1Char('\\'));
    const QString native =
        QDir::toNativeSeparators(absolute ? QFileInfo(nameOrPath).absoluteFilePath() : nameOrPath);
    DWORD flags = 0;
    if (search == Search::Safe) {
        flags = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
        if (absolute)
            flags |= LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR;
    } else if (search == Search::System32) {
        flags = LOAD_LIBRARY_SEARCH_SYSTEM32;
    } else if (search == Search::AlteredSearchPath && absolute) {
        flags = LOAD_WITH_ALTERED_SEARCH_PATH;
    }
    // No "cannot find DLL" dialog boxes from the loader: the error code is the answer.
    DWORD previousMode = 0;
    SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &previousMode);
    HMODULE module = LoadLibraryExW(reinterpret_cast<LPCWSTR>(native.utf16()), nullptr, flags);
    const DWORD error = module ? 0 : GetLastError();
    SetThreadErrorMode(previousMode, nullptr);
    if (!module) {
        result.errorCode = int(error);
        // Windows' texts name no file ("The specified module could not be found.") or keep a
        // literal "%1" (193): say which one.
        result.errorString = QStringLiteral("%1: %2").arg(
            native, windowsErrorText(error).replace(QLatin1String("%1"), native));
        qCDebug(lcPlatform) << "LoadLibraryExW" << native << "failed:" << error << result.errorString;
        return result;
    }
    std::unique_ptr<LoadedLibrary> library(new LoadedLibrary);
    library->m_handle = module;
    wchar_t path[32768];
    const DWORD length = GetModuleFileNameW(module, path, DWORD(std::size(path)));
    library->m_loadedPath =
        length ? QDir::fromNativeSeparators(QString::fromWCharArray(path, int(length))) : QString();
#else
    Q_UNUSED(search)
    const QByteArray encoded = QFile::encodeName(nameOrPath);
    dlerror();
    void *handle = dlopen(encoded.constData(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *message = dlerror();
        result.errorString = message ? QString::fromLocal8Bit(message) : QStringLiteral("dlopen failed");
        qCDebug(lcPlatform) << "dlopen" << nameOrPath << "failed:" << result.errorString;
        return result;
    }
    std::unique_ptr<LoadedLibrary> library(new LoadedLibrary);
    library->m_handle = handle;
    link_map *map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
        library->m_loadedPath = QFileInfo(QFile::decodeName(map->l_name)).absoluteFilePath();
#endif
    qCDebug(lcPlatform) << "loaded" << nameOrPath << "from" << library->m_loadedPath;
    result.library = std::move(library);
    return result;
}

void LibraryLoader::loadFromSystem32Only()
{
#ifdef Q_OS_WIN
    SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_SYSTEM32);
#endif
}

void LibraryLoader::searchLikePython(const QStringList &folders)
{
#ifdef Q_OS_WIN
    SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    for (const QString &folder : folders) {
        const QString native = QDir::toNativeSeparators(QFileInfo(folder).absoluteFilePath());
        if (!AddDllDirectory(reinterpret_cast<LPCWSTR>(native.utf16())))
            qCWarning(lcPlatform) << "AddDllDirectory" << native << "failed:" << GetLastError();
    }
#else
    Q_UNUSED(folders)
#endif
}

QStringList LibraryLoader::loadedModules()
{
    QStringList modules;
#ifdef Q_OS_WIN
    const OwnedHandle snapshot = owned(CreateToolhelp32Snapshot(TH32CS_SNAPMODULE, GetCurrentProcessId()));
    if (!snapshot) {
        qCWarning(lcPlatform) << "CreateToolhelp32Snapshot failed:" << GetLastError();
        return modules;
    }
    MODULEENTRY32W entry;
    entry.dwSize = sizeof(entry);
    for (BOOL more = Module32FirstW(snapshot.get(), &entry); more;
         more = Module32NextW(snapshot.get(), &entry))
        modules.append(QDir::fromNativeSeparators(QString::fromWCharArray(entry.szExePath)));
#else
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *data) {
            if (info->dlpi_name && *info->dlpi_name)
                static_cast<QStringList *>(data)->append(QFile::decodeName(info->dlpi_name));
            return 0;
        },
        &modules);
#endif
    return modules;
}

} // namespace cudnnsetup
