#pragma once

#include <QString>

#include <string>

namespace cudnnsetup {

// The form of a path that every Win32 file call takes at any length: absolute, with backslashes,
// and from MAX_PATH on with the "\\?\C:\…" or "\\?\UNC\server\share\…" prefix. Without it the
// calls stop at 259 characters wherever Windows' long-path setting is off (its default); Qt's file
// classes add the prefix themselves. A path that has it already is left as it is.
std::wstring win32Path(const QString &path);
// The same as a QString, for messages and tests.
QString win32PathText(const QString &path);

} // namespace cudnnsetup
