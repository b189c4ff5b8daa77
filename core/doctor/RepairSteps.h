#pragma once

#include "archive/ArchiveInspector.h"
#include "doctor/Doctor.h"
#include "install/Operation.h"
#include "platform/EnvironmentStore.h"
#include "platform/SystemContext.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace cudnnsetup {

struct CudnnCopy;

// The repairs the doctor's rules offer, each made of install operations. A step object is
// {"operation": name, "arguments": {...}} and, where the receipt must list a file, "record":
// "moved-aside" (arguments.source is the file's place, arguments.destination where it was put) or
// "placed" (arguments.destination is a file the repair put there).
namespace repairs {

inline constexpr char kMovedAside[] = "moved-aside";
inline constexpr char kPlaced[] = "placed";

QJsonObject step(const Operation &operation, const QString &record = {});

// Whether changing files in `folder` (the inspected system's path) needs an administrator.
bool folderNeedsAdministrator(const SystemContext &context, const QString &folder);

// The files `fileNames` of `directory` renamed beside themselves ("cudnn64_8.dll.cudnn-setup-aside"),
// where no loader asks for them; `cudnnctl uninstall` renames them back.
Repair moveAside(const SystemContext &context, const QString &directory, const QStringList &fileNames);

// The project's own 64-bit zlibwapi.dll beside the cuDNN DLLs in `dllFolder`; a zlibwapi.dll
// that is there already (a 32-bit one) is moved aside first.
Repair placeZlibwapi(const SystemContext &context, const QString &dllFolder);

// One PATH value of `scope` edited by `operation`; `before` and `after` are the raw values.
Repair pathChange(const QString &id, const Text &summary, EnvironmentScope scope, const QString &before,
                  const QString &after, const Operation &operation);

// One environment value of `scope` set to `value`.
Repair setVariable(EnvironmentScope scope, const QString &name,
                   const std::optional<StoredEnvironmentValue> &before, const StoredEnvironmentValue &value);

// The cuDNN DLLs of `archive` (inspected, verdict ok) that are missing from `directory` or differ
// from the archive's, unpacked beside it and renamed into place; nullopt when none differ.
// `underSonames`: beside a Linux program, where no ldconfig makes the soname links it loads by,
// each library is placed under its soname (libcudnn.so.9).
std::optional<Repair> fromArchive(const SystemContext &context, const QString &directory,
                                  const QString &archivePath, const ArchiveReport &archive,
                                  bool underSonames = false);

// Why `repair`, handed to this elevated process by another one (cudnnctl doctor --request), is not
// one the doctor makes, so that it is not applied; nullopt when it may be. Its steps may only move
// a cuDNN file aside beside itself, put cuDNN Setup's own zlibwapi.dll in place, unpack cuDNN DLLs
// of `archive` (this process's own inspection of the archive at `archivePath`, entries unchanged)
// beside the DLLs they replace and move them in, and change the machine's PATH, CUDNN_* or
// CUDA_PATH, where every folder added or named is one only administrators can change.
std::optional<QString> handedOverDoubt(const Repair &repair, const SystemContext &context,
                                       const QString &archivePath, const ArchiveReport *archive);

} // namespace repairs

} // namespace cudnnsetup
