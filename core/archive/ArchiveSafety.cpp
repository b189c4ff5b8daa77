#include "archive/ArchiveSafety.h"

#include "archive/EntryNames.h"
#include "archive/ZipSource.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace {

// The most offending names a finding lists in its details.
constexpr int kListedNames = 20;

bool isReservedDeviceName(const QString &component)
{
    // Windows maps these to devices whatever the extension: "nul.txt" is NUL.
    static const QRegularExpression reserved(QStringLiteral("^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|"
                                                            "conin\\$|conout\\$)(\\..*)?$"),
                                             QRegularExpression::CaseInsensitiveOption);
    return reserved.match(component.trimmed()).hasMatch();
}

bool hasReservedCharacter(const QString &component)
{
    return std::any_of(component.cbegin(), component.cend(), [](QChar c) {
        return c.unicode() < 0x20 || c == QLatin1Char('<') || c == QLatin1Char('>') ||
               c == QLatin1Char(':') || c == QLatin1Char('"') || c == QLatin1Char('|') ||
               c == QLatin1Char('?') || c == QLatin1Char('*');
    });
}

QStringList components(const QString &name)
{
    QString path = name;
    path.replace(QLatin1Char('\\'), QLatin1Char('/'));
    if (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    return path.split(QLatin1Char('/'));
}

// Collects the entries that break one rule into one finding.
class Offenders
{
public:
    void add(const QString &name)
    {
        if (m_names.size() < kListedNames)
            m_names.append(name);
        ++m_count;
    }
    bool isEmpty() const { return m_count == 0; }
    QString first() const { return m_names.value(0); }
    QString count() const { return QString::number(m_count); }
    QString details(const QString &rule) const
    {
        return QStringLiteral("%1: %2%3")
            .arg(rule, m_names.join(QStringLiteral(", ")),
                 m_count > m_names.size() ? QStringLiteral(", …") : QString());
    }

private:
    QStringList m_names;
    int m_count = 0;
};

// A tar's symbolic links: each must name, by a bare file name, a file beside it, or another such
// link (a chain, as libcudnn.so -> libcudnn.so.9 -> libcudnn.so.9.1.0), ending at a regular file.
void checkSymlinks(const QList<ZipEntry> &entries, const EntryNames &names, Offenders &outside,
                   Offenders &missing)
{
    QHash<QString, int> byPath;
    for (int i = 0; i < entries.size(); ++i) {
        if (names.at(i).valid && pathProblem(names.at(i).text).isEmpty())
            byPath.insert(safePath(names.at(i).text).path, i);
    }
    for (int i = 0; i < entries.size(); ++i) {
        const ZipEntry &entry = entries.at(i);
        if (!entry.streamed || entry.hardLink || !entry.isSymlink() ||
            !byPath.contains(safePath(names.at(i).text).path))
            continue;
        const QString shown = names.at(i).text;
        QSet<int> seen{i};
        for (int at = i;;) {
            const QString target = QString::fromUtf8(entries.at(at).linkTarget);
            if (target.contains(QLatin1Char('/')) || target.contains(QLatin1Char('\\')) ||
                !pathProblem(target).isEmpty()) {
                outside.add(QStringLiteral("%1 -> %2").arg(shown, target));
                break;
            }
            const QString path = safePath(names.at(at).text).path;
            const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
            const QString named = slash < 0 ? target : path.left(slash + 1) + target;
            const int next = byPath.value(named, -1);
            const ZipEntry *nextEntry = next < 0 ? nullptr : &entries.at(next);
            if (!nextEntry || seen.contains(next) || nextEntry->hardLink || nextEntry->isSpecialFile() ||
                nextEntry->isDirectory()) {
                missing.add(QStringLiteral("%1 -> %2").arg(shown, target));
                break;
            }
            if (!nextEntry->isSymlink())
                break; // a regular file of the archive
            seen.insert(next);
            at = next;
        }
    }
}

QString gib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1LL << 30), 'f', 1);
}

// What the entries break, rule by rule, before it is worded as findings.
struct SafetyOffenders
{
    Offenders unsafePaths;
    Text firstPathProblem;
    Offenders links;
    Offenders linksOut;     // tar: absolute, climbing or into another folder
    Offenders linksMissing; // tar: naming no file of the archive
    Offenders hardLinks;
    Offenders specialFiles;
    Offenders encrypted;
    Offenders methods;
    Offenders badNames;
    Offenders tooLarge;
    Offenders forgedRatio;
    Offenders pastEnd;
    QString collisionA;
    QString collisionB;
    QString overlapA;
    QString overlapB;
};

