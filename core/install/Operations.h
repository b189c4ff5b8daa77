#pragma once

#include "archive/Extractor.h"
#include "install/Operation.h"
#include "install/PathEditor.h"
#include "platform/DurableFiles.h"
#include "platform/FilesInUse.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"
#include "platform/SystemPaths.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>

namespace cudnnsetup {

// The operations installs, uninstalls and repairs are made of. File paths are host paths.
namespace operations {

// The error of a file `path` that could not be changed, said by why (`failure`, the system's side):
// "install.file-in-use" when another program holds it, "install.needs-administrator" when this
// account lacks the rights, else "install.file-failed"; the details are the system's message.
Finding fileFailure(const OperationContext &context, const QString &path, const SystemFailure &failure);

// Creates `path` and the folders above it that are missing; undo removes those it created, while
// they are empty.
// `protectWith`: the SDDL the topmost folder it creates gets (OperationContext::fileSecurity), so that
// everything below inherits it.
std::unique_ptr<Operation> makeDirectory(const QString &path, const QString &protectWith = {});
// Copies a file; a file it replaces is kept aside and put back by undo.
std::unique_ptr<Operation> copyFile(const QString &source, const QString &destination);
// Moves a staged file into place with an atomic rename (staging is on the same volume); a file it
// replaces is kept aside and put back by undo, which also moves the file back to staging. After
// the commit the replaced file is kept as `keepReplacedAs` (for an uninstall to put back), or
// dropped when that is empty.
std::unique_ptr<Operation> moveIntoPlace(const QString &staged, const QString &destination,
                                         const QString &keepReplacedAs = {});
// Makes `destination` a symbolic link to `target`, a file name beside it (a tar's libcudnn.so.9);
// what it replaces is kept as moveIntoPlace keeps it, and undo removes the link.
std::unique_ptr<Operation> makeSymlink(const QString &target, const QString &destination,
                                       const QString &keepReplacedAs = {});
// Writes a small file whole (a receipt, a .pth file); a file it replaces is kept aside.
std::unique_ptr<Operation> writeFile(const QString &destination, const QByteArray &content);
// The same, with the content made when the operation is about to run (a receipt that lists what
// the operations before it produced).
std::unique_ptr<Operation> writeFileMadeLater(const QString &destination,
                                              std::function<QByteArray()> content);
// Unpacks `files` of the archive into `staging` (which must not exist), and in the same pass
// inflates `checkOnly` to hold them to their CRCs; undo and the commit remove the staging folder.
// `result` receives what was unpacked (sizes, SHA-256s). With `archiveHashed`, the archive's own
// SHA-256 is taken in the same pass and given to it before the step is done; the step fails with
// the error it returns (an archive that is not the file NVIDIA published).
using ArchiveHashed = std::function<Expected<void>(const QString &archiveSha256)>;
std::unique_ptr<Operation> unpackArchive(const QString &archive, const QList<ArchiveFile> &files,
                                         const QList<ArchiveFile> &checkOnly, const QString &staging,
                                         std::shared_ptr<Extraction> result,
                                         ArchiveHashed archiveHashed = {});
// Removes a file, kept aside until the commit so undo can put it back.
std::unique_ptr<Operation> removeFile(const QString &path);
// Removes a folder if it is empty (the folders an uninstall leaves behind).
std::unique_ptr<Operation> removeEmptyDirectory(const QString &path);
// `change` (writing or removing a file in /etc/ld.so.conf.d), followed, when `rebuildsCache`, by the
// running system's ldconfig (hostLdconfig) rebuilding the loader's cache; its undo undoes `change`
// and rebuilds the cache again, so the cache never names what is not there. Another system's files
// (--system-root) rebuild none: their cache is that system's to rebuild.
std::unique_ptr<Operation> refreshingLibraryCache(std::unique_ptr<Operation> change, bool rebuildsCache);
// Sets (or, with nullopt, removes) one persistent environment value; undo puts back the value that
// was there, unless someone changed it since.
std::unique_ptr<Operation> setEnvironmentValue(EnvironmentScope scope, const QString &name,
                                               const std::optional<StoredEnvironmentValue> &value);

// Adds one entry to the PATH of `scope` (creating PATH as REG_EXPAND_SZ when there is none), unless
// an equal entry is there, and applies the fixes the user chose for stale entries (PathEditor::
// analyse offers them); undo puts PATH back byte for byte if nobody changed it since, else takes
// out only our entry.
std::unique_ptr<Operation> addPathEntry(OsFamily family, EnvironmentScope scope, const QString &entry,
                                        bool atFront = true, const QList<PathFix> &fixes = {});
// Takes every entry equal to `entry` out of the PATH of `scope`; undo puts PATH back as it was,
// if nobody changed it since.
std::unique_ptr<Operation> removePathEntry(OsFamily family, EnvironmentScope scope, const QString &entry);

// zlibwapi.dll at `destination` when the unpacked `dlls` (host paths) import it and the loader would
// find no 64-bit copy first (looked for from `dllFolder`, the inspected system's path, on
// `context`'s system; nullptr when replayed from a journal, where only undo runs). Decided while
// the transaction runs: the imports are read from the unpacked files. `placed` is set when it
// wrote the file; undone like any other file.
std::unique_ptr<Operation> placeZlibwapi(const QString &destination, const QStringList &dlls,
                                         const QString &dllFolder,
                                         std::shared_ptr<const SystemContext> context,
                                         std::shared_ptr<bool> placed);
// For a file in use (which Windows lets no one overwrite or remove): the file is renamed beside
// itself (its running programs keep it under that name), `staged` moves into its place for every
// program started from now on, and after the commit the old file goes to `keepReplacedAs` for the
// uninstall; what cannot leave the folder yet is removed at the next start of Windows (the
// context's FilesInUse). Undo puts the old file back and the new one back into staging.
std::unique_ptr<Operation> replaceInUse(const QString &staged, const QString &destination,
                                        const QString &keepReplacedAs);

QString scopeName(EnvironmentScope scope); // "user", "machine"
std::optional<EnvironmentScope> scopeFromName(const QString &name);

} // namespace operations

} // namespace cudnnsetup
