#include "download/ArchiveSource.h"

#include <QDir>
#include <QFileInfo>

namespace cudnnsetup {

QString ArchiveSource::location() const
{
    return kind == Kind::Web ? base.toDisplayString() : QDir::toNativeSeparators(folder);
}

QStringList ArchiveSource::candidatePaths(const QString &relativePath) const
{
    QStringList paths{QDir(folder).filePath(relativePath)};
    const QString alone = QDir(folder).filePath(relativePath.section(QLatin1Char('/'), -1));
    if (!paths.contains(alone))
        paths.append(alone);
    return paths;
}

ArchiveSource ArchiveSource::nvidia()
{
    ArchiveSource source;
    source.base = QUrl(QString::fromLatin1(kNvidiaRedist));
    return source;
}

Expected<ArchiveSource> ArchiveSource::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.compare(QLatin1String("nvidia"), Qt::CaseInsensitive) == 0)
        return nvidia();
    const QUrl url(trimmed, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("http") || scheme == QLatin1String("https")) {
        if (url.host().isEmpty())
            return Finding::error(
                QStringLiteral("download.source-invalid"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The source %1 names no server.")).arg(trimmed));
        ArchiveSource source;
        source.base = url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
        if (!source.base.path().endsWith(QLatin1Char('/')))
            source.base.setPath(source.base.path() + QLatin1Char('/'));
        return source;
    }
    // A drive letter reads as a one-letter scheme; anything else with "://" is a protocol not spoken here.
    if (scheme.size() > 1 && scheme != QLatin1String("file") && trimmed.contains(QLatin1String("://")))
        return Finding::error(
            QStringLiteral("download.source-invalid"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The source %1 is neither a web address nor a folder."))
                .arg(trimmed),
            {},
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup", "Give an http:// or https:// address of a mirror, or a folder or network share "
                              "that holds the archives.")));
    const QString path = scheme == QLatin1String("file") ? url.toLocalFile() : trimmed;
    const QFileInfo info(path);
    if (!info.isDir())
        return Finding::error(
            QStringLiteral("download.source-missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The folder %1 cannot be found."))
                .arg(QDir::toNativeSeparators(path)),
            {},
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check the path, and that the share is reachable from this "
                                                 "computer.")));
    ArchiveSource source;
    source.kind = Kind::Folder;
    source.folder = QDir::cleanPath(info.absoluteFilePath());
    return source;
}

} // namespace cudnnsetup
