#pragma once

#include "platform/SecurityDescriptor.h"
#include "platform/SystemFailure.h"

#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

class SystemContext;

// Who may change a system's files and folders: their security descriptors, read and written as
// SDDL. The running Windows system answers for itself; a tree under --system-root and systems
// without Windows ACLs know none, unless a test gives them (through SystemContext).
class FileSecurity
{
public:
    virtual ~FileSecurity() = default;

    // The owner and DACL of `hostPath`; nullopt when they cannot be known (no such file, no ACLs).
    virtual std::optional<SecurityDescriptor> descriptorOf(const QString &hostPath) const = 0;
    // Gives the folder `hostPath` the descriptor `sddl` (owner and a protected DACL), replacing
    // what it inherited. Systems without ACLs succeed doing nothing.
    virtual SystemResult protect(const QString &hostPath, const QString &sddl) const = 0;

    // Windows: GetNamedSecurityInfoW / SetNamedSecurityInfoW. Elsewhere: none known, nothing done.
    static std::shared_ptr<FileSecurity> forRunningSystem();
    // Knows no descriptor and does nothing: a tree under --system-root, a system without ACLs.
    static std::shared_ptr<FileSecurity> none();
};

// A folder that someone besides SYSTEM, the Administrators and TrustedInstaller may change.
struct WritableFolder
{
    QString folder; // the inspected system's path
    WriteAudit audit;
};

// The first of `folder` and the folders above it (the inspected system's paths) that others than
// the administrators may change: in `folder` itself, adding or replacing a file is a change; above
// it, deleting, renaming or re-permissioning what is below. A folder that does not exist yet is
// skipped (cuDNN Setup creates it protected). nullopt when none is, or none can be known.
std::optional<WritableFolder> firstWritableFolder(const SystemContext &context, const QString &folder);

} // namespace cudnnsetup
