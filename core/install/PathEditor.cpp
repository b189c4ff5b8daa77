#include "install/PathEditor.h"

#include "platform/EnvironmentStore.h"

#include <algorithm>

#include <QRegularExpression>
#include <QSet>

namespace cudnnsetup {

namespace {

// "12" matches every 12.x, "12.4" only 12.4.
bool versionMatches(const QString &version, const QString &wanted)
{
    const QStringList have = version.split(QLatin1Char('.'));
    const QStringList want = wanted.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    if (want.isEmpty())
        return true;
    for (qsizetype i = 0; i < want.size(); ++i) {
        if (i >= have.size() || have.at(i).toInt() != want.at(i).toInt())
            return false;
    }
    return true;
}

Finding changedError(const QString &details)
{
    return Finding::error(QStringLiteral("path.changed"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "PATH changed after it was examined, so the "
                                                               "planned changes were not made.")),
                          details,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check PATH again, then repeat the step.")));
}

} // namespace

QJsonObject PathFix::toJson() const
{
    return {{QStringLiteral("action"), action == Action::MoveBehindOurs ? QStringLiteral("move-behind-ours")
                                                                        : QStringLiteral("remove")},
            {QStringLiteral("index"), index},
            {QStringLiteral("entry"), entry}};
}

std::optional<PathFix> PathFix::fromJson(const QJsonObject &object)
{
    PathFix fix;
    const QString action = object.value(QStringLiteral("action")).toString();
    if (action == QLatin1String("move-behind-ours"))
        fix.action = Action::MoveBehindOurs;
    else if (action != QLatin1String("remove"))
        return std::nullopt;
    fix.index = object.value(QStringLiteral("index")).toInt(-1); // -1 also for a fraction
    fix.entry = object.value(QStringLiteral("entry")).toString();
    if (fix.index < 0 || fix.entry.isEmpty())
        return std::nullopt;
    return fix;
}

PathEditor::PathEditor(OsFamily family, Lookup lookup)
    : m_paths(family)
    , m_lookup(std::move(lookup))
{
}

QStringList PathEditor::split(const QString &raw) const
{
    QStringList pieces;
    if (raw.isEmpty())
        return pieces;
    if (!m_paths.isWindows())
        return raw.split(QLatin1Char(':'), Qt::KeepEmptyParts);
    QString current;
    bool quoted = false;
    for (const QChar c : raw) {
        if (c == QLatin1Char('"'))
            quoted = !quoted;
        if (c == QLatin1Char(';') && !quoted) {
            pieces.append(current);
            current.clear();
        } else {
            current.append(c);
        }
    }
    pieces.append(current);
    return pieces;
}

PathEditor PathEditor::forStoredPath(OsFamily family, EnvironmentScope scope,
                                     const PersistentEnvironment &stored, Lookup session)
{
    const auto read = [&stored](EnvironmentScope where, const QString &name) -> std::optional<QString> {
        const auto value = stored.read(where, name);
        return value && value->has_value() ? std::optional(value->value().text) : std::nullopt;
    };
    return PathEditor(family, [scope, read, session = std::move(session)](const QString &name) {
        return storedVariable(scope, name, read, session);
    });
}

QString PathEditor::join(const QStringList &entries) const
{
    return entries.join(separator());
}

QString PathEditor::expanded(const QString &entry) const
{
    const auto lookup = [this](const QString &name) { return m_lookup ? m_lookup(name) : QString(); };
    QString folder = m_paths.expandVariables(entry, lookup);
    if (m_paths.isWindows()) {
        // Windows drops the quotes of a quoted entry, wherever they are ("C:\a;b", C:\"x y"\bin).
        folder.remove(QLatin1Char('"'));
        folder = folder.trimmed();
    }
    return folder;
}

QString PathEditor::normalise(const QString &entry) const
{
    const QString folder = expanded(entry);
    if (folder.isEmpty())
        return {};
    QString key = m_paths.normalize(folder); // Windows: '/' -> '\', no trailing '\'
    if (key.isEmpty())
        key = folder; // "." and the like: compared as written
    return m_paths.isWindows() ? key.toLower() : key;
}

bool PathEditor::sameEntry(const QString &a, const QString &b) const
{
    const QString key = normalise(a);
    return !key.isEmpty() && key == normalise(b);
}

int PathEditor::indexOf(const QString &raw, const QString &entry) const
{
    const QString key = normalise(entry);
    if (key.isEmpty())
        return -1;
    const QStringList pieces = split(raw);
    for (int i = 0; i < pieces.size(); ++i) {
        if (normalise(pieces.at(i)) == key)
            return i;
    }
    return -1;
}

QString PathEditor::written(const QString &entry) const
{
    if (m_paths.isWindows() && entry.contains(QLatin1Char(';')))
        return QLatin1Char('"') + entry + QLatin1Char('"');
    return entry;
}

Expected<QString> PathEditor::withEntry(const QString &raw, const QString &entry, Position position) const
{
    QString bad;
    if (entry.trimmed().isEmpty())
        bad = QStringLiteral("(empty)");
    else if (entry.contains(QChar(0)))
        bad = QStringLiteral("NUL");
    else if (m_paths.isWindows() && entry.contains(QLatin1Char('"')))
        bad = QStringLiteral("\"");
    else if (!m_paths.isWindows() && entry.contains(QLatin1Char(':')))
        bad = QStringLiteral(":");
    if (!bad.isEmpty()) {
        return Finding::error(
            QStringLiteral("path.entry-invalid"),
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "The folder %1 cannot be put on PATH: its name contains %2."))
                .arg(entry, bad),
            QStringLiteral("PATH separator %1").arg(separator()),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder whose name does not contain %1."))
                .arg(bad));
    }
    if (indexOf(raw, entry) >= 0)
        return raw;
    QStringList pieces = split(raw);
    if (position == Position::Front) {
        pieces.prepend(written(entry));
    } else if (m_paths.isWindows() && pieces.size() > 1 && pieces.last().isEmpty()) {
        pieces.insert(pieces.size() - 1, written(entry)); // "a;b;" -> "a;b;c;": the trailing ';' stays
    } else {
        // On Linux an empty last entry is the current directory and stays where it is.
        pieces.append(written(entry));
    }
    return join(pieces);
}

