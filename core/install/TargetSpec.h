#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Expected.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"

#include <QString>

#include <optional>

namespace cudnnsetup {

// --target as cudnnctl takes it: "cuda" (the toolkit the match chose), "cuda:12.4" (the newest
// installed toolkit whose version starts so), "dir:PATH", "dir" (the default own folder), "user",
// "conda:NAME-OR-PATH" (an env's folder name as `conda env list` shows it, "base", or its path),
// "venv:PATH", "app:FOLDER" (one program's folder: its libraries only, beside the program, never on
// PATH: a --path other than none is refused, "target.app-path"). Kind names ignore case.
// `pathScope` is --path; nullopt takes the kind's own: none for a toolkit (CUDA's installer put its
// bin on PATH), a conda env, a venv and an app folder, the system PATH for "dir", the user PATH for
// "user". A relative PATH is kept as given (checkTarget reports it).
// Errors: "target.unknown-kind", "target.no-toolkit", "target.no-conda-env", "target.not-a-venv",
// "target.no-user-folder" (LOCALAPPDATA and USERPROFILE unknown), "target.app-path".
Expected<InstallTarget> targetFromSpec(const QString &spec, std::optional<PathScope> pathScope,
                                       const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                       const SystemContext &context,
                                       const KnowledgeBase &kb = KnowledgeBase::embedded());
// The target the wizard proposes: the toolkit of the archive's CUDA major that the match chose,
// else its own folder with the system PATH.
InstallTarget defaultTarget(const SystemSnapshot &snapshot, const ArchiveReport &archive,
                            const SystemContext &context,
                            const KnowledgeBase &kb = KnowledgeBase::embedded());

} // namespace cudnnsetup
