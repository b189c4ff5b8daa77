#pragma once

#include <QString>

#include <optional>

namespace cudnnsetup {

// How the programs that use a cuDNN find its libraries and what they import. The probe loads and
// the dependency walk resolves by the same model, so the two never contradict each other.
enum class LoadModel
{
    // A program: each library by name through the loader's standard search, PATH included.
    Program,
    // Python 3.8+ (a venv's): the folders given to os.add_dll_directory (the install's .pth adds
    // the DLL folder), the loaded DLL's own folder and System32 - never PATH (Windows:
    // AddDllDirectory, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR).
    PythonDllDirectories,
    // conda's Python in an activated environment: each library by its full path, its own folder
    // searched first and then the standard search with the environment's PATH (Windows:
    // LOAD_WITH_ALTERED_SEARCH_PATH).
    CondaActivated,
};

QString loadModelName(LoadModel model); // "program", "python", "conda"
std::optional<LoadModel> loadModelFromName(const QString &name);

} // namespace cudnnsetup
