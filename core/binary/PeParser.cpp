#include "binary/PeParser.h"

#include <algorithm>
#include <utility>

#include "common/LittleEndian.h"

namespace cudnnsetup::pe {

namespace {

// Layout constants from the PE/COFF specification (learn.microsoft.com, "PE Format").
constexpr qint64 kDosHeaderSize = 64;
constexpr qint64 kLfanewOffset = 0x3c;
constexpr qint64 kCoffHeaderSize = 20;
constexpr qint64 kSectionHeaderSize = 40;
constexpr quint16 kMagicPe32 = 0x10b;
constexpr quint16 kMagicPe32Plus = 0x20b;
constexpr quint16 kFileDll = 0x2000;
// Offsets inside the optional header.
constexpr qint64 kSubsystemOffset = 68;
constexpr qint64 kDllCharacteristicsOffset = 70;
constexpr qint64 kSizeOfHeadersOffset = 60;
constexpr qint64 kFixedPartPe32 = 96; // up to and including NumberOfRvaAndSizes
constexpr qint64 kFixedPartPe32Plus = 112;

// Limits: what the Windows loader accepts, or far beyond anything a real DLL holds.
constexpr int kMaxSections = 96;                 // "the Windows loader limits the number of sections to 96"
constexpr quint32 kMaxLfanew = 0x10000000;       // 256 MiB of MS-DOS stub is no PE file
constexpr quint16 kMaxOptionalHeaderSize = 4096; // real ones are 224 (PE32) or 240 (PE32+)
constexpr quint32 kMaxDirectories = 16;
constexpr int kMaxImports = 4096;
constexpr qint64 kMaxNameLength = 512;
constexpr quint32 kMaxResourceEntries = 4096;
constexpr qint64 kMaxVersionResource = 64 * 1024;
constexpr qint64 kMaxFileOffset = qint64(1) << 48;

constexpr int kImportDirectory = 1;
constexpr int kResourceDirectory = 2;
constexpr int kCertificateDirectory = 4;
constexpr int kDelayImportDirectory = 13;
constexpr qint64 kImportDescriptorSize = 20;
constexpr qint64 kDelayDescriptorSize = 32;

constexpr quint32 kResourceTypeVersion = 16; // RT_VERSION
constexpr quint32 kResourceHighBit = 0x80000000u;
constexpr quint32 kFixedFileInfoSignature = 0xFEEF04BDu;
constexpr qint64 kFixedFileInfoSize = 52;

QString hex(quint64 value)
{
    return QStringLiteral("0x%1").arg(value, 0, 16);
}

Finding notPe(const QString &details)
{
    return Finding::error(
        QStringLiteral("pe.not-pe"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The file is not a Windows program or DLL (PE format).")),
        details);
}

Finding truncatedHeaders(const QString &details)
{
    return Finding::error(
        QStringLiteral("pe.truncated"),
        Text(QT_TRANSLATE_NOOP(
            "cudnnsetup",
            "The file ends inside its PE headers; it is probably an incomplete download or copy.")),
        details);
}

Finding corruptHeaders(const QString &details)
{
    return Finding::error(
        QStringLiteral("pe.corrupt"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The PE headers of the file are damaged; Windows would not load it.")),
        details);
}
} // namespace

QByteArray PeParser::bytes(qint64 offset, qint64 size) const
{
    if (offset < 0 || size <= 0 || offset > kMaxFileOffset || size > kMaxFileOffset || !m_source)
        return {};
    QByteArray data = m_source(offset, size);
    if (data.size() > size)
        data.truncate(size);
    return data;
}

qint64 PeParser::rvaToOffset(quint64 rva, qint64 *available) const
{
    for (const Section &section : m_sections) {
        const quint64 start = section.virtualAddress;
        const quint64 span = std::max(section.virtualSize, section.rawSize);
        if (rva < start || rva - start >= span)
            continue;
        const quint64 delta = rva - start;
        if (delta >= section.rawSize)
            return -1; // zero-filled by the loader, not stored in the file
        *available = qint64(section.rawSize - delta);
        return qint64(section.rawPointer) + qint64(delta);
    }
    // The loader maps the headers at RVA 0 as they are in the file.
    if (rva < m_sizeOfHeaders) {
        *available = qint64(m_sizeOfHeaders - rva);
        return qint64(rva);
    }
    return -1;
}

QByteArray PeParser::readRva(quint64 rva, qint64 size, Problem *problem) const
{
    qint64 available = 0;
    const qint64 offset = rvaToOffset(rva, &available);
    if (offset < 0 || available < size) {
        *problem = Problem::Unmapped;
        return {};
    }
    QByteArray data = bytes(offset, size);
    if (data.size() < size) {
        *problem = Problem::Truncated;
        return {};
    }
    *problem = Problem::None;
    return data;
}

QString PeParser::readName(quint64 rva, Problem *problem, QString *why) const
{
    qint64 available = 0;
    const qint64 offset = rvaToOffset(rva, &available);
    if (offset < 0) {
        *problem = Problem::Unmapped;
        *why = QStringLiteral("name RVA %1 lies in no section").arg(hex(rva));
        return {};
    }
    const qint64 wanted = std::min(available, kMaxNameLength + 1);
    const QByteArray data = bytes(offset, wanted);
    const qsizetype end = data.indexOf('\0');
    if (end < 0) {
        if (data.size() < wanted) {
            *problem = Problem::Truncated;
            *why = QStringLiteral("the file ends inside the name at offset %1").arg(hex(quint64(offset)));
        } else {
            *problem = Problem::Invalid;
            *why = QStringLiteral("the name at RVA %1 has no end within %2 bytes").arg(hex(rva)).arg(wanted);
        }
        return {};
    }
    if (end == 0) {
        *problem = Problem::Invalid;
        *why = QStringLiteral("the name at RVA %1 is empty").arg(hex(rva));
        return {};
    }
    for (qsizetype i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(data.at(i));
        if (c < 0x20 || c > 0x7e) {
            *problem = Problem::Invalid;
            *why = QStringLiteral("the name at RVA %1 holds the non-printable byte %2").arg(hex(rva), hex(c));
            return {};
        }
    }
    *problem = Problem::None;
    return QString::fromLatin1(data.constData(), end);
}

void PeParser::warn(const QString &id, const Text &message, const QString &details)
{
    // One warning per kind: a garbage table would otherwise repeat the same one thousands of times.
    for (const Finding &finding : std::as_const(info.warnings)) {
        if (finding.id == id)
            return;
    }
    info.warnings.append(Finding::warning(id, message, details));
}

void PeParser::warnTruncated(const QString &details)
{
    warn(QStringLiteral("pe.truncated"),
         Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                "The file is shorter than its headers say; it is probably an incomplete "
                                "download or copy.")),
         details);
}

void PeParser::warnImports(bool delay, Problem problem, const QString &details)
{
    const QString where =
        delay ? QStringLiteral("delay-import directory: ") : QStringLiteral("import directory: ");
    if (problem == Problem::Truncated) {
        warnTruncated(where + details);
        return;
    }
    warn(QStringLiteral("pe.imports-corrupt"),
         Text(QT_TRANSLATE_NOOP(
             "cudnnsetup", "The list of DLLs this file depends on is damaged; it was read only in part.")),
         where + details);
}

void PeParser::warnVersion(Problem problem, const QString &details)
{
    const QString where = QStringLiteral("version resource: ");
    if (problem == Problem::Truncated) {
        warnTruncated(where + details);
        return;
    }
    warn(QStringLiteral("pe.version-corrupt"),
         Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                "The version information of the file is damaged and was not read.")),
         where + details);
}