QString PathEditor::withoutEntry(const QString &raw, const QString &entry) const
{
    const QString key = normalise(entry);
    if (key.isEmpty())
        return raw;
    QStringList pieces = split(raw);
    const qsizetype before = pieces.size();
    pieces.erase(std::remove_if(pieces.begin(), pieces.end(),
                                [&](const QString &piece) { return normalise(piece) == key; }),
                 pieces.end());
    return pieces.size() == before ? raw : join(pieces);
}

QString PathEditor::cudaBinVersion(const QString &folder) const
{
    if (m_paths.isWindows()) {
        static const QRegularExpression windows(
            QStringLiteral("(?:^|\\\\)CUDA\\\\v(\\d+)\\.(\\d+)\\\\bin(?:\\\\x64)?\\\\*$"),
            QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch match =
            windows.match(QString(folder).replace(QLatin1Char('/'), QLatin1Char('\\')));
        return match.hasMatch() ? match.captured(1) + QLatin1Char('.') + match.captured(2) : QString();
    }
    static const QRegularExpression linux(QStringLiteral("(?:^|/)cuda-(\\d+)\\.(\\d+)/bin/*$"));
    const QRegularExpressionMatch match = linux.match(folder);
    return match.hasMatch() ? match.captured(1) + QLatin1Char('.') + match.captured(2) : QString();
}

PathAnalysis PathEditor::analyse(const QString &raw, const QString &ourEntry, const FolderTest &isCudnnFolder,
                                 Position position, const QString &cudaVersion) const
{
    PathAnalysis analysis;
    analysis.entries = split(raw);
    const QString ourKey = normalise(ourEntry);
    analysis.ourIndex = ourKey.isEmpty() ? -1 : indexOf(raw, ourEntry);
    analysis.needsAdding = analysis.ourIndex < 0;
    // Where ours is, or would be once added: entries before it shadow it.
    const int ourPlace = analysis.ourIndex >= 0        ? analysis.ourIndex
                         : position == Position::Front ? -1
                                                       : int(analysis.entries.size());
    const QString wantedCuda = cudaVersion.isEmpty() ? cudaBinVersion(expanded(ourEntry)) : cudaVersion;

    for (int i = 0; i < analysis.entries.size(); ++i) {
        const QString &entry = analysis.entries.at(i);
        const QString key = normalise(entry);
        if (key.isEmpty() || i == analysis.ourIndex)
            continue;
        PathProblem problem;
        problem.index = i;
        problem.entry = entry;
        problem.folder = expanded(entry);
        problem.beforeOurs = i < ourPlace;
        const PathFix remove{PathFix::Action::Remove, i, entry};
        const PathFix move{PathFix::Action::MoveBehindOurs, i, entry};

        if (key == ourKey) {
            problem.kind = PathProblem::Kind::Duplicate;
            problem.finding = Finding::info(
                QStringLiteral("path.duplicate"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 is on PATH more than once; only the first one counts."))
                    .arg(entry),
                QStringLiteral("entry %1, first at %2").arg(i).arg(analysis.ourIndex),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove the later copy.")));
            problem.fixes = {remove};
            analysis.recommended.append(remove);
            analysis.problems.append(problem);
            continue;
        }

        if (isCudnnFolder && isCudnnFolder(problem.folder)) {
            problem.kind = PathProblem::Kind::OtherCudnn;
        } else {
            problem.cudaVersion = wantedCuda.isEmpty() ? QString() : cudaBinVersion(problem.folder);
            if (problem.cudaVersion.isEmpty() || versionMatches(problem.cudaVersion, wantedCuda))
                continue;
            problem.kind = PathProblem::Kind::OtherCudaBin;
        }

        const QString details =
            QStringLiteral("entry %1 (%2), ours %3%4")
                .arg(i)
                .arg(problem.folder, ourEntry,
                     analysis.ourIndex >= 0 ? QStringLiteral(" at %1").arg(analysis.ourIndex)
                                            : QStringLiteral(" not on PATH yet"));
        const bool cudnn = problem.kind == PathProblem::Kind::OtherCudnn;
        if (problem.beforeOurs) {
            const Text message =
                cudnn ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "%1 holds another cuDNN and comes before %2 on "
                                               "PATH, so programs would load that cuDNN instead."))
                            .arg(entry, ourEntry)
                      : Text(QT_TRANSLATE_NOOP(
                                 "cudnnsetup",
                                 "%1 is the bin folder of CUDA %2 and comes before %3 on PATH, so "
                                 "programs may load that toolkit's libraries instead."))
                            .arg(entry, problem.cudaVersion, ourEntry);
            problem.finding = Finding::warning(
                cudnn ? QStringLiteral("path.shadowing-cudnn") : QStringLiteral("path.shadowing-cuda"),
                message, details,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Move %1 behind %2 on PATH, or remove it from PATH."))
                    .arg(entry, ourEntry));
            problem.fixes = {move, remove};
            analysis.recommended.append(move);
        } else {
            const Text message =
                cudnn ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "%1 holds another cuDNN; it comes after %2 on PATH, "
                                               "so it does not get in the way."))
                            .arg(entry, ourEntry)
                      : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "%1 is the bin folder of CUDA %2; it comes after %3 "
                                               "on PATH, so it does not get in the way."))
                            .arg(entry, problem.cudaVersion, ourEntry);
            problem.finding = Finding::info(
                cudnn ? QStringLiteral("path.stale-cudnn") : QStringLiteral("path.stale-cuda"), message,
                details,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove it from PATH if nothing uses it any more.")));
            problem.fixes = {remove};
        }
        analysis.problems.append(problem);
    }

    const Expected<PathPreview> preview = this->preview(raw, ourEntry, position, analysis.recommended);
    if (preview)
        analysis.preview = preview.value();
    return analysis;
}

