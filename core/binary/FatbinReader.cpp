#include "binary/FatbinReader.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "binary/ElfReader.h"
#include "common/LittleEndian.h"
#include "common/Version.h"

namespace cudnnsetup {

namespace {

// The layout nvcc writes (checked against CUDA 13.0's nvcc and cuDNN 9.19's libraries).
constexpr quint32 kFatbinMagic = 0xBA55ED50u;
constexpr qint64 kContainerHeaderSize = 16;
constexpr qint64 kEntryHeaderSize = 64; // the fixed part; entries for newer GPUs add to it
constexpr quint16 kKindPtx = 1;
constexpr quint16 kKindSass = 2;
constexpr quint64 kFlagArchSpecific = 0x100000; // sm_90a
constexpr quint64 kFlagFamily = 0x200000;       // sm_100f
// Zero bytes tolerated between containers (alignment), and an end to the walk of a damaged or
// hostile section: libcublasLt, the largest known, has under 3,000 containers and 6,000 entries.
constexpr qint64 kMaxPadding = 4096;
constexpr int kMaxEntries = 1 << 20;

Finding fatbinDamaged(const QString &details)
{
    return Finding::warning(
        QStringLiteral("fatbin.corrupt"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The GPU code list of the file (its fatbin) is damaged; it "
                                             "was read only in part.")),
        details);
}

struct Arch
{
    int number = 0;
    QString suffix; // "", "a", "f"

    bool operator<(const Arch &other) const
    {
        return std::tie(number, suffix) < std::tie(other.number, other.suffix);
    }
};

// The architectures of `containers` (arch -> how many containers carry it) that at least half of
// `total` carry (`common`), or fewer (!common).
QStringList archNames(const std::map<Arch, int> &containers, int total, const QString &prefix, bool common)
{
    QStringList list;
    for (const auto &[arch, count] : containers) {
        if ((2 * count >= total) == common)
            list.append(QStringLiteral("%1%2%3").arg(prefix).arg(arch.number).arg(arch.suffix));
    }
    return list;
}

} // namespace

namespace fatbin {

GpuCode readContainers(const ByteSource &source, qint64 offset, qint64 size)
{
    GpuCode code;
    code.hasFatbin = true;
    std::map<Arch, int> sass; // the containers that carry each
    std::map<Arch, int> ptx;
    const qint64 end = offset + size;
    qint64 container = offset;
    bool damaged = false;
    while (!damaged && container + kContainerHeaderSize <= end) {
        const QByteArray header = source(container, kContainerHeaderSize);
        if (header.size() < kContainerHeaderSize) {
            code.warnings.append(
                fatbinDamaged(QStringLiteral("the file ends at container %1").arg(container)));
            break;
        }
        const quint32 magic = le32(header, 0);
        if (magic == 0) {
            // Alignment between containers: step over zero words, a bounded distance.
            qint64 next = container + 4;
            while (next + 4 <= end && next - container < kMaxPadding && le32(source(next, 4), 0) == 0)
                next += 4;
            if (next + 4 > end)
                break; // zeros up to the end of the section
            if (le32(source(next, 4), 0) != kFatbinMagic) {
                code.warnings.append(fatbinDamaged(
                    QStringLiteral("no container header after the zeros at %1").arg(container)));
                break;
            }
            container = next;
            continue;
        }
        const qint64 headerSize = le16(header, 6);
        const quint64 entriesSize = le64(header, 8);
        if (magic != kFatbinMagic || headerSize < kContainerHeaderSize ||
            entriesSize > quint64(end - container - headerSize)) {
            code.warnings.append(
                fatbinDamaged(QStringLiteral("container at %1: magic 0x%2, header %3 bytes, "
                                             "entries %4 bytes, %5 bytes left in the section")
                                  .arg(container)
                                  .arg(magic, 0, 16)
                                  .arg(headerSize)
                                  .arg(entriesSize)
                                  .arg(end - container)));
            break;
        }
        const qint64 containerEnd = container + headerSize + qint64(entriesSize);
        ++code.containers;
        std::map<Arch, bool> sassHere;
        std::map<Arch, bool> ptxHere;
        qint64 entry = container + headerSize;
        while (entry + kEntryHeaderSize <= containerEnd) {
            const QByteArray fields = source(entry, kEntryHeaderSize);
            const quint16 kind = le16(fields, 0);
            const qint64 entryHeaderSize = le32(fields, 4);
            const quint64 payloadSize = le64(fields, 8);
            if (fields.size() < kEntryHeaderSize || entryHeaderSize < kEntryHeaderSize ||
                entryHeaderSize > containerEnd - entry ||
                payloadSize > quint64(containerEnd - entry - entryHeaderSize) ||
                code.entries >= kMaxEntries) {
                code.warnings.append(fatbinDamaged(
                    QStringLiteral("entry %1 at %2: header %3 bytes, payload %4 bytes, container ends at %5")
                        .arg(code.entries)
                        .arg(entry)
                        .arg(entryHeaderSize)
                        .arg(payloadSize)
                        .arg(containerEnd)));
                damaged = true;
                break;
            }
            ++code.entries;
            const quint64 flags = le64(fields, 40);
            const QString suffix = (flags & kFlagArchSpecific) ? QStringLiteral("a")
                                   : (flags & kFlagFamily)     ? QStringLiteral("f")
                                                               : QString();
            const Arch arch{int(le32(fields, 28)), suffix};
            if (kind == kKindSass) {
                sassHere[arch] = true;
            } else if (kind == kKindPtx) {
                ptxHere[arch] = true;
                const QString isa = QStringLiteral("%1.%2").arg(le16(fields, 26)).arg(le16(fields, 24));
                if (!code.ptxIsa.contains(isa))
                    code.ptxIsa.append(isa);
            }
            entry += entryHeaderSize + qint64(payloadSize);
        }
        for (const auto &here : sassHere)
            ++sass[here.first];
        for (const auto &here : ptxHere)
            ++ptx[here.first];
        container = containerEnd;
    }
    code.sass = archNames(sass, code.containers, QStringLiteral("sm_"), true);
    code.ptx = archNames(ptx, code.containers, QStringLiteral("compute_"), true);
    code.sassInPart = archNames(sass, code.containers, QStringLiteral("sm_"), false);
    code.ptxInPart = archNames(ptx, code.containers, QStringLiteral("compute_"), false);
    std::sort(code.ptxIsa.begin(), code.ptxIsa.end(),
              [](const QString &a, const QString &b) { return Version::parse(a) < Version::parse(b); });
    return code;
}

Expected<GpuCode> read(const ByteSource &source)
{
    const QByteArray head = source(0, 2);
    QList<FileSection> sections;
    QString name;
    if (head == "MZ") {
        Expected<PeInfo> pe = pe::read(source);
        if (!pe)
            return pe.error();
        sections = pe->sections;
        name = QStringLiteral(".nv_fatb");
    } else {
        Expected<QList<FileSection>> elfSections = elf::readSections(source);
        if (!elfSections)
            return elfSections.error();
        sections = *elfSections;
        name = QStringLiteral(".nv_fatbin");
    }
    const FileSection *section = findSection(sections, name);
    if (!section)
        return GpuCode();
    return readContainers(source, section->offset, section->size);
}

} // namespace fatbin
} // namespace cudnnsetup
