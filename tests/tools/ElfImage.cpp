#include "ElfImage.h"

#include "PeImage.h"

namespace elfimage {

namespace {

// The sections' bytes, their name table and the section header table (a null section first, the
// name table last), at the end of the file; e_shoff, e_shnum and e_shstrndx point there.
void appendSections(peimage::ByteBuilder &image, const QList<std::pair<QByteArray, QByteArray>> &sections)
{
    constexpr int kSectionHeaderSize = 64;
    QByteArray names(1, '\0');
    QList<std::pair<int, int>> placed; // (name offset, file offset)
    for (const auto &[name, contents] : sections) {
        image.align(8);
        placed.append({int(names.size()), image.append(contents)});
        names += name + '\0';
    }
    const int namesName = int(names.size());
    names += QByteArrayLiteral(".shstrtab") + '\0';
    const int namesAt = image.append(names);
    image.align(8);
    const int table = image.size();
    const auto header = [&](int index, int name, quint32 type, int offset, int size) {
        const int at = table + index * kSectionHeaderSize;
        image.u32(at, quint32(name));
        image.u32(at + 4, type);
        image.u64(at + 24, quint64(offset));
        image.u64(at + 32, quint64(size));
        image.u64(at + 56, 0); // sh_entsize, the last field
    };
    header(0, 0, 0, 0, 0);
    for (int i = 0; i < sections.size(); ++i)
        header(i + 1, placed.at(i).first, 1, placed.at(i).second,
               int(sections.at(i).second.size())); // PROGBITS
    const int count = int(sections.size()) + 2;
    header(count - 1, namesName, 3, namesAt, int(names.size())); // SHT_STRTAB
    image.u64(40, quint64(table));                               // e_shoff
    image.u16(58, kSectionHeaderSize);                           // e_shentsize
    image.u16(60, quint16(count));                               // e_shnum
    image.u16(62, quint16(count - 1));                           // e_shstrndx
}

} // namespace

QByteArray build(const SharedObject &library)
{
    constexpr int kHeaderSize = 64;
    constexpr int kProgramHeaderSize = 56;
    constexpr int kStrings = kHeaderSize + 2 * kProgramHeaderSize;

    // The string table: offset 0 is the empty string.
    QByteArray strings(1, '\0');
    const auto add = [&](const QString &text) {
        const quint64 offset = quint64(strings.size());
        strings += text.toUtf8() + '\0';
        return offset;
    };
    QList<std::pair<quint64, quint64>> entries; // (d_tag, d_val)
    if (!library.soname.isEmpty())
        entries.append({14, add(library.soname)}); // DT_SONAME
    for (const QString &name : library.needed)
        entries.append({1, add(name)}); // DT_NEEDED
    if (!library.rpath.isEmpty())
        entries.append({15, add(library.rpath.join(QLatin1Char(':')))}); // DT_RPATH
    if (!library.runpath.isEmpty())
        entries.append({29, add(library.runpath.join(QLatin1Char(':')))}); // DT_RUNPATH
    // ld.so relocates through a symbol table, so one that dlopen takes has one: a null symbol.
    const int symbols = (kStrings + int(strings.size()) + 7) & ~7;
    constexpr int kSymbolSize = 24;
    entries.append({5, kStrings});                 // DT_STRTAB: file offset = address
    entries.append({10, quint64(strings.size())}); // DT_STRSZ
    entries.append({6, quint64(symbols)});         // DT_SYMTAB
    entries.append({11, kSymbolSize});             // DT_SYMENT
    if (library.crashesWhenLoaded)
        entries.append({12, kStrings}); // DT_INIT
    if (library.crashesWhenUnloaded)
        entries.append({13, kStrings}); // DT_FINI
    entries.append({0, 0});             // DT_NULL
    const int dynamic = symbols + kSymbolSize;
    const int dynamicSize = int(entries.size()) * 16;
    const int total = dynamic + dynamicSize;

    peimage::ByteBuilder image;
    image.bytes(0, QByteArray("\x7f"
                              "ELF\x02\x01\x01",
                              7)); // ELFCLASS64, little-endian, EV_CURRENT
    image.u16(16, 3);              // ET_DYN
    image.u16(18, 62);             // EM_X86_64
    image.u32(20, 1);
    image.u64(32, kHeaderSize); // e_phoff
    image.u16(52, kHeaderSize);
    image.u16(54, kProgramHeaderSize);
    image.u16(56, 2); // e_phnum
    image.u16(58, 64);
    const auto programHeader = [&](int at, quint32 type, quint64 offset, quint64 size) {
        image.u32(at, type);
        image.u32(at + 4, 6); // PF_R | PF_W: ld.so relocates the dynamic section in place
        image.u64(at + 8, offset);
        image.u64(at + 16, offset); // p_vaddr
        image.u64(at + 24, offset); // p_paddr
        image.u64(at + 32, size);
        image.u64(at + 40, size);
        image.u64(at + 48, type == 1 ? 0x1000 : 8);
    };
    programHeader(kHeaderSize, 1, 0, quint64(total));                         // PT_LOAD
    programHeader(kHeaderSize + kProgramHeaderSize, 2, dynamic, dynamicSize); // PT_DYNAMIC
    image.bytes(kStrings, strings);
    for (int i = 0; i < entries.size(); ++i) {
        image.u64(dynamic + 16 * i, entries.at(i).first);
        image.u64(dynamic + 16 * i + 8, entries.at(i).second);
    }
    if (!library.sections.isEmpty())
        appendSections(image, library.sections);
    return image.data();
}

} // namespace elfimage
