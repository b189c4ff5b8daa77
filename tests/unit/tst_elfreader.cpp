#include "Suite.h"
#include "binary/ElfReader.h"

#include <QFile>
#include <QLibraryInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTest>
#include <QtEndian>

#include <optional>

using namespace cudnnsetup;

namespace {

// An ELF header: e_ident, e_type, e_machine, e_version, and zeros up to the class's header size.
QByteArray elfHeader(int elfClass, int elfData, quint16 type, quint16 machine)
{
    QByteArray header(elfClass == 1 ? 52 : 64, '\0');
    header[0] = '\x7f';
    header[1] = 'E';
    header[2] = 'L';
    header[3] = 'F';
    header[4] = char(elfClass);
    header[5] = char(elfData);
    header[6] = 1; // EV_CURRENT
    char *fields = header.data() + 16;
    if (elfData == 2) {
        qToBigEndian<quint16>(type, fields);
        qToBigEndian<quint16>(machine, fields + 2);
        qToBigEndian<quint32>(1, fields + 4);
    } else {
        qToLittleEndian<quint16>(type, fields);
        qToLittleEndian<quint16>(machine, fields + 2);
        qToLittleEndian<quint32>(1, fields + 4);
    }
    return header;
}

QByteArray head(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(64);
}

// The ELF machine name of the CPU this test was built for, or empty when we have none.
QString hostMachineName()
{
    const QString arch = QSysInfo::buildCpuArchitecture();
    if (arch == QLatin1String("x86_64"))
        return QStringLiteral("x64");
    if (arch == QLatin1String("i386"))
        return QStringLiteral("x86");
    if (arch == QLatin1String("arm64"))
        return QStringLiteral("arm64");
    if (arch == QLatin1String("arm"))
        return QStringLiteral("arm");
    return {};
}

// What binutils' readelf says of a file's dynamic section: the reference the reader is held to.
struct Readelf
{
    QString soname;
    QStringList needed;
    QStringList rpath;
    QStringList runpath;
    qint64 dynamicOffset = -1; // file offset of the dynamic section
};

std::optional<Readelf> readelf(const QString &path)
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("readelf"));
    if (program.isEmpty())
        return std::nullopt;
    QProcess process;
    process.start(program, {QStringLiteral("-dW"), path});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return std::nullopt;
    Readelf result;
    static const QRegularExpression entry(
        QStringLiteral(R"(\((NEEDED|SONAME|RPATH|RUNPATH)\)[^\[]*\[(.*)\])"));
    static const QRegularExpression section(QStringLiteral(R"(Dynamic section at offset 0x([0-9a-f]+))"));
    const QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (const auto match = section.match(line); match.hasMatch())
            result.dynamicOffset = match.captured(1).toLongLong(nullptr, 16);
        const auto match = entry.match(line);
        if (!match.hasMatch())
            continue;
        const QString tag = match.captured(1);
        const QString value = match.captured(2);
        if (tag == QLatin1String("NEEDED"))
            result.needed.append(value);
        else if (tag == QLatin1String("SONAME"))
            result.soname = value;
        else
            (tag == QLatin1String("RPATH") ? result.rpath : result.runpath) +=
                value.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    }
    return result;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Real shared objects of this machine, 64-bit and 32-bit, with and without RUNPATH.
QStringList realLibraries()
{
    QStringList found;
    for (const char *path :
         {"/usr/local/cuda-13.0/lib64/libcudnn.so.9", "/usr/local/cuda-13.0/lib64/libcudnn_graph.so.9",
          "/usr/local/cuda-13.0/lib64/libcudnn_engines_precompiled.so.9",
          "/usr/local/cuda-13.0/lib64/libcublas.so.13", "/usr/local/cuda-13.0/lib64/libcudart.so.13",
          "/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libc.so.6",
          "/lib/x86_64-linux-gnu/libstdc++.so.6", "/lib32/libm.so.6", "/lib32/libc.so.6"}) {
        if (QFile::exists(QLatin1String(path)))
            found.append(QLatin1String(path));
    }
    return found;
}

