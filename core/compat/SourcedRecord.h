#pragma once

#include <QStringList>

namespace cudnnsetup {

// A record of the compatibility database: the keys of the sources it was read from, and whether it
// was derived from its neighbours rather than published.
struct SourcedRecord
{
    QStringList sources;
    bool derived = false;
};

} // namespace cudnnsetup
