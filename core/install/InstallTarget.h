#pragma once

#include "common/Expected.h"
#include "common/Version.h"
#include "platform/SystemContext.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace cudnnsetup {

// Which PATH, if any, gets the folder that holds the DLLs.
enum class PathScope
{
    None,
    User,
    System,
};

QString pathScopeName(PathScope scope); // "none", "user", "system": as --path spells it
// The stored environment whose PATH `scope` changes; nullopt for None.
std::optional<EnvironmentScope> environmentScopeOf(PathScope scope);
std::optional<PathScope> pathScopeFromName(const QString &name);

// Where cuDNN goes. Paths are the inspected system's (C:\Program Files\...); SystemContext::files()
// maps them to host paths under --system-root.
struct InstallTarget
{
    enum class Kind
    {
        CudaToolkit, // bin, include, lib\x64 of a CUDA toolkit (CUDA 13: bin\x64)
        Folder,      // its own folder: C:\Program Files\NVIDIA\CUDNN\v9.1 by default, or any folder
        UserFolder,  // a per-user folder (%LOCALAPPDATA%\Programs\NVIDIA\CUDNN\v9.1): no admin
        Conda,       // a conda env: Library\bin, Library\include, Library\lib
        Venv,        // a Python venv: the DLLs in it, found through a .pth file that calls
                     // os.add_dll_directory (Python 3.8+ ignores PATH for DLL dependencies)
        App,         // one program's own folder: the libraries only, straight into root (the folder
                     // folders are empty), found by that program first; never on PATH
    };

    // A venv's own cuDNN folder, under its site-packages: "<venv>\Lib\site-packages\cudnn_setup.libs"
    // with bin, include and lib inside. The ".libs" suffix is delvewheel's convention for DLLs that
    // travel inside site-packages: the name cannot be imported (no namespace package appears), pip
    // never touches it nor mistakes it for NVIDIA's nvidia\cudnn wheel, it goes when the venv goes,
    // and it sits beside the cudnn_setup.pth that names it.
    static constexpr char kVenvFolder[] = "cudnn_setup.libs";
    static constexpr char kVenvPthFile[] = "cudnn_setup.pth";
    // Where the archive is unpacked before its files are renamed into place, under root: a rename
    // is atomic only within one volume, so staging must be on the destinations' volume.
    static constexpr char kStagingFolder[] = ".cudnn-setup-staging";
    static constexpr char kLicenseFile[] = "cudnn-LICENSE.txt";

    Kind kind = Kind::Folder;
    OsFamily family = OsFamily::Windows; // the path syntax of root and the folders
    QString root;                        // the toolkit, the folder, the env
    Version toolkitVersion;              // CudaToolkit
    // Under root, '\'-separated on Windows: where the DLLs, the headers and the import libraries go.
    QString binFolder;
    QString includeFolder;
    QString libFolder;
    PathScope pathScope = PathScope::None; // the PATH that gets dllFolder()

    QString kindName() const; // "cuda", "dir", "user", "conda", "venv", "app": as --target spells it
    // The whole --target value that names this target again ("dir:C:\\cudnn", "cuda:12.4.1").
    QString spec() const;
    // root joined with a folder relative to it, in the target's path syntax.
    QString pathOf(const QString &relativeFolder) const;
    // The folder that really holds the DLLs (root + binFolder), the one PATH or the .pth names.
    QString dllFolder() const;
    // Venv: the .pth file in site-packages (beside the venv folder); empty for other kinds.
    QString pthFile() const;
    // Linux with the system scope: the file in /etc/ld.so.conf.d that names dllFolder() for the
    // loader's cache (Linux has no PATH for libraries); empty otherwise. Its name is the folder's
    // path made readable, and the start of the path's SHA-256: one file per folder.
    QString ldSoConfFile() const;
    // What that file holds: a comment that names the target (control characters escaped), then
    // dllFolder(), which checkTarget made sure the file can hold (no control character, no '#').
    QByteArray ldSoConfContent() const;
    // root + kStagingFolder.
    QString stagingFolder() const;
    // Where an install's transaction keeps what it replaces until the commit: beside staging.
    QString backupFolder() const;
    // Whether writing there, or to that PATH, needs an administrator: Program Files (either),
    // the Windows folder, a toolkit under Program Files, the system PATH. On Linux: outside $HOME
    // and /tmp, or the system scope. A guess from the path; checkTarget's write test is the truth.
    bool needsAdmin(const SystemContext &context) const;
    QJsonObject toJson() const;
    // toJson() read back, refused ("target.invalid") unless it is a target's shape: a known kind
    // and scope, an absolute root, and folders below it (relative, no "..", no control character);
    // an app folder's are all empty (root itself) and its PATH scope is none.
    // What a receipt or a plan from elsewhere holds is checked here before any path is used.
    static Expected<InstallTarget> fromJson(const QJsonObject &object);
};

// `text` with its control characters (a line break, a tab, DEL) written as \uXXXX: a path shown
// in a message or written on one line of a file stays on that line.
QString controlsEscaped(const QString &text);

} // namespace cudnnsetup
