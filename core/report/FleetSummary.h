#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace cudnnsetup {

// The room at a glance (`cudnnctl fleet summarize FOLDER`): the machine reports of one share
// (MachineReport.h) read back, and for each item the value most machines have and the machines
// that differ, each with its repair. The reports come from many machines and anyone who can write
// to the share: every file is untrusted input, read with a size cap, its strings shortened and
// stripped of control characters; a file that is not a report is listed, never fatal.
struct FleetOutlier
{
    QString machine;
    QString file; // its report's file name
    QString value;
    QString repair; // the item's fix, else the fix of the open finding it names; empty when none
};

struct FleetItem
{
    QString item; // "driver", "cudnn", "path", "torch", "verify"
    QString majority;
    int majorityCount = 0;
    QList<FleetOutlier> outliers; // by machine name
};

struct FleetStaleReport
{
    QString machine;
    QString file;
    QDateTime writtenAt; // invalid when the report names no time
};

struct FleetUnreadable
{
    enum class Problem
    {
        TooLarge,
        NotAFile, // a link, a folder, a device
        Unreadable,
        InvalidJson,
        Foreign, // JSON, but not a machine report of a schema this version reads
    };
    QString file;
    Problem problem = Problem::Unreadable;
};

struct FleetSummary
{
    static constexpr char kSchema[] = "cudnn-setup/fleet-summary/1";
    static constexpr qint64 kMaxReportBytes = 1024 * 1024;

    QString folder;
    QDateTime summarizedAt; // UTC
    int staleDays = 7;
    int reports = 0; // the machine reports read
    QList<FleetItem> items;
    QList<FleetStaleReport> stale; // oldest first
    QList<FleetUnreadable> unreadable;

    QJsonObject toJson() const;
};

// Reads every "*.json" in `folder` (not those whose name starts with '.': a report being written),
// several at a time. A report written before `now` minus `staleDays` days is stale.
FleetSummary summarizeFleet(const QString &folder, const QDateTime &now, int staleDays);

// In the current language.
QString fleetSummaryText(const FleetSummary &summary);
// One self-contained page (inline style, no script, nothing fetched), in the current language;
// every string from a report is escaped.
QString fleetSummaryHtml(const FleetSummary &summary);

} // namespace cudnnsetup
