#pragma once

struct CommandContext;
class QCommandLineParser;

// `cudnnctl detect`: what this system (or --system-root) has, with a verdict for each program that
// uses cuDNN. `cudnnctl check`: that system, or one described by --os --arch --driver --cuda --sm
// --gpu --cudnn, judged against the compatibility database; --for judges one program only. Both
// answer 0, or 1 for problems.
int detectCommand(const CommandContext &context, const QCommandLineParser &parser);
int checkCommand(const CommandContext &context, const QCommandLineParser &parser);
