#pragma once

#include "binary/PeReader.h"
#include "common/Expected.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// The identification of an ELF file: enough to tell a 32-bit from a 64-bit Python and an x86-64
// from an AArch64 library without running or loading it.
struct ElfInfo
{
    int bits = 0;             // 32 | 64 (EI_CLASS)
    bool littleEndian = true; // EI_DATA
    quint16 machine = 0;      // e_machine: 3 = x86, 62 = x86-64, 183 = AArch64
    quint16 type = 0;         // e_type: 2 = executable, 3 = shared object / PIE

    QString machineName() const; // "x64", "x86", "arm64", "arm", or "elf-<n>"
};

// What the dynamic loader reads from a shared object to find the libraries it needs.
struct ElfDynamic
{
    ElfInfo header;
    QString soname;      // DT_SONAME; empty when there is none
    QStringList needed;  // DT_NEEDED, in file order
    QStringList rpath;   // DT_RPATH split at ':', as written ($ORIGIN not expanded)
    QStringList runpath; // DT_RUNPATH, likewise
};

namespace elf {
// `head`: the first 64 bytes of the file (or more).
Expected<ElfInfo> readHeader(const QByteArray &head);

// The header and the dynamic section: PT_DYNAMIC found through the program headers, its strings
// read from DT_STRTAB mapped through the PT_LOAD segments. A file without a dynamic section (a
// static program) has empty lists. Little-endian files only. Every offset is bounds-checked: a
// truncated or hostile file is an error finding, never a crash.
Expected<ElfDynamic> readDynamic(const ByteSource &source);
Expected<ElfDynamic> readDynamicFile(const QString &hostPath);
// The section header table with each section's name (from e_shstrndx's string table): what
// `.rodata` and `.nv_fatbin` are found by. Empty when the file has none (a stripped table).
// Sections without bytes in the file (SHT_NOBITS) have size 0.
Expected<QList<FileSection>> readSections(const ByteSource &source);
} // namespace elf

} // namespace cudnnsetup
