#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Expected.h"
#include "common/Finding.h"
#include "common/Version.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
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

    QString kindName() const; // "cuda", "dir", "user", "conda", "venv": as --target spells it
    // The whole --target value that names this target again ("dir:C:\\cudnn", "cuda:12.4.1").
    QString spec() const;
    // root joined with a folder relative to it, in the target's path syntax.
    QString pathOf(const QString &relativeFolder) const;
    // The folder that really holds the DLLs (root + binFolder), the one PATH or the .pth names.
    QString dllFolder() const;
    // Venv: the .pth file in site-packages (beside the venv folder); empty for other kinds.
    QString pthFile() const;
    // root + kStagingFolder.
    QString stagingFolder() const;
    // Whether writing there, or to that PATH, needs an administrator: Program Files (either),
    // the Windows folder, a toolkit under Program Files, the system PATH. On Linux: outside $HOME
    // and /tmp, or the system scope. A guess from the path; checkTarget's write test is the truth.
    bool needsAdmin(const SystemContext &context) const;
    QJsonObject toJson() const;
};

// One file of the archive and where it goes.
struct PlannedFile
{
    QString archivePath; // ArchiveFile::path
    int entry = -1;      // ArchiveFile::entry
    QString destination; // the inspected system's path
    ArchiveFile::Kind kind = ArchiveFile::Kind::Other;
    qint64 size = 0;
};

// --target as cudnnctl takes it: "cuda" (the toolkit the match chose), "cuda:12.4" (the newest
// installed toolkit whose version starts so), "dir:PATH", "dir" (the default own folder), "user",
// "conda:NAME-OR-PATH" (an env's folder name as `conda env list` shows it, "base", or its path),
// "venv:PATH". Kind names ignore case. `pathScope` is --path; nullopt takes the kind's own: none for
// a toolkit (CUDA's installer put its bin on PATH), a conda env and a venv, the system PATH for
// "dir", the user PATH for "user". A relative PATH is kept as given (checkTarget reports it).
// Errors: "target.unknown-kind", "target.no-toolkit", "target.no-conda-env", "target.not-a-venv",
// "target.no-user-folder" (LOCALAPPDATA and USERPROFILE unknown).
Expected<InstallTarget> targetFromSpec(const QString &spec, std::optional<PathScope> pathScope,
                                       const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                       const SystemContext &context,
                                       const KnowledgeBase &kb = KnowledgeBase::embedded());
// The target the wizard proposes: the toolkit of the archive's CUDA major that the match chose,
// else its own folder with the system PATH.
InstallTarget defaultTarget(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                            const SystemContext &context,
                            const KnowledgeBase &kb = KnowledgeBase::embedded());

// What makes a target unusable (errors) or worth a word (warnings, infos): an empty, relative or too
// long path (any destination of placeFiles at MAX_PATH or beyond), a reserved name or a character
// Windows refuses, an existing non-empty folder that is not the target's own kind of place, free
// space below twice the archive (or below what is unpacked, if more), a folder that cannot be
// written (tried, not guessed, in every destination folder or the nearest one above it), staging
// on another volume than a destination, a toolkit, venv or conda env that is not (or no longer)
// there. Ids "target.*". `volumes` answers free space, volume and write questions (tests pass
// their own).
Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context);
Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context,
                     const Volumes &volumes);

// Every file of the archive that is installed, and where: DLLs to binFolder, headers to
// includeFolder, import libraries to libFolder; the licence beside the DLLs as
// cudnn-LICENSE.txt. Nothing else. Archive subfolders are not kept; of two files that would land
// on one destination, the first in the archive wins.
QList<PlannedFile> placeFiles(const ArchiveReport &archive, const InstallTarget &target);

// The .pth file that makes a venv's Python find `dllFolder`: one line of pure ASCII (non-ASCII
// characters as \uXXXX or \UXXXXXXXX escapes inside a Python string), because Python up to 3.12
// reads .pth files in the locale's encoding and user folders are often Chinese. The line calls
// os.add_dll_directory only where it exists and for a folder that exists, so it never raises at
// interpreter start.
QByteArray venvPthContent(const QString &dllFolder);

} // namespace cudnnsetup
