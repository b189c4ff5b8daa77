#pragma once

#include "platform/SystemFailure.h"

#include <QString>

#include <memory>

namespace cudnnsetup {

// A file or folder as lstat(2) sees it: the entry itself, never what a link leads to.
struct PosixStatus
{
    bool exists = false; // false: there is no such entry, and the rest says nothing
    bool isLink = false;
    bool isDir = false;
    uint owner = 0;    // its user id
    QString ownerName; // that user's name; empty when the system knows none
    uint mode = 0;     // its permission bits, with the set-id and sticky bits (07777)

    // Whether anyone but its owner may add, remove or rename what is in it (its group or others
    // may write it, sticky or not).
    bool othersMayWrite() const { return (mode & 022) != 0; }
    // "alice (uid 1000)", or "uid 1000" for an id the system has no name for.
    QString ownerShown() const;
    // The mode as chmod takes it: "0755", "1777".
    QString modeShown() const;
};

// Who owns the files of a system that keeps POSIX owners and modes, and whether this process is
// root. The running system answers with lstat(2) and geteuid(), for a tree under --system-root too:
// its files are real files, and their numeric owners are what that system sees. Tests give owners
// and modes as data (through SystemContext). A Windows host keeps none.
class PosixOwnership
{
public:
    virtual ~PosixOwnership() = default;

    // `hostPath` itself (a link is not followed); a failure when it cannot be read (no POSIX
    // owners on this host, a folder on the way that may not be searched).
    virtual Expected<PosixStatus, SystemFailure> statusOf(const QString &hostPath) const = 0;
    // Whether this process runs as root (effective user id 0).
    virtual bool runsAsRoot() const = 0;

    static std::shared_ptr<PosixOwnership> forRunningSystem();
};

} // namespace cudnnsetup