Expected<QString> PathEditor::edited(const QString &raw, const QString &ourEntry, Position position,
                                     const QList<PathFix> &fixes) const
{
    const Expected<QString> added = withEntry(raw, ourEntry, position);
    if (!added)
        return added.error();
    const QStringList pieces = split(raw);
    const int ourIndex = indexOf(raw, ourEntry);
    QSet<int> removed;
    QSet<int> moved;
    for (const PathFix &fix : fixes) {
        if (fix.index < 0 || fix.index >= pieces.size() || pieces.at(fix.index) != fix.entry) {
            return changedError(
                QStringLiteral("entry %1 is no longer \"%2\" (%3 entries now)")
                    .arg(QString::number(fix.index), fix.entry, QString::number(pieces.size())));
        }
        if (fix.index == ourIndex)
            continue; // ours stays where it is
        (fix.action == PathFix::Action::Remove ? removed : moved).insert(fix.index);
    }
    moved -= removed; // removing wins over moving

    if (removed.isEmpty() && moved.isEmpty())
        return added;

    QStringList kept;
    QStringList following; // the moved entries, in their old order
    int ourPlace = -1;
    for (int i = 0; i < pieces.size(); ++i) {
        if (removed.contains(i))
            continue;
        if (moved.contains(i)) {
            following.append(pieces.at(i));
            continue;
        }
        if (i == ourIndex)
            ourPlace = int(kept.size());
        kept.append(pieces.at(i));
    }
    if (ourPlace < 0) {
        // Ours is new: put it where withEntry() would.
        const QString entry = written(ourEntry);
        if (position == Position::Front) {
            ourPlace = 0;
        } else if (m_paths.isWindows() && kept.size() > 1 && kept.last().isEmpty()) {
            ourPlace = int(kept.size()) - 1;
        } else {
            ourPlace = int(kept.size());
        }
        kept.insert(ourPlace, entry);
    }
    for (qsizetype i = 0; i < following.size(); ++i)
        kept.insert(ourPlace + 1 + i, following.at(i));
    return join(kept);
}

