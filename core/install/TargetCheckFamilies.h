#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Finding.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QChar>
#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// The checks checkTarget (TargetChecks.cpp) runs, by family, each family in its own file; the
// public ones a caller also runs alone are in TargetChecks.h. A check appends its findings; one
// that answers false has refused the target, and checkTarget stops there.
namespace targetchecks {

// TargetNameChecks.cpp: the path as Windows and its programs take it.
// A character as a message shows it: quoted, or U+XXXX for a control character.
QString describeCharacter(QChar c);
bool checkNames(const InstallTarget &target, const SystemPaths &paths, Findings &findings);
void checkLength(const InstallTarget &target, const QList<PlannedFile> &planned, Findings &findings);

// TargetPlaceChecks.cpp: whether the place is what the target's kind says.
void checkExistingFolder(const InstallTarget &target, const QList<PlannedFile> &planned,
                         const FileSystem &files, Findings &findings);
bool checkKind(const InstallTarget &target, const FileSystem &files, Findings &findings);
bool checkAppFolder(const InstallTarget &target, const SystemContext &context, Findings &findings);

// TargetAccessChecks.cpp: who may write into the target and change it, where writes land.
void checkLinksInside(const InstallTarget &target, const QStringList &folders, const SystemContext &context,
                      Findings &findings);
void checkWritable(const InstallTarget &target, const QStringList &folders, const QList<PlannedFile> &planned,
                   const SystemContext &context, const Volumes &volumes, Findings &findings);
bool checkRootOnlyFolders(const InstallTarget &target, const QStringList &folders,
                          const SystemContext &context, Findings &findings);

// TargetSpaceChecks.cpp: room on the drives, staging on the destinations' volume.
void checkSpace(const InstallTarget &target, const ArchiveReport &archive, const QList<PlannedFile> &planned,
                const SystemContext &context, const Volumes &volumes, Findings &findings);
void checkStagingVolume(const InstallTarget &target, const QStringList &folders, const SystemContext &context,
                        const Volumes &volumes, Findings &findings);

} // namespace targetchecks

} // namespace cudnnsetup
