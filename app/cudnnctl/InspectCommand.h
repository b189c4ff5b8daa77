#pragma once

struct CommandContext;
class QCommandLineParser;

// `cudnnctl inspect FILE.zip`: whether a cuDNN archive is safe to unpack, intact, NVIDIA's own and
// which cuDNN for which CUDA it holds (--zip-backend: read it with that library). 0 when it is fit
// to install, 1 otherwise, 2 when it cannot be read.
int inspectCommand(const CommandContext &context, const QCommandLineParser &parser);
