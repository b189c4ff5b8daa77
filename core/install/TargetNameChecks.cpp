// The target's path as Windows and its programs take it: names it refuses, lengths they cannot open.
#include "install/TargetChecks.h"

#include "archive/Extractor.h"
#include "common/Finding.h"
#include "common/Text.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "install/TargetCheckFamilies.h"
#include "platform/SystemContext.h"

#include <QChar>
#include <QDir>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace cudnnsetup {

namespace {

// MAX_PATH counts the terminating null: the longest path a program limited by it can open has 259
// characters.
constexpr int kMaxPath = 260;

// The components of `root` below its drive or share, as written (no trimming: Windows strips a
// trailing dot or space, so such a name must be seen).
QStringList nameComponents(const SystemPaths &paths, const QString &root)
{
    QString p = root;
    if (paths.isWindows())
        p.replace(QLatin1Char('/'), QLatin1Char('\\'));
    const QChar separator = paths.isWindows() ? QLatin1Char('\\') : QLatin1Char('/');
    QStringList parts = p.split(separator, Qt::SkipEmptyParts);
    if (paths.isWindows()) {
        if (p.startsWith(QLatin1String("\\\\")))
            parts = parts.mid(2); // server and share
        else if (!parts.isEmpty() && parts.first().size() == 2 && parts.first().at(1) == QLatin1Char(':'))
            parts.removeFirst();
    }
    parts.removeAll(QStringLiteral("."));
    parts.removeAll(QStringLiteral(".."));
    return parts;
}

std::optional<QChar> forbiddenCharacter(const QString &name)
{
    static const QString forbidden = QStringLiteral("<>:\"|?*");
    for (const QChar c : name) {
        if (c.unicode() < 0x20 || forbidden.contains(c))
            return c;
    }
    return std::nullopt;
}

} // namespace

namespace targetchecks {

QString describeCharacter(QChar c)
{
    if (c.category() == QChar::Other_Control)
        return QStringLiteral("U+%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
    return QStringLiteral("\"%1\"").arg(c);
}

// Reserved names and characters Windows refuses; false when the path cannot be used at all.
bool checkNames(const InstallTarget &target, const SystemPaths &paths, Findings &findings)
{
    for (const QString &name : nameComponents(paths, target.root)) {
        if (paths.isReservedName(name)) {
            findings.append(Finding::error(
                QStringLiteral("target.reserved-name"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The name \"%1\" in %2 is reserved by Windows (a device name, "
                                       "or a name ending in a dot or a space)."))
                    .arg(name, target.root),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose another folder name."))));
            return false;
        }
        if (!paths.isWindows())
            continue;
        if (const auto c = forbiddenCharacter(name)) {
            findings.append(Finding::error(
                QStringLiteral("target.invalid-character"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The name \"%1\" in %2 contains %3, which Windows does not "
                                       "allow in file names."))
                    .arg(name, target.root, describeCharacter(*c)),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose another folder name."))));
            return false;
        }
    }
    return true;
}

void checkLength(const InstallTarget &target, const QList<PlannedFile> &planned, Findings &findings)
{
    if (target.family != OsFamily::Windows)
        return;
    QStringList destinations;
    for (const PlannedFile &file : planned)
        destinations.append(file.destination);
    if (!target.pthFile().isEmpty())
        destinations.append(target.pthFile());
    QString longest;
    int tooLong = 0;
    for (const QString &destination : std::as_const(destinations)) {
        if (destination.size() >= kMaxPath)
            ++tooLong;
        if (destination.size() > longest.size())
            longest = destination;
    }
    if (tooLong == 0)
        return;
    findings.append(Finding::error(
        QStringLiteral("target.too-long"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "%1 is too long: its longest file path would have %2 characters, "
                               "and many programs still cannot open paths of %3 characters or more."))
            .arg(target.root)
            .arg(longest.size())
            .arg(kMaxPath),
        QStringLiteral("%1 of %2 paths at %3 characters or more, the longest: %4")
            .arg(tooLong)
            .arg(destinations.size())
            .arg(kMaxPath)
            .arg(longest),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder with a shorter path."))));
}

} // namespace targetchecks

Findings checkWorkingPathLengths(const QList<PlannedFile> &planned, const QString &keptFolder,
                                 const InstallTarget &target, const SystemContext &context)
{
    if (target.family != OsFamily::Windows)
        return {};
    const SystemPaths &paths = context.paths();
    const QString staging = target.stagingFolder();
    QStringList working;
    for (int i = 0; i < planned.size(); ++i) {
        const PlannedFile &file = planned.at(i);
        const QString name = paths.fileName(file.destination);
        working.append(paths.join(staging, stagedPath(i, file.archivePath)));
        // The transaction's backups: <backup folder>\<step>\<name>, a step of up to three digits.
        working.append(paths.join(paths.join(target.backupFolder(), QStringLiteral("999")), name));
        if (context.files().isFile(file.destination))
            working.append(paths.join(keptFolder, keptFileName(i, name)));
    }
    const auto longest =
        std::max_element(working.cbegin(), working.cend(),
                         [](const QString &a, const QString &b) { return a.size() < b.size(); });
    if (longest == working.cend() || longest->size() < kMaxPath)
        return {};
    return {Finding::error(
        QStringLiteral("target.too-long"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "A path the installation works with would have %1 characters, and "
                               "Windows programs cannot all handle paths of %2 characters or more: "
                               "%3."))
            .arg(longest->size())
            .arg(kMaxPath)
            .arg(QDir::toNativeSeparators(*longest)),
        QStringLiteral("staging, backup and kept paths checked: %1").arg(working.size()),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a folder with a shorter path.")))};
}

} // namespace cudnnsetup