std::optional<Finding> PeParser::parseHeaders(bool full)
{
    const QByteArray dos = bytes(0, kDosHeaderSize);
    if (dos.size() < 2 || dos.at(0) != 'M' || dos.at(1) != 'Z')
        return notPe(QStringLiteral("no \"MZ\" signature at offset 0"));
    if (dos.size() < kDosHeaderSize)
        return truncatedHeaders(
            QStringLiteral("the file ends at %1, inside the MS-DOS header").arg(dos.size()));

    const quint32 lfanew = le32(dos, kLfanewOffset);
    if (lfanew > kMaxLfanew)
        return corruptHeaders(QStringLiteral("e_lfanew %1 is out of bounds").arg(hex(lfanew)));

    // Signature, COFF header and the optional header's magic.
    const qint64 peOffset = lfanew;
    const QByteArray nt = bytes(peOffset, 4 + kCoffHeaderSize + 2);
    if (nt.size() >= 4 && !nt.startsWith(QByteArrayLiteral("PE\0\0")))
        return notPe(QStringLiteral("no \"PE\\0\\0\" signature at e_lfanew %1").arg(hex(lfanew)));
    if (nt.size() < 4 + kCoffHeaderSize)
        return truncatedHeaders(
            QStringLiteral("the file ends inside the COFF header at %1").arg(hex(lfanew)));

    info.machine = le16(nt, 4);
    const quint16 sectionCount = le16(nt, 4 + 2);
    const quint16 optionalSize = le16(nt, 4 + 16);
    info.characteristics = le16(nt, 4 + 18);
    info.isDll = (info.characteristics & kFileDll) != 0;

    if (sectionCount > kMaxSections)
        return corruptHeaders(QStringLiteral("NumberOfSections %1 exceeds the loader's limit of %2")
                                  .arg(sectionCount)
                                  .arg(kMaxSections));
    if (optionalSize > kMaxOptionalHeaderSize)
        return corruptHeaders(
            QStringLiteral("SizeOfOptionalHeader %1 is implausibly large").arg(optionalSize));
    if (optionalSize < 2)
        return corruptHeaders(
            QStringLiteral("SizeOfOptionalHeader %1: no optional header").arg(optionalSize));
    if (nt.size() < 4 + kCoffHeaderSize + 2)
        return truncatedHeaders(QStringLiteral("the file ends before the optional header magic"));

    const quint16 magic = le16(nt, 4 + kCoffHeaderSize);
    if (magic != kMagicPe32 && magic != kMagicPe32Plus)
        return corruptHeaders(QStringLiteral("unknown optional header magic %1").arg(hex(magic)));
    info.pe32Plus = magic == kMagicPe32Plus;
    const qint64 fixedPart = info.pe32Plus ? kFixedPartPe32Plus : kFixedPartPe32;
    if (optionalSize < fixedPart)
        return corruptHeaders(
            QStringLiteral("SizeOfOptionalHeader %1 is smaller than the %2 bytes of a %3 header")
                .arg(optionalSize)
                .arg(fixedPart)
                .arg(info.pe32Plus ? QStringLiteral("PE32+") : QStringLiteral("PE32")));

    const qint64 optionalOffset = peOffset + 4 + kCoffHeaderSize;
    const QByteArray optional = bytes(optionalOffset, optionalSize);
    if (optional.size() >= kDllCharacteristicsOffset + 2) {
        info.subsystem = le16(optional, kSubsystemOffset);
        info.dllCharacteristics = le16(optional, kDllCharacteristicsOffset);
    }
    if (!full)
        return std::nullopt;

    if (optional.size() < optionalSize)
        return truncatedHeaders(QStringLiteral("the file ends inside the optional header (%1 of %2 bytes)")
                                    .arg(optional.size())
                                    .arg(optionalSize));
    m_imageBase = info.pe32Plus ? le64(optional, 24) : le32(optional, 28);
    m_sizeOfHeaders = le32(optional, kSizeOfHeadersOffset);
    // NumberOfRvaAndSizes is checked before any directory is read, and so is SizeOfOptionalHeader.
    const quint32 declared = le32(optional, fixedPart - 4);
    const quint32 fitting = quint32((optionalSize - fixedPart) / 8);
    const quint32 directoryCount = std::min({declared, fitting, kMaxDirectories});
    for (quint32 i = 0; i < directoryCount; ++i) {
        DataDirectory entry;
        entry.address = le32(optional, fixedPart + 8 * i);
        entry.size = le32(optional, fixedPart + 8 * i + 4);
        m_directories.append(entry);
    }

    const qint64 sectionTableOffset = optionalOffset + optionalSize;
    const qint64 sectionTableSize = kSectionHeaderSize * sectionCount;
    const QByteArray table = bytes(sectionTableOffset, sectionTableSize);
    if (table.size() < sectionTableSize)
        return truncatedHeaders(QStringLiteral("the file ends inside the section table (%1 sections at %2)")
                                    .arg(sectionCount)
                                    .arg(hex(quint64(sectionTableOffset))));
    for (int i = 0; i < sectionCount; ++i) {
        const qint64 at = kSectionHeaderSize * i;
        Section section;
        // Eight bytes, zero-padded; an image's names never use the object files' "/offset" form.
        const QByteArray name = table.mid(at, 8);
        section.name = QString::fromLatin1(name.left(name.indexOf('\0') < 0 ? 8 : name.indexOf('\0')));
        section.virtualSize = le32(table, at + 8);
        section.virtualAddress = le32(table, at + 12);
        section.rawSize = le32(table, at + 16);
        section.rawPointer = le32(table, at + 20);
        m_sections.append(section);
        info.sections.append({section.name, section.rawPointer, section.rawSize});
    }
    return std::nullopt;
}

