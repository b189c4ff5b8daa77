#include "compat/ArchiveName.h"

#include <QRegularExpression>

namespace cudnnsetup {

QString ArchiveName::canonicalFileName() const
{
    if (!modernNaming)
        return QStringLiteral("cudnn-%1-%2-x64-v%3.%4")
            .arg(cudaVariant, osToken, cudnn.toString(), extension);
    return QStringLiteral("cudnn-%1-%2_cuda%3-archive.%4")
        .arg(platform, cudnn.toString(), cudaVariant, extension);
}

std::optional<ArchiveName> ArchiveName::parse(const QString &fileName)
{
    // Only the name: a folder, a browser's " (1)" copy number and the case are not part of it.
    static const QRegularExpression copyNumber(QStringLiteral("\\s*\\(\\d+\\)(?=\\.(zip|tar\\.xz|tgz)$)"),
                                               QRegularExpression::CaseInsensitiveOption);
    QString name = fileName.section(QLatin1Char('/'), -1).section(QLatin1Char('\\'), -1).trimmed().toLower();
    name.remove(copyNumber);

    static const QRegularExpression modern(
        QStringLiteral("^cudnn[-_](windows|linux)[-_](x86[-_]64|sbsa|aarch64)[-_](\\d+(?:\\.\\d+){2,3})[-_]"
                       "cuda(\\d+(?:\\.\\d+)?)[-_]archive\\.(zip|tar\\.xz)$"));
    auto match = modern.match(name);
    if (match.hasMatch()) {
        ArchiveName archive;
        const QString arch = match.captured(2).startsWith(QLatin1String("x86")) ? QStringLiteral("x86_64")
                                                                                : QStringLiteral("sbsa");
        archive.platform = match.captured(1) + QLatin1Char('-') + arch;
        archive.cudnn = Version::parse(match.captured(3));
        archive.cudaVariant = match.captured(4);
        archive.extension = match.captured(5);
        if (!archive.cudnn.isValid())
            return std::nullopt;
        return archive;
    }

    static const QRegularExpression old(
        QStringLiteral("^cudnn[-_](\\d+\\.\\d+)[-_](windows|windows7|windows10|linux)[-_]x64[-_]v(\\d+(?:\\."
                       "\\d+){1,3})\\.(zip|tgz)$"));
    match = old.match(name);
    if (match.hasMatch()) {
        ArchiveName archive;
        archive.platform = match.captured(2).startsWith(QLatin1String("windows"))
                               ? QStringLiteral("windows-x86_64")
                               : QStringLiteral("linux-x86_64");
        archive.cudaVariant = match.captured(1);
        archive.osToken = match.captured(2);
        archive.cudnn = Version::parse(match.captured(3));
        archive.extension = match.captured(4);
        archive.modernNaming = false;
        if (!archive.cudnn.isValid())
            return std::nullopt;
        return archive;
    }
    return std::nullopt;
}

} // namespace cudnnsetup
