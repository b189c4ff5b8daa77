#include "install/FilePlacement.h"

#include "common/Logging.h"
#include "detect/VersionParsers.h"
#include "install/TargetPaths.h"

#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace {

bool isLicence(const ArchiveFile &file, const ArchiveReport &archive)
{
    if (file.kind != ArchiveFile::Kind::Other)
        return false;
    const qsizetype slash = file.path.lastIndexOf(QLatin1Char('/'));
    const QString folderName = slash < 0 ? QString() : file.path.left(slash);
    const QString name = file.path.mid(slash + 1);
    // Beside the archive's top folder's contents, or at the top (the cuda\-rooted zips up to 8.2).
    const bool top = folderName.isEmpty() || folderName == archive.layout.root;
    if (!top)
        return false;
    return name.compare(QLatin1String("LICENSE"), Qt::CaseInsensitive) == 0 ||
           name.compare(QLatin1String("LICENSE.txt"), Qt::CaseInsensitive) == 0 ||
           (name.startsWith(QLatin1String("NVIDIA_SLA"), Qt::CaseInsensitive) &&
            name.endsWith(QLatin1String(".txt"), Qt::CaseInsensitive));
}

} // namespace

QList<PlannedFile> placeFiles(const ArchiveReport &archive, const InstallTarget &target)
{
    const SystemPaths paths(target.family);
    QList<PlannedFile> planned;
    QSet<QString> destinations;
    // Beside one program only what it loads: no headers, import libraries or licence among its files.
    const bool librariesOnly = target.kind == InstallTarget::Kind::App;
    bool licencePlaced = librariesOnly;
    QList<const ArchiveFile *> links;
    for (const ArchiveFile &file : archive.files) {
        if (!file.linkTarget.isEmpty()) {
            links.append(&file);
            continue;
        }
        const QString name = file.path.mid(file.path.lastIndexOf(QLatin1Char('/')) + 1);
        const bool library =
            file.kind == ArchiveFile::Kind::Library || file.kind == ArchiveFile::Kind::OtherDll;
        if (librariesOnly && !library)
            continue;
        QString destination;
        switch (file.kind) {
        case ArchiveFile::Kind::Library:
        case ArchiveFile::Kind::OtherDll:
            // Beside a Linux program nothing runs ldconfig to make the soname links it loads by:
            // each library goes there under its soname.
            destination = paths.join(target.dllFolder(), librariesOnly && target.family == OsFamily::Linux
                                                             ? versions::sonameOf(name)
                                                             : name);
            break;
        case ArchiveFile::Kind::Header:
            destination = paths.join(target.pathOf(target.includeFolder), name);
            break;
        case ArchiveFile::Kind::ImportLibrary:
            destination = paths.join(target.pathOf(target.libFolder), name);
            break;
        case ArchiveFile::Kind::Other:
            if (!licencePlaced && isLicence(file, archive)) {
                destination =
                    paths.join(target.dllFolder(), QString::fromLatin1(InstallTarget::kLicenseFile));
                licencePlaced = true;
            }
            break;
        }
        if (destination.isEmpty())
            continue;
        const QString key = targetpaths::foldedKey(paths, destination);
        if (destinations.contains(key)) {
            qCWarning(lcInstall) << "two archive files would both be installed as" << destination
                                 << "; kept the first,"
                                 << "skipped" << file.path;
            continue;
        }
        destinations.insert(key);
        PlannedFile placed;
        placed.archivePath = file.path;
        placed.entry = file.entry;
        placed.destination = destination;
        placed.kind = file.kind;
        placed.size = file.size;
        planned.append(placed);
    }
    // Links after the files, chains link by link: libcudnn.so -> libcudnn.so.9 -> libcudnn.so.9.1.0.
    for (bool progress = true; progress && !links.isEmpty();) {
        progress = false;
        for (auto link = links.begin(); link != links.end();) {
            const ArchiveFile &file = **link;
            const QString named =
                file.path.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/') + file.linkTarget;
            const auto target =
                std::find_if(planned.cbegin(), planned.cend(),
                             [&](const PlannedFile &placed) { return placed.archivePath == named; });
            if (target == planned.cend()) {
                ++link;
                continue;
            }
            const QString destination =
                paths.join(paths.parent(target->destination), file.path.section(QLatin1Char('/'), -1));
            const QString key = targetpaths::foldedKey(paths, destination);
            if (!destinations.contains(key)) {
                destinations.insert(key);
                PlannedFile placed;
                placed.archivePath = file.path;
                placed.entry = file.entry;
                placed.destination = destination;
                placed.kind = file.kind;
                placed.linkTarget = file.linkTarget;
                planned.append(placed);
            }
            link = links.erase(link);
            progress = true;
        }
    }
    for (const ArchiveFile *file : std::as_const(links))
        qCInfo(lcInstall) << "not installed: the link" << file->path << "names" << file->linkTarget
                          << ", which is not installed";
    return planned;
}

QByteArray venvPthContent(const QString &dllFolder)
{
    // A Python string literal of pure ASCII: escapes for the quote, the backslash, control
    // characters and everything beyond ASCII (\u for the BMP, \U beyond it).
    QByteArray literal = "'";
    for (const char32_t c : dllFolder.toUcs4()) {
        if (c == U'\\')
            literal += "\\\\";
        else if (c == U'\'')
            literal += "\\'";
        else if (c < 0x20 || c == 0x7f)
            literal += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0')).toLatin1();
        else if (c < 0x80)
            literal += char(c);
        else if (c <= 0xffff)
            literal += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0')).toLatin1();
        else
            literal += QStringLiteral("\\U%1").arg(uint(c), 8, 16, QLatin1Char('0')).toLatin1();
    }
    literal += "'";
    // site.py executes a .pth line that starts with "import " in its own scope, so the line names
    // the folder twice rather than keeping it in a variable; add_dll_directory exists on Windows
    // only, and raises for a folder that is gone.
    return "import os; hasattr(os, 'add_dll_directory') and os.path.isdir(" + literal +
           ") and os.add_dll_directory(" + literal + ")\n";
}

qint64 requiredBytes(const ArchiveReport &archive, const QList<PlannedFile> &planned)
{
    qint64 unpacked = 0;
    for (const PlannedFile &file : planned)
        unpacked += file.size;
    return std::max(2 * archive.size, unpacked);
}

} // namespace cudnnsetup
