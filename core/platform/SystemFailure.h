#pragma once

#include "common/Expected.h"

#include <QString>
#include <QStringList>

namespace cudnnsetup {

// What the system answered when it refused a change to a file: its message with the paths (for
// the log and a finding's details), its code, and the files the refused call was about. Callers
// outside the platform layer turn it into the Finding that fits what they were doing (a file in
// use, a lack of rights: operations::fileFailure).
struct SystemFailure
{
    QString message;
    // GetLastError() on Windows, errno elsewhere, of the call that failed; 0 when the failure came
    // from somewhere else (a file that could not be opened or read while copying).
    int code = 0;
    QStringList paths; // a rename: from, then to
};

// Done, or what the system said.
using SystemResult = Expected<void, SystemFailure>;

} // namespace cudnnsetup
