#pragma once

#include "platform/SecurityDescriptor.h"
#include "platform/SystemFailure.h"

#include <QString>

#include <memory>
#include <optional>

namespace cudnnsetup {

class SystemContext;

// What a system answers when asked for a file's owner and DACL. Whether it keeps them at all is a
// property of the system (Windows does; Linux and a tree under --system-root do not), never of
// whether one read succeeded: where they are kept, one that cannot be read is trusted by no one.
struct DescriptorAnswer
{
    enum class Kind
    {
        NoAclSystem, // the system keeps no owners and ACLs
        Unreadable,  // it does, but this one could not be read, or not understood
        Read,
    };
    Kind kind = Kind::NoAclSystem;
    SecurityDescriptor descriptor; // Read
    QString problem;               // Unreadable: why, for logs and details

    static DescriptorAnswer noAclSystem();
    static DescriptorAnswer unreadable(const QString &problem);
    // From SDDL as ConvertSecurityDescriptorToStringSecurityDescriptorW writes it; Unreadable where
    // it is not SDDL.
    static DescriptorAnswer fromSddl(const QString &sddl);

    // Who may change the object in `role` (security::auditWriters): nullopt where the system keeps
    // no ACLs; an audit that trusts no one where they could not be read.
    std::optional<WriteAudit> audit(ObjectRole role, const QStringList &alsoTrusted = {}) const;
};

// Who may change a system's files and folders: their security descriptors, read and written as
// SDDL. The running Windows system answers for itself; a tree under --system-root and systems
// without Windows ACLs know none, unless a test gives them (through SystemContext).
class FileSecurity
{
public:
    virtual ~FileSecurity() = default;

    // The owner and DACL of `hostPath`.
    virtual DescriptorAnswer descriptorOf(const QString &hostPath) const = 0;
    // Gives the folder `hostPath` the descriptor `sddl` (owner and a protected DACL), replacing
    // what it inherited. On Windows it is opened as itself, never through a link or junction in its
    // place (refused), and given the descriptor through that handle, so that a folder swapped for a
    // junction after a check cannot pass the descriptor on to the junction's target (review 2, D2).
    // Systems without ACLs succeed doing nothing.
    virtual SystemResult protect(const QString &hostPath, const QString &sddl) const = 0;
    // Makes the folder `hostPath` (its parent exists) with the descriptor `sddl` from its first
    // moment: no one can put anything in it before it is protected, as they could between a mkdir
    // and protect(). Fails where anything is at `hostPath` already. Systems without ACLs: mkdir.
    virtual SystemResult makeFolder(const QString &hostPath, const QString &sddl) const = 0;

    // Windows: GetNamedSecurityInfoW, SetSecurityInfo, CreateDirectoryW. Elsewhere: none known,
    // nothing done, folders made plain.
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
// the administrators may change: in `folder` itself, adding a file or changing one put there (what
// its files inherit) is a change; above it, deleting, renaming or re-permissioning what is below. A
// folder whose descriptor cannot be read counts as one others may change. A folder that does not
// exist yet is skipped (cuDNN Setup creates it protected). nullopt when none is, or the system keeps
// no ACLs. `alsoTrusted` names accounts (SIDs) trusted besides the administrators: a user's own, for
// a folder on that user's PATH.
std::optional<WritableFolder> firstWritableFolder(const SystemContext &context, const QString &folder,
                                                  const QStringList &alsoTrusted = {});

} // namespace cudnnsetup
