#include "PeImage.h"

namespace peimage {

namespace {

int alignUp(int value, int alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

// One node of VS_VERSIONINFO: wLength, wValueLength, wType, szKey, padding to 32 bits, Value,
// padding, Children (each on a 32-bit boundary).
QByteArray versionNode(const QString &key, const QByteArray &value, quint16 valueLength, quint16 type,
                       const QList<QByteArray> &children = {})
{
    ByteBuilder node;
    node.u16(2, valueLength);
    node.u16(4, type);
    node.utf16(6, key);
    node.align(4);
    node.append(value);
    for (const QByteArray &child : children) {
        node.align(4);
        node.append(child);
    }
    node.u16(0, quint16(node.size()));
    return node.data();
}

QByteArray utf16z(const QString &text)
{
    ByteBuilder b;
    b.utf16(0, text);
    return b.data();
}

quint32 ms(const QList<int> &v)
{
    return quint32(v.value(0)) << 16 | quint32(v.value(1));
}
quint32 ls(const QList<int> &v)
{
    return quint32(v.value(2)) << 16 | quint32(v.value(3));
}

// A real VS_VERSIONINFO as rc.exe lays it out: the fixed info, then StringFileInfo (with a
// FileVersion string that differs from the fixed one: the reader must use the fixed one) and
// VarFileInfo.
QByteArray versionInfo(const QList<int> &fileVersion, const QList<int> &productVersion)
{
    ByteBuilder fixed;
    fixed.u32(0, 0xFEEF04BD);
    fixed.u32(4, 0x00010000);
    fixed.u32(8, ms(fileVersion));
    fixed.u32(12, ls(fileVersion));
    fixed.u32(16, ms(productVersion));
    fixed.u32(20, ls(productVersion));
    fixed.u32(24, 0x3f);    // dwFileFlagsMask
    fixed.u32(28, 0);       // dwFileFlags
    fixed.u32(32, 0x40004); // VOS_NT_WINDOWS32
    fixed.u32(36, 2);       // VFT_DLL
    fixed.u32(40, 0);
    fixed.u32(44, 0);
    fixed.u32(48, 0);
    Q_ASSERT(fixed.size() == 52);

    const QString text = QStringLiteral("1.2.3.4 (not the fixed one)");
    const QByteArray fileVersionString =
        versionNode(QStringLiteral("FileVersion"), utf16z(text), quint16(text.size() + 1), 1);
    const QByteArray company =
        versionNode(QStringLiteral("CompanyName"), utf16z(QStringLiteral("NVIDIA Corporation")), 19, 1);
    const QByteArray table = versionNode(QStringLiteral("040904b0"), {}, 0, 1, {company, fileVersionString});
    const QByteArray stringFileInfo = versionNode(QStringLiteral("StringFileInfo"), {}, 0, 1, {table});
    ByteBuilder translation;
    translation.u16(0, 0x0409);
    translation.u16(2, 0x04b0);
    const QByteArray var = versionNode(QStringLiteral("Translation"), translation.data(), 4, 0);
    const QByteArray varFileInfo = versionNode(QStringLiteral("VarFileInfo"), {}, 0, 1, {var});
    return versionNode(QStringLiteral("VS_VERSION_INFO"), fixed.data(), 52, 0, {stringFileInfo, varFileInfo});
}

constexpr quint32 kSectionAlignment = 0x1000;
constexpr int kFileAlignment = 0x200;
constexpr int kSizeOfHeaders = 0x400;

} // namespace

Image buildImage(const ImageSpec &spec)
{
    Image image;
    const quint64 imageBase = spec.pe32Plus ? Q_UINT64_C(0x180000000) : Q_UINT64_C(0x10000000);
    const int optionalSize = spec.pe32Plus ? 240 : 224;
    const int fixedPart = spec.pe32Plus ? 112 : 96;
    const bool hasResources = !spec.fileVersion.isEmpty();
    const int sectionCount = (hasResources ? 2 : 1) + int(spec.sections.size());

    // .rdata: import descriptors, delay descriptors, an empty thunk array, the names, padding.
    const quint32 rdataVa = kSectionAlignment;
    ByteBuilder rdata;
    const int importsAt = 0;
    const int delayAt = alignUp((int(spec.imports.size()) + 1) * 20, 8);
    const int thunkAt = delayAt + (int(spec.delayImports.size()) + 1) * 32;
    int namesAt = thunkAt + 16;
    rdata.u64(thunkAt, 0);
    rdata.u64(thunkAt + 8, 0);
    const auto placeName = [&](const QByteArray &name) {
        const int at = namesAt;
        rdata.ascii(at, name);
        namesAt = alignUp(at + int(name.size()) + 1, 2);
        return rdataVa + quint32(at);
    };
    for (int i = 0; i < spec.imports.size(); ++i) {
        const int d = importsAt + 20 * i;
        rdata.u32(d + 0, rdataVa + quint32(thunkAt)); // ImportLookupTableRVA
        rdata.u32(d + 4, 0);
        rdata.u32(d + 8, 0);
        rdata.u32(d + 12, placeName(spec.imports.at(i)));
        rdata.u32(d + 16, rdataVa + quint32(thunkAt + 8)); // ImportAddressTableRVA
    }
    rdata.u32(importsAt + 20 * int(spec.imports.size()) + 16, 0); // the all-zero terminator
    for (int i = 0; i < spec.delayImports.size(); ++i) {
        const int d = delayAt + 32 * i;
        const quint64 bias = spec.delayVaBased ? imageBase : 0;
        const auto address = [&](quint32 rva) { return quint32(rva + bias); };
        rdata.u32(d + 0, spec.delayVaBased ? 0 : 1);
        rdata.u32(d + 4, address(placeName(spec.delayImports.at(i))));
        rdata.u32(d + 8, address(rdataVa + quint32(thunkAt))); // module handle
        rdata.u32(d + 12, address(rdataVa + quint32(thunkAt + 8)));
        rdata.u32(d + 16, address(rdataVa + quint32(thunkAt)));
        rdata.u32(d + 20, 0);
        rdata.u32(d + 24, 0);
        rdata.u32(d + 28, 0);
    }
    rdata.u8(namesAt, 0);
    rdata.align(8);
    const int paddingAt = rdata.size();
    if (spec.rdataPadding > 0)
        rdata.bytes(paddingAt, QByteArray(spec.rdataPadding, '\0'));
    rdata.append(spec.rdataData);
    const int rdataVirtualSize = rdata.size();
    const int rdataRaw = kSizeOfHeaders;
    const int rdataRawSize = alignUp(rdataVirtualSize, kFileAlignment);

    // .rsrc: type directory (a named entry, RT_ICON, RT_VERSION, RT_MANIFEST), name directory,
    // language directory, data entry, VS_VERSIONINFO.
    const quint32 rsrcVa = rdataVa + quint32(alignUp(rdataVirtualSize, int(kSectionAlignment)));
    const int rsrcRaw = rdataRaw + rdataRawSize;
    ByteBuilder rsrc;
    int rsrcRawSize = 0;
    int versionAt = 0;
    if (hasResources) {
        constexpr quint32 dirBit = 0x80000000u;
        const int nameAt = 48, emptyAt = 56, level2At = 72, level3At = 96, dataEntryAt = 120;
        versionAt = 136;
        rsrc.u16(12, 1); // named entries
        rsrc.u16(14, 3); // id entries
        rsrc.u32(16, dirBit | quint32(nameAt));
        rsrc.u32(20, dirBit | quint32(emptyAt));
        rsrc.u32(24, 3);
        rsrc.u32(28, dirBit | quint32(emptyAt));
        rsrc.u32(32, 16);
        rsrc.u32(36, dirBit | quint32(level2At));
        rsrc.u32(40, 24);
        rsrc.u32(44, dirBit | quint32(emptyAt));
        rsrc.u16(nameAt, 3);
        rsrc.bytes(nameAt + 2, QByteArrayLiteral("M\0U\0I\0"));
        rsrc.u32(emptyAt + 12, 0); // an empty directory
        rsrc.u16(level2At + 14, 1);
        rsrc.u32(level2At + 16, 1); // VS_VERSION_INFO is resource 1
        rsrc.u32(level2At + 20, dirBit | quint32(level3At));
        rsrc.u16(level3At + 14, 1);
        rsrc.u32(level3At + 16, 0x409);
        rsrc.u32(level3At + 20, quint32(dataEntryAt)); // a leaf
        const QByteArray version = versionInfo(spec.fileVersion, spec.productVersion);
        rsrc.u32(dataEntryAt, rsrcVa + quint32(versionAt)); // an RVA, not a resource offset
        rsrc.u32(dataEntryAt + 4, quint32(version.size()));
        rsrc.u32(dataEntryAt + 8, 1200);
        rsrc.bytes(versionAt, version);
        rsrcRawSize = alignUp(rsrc.size(), kFileAlignment);
    }
    // The extra sections, each after the one before in memory and in the file.
    QList<std::pair<quint32, int>> extraPlaces; // (RVA, raw offset)
    quint32 nextVa = rsrcVa + quint32(alignUp(std::max(rsrc.size(), 1), int(kSectionAlignment)));
    int nextRaw = rsrcRaw + rsrcRawSize;
    for (const auto &section : spec.sections) {
        extraPlaces.append({nextVa, nextRaw});
        nextVa += quint32(alignUp(std::max(int(section.second.size()), 1), int(kSectionAlignment)));
        nextRaw += alignUp(int(section.second.size()), kFileAlignment);
    }
    const quint32 sizeOfImage = nextVa;

    ByteBuilder file;
    file.bytes(0, QByteArrayLiteral("MZ"));
    file.u32(0x3c, quint32(image.lfanew));
    file.ascii(0x40, QByteArrayLiteral("This program cannot be run in DOS mode."));
    file.bytes(image.lfanew, QByteArrayLiteral("PE\0\0"));
    image.coff = image.lfanew + 4;
    file.u16(image.coff + 0, spec.machine);
    file.u16(image.coff + 2, quint16(sectionCount));
    file.u32(image.coff + 4, 0x65000000);
    file.u16(image.coff + 16, quint16(optionalSize));
    file.u16(image.coff + 18, spec.characteristics);
    image.optional = image.coff + 20;
    const int o = image.optional;
    file.u16(o + 0, spec.pe32Plus ? 0x20b : 0x10b);
    file.u8(o + 2, 14);                     // linker version
    file.u32(o + 4, quint32(rdataRawSize)); // SizeOfCode (sort of)
    file.u32(o + 16, 0);                    // AddressOfEntryPoint
    if (spec.pe32Plus) {
        file.u64(o + 24, imageBase);
    } else {
        file.u32(o + 24, rdataVa); // BaseOfData
        file.u32(o + 28, quint32(imageBase));
    }
    file.u32(o + 32, kSectionAlignment);
    file.u32(o + 36, kFileAlignment);
    file.u16(o + 40, 6); // OS version
    file.u16(o + 48, 6); // subsystem version
    file.u32(o + 56, sizeOfImage);
    file.u32(o + 60, kSizeOfHeaders);
    file.u16(o + 68, spec.subsystem);
    file.u16(o + 70, spec.dllCharacteristics);
    image.numberOfRvaAndSizes = o + fixedPart - 4;
    file.u32(image.numberOfRvaAndSizes, 16);
    image.directories = o + fixedPart;
    const auto setDirectory = [&](int index, quint32 address, quint32 size) {
        file.u32(image.directories + 8 * index, address);
        file.u32(image.directories + 8 * index + 4, size);
    };
    if (!spec.imports.isEmpty())
        setDirectory(1, rdataVa + quint32(importsAt), quint32(spec.imports.size() + 1) * 20);
    if (hasResources)
        setDirectory(2, rsrcVa, quint32(rsrc.size()));
    if (!spec.delayImports.isEmpty())
        setDirectory(13, rdataVa + quint32(delayAt), quint32(spec.delayImports.size() + 1) * 32);

    const int sections = o + optionalSize;
    file.bytes(sections, QByteArrayLiteral(".rdata"));
    file.u32(sections + 8, quint32(rdataVirtualSize));
    file.u32(sections + 12, rdataVa);
    file.u32(sections + 16, quint32(rdataRawSize));
    file.u32(sections + 20, quint32(rdataRaw));
    file.u32(sections + 36, 0x40000040); // INITIALIZED_DATA | READ
    if (hasResources) {
        file.bytes(sections + 40, QByteArrayLiteral(".rsrc"));
        file.u32(sections + 48, quint32(rsrc.size()));
        file.u32(sections + 52, rsrcVa);
        file.u32(sections + 56, quint32(rsrcRawSize));
        file.u32(sections + 60, quint32(rsrcRaw));
        file.u32(sections + 76, 0x40000040);
    }
    for (int i = 0; i < spec.sections.size(); ++i) {
        const int at = sections + 40 * ((hasResources ? 2 : 1) + i);
        const QByteArray &contents = spec.sections.at(i).second;
        file.bytes(at, spec.sections.at(i).first.left(8));
        file.u32(at + 8, quint32(contents.size()));
        file.u32(at + 12, extraPlaces.at(i).first);
        file.u32(at + 16, quint32(alignUp(int(contents.size()), kFileAlignment)));
        file.u32(at + 20, quint32(extraPlaces.at(i).second));
        file.u32(at + 36, 0x40000040);
        file.bytes(extraPlaces.at(i).second, contents);
        file.u8(extraPlaces.at(i).second + alignUp(int(contents.size()), kFileAlignment) - 1, 0);
    }
    file.u8(kSizeOfHeaders - 1, 0);
    file.bytes(rdataRaw, rdata.data());
    file.u8(rdataRaw + rdataRawSize - 1, 0);
    if (hasResources) {
        file.bytes(rsrcRaw, rsrc.data());
        file.u8(rsrcRaw + rsrcRawSize - 1, 0);
    }
    if (!spec.certificate.isEmpty()) {
        file.align(8);
        image.certificateOffset = file.size();
        ByteBuilder certificate;
        certificate.u32(0, quint32(8 + spec.certificate.size()));
        certificate.u16(4, 0x0200); // WIN_CERT_REVISION_2_0
        certificate.u16(6, 0x0002); // WIN_CERT_TYPE_PKCS_SIGNED_DATA
        certificate.bytes(8, spec.certificate);
        certificate.align(8);
        file.append(certificate.data());
        setDirectory(4, quint32(image.certificateOffset), quint32(certificate.size()));
    }

    image.bytes = file.data();
    image.rdataRaw = rdataRaw;
    image.rdataVa = rdataVa;
    image.paddingRaw = rdataRaw + paddingAt;
    image.paddingVa = rdataVa + quint32(paddingAt);
    image.rsrcRaw = rsrcRaw;
    image.rsrcLevel2 = rsrcRaw + 72;
    image.rsrcLevel3 = rsrcRaw + 96;
    image.versionRaw = hasResources ? rsrcRaw + versionAt : 0;
    return image;
}

QByteArray dllFor(quint16 machine)
{
    ImageSpec spec;
    spec.machine = machine;
    spec.pe32Plus = machine != cudnnsetup::PeInfo::I386;
    return buildImage(spec).bytes;
}

QByteArray x64Dll()
{
    return dllFor(cudnnsetup::PeInfo::Amd64);
}

} // namespace peimage
