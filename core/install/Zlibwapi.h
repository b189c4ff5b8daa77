#pragma once

#include "archive/ZipSource.h"
#include "binary/PeReader.h"
#include "common/Expected.h"
#include "common/Finding.h"
#include "platform/SystemContext.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cudnnsetup {

// zlibwapi.dll: cuDNN 8.3 to 9.1 on Windows import a 64-bit zlib under that name, which NVIDIA does
// not ship (../shared/reference/nvidia-compat.md §5). The build makes one from the zlib it links
// (cmake/Zlibwapi.cmake) and embeds it; the installer puts it beside the cuDNN DLLs when the
// archive's DLLs import it and no 64-bit copy would be found first.

inline constexpr char kZlibwapiName[] = "zlibwapi.dll";
inline constexpr char kZlibwapiResource[] = ":/zlibwapi/zlibwapi.dll";

// Whether this build carries the DLL (builds without MinGW-w64 and its zlib leave it out).
bool embeddedZlibwapiAvailable();
// The DLL's bytes; empty when the build has none.
QByteArray embeddedZlibwapi();
// Its SHA-256, 64 lowercase hexadecimal characters; empty when the build has none.
QString embeddedZlibwapiSha256();
// "zlibwapi.unavailable" (error): `importers` need zlibwapi.dll and this build has none to install.
Finding zlibwapiUnavailable(const QStringList &importers);

// One DLL whose imports are read, named for the result and the log (an archive path, a file path).
// Its bytes are read on demand, only the parts the PE reader asks for: by random access (a buffer,
// a file), or from a stream read front to back (a zip entry), opened again from the start when a
// read goes back. The import table of a large DLL lies far beyond its first 64 KiB.
struct DllImage
{
    using StreamOpener = std::function<Expected<std::unique_ptr<ZipEntryStream>>()>;

    QString name;
    ByteSource bytes;        // random access, or
    StreamOpener openStream; // a stream from the start
    QString error;           // why there are no bytes at all (a file that cannot be opened)

    static DllImage fromBuffer(const QString &name, const QByteArray &data);
    // A file of the inspected system, through the context's rooted file view.
    static DllImage fromFile(const SystemContext &context, const QString &path);
    // A file of this machine, named `name`.
    static DllImage fromHostFile(const QString &name, const QString &hostPath);
    // Entry `index` of `zip`, named `name` (its archive path). Opens its own entry streams: call it
    // while no other stream of `zip` is in use (ZipSource reads one at a time), and keep `zip`
    // alive while the image is read.
    static DllImage fromZipEntry(ZipSource &zip, int index, const QString &name);
    static DllImage fromStream(const QString &name, StreamOpener open);
};

// The names of `dlls` that import or delay-import zlibwapi.dll (the name in any case), in their
// order: the archive needs zlibwapi.dll when this is not empty. A DLL whose imports cannot be read
// completely (not a PE file, damaged, a stream that fails) is named in one
// "zlibwapi.imports-unread" warning in `findings`; it is listed when what could be read names
// zlibwapi.dll.
QStringList dllsImportingZlibwapi(const QList<DllImage> &dlls, Findings *findings = nullptr);

// The zlibwapi.dll a program would load beside the cuDNN DLLs in `dllFolder` (the inspected
// system's path): the loader takes the first file of that name in the DLL folder, then System32,
// the Windows folder and the folders of PATH as a freshly started program gets it (the registry's,
// else this process's). Its path when that first file is a 64-bit (x64) DLL. nullopt when there is
// none, or when the first is not one (32-bit, another processor, not a DLL): Windows would fail
// with error 193, which `findings` reports as "zlibwapi.wrong-machine" or "zlibwapi.invalid".
// Linux trees have no zlibwapi.dll: nullopt.
std::optional<QString> existingZlibwapi(const SystemContext &context, const QString &dllFolder,
                                        Findings *findings = nullptr);

} // namespace cudnnsetup