// The rules one entry keeps or breaks on its own: its kind, its compression, its sizes.
void checkEntry(const ZipEntry &entry, const QString &shown, qint64 archiveSize, const ArchiveLimits &limits,
                SafetyOffenders &found)
{
    if (entry.hardLink)
        found.hardLinks.add(shown);
    else if (entry.isSpecialFile())
        found.specialFiles.add(shown);
    else if (entry.isSymlink() && !entry.streamed)
        found.links.add(shown);
    if (entry.encrypted())
        found.encrypted.add(shown);
    if (entry.method != 0 && entry.method != 8)
        found.methods.add(QStringLiteral("%1 (method %2)").arg(shown).arg(entry.method));
    if (entry.uncompressedSize > limits.maxEntrySize)
        found.tooLarge.add(shown);
    if (entry.method == 8 && entry.uncompressedSize > 0 &&
        double(entry.uncompressedSize) >
            limits.maxDeflateRatio * double(std::max<qint64>(entry.compressedSize, 1)))
        found.forgedRatio.add(shown);
    // An encrypted entry's data starts with the cipher's header (12 bytes for ZipCrypto, more for
    // others): its sizes differ honestly, and it is refused as encrypted.
    if (entry.method == 0 && entry.compressedSize != entry.uncompressedSize && !entry.encrypted())
        found.forgedRatio.add(shown);
    // A tar entry's offset is its place in the unpacked stream, which xz makes longer than the file.
    if (!entry.streamed && (entry.localHeaderOffset < 0 || entry.localHeaderOffset > archiveSize ||
                            entry.compressedSize > archiveSize - entry.localHeaderOffset))
        found.pastEnd.add(shown);
}

// Each entry's name and path, its own rules, and the files and folders two entries would both make.
void scanEntries(const QList<ZipEntry> &entries, const EntryNames &names, qint64 archiveSize,
                 const ArchiveLimits &limits, SafetyOffenders &found)
{
    // Case-folded paths: every file, and every folder an entry makes or needs.
    QHash<QString, QString> files;
    QHash<QString, QString> folders;
    const auto collide = [&](const QString &first, const QString &second) {
        if (found.collisionA.isEmpty()) {
            found.collisionA = first;
            found.collisionB = second;
        }
    };
    for (int i = 0; i < entries.size(); ++i) {
        const ZipEntry &entry = entries.at(i);
        const DecodedName &name = names.at(i);
        const QString shown =
            name.valid ? name.text
                       : QString::fromLatin1(entry.rawName.toHex(' ')).prepend(QStringLiteral("0x "));
        if (!name.valid) {
            found.badNames.add(shown);
            continue;
        }
        if (const Text problem = pathProblem(name.text); !problem.isEmpty()) {
            if (found.unsafePaths.isEmpty())
                found.firstPathProblem = problem;
            found.unsafePaths.add(shown);
            continue;
        }
        checkEntry(entry, shown, archiveSize, limits, found);

        const SafePath path = safePath(name.text);
        const QString key = path.path.toCaseFolded();
        const QStringList parts = key.split(QLatin1Char('/'));
        const auto needFolder = [&](const QString &folder) {
            if (!folders.contains(folder))
                folders.insert(folder, shown); // the first entry that needs it is the one named
        };
        for (int depth = 1; depth < parts.size(); ++depth)
            needFolder(parts.mid(0, depth).join(QLatin1Char('/')));
        // A folder entry may lack the trailing slash and say so in its attributes (DOS, Unix).
        if (path.directory || entry.isDirectory()) {
            needFolder(key);
        } else {
            if (files.contains(key))
                collide(files.value(key), shown);
            files.insert(key, shown);
        }
    }
    for (auto file = files.cbegin(); file != files.cend(); ++file) {
        if (folders.contains(file.key()))
            collide(file.value(), folders.value(file.key()));
    }
}

// Entries whose data overlaps another's: the trick behind non-recursive zip bombs. A tar's
// entries follow one another in its stream.
void findOverlap(const QList<ZipEntry> &entries, const EntryNames &names, SafetyOffenders &found)
{
    QList<const ZipEntry *> byOffset;
    for (const ZipEntry &entry : entries) {
        if (!entry.streamed)
            byOffset.append(&entry);
    }
    std::sort(byOffset.begin(), byOffset.end(), [](const ZipEntry *a, const ZipEntry *b) {
        return a->localHeaderOffset < b->localHeaderOffset;
    });
    for (int i = 1; i < byOffset.size() && found.overlapA.isEmpty(); ++i) {
        const ZipEntry *previous = byOffset.at(i - 1);
        const ZipEntry *next = byOffset.at(i);
        // A local header is 30 bytes plus the name before the data starts.
        const qint64 previousEnd =
            previous->localHeaderOffset + 30 + previous->rawName.size() + previous->compressedSize;
        if (next->localHeaderOffset < previousEnd) {
            found.overlapA = names.at(previous->index).valid ? names.at(previous->index).text
                                                             : QString::fromLatin1(previous->rawName);
            found.overlapB =
                names.at(next->index).valid ? names.at(next->index).text : QString::fromLatin1(next->rawName);
        }
    }
}