void PeParser::checkSectionExtent()
{
    quint64 end = 0;
    for (const Section &section : std::as_const(m_sections)) {
        if (section.rawSize > 0)
            end = std::max(end, quint64(section.rawPointer) + section.rawSize);
    }
    if (end > 0 && bytes(qint64(end) - 1, 1).isEmpty())
        warnTruncated(QStringLiteral("the sections end at %1, past the end of the file").arg(hex(end)));
}

void PeParser::parseImports()
{
    const DataDirectory dir = directory(kImportDirectory);
    if (dir.address == 0)
        return;
    for (int i = 0; i < kMaxImports; ++i) {
        Problem problem = Problem::None;
        const quint64 rva = quint64(dir.address) + quint64(i) * kImportDescriptorSize;
        const QByteArray descriptor = readRva(rva, kImportDescriptorSize, &problem);
        if (problem != Problem::None) {
            warnImports(false, problem,
                        QStringLiteral("descriptor %1 at RVA %2 cannot be read").arg(i).arg(hex(rva)));
            return;
        }
        const quint32 nameRva = le32(descriptor, 12);
        const quint32 firstThunk = le32(descriptor, 16);
        // The table ends with an all-zero entry; the loader also stops at the first entry without
        // a name or an import address table, and so do we.
        if (nameRva == 0 || firstThunk == 0)
            return;
        QString why;
        const QString name = readName(nameRva, &problem, &why);
        if (problem != Problem::None) {
            warnImports(false, problem, QStringLiteral("descriptor %1: %2").arg(i).arg(why));
            return;
        }
        info.imports.append(name);
    }
    warnImports(false, Problem::Invalid,
                QStringLiteral("no terminating entry within %1 descriptors").arg(kMaxImports));
}

