#include "binary/ElfReader.h"

#include <QFile>
#include <QLibraryInfo>
#include <QSysInfo>
#include <QTest>
#include <QtEndian>

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
};

QTEST_GUILESS_MAIN(TestElfReader)
#include "tst_elfreader.moc"
