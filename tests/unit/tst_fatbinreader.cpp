#include "Suite.h"
#include "binary/ElfReader.h"
#include "binary/FatbinReader.h"

#include "ElfImage.h"
#include "FatbinImage.h"
#include "PeImage.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>

using namespace cudnnsetup;

namespace {

using fatbinimage::Entry;

Entry sass(int arch, const QString &suffix = {}, int payload = 40)
{
    Entry entry;
    entry.kind = Entry::Sass;
    entry.arch = arch;
    entry.suffix = suffix;
    entry.payloadSize = payload;
    entry.headerSize = arch >= 100 ? 112 : 64;
    return entry;
}

Entry ptx(int arch, int isaMajor, int isaMinor)
{
    Entry entry;
    entry.kind = Entry::Ptx;
    entry.arch = arch;
    entry.isaMajor = isaMajor;
    entry.isaMinor = isaMinor;
    entry.payloadSize = 333;
    entry.headerSize = arch >= 120 ? 80 : 64;
    return entry;
}

// Two containers, as a library of two translation units has: torch-like lists with a repeat.
QByteArray twoContainers()
{
    return fatbinimage::container({sass(75), sass(80), sass(90, QStringLiteral("a")), ptx(90, 8, 8)}) +
           fatbinimage::container({sass(80), sass(120, QStringLiteral("f"), 1001), ptx(120, 9, 0)});
}

// A ByteSource that counts the bytes asked for, to prove payloads are skipped, not read.
struct CountingSource
{
    QByteArray data;
    qint64 bytesRead = 0;

    ByteSource source()
    {
        const ByteSource inner = bufferSource(data);
        return [this, inner](qint64 offset, qint64 size) {
            const QByteArray bytes = inner(offset, size);
            bytesRead += bytes.size();
            return bytes;
        };
    }
};

} // namespace

class TestFatbinReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsSassAndPtxOfEveryContainer()
    {
        const QByteArray fatbin = twoContainers();
        const GpuCode code = fatbin::readContainers(bufferSource(fatbin), 0, fatbin.size());
        QVERIFY(code.warnings.isEmpty());
        QCOMPARE(code.sass, (QStringList{QStringLiteral("sm_75"), QStringLiteral("sm_80"),
                                         QStringLiteral("sm_90a"), QStringLiteral("sm_120f")}));
        QCOMPARE(code.ptx, (QStringList{QStringLiteral("compute_90"), QStringLiteral("compute_120")}));
        QCOMPARE(code.ptxIsa, (QStringList{QStringLiteral("8.8"), QStringLiteral("9.0")}));
        QCOMPARE(code.entries, 7);
    }

    // As torch 2.11's libtorch_cuda.so (measured on the H200: 444 containers, the six architectures
    // of torch.cuda.get_arch_list() in all of them, sm_103a in 59, sm_89 in one): what the library is
    // built for is what most of its containers carry; the rest is a few kernels' only.
    void aFewKernelsDoNotMakeTheLibrarys()
    {
        QByteArray fatbin;
        for (int unit = 0; unit < 12; ++unit) {
            QList<Entry> entries{sass(75), sass(80), sass(86), sass(90), sass(100), sass(120)};
            if (unit == 3)
                entries.append(sass(89));
            if (unit == 5 || unit == 7)
                entries.append(sass(103, QStringLiteral("a")));
            fatbin += fatbinimage::container(entries);
        }
        const GpuCode code = fatbin::readContainers(bufferSource(fatbin), 0, fatbin.size());
        QCOMPARE(code.containers, 12);
        QCOMPARE(code.sass,
                 (QStringList{QStringLiteral("sm_75"), QStringLiteral("sm_80"), QStringLiteral("sm_86"),
                              QStringLiteral("sm_90"), QStringLiteral("sm_100"), QStringLiteral("sm_120")}));
        QCOMPARE(code.sassInPart, (QStringList{QStringLiteral("sm_89"), QStringLiteral("sm_103a")}));
        QVERIFY(code.ptx.isEmpty() && code.ptxInPart.isEmpty());
    }

    void readsOnlyHeaders()
    {
        // Payloads of a megabyte each: the walk must step over them.
        CountingSource counting;
        counting.data = fatbinimage::container({sass(80, {}, 1 << 20), sass(90, {}, 1 << 20), ptx(90, 8, 8)});
        const GpuCode code = fatbin::readContainers(counting.source(), 0, counting.data.size());
        QCOMPARE(code.sass, (QStringList{QStringLiteral("sm_80"), QStringLiteral("sm_90")}));
        QVERIFY2(counting.bytesRead < 1024, qPrintable(QString::number(counting.bytesRead)));
    }

    void skipsZeroPaddingBetweenContainers()
    {
        const QByteArray fatbin = fatbinimage::container({sass(86)}) + QByteArray(12, '\0') +
                                  fatbinimage::container({sass(89)}) + QByteArray(200, '\0');
        const GpuCode code = fatbin::readContainers(bufferSource(fatbin), 0, fatbin.size());
        QVERIFY(code.warnings.isEmpty());
        QCOMPARE(code.sass, (QStringList{QStringLiteral("sm_86"), QStringLiteral("sm_89")}));
    }

    void damageStopsTheWalkWithAWarning_data()
    {
        QTest::addColumn<int>("at");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("sass");
        const QByteArray fatbin = twoContainers();
        const int second = int(fatbin.indexOf(QByteArray::fromHex("50ed55ba"), 4));
        QTest::newRow("bad magic of the second container")
            << second << QByteArray::fromHex("deadbeef")
            << QStringList{QStringLiteral("sm_75"), QStringLiteral("sm_80"), QStringLiteral("sm_90a")};
        QTest::newRow("container larger than the section")
            << 8 << QByteArray::fromHex("ffffffffffffff7f") << QStringList{};
        // The second entry's payload size runs past its container.
        const int secondEntry = 16 + 64 + 40;
        QTest::newRow("entry payload past the container")
            << secondEntry + 8 << QByteArray::fromHex("0000000000000100")
            << QStringList{QStringLiteral("sm_75")};
        QTest::newRow("entry header size zero")
            << secondEntry + 4 << QByteArray(4, '\0') << QStringList{QStringLiteral("sm_75")};
    }

    void damageStopsTheWalkWithAWarning()
    {
        QFETCH(int, at);
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, sass);
        QByteArray fatbin = twoContainers();
        fatbin.replace(at, bytes.size(), bytes);
        const GpuCode code = fatbin::readContainers(bufferSource(fatbin), 0, fatbin.size());
        QCOMPARE(code.sass, sass);
        QCOMPARE(code.warnings.size(), 1);
        QCOMPARE(code.warnings.first().id, QStringLiteral("fatbin.corrupt"));
    }

    void truncatedSectionEndsTheWalk()
    {
        const QByteArray fatbin = twoContainers();
        const GpuCode code = fatbin::readContainers(bufferSource(fatbin.left(100)), 0, fatbin.size());
        QCOMPARE(code.warnings.size(), 1);
        QVERIFY(code.sass.size() <= 1);
    }

    void findsTheElfSection()
    {
        elfimage::SharedObject library;
        library.soname = QStringLiteral("libconsumer.so");
        library.needed = {QStringLiteral("libcudart.so.12")};
        library.sections = {{".rodata", QByteArray("libcudnn.so.8\0", 14)}, {".nv_fatbin", twoContainers()}};
        const QByteArray file = elfimage::build(library);
        const Expected<QList<FileSection>> sections = elf::readSections(bufferSource(file));
        QVERIFY2(sections.ok(), qPrintable(sections.ok() ? QString() : sections.error().details));
        QVERIFY(findSection(*sections, QStringLiteral(".rodata")));
        QCOMPARE(findSection(*sections, QStringLiteral(".rodata"))->size, 14);
        const Expected<GpuCode> code = fatbin::read(bufferSource(file));
        QVERIFY(code.ok());
        QVERIFY(code->hasFatbin);
        QCOMPARE(code->sass.size(), 4);
        QCOMPARE(code->ptx, (QStringList{QStringLiteral("compute_90"), QStringLiteral("compute_120")}));
        // The dynamic section still reads as before.
        QCOMPARE(elf::readDynamic(bufferSource(file))->needed, library.needed);
    }

    void findsThePeSection()
    {
        peimage::ImageSpec spec;
        spec.imports = {QByteArrayLiteral("cudart64_12.dll")};
        spec.fileVersion = {1, 2, 3, 4};
        spec.productVersion = {1, 2, 3, 4};
        spec.sections = {{".nv_fatb", fatbinimage::container({sass(61), sass(86), ptx(86, 8, 0)})}};
        const QByteArray file = peimage::buildImage(spec).bytes;
        const Expected<PeInfo> pe = pe::read(bufferSource(file));
        QVERIFY(pe.ok());
        QVERIFY2(pe->warnings.isEmpty(),
                 qPrintable(pe->warnings.isEmpty() ? QString() : pe->warnings.first().details));
        QCOMPARE(pe->sections.size(), 3);
        QCOMPARE(pe->sections.at(0).name, QStringLiteral(".rdata"));
        QCOMPARE(pe->sections.at(2).name, QStringLiteral(".nv_fatb"));
        // The section's raw size is rounded up to the file alignment: the zeros after the
        // container are padding, not damage.
        const Expected<GpuCode> code = fatbin::read(bufferSource(file));
        QVERIFY(code.ok());
        QVERIFY(code->warnings.isEmpty());
        QCOMPARE(code->sass, (QStringList{QStringLiteral("sm_61"), QStringLiteral("sm_86")}));
        QCOMPARE(code->ptx, QStringList{QStringLiteral("compute_86")});
    }

    void fileWithoutFatbinHasNone()
    {
        elfimage::SharedObject library;
        library.sections = {{".rodata", QByteArray("hello")}};
        const Expected<GpuCode> code = fatbin::read(bufferSource(elfimage::build(library)));
        QVERIFY(code.ok());
        QVERIFY(!code->hasFatbin);
        QVERIFY(code->sass.isEmpty());
        const Expected<GpuCode> peCode = fatbin::read(bufferSource(peimage::x64Dll()));
        QVERIFY(peCode.ok());
        QVERIFY(!peCode->hasFatbin);
    }

    void notABinaryIsAnError()
    {
        QVERIFY(!fatbin::read(bufferSource(QByteArrayLiteral("just text, not a library"))).ok());
    }

    // cuDNN 9.19 for CUDA 13 (the toolkit on the development machines) carries SASS for Turing to
    // Blackwell and PTX for the newest; the lists are those nvcc wrote (cuobjdump --list-elf).
    void realCudnnLibrary()
    {
        const QString path = QStringLiteral("/usr/local/cuda-13.0/lib64/libcudnn_ops.so.9");
        if (!QFileInfo::exists(path))
            QSKIP("no CUDA 13 toolkit with cuDNN 9 here");
        QElapsedTimer timer;
        timer.start();
        const ByteSource source = mappedFileSource(path);
        QVERIFY(source);
        const Expected<GpuCode> code = fatbin::read(source);
        QVERIFY(code.ok());
        QVERIFY(code->warnings.isEmpty());
        QVERIFY(code->sass.contains(QStringLiteral("sm_80")));
        QVERIFY(code->sass.contains(QStringLiteral("sm_90a")));
        QVERIFY(!code->ptx.isEmpty());
        qInfo() << path << code->sass << code->ptx << code->ptxIsa << code->entries << "entries,"
                << timer.elapsed() << "ms";
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestFatbinReader)
#include "tst_fatbinreader.moc"