Expected<PathPreview> PathEditor::preview(const QString &raw, const QString &ourEntry, Position position,
                                          const QList<PathFix> &fixes) const
{
    const Expected<QString> after = edited(raw, ourEntry, position, fixes);
    if (!after)
        return after.error();
    const auto entries = [this](const QString &value) {
        QStringList list = split(value);
        list.removeIf([](const QString &entry) { return entry.trimmed().isEmpty(); });
        return list;
    };
    return PathPreview{entries(raw), entries(after.value())};
}

Findings PathEditor::lengthWarnings(const QString &raw) const
{
    Findings findings;
    if (!m_paths.isWindows())
        return findings;
    const Text fix(QT_TRANSLATE_NOOP("cudnnsetup", "Remove folders that are no longer needed from PATH."));
    if (raw.size() > kMaxVariable) {
        findings.append(Finding::error(
            QStringLiteral("path.too-long"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "PATH would be %1 characters long, more than the %2 characters an "
                                   "environment variable can hold."))
                .arg(raw.size())
                .arg(kMaxVariable),
            QStringLiteral("%1 characters").arg(raw.size()), fix));
    } else if (raw.size() > kLongPath) {
        findings.append(Finding::warning(
            QStringLiteral("path.long"),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "PATH is %1 characters long. The Windows environment variable editor and some "
                     "older tools cut or refuse values longer than %2 characters."))
                .arg(raw.size())
                .arg(kLongPath),
            QStringLiteral("%1 characters").arg(raw.size()), fix));
    }
    return findings;
}

} // namespace cudnnsetup
