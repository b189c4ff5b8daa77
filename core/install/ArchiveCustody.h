#pragma once

#include "archive/ArchiveInspector.h"
#include "common/Expected.h"
#include "common/Finding.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"

#include <QString>

#include <optional>

namespace cudnnsetup {

// Whether the files of an install into `target` would be loaded by programs machine-wide: found
// through the system PATH, in a CUDA toolkit's folders (which its installer put on that PATH), in
// the Windows folder (System32), or named in the loader's configuration (/etc/ld.so.conf.d).
bool loadsMachineWide(const InstallTarget &target, const SystemContext &context);

// Who answers for an install's archive besides NVIDIA's published checksums.
struct ArchiveVouching
{
    // The elevated helper, acting for the process that asked for it (perhaps a standard user's,
    // approved by an administrator who typed their password): it takes no one's word for the archive.
    bool actingForAnother = false;
    // An administrator at their own console said --allow-unverified-archive. Never honoured for
    // another process: the helper is never handed it.
    bool allowUnverified = false;
    // The SHA-256 of the archive named in the plan an administrator approved (InstallPlan): the
    // bytes taken into custody must be those. Empty: no plan was handed over.
    QString approvedSha256;
};

// Whether an install into `target` unpacks only an archive NVIDIA published (its SHA-256 in the
// database, or in NVIDIA's own manifest): one whose files load machine-wide, or one made for
// another process, unless an administrator at their own console allowed otherwise.
bool needsNvidiasArchive(const InstallTarget &target, const SystemContext &context,
                         const ArchiveVouching &vouching);

// The refusal of `archive` (its checksum judged) for an install into `target` that needs NVIDIA's
// archive; nullopt when it is NVIDIA's or none is needed.
std::optional<Finding> unverifiedArchiveRefusal(const ArchiveReport &archive, const InstallTarget &target,
                                                const SystemContext &context,
                                                const ArchiveVouching &vouching);

// The archive an install unpacks once its file was checked, and what was read to make it.
struct ArchiveInCustody
{
    QString path;   // host path, in a folder only administrators can change
    QString sha256; // of the bytes copied: those that will be unpacked
};

// Copies the archive at `archivePath` (host path; a standard user's file, which they may change at
// any moment) to `custodyPath` in a folder only administrators can change, hashing what it copies:
// one read, and nothing changed in the user's file afterwards reaches what is unpacked. The error
// says why no copy was made (nothing is left behind then).
Expected<ArchiveInCustody> takeIntoCustody(const QString &archivePath, const QString &custodyPath);

} // namespace cudnnsetup