void PeParser::parseDelayImports()
{
    const DataDirectory dir = directory(kDelayImportDirectory);
    if (dir.address == 0)
        return;
    for (int i = 0; i < kMaxImports; ++i) {
        Problem problem = Problem::None;
        const quint64 rva = quint64(dir.address) + quint64(i) * kDelayDescriptorSize;
        const QByteArray descriptor = readRva(rva, kDelayDescriptorSize, &problem);
        if (problem != Problem::None) {
            warnImports(true, problem,
                        QStringLiteral("descriptor %1 at RVA %2 cannot be read").arg(i).arg(hex(rva)));
            return;
        }
        const quint32 attributes = le32(descriptor, 0);
        const quint32 nameField = le32(descriptor, 4);
        if (descriptor.count('\0') == descriptor.size() || nameField == 0)
            return;
        // Attribute bit 0 says the fields are RVAs. Old (Visual C++ 6) descriptors hold virtual
        // addresses instead; some linkers leave the bit clear and still write RVAs.
        quint64 nameRva = nameField;
        if ((attributes & 1) == 0 && m_imageBase != 0 && nameField >= m_imageBase)
            nameRva = nameField - m_imageBase;
        QString why;
        const QString name = readName(nameRva, &problem, &why);
        if (problem != Problem::None) {
            warnImports(true, problem, QStringLiteral("descriptor %1: %2").arg(i).arg(why));
            return;
        }
        info.delayImports.append(name);
    }
    warnImports(true, Problem::Invalid,
                QStringLiteral("no terminating entry within %1 descriptors").arg(kMaxImports));
}

