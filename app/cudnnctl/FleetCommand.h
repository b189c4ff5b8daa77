#pragma once

#include <QString>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl fleet summarize FOLDER`: the machine reports that `cudnnctl report --to FOLDER` left on
// a share, summarised (core/report/FleetSummary.h) as text, JSON (--json) and, with --html FILE,
// one self-contained page. 0 when every machine agrees on every item and no report is stale, 1
// otherwise, 2 when FOLDER is no folder or the page cannot be written.
struct FleetRequest
{
    QString subcommand; // "summarize"
    QString folder;
    QString htmlFile;  // --html
    QString staleDays; // --stale-days, as given (default 7)
    bool json = false;
};

int runFleetCommand(const FleetRequest &request);

// The row of `fleet`: its arguments and --html, --stale-days, --json.
int fleetCommand(const CommandContext &context, const QCommandLineParser &parser);
