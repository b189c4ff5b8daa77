#pragma once

#include "archive/ArchiveInspector.h"
#include "install/InstallTarget.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace cudnnsetup {

// One file of the archive and where it goes.
struct PlannedFile
{
    QString archivePath; // ArchiveFile::path
    int entry = -1;      // ArchiveFile::entry
    QString destination; // the inspected system's path
    ArchiveFile::Kind kind = ArchiveFile::Kind::Other;
    qint64 size = 0;
    QString linkTarget; // ArchiveFile::linkTarget: made a symbolic link again, beside what it names
};

// Every file of the archive that is installed, and where: DLLs to binFolder, headers to
// includeFolder, import libraries to libFolder; the licence beside the DLLs as
// cudnn-LICENSE.txt; into an app folder the DLLs (shared libraries) only. Nothing else. Archive
// subfolders are not kept; of two files that would land on one destination, the first in the
// archive wins. A tar's symbolic links come last, each beside the file (or link) it names, where
// that is placed.
QList<PlannedFile> placeFiles(const ArchiveReport &archive, const InstallTarget &target);

// What installing `archive` needs on the target's drive: twice the archive (staging, then the
// files in place), or what `planned` unpacks when that is more (cuDNN's DLLs compress well).
qint64 requiredBytes(const ArchiveReport &archive, const QList<PlannedFile> &planned);

// The .pth file that makes a venv's Python find `dllFolder`: one line of pure ASCII (non-ASCII
// characters as \uXXXX or \UXXXXXXXX escapes inside a Python string), because Python up to 3.12
// reads .pth files in the locale's encoding and user folders are often Chinese. The line calls
// os.add_dll_directory only where it exists and for a folder that exists, so it never raises at
// interpreter start.
QByteArray venvPthContent(const QString &dllFolder);

} // namespace cudnnsetup
