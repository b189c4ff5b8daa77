#pragma once

// Where this build put the programs and stand-ins the suites run, and where the sources are.
// Only BuildPaths.cpp is compiled with these absolute paths, so every other object of the suites
// is the same whichever folder the tree was cloned into, and the compiler cache can share them.

#include <QString>

namespace BuildPaths {

QString sourceDir();       // the repository
QString fixtures();        // tests/fixtures
QString cudnnctl();        // the cudnnctl program, built with the suites' test hooks
QString shippedCudnnctl(); // the cudnnctl the installers pack, which has none
QString cudnnSetup();      // the cudnn-setup program (the wizard)
QString standinTool();     // tests/tools/standin_tool.c, built
QString standins();        // the stand-in cuDNN DLLs (Windows builds; empty elsewhere)
QString standinArchives(); // NVIDIA-named Windows zips of those stand-ins (Windows builds)

} // namespace BuildPaths