// Names, paths and entry kinds no cuDNN archive has.
void appendNameFindings(const SafetyOffenders &found, Findings &findings)
{
    if (!found.unsafePaths.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-path"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Entries of this archive would land outside the target folder or "
                                   "under names Windows cannot create, such as \"%1\" (%2); %3 in "
                                   "all."))
                .arg(found.unsafePaths.first())
                .arg(found.firstPathProblem)
                .arg(found.unsafePaths.count()),
            found.unsafePaths.details(QStringLiteral("unsafe paths"))));
    }
    if (!found.badNames.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-name"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Entry names are marked as UTF-8 but are not valid UTF-8, such "
                                   "as %1; %2 in all."))
                .arg(found.badNames.first(), found.badNames.count()),
            found.badNames.details(QStringLiteral("invalid UTF-8 names"))));
    }
    if (!found.links.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-symlink"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive holds symbolic links, such as \"%1\" (%2 in all). A "
                                   "cuDNN archive for Windows has none, and a link can point outside "
                                   "the target folder."))
                .arg(found.links.first(), found.links.count()),
            found.links.details(QStringLiteral("symbolic links"))));
    }
    if (!found.linksOut.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-link"),
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup",
                                  "The symbolic link \"%1\" points outside its own folder (%2 in all): "
                                  "NVIDIA's links name a file beside them, and a link that leaves its folder "
                                  "can reach any file of the system."))
                .arg(found.linksOut.first(), found.linksOut.count()),
            found.linksOut.details(
                QStringLiteral("links that are absolute, climb or enter another folder"))));
    }
    if (!found.linksMissing.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-link-missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The symbolic link \"%1\" names no file of the archive (%2 in all): it "
                                   "would point at whatever is there, or at nothing."))
                .arg(found.linksMissing.first(), found.linksMissing.count()),
            found.linksMissing.details(QStringLiteral("links to no regular file of the archive"))));
    }
    if (!found.hardLinks.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-hardlink"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive holds hard links, such as \"%1\" (%2 in all). NVIDIA's "
                                   "archives have none, and a hard link can stand for a file outside the "
                                   "target folder."))
                .arg(found.hardLinks.first(), found.hardLinks.count()),
            found.hardLinks.details(QStringLiteral("hard links"))));
    }
    if (!found.specialFiles.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-special"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive holds devices or pipes, such as \"%1\" (%2 in all); a "
                                   "cuDNN archive holds only files, folders and links."))
                .arg(found.specialFiles.first(), found.specialFiles.count()),
            found.specialFiles.details(QStringLiteral("devices, fifos, sockets"))));
    }
}

// Encryption, compression methods and two entries that would be one file.
void appendContentFindings(const SafetyOffenders &found, Findings &findings)
{
    if (!found.encrypted.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-encrypted"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive has encrypted entries, such as \"%1\" (%2 in all); "
                                   "NVIDIA's archives are not encrypted."))
                .arg(found.encrypted.first(), found.encrypted.count()),
            found.encrypted.details(QStringLiteral("encrypted"))));
    }
    if (!found.methods.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-method"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive compresses \"%1\" with a method other than stored or "
                                   "deflated (%2 in all); NVIDIA's archives use only those."))
                .arg(found.methods.first(), found.methods.count()),
            found.methods.details(QStringLiteral("compression methods"))));
    }
    if (!found.collisionA.isEmpty()) {
        const auto bare = [](QString name) {
            while (name.endsWith(QLatin1Char('/')))
                name.chop(1);
            return name;
        };
        // Case plays a part only where the names differ in it.
        const bool sameName = bare(found.collisionA) == bare(found.collisionB);
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-duplicate"),
            sameName
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "\"%1\" is in the archive twice (as a file and as a "
                                                       "folder, or as two files): one would overwrite the "
                                                       "other."))
                      .arg(bare(found.collisionA))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "\"%1\" and \"%2\" would be the same file or folder on Windows, "
                                         "which ignores case: one would overwrite the other."))
                      .arg(found.collisionA, found.collisionB),
            sameName ? QStringLiteral("the same name twice") : QStringLiteral("case-insensitive collision")));
    }
}

