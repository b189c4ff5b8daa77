#include "verify/ReleaseMix.h"

#include "binary/PeReader.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QMap>

namespace cudnnsetup {

QList<LibraryRelease> libraryReleases(const SystemContext &context, const QString &directory,
                                      const QStringList &libraries)
{
    const SystemPaths &paths = context.paths();
    const FileSystem &files = context.files();
    QList<LibraryRelease> releases;
    QStringList seen;
    for (const QString &name : libraries) {
        const QString path = paths.join(directory, name);
        Version version;
        QString file = path;
        if (context.family() == OsFamily::Windows) {
            const Expected<PeInfo> pe = pe::readFile(files.toHost(path));
            if (pe && pe->fileVersion.isValid())
                version = pe->fileVersion.truncated(3);
        } else {
            // A soname and its development link lead to the file whose name has the full version.
            const QString canonical = files.canonical(path);
            if (!canonical.isEmpty())
                file = canonical;
            const Version named = versions::fromCudnnLibraryName(paths.fileName(file));
            if (named.size() >= 3)
                version = named.truncated(3);
        }
        if (seen.contains(file, paths.caseSensitivity()))
            continue;
        seen.append(file);
        releases.append({file, version.isValid() ? version.toString() : QString()});
    }
    return releases;
}

std::optional<Finding> mixedReleaseFinding(const QString &directory, const QList<LibraryRelease> &releases)
{
    QMap<QString, QStringList> filesByRelease;
    QStringList lines;
    for (const LibraryRelease &release : releases) {
        if (release.version.isEmpty())
            continue;
        filesByRelease[release.version].append(QDir::toNativeSeparators(release.file));
        lines.append(QStringLiteral("%1 %2").arg(QDir::toNativeSeparators(release.file), release.version));
    }
    if (filesByRelease.size() < 2)
        return std::nullopt;
    QStringList groups;
    for (auto it = filesByRelease.cbegin(); it != filesByRelease.cend(); ++it)
        groups.append(QStringLiteral("%1: %2").arg(it.key(), it.value().join(QStringLiteral(", "))));
    return Finding::error(
        QStringLiteral("verify.cudnn-mixed-releases"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The cuDNN libraries in %1 come from %2 different releases (%3): cuDNN's "
                               "main library cannot use the sub-libraries of another release, so programs "
                               "fail with \"Could not load symbol\" (error 127) or end without a word."))
            .arg(Text::verbatim(QDir::toNativeSeparators(directory)),
                 Text::verbatim(QString::number(filesByRelease.size())),
                 Text::verbatim(groups.join(QStringLiteral("; ")))),
        lines.join(QLatin1Char('\n')),
        Text(
            QT_TRANSLATE_NOOP("cudnnsetup",
                              "Use the libraries of one cuDNN release, all of them: install cuDNN again from "
                              "one complete archive, so that every library in %1 is replaced."))
            .arg(Text::verbatim(QDir::toNativeSeparators(directory))));
}

} // namespace cudnnsetup
