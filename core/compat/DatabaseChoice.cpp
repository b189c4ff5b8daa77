#include "compat/DatabaseChoice.h"

#include "common/Logging.h"

#include <QDir>
#include <QFile>

namespace cudnnsetup {

DatabaseChoice DatabaseChoice::builtIn()
{
    return {KnowledgeBase::embedded(), QStringLiteral("embedded"), {}};
}

DatabaseChoice DatabaseChoice::choose(const QString &explicitFile, const QString &programFolder)
{
    DatabaseChoice choice = builtIn();
    const bool explicitly = !explicitFile.isEmpty();
    const QString path =
        explicitly ? explicitFile : QDir(programFolder).filePath(QStringLiteral("cudnn-compat.json"));
    if (!explicitly && (programFolder.isEmpty() || !QFile::exists(path)))
        return choice;

    QFile file(path);
    const bool opened = file.open(QIODevice::ReadOnly);
    const auto parsed =
        opened ? KnowledgeBase::parse(file.read(64 * 1024 * 1024)) : Expected<KnowledgeBase>(Finding());
    if (!opened || !parsed) {
        // Asked for by name, it is bad input; found beside the program, a warning.
        Finding unusable = Finding::warning(
            QStringLiteral("compat-db.unusable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The compatibility database %1 cannot be used; the built-in "
                                                 "one (version %2) is used instead."))
                .arg(path, choice.database.version()),
            opened ? parsed.error().details : file.errorString());
        if (explicitly)
            unusable.severity = Severity::Error;
        choice.findings.append(unusable);
        qCWarning(lcCore) << "compatibility database" << path << "not used";
        return choice;
    }
    const Version offered = Version::parse(parsed->version());
    const Version builtIn = Version::parse(choice.database.version());
    if (!explicitly && offered <= builtIn)
        return choice; // not newer than what the program carries
    if (offered < builtIn) {
        choice.findings.append(Finding::info(
            QStringLiteral("compat-db.older"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The compatibility database %1 (version %2) is older than "
                                                 "the built-in one (version %3); it is used as asked."))
                .arg(path, parsed->version(), choice.database.version())));
    }
    choice.database = parsed.value();
    choice.origin = path;
    qCInfo(lcCore) << "compatibility database" << path << "version" << parsed->version();
    return choice;
}

} // namespace cudnnsetup
