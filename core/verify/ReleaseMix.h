#pragma once

#include "common/Finding.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class SystemContext;

// The release one library of a cuDNN set states: on Windows its version resource, on Linux the full
// version its real file's name carries (libcudnn_graph.so.9.18.0). Null where nothing tells.
struct LibraryRelease
{
    QString file;    // the library's path in the inspected system
    QString version; // "9.18.0"
};

// Every library of `libraries` in `directory` with the release it states (one entry per real file).
QList<LibraryRelease> libraryReleases(const SystemContext &context, const QString &directory,
                                      const QStringList &libraries);

// A set whose libraries state more than one release: cuDNN's main library then fails to find its
// functions in the sub-libraries ("Could not load symbol cudnnGetVersion. Error code 127"), or
// crashes. The finding names each file and its release; nullopt when the releases stated agree.
std::optional<Finding> mixedReleaseFinding(const QString &directory, const QList<LibraryRelease> &releases);

} // namespace cudnnsetup
