#pragma once

#include <QLoggingCategory>
#include <QString>

namespace cudnnsetup {

Q_DECLARE_LOGGING_CATEGORY(lcCore)
Q_DECLARE_LOGGING_CATEGORY(lcPlatform)
Q_DECLARE_LOGGING_CATEGORY(lcDetect)
Q_DECLARE_LOGGING_CATEGORY(lcWizard)
Q_DECLARE_LOGGING_CATEGORY(lcApp)
Q_DECLARE_LOGGING_CATEGORY(lcInstall)
Q_DECLARE_LOGGING_CATEGORY(lcSession)

namespace logging {
// Debug output of our own categories is off unless `verbose`; warnings always reach stderr.
void configure(bool verbose);
// Also write every message, with a timestamp, to `path` (appending). Returns false if it cannot be opened.
bool writeTo(const QString &path);
// The file writeTo() opened last; empty when the log goes nowhere but the console.
QString filePath();
} // namespace logging

} // namespace cudnnsetup
