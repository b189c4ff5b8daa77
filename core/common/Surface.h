#pragma once

namespace cudnnsetup {

// Where this process's messages are read, so that advice names what the reader has at hand:
// cudnnctl's commands on the command line (and in unattended logs), the wizard's buttons in the
// wizard. The command line unless a wizard is shown.
enum class Surface
{
    CommandLine,
    Wizard,
};

Surface surface();
void setSurface(Surface surface);

} // namespace cudnnsetup
