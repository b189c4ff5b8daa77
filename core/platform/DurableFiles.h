#pragma once

#include "platform/SystemFailure.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>

namespace cudnnsetup {

// File changes an install can undo after a crash: each either happened whole or not at all, and
// is on disk when it returns. A failure carries the system's message and code (SystemFailure), so
// that a file in use can be told from a lack of rights (FilesInUse::isInUseError). On Windows a
// rename or removal that meets a sharing or lock violation or "access denied" (an antivirus
// scanner or the indexer holding the file for a moment) is tried again for about 3 s first.
namespace durable {

// The failure was the system refusing this account the rights (ERROR_ACCESS_DENIED on Windows,
// EACCES or EPERM elsewhere). On Windows a loaded DLL answers a delete so too: ask
// FilesInUse::isInUseError first.
bool isAccessDenied(const SystemFailure &failure);

// Renames `from` to `to`, replacing `to` if it exists, on one volume: MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH on Windows, rename(2) and an fsync of the
// folder elsewhere.
SystemResult rename(const QString &from, const QString &to);

// Copies `from` to `partial` (created anew), flushes it, then renames it to `to`. `onChunk` is told
// each block as it was read and written, and the bytes copied so far, and may stop the copy (return
// false), which leaves `partial` behind as a crash would.
SystemResult copy(const QString &from, const QString &partial, const QString &to,
                  const std::function<bool(QByteArrayView, qint64)> &onChunk = {});

// Writes `content` to `partial`, flushes it, renames it to `to`.
SystemResult write(const QByteArray &content, const QString &partial, const QString &to);

// Makes `link` a symbolic link that reads `target` as given (a name beside it, as NVIDIA's Linux
// archives have them), then flushes its folder. Not on Windows, whose archives have no links: there
// it fails.
SystemResult symlink(const QString &target, const QString &link);

// Removes a file (a read-only one too); a file that is not there is fine.
SystemResult remove(const QString &path);

// Removes `folder` and all it holds, without following a symbolic link or junction inside it: the
// link itself goes, what it points at stays (an elevated cleanup of a folder a user could write
// must not empty another folder through a planted junction). Each entry is opened once without
// following a link, checked and removed through that handle, and a folder is listed and entered
// only through its own handle, so that a folder swapped for a link after it was looked at is not
// followed either: below the root, an entry that now lies outside it (Windows) or a folder of
// another file system (elsewhere) is left alone and the removal fails. A folder that is not there
// is fine.
SystemResult removeTree(const QString &folder);

// Removes what only this program's own work left behind and no longer needs (a partial copy, a
// backup after the commit, a staging folder): a failure leaves a stray file or folder, not a
// broken install, so it is logged with the system's message and the work goes on.
void discard(const QString &path);
void discardTree(const QString &folder);

} // namespace durable

} // namespace cudnnsetup
