#pragma once

#include "verify/ErrorLog.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// The signatures a pasted text holds, one per failure, in the order they were met (readErrorLog
// sorts them by line).
QList<LogSignature> readLogSignatures(const QString &text);

// The folders a text names (Windows and POSIX paths), as written.
QStringList foldersNamedIn(const QString &text);

// The folders named near the signatures: the lines of the traceback before each and its own.
QStringList foldersNear(const QString &text, const QList<LogSignature> &signatures);

} // namespace cudnnsetup
