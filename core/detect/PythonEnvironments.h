#pragma once

#include "detect/DetectOptions.h"

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
    QString versionHint;      // "3.12" from pyvenv.cfg or the file name, when known
};

// Interpreters on PATH (and the venv or conda env each belongs to), the py launcher's list, PEP 514
// registry entries, conda environments (CONDA_PREFIX, environments.txt, the usual conda roots) and
// VIRTUAL_ENV. Windows Store "python.exe" aliases are skipped: running one opens the Store.
QList<PythonEnvironment> findPythonEnvironments(const SystemContext &context, const DetectOptions &options);

// The home folders whose per-user Python/conda state is looked at: the current user's on the
// running system, every user's under a system root.
QStringList homeFolders(const SystemContext &context);

} // namespace cudnnsetup
