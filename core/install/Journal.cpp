#include "install/Journal.h"

#include "platform/DiskFlush.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

namespace cudnnsetup {

namespace {

Finding journalError(const QString &path, const QString &details)
{
    return Finding::error(QStringLiteral("install.journal-failed"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "The install journal %1 cannot be written."))
                              .arg(QDir::toNativeSeparators(path)),
                          details,
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Make room on the disk and try again.")));
}

} // namespace

Journal::Journal(const QString &path)
    : m_path(path)
{
}

Expected<Journal> Journal::create(const QString &path, const QJsonObject &header)
{
    if (QFileInfo::exists(path))
        return journalError(path, QStringLiteral("a journal is there already"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    Journal journal(path);
    QJsonObject first = header;
    first.insert(QStringLiteral("schema"), QLatin1String(kSchema));
    if (const Expected<void> written = journal.append(first); !written)
        return written.error();
    return journal;
}

Expected<void> Journal::append(const QJsonObject &line)
{
    QFile file(m_path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return journalError(m_path, file.errorString());
    const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    if (file.write(bytes) != bytes.size() || !file.flush()) // a full disk shows at the flush
        return journalError(m_path, file.errorString());
    file.close();
    QString error;
    if (!flushFileToDisk(m_path, &error))
        return journalError(m_path, error);
    return {};
}

Expected<void> Journal::begin(int sequence, const QString &name, const QJsonObject &arguments)
{
    return append({{QStringLiteral("seq"), sequence},
                   {QStringLiteral("begin"),
                    QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}}}});
}

Expected<void> Journal::state(int sequence, const QJsonObject &state)
{
    return append({{QStringLiteral("seq"), sequence}, {QStringLiteral("state"), state}});
}

Expected<void> Journal::done(int sequence)
{
    return append({{QStringLiteral("seq"), sequence}, {QStringLiteral("done"), true}});
}

Expected<void> Journal::commit()
{
    return append({{QStringLiteral("commit"), true}});
}

Expected<Journal::Contents> Journal::read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Finding::error(QStringLiteral("install.journal-unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The install journal %1 cannot be read."))
                                  .arg(QDir::toNativeSeparators(path)),
                              file.errorString());
    }
    Contents contents;
    bool first = true;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.endsWith('\n'))
            break; // cut short by a crash: never acknowledged
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        if (first) {
            if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema)) {
                return Finding::error(
                    QStringLiteral("install.journal-unreadable"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "The install journal %1 cannot be read."))
                        .arg(QDir::toNativeSeparators(path)),
                    QStringLiteral("not a %1 file").arg(QLatin1String(kSchema)));
            }
            contents.header = object;
            contents.id = object.value(QStringLiteral("id")).toString();
            contents.kind = object.value(QStringLiteral("kind")).toString();
            contents.backupFolder = object.value(QStringLiteral("backupFolder")).toString();
            first = false;
            continue;
        }
        if (object.value(QStringLiteral("commit")).toBool()) {
            contents.committed = true;
            continue;
        }
        const int sequence = object.value(QStringLiteral("seq")).toInt(-1);
        if (sequence < 0)
            continue;
        if (object.contains(QStringLiteral("begin"))) {
            const QJsonObject begin = object.value(QStringLiteral("begin")).toObject();
            contents.entries.append({sequence,
                                     begin.value(QStringLiteral("name")).toString(),
                                     begin.value(QStringLiteral("arguments")).toObject(),
                                     {},
                                     false});
            continue;
        }
        for (Entry &entry : contents.entries) {
            if (entry.sequence != sequence)
                continue;
            if (object.contains(QStringLiteral("state")))
                entry.state = object.value(QStringLiteral("state")).toObject();
            if (object.value(QStringLiteral("done")).toBool())
                entry.done = true;
        }
    }
    if (first) {
        return Finding::error(QStringLiteral("install.journal-unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The install journal %1 cannot be read."))
                                  .arg(QDir::toNativeSeparators(path)),
                              QStringLiteral("empty"));
    }
    return contents;
}

} // namespace cudnnsetup
