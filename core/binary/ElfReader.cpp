#include "binary/ElfReader.h"

#include <limits>
#include <optional>

#include <QFile>
#include <QtEndian>

#include "common/Logging.h"

namespace cudnnsetup {

namespace {

// e_ident (16 bytes), then e_type and e_machine: the same place in 32- and 64-bit files.
constexpr qsizetype kIdentSize = 16;
constexpr qsizetype kNeeded = kIdentSize + 4;
constexpr int kClassOffset = 4; // EI_CLASS
constexpr int kDataOffset = 5;  // EI_DATA

} // namespace

namespace {

// Program and dynamic entry layout of the ELF specification (System V gABI, "Program Header" and
// "Dynamic Section").
constexpr quint32 kPtLoad = 1;
constexpr quint32 kPtDynamic = 2;
constexpr qint64 kDtNull = 0;
constexpr qint64 kDtNeeded = 1;
constexpr qint64 kDtStrtab = 5;
constexpr qint64 kDtStrsz = 10;
constexpr qint64 kDtSoname = 14;
constexpr qint64 kDtRpath = 15;
constexpr qint64 kDtRunpath = 29;
// Real libraries have a few dozen dynamic entries and names far shorter than this; a larger
// claim is a damaged or hostile file, not a reason to read gigabytes.
constexpr quint64 kMaxDynamicEntries = 1 << 16;
constexpr qint64 kMaxStringLength = 64 * 1024;

struct Segment
{
    quint32 type = 0;
    quint64 offset = 0;
    quint64 address = 0;
    quint64 fileSize = 0;
};

Finding truncated(const QString &details)
{
    return Finding::error(
        QStringLiteral("elf.truncated"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file is shorter than its ELF headers say; it is probably "
                                             "an incomplete download or copy.")),
        details);
}

Finding corrupt(const QString &details)
{
    return Finding::error(
        QStringLiteral("elf.corrupt"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The list of libraries the file needs (its ELF dynamic "
                                             "section) is damaged.")),
        details);
}

Finding corruptSections(const QString &details)
{
    return Finding::error(
        QStringLiteral("elf.sections-corrupt"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The section table of the ELF file is damaged.")), details);
}

// A little-endian unsigned field of 2, 4 or 8 bytes; `bytes` holds it (checked by the caller).
quint64 field(const QByteArray &bytes, qsizetype at, int size)
{
    const char *data = bytes.constData() + at;
    if (size == 8)
        return qFromLittleEndian<quint64>(data);
    if (size == 4)
        return qFromLittleEndian<quint32>(data);
    return qFromLittleEndian<quint16>(data);
}

// `base + add` as a file offset, or nothing when it does not fit one.
std::optional<qint64> fileOffset(quint64 base, quint64 add)
{
    constexpr quint64 limit = quint64(std::numeric_limits<qint64>::max());
    if (base > limit || add > limit - base)
        return std::nullopt;
    return qint64(base + add);
}

class DynamicParser
{
public:
    DynamicParser(const ByteSource &source, bool is64)
        : m_source(source)
        , m_is64(is64)
        , m_word(is64 ? 8 : 4)
    {
    }

    std::optional<Finding> readSegments(const QByteArray &head)
    {
        // e_phoff, e_phentsize and e_phnum of the 32- and 64-bit headers.
        const qsizetype headerSize = m_is64 ? 64 : 52;
        if (head.size() < headerSize)
            return truncated(
                QStringLiteral("%1 bytes, the ELF header needs %2").arg(head.size()).arg(headerSize));
        const quint64 tableOffset = field(head, m_is64 ? 0x20 : 0x1c, m_word);
        const quint64 entrySize = field(head, m_is64 ? 0x36 : 0x2a, 2);
        const quint64 count = field(head, m_is64 ? 0x38 : 0x2c, 2);
        if (count == 0)
            return std::nullopt;
        const quint64 minimumEntry = m_is64 ? 56 : 32;
        if (entrySize < minimumEntry)
            return corrupt(
                QStringLiteral("e_phentsize %1, at least %2 expected").arg(entrySize).arg(minimumEntry));
        const auto start = fileOffset(tableOffset, 0);
        if (!start)
            return corrupt(QStringLiteral("e_phoff %1").arg(tableOffset));
        const qint64 tableSize = qint64(entrySize * count); // at most 65535 * 65535
        const QByteArray table = m_source(*start, tableSize);
        if (table.size() < tableSize)
            return truncated(QStringLiteral("program headers at %1: %2 of %3 bytes")
                                 .arg(*start)
                                 .arg(table.size())
                                 .arg(tableSize));
        for (quint64 i = 0; i < count; ++i) {
            const qsizetype at = qsizetype(i * entrySize);
            Segment segment;
            segment.type = quint32(field(table, at, 4));
            segment.offset = field(table, at + (m_is64 ? 8 : 4), m_word);
            segment.address = field(table, at + (m_is64 ? 16 : 8), m_word);
            segment.fileSize = field(table, at + (m_is64 ? 32 : 16), m_word);
            if (segment.type == kPtLoad)
                m_loads.append(segment);
            else if (segment.type == kPtDynamic && !m_dynamic)
                m_dynamic = segment;
        }
        return std::nullopt;
    }

    std::optional<Finding> readDynamic(ElfDynamic &result) const
    {
        if (!m_dynamic)
            return std::nullopt;
        const quint64 entrySize = quint64(2 * m_word);
        const quint64 count = std::min(m_dynamic->fileSize / entrySize, kMaxDynamicEntries);
        const auto start = fileOffset(m_dynamic->offset, 0);
        if (!start)
            return corrupt(QStringLiteral("PT_DYNAMIC at offset %1").arg(m_dynamic->offset));
        const qint64 size = qint64(count * entrySize);
        const QByteArray entries = m_source(*start, size);
        if (entries.size() < size)
            return truncated(QStringLiteral("dynamic section at %1: %2 of %3 bytes")
                                 .arg(*start)
                                 .arg(entries.size())
                                 .arg(size));

        QList<std::pair<qint64, quint64>> strings; // tag, offset in the string table
        std::optional<quint64> tableAddress;
        std::optional<quint64> tableSize;
        for (quint64 i = 0; i < count; ++i) {
            const qsizetype at = qsizetype(i * entrySize);
            const quint64 raw = field(entries, at, m_word);
            const qint64 tag = m_is64 ? qint64(raw) : qint64(qint32(quint32(raw)));
            const quint64 value = field(entries, at + m_word, m_word);
            if (tag == kDtNull)
                break;
            if (tag == kDtStrtab)
                tableAddress = value;
            else if (tag == kDtStrsz)
                tableSize = value;
            else if (tag == kDtNeeded || tag == kDtSoname || tag == kDtRpath || tag == kDtRunpath)
                strings.append({tag, value});
        }
        if (strings.isEmpty())
            return std::nullopt;
        if (!tableAddress || !tableSize)
            return corrupt(QStringLiteral("library names without DT_STRTAB / DT_STRSZ"));
        const std::optional<qint64> table = mapAddress(*tableAddress);
        if (!table)
            return corrupt(
                QStringLiteral("DT_STRTAB 0x%1 is in no PT_LOAD segment").arg(*tableAddress, 0, 16));

        for (const auto &[tag, offset] : std::as_const(strings)) {
            Expected<QString> text = readString(*table, *tableSize, offset);
            if (!text)
                return text.error();
            if (tag == kDtNeeded)
                result.needed.append(*text);
            else if (tag == kDtSoname)
                result.soname = *text;
            else
                (tag == kDtRpath ? result.rpath : result.runpath) +=
                    text->split(QLatin1Char(':'), Qt::SkipEmptyParts);
        }
        return std::nullopt;
    }

private:
    // The file offset of a virtual address, through the PT_LOAD segment that holds it.
    std::optional<qint64> mapAddress(quint64 address) const
    {
        for (const Segment &load : m_loads) {
            if (address >= load.address && address - load.address < load.fileSize)
                return fileOffset(load.offset, address - load.address);
        }
        return std::nullopt;
    }

    Expected<QString> readString(qint64 table, quint64 tableSize, quint64 offset) const
    {
        if (offset >= tableSize)
            return corrupt(QStringLiteral("string offset %1 past DT_STRSZ %2").arg(offset).arg(tableSize));
        const auto start = fileOffset(quint64(table), offset);
        if (!start)
            return corrupt(QStringLiteral("string offset %1").arg(offset));
        const qint64 wanted = qint64(std::min<quint64>(tableSize - offset, kMaxStringLength));
        const QByteArray bytes = m_source(*start, wanted);
        const qsizetype end = bytes.indexOf('\0');
        if (end >= 0)
            return QString::fromUtf8(bytes.left(end));
        if (bytes.size() < wanted)
            return truncated(
                QStringLiteral("string at %1: the file ends after %2 bytes").arg(*start).arg(bytes.size()));
        return corrupt(QStringLiteral("string at %1 has no end within %2 bytes").arg(*start).arg(wanted));
    }

    const ByteSource &m_source;
    bool m_is64;
    int m_word;
    QList<Segment> m_loads;
    std::optional<Segment> m_dynamic;
};

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

Expected<ElfDynamic> readDynamic(const ByteSource &source)
{
    const QByteArray head = source(0, 64);
    const Expected<ElfInfo> header = readHeader(head);
    if (!header)
        return header.error();
    if (!header->littleEndian) {
        return Finding::error(
            QStringLiteral("elf.unsupported"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The file is a big-endian ELF file; only little-endian ones (x86-64, "
                                   "AArch64) are read.")),
            QStringLiteral("EI_DATA 2 (big-endian), e_machine %1").arg(header->machine));
    }
    ElfDynamic result;
    result.header = *header;
    DynamicParser parser(source, header->bits == 64);
    if (std::optional<Finding> error = parser.readSegments(head))
        return *error;
    if (std::optional<Finding> error = parser.readDynamic(result))
        return *error;
    return result;
}

Expected<QList<FileSection>> readSections(const ByteSource &source)
{
    const QByteArray head = source(0, 64);
    const Expected<ElfInfo> header = readHeader(head);
    if (!header)
        return header.error();
    const bool is64 = header->bits == 64;
    const qsizetype headerSize = is64 ? 64 : 52;
    if (!header->littleEndian || head.size() < headerSize)
        return truncated(
            QStringLiteral("%1 bytes, the ELF header needs %2").arg(head.size()).arg(headerSize));
    // e_shoff, e_shentsize, e_shnum and e_shstrndx of the 32- and 64-bit headers.
    const quint64 tableOffset = field(head, is64 ? 0x28 : 0x20, is64 ? 8 : 4);
    const quint64 entrySize = field(head, is64 ? 0x3a : 0x2e, 2);
    const quint64 count = field(head, is64 ? 0x3c : 0x30, 2);
    const quint64 namesIndex = field(head, is64 ? 0x3e : 0x32, 2);
    QList<FileSection> sections;
    if (tableOffset == 0 || count == 0)
        return sections;
    const quint64 minimumEntry = is64 ? 64 : 40;
    if (entrySize < minimumEntry || namesIndex >= count)
        return corruptSections(QStringLiteral("e_shentsize %1, e_shnum %2, e_shstrndx %3")
                                   .arg(entrySize)
                                   .arg(count)
                                   .arg(namesIndex));
    const auto start = fileOffset(tableOffset, 0);
    if (!start)
        return corruptSections(QStringLiteral("e_shoff %1").arg(tableOffset));
    const qint64 tableSize = qint64(entrySize * count); // at most 65535 * 65535
    const QByteArray table = source(*start, tableSize);
    if (table.size() < tableSize)
        return truncated(QStringLiteral("section headers at %1: %2 of %3 bytes")
                             .arg(*start)
                             .arg(table.size())
                             .arg(tableSize));
    const int word = is64 ? 8 : 4;
    struct Header
    {
        quint32 name;
        quint32 type;
        quint64 offset;
        quint64 size;
    };
    QList<Header> headers;
    for (quint64 i = 0; i < count; ++i) {
        const qsizetype at = qsizetype(i * entrySize);
        // sh_name, sh_type, then sh_flags and sh_addr (one word each) before sh_offset and sh_size.
        headers.append({quint32(field(table, at, 4)), quint32(field(table, at + 4, 4)),
                        field(table, at + 8 + 2 * word, word), field(table, at + 8 + 3 * word, word)});
    }
    constexpr quint32 kShtNobits = 8;
    constexpr quint64 kMaxNamesSize = 1024 * 1024; // real tables hold a few hundred bytes
    const Header &namesHeader = headers.at(qsizetype(namesIndex));
    const auto namesStart = fileOffset(namesHeader.offset, 0);
    if (!namesStart || namesHeader.size > kMaxNamesSize)
        return corruptSections(QStringLiteral("section name table at %1, %2 bytes")
                                   .arg(namesHeader.offset)
                                   .arg(namesHeader.size));
    const QByteArray names = source(*namesStart, qint64(namesHeader.size));
    if (quint64(names.size()) < namesHeader.size)
        return truncated(QStringLiteral("section name table at %1: %2 of %3 bytes")
                             .arg(*namesStart)
                             .arg(names.size())
                             .arg(namesHeader.size));
    for (const Header &section : std::as_const(headers)) {
        const qsizetype end = section.name < quint64(names.size()) ? names.indexOf('\0', section.name) : -1;
        const auto offset = fileOffset(section.offset, 0);
        const auto last = fileOffset(section.offset, section.size);
        if (end < 0 || !offset || !last)
            return corruptSections(QStringLiteral("section name %1, offset %2, size %3")
                                       .arg(section.name)
                                       .arg(section.offset)
                                       .arg(section.size));
        sections.append({QString::fromLatin1(names.mid(section.name, end - section.name)), *offset,
                         section.type == kShtNobits ? 0 : qint64(section.size)});
    }
    return sections;
}

Expected<ElfDynamic> readDynamicFile(const QString &hostPath)
{
    QFile file(hostPath);
    // Mapped rather than read: cuDNN's engine libraries are hundreds of megabytes and only a few
    // kilobytes of them are looked at. An empty file cannot be mapped; it reads as no bytes.
    const bool opened = file.open(QIODevice::ReadOnly);
    const uchar *mapped = opened && file.size() > 0 ? file.map(0, file.size()) : nullptr;
    if (!opened || (!mapped && file.size() > 0)) {
        return Finding::error(QStringLiteral("elf.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file could not be read.")),
                              QStringLiteral("%1: %2").arg(hostPath, file.errorString()));
    }
    Expected<ElfDynamic> result = readDynamic(bufferSource(
        QByteArray::fromRawData(reinterpret_cast<const char *>(mapped), qsizetype(file.size()))));
    if (!result) {
        Finding error = result.error();
        error.details = QStringLiteral("%1: %2").arg(hostPath, error.details);
        qCDebug(lcCore).noquote() << QStringLiteral("ELF not read: %1 (%2)").arg(error.id, error.details);
        return error;
    }
    qCDebug(lcCore).noquote() << QStringLiteral(
                                     "ELF %1: %2-bit %3, soname %4, needs %5, RPATH %6, RUNPATH %7")
                                     .arg(hostPath)
                                     .arg(result->header.bits)
                                     .arg(result->header.machineName(), result->soname,
                                          result->needed.join(QLatin1Char(' ')),
                                          result->rpath.join(QLatin1Char(':')),
                                          result->runpath.join(QLatin1Char(':')));
    return result;
}

} // namespace elf
} // namespace cudnnsetup