// The index of the first dynamic entry with `tag` in a 64-bit little-endian file, or -1.
qsizetype dynamicEntry(const QByteArray &bytes, qint64 dynamicOffset, qint64 tag)
{
    for (qsizetype at = qsizetype(dynamicOffset); at + 16 <= bytes.size(); at += 16) {
        const qint64 entryTag = qFromLittleEndian<qint64>(bytes.constData() + at);
        if (entryTag == tag)
            return at;
        if (entryTag == 0)
            break;
    }
    return -1;
}

const QString kSmallCudnn = QStringLiteral("/usr/local/cuda-13.0/lib64/libcudnn.so.9");

} // namespace

class TestElfReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headers_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("bits");
        QTest::addColumn<bool>("littleEndian");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("machine");
        QTest::addColumn<QString>("name");
        QTest::newRow("x86-64 shared object") << elfHeader(2, 1, 3, 62) << 64 << true << 3 << 62 << "x64";
        QTest::newRow("x86-64 executable") << elfHeader(2, 1, 2, 62) << 64 << true << 2 << 62 << "x64";
        QTest::newRow("i386 executable") << elfHeader(1, 1, 2, 3) << 32 << true << 2 << 3 << "x86";
        QTest::newRow("AArch64 shared object")
            << elfHeader(2, 1, 3, 183) << 64 << true << 3 << 183 << "arm64";
        QTest::newRow("32-bit ARM") << elfHeader(1, 1, 3, 40) << 32 << true << 3 << 40 << "arm";
        QTest::newRow("big-endian ARM") << elfHeader(1, 2, 2, 40) << 32 << false << 2 << 40 << "arm";
        QTest::newRow("ppc64 big endian") << elfHeader(2, 2, 3, 21) << 64 << false << 3 << 21 << "elf-21";
        QTest::newRow("ppc64le") << elfHeader(2, 1, 3, 21) << 64 << true << 3 << 21 << "elf-21";
        QTest::newRow("s390x") << elfHeader(2, 2, 2, 22) << 64 << false << 2 << 22 << "elf-22";
        QTest::newRow("RISC-V") << elfHeader(2, 1, 3, 243) << 64 << true << 3 << 243 << "elf-243";
        QTest::newRow("big-endian x86-64 (byte order matters)")
            << elfHeader(2, 2, 3, 62) << 64 << false << 3 << 62 << "x64";
        QTest::newRow("only the first 20 bytes")
            << elfHeader(2, 1, 3, 62).left(20) << 64 << true << 3 << 62 << "x64";
        QTest::newRow("a whole file")
            << elfHeader(2, 1, 3, 62) + QByteArray(4096, '\x55') << 64 << true << 3 << 62 << "x64";
    }
    void headers()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, bits);
        QFETCH(bool, littleEndian);
        QFETCH(int, type);
        QFETCH(int, machine);
        QFETCH(QString, name);
        const Expected<ElfInfo> info = elf::readHeader(bytes);
        QVERIFY(info.ok());
        QCOMPARE(info->bits, bits);
        QCOMPARE(info->littleEndian, littleEndian);
        QCOMPARE(int(info->type), type);
        QCOMPARE(int(info->machine), machine);
        QCOMPARE(info->machineName(), name);
    }

    void machineNames()
    {
        ElfInfo info;
        info.machine = 0;
        QCOMPARE(info.machineName(), QStringLiteral("elf-0"));
        info.machine = 0xffff;
        QCOMPARE(info.machineName(), QStringLiteral("elf-65535"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << QByteArray() << "elf.not-elf";
        QTest::newRow("three bytes") << QByteArray("\x7f"
                                                   "EL")
                                     << "elf.not-elf";
        QTest::newRow("PE") << QByteArray("MZ\x90\0", 4) << "elf.not-elf";
        QTest::newRow("script") << QByteArray("#!/bin/sh\necho hi\n") << "elf.not-elf";
        QTest::newRow("lower-case magic") << QByteArray("\x7f"
                                                        "elf\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0",
                                                        20)
                                          << "elf.not-elf";
        QTest::newRow("magic only") << QByteArray("\x7f"
                                                  "ELF")
                                    << "elf.truncated";
        QTest::newRow("19 bytes") << elfHeader(2, 1, 3, 62).left(19) << "elf.truncated";
        QTest::newRow("ident only") << elfHeader(2, 1, 3, 62).left(16) << "elf.truncated";
        QTest::newRow("class 0") << elfHeader(0, 1, 3, 62) << "elf.corrupt";
        QTest::newRow("class 3") << elfHeader(3, 1, 3, 62) << "elf.corrupt";
        QTest::newRow("data 0") << elfHeader(2, 0, 3, 62) << "elf.corrupt";
        QTest::newRow("data 3") << elfHeader(2, 3, 3, 62) << "elf.corrupt";
    }
    void errors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, id);
        const Expected<ElfInfo> info = elf::readHeader(bytes);
        QVERIFY(!info.ok());
        QCOMPARE(info.error().id, id);
        QCOMPARE(info.error().severity, Severity::Error);
        QVERIFY(!info.error().message.toEnglish().isEmpty());
        QVERIFY(!info.error().details.isEmpty());
    }

    void everyPrefix()
    {
        const QByteArray header = elfHeader(1, 2, 2, 40);
        for (int length = 0; length <= header.size(); ++length) {
            const Expected<ElfInfo> info = elf::readHeader(header.left(length));
            QCOMPARE(info.ok(), length >= 20);
            if (!info.ok())
                QCOMPARE(info.error().id,
                         length < 4 ? QStringLiteral("elf.not-elf") : QStringLiteral("elf.truncated"));
        }
    }

    void hostFiles_data()
    {
        QTest::addColumn<QStringList>("candidates");
        QTest::newRow("/bin/sh") << QStringList{QStringLiteral("/bin/sh")};
        QTest::newRow("libz") << QStringList{QStringLiteral("/usr/lib/x86_64-linux-gnu/libz.so.1"),
                                             QStringLiteral("/usr/lib/aarch64-linux-gnu/libz.so.1"),
                                             QStringLiteral("/lib/x86_64-linux-gnu/libz.so.1"),
                                             QStringLiteral("/usr/lib64/libz.so.1"),
                                             QStringLiteral("/usr/lib/libz.so.1")};
        const QString qtLibraries = QLibraryInfo::path(QLibraryInfo::LibrariesPath);
        QTest::newRow("QtCore") << QStringList{qtLibraries + QStringLiteral("/libQt6Core.so.6")};
    }
    void hostFiles()
    {
        QFETCH(QStringList, candidates);
#ifndef Q_OS_LINUX
        QSKIP("ELF files of the host are only checked on Linux");
#endif
        QString path;
        for (const QString &candidate : std::as_const(candidates)) {
            if (QFile::exists(candidate)) {
                path = candidate;
                break;
            }
        }
        if (path.isEmpty())
            QSKIP("the file is not on this machine");
        const Expected<ElfInfo> info = elf::readHeader(head(path));
        QVERIFY2(info.ok(), qPrintable(path));
        QCOMPARE(info->bits, int(QSysInfo::WordSize));
        QCOMPARE(info->littleEndian, QSysInfo::ByteOrder == QSysInfo::LittleEndian);
        QVERIFY2(info->type == 2 || info->type == 3, qPrintable(path)); // executable, or PIE / shared object
        const QString expected = hostMachineName();
        if (!expected.isEmpty())
            QCOMPARE(info->machineName(), expected);
    }

    // The dynamic section of real libraries reads as readelf reads it.
    void dynamicOfRealLibraries_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : realLibraries())
            QTest::newRow(qPrintable(path)) << path;
        if (realLibraries().isEmpty())
            QTest::newRow("none") << QString();
    }
    void dynamicOfRealLibraries()
    {
        QFETCH(QString, path);
        if (path.isEmpty())
            QSKIP("none of the libraries is on this machine");
        const auto expected = readelf(path);
        if (!expected)
            QSKIP("readelf is not installed");
        const Expected<ElfDynamic> dynamic = elf::readDynamicFile(path);
        QVERIFY2(dynamic.ok(), qPrintable(dynamic.error().details));
        QCOMPARE(dynamic->header.bits, path.startsWith(QLatin1String("/lib32/")) ? 32 : 64);
        QCOMPARE(dynamic->needed, expected->needed);
        QCOMPARE(dynamic->soname, expected->soname);
        QCOMPARE(dynamic->rpath, expected->rpath);
        QCOMPARE(dynamic->runpath, expected->runpath);
        QVERIFY(!dynamic->needed.isEmpty());
        QVERIFY(!dynamic->soname.isEmpty());
    }

    void dynamicOfCudnnNamesItsSublibrariesAndOrigin()
    {
        const QString path = QStringLiteral("/usr/local/cuda-13.0/lib64/libcudnn_cnn.so.9");
        if (!QFile::exists(path))
            QSKIP("cuDNN 9 is not installed in /usr/local/cuda-13.0");
        const Expected<ElfDynamic> dynamic = elf::readDynamicFile(path);
        QVERIFY2(dynamic.ok(), qPrintable(dynamic.error().details));
        QCOMPARE(dynamic->soname, QStringLiteral("libcudnn_cnn.so.9"));
        QVERIFY(dynamic->needed.contains(QStringLiteral("libcudnn_ops.so.9")));
        QVERIFY(dynamic->needed.contains(QStringLiteral("libcudnn_graph.so.9")));
        QCOMPARE(dynamic->runpath.value(0), QStringLiteral("$ORIGIN"));
        QVERIFY(dynamic->rpath.isEmpty());
    }

    // A file cut anywhere gives either the whole answer or an error, never a partial list.
    void truncatedCopies()
    {
        const QByteArray bytes = fileBytes(kSmallCudnn);
        if (bytes.isEmpty())
            QSKIP("libcudnn.so.9 is not in /usr/local/cuda-13.0");
        const Expected<ElfDynamic> whole = elf::readDynamic(bufferSource(bytes));
        QVERIFY(whole.ok());
        int errors = 0;
        for (qsizetype length = 0; length < bytes.size(); length += 61) {
            const Expected<ElfDynamic> cut = elf::readDynamic(bufferSource(bytes.left(length)));
            if (cut.ok()) {
                QCOMPARE(cut->needed, whole->needed);
                QCOMPARE(cut->soname, whole->soname);
                QCOMPARE(cut->runpath, whole->runpath);
                continue;
            }
            ++errors;
            const QString id = cut.error().id;
            QVERIFY2(id == QLatin1String("elf.truncated") || id == QLatin1String("elf.not-elf"),
                     qPrintable(QStringLiteral("%1 bytes: %2 %3").arg(length).arg(id, cut.error().details)));
        }
        QVERIFY(errors > 0);
        // The header alone, and the file up to its dynamic section, are both too short.
        QCOMPARE(elf::readDynamic(bufferSource(bytes.left(64))).error().id, QStringLiteral("elf.truncated"));
        const auto reference = readelf(kSmallCudnn);
        if (reference) {
            const Expected<ElfDynamic> cut =
                elf::readDynamic(bufferSource(bytes.left(qsizetype(reference->dynamicOffset) + 8)));
            QVERIFY(!cut.ok());
            QCOMPARE(cut.error().id, QStringLiteral("elf.truncated"));
        }
    }

    void damagedCopies_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("id");
        QTest::newRow("program headers past the end") << "phoff"
                                                      << "elf.truncated";
        QTest::newRow("program header entries too small") << "phentsize"
                                                          << "elf.corrupt";
        QTest::newRow("big-endian") << "bigendian"
                                    << "elf.unsupported";
        QTest::newRow("string table outside every segment") << "strtab"
                                                            << "elf.corrupt";
        QTest::newRow("string table one byte long") << "strsz"
                                                    << "elf.corrupt";
        QTest::newRow("library name past the string table") << "needed"
                                                            << "elf.corrupt";
        QTest::newRow("string table without its size") << "nostrsz"
                                                       << "elf.corrupt";
    }
    void damagedCopies()
    {
        QFETCH(QString, what);
        QFETCH(QString, id);
        QByteArray bytes = fileBytes(kSmallCudnn);
        const auto reference = readelf(kSmallCudnn);
        if (bytes.isEmpty() || !reference)
            QSKIP("needs libcudnn.so.9 in /usr/local/cuda-13.0 and readelf");
        const auto setField = [&bytes](qsizetype at, quint64 value) {
            qToLittleEndian<quint64>(value, bytes.data() + at);
        };
        const qint64 dynamic = reference->dynamicOffset;
        if (what == QLatin1String("phoff"))
            setField(0x20, quint64(bytes.size()) + 4096);
        else if (what == QLatin1String("phentsize"))
            qToLittleEndian<quint16>(8, bytes.data() + 0x36);
        else if (what == QLatin1String("bigendian"))
            bytes[5] = 2;
        else if (what == QLatin1String("strtab"))
            setField(dynamicEntry(bytes, dynamic, 5) + 8, 0x7fff00000000);
        else if (what == QLatin1String("strsz"))
            setField(dynamicEntry(bytes, dynamic, 10) + 8, 1);
        else if (what == QLatin1String("needed"))
            setField(dynamicEntry(bytes, dynamic, 1) + 8, 0xffffffffffff);
        else if (what == QLatin1String("nostrsz"))
            setField(dynamicEntry(bytes, dynamic, 10), 0x7ffffff0); // an unknown tag instead of DT_STRSZ
        const Expected<ElfDynamic> result = elf::readDynamic(bufferSource(bytes));
        QVERIFY2(!result.ok(), qPrintable(what));
        QCOMPARE(result.error().id, id);
        QCOMPARE(result.error().severity, Severity::Error);
        QVERIFY(!result.error().message.toEnglish().isEmpty());
    }

    // Random damage to the headers and the dynamic section never crashes the reader, and whatever
    // it reads back is names, not garbage.
    void randomDamage()
    {
        const QByteArray original = fileBytes(kSmallCudnn);
        const auto reference = readelf(kSmallCudnn);
        if (original.isEmpty() || !reference)
            QSKIP("needs libcudnn.so.9 in /usr/local/cuda-13.0 and readelf");
        QRandomGenerator random(20240611);
        const qsizetype dynamic = qsizetype(reference->dynamicOffset);
        for (int round = 0; round < 3000; ++round) {
            QByteArray bytes = original;
            for (int flip = 0; flip < 4; ++flip) {
                const bool inHeaders = random.bounded(2) == 0;
                const qsizetype at = inHeaders ? random.bounded(1024) : dynamic + random.bounded(512);
                bytes[at] = char(random.bounded(256));
            }
            const Expected<ElfDynamic> result = elf::readDynamic(bufferSource(bytes));
            if (result.ok()) {
                for (const QString &name : result->needed)
                    QVERIFY(name.size() < 64 * 1024);
            } else {
                QVERIFY(result.error().id.startsWith(QLatin1String("elf.")));
            }
        }
    }

    void staticProgramHasNoDynamicSection()
    {
        QByteArray header = elfHeader(2, 1, 2, 62); // no program headers at all
        const Expected<ElfDynamic> result = elf::readDynamic(bufferSource(header));
        QVERIFY(result.ok());
        QVERIFY(result->needed.isEmpty());
        QVERIFY(result->soname.isEmpty());
    }

    void unreadableFile()
    {
        const Expected<ElfDynamic> result =
            elf::readDynamicFile(QStringLiteral("/nonexistent/libnothing.so.1"));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().id, QStringLiteral("elf.unreadable"));
        QVERIFY(result.error().details.contains(QLatin1String("libnothing")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestElfReader)
#include "tst_elfreader.moc"
