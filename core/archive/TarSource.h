#pragma once

#include "archive/ZipSource.h"

#include <QString>

namespace cudnnsetup {

// Whether the file is a tar archive, plain or xz-compressed (NVIDIA's Linux archives are
// cudnn-linux-…-archive.tar.xz): by its first bytes, whatever its name. Every build can tell; only
// builds with libarchive can read one.
bool looksLikeTar(const QString &hostPath);

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
// The libarchive backend for tar and tar.xz. Its entries are ZipEntry values with `streamed` set:
// the names as stored (UTF-8), the Unix mode in the high 16 bits of the external attributes, the
// declared size as both sizes, the position in the unpacked tar stream as the offset, no CRC (xz
// checks its own blocks, which libarchive verifies), and links' targets. Entries are read in
// order: opening an earlier one reads the archive again from its start. Errors as ZipSource::open,
// "archive.corrupt" for a tar that cannot be listed to its end.
Expected<std::unique_ptr<ZipSource>> openWithLibarchive(const QString &hostPath,
                                                        const ReadObserver &observer);
#endif

} // namespace cudnnsetup