// One IMAGE_RESOURCE_DIRECTORY and its entries; offsets are relative to the resource directory.
bool PeParser::readResourceDirectory(quint64 base, quint32 offset, QList<ResourceEntry> *entries,
                                     quint16 *namedCount)
{
    Problem problem = Problem::None;
    const QByteArray header = readRva(base + offset, 16, &problem);
    if (problem != Problem::None) {
        warnVersion(problem, QStringLiteral("resource directory at %1 cannot be read").arg(hex(offset)));
        return false;
    }
    *namedCount = le16(header, 12);
    const quint32 total = quint32(*namedCount) + le16(header, 14);
    if (total > kMaxResourceEntries) {
        warnVersion(Problem::Invalid,
                    QStringLiteral("resource directory at %1 has %2 entries").arg(hex(offset)).arg(total));
        return false;
    }
    const QByteArray data =
        total == 0 ? QByteArray() : readRva(base + offset + 16, qint64(total) * 8, &problem);
    if (problem != Problem::None) {
        warnVersion(problem, QStringLiteral("resource entries at %1 cannot be read").arg(hex(offset)));
        return false;
    }
    for (quint32 i = 0; i < total; ++i)
        entries->append({le32(data, 8 * i), le32(data, 8 * i + 4)});
    return true;
}

// The offset of the version resource's data entry; null when there is none or it cannot be read.
std::optional<quint32> PeParser::versionLanguageEntry(quint64 base)
{
    // Three levels, a fixed depth: type (RT_VERSION), name (the first), language (the first).
    // Each level reads one directory, so entries that point back to a parent cannot loop.
    QList<ResourceEntry> types;
    quint16 named = 0;
    if (!readResourceDirectory(base, 0, &types, &named))
        return std::nullopt;
    quint32 next = 0;
    bool found = false;
    for (int i = named; i < types.size(); ++i) {
        if (types.at(i).name == kResourceTypeVersion) {
            next = types.at(i).target;
            found = true;
            break;
        }
    }
    if (!found)
        return std::nullopt; // no version resource: not an error, the fields stay invalid
    for (int level = 2; level <= 3; ++level) {
        if ((next & kResourceHighBit) == 0) {
            warnVersion(Problem::Invalid,
                        QStringLiteral("level %1 entry is a leaf, not a directory").arg(level - 1));
            return std::nullopt;
        }
        QList<ResourceEntry> entries;
        if (!readResourceDirectory(base, next & ~kResourceHighBit, &entries, &named))
            return std::nullopt;
        if (entries.isEmpty()) {
            warnVersion(Problem::Invalid, QStringLiteral("level %1 resource directory is empty").arg(level));
            return std::nullopt;
        }
        next = entries.first().target;
    }
    if ((next & kResourceHighBit) != 0) {
        warnVersion(Problem::Invalid, QStringLiteral("language entry points to a directory, not to data"));
        return std::nullopt;
    }
    return next;
}

void PeParser::parseVersion()
{
    const DataDirectory dir = directory(kResourceDirectory);
    if (dir.address == 0)
        return;
    const quint64 base = dir.address;
    const std::optional<quint32> next = versionLanguageEntry(base);
    if (!next)
        return;
    Problem problem = Problem::None;
    const QByteArray dataEntry = readRva(base + *next, 16, &problem);
    if (problem != Problem::None) {
        warnVersion(problem, QStringLiteral("resource data entry at %1 cannot be read").arg(hex(*next)));
        return;
    }
    parseFixedFileInfo(le32(dataEntry, 0), le32(dataEntry, 4));
}

