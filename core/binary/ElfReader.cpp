#include "binary/ElfReader.h"

#include <QtEndian>

namespace cudnnsetup {

namespace {

// e_ident (16 bytes), then e_type and e_machine: the same place in 32- and 64-bit files.
constexpr qsizetype kIdentSize = 16;
constexpr qsizetype kNeeded = kIdentSize + 4;
constexpr int kClassOffset = 4; // EI_CLASS
constexpr int kDataOffset = 5;  // EI_DATA

} // namespace

QString ElfInfo::machineName() const
{
    switch (machine) {
    case 62:
        return QStringLiteral("x64");
    case 3:
        return QStringLiteral("x86");
    case 183:
        return QStringLiteral("arm64");
    case 40:
        return QStringLiteral("arm");
    default:
        break;
    }
    return QStringLiteral("elf-%1").arg(machine);
}

namespace elf {

Expected<ElfInfo> readHeader(const QByteArray &head)
{
    if (head.size() < 4 || !head.startsWith(QByteArrayLiteral("\x7f"
                                                              "ELF"))) {
        return Finding::error(
            QStringLiteral("elf.not-elf"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file is not a Linux program or library (ELF format).")),
            QStringLiteral("no \"\\x7fELF\" signature at offset 0"));
    }
    if (head.size() < kNeeded) {
        return Finding::error(
            QStringLiteral("elf.truncated"),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "The file ends inside its ELF header; it is probably an incomplete download or copy.")),
            QStringLiteral("%1 bytes, the header needs at least %2").arg(head.size()).arg(kNeeded));
    }
    const auto elfClass = static_cast<unsigned char>(head.at(kClassOffset));
    const auto elfData = static_cast<unsigned char>(head.at(kDataOffset));
    if ((elfClass != 1 && elfClass != 2) || (elfData != 1 && elfData != 2)) {
        return Finding::error(QStringLiteral("elf.corrupt"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The ELF header of the file is damaged.")),
                              QStringLiteral("EI_CLASS %1, EI_DATA %2").arg(elfClass).arg(elfData));
    }
    ElfInfo info;
    info.bits = elfClass == 1 ? 32 : 64;
    info.littleEndian = elfData == 1;
    const char *fields = head.constData() + kIdentSize;
    if (info.littleEndian) {
        info.type = qFromLittleEndian<quint16>(fields);
        info.machine = qFromLittleEndian<quint16>(fields + 2);
    } else {
        info.type = qFromBigEndian<quint16>(fields);
        info.machine = qFromBigEndian<quint16>(fields + 2);
    }
    return info;
}

} // namespace elf
} // namespace cudnnsetup
