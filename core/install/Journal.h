#pragma once

#include "common/Expected.h"

#include <QFile>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

// The on-disk record of one transaction, one JSON object per line, each line flushed to disk
// before the call that wrote it returns:
//   {"schema":"cudnn-setup/journal/1","id":…,"kind":"install","backupFolder":…,"started":…}
//   {"seq":0,"begin":{"name":"make-directory","arguments":{…}}}   before operation 0 starts
//   {"seq":0,"state":{…}}                                           what its undo will need
//   {"seq":0,"done":true}                                           it finished
//   {"commit":true}                                                 the point of no return
// A line cut short by a crash is ignored: it was never acknowledged.
class Journal
{
public:
    static constexpr char kSchema[] = "cudnn-setup/journal/1";

    struct Entry
    {
        int sequence = 0;
        QString name;
        QJsonObject arguments;
        QJsonObject state;
        bool done = false;
    };
    struct Contents
    {
        QString id;
        QString kind;
        QString backupFolder;
        QJsonObject header;
        QList<Entry> entries;
        bool committed = false;
    };

    // Starts a new journal at `path` (which must not exist).
    static Expected<Journal> create(const QString &path, const QJsonObject &header);
    // Reads what a journal says, whatever state the writer left it in.
    static Expected<Contents> read(const QString &path);

    Journal(Journal &&) = default;
    Journal &operator=(Journal &&) = default;

    QString path() const { return m_path; }
    Expected<void> begin(int sequence, const QString &name, const QJsonObject &arguments);
    Expected<void> state(int sequence, const QJsonObject &state);
    Expected<void> done(int sequence);
    Expected<void> commit();

private:
    explicit Journal(const QString &path);
    Expected<void> append(const QJsonObject &line);

    QString m_path;
};

} // namespace cudnnsetup
