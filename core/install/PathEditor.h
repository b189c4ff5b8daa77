#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemPaths.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace cudnnsetup {

// One change the analysis offers; nothing is applied until the caller passes it to
// PathEditor::edited(). `index` counts the entries of PathEditor::split() of the analysed value.
struct PathFix
{
    enum class Action
    {
        Remove,         // take the entry out of PATH
        MoveBehindOurs, // put it right after our entry, so it no longer comes first
    };
    Action action = Action::Remove;
    int index = -1;
    QString entry; // as written, to show it and to notice a PATH that changed since the analysis

    bool operator==(const PathFix &other) const
    {
        return action == other.action && index == other.index && entry == other.entry;
    }

    // {"action": "remove" or "move-behind-ours", "index", "entry"}: how a plan and a journal keep it.
    QJsonObject toJson() const;
    // nullopt unless every part has its shape: a known action, an index from 0, an entry.
    static std::optional<PathFix> fromJson(const QJsonObject &object);
};

// An entry of PATH that works against ours.
struct PathProblem
{
    enum class Kind
    {
        Duplicate,    // our entry again (only the first one counts)
        OtherCudnn,   // a folder that holds another cuDNN
        OtherCudaBin, // the bin folder of another CUDA toolkit version
    };
    Kind kind = Kind::Duplicate;
    int index = -1;
    QString entry;           // as written
    QString folder;          // expanded, unquoted: the folder Windows searches
    QString cudaVersion;     // OtherCudaBin: "11.8"
    bool beforeOurs = false; // comes first, so it shadows ours
    Finding finding;         // what to tell the user ("path.*")
    QList<PathFix> fixes;    // the alternatives, the recommended one first
};

// PATH as a list of entries, before and after the recommended changes, for the Target page.
// Empty entries are left out of both.
struct PathPreview
{
    QStringList before;
    QStringList after;
};

struct PathAnalysis
{
    QStringList entries;     // PathEditor::split() of the analysed value
    int ourIndex = -1;       // our entry's first occurrence; -1: not there yet
    bool needsAdding = true; // ours is not on PATH yet
    QList<PathProblem> problems;
    QList<PathFix> recommended; // the first fix of every problem that has one worth doing
    PathPreview preview;        // ours added where asked and the recommended fixes applied
};

// Edits a raw PATH value as stored (REG_EXPAND_SZ text with %VARS%, quotes, empty entries) by pure
// string functions: entries that are not touched keep every character, the separators between them
// included. Windows: ';' separates, an entry may be quoted to hold ';', names ignore case. Linux:
// ':' separates, nothing is quoted, an empty entry is the current directory and stays.
class PathEditor final
{
public:
    enum class Position
    {
        Front,
        Back,
    };
    // A variable's value, or a null QString when it is unknown (then %NAME% stays as written).
    using Lookup = std::function<QString(const QString &)>;
    // Whether a folder (expanded, the system's own form) holds a cuDNN other than ours.
    using FolderTest = std::function<bool(const QString &)>;

    explicit PathEditor(OsFamily family, Lookup lookup = {});
    // The editor of `scope`'s stored PATH, its %VARS% expanded as Windows builds a new program's
    // environment: the stored values `scope` sees (the user's own first, then the machine's; a
    // machine value sees machine variables only), then the session's own (SystemRoot,
    // USERPROFILE), which are not stored and which `session` tells. The one expansion the Target
    // page's preview, the install and the doctor all use; `stored` must outlive the editor.
    static PathEditor forStoredPath(OsFamily family, EnvironmentScope scope,
                                    const PersistentEnvironment &stored, Lookup session);

    OsFamily family() const { return m_paths.family(); }
    QChar separator() const { return m_paths.listSeparator(); }

    // Every piece between separators, as written: join(split(raw)) == raw for every raw. An empty
    // value has no entries; ";" has two empty ones. An unclosed quote runs to the end.
    QStringList split(const QString &raw) const;
    QString join(const QStringList &entries) const;

    // The folder an entry names: %VARS% expanded through the lookup (Windows; $VARS on Linux),
    // quotes removed and surrounding spaces trimmed (Windows). Case and separators as written.
    QString expanded(const QString &entry) const;
    // The entry's comparison key, never to be written back: expanded(), then Windows: '/' -> '\',
    // repeated separators, "." and ".." resolved, no trailing '\' (but "C:\"), lower case; Linux:
    // cleaned, no trailing '/'. Empty for an empty entry.
    QString normalise(const QString &entry) const;
    bool sameEntry(const QString &a, const QString &b) const;
    int indexOf(const QString &raw, const QString &entry) const; // first equal entry, or -1

    // `raw` with `entry` added at the front or at the back (on Windows before a trailing ';'), or
    // unchanged when an equal entry is already there. A Windows entry holding ';' is written
    // quoted. Error "path.entry-invalid" for an empty entry or one PATH cannot hold (Windows: '"';
    // Linux: ':').
    Expected<QString> withEntry(const QString &raw, const QString &entry, Position position) const;
    // `raw` without the entries equal to `entry`, each with one separator; nothing else changes.
    // withoutEntry(withEntry(raw, e, p), e) == raw when e was not on PATH.
    QString withoutEntry(const QString &raw, const QString &entry) const;

    // Duplicates of our entry and stale entries (another cuDNN, another CUDA version's bin) and
    // which of them come before ours, with the fixes it offers; applies nothing. `position` is
    // where ours would go when it is not there yet. `cudaVersion` ("12", "12.4") says which CUDA
    // ours is for; empty: taken from ours when it is a CUDA bin, otherwise no CUDA bin is stale.
    PathAnalysis analyse(const QString &raw, const QString &ourEntry, const FolderTest &isCudnnFolder,
                         Position position = Position::Front, const QString &cudaVersion = {}) const;
    // `raw` with ours added (when missing) at `position` and the chosen fixes applied: removed
    // entries go, moved ones follow ours in their old order. Every untouched entry keeps its text.
    // Error "path.changed" when a fix's entry is no longer at its index.
    Expected<QString> edited(const QString &raw, const QString &ourEntry, Position position,
                             const QList<PathFix> &fixes) const;
    Expected<PathPreview> preview(const QString &raw, const QString &ourEntry, Position position,
                                  const QList<PathFix> &fixes) const;

    // Windows: "path.long" (warning) above 2,047 characters, where Windows' own editor and older
    // tools cut PATH; "path.too-long" (error) above 32,767, the most an environment variable
    // holds. Nothing on Linux.
    Findings lengthWarnings(const QString &raw) const;
    static constexpr int kLongPath = 2047;
    static constexpr int kMaxVariable = 32767;

    // The CUDA version of a toolkit's bin folder ("...\CUDA\v12.4\bin", "...\bin\x64",
    // "/usr/local/cuda-12.4/bin"), or an empty string.
    QString cudaBinVersion(const QString &folder) const;

private:
    QString written(const QString &entry) const; // quoted where needed

    SystemPaths m_paths;
    Lookup m_lookup;
};

} // namespace cudnnsetup
