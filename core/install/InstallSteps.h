#pragma once

#include "archive/ArchiveInspector.h"
#include "archive/Extractor.h"
#include "common/Expected.h"
#include "common/Finding.h"
#include "install/ChangeOutcome.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/Operations.h"
#include "install/Receipt.h"
#include "install/Transaction.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

#include <memory>

// The steps an install adds to its transaction, and the receipt it writes. Internal to core/install.
namespace cudnnsetup::installer {

// What the file steps of an install will have done, for its receipt: filled in as the
// transaction runs (the unpacked files' hashes, whether zlibwapi.dll was needed).
struct PlacedFiles
{
    struct Placed
    {
        QString destination; // the inspected system's path
        QString kept;        // host path of the replaced file's keeping place, or empty
        QString linkTarget;  // a symbolic link made again (after the unpacked files), or empty
    };
    QList<Placed> placed; // in the order of the archive's files that were unpacked
    std::shared_ptr<Extraction> extraction = std::make_shared<Extraction>();
    QSet<QString> createdFolders; // the inspected system's folders the install makes
    QString zlibwapi;             // the inspected system's path where zlibwapi.dll would go
    std::shared_ptr<bool> zlibwapiPlaced = std::make_shared<bool>(false);
    QByteArray pth;      // the venv's .pth file, or empty
    QByteArray ldSoConf; // Linux, system scope: the /etc/ld.so.conf.d file, or empty
};

// The steps that put the archive's files in place: the root (protected where it goes on the
// system PATH), the unpacking into staging, the folders, each file moved into place (or, for one
// in use, swapped at the next start), zlibwapi.dll where needed, a venv's .pth file.
PlacedFiles addFileSteps(Transaction &transaction, const QString &archivePath, const ArchiveReport &archive,
                         const operations::ArchiveHashed &archiveHashed, const InstallTarget &target,
                         const QList<PlannedFile> &planned, const QSet<QString> &inUse,
                         const QString &staging, const QString &keptFolder, const SystemContext &context);

// The step that puts the target's DLL folder on the PATH its pathScope names, and its record for
// the receipt. Refused (nothing added) when that PATH would grow past what a variable holds;
// warnings when it grows long.
Expected<void> addPathStep(Transaction &transaction, QList<Receipt::EnvironmentChange> &changes,
                           const InstallTarget &target, const SystemContext &context,
                           PersistentEnvironment &environment, const ChangeOptions &options,
                           Findings &findings);

// The receipt of a committed install: what the archive was, where its files went (with the files
// they replaced, kept), the folders it made and the environment it changed.
QByteArray receiptOf(const QString &id, const QString &archivePath, const ArchiveReport &archive,
                     const InstallTarget &target, const PlacedFiles &files,
                     const QList<Receipt::EnvironmentChange> &changes, const SystemContext &context,
                     PersistentEnvironment &environment, Receipt &receipt);

} // namespace cudnnsetup::installer
