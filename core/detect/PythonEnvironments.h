#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

class SystemContext;

// One Python installation or environment, found from files alone (no interpreter is run here).
struct PythonEnvironment
{
    QString interpreter;      // python.exe / bin/python3.12, as the user would call it
    QString prefix;           // the environment's root (a venv's folder, a conda env, C:\Python312)
    QString source;           // "path", "py-launcher", "registry", "conda", "venv"
    QStringList sitePackages; // existing site-packages / dist-packages folders
    QString libraryDir;       // conda: Library\bin (Windows) or lib (Linux); else empty
    QString versionHint;      // "3.12.3" from pyvenv.cfg, "3.12" from the file name, when known
    QStringList names;        // other paths that reach `interpreter`: links to it, pyenv shims
    QString home; // a venv: its base installation's folder (pyvenv.cfg's home), where the python that runs is
};

// Interpreters on PATH (and the venv or conda env each belongs to), PEP 514 registry entries (what
// the py launcher lists), conda environments (CONDA_PREFIX, environments.txt, the usual conda roots)
// and VIRTUAL_ENV, from files alone: nothing is run. Links to one interpreter are one entry with
// their paths in `names`. pyenv and pyenv-win shims stand for the interpreter of the selected version
// (PYENV_VERSION, else the nearest .python-version from PYENV_DIR or PWD up, else the global version
// file) that has the command, and are left out when none has it. Windows Store "python.exe" aliases are
// skipped (running one opens the Store); a Store Python is found through its registry entry. Site-packages
// include the user's own (pip install --user) for interpreters that are not venvs, before the installation's,
// as Python's sys.path has them.
QList<PythonEnvironment> findPythonEnvironments(const SystemContext &context);

// The home folders whose per-user Python/conda state is looked at: the current user's on the
// running system, every user's under a system root.
QStringList homeFolders(const SystemContext &context);

} // namespace cudnnsetup
