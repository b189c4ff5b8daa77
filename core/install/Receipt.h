#pragma once

#include "common/Expected.h"
#include "install/InstallPlan.h"
#include "platform/PersistentEnvironment.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// What an install did, kept for uninstall and repair: every file it placed with its SHA-256 (and
// where the file it replaced is kept), every environment value it changed with the raw value
// before and after.
struct Receipt
{
    static constexpr char kSchema[] = "cudnn-setup/receipt/1";

    struct File
    {
        QString path; // the inspected system's path
        QString sha256;
        qint64 size = 0;
        QString replaced; // where the file it replaced is kept (inspected system's path), or empty
    };
    struct EnvironmentChange
    {
        QString scope; // "user", "machine"
        QString name;  // "PATH", "CUDNN_PATH"
        QString entry; // PATH: the entry added; empty for whole values
        std::optional<StoredEnvironmentValue> before;
        std::optional<StoredEnvironmentValue> after;
    };

    QString id;
    QString created;                     // ISO 8601, UTC
    QString tool;                        // "cudnn-setup 0.1.0"
    ArchiveIdentity archive;             // the plan's; a repair's names only the file it unpacked
    std::optional<InstallTarget> target; // the plan's; none for a repair
    QList<File> files;
    // The files of `files` that are symbolic links the install made (a tar's libcudnn.so.9), each
    // with the name it reads beside it; their sha256 and size are those of the file read through them.
    QHash<QString, QString> links;
    QStringList folders; // the folders the install created, which an uninstall removes when empty
    QList<EnvironmentChange> environment;
    QString result = QStringLiteral("installed");
    // The per-user part of a machine-wide install that ran elevated (this user's PATH and
    // variables, changed by this user's own process): the id of the machine-wide receipt.
    QString partOf;

    QJsonObject toJson() const;
    static Expected<Receipt> fromJson(const QJsonObject &object);
};

// Where the change `id` keeps the files it replaced, for its uninstall to put back: beside its
// receipt in `receiptsFolder` ('/' or '\\' joins, as `receiptsFolder` has them).
QString keptFilesFolder(const QString &receiptsFolder, const QString &id);
// The name a replaced file is kept under there: "3-cudnn64_9.dll" for the 3rd file placed.
QString keptFileName(int index, const QString &fileName);

} // namespace cudnnsetup
