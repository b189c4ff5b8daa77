#pragma once

#include "common/Expected.h"
#include "common/Version.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

class QIODevice;

namespace cudnnsetup {

// A named section of a PE or ELF file and where its bytes are in the file.
struct FileSection
{
    QString name; // ".rdata", ".nv_fatb", ".rodata", ".nv_fatbin"
    qint64 offset = 0;
    qint64 size = 0; // bytes stored in the file (0 for .bss-like sections)
};

// The section named `name` among `sections`; null when there is none.
const FileSection *findSection(const QList<FileSection> &sections, const QString &name);

// A small reader for Windows PE files (DLL / EXE), our own: Debian packages no PE library and the
// wizard must inspect DLLs it has not loaded (inside a zip, on another machine's disk).
// Every offset is bounds-checked; a truncated or hostile file is an error Finding, never a crash.
struct PeInfo
{
    enum Machine : quint16
    {
        I386 = 0x014c,
        Amd64 = 0x8664,
        Arm64 = 0xaa64,
        ArmNt = 0x01c4,
    };

    quint16 machine = 0;
    bool pe32Plus = false; // optional header magic 0x20b (64-bit image)
    bool isDll = false;    // IMAGE_FILE_DLL
    quint16 characteristics = 0;
    quint16 dllCharacteristics = 0;
    quint16 subsystem = 0;
    QStringList imports;      // DLL names of the import directory, in file order
    QStringList delayImports; // DLL names of the delay-import directory
    Version fileVersion;      // VS_FIXEDFILEINFO dwFileVersionMS/LS; invalid when there is none
    Version productVersion;
    QList<FileSection> sections; // the section table, in file order
    bool hasSignature = false;   // an Authenticode certificate table is present (not verified)
    // Problems met after the headers were read (a damaged import table, a cut-off version resource,
    // a file shorter than its sections say): the fields above are then partial.
    Findings warnings;

    // "x64", "x86", "arm64", "arm", or "0x1234" for anything else.
    QString machineName() const;
    int bits() const { return pe32Plus ? 64 : 32; }
};

// Random access to the bytes of a file, so the reader works on a QIODevice or on a buffer.
// `read(offset, size)` returns fewer bytes (or none) past the end.
using ByteSource = std::function<QByteArray(qint64 offset, qint64 size)>;

// A ByteSource over bytes already in memory.
ByteSource bufferSource(const QByteArray &data);
// A ByteSource over the host file `hostPath`, mapped rather than read: of a library of a gigabyte
// only the pages asked for are read from disk. Empty (no function) when the file cannot be opened
// or mapped; `error` then says why.
ByteSource mappedFileSource(const QString &hostPath, QString *error = nullptr);

namespace pe {

// The headers, the imports and delay imports, the version resource and the presence of a
// certificate table. An error when the headers cannot be read; later damage goes to `warnings`.
Expected<PeInfo> read(const ByteSource &source);
Expected<PeInfo> read(QIODevice *device); // must be open and seekable
Expected<PeInfo> readFile(const QString &hostPath);

// Only the COFF machine and magic: the first few hundred bytes are enough (python.exe bitness).
// Subsystem and DllCharacteristics are filled when `head` holds them.
Expected<PeInfo> readHeaders(const QByteArray &head);

} // namespace pe
} // namespace cudnnsetup