// Sizes beyond any cuDNN archive's, forged or overlapping data, data past the end of the file.
void appendSizeFindings(const SafetyOffenders &found, const QList<ZipEntry> &entries, qint64 archiveSize,
                        const ArchiveLimits &limits, Findings &findings)
{
    const qint64 total = declaredUnpackedSize(entries);
    if (!found.tooLarge.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-size"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "\"%1\" declares more than %2 GB, far more than any cuDNN file "
                                   "(%3 in all)."))
                .arg(found.tooLarge.first(), gib(limits.maxEntrySize), found.tooLarge.count()),
            found.tooLarge.details(QStringLiteral("entries above the size limit"))));
    }
    if (total > limits.maxTotalSize || entries.size() > limits.maxEntries) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-size"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive declares %1 entries and %2 GB when unpacked, beyond "
                                   "the %3 entries and %4 GB any cuDNN archive stays within."))
                .arg(QString::number(entries.size()), gib(total), QString::number(limits.maxEntries),
                     gib(limits.maxTotalSize)),
            QStringLiteral("total %1 bytes").arg(total)));
    }
    if (total > limits.ratioCheckedAbove && double(total) > limits.maxOverallRatio * double(archiveSize)) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-ratio"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The archive would unpack to %1 GB from a file of %2 MB, more than %3 "
                                   "times its size: cuDNN does not compress that well, zip bombs do."))
                .arg(gib(total), QString::number(archiveSize / (1 << 20)),
                     QString::number(limits.maxOverallRatio)),
            QStringLiteral("total %1 bytes from %2").arg(total).arg(archiveSize)));
    }
    if (!found.forgedRatio.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-ratio"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The sizes declared for \"%1\" are impossible for its compression "
                                   "(%2 in all): the archive is forged, as zip bombs are."))
                .arg(found.forgedRatio.first(), found.forgedRatio.count()),
            found.forgedRatio.details(QStringLiteral("impossible size ratio"))));
    }
    if (!found.overlapA.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.unsafe-overlap"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The data of \"%1\" and \"%2\" overlap in the file, a trick of zip "
                                   "bombs; no honest archive does that."))
                .arg(found.overlapA, found.overlapB),
            QStringLiteral("overlapping local data")));
    }
    if (!found.pastEnd.isEmpty()) {
        findings.append(Finding::error(
            QStringLiteral("archive.truncated"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The data of \"%1\" runs past the end of the file (%2 in all): the "
                                   "download is incomplete or damaged."))
                .arg(found.pastEnd.first(), found.pastEnd.count()),
            found.pastEnd.details(QStringLiteral("past the end"))));
    }
}

} // namespace

Text pathProblem(const QString &name)
{
    if (name.isEmpty())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "an empty name"));
    const QString slashed = QString(name).replace(QLatin1Char('\\'), QLatin1Char('/'));
    if (slashed.startsWith(QLatin1String("//")))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a network or device path"));
    if (slashed.startsWith(QLatin1Char('/')))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "an absolute path"));
    if (slashed.size() >= 2 && slashed.at(1) == QLatin1Char(':') && slashed.at(0).isLetter())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a drive letter"));
    const QStringList parts = components(name);
    for (const QString &part : parts) {
        if (part.isEmpty())
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "an empty folder name"));
        if (part == QLatin1String(".") || part == QLatin1String(".."))
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a \".\" or \"..\" folder"));
        if (hasReservedCharacter(part))
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a character Windows does not allow in names"));
        if (isReservedDeviceName(part))
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a name Windows reserves for a device"));
        if (part.endsWith(QLatin1Char('.')) || part.endsWith(QLatin1Char(' ')))
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "a name ending in a dot or a space"));
    }
    return {};
}

SafePath safePath(const QString &name)
{
    const QString slashed = QString(name).replace(QLatin1Char('\\'), QLatin1Char('/'));
    return {components(name).join(QLatin1Char('/')), slashed.endsWith(QLatin1Char('/'))};
}

ArchiveLimits ArchiveLimits::forLargestArchive(qint64 largestArchiveBytes)
{
    ArchiveLimits limits;
    if (largestArchiveBytes > 0) {
        // A database that knows only small archives (a lab's own, a test's) does not shrink the
        // limits below what a quarter-gigabyte download needs.
        const qint64 largest = std::max<qint64>(largestArchiveBytes, 256LL << 20);
        limits.maxEntrySize = 3 * largest;
        limits.maxTotalSize = 4 * largest;
    }
    return limits;
}

Findings archiveSafetyProblems(const QList<ZipEntry> &entries, const EntryNames &names, qint64 archiveSize,
                               const ArchiveLimits &limits)
{
    SafetyOffenders found;
    scanEntries(entries, names, archiveSize, limits, found);
    checkSymlinks(entries, names, found.linksOut, found.linksMissing);
    findOverlap(entries, names, found);

    Findings findings;
    appendNameFindings(found, findings);
    appendContentFindings(found, findings);
    appendSizeFindings(found, entries, archiveSize, limits, findings);
    return findings;
}

} // namespace cudnnsetup
