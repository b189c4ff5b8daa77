#pragma once

#include <QString>

struct CommandContext;
class QCommandLineParser;

// `cudnnctl probe --request FILE`, hidden: the child process a verification starts. Reads a
// ProbeRequest (JSON) from `requestFile`, runs it with the real loader and writes the ProbeResult
// as one line of JSON on stdout. Returns 0 when it could run, whatever it found; 2 when the request
// cannot be read.
int runProbeCommand(const QString &requestFile);

// The row of `probe`: its --request.
int probeCommand(const CommandContext &context, const QCommandLineParser &parser);
