#include "Sandbox.h"
#include "Suite.h"
#include "ZipWriter.h"
#include "archive/ZipSource.h"

#include <QRandomGenerator>
#include <QTest>
#include <QtEndian>

#include <thread>
#include <vector>

using namespace cudnnsetup;
using Backend = ZipSource::Backend;

namespace {
// "hello" and its CRC-32 as every zip tool computes it.
const QByteArray kHello("hello");
constexpr quint32 kHelloCrc = 0x3610a686;

// Text that compresses as real files do; the same for the same seed.
QByteArray sampleData(qsizetype size, quint32 seed)
{
    static const char *const words[] = {"cudnn", "tensor", "kernel", "conv", "fwd", "bwd", "algo", "\n", " "};
    QRandomGenerator random(seed);
    QByteArray data;
    data.reserve(size);
    while (data.size() < size)
        data.append(words[random.bounded(int(std::size(words)))]);
    data.truncate(size);
    return data;
}

QString saveArchive(const Sandbox &sandbox, const QByteArray &bytes,
                    const QString &path = QStringLiteral("/archive.zip"))
{
    sandbox.write(path, bytes);
    return sandbox.hostPath(path);
}

struct ReadResult
{
    QByteArray data;    // what read() returned, up to the end or the error
    bool ended = false; // read() returned 0
    bool crcMatches = false;
    QString openError; // the finding's id when openEntry() refused
    QString openDetails;
    QString readError; // errorString() after read() returned -1
};

ReadResult readEntry(ZipSource &source, int index, qint64 chunk = 64 * 1024)
{
    ReadResult result;
    Expected<std::unique_ptr<ZipEntryStream>> stream = source.openEntry(index);
    if (!stream.ok()) {
        result.openError = stream.error().id;
        result.openDetails = stream.error().details;
        return result;
    }
    QByteArray buffer(chunk, Qt::Uninitialized);
    for (;;) {
        const qint64 count = stream.value()->read(buffer.data(), chunk);
        if (count < 0) {
            result.readError = stream.value()->errorString();
            return result;
        }
        if (count == 0)
            break;
        result.data.append(buffer.constData(), count);
    }
    result.ended = true;
    result.crcMatches = stream.value()->crcMatches();
    return result;
}
} // namespace

class TestZipSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every case runs once per backend compiled into this build.
    void initTestCase_data()
    {
        QTest::addColumn<Backend>("backend");
        for (Backend backend : ZipSource::backends())
            QTest::newRow(qPrintable(ZipSource::backendName(backend))) << backend;
    }

    void initTestCase() { QVERIFY(!ZipSource::backends().isEmpty()); }

    void listsEntriesAsStored()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        const qint64 helloOffset = writer.add(ZipWriter::Entry::file("cudnn/include/cudnn.h", kHello, 0));
        ZipWriter::Entry chinese = ZipWriter::Entry::file("文档/说明.txt", sampleData(1000, 1));
        chinese.utf8Name = true;
        const qint64 chineseOffset = writer.add(chinese);
        // "中文.txt" in GBK, as Chinese Windows tools write it: no UTF-8 flag, MS-DOS host.
        ZipWriter::Entry gbk = ZipWriter::Entry::file("\xd6\xd0\xce\xc4.txt", "gbk", 0);
        gbk.versionMadeBy = 0x0014;
        gbk.externalAttributes = 0x20;
        const qint64 gbkOffset = writer.add(gbk);
        Sandbox sandbox;
        const QByteArray bytes = writer.finish();
        const QString path = saveArchive(sandbox, bytes);

        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        ZipSource &zip = *source.value();
        QCOMPARE(zip.backend(), backend);
        QCOMPARE(zip.archiveSize(), bytes.size());
        const QList<ZipEntry> &entries = zip.entries();
        QCOMPARE(entries.size(), 3);

        QCOMPARE(entries[0].index, 0);
        QCOMPARE(entries[0].rawName, QByteArray("cudnn/include/cudnn.h"));
        QVERIFY(!entries[0].utf8Name());
        QCOMPARE(entries[0].method, quint16(0));
        QCOMPARE(entries[0].crc32, kHelloCrc);
        QCOMPARE(entries[0].compressedSize, 5);
        QCOMPARE(entries[0].uncompressedSize, 5);
        QCOMPARE(entries[0].localHeaderOffset, helloOffset);
        QCOMPARE(entries[0].versionMadeBy, quint16(0x031e));
        QCOMPARE(entries[0].externalAttributes, 0100644u << 16);

        QCOMPARE(entries[1].index, 1);
        QCOMPARE(entries[1].rawName, QByteArray("文档/说明.txt"));
        QVERIFY(entries[1].utf8Name());
        QCOMPARE(entries[1].flags, quint16(0x0800));
        QCOMPARE(entries[1].method, quint16(8));
        QCOMPARE(entries[1].uncompressedSize, 1000);
        QVERIFY(entries[1].compressedSize < 1000);
        QCOMPARE(entries[1].localHeaderOffset, chineseOffset);

        QCOMPARE(entries[2].rawName, QByteArray("\xd6\xd0\xce\xc4.txt"));
        QVERIFY(!entries[2].utf8Name());
        QCOMPARE(entries[2].versionMadeBy, quint16(0x0014));
        QCOMPARE(entries[2].externalAttributes, 0x20u);
        QCOMPARE(entries[2].localHeaderOffset, gbkOffset);
        for (const ZipEntry &entry : entries) {
            QVERIFY(!entry.isDirectory());
            QVERIFY(!entry.isSymlink());
            QVERIFY(!entry.encrypted());
        }

        const QList<QByteArray> contents = {kHello, sampleData(1000, 1), "gbk"};
        for (int i = 0; i < entries.size(); ++i) {
            const ReadResult result = readEntry(zip, i);
            QVERIFY2(result.ended, qPrintable(result.openError + result.readError));
            QCOMPARE(result.data, contents[i]);
            QVERIFY(result.crcMatches);
        }
    }

    // Both backends read them: minizip 1.1 where long has 64 bits keeps the size markers, and the
    // sizes come from the Zip64 extra field instead.
    void readsZip64Entries()
    {
        QFETCH_GLOBAL(Backend, backend);
        const QByteArray big = sampleData(100000, 2);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("first.txt", kHello));
        ZipWriter::Entry deflated = ZipWriter::Entry::file("zip64/deflated.bin", big);
        deflated.zip64 = true;
        const qint64 deflatedOffset = writer.add(deflated);
        ZipWriter::Entry stored = ZipWriter::Entry::file("zip64/stored.bin", big, 0);
        stored.zip64 = true;
        const qint64 storedOffset = writer.add(stored);
        writer.add(ZipWriter::Entry::file("last.txt", kHello));
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, writer.finish());

        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const QList<ZipEntry> &entries = source.value()->entries();
        QCOMPARE(entries.size(), 4);
        QCOMPARE(entries[1].uncompressedSize, big.size());
        QVERIFY(entries[1].compressedSize > 0 && entries[1].compressedSize < big.size());
        QCOMPARE(entries[1].localHeaderOffset, deflatedOffset);
        QCOMPARE(entries[2].uncompressedSize, big.size());
        QCOMPARE(entries[2].compressedSize, big.size());
        QCOMPARE(entries[2].localHeaderOffset, storedOffset);
        for (int i = 0; i < entries.size(); ++i) {
            const ReadResult result = readEntry(*source.value(), i);
            QVERIFY2(result.ended, qPrintable(result.openError + result.readError + result.openDetails));
            QCOMPARE(result.data, i == 1 || i == 2 ? big : kHello);
            QVERIFY(result.crcMatches);
        }
    }

    void streamsLargeDeflatedEntry()
    {
        QFETCH_GLOBAL(Backend, backend);
        const QByteArray data = sampleData(4 * 1024 * 1024 + 17, 3);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("bin/cudnn_engines_precompiled64_9.dll", data));
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, writer.finish());

        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        QCOMPARE(source.value()->entries().at(0).uncompressedSize, data.size());
        QVERIFY(source.value()->entries().at(0).compressedSize < data.size() / 2);
        Expected<std::unique_ptr<ZipEntryStream>> stream = source.value()->openEntry(0);
        QVERIFY(stream.ok());
        QByteArray read;
        char chunk[10007];
        qint64 count = 0;
        while ((count = stream.value()->read(chunk, sizeof chunk)) > 0)
            read.append(chunk, count);
        QCOMPARE(count, 0);
        QCOMPARE(read.size(), data.size());
        QVERIFY(read == data);
        QVERIFY(stream.value()->crcMatches());
        QCOMPARE(stream.value()->read(chunk, sizeof chunk), 0); // and stays at the end
    }

    void detectsWrongCrc_data()
    {
        QTest::addColumn<quint16>("method");
        QTest::newRow("stored") << quint16(0);
        QTest::newRow("deflated") << quint16(8);
    }

    void detectsWrongCrc()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(quint16, method);
        ZipWriter::Entry entry = ZipWriter::Entry::file("hello.txt", kHello, method);
        entry.crc32 = kHelloCrc ^ 1;
        ZipWriter writer;
        writer.add(entry);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const ReadResult result = readEntry(*source.value(), 0);
        QVERIFY(result.ended);
        QCOMPARE(result.data, kHello);
        QVERIFY(!result.crcMatches);
    }

    void refusesDataOfTheWrongSize_data()
    {
        QTest::addColumn<quint16>("method");
        QTest::addColumn<qint64>("sizeError"); // declared minus real
        QTest::newRow("deflated, longer than declared") << quint16(8) << qint64(-100);
        QTest::newRow("stored, longer than declared") << quint16(0) << qint64(-100);
        QTest::newRow("deflated, shorter than declared") << quint16(8) << qint64(100);
        QTest::newRow("stored, shorter than declared") << quint16(0) << qint64(100);
        // A bomb's way: a tiny declared size in front of a lot of data.
        QTest::newRow("deflated, 50000 bytes declared as 1") << quint16(8) << qint64(1 - 50000);
    }

    void refusesDataOfTheWrongSize()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(quint16, method);
        QFETCH(qint64, sizeError);
        const QByteArray data = sampleData(50000, 4);
        ZipWriter::Entry entry = ZipWriter::Entry::file("lib/libcudnn.so.9", data, method);
        entry.declaredSize = quint64(data.size() + sizeError);
        ZipWriter writer;
        writer.add(entry);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        QCOMPARE(source.value()->entries().at(0).uncompressedSize, data.size() + sizeError);

        const ReadResult result = readEntry(*source.value(), 0, 4096);
        QVERIFY(result.openError.isEmpty());
        QVERIFY(!result.ended);
        QVERIFY(!result.readError.isEmpty());
        QVERIFY(result.data.size() <= data.size() + sizeError); // never more than declared
        QVERIFY(data.startsWith(result.data));
    }

    void refusesDamagedDeflateData()
    {
        QFETCH_GLOBAL(Backend, backend);
        const QByteArray name("damaged.bin");
        ZipWriter writer;
        const qint64 offset = writer.add(ZipWriter::Entry::file(name, sampleData(20000, 5)));
        QByteArray bytes = writer.finish();
        // A first block of the reserved type 3: "invalid block type".
        bytes[offset + 30 + name.size()] = char(0xFF);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(saveArchive(sandbox, bytes), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const ReadResult result = readEntry(*source.value(), 0);
        QVERIFY(!result.ended);
        QVERIFY(result.readError.contains(QStringLiteral("damaged.bin")));
    }

    void refusesBrokenArchives_data()
    {
        QTest::addColumn<bool>("exists");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("id");
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("a.txt", sampleData(3000, 6)));
        writer.add(ZipWriter::Entry::file("b.txt", kHello, 0));
        const QByteArray valid = writer.finish();
        const qint64 central = writer.centralDirectoryOffset();

        QTest::newRow("cut inside the data") << true << valid.left(40) << "archive.corrupt";
        QTest::newRow("cut inside the central directory")
            << true << valid.left(central + 10) << "archive.corrupt";
        QTest::newRow("end record cut short") << true << valid.chopped(5) << "archive.corrupt";
        QByteArray pastTheEnd = valid;
        const qsizetype secondRecord = pastTheEnd.indexOf("PK\x01\x02", central + 1);
        qToLittleEndian<quint32>(0x7FFFFFF0, pastTheEnd.data() + secondRecord + 42);
        QTest::newRow("entry past the end of the file") << true << pastTheEnd << "archive.corrupt";
        QTest::newRow("not a zip") << true << QByteArray("This is a text file, not an archive.\n")
                                   << "archive.not-zip";
        QTest::newRow("empty file") << true << QByteArray() << "archive.not-zip";
        QTest::newRow("empty zip") << true << QByteArray("PK\x05\x06", 4) + QByteArray(18, '\0')
                                   << "archive.empty";
        QByteArray lastPart = valid;
        qToLittleEndian<quint16>(2, lastPart.data() + lastPart.size() - 22 + 4); // "this is part 2"
        QTest::newRow("last part of a split archive") << true << lastPart << "archive.split";
        QTest::newRow("first part of a split archive")
            << true << QByteArray("PK\x07\x08", 4) + valid.left(central) << "archive.split";
        QTest::newRow("missing file") << false << QByteArray() << "archive.unreadable";
    }

    void refusesBrokenArchives()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(bool, exists);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, id);
        Sandbox sandbox;
        const QString path =
            exists ? saveArchive(sandbox, bytes) : sandbox.hostPath(QStringLiteral("/none.zip"));
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
        QVERIFY(!source.ok());
        QCOMPARE(source.error().id, id);
        QCOMPARE(source.error().severity, Severity::Error);
        QVERIFY(!source.error().message.isEmpty());
        QVERIFY(!source.error().details.isEmpty());
    }

    // A million central records, all naming one empty entry (the overlapping kind of zip bomb),
    // behind a Zip64 end record: the count the end record declares refuses it before one record
    // is listed, with either backend.
    void refusesAMillionEntriesBeforeListingThem()
    {
        QFETCH_GLOBAL(Backend, backend);
        constexpr quint32 kEntries = 1000000;
        QByteArray bytes;
        const auto put16 = [&](quint16 value) { bytes.append(reinterpret_cast<const char *>(&value), 2); };
        const auto put32 = [&](quint32 value) { bytes.append(reinterpret_cast<const char *>(&value), 4); };
        const auto put64 = [&](quint64 value) { bytes.append(reinterpret_cast<const char *>(&value), 8); };
        put32(0x04034b50); // the one local header: "a", stored, empty
        put16(10), put16(0), put16(0), put16(0), put16(0), put32(0), put32(0), put32(0), put16(1), put16(0);
        bytes.append('a');
        const quint64 directoryStart = quint64(bytes.size());
        QByteArray record;
        std::swap(record, bytes);
        put32(0x02014b50);
        put16(20), put16(10), put16(0), put16(0), put16(0), put16(0), put32(0), put32(0), put32(0);
        put16(1), put16(0), put16(0), put16(0), put16(0), put32(0), put32(0);
        bytes.append('a');
        std::swap(record, bytes);
        bytes.reserve(bytes.size() + qsizetype(kEntries) * record.size() + 100);
        for (quint32 i = 0; i < kEntries; ++i)
            bytes.append(record);
        const quint64 directorySize = quint64(bytes.size()) - directoryStart;
        const quint64 zip64End = quint64(bytes.size());
        put32(0x06064b50), put64(44), put16(45), put16(45), put32(0), put32(0);
        put64(kEntries), put64(kEntries), put64(directorySize), put64(directoryStart);
        put32(0x07064b50), put32(0), put64(zip64End), put32(1);
        put32(0x06054b50), put16(0), put16(0), put16(0xFFFF), put16(0xFFFF), put32(0xFFFFFFFF),
            put32(0xFFFFFFFF), put16(0);
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, bytes, QStringLiteral("/bomb.zip"));
        qint64 bytesRead = 0;
        const ReadObserver observer = [&](qint64, const char *, qint64 size) { bytesRead += size; };
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend, observer);
        QVERIFY(!source.ok());
        QCOMPARE(source.error().id, QStringLiteral("archive.unsafe-size"));
        QVERIFY2(source.error().details.contains(QStringLiteral("1000000 entries")),
                 qPrintable(source.error().details));
        QCOMPARE(bytesRead, qint64(0)); // no backend read its central directory
    }

    void refusesUnsupportedEntries_data()
    {
        QTest::addColumn<bool>("encrypted");
        QTest::addColumn<quint16>("method");
        QTest::newRow("encrypted") << true << quint16(8);
        QTest::newRow("LZMA (method 14)") << false << quint16(14);
    }

    void refusesUnsupportedEntries()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(bool, encrypted);
        QFETCH(quint16, method);
        ZipWriter::Entry entry = ZipWriter::Entry::file("secret.bin", kHello, method);
        entry.encrypted = encrypted;
        ZipWriter writer;
        writer.add(entry);
        writer.add(ZipWriter::Entry::file("plain.txt", kHello));
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        QCOMPARE(source.value()->entries().at(0).encrypted(), encrypted);
        QCOMPARE(source.value()->entries().at(0).method, method);

        Expected<std::unique_ptr<ZipEntryStream>> refused = source.value()->openEntry(0);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().id, QStringLiteral("archive.entry-unsupported"));
        QVERIFY(refused.error().message.toEnglish().contains(QStringLiteral("secret.bin")));
        // The rest of the archive stays readable.
        QCOMPARE(readEntry(*source.value(), 1).data, kHello);
    }

    void refusesLocalHeaderOfAnotherName_data()
    {
        QTest::addColumn<QByteArray>("localName");
        QTest::newRow("same length") << QByteArray("b.dll");
        QTest::newRow("longer") << QByteArray("../../a.dll");
    }

    void refusesLocalHeaderOfAnotherName()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(QByteArray, localName);
        ZipWriter::Entry entry = ZipWriter::Entry::file("a.dll", kHello);
        entry.localName = localName;
        ZipWriter writer;
        writer.add(entry);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        QCOMPARE(source.value()->entries().at(0).rawName, QByteArray("a.dll"));
        QCOMPARE(readEntry(*source.value(), 0).openError, QStringLiteral("archive.corrupt"));
    }

    // A local header whose method, CRC or size is not the central directory's: refused on both
    // backends, Zip64 or not (for Zip64 entries the source, not the library, checks it).
    void refusesLocalHeaderThatDisagrees_data()
    {
        QTest::addColumn<bool>("zip64");
        QTest::addColumn<int>("field"); // offset in the local header
        QTest::addColumn<quint32>("value");
        for (const bool zip64 : {false, true}) {
            const QByteArray kind = zip64 ? "zip64 " : "";
            QTest::newRow(kind + "method") << zip64 << 8 << quint32(0);
            QTest::newRow(kind + "crc") << zip64 << 14 << quint32(0x12345678);
            QTest::newRow(kind + "compressed size") << zip64 << 18 << quint32(3);
        }
    }

    void refusesLocalHeaderThatDisagrees()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH(bool, zip64);
        QFETCH(int, field);
        QFETCH(quint32, value);
        ZipWriter::Entry entry = ZipWriter::Entry::file("a.dll", sampleData(5000, 4));
        entry.zip64 = zip64;
        QByteArray bytes = ZipWriter({entry}).finish();
        // The method is two bytes: the rest of the four are the time, left as they were.
        if (field == 8)
            bytes[field] = char(value), bytes[field + 1] = 0;
        else
            qToLittleEndian<quint32>(value, bytes.data() + field);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(saveArchive(sandbox, bytes), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const ReadResult result = readEntry(*source.value(), 0);
        QCOMPARE(result.openError, QStringLiteral("archive.corrupt"));
    }

    void recognisesDirectoriesAndSymlinks()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::directory("lib/"));
        writer.add(ZipWriter::Entry::symlink("lib/libcudnn.so", "libcudnn.so.9"));
        writer.add(ZipWriter::Entry::file("lib/libcudnn.so.9", kHello));
        ZipWriter::Entry dosFolder = ZipWriter::Entry::file("include", {}, 0);
        dosFolder.versionMadeBy = 0x0014;
        dosFolder.externalAttributes = 0x10;
        writer.add(dosFolder);
        // An MS-DOS host's attributes carry no Unix mode, whatever the high bits say.
        ZipWriter::Entry dosFile = ZipWriter::Entry::symlink("bin/cudnn64_9.dll", kHello);
        dosFile.versionMadeBy = 0x0014;
        writer.add(dosFile);
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const QList<ZipEntry> &entries = source.value()->entries();
        QCOMPARE(entries.size(), 5);
        QVERIFY(entries[0].isDirectory());
        QVERIFY(!entries[0].isSymlink());
        QVERIFY(entries[1].isSymlink());
        QVERIFY(!entries[1].isDirectory());
        QCOMPARE(readEntry(*source.value(), 1).data, QByteArray("libcudnn.so.9"));
        QVERIFY(!entries[2].isSymlink());
        QVERIFY(!entries[2].isDirectory());
        QVERIFY(entries[3].isDirectory());
        QVERIFY(!entries[4].isSymlink());
    }

    void keepsDuplicateNames()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        const qint64 first = writer.add(ZipWriter::Entry::file("bin/cudnn64_9.dll", "first"));
        const qint64 second = writer.add(ZipWriter::Entry::file("bin/cudnn64_9.dll", "second"));
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        const QList<ZipEntry> &entries = source.value()->entries();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[0].rawName, entries[1].rawName);
        QCOMPARE(entries[0].localHeaderOffset, first);
        QCOMPARE(entries[1].localHeaderOffset, second);
        QCOMPARE(readEntry(*source.value(), 0).data, QByteArray("first"));
        QCOMPARE(readEntry(*source.value(), 1).data, QByteArray("second"));
    }

    void observerSeesEveryByteRead()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::directory("cudnn/"));
        writer.add(ZipWriter::Entry::file("cudnn/LICENSE", sampleData(30000, 7), 0));
        writer.add(ZipWriter::Entry::file("cudnn/bin/cudnn64_9.dll", sampleData(300000, 8)));
        writer.add(ZipWriter::Entry::file("cudnn/lib/cudnn.lib", sampleData(5000, 9)));
        const QByteArray bytes = writer.finish();
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, bytes);

        std::vector<bool> seen(size_t(writer.centralDirectoryOffset()), false);
        bool faithful = true;
        const ReadObserver observer = [&](qint64 offset, const char *data, qint64 size) {
            faithful = faithful && offset >= 0 && offset + size <= bytes.size() &&
                       QByteArray::fromRawData(data, size) == bytes.mid(offset, size);
            for (qint64 at = offset; at < offset + size && at < qint64(seen.size()); ++at)
                seen[size_t(at)] = true;
        };
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend, observer);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        for (int i = 0; i < source.value()->entries().size(); ++i)
            QVERIFY(readEntry(*source.value(), i).crcMatches);
        QVERIFY(faithful);
        const auto gap = std::find(seen.begin(), seen.end(), false);
        QVERIFY2(gap == seen.end(),
                 qPrintable(QStringLiteral("byte %1 was never read").arg(gap - seen.begin())));
    }

    void readsInParallel()
    {
        QFETCH_GLOBAL(Backend, backend);
        QList<QByteArray> contents;
        ZipWriter writer;
        for (int i = 0; i < 3; ++i) {
            contents.append(sampleData(1024 * 1024, quint32(10 + i)));
            writer.add(
                ZipWriter::Entry::file(QByteArray("lib/part") + QByteArray::number(i), contents.last()));
        }
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, writer.finish());

        // Each thread opens its own source: a source is not shared between threads.
        auto readAll = [&](QList<QByteArray> *out) {
            Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
            if (!source.ok())
                return;
            for (int round = 0; round < 3; ++round) {
                for (int i = 0; i < source.value()->entries().size(); ++i) {
                    const ReadResult result = readEntry(*source.value(), i, 4096 + round);
                    out->append(result.crcMatches ? result.data : QByteArray());
                }
            }
        };
        QList<QByteArray> first;
        QList<QByteArray> second;
        std::thread one(readAll, &first);
        std::thread two(readAll, &second);
        one.join();
        two.join();
        const QList<QByteArray> expected = contents + contents + contents;
        QVERIFY(first == expected);
        QVERIFY(second == expected);
    }

    void opensPathWithChineseFolder()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("cudnn/bin/cudnn64_9.dll", kHello));
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, writer.finish(), QStringLiteral("/测试/cudnn.zip"));
        QVERIFY(path.contains(QStringLiteral("测试")));
        Expected<std::unique_ptr<ZipSource>> source = ZipSource::open(path, backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        QCOMPARE(readEntry(*source.value(), 0).data, kHello);
    }

    void newStreamEndsThePreviousOne()
    {
        QFETCH_GLOBAL(Backend, backend);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("a.bin", sampleData(200000, 20)));
        writer.add(ZipWriter::Entry::file("b.bin", kHello));
        Sandbox sandbox;
        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(saveArchive(sandbox, writer.finish()), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        Expected<std::unique_ptr<ZipEntryStream>> first = source.value()->openEntry(0);
        QVERIFY(first.ok());
        char buffer[100];
        QCOMPARE(first.value()->read(buffer, sizeof buffer), qint64(sizeof buffer));
        QCOMPARE(readEntry(*source.value(), 1).data, kHello);
        QCOMPARE(first.value()->read(buffer, sizeof buffer), -1);
        QVERIFY(!first.value()->errorString().isEmpty());
        source = Finding(); // a stream outliving its source reads no further either
        QCOMPARE(first.value()->read(buffer, sizeof buffer), -1);
    }

    // Both backends' unzip code in one process, interleaved on the same archive: each library's calls
    // must reach its own copy (QuaZip's exported unz* names and minizip's are the same).
    void backendsShareOneProcess()
    {
        QFETCH_GLOBAL(Backend, backend);
        QList<Backend> others = ZipSource::backends();
        others.removeAll(backend);
        if (others.isEmpty())
            QSKIP("only one backend in this build");
        const QByteArray data = sampleData(500000, 30);
        ZipWriter writer;
        writer.add(ZipWriter::Entry::file("cudnn.h", kHello));
        writer.add(ZipWriter::Entry::file("libcudnn.so.9", data));
        Sandbox sandbox;
        const QString path = saveArchive(sandbox, writer.finish());
        for (Backend other : others) {
            Expected<std::unique_ptr<ZipSource>> mine = ZipSource::open(path, backend);
            Expected<std::unique_ptr<ZipSource>> theirs = ZipSource::open(path, other);
            QVERIFY(mine.ok() && theirs.ok());
            QCOMPARE(mine.value()->entries().size(), 2);
            QCOMPARE(theirs.value()->entries().size(), 2);
            Expected<std::unique_ptr<ZipEntryStream>> a = mine.value()->openEntry(1);
            Expected<std::unique_ptr<ZipEntryStream>> b = theirs.value()->openEntry(1);
            QVERIFY(a.ok() && b.ok());
            QByteArray readA;
            QByteArray readB;
            char chunk[7000];
            qint64 countA = 1;
            qint64 countB = 1;
            while (countA > 0 || countB > 0) {
                if (countA > 0 && (countA = a.value()->read(chunk, sizeof chunk)) > 0)
                    readA.append(chunk, countA);
                if (countB > 0 && (countB = b.value()->read(chunk, sizeof chunk)) > 0)
                    readB.append(chunk, countB);
            }
            QCOMPARE(countA, 0);
            QCOMPARE(countB, 0);
            QVERIFY(readA == data);
            QVERIFY(readB == data);
            QVERIFY(a.value()->crcMatches() && b.value()->crcMatches());
        }
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestZipSource)
#include "tst_zipsource.moc"