void PeParser::parseFixedFileInfo(quint32 dataRva, quint32 dataSize)
{
    // VS_VERSIONINFO: wLength, wValueLength, wType, szKey L"VS_VERSION_INFO", padding to 32 bits,
    // VS_FIXEDFILEINFO.
    static const QString key = QStringLiteral("VS_VERSION_INFO");
    const qint64 keyOffset = 6;
    const qint64 keyEnd = keyOffset + 2 * (key.size() + 1);
    const qint64 valueOffset = (keyEnd + 3) & ~qint64(3);
    const qint64 needed = valueOffset + kFixedFileInfoSize;
    if (dataSize < keyEnd) {
        warnVersion(Problem::Invalid, QStringLiteral("the resource holds only %1 bytes").arg(dataSize));
        return;
    }
    Problem problem = Problem::None;
    const QByteArray data =
        readRva(dataRva, std::min<qint64>({qint64(dataSize), needed, kMaxVersionResource}), &problem);
    if (problem != Problem::None) {
        warnVersion(problem, QStringLiteral("the resource data at RVA %1 cannot be read").arg(hex(dataRva)));
        return;
    }
    for (int i = 0; i <= key.size(); ++i) {
        const char16_t expected = i < key.size() ? key.at(i).unicode() : u'\0';
        if (le16(data, keyOffset + 2 * i) != expected) {
            warnVersion(Problem::Invalid, QStringLiteral("the key is not VS_VERSION_INFO"));
            return;
        }
    }
    const quint16 valueLength = le16(data, 2);
    if (valueLength == 0)
        return; // a version resource without VS_FIXEDFILEINFO
    if (valueLength < kFixedFileInfoSize || data.size() < needed) {
        warnVersion(Problem::Invalid,
                    QStringLiteral("VS_FIXEDFILEINFO is too short (%1 bytes, resource %2 bytes)")
                        .arg(valueLength)
                        .arg(dataSize));
        return;
    }
    const quint32 signature = le32(data, valueOffset);
    if (signature != kFixedFileInfoSignature) {
        warnVersion(Problem::Invalid,
                    QStringLiteral("VS_FIXEDFILEINFO signature is %1, not 0xfeef04bd").arg(hex(signature)));
        return;
    }
    const auto version = [&](qint64 at) {
        const quint32 ms = le32(data, at);
        const quint32 ls = le32(data, at + 4);
        return Version::fromParts({int(ms >> 16), int(ms & 0xffff), int(ls >> 16), int(ls & 0xffff)});
    };
    info.fileVersion = version(valueOffset + 8);
    info.productVersion = version(valueOffset + 16);
}

void PeParser::parseCertificate()
{
    const DataDirectory dir = directory(kCertificateDirectory);
    if (dir.address == 0 || dir.size == 0)
        return;
    // The only directory whose address is a file offset, not an RVA: the table is not mapped.
    const qint64 offset = dir.address;
    const QByteArray header = bytes(offset, 8);
    const bool endPresent = !bytes(offset + qint64(dir.size) - 1, 1).isEmpty();
    if (header.size() < 8 || !endPresent) {
        warnTruncated(QStringLiteral("certificate table at %1 (%2 bytes) lies past the end of the file")
                          .arg(hex(dir.address))
                          .arg(dir.size));
        return;
    }
    const quint32 length = le32(header, 0);
    if (length < 8 || length > dir.size) {
        warn(QStringLiteral("pe.signature-corrupt"),
             Text(QT_TRANSLATE_NOOP("cudnnsetup", "The digital signature table of the file is damaged.")),
             QStringLiteral("WIN_CERTIFICATE dwLength %1 in a table of %2 bytes").arg(length).arg(dir.size));
        return;
    }
    info.hasSignature = true;
}

} // namespace cudnnsetup::pe
