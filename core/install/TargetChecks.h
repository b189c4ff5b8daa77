#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Finding.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

namespace cudnnsetup {

// What makes a target unusable (errors) or worth a word (warnings, infos): an empty, relative or too
// long path (any destination of placeFiles at MAX_PATH or beyond), a reserved name or a character
// Windows refuses, an existing non-empty folder that is not the target's own kind of place, free
// space below twice the archive (or below what is unpacked, if more), a folder that cannot be
// written (tried, not guessed, in every destination folder or the nearest one above it), staging
// on another volume than a destination, a link inside the target that leads out of it, a toolkit,
// venv or conda env that is not (or no longer) there, an app folder that is not an existing folder or
// is a system one (the Windows folder, a drive, /usr/lib). Ids "target.*". `volumes` answers free space,
// volume and write questions (tests pass their own). Its checks, by family, are declared in
// TargetCheckFamilies.h; those below it that callers also run alone are defined in their families'
// files (TargetAccessChecks.cpp, TargetNameChecks.cpp, TargetSpaceChecks.cpp).
Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context);
Findings checkTarget(const InstallTarget &target, const ArchiveReport &archive, const SystemContext &context,
                     const Volumes &volumes);

// Windows, a target on a PATH: "target.writable-system-path" (error) when someone besides SYSTEM,
// the Administrators and TrustedInstaller may change its DLL folder or a folder above it;
// "target.writable-user-path" on the user PATH when others than this account may. Part of
// checkTarget; on its own where a folder goes on a PATH without an install (a repair file).
void checkSystemPathFolder(const InstallTarget &target, const SystemContext &context, Findings &findings);

// The files an install replaces are kept in `keptFolder` (keptFilesFolder(), a host path), for an
// uninstall to put back. On the target's volume they are only renamed; on another one they are
// copied, and that volume needs room for them: "target.no-space-to-keep" when it has less free
// than the files `planned` replaces, "target.space-unknown" when that cannot be read.
// Windows: the paths an install works with besides the files' own (each file staged, the backup an
// undo would put back, the replaced file the receipt keeps in `keptFolder`, an inspected system's
// path) stay below MAX_PATH like them: "target.too-long" otherwise.
Findings checkWorkingPathLengths(const QList<PlannedFile> &planned, const QString &keptFolder,
                                 const InstallTarget &target, const SystemContext &context);

// The bytes this user may still write on the volume of `target`'s folder; -1 when unknown.
qint64 freeBytesAt(const InstallTarget &target, const SystemContext &context, const Volumes &volumes);

Findings checkKeepingSpace(const QList<PlannedFile> &planned, const QString &keptFolder,
                           const InstallTarget &target, const SystemContext &context, const Volumes &volumes);

} // namespace cudnnsetup
