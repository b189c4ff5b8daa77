#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace cudnnsetup {

// File changes an install can undo after a crash: each either happened whole or not at all, and
// is on disk when it returns. Errors are the system's message; nullopt on success. Where the caller
// passes a FailureCause, a failure also says which system error it was, so that a file in use can
// be told from a lack of rights (FilesInUse::isInUseError).
namespace durable {

// The system's side of a failure. Reset by every call that is handed one.
struct FailureCause
{
    // GetLastError() on Windows, errno elsewhere, of the rename or removal that failed; 0 when the
    // failure came from somewhere else (a file that could not be opened or read while copying).
    int systemError = 0;
    QStringList paths; // the files that system call was about (a rename: from, then to)
};

// The failure was the system refusing this account the rights (ERROR_ACCESS_DENIED on Windows,
// EACCES or EPERM elsewhere). On Windows a loaded DLL answers a delete so too: ask
// FilesInUse::isInUseError first.
bool isAccessDenied(const FailureCause &cause);

// Renames `from` to `to`, replacing `to` if it exists, on one volume: MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH on Windows, rename(2) and an fsync of the
// folder elsewhere.
[[nodiscard]] std::optional<QString> rename(const QString &from, const QString &to,
                                            FailureCause *cause = nullptr);

// Copies `from` to `partial` (created anew), flushes it, then renames it to `to`. `onChunk` is told
// the bytes copied so far after each block and may stop the copy (return false), which leaves
// `partial` behind as a crash would.
[[nodiscard]] std::optional<QString> copy(const QString &from, const QString &partial, const QString &to,
                                          const std::function<bool(qint64)> &onChunk = {},
                                          FailureCause *cause = nullptr);

// Writes `content` to `partial`, flushes it, renames it to `to`.
[[nodiscard]] std::optional<QString> write(const QByteArray &content, const QString &partial,
                                           const QString &to, FailureCause *cause = nullptr);

// Removes a file (a read-only one too); a file that is not there is fine.
[[nodiscard]] std::optional<QString> remove(const QString &path, FailureCause *cause = nullptr);

// Removes `folder` and all it holds, without following a symbolic link or junction inside it: the
// link itself goes, what it points at stays (an elevated cleanup of a folder a user could write
// must not empty another folder through a planted junction). A folder that is not there is fine.
[[nodiscard]] std::optional<QString> removeTree(const QString &folder);

// Removes what only this program's own work left behind and no longer needs (a partial copy, a
// backup after the commit, a staging folder): a failure leaves a stray file or folder, not a
// broken install, so it is logged with the system's message and the work goes on.
void discard(const QString &path);
void discardTree(const QString &folder);

} // namespace durable

} // namespace cudnnsetup
