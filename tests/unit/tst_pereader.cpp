#include "Cudnnctl.h"
#include "Suite.h"
#include "binary/PeReader.h"

#include <algorithm>

#include <QBuffer>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>
#include <QtEndian>

#include "PeImage.h"
#include "Sandbox.h"

using namespace cudnnsetup;
using namespace peimage;

namespace {

ImageSpec cudnnLikeDll()
{
    ImageSpec spec;
    spec.imports = {"cudnn_graph64_9.dll", "KERNEL32.dll", "api-ms-win-crt-runtime-l1-1-0.dll"};
    spec.delayImports = {"cublasLt64_12.dll", "nvrtc64_120_0.dll"};
    spec.fileVersion = {9, 1, 0, 70};
    spec.productVersion = {9, 1, 0, 0};
    return spec;
}

Image signedDll()
{
    ImageSpec spec = cudnnLikeDll();
    spec.certificate = QByteArray(300, '\x30');
    return buildImage(spec);
}

Expected<PeInfo> readBytes(const QByteArray &bytes)
{
    return pe::read(bufferSource(bytes));
}

Version version(const char *text)
{
    return Version::parse(QString::fromLatin1(text));
}

QStringList names(const QList<QByteArray> &list)
{
    QStringList result;
    for (const QByteArray &name : list)
        result.append(QString::fromLatin1(name));
    return result;
}

// A source that counts what is asked of it: the reader's work must stay bounded on any input.
struct CountingSource
{
    QByteArray data;
    int calls = 0;
    qint64 bytes = 0;

    ByteSource source()
    {
        return [this](qint64 offset, qint64 size) {
            ++calls;
            bytes += std::max<qint64>(size, 0);
            if (offset < 0 || size <= 0 || offset >= data.size())
                return QByteArray();
            return data.mid(offset, size);
        };
    }
};

} // namespace

class TestPeReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void x64DllEveryField()
    {
        const ImageSpec spec = cudnnLikeDll();
        const Image image = buildImage(spec);
        const Expected<PeInfo> info = readBytes(image.bytes);
        QVERIFY2(info.ok(), qPrintable(info.error().details));
        QCOMPARE(info->machine, quint16(0x8664));
        QCOMPARE(info->machineName(), QStringLiteral("x64"));
        QVERIFY(info->pe32Plus);
        QCOMPARE(info->bits(), 64);
        QVERIFY(info->isDll);
        QCOMPARE(info->characteristics, quint16(0x2022));
        QCOMPARE(info->dllCharacteristics, quint16(0x0160));
        QCOMPARE(info->subsystem, quint16(3));
        QCOMPARE(info->imports, names(spec.imports));
        QCOMPARE(info->delayImports, names(spec.delayImports));
        QVERIFY(info->fileVersion.isValid());
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(info->fileVersion, version("9.1.0.70"));
        QCOMPARE(info->productVersion.toString(), QStringLiteral("9.1.0.0"));
        QVERIFY(!info->hasSignature);
        QVERIFY2(info->warnings.isEmpty(), qPrintable(findingIds(info->warnings).join(u',')));
    }

    void versionPartsUseAllSixteenBits()
    {
        ImageSpec spec = cudnnLikeDll();
        spec.fileVersion = {65535, 0, 65534, 1};
        spec.productVersion = {13, 0, 88, 0};
        const Expected<PeInfo> info = readBytes(buildImage(spec).bytes);
        QVERIFY(info.ok());
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("65535.0.65534.1"));
        QCOMPARE(info->productVersion.toString(), QStringLiteral("13.0.88.0"));
    }

    void x86DllWithOldVaDelayImports()
    {
        ImageSpec spec = cudnnLikeDll();
        spec.machine = PeInfo::I386;
        spec.pe32Plus = false;
        spec.characteristics = 0x2102; // EXECUTABLE_IMAGE | 32BIT_MACHINE | DLL
        spec.subsystem = 2;            // WINDOWS_GUI
        spec.dllCharacteristics = 0x0140;
        spec.delayVaBased = true;
        spec.fileVersion = {7, 6, 5, 32};
        spec.productVersion = {7, 6, 5, 0};
        const Expected<PeInfo> info = readBytes(buildImage(spec).bytes);
        QVERIFY2(info.ok(), qPrintable(info.error().details));
        QCOMPARE(info->machine, quint16(0x014c));
        QCOMPARE(info->machineName(), QStringLiteral("x86"));
        QVERIFY(!info->pe32Plus);
        QCOMPARE(info->bits(), 32);
        QVERIFY(info->isDll);
        QCOMPARE(info->characteristics, quint16(0x2102));
        QCOMPARE(info->subsystem, quint16(2));
        QCOMPARE(info->dllCharacteristics, quint16(0x0140));
        QCOMPARE(info->imports, names(spec.imports));
        QCOMPARE(info->delayImports, names(spec.delayImports));
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("7.6.5.32"));
        QCOMPARE(info->productVersion.toString(), QStringLiteral("7.6.5.0"));
        QVERIFY(info->warnings.isEmpty());
    }

    void delayImportsWithClearAttributeButRvas()
    {
        // Some linkers leave attribute bit 0 clear and still write RVAs.
        ImageSpec spec = cudnnLikeDll();
        const Image image = buildImage(spec);
        ByteBuilder bytes(image.bytes);
        const quint32 delayRva =
            qFromLittleEndian<quint32>(image.bytes.constData() + image.directories + 8 * 13);
        const int delayRaw = image.rdataRaw + int(delayRva - image.rdataVa);
        bytes.u32(delayRaw, 0);
        bytes.u32(delayRaw + 32, 0);
        const Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QCOMPARE(info->delayImports, names(spec.delayImports));
        QVERIFY(info->warnings.isEmpty());
    }

    void arm64Dll()
    {
        ImageSpec spec = cudnnLikeDll();
        spec.machine = PeInfo::Arm64;
        spec.dllCharacteristics = 0x4160; // with GUARD_CF
        const Expected<PeInfo> info = readBytes(buildImage(spec).bytes);
        QVERIFY(info.ok());
        QCOMPARE(info->machine, quint16(0xaa64));
        QCOMPARE(info->machineName(), QStringLiteral("arm64"));
        QVERIFY(info->pe32Plus);
        QCOMPARE(info->bits(), 64);
        QCOMPARE(info->dllCharacteristics, quint16(0x4160));
        QCOMPARE(info->imports, names(spec.imports));
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));
    }

    void exeWithoutDllFlag()
    {
        ImageSpec spec;
        spec.characteristics = 0x0022; // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE
        spec.imports = {"python312.dll", "VCRUNTIME140.dll"};
        const Expected<PeInfo> info = readBytes(buildImage(spec).bytes);
        QVERIFY(info.ok());
        QVERIFY(!info->isDll);
        QCOMPARE(info->characteristics, quint16(0x0022));
        QCOMPARE(info->imports, names(spec.imports));
        QVERIFY(info->delayImports.isEmpty());
        QVERIFY(!info->fileVersion.isValid()); // no version resource: unknown, not a guess
        QVERIFY(!info->productVersion.isValid());
        QVERIFY(!info->hasSignature);
        QVERIFY(info->warnings.isEmpty());
    }

    void noImportsAtAll()
    {
        const Expected<PeInfo> info = readBytes(buildImage(ImageSpec()).bytes);
        QVERIFY(info.ok());
        QVERIFY(info->imports.isEmpty());
        QVERIFY(info->delayImports.isEmpty());
        QVERIFY(info->warnings.isEmpty());
    }

    void certificateTable()
    {
        const Image image = signedDll();
        const Expected<PeInfo> info = readBytes(image.bytes);
        QVERIFY(info.ok());
        QVERIFY(info->hasSignature);
        QVERIFY(info->warnings.isEmpty());
        QCOMPARE(info->imports.size(), 3);
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));
    }

    void certificateTableOutsideTheFile()
    {
        const Image image = signedDll();
        const int entry = image.directories + 8 * 4;
        {
            ByteBuilder bytes(image.bytes);
            bytes.u32(entry, quint32(image.bytes.size() + 0x1000)); // past the end
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->hasSignature);
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.truncated")});
        }
        {
            ByteBuilder bytes(image.bytes);
            bytes.u32(entry + 4, 0x7fffffff); // starts inside, ends far outside
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->hasSignature);
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.truncated")});
        }
        {
            ByteBuilder bytes(image.bytes);
            bytes.u32(entry + 4, 0); // size 0: no table
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->hasSignature);
            QVERIFY(info->warnings.isEmpty());
        }
        {
            ByteBuilder bytes(image.bytes);
            bytes.u32(image.certificateOffset, 0xffffffff); // dwLength larger than the table
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->hasSignature);
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.signature-corrupt")});
        }
        {
            // The certificate directory is the only file offset: read as an RVA it would be unmapped.
            ByteBuilder bytes(image.bytes);
            bytes.u32(image.numberOfRvaAndSizes, 4); // directories 0..3: no certificate entry
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->hasSignature);
        }
    }

    void machineNames_data()
    {
        QTest::addColumn<quint16>("machine");
        QTest::addColumn<QString>("name");
        QTest::newRow("amd64") << quint16(0x8664) << QStringLiteral("x64");
        QTest::newRow("i386") << quint16(0x014c) << QStringLiteral("x86");
        QTest::newRow("arm64") << quint16(0xaa64) << QStringLiteral("arm64");
        QTest::newRow("armnt") << quint16(0x01c4) << QStringLiteral("arm");
        QTest::newRow("ia64") << quint16(0x0200) << QStringLiteral("0x0200");
        QTest::newRow("arm64ec") << quint16(0xa641) << QStringLiteral("0xa641");
        QTest::newRow("unknown") << quint16(0) << QStringLiteral("0x0000");
    }
    void machineNames()
    {
        QFETCH(quint16, machine);
        QFETCH(QString, name);
        PeInfo info;
        info.machine = machine;
        QCOMPARE(info.machineName(), name);
    }

    void readHeadersFromTheFirstKilobyte()
    {
        ImageSpec spec = cudnnLikeDll();
        spec.characteristics = 0x0022;
        const Image x64 = buildImage(spec);
        Expected<PeInfo> info = pe::readHeaders(x64.bytes.left(1024));
        QVERIFY(info.ok());
        QCOMPARE(info->machineName(), QStringLiteral("x64"));
        QVERIFY(info->pe32Plus);
        QVERIFY(!info->isDll);
        QCOMPARE(info->characteristics, quint16(0x0022));
        QCOMPARE(info->subsystem, quint16(3));
        QCOMPARE(info->dllCharacteristics, quint16(0x0160));
        QVERIFY(info->imports.isEmpty()); // headers only

        spec.machine = PeInfo::I386;
        spec.pe32Plus = false;
        spec.characteristics = 0x0102;
        info = pe::readHeaders(buildImage(spec).bytes.left(512));
        QVERIFY(info.ok());
        QCOMPARE(info->machineName(), QStringLiteral("x86"));
        QCOMPARE(info->bits(), 32);
        QCOMPARE(info->characteristics, quint16(0x0102));

        // Up to the magic is enough; the rest of the optional header may be missing.
        const int magicEnd = x64.optional + 2;
        info = pe::readHeaders(x64.bytes.left(magicEnd));
        QVERIFY(info.ok());
        QVERIFY(info->pe32Plus);
        QCOMPARE(info->subsystem, quint16(0));
        info = pe::readHeaders(x64.bytes.left(magicEnd - 1));
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, QStringLiteral("pe.truncated"));
        QCOMPARE(info.error().severity, Severity::Error);
        QVERIFY(!info.error().message.toEnglish().isEmpty());

        // Every shorter head is an error, every longer one succeeds.
        for (int length = 0; length <= 1024; ++length) {
            const Expected<PeInfo> result = pe::readHeaders(x64.bytes.left(length));
            QCOMPARE(result.ok(), length >= magicEnd);
        }
    }

    void notPe_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("pe.not-pe");
        QTest::newRow("one byte") << QByteArray("M") << QStringLiteral("pe.not-pe");
        QTest::newRow("ELF") << QByteArray("\x7f"
                                           "ELF\x02\x01\x01",
                                           7)
                             << QStringLiteral("pe.not-pe");
        QTest::newRow("text") << QByteArray("This is a text file, not a DLL.\n")
                              << QStringLiteral("pe.not-pe");
        QTest::newRow("zip") << QByteArray("PK\x03\x04", 4) << QStringLiteral("pe.not-pe");
        QTest::newRow("MZ only") << QByteArray("MZ") << QStringLiteral("pe.truncated");

        ByteBuilder ne;
        ne.bytes(0, "MZ");
        ne.u32(0x3c, 0x80);
        ne.bytes(0x80, "NE");
        ne.u8(0xff, 0);
        QTest::newRow("16-bit NE") << ne.data() << QStringLiteral("pe.not-pe");

        ByteBuilder dos;
        dos.bytes(0, "MZ");
        dos.u8(0x3f, 0); // e_lfanew 0: an MS-DOS program
        QTest::newRow("MS-DOS") << dos.data() << QStringLiteral("pe.not-pe");
    }
    void notPe()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, id);
        const Expected<PeInfo> info = readBytes(bytes);
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, id);
        QCOMPARE(info.error().severity, Severity::Error);
        QVERIFY(!info.error().message.isEmpty());
        QVERIFY(!info.error().details.isEmpty());
        const Expected<PeInfo> head = pe::readHeaders(bytes);
        QVERIFY(!head.ok());
        QCOMPARE(head.error().id, id);
    }

    void headerLimits_data()
    {
        QTest::addColumn<int>("field"); // 0: NumberOfSections, 1: SizeOfOptionalHeader, 2: magic, 3: e_lfanew
        QTest::addColumn<quint32>("value");
        QTest::addColumn<QString>("id");
        QTest::newRow("97 sections") << 0 << 97u << QStringLiteral("pe.corrupt");
        QTest::newRow("65535 sections") << 0 << 65535u << QStringLiteral("pe.corrupt");
        QTest::newRow("optional header 65535") << 1 << 65535u << QStringLiteral("pe.corrupt");
        QTest::newRow("optional header 4097") << 1 << 4097u << QStringLiteral("pe.corrupt");
        QTest::newRow("optional header 0") << 1 << 0u << QStringLiteral("pe.corrupt");
        QTest::newRow("optional header too small") << 1 << 100u << QStringLiteral("pe.corrupt");
        QTest::newRow("ROM magic") << 2 << 0x107u << QStringLiteral("pe.corrupt");
        QTest::newRow("zero magic") << 2 << 0u << QStringLiteral("pe.corrupt");
        QTest::newRow("e_lfanew huge") << 3 << 0xffffffffu << QStringLiteral("pe.corrupt");
        QTest::newRow("e_lfanew past end") << 3 << 0x100000u << QStringLiteral("pe.truncated");
        QTest::newRow("e_lfanew zero") << 3 << 0u << QStringLiteral("pe.not-pe");
        QTest::newRow("e_lfanew to DOS stub") << 3 << 0x40u << QStringLiteral("pe.not-pe");
    }
    void headerLimits()
    {
        QFETCH(int, field);
        QFETCH(quint32, value);
        QFETCH(QString, id);
        const Image image = buildImage(cudnnLikeDll());
        ByteBuilder bytes(image.bytes);
        switch (field) {
        case 0:
            bytes.u16(image.coff + 2, quint16(value));
            break;
        case 1:
            bytes.u16(image.coff + 16, quint16(value));
            break;
        case 2:
            bytes.u16(image.optional, quint16(value));
            break;
        default:
            bytes.u32(0x3c, value);
            break;
        }
        const Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, id);
        QVERIFY(!info.error().details.isEmpty());
    }

    void zeroAndMaximumSections()
    {
        ImageSpec spec = cudnnLikeDll();
        spec.rdataPadding = 0x1000; // room for 96 section headers
        const Image image = buildImage(spec);
        ByteBuilder bytes(image.bytes);
        bytes.u16(image.coff + 2, 0); // no sections: the headers still read, nothing maps
        Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(info->imports.isEmpty());
        QCOMPARE(findingIds(info->warnings),
                 (QStringList{QStringLiteral("pe.imports-corrupt"), QStringLiteral("pe.version-corrupt")}));

        bytes = ByteBuilder(image.bytes);
        bytes.u16(image.coff + 2, 96); // the loader's limit; the extra "headers" are the sections' bytes
        info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QCOMPARE(info->imports.size(), 3);
    }

    void numberOfRvaAndSizesIsChecked()
    {
        const ImageSpec spec = cudnnLikeDll();
        const Image image = buildImage(spec);
        ByteBuilder bytes(image.bytes);
        bytes.u32(image.numberOfRvaAndSizes, 2); // export and import only
        Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QCOMPARE(info->imports, names(spec.imports));
        QVERIFY(info->delayImports.isEmpty());
        QVERIFY(!info->fileVersion.isValid());

        bytes.u32(image.numberOfRvaAndSizes, 0);
        info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(info->imports.isEmpty());

        bytes.u32(image.numberOfRvaAndSizes, 0xffffffff); // capped at 16
        info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QCOMPARE(info->delayImports, names(spec.delayImports));
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));

        // SizeOfOptionalHeader bounds the directories too: 14 directories need 112 + 14 * 8 bytes.
        bytes.u16(image.coff + 16, 112 + 13 * 8);
        bytes.u16(image.coff + 2, 0); // the section table moved: do not read it
        info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(info->delayImports.isEmpty());
    }

    void importTableWithoutTerminator()
    {
        ImageSpec spec;
        spec.imports = {"a.dll"};
        spec.rdataPadding = 5000 * 20;
        const Image image = buildImage(spec);
        ByteBuilder bytes(image.bytes);
        const QByteArray descriptor = image.bytes.mid(image.rdataRaw, 20);
        for (int i = 0; i < 5000; ++i)
            bytes.bytes(image.paddingRaw + 20 * i, descriptor);
        bytes.u32(image.directories + 8, image.paddingVa);
        CountingSource counting{bytes.data()};
        const Expected<PeInfo> info = pe::read(counting.source());
        QVERIFY(info.ok());
        QCOMPARE(info->imports.size(), 4096);
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.imports-corrupt")});
        QVERIFY(counting.calls < 10000);
    }

    void importTableThatWrapsAround()
    {
        // Descriptors near the top of the 32-bit address space: RVA + 20 * i must not wrap to 0.
        const Image image = buildImage(cudnnLikeDll());
        ByteBuilder bytes(image.bytes);
        bytes.u32(image.directories + 8, 0xfffffff0);
        bytes.u32(image.directories + 8 * 13, 0xffffffff);
        const Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(info->imports.isEmpty());
        QVERIFY(info->delayImports.isEmpty());
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.imports-corrupt")});
    }

    void badImportNames_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::newRow("control character") << QByteArray("cudnn\x01.dll");
        QTest::newRow("high byte") << QByteArray("cudnn\xe4.dll");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("no end within 512 bytes") << QByteArray(600, 'a');
    }
    void badImportNames()
    {
        QFETCH(QByteArray, name);
        ImageSpec spec = cudnnLikeDll();
        spec.imports = {"KERNEL32.dll", "second.dll", "third.dll"};
        spec.rdataPadding = 1024;
        const Image image = buildImage(spec);
        ByteBuilder bytes(image.bytes);
        bytes.ascii(image.paddingRaw, name);
        bytes.u32(image.rdataRaw + 20 + 12, image.paddingVa); // the second descriptor's name
        const Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QCOMPARE(info->imports, QStringList{QStringLiteral("KERNEL32.dll")});
        QCOMPARE(info->delayImports, names(spec.delayImports)); // the other tables still read
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.imports-corrupt")});
    }

    void longestImportNameIsAccepted()
    {
        ImageSpec spec;
        spec.imports = {QByteArray(511, 'x') + ".dll"};
        spec.imports.first().truncate(512);
        const Expected<PeInfo> info = readBytes(buildImage(spec).bytes);
        QVERIFY(info.ok());
        QCOMPARE(info->imports.size(), 1);
        QCOMPARE(info->imports.first().size(), 512);
    }

    void importNameOutsideTheFile()
    {
        const Image image = buildImage(cudnnLikeDll());
        {
            ByteBuilder bytes(image.bytes);
            bytes.u32(image.rdataRaw + 12, 0x00900000); // in no section
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(info->imports.isEmpty());
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.imports-corrupt")});
        }
        {
            // Inside .rdata's virtual size but past its raw data: zero-filled, not in the file.
            ByteBuilder bytes(image.bytes);
            const int section = image.optional + 240;
            bytes.u32(section + 8, 0x1000); // VirtualSize, up to .rsrc; the raw data is 0x200 bytes
            bytes.u32(image.rdataRaw + 12, image.rdataVa + 0x800);
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(info->imports.isEmpty());
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.imports-corrupt")});
        }
    }

    void resourceCycles_data()
    {
        QTest::addColumn<int>("where"); // 0: type entry, 1: name entry, 2: language entry
        QTest::addColumn<quint32>("target");
        QTest::newRow("type entry points at the root") << 0 << 0x80000000u;
        QTest::newRow("name entry points at itself") << 1 << (0x80000000u | 72u);
        QTest::newRow("name entry points at the root") << 1 << 0x80000000u;
        QTest::newRow("language entry points at the root") << 2 << 0x80000000u;
        QTest::newRow("language entry points at itself") << 2 << (0x80000000u | 96u);
        QTest::newRow("type entry points far away") << 0 << 0xffffffffu;
        QTest::newRow("language entry is a leaf in the root") << 2 << 0u;
    }
    void resourceCycles()
    {
        QFETCH(int, where);
        QFETCH(quint32, target);
        const Image image = buildImage(cudnnLikeDll());
        ByteBuilder bytes(image.bytes);
        const int entry = where == 0   ? image.rsrcRaw + 36
                          : where == 1 ? image.rsrcLevel2 + 20
                                       : image.rsrcLevel3 + 20;
        bytes.u32(entry, target);
        CountingSource counting{bytes.data()};
        const Expected<PeInfo> info = pe::read(counting.source());
        QVERIFY(info.ok());
        QVERIFY(!info->fileVersion.isValid());
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.version-corrupt")});
        QCOMPARE(info->imports.size(), 3);
        QVERIFY(counting.calls < 100);
    }

    void resourceDirectoryWithHugeCounts()
    {
        const Image image = buildImage(cudnnLikeDll());
        ByteBuilder bytes(image.bytes);
        bytes.u16(image.rsrcRaw + 12, 0xffff);
        bytes.u16(image.rsrcRaw + 14, 0xffff);
        Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(!info->fileVersion.isValid());
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.version-corrupt")});

        // Many entries that fit the limit but not the section: read nothing past the section.
        bytes = ByteBuilder(image.bytes);
        bytes.u16(image.rsrcRaw + 12, 0);
        bytes.u16(image.rsrcRaw + 14, 4000);
        info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(!info->fileVersion.isValid());
        QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.version-corrupt")});
    }

    void damagedVersionInfo_data()
    {
        QTest::addColumn<int>("offset"); // in VS_VERSIONINFO
        QTest::addColumn<quint32>("value");
        QTest::addColumn<bool>("warning");
        QTest::newRow("signature") << 40 << 0x12345678u << true;
        QTest::newRow("key") << 6 << quint32('X') << true;
        QTest::newRow("value length too short") << 2 << 20u << true;
        QTest::newRow("no fixed info") << 2 << 0u << false;
    }
    void damagedVersionInfo()
    {
        QFETCH(int, offset);
        QFETCH(quint32, value);
        QFETCH(bool, warning);
        const Image image = buildImage(cudnnLikeDll());
        ByteBuilder bytes(image.bytes);
        if (offset == 40)
            bytes.u32(image.versionRaw + offset, value);
        else
            bytes.u16(image.versionRaw + offset, quint16(value));
        const Expected<PeInfo> info = readBytes(bytes.data());
        QVERIFY(info.ok());
        QVERIFY(!info->fileVersion.isValid());
        QVERIFY(!info->productVersion.isValid());
        QCOMPARE(findingIds(info->warnings),
                 warning ? QStringList{QStringLiteral("pe.version-corrupt")} : QStringList());
    }

    void versionResourceTooSmall()
    {
        const Image image = buildImage(cudnnLikeDll());
        for (quint32 size : {0u, 10u, 60u, 91u}) {
            ByteBuilder bytes(image.bytes);
            bytes.u32(image.rsrcRaw + 120 + 4, size); // the data entry's Size
            const Expected<PeInfo> info = readBytes(bytes.data());
            QVERIFY(info.ok());
            QVERIFY(!info->fileVersion.isValid());
            QCOMPARE(findingIds(info->warnings), QStringList{QStringLiteral("pe.version-corrupt")});
        }
    }

    void everyTruncation_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("x64 signed") << signedDll().bytes;
        ImageSpec spec = cudnnLikeDll();
        spec.machine = PeInfo::I386;
        spec.pe32Plus = false;
        spec.delayVaBased = true;
        QTest::newRow("x86") << buildImage(spec).bytes;
    }
    void everyTruncation()
    {
        QFETCH(QByteArray, bytes);
        const Expected<PeInfo> full = readBytes(bytes);
        QVERIFY(full.ok());
        QVERIFY(full->warnings.isEmpty());
        int errors = 0;
        for (int length = 0; length < bytes.size(); ++length) {
            const Expected<PeInfo> info = readBytes(bytes.left(length));
            if (!info.ok()) {
                ++errors;
                QCOMPARE(info.error().severity, Severity::Error);
                QVERIFY(info.error().id.startsWith(QLatin1String("pe.")));
                continue;
            }
            // A cut file that still parses must say so: it is never mistaken for a whole one.
            QVERIFY2(!info->warnings.isEmpty(), qPrintable(QString::number(length)));
            QCOMPARE(info->warnings.first().id, QStringLiteral("pe.truncated"));
            QCOMPARE(info->machine, full->machine);
            QVERIFY(!info->hasSignature);
        }
        QVERIFY(errors >= 0x180); // everything before the end of the section table
    }

    void randomByteFlips()
    {
        const Image image = signedDll();
        QRandomGenerator random(20240611);
        int parsed = 0;
        for (int iteration = 0; iteration < 4000; ++iteration) {
            ByteBuilder bytes(image.bytes);
            const int flips = 1 + int(random.bounded(6));
            for (int i = 0; i < flips; ++i) {
                // Half of the damage goes to the headers, where most of the decisions are.
                const int limit = random.bounded(2) == 0 ? 0x400 : bytes.size();
                const int at = int(random.bounded(limit));
                if (random.bounded(3) == 0 && at + 4 <= bytes.size())
                    bytes.u32(at, random.generate());
                else
                    bytes.u8(at, quint8(random.bounded(256)));
            }
            CountingSource counting{bytes.data()};
            const Expected<PeInfo> info = pe::read(counting.source());
            QVERIFY(counting.calls < 20000);
            QVERIFY(counting.bytes < 16 * 1024 * 1024);
            if (info.ok()) {
                ++parsed;
                QVERIFY(info->imports.size() <= 4096);
                QVERIFY(info->delayImports.size() <= 4096);
                QVERIFY(!info->machineName().isEmpty());
            } else {
                QVERIFY(!info.error().id.isEmpty());
            }
            // Truncated to its first KiB: headers or a named error, never a crash.
            const auto headers = pe::readHeaders(bytes.data().left(1024));
            QVERIFY(headers.ok() || !headers.error().id.isEmpty());
        }
        QVERIFY(parsed > 0);
    }

    void randomGarbageAfterTheSignature()
    {
        QRandomGenerator random(7);
        for (int iteration = 0; iteration < 2000; ++iteration) {
            ByteBuilder bytes;
            const int size = 0x40 + int(random.bounded(0x2000));
            for (int i = 0; i < size; i += 4)
                bytes.u32(i, random.generate());
            bytes.bytes(0, "MZ");
            bytes.u32(0x3c, 0x40);
            bytes.bytes(0x40, QByteArrayLiteral("PE\0\0"));
            bytes.u16(0x44 + 2, quint16(random.bounded(4)));              // a few sections
            bytes.u16(0x44 + 16, quint16(random.bounded(2) ? 240 : 224)); // plausible size
            bytes.u16(0x58, random.bounded(2) ? 0x20b : 0x10b);
            CountingSource counting{bytes.data()};
            const auto info = pe::read(counting.source());
            QVERIFY(info.ok() || !info.error().id.isEmpty());
            QVERIFY(counting.calls < 20000);
        }
    }

    void sourceThatReturnsTooMuch()
    {
        const Image image = signedDll();
        const QByteArray data = image.bytes;
        const ByteSource greedy = [data](qint64 offset, qint64) { return data.mid(offset); };
        const Expected<PeInfo> info = pe::read(greedy);
        QVERIFY(info.ok());
        QCOMPARE(info->imports.size(), 3);
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));
        QVERIFY(info->hasSignature);

        const Expected<PeInfo> none = pe::read(ByteSource());
        QVERIFY(!none.ok());
    }

    void ioDeviceAndFile()
    {
        const Image image = signedDll();
        QByteArray copy = image.bytes;
        QBuffer buffer(&copy);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        Expected<PeInfo> info = pe::read(&buffer);
        QVERIFY(info.ok());
        QCOMPARE(info->delayImports.size(), 2);
        QVERIFY(info->hasSignature);
        buffer.close();

        info = pe::read(&buffer);
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, QStringLiteral("pe.unreadable"));
        info = pe::read(static_cast<QIODevice *>(nullptr));
        QVERIFY(!info.ok());

        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        sandbox.write(QStringLiteral("/bin/cudnn64_9.dll"), image.bytes);
        sandbox.write(QStringLiteral("/bin/readme.txt"), "not a DLL");
        info = pe::readFile(sandbox.hostPath(QStringLiteral("/bin/cudnn64_9.dll")));
        QVERIFY(info.ok());
        QCOMPARE(info->imports.size(), 3);
        QCOMPARE(info->fileVersion.toString(), QStringLiteral("9.1.0.70"));

        const QString text = sandbox.hostPath(QStringLiteral("/bin/readme.txt"));
        info = pe::readFile(text);
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, QStringLiteral("pe.not-pe"));
        QVERIFY(info.error().details.contains(text));

        const QString missing = sandbox.hostPath(QStringLiteral("/bin/missing.dll"));
        info = pe::readFile(missing);
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, QStringLiteral("pe.unreadable"));
        QVERIFY(info.error().details.contains(missing));
    }

    void hostElfIsNotPe()
    {
        if (!QFile::exists(QStringLiteral("/bin/sh")))
            QSKIP("no /bin/sh on this machine");
        const Expected<PeInfo> info = pe::readFile(QStringLiteral("/bin/sh"));
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, QStringLiteral("pe.not-pe"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestPeReader)
#include "tst_pereader.moc"
