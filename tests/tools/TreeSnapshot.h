#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

// Every file (with the SHA-256 of its content) and folder under a host folder, by relative path:
// what "exactly as before" and "exactly as after" are checked against.
struct TreeSnapshot
{
    QMap<QString, QString> entries; // relative path -> "<dir>" or the content's SHA-256

    // Paths starting with one of `skip` are left out.
    static TreeSnapshot of(const QString &root, const QStringList &skip = {});
    bool operator==(const TreeSnapshot &other) const { return entries == other.entries; }
    bool operator!=(const TreeSnapshot &other) const { return entries != other.entries; }
    // The differences, one line each, for a failure message.
    QString difference(const TreeSnapshot &other) const;
};
