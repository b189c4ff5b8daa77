#pragma once

#include "common/Text.h"
#include "platform/SystemContext.h"

#include <QString>

// What the install target's files share (InstallTarget, TargetSpec, TargetChecks, FilePlacement):
// path arithmetic in the target's syntax, where the inspected system's folders are, and how a
// venv or a conda env is recognised and named when it is not one.
namespace cudnnsetup::targetpaths {

// "\" on Windows, "/" elsewhere.
QString sep(OsFamily family);
// `path` normalized, and folded to lower case where names ignore case: a key for "the same file".
QString foldedKey(const SystemPaths &paths, const QString &path);
// `path` relative to `base` when it is under it, else empty.
QString relativeTo(const SystemPaths &paths, const QString &base, const QString &path);
// The environment variable `name` of the inspected system as a normalized absolute path; empty
// when it is not set or not absolute.
QString environmentPath(const SystemContext &context, const QString &name);
// $HOME of the inspected system (Linux), or empty.
QString home(const SystemContext &context);

// A Python venv: pyvenv.cfg and its interpreter (Scripts\python.exe, bin/python) in `root`.
bool isVenv(const QString &root, const FileSystem &files);
// A conda env: a conda-meta folder in `root`.
bool isCondaEnv(const QString &root, const FileSystem &files);
Text notAVenvMessage(const QString &root);
Text notAVenvFix();
Text notCondaMessage(const QString &root);
Text condaFix();

} // namespace cudnnsetup::targetpaths
