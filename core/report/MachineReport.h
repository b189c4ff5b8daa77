#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "detect/SystemSnapshot.h"
#include "verify/InstallStatus.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// One machine's report for a lab's share (`cudnnctl report --to FOLDER`), which `cudnnctl fleet
// summarize` reads back with the reports of the other machines. Each compared item (driver, cudnn,
// path, torch, verify) has a `value` that is equal on machines set up alike, the ids of the open
// findings about it and, where no finding says it, its own `fix`.
struct MachineReportInput
{
    static constexpr char kSchema[] = "cudnn-setup/machine-report/1";

    QString machine;     // the machine's name as the lab knows it
    QDateTime writtenAt; // UTC
    QString tool;        // "cudnnctl 0.1.0"
    SystemSnapshot snapshot;
    InstallStatus status; // what `cudnnctl status` answers here, with the last verification
    Findings findings;    // the doctor's: those of severity warning and error are the open ones
};

// The items every machine report has, in the order they are shown.
const QStringList &machineReportItems(); // "driver", "cudnn", "path", "torch", "verify"

// The report, one JSON object of schema cudnn-setup/machine-report/1.
QJsonObject machineReportJson(const MachineReportInput &input);

// `machine` as a file name safe on every system and share: letters, digits, '-', '_' and '.' kept,
// everything else '_', no leading dot, at most 64 characters, Windows' device names (CON, NUL,
// COM1...) prefixed; plus ".json".
QString machineReportFileName(const QString &machine);

// Writes `report` as `folder/<machineReportFileName>` atomically: whole under a name of its own
// (".<file>.<random>.partial", which no reader takes for a report), flushed, then renamed over the
// old report. Many machines may write into one folder at once, without locks. Returns the path.
Expected<QString> writeMachineReport(const QJsonObject &report, const QString &folder);

} // namespace cudnnsetup
