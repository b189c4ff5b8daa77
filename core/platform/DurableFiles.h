#pragma once

#include <QByteArray>
#include <QString>

#include <functional>
#include <optional>

namespace cudnnsetup {

// File changes an install can undo after a crash: each either happened whole or not at all, and
// is on disk when it returns. Errors are the system's message; nullopt on success.
namespace durable {

// Renames `from` to `to`, replacing `to` if it exists, on one volume: MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH on Windows, rename(2) and an fsync of the
// folder elsewhere.
std::optional<QString> rename(const QString &from, const QString &to);

// Copies `from` to `partial` (created anew), flushes it, then renames it to `to`. `onChunk` is told
// the bytes copied so far after each block and may stop the copy (return false), which leaves
// `partial` behind as a crash would.
std::optional<QString> copy(const QString &from, const QString &partial, const QString &to,
                            const std::function<bool(qint64)> &onChunk = {});

// Writes `content` to `partial`, flushes it, renames it to `to`.
std::optional<QString> write(const QByteArray &content, const QString &partial, const QString &to);

// Removes a file; a file that is not there is fine.
std::optional<QString> remove(const QString &path);

} // namespace durable

} // namespace cudnnsetup
