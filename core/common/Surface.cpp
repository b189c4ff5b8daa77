#include "common/Surface.h"

#include <atomic>

namespace cudnnsetup {

namespace {

std::atomic<Surface> g_surface{Surface::CommandLine};

} // namespace

Surface surface()
{
    return g_surface.load();
}

void setSurface(Surface surface)
{
    g_surface.store(surface);
}

} // namespace cudnnsetup
