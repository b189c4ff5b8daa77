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

// A target as it is chosen, before this machine resolves it into folders: its kind and what names
// the place. --target spells it "cuda" (the toolkit the match chose), "cuda:12.4" (the newest
// installed toolkit whose version starts so), "dir:PATH", "dir" (the default own folder), "user",
// "user:PATH", "conda:NAME-OR-PATH" (an env's folder name as `conda env list` shows it, "base", or
// its path), "venv:PATH", "app:FOLDER" (one program's folder: its libraries only, beside the
// program, never on PATH). Kind names ignore case.
struct TargetSelection
{
    InstallTarget::Kind kind = InstallTarget::Kind::Folder;
    // What follows the kind's colon, trimmed: a folder (dir, user, venv, app), an env's name or
    // folder (conda), a toolkit version (cuda); nullopt: the kind's own (dir and user: the default
    // folder; cuda: the toolkit the match chose). A relative folder is kept (checkTarget reports it).
    std::optional<QString> value;

    // The one reader of --target text (cudnnctl, answer files): "target.unknown-kind" for a kind
    // that is none, or conda, venv or app without a value.
    static Expected<TargetSelection> parse(const QString &text);
    // The selection that names `target` again: its toolkit's version, or its folder.
    static TargetSelection of(const InstallTarget &target);
    QString text() const; // as --target spells it
};

// `selection` resolved on this machine into folders. `pathScope` is --path; nullopt takes the
// kind's own: none for a toolkit (CUDA's installer put its bin on PATH), a conda env, a venv and an
// app folder, the system PATH for "dir", the user PATH for "user". Errors: "target.no-toolkit",
// "target.no-conda-env", "target.not-a-venv", "target.no-user-folder" (LOCALAPPDATA and USERPROFILE
// unknown), "target.app-path" (an app folder with a PATH scope other than none).
Expected<InstallTarget> resolveTarget(const TargetSelection &selection, std::optional<PathScope> pathScope,
                                      const SystemSnapshot &snapshot, const ArchiveReport &archive,
                                      const SystemContext &context,
                                      const KnowledgeBase &kb = KnowledgeBase::embedded());
// TargetSelection::parse(spec), then resolveTarget.
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
