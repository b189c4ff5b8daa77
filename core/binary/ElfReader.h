#pragma once

#include "common/Expected.h"

#include <QByteArray>
#include <QString>

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

namespace elf {
// `head`: the first 64 bytes of the file (or more).
Expected<ElfInfo> readHeader(const QByteArray &head);
} // namespace elf

} // namespace cudnnsetup
