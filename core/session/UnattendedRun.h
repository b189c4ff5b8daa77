#pragma once

#include "common/Expected.h"
#include "compat/KnowledgeBase.h"
#include "install/Installer.h"
#include "platform/SystemContext.h"
#include "session/WizardLog.h"
#include "verify/VerifyReport.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace cudnnsetup {

// `cudnn-setup --unattended`: what lab IT's deployment asks for, from an INI answer file and flags.
struct UnattendedSettings
{
    QString action = QStringLiteral("install"); // install, repair (doctor --fix --yes), uninstall
    QString archive;
    // archive_source= (also ArchiveSource=): where the archive check recommends is downloaded from
    // when no archive is given: NVIDIA's redist (empty), a mirror's URL or a folder or share.
    QString archiveSource;
    QString target;
    QString path;
    QString variables; // cudnn_variables=
    QString ifInUse;   // if_in_use=
    QString receiptId; // uninstall: which install (empty: the only one)
    QString logFile;   // empty: defaultUnattendedLog()
    bool verify = true;

    // Reads the [setup] group of an INI answer file (archive=, archive_source=, target=, path=, log=,
    // verify=true|false, action=, cudnn_variables=, if_in_use=, receipt=) over these settings;
    // archive=, a folder archive_source= and log= may be relative to the answer file. An error
    // "unattended.answer-file" when it cannot be read, a key is unknown (a typo would otherwise be ignored)
    // or a value is not understood.
    Expected<UnattendedSettings> withAnswerFile(const QString &answerFile) const;
    // These settings as an answer file withAnswerFile() reads back the same: the [setup] group,
    // each key that has a value, paths written as they are.
    QByteArray toAnswerFile() const;
};

// What an unattended run did: written as JSON (schema cudnn-setup/unattended/1) beside its log.
struct UnattendedResult
{
    static constexpr char kSchema[] = "cudnn-setup/unattended/1";

    QString action;
    int exitCode = 1603; // the Windows installer codes: 0, 3010, 1602, 1603, 1618, 87
    std::optional<ChangeOutcome> change;
    std::optional<VerifyReport> verification;
    std::optional<ChangeOutcome> rollback; // the install undone because its verification failed
    Findings findings;                     // what stopped it before any change (bad input)

    QJsonObject toJson() const;
};

// %ProgramData%\cuDNN Setup\logs\unattended-<UTC time>.log for an administrator (Linux
// /var/lib/cudnn-setup/logs), else the same under the user's state folder.
QString defaultUnattendedLog(const SystemContext &context, bool administrator, const QDateTime &started);

// Runs `settings` without asking anything: install (without an archive, the one check recommends,
// downloaded from the archive source into the state folder's downloads and verified; then verifies the
// receipt's subject, GPU stage on, framework stage off, and uninstalls it again when a stage failed: 1603),
// repair (every repair the doctor offers) or uninstall. Installing what is installed already, intact, is 0
// and changes nothing. It never asks for administrator rights (no UAC prompt). `cudnnctl` (host path) runs
// the verification's probe.
UnattendedResult runUnattended(const UnattendedSettings &settings, const SystemContext &context,
                               const KnowledgeBase &kb, const QString &cudnnctl);

// runUnattended() with its log (`header` first, then timestamps, each operation, each finding)
// written to settings.logFile and the result's JSON beside it (the log's name with .json); returns
// the exit code. A log that cannot be written is 87, before anything is changed.
int runUnattendedLogged(const UnattendedSettings &settings, const SystemContext &context,
                        const KnowledgeBase &kb, const QString &cudnnctl, const WizardLogHeader &header);

} // namespace cudnnsetup
