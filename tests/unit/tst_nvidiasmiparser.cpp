#include "Suite.h"
#include "detect/NvidiaSmiParser.h"

#include <QDir>
#include <QRandomGenerator>
#include <QTest>

#include "Sandbox.h"

using namespace cudnnsetup;
using namespace cudnnsetup::nvidiasmi;

namespace {

QString fixture(const QString &relativePath)
{
    return QString::fromUtf8(Sandbox::readFixture(relativePath));
}

// One GPU as a comparable line: "index|name|bus id|used/total|driver model".
QString describe(const TableGpu &gpu)
{
    return QStringLiteral("%1|%2|%3|%4/%5|%6")
        .arg(gpu.index)
        .arg(gpu.name, gpu.busId)
        .arg(gpu.memoryUsedMiB)
        .arg(gpu.memoryTotalMiB)
        .arg(gpu.driverModel.isNull() ? QStringLiteral("<null>") : gpu.driverModel);
}

QString orNull(const QString &value)
{
    return value.isNull() ? QStringLiteral("<null>") : value;
}

// One query row as a comparable line: "index|name|uuid|bus id|driver|memory|compute capability".
QString describe(const QueryRow &row)
{
    return QStringLiteral("%1|%2|%3|%4|%5|%6|%7")
        .arg(row.index)
        .arg(orNull(row.name), orNull(row.uuid), orNull(row.busId), orNull(row.driverVersion))
        .arg(row.memoryTotalMiB)
        .arg(orNull(row.computeCapability));
}

// The lines of one "== title" section of the recorded list-and-query.txt.
QString recordedSection(const QString &title)
{
    return Sandbox::fixtureSection(QStringLiteral("nvidia-h200-linux/list-and-query.txt"), title);
}

const QString kNull = QStringLiteral("<null>");

QStringList strings(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list.append(QString::fromUtf8(item));
    return list;
}

} // namespace

class TestNvidiaSmiParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableSamples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("smi");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");    // "<null>" for none
        QTest::addColumn<QString>("cudaRaw"); // "<null>" for none
        QTest::addColumn<QStringList>("gpus");

        QTest::newRow("real H200, R580, 91 columns, +--+ rule")
            << "nvidia-h200-linux/table.txt"
            << "580.159.04"
            << "580.159.04"
            << "13.0"
            << "13.0" << strings({"0|NVIDIA H200|00000000:00:06.0|0/143771|<null>"});
        QTest::newRow("R331, no CUDA field, 4-digit bus id, N/A power")
            << "nvidia-smi/linux-331.62-r331.txt"
            << "331.62"
            << "331.62" << kNull << kNull << strings({"0|GeForce GTX 650|0000:01:00.0|96/1023|<null>"});
        QTest::newRow("R384, no CUDA field, two GPUs, cut names")
            << "nvidia-smi/linux-384.111-2gpu.txt"
            << "384.111"
            << "384.111" << kNull << kNull
            << strings({"0|GeForce GTX 108...|00000000:02:00.0|10/11172|<null>",
                        "1|GeForce GTX 108...|00000000:03:00.0|395/11169|<null>"});
        QTest::newRow("Windows 411.70, no CUDA field, TCC/WDDM, CRLF")
            << "nvidia-smi/windows-411.70-tcc-wddm.txt"
            << "411.70"
            << "411.70" << kNull << kNull << strings({"0|GeForce GTX 1060|00000000:01:00.0|511/6144|WDDM"});
        QTest::newRow("cloud VM, nvidia-smi 450.66 on driver 418.67, ERR! in MIG M.")
            << "nvidia-smi/cloud-vm-450.66-driver-418.67-mig-err.txt"
            << "450.66"
            << "418.67"
            << "10.1"
            << "10.1" << strings({"0|Tesla T4|00000000:00:04.0|0/15079|<null>"});
        QTest::newRow("MIG enabled, MIG devices table is not GPUs")
            << "nvidia-smi/linux-470.57.02-mig-a100.txt"
            << "470.57.02"
            << "470.57.02"
            << "11.4"
            << "11.4"
            << strings({"0|NVIDIA A100-SXM...|00000000:07:00.0|0/81251|<null>",
                        "1|NVIDIA A100-SXM...|00000000:0F:00.0|0/81251|<null>"});
        QTest::newRow("vGPU, N/A 0C and N/A / N/A power")
            << "nvidia-smi/vgpu-470.63.01-grid-t4.txt"
            << "470.63.01"
            << "470.63.01"
            << "11.4"
            << "11.4" << strings({"0|GRID T4-16Q|00000000:02:00.0|2220/16384|<null>"});
        QTest::newRow("snap nvidia-smi 470 on driver 580, 79 columns")
            << "nvidia-smi/linux-snap-470.256.02-driver-580.95.05.txt"
            << "470.256.02"
            << "580.95.05"
            << "13.0"
            << "13.0" << strings({"0|NVIDIA GeForce ...|00000000:2B:00.0|714/8192|<null>"});
        QTest::newRow("R535, 89 columns")
            << "nvidia-smi/linux-535.104.05-89col-a100.txt"
            << "535.104.05"
            << "535.104.05"
            << "12.2"
            << "12.2" << strings({"0|NVIDIA A100-SXM4-80GB|00000000:07:00.0|4/81920|<null>"});
        QTest::newRow("WSL2, nvidia-smi 545.46 on Windows driver 546.80, CUDA ERR!")
            << "nvidia-smi/wsl2-545.46-driver-546.80-cuda-err.txt"
            << "545.46"
            << "546.80" << kNull << "ERR!"
            << strings({"0|NVIDIA GeForce RTX 3060|00000000:01:00.0|1024/12288|<null>"});
        QTest::newRow("R550, 91 columns, |--| rule")
            << "nvidia-smi/linux-550.54.15-91col-rtx4090.txt"
            << "550.54.15"
            << "550.54.15"
            << "12.4"
            << "12.4" << strings({"0|NVIDIA GeForce RTX 4090|00000000:01:00.0|785/24564|<null>"});
        QTest::newRow("Windows 552.22, TCC/WDDM, WDDM and TCC GPUs")
            << "nvidia-smi/windows-552.22-tcc-wddm-2gpu.txt"
            << "552.22"
            << "552.22"
            << "12.4"
            << "12.4"
            << strings({"0|NVIDIA GeForce RTX 3080|00000000:01:00.0|812/10240|WDDM",
                        "1|NVIDIA RTX A4000|00000000:02:00.0|1/16376|TCC"});
        QTest::newRow("Windows 591.59, Driver-Model, +--+ rule")
            << "nvidia-smi/windows-591.59-driver-model.txt"
            << "591.59"
            << "591.59"
            << "13.1"
            << "13.1" << strings({"0|NVIDIA GeForce RTX 3080|00000000:01:00.0|967/10240|WDDM"});
        QTest::newRow("R570, four GPUs, Prohibited and E. Process")
            << "nvidia-smi/linux-570.133.20-4gpu-h100.txt"
            << "570.133.20"
            << "570.133.20"
            << "12.8"
            << "12.8"
            << strings({"0|NVIDIA H100 80GB HBM3|00000000:18:00.0|1/81559|<null>",
                        "1|NVIDIA H100 80GB HBM3|00000000:2A:00.0|40215/81559|<null>",
                        "2|NVIDIA H100 80GB HBM3|00000000:3A:00.0|1/81559|<null>",
                        "3|NVIDIA H100 80GB HBM3|00000000:5D:00.0|1/81559|<null>"});
        QTest::newRow("FreeBSD 575.64.03, CUDA N/A")
            << "nvidia-smi/freebsd-575.64.03-cuda-na.txt"
            << "575.64.03"
            << "575.64.03" << kNull << "N/A"
            << strings({"0|NVIDIA GeForce RTX 2070 ...|00000000:01:00.0|402/8192|<null>"});
        QTest::newRow("Raspberry Pi CM5, PCI domain 00000001")
            << "nvidia-smi/raspberrypi-cm5-580.82.07-pci-domain.txt"
            << "580.82.07"
            << "580.82.07"
            << "13.0"
            << "13.0" << strings({"0|NVIDIA RTX A2000 12GB|00000001:01:00.0|3/12282|<null>"});
        QTest::newRow("R610, KMD Version and CUDA UMD Version")
            << "nvidia-smi/linux-610.43.02-kmd-umd.txt"
            << "610.43.02"
            << "610.43.02"
            << "13.3"
            << "13.3"
            << strings({"0|NVIDIA L40S|00000000:4E:00.0|0/46068|<null>",
                        "1|NVIDIA L40S|00000000:62:00.0|0/46068|<null>"});
        QTest::newRow("indented paste inside Markdown fences")
            << "nvidia-smi/markdown-indented-535.154.05.txt"
            << "535.154.05"
            << "535.154.05"
            << "12.2"
            << "12.2" << strings({"0|NVIDIA GeForce RTX 3090|00000000:0A:00.0|593/24576|<null>"});
        QTest::newRow("Markdown bold markers on every line")
            << "nvidia-smi/markdown-bold-525.85.12.txt"
            << "525.85.12"
            << "525.85.12"
            << "12.0"
            << "12.0" << strings({"0|NVIDIA GeForce ...|00000000:01:00.0|10/6144|<null>"});
    }
    void tableSamples()
    {
        QFETCH(QString, file);
        QFETCH(QString, smi);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, cudaRaw);
        QFETCH(QStringList, gpus);

        const QString text = fixture(file);
        QVERIFY2(!text.isEmpty(), qPrintable(file));
        const Expected<Table> table = parseTable(text);
        QVERIFY2(table.ok(), qPrintable(table.error().details));
        QCOMPARE(table->smiVersion, smi);
        QCOMPARE(table->driverVersion, driver);
        QCOMPARE(orNull(table->cudaVersion), cuda);
        QCOMPARE(orNull(table->cudaRaw), cudaRaw);
        QStringList described;
        for (const TableGpu &gpu : table->gpus)
            described.append(describe(gpu));
        QCOMPARE(described, gpus);
    }

    void everySampleFileIsCovered()
    {
        // A sample added to tests/fixtures/nvidia-smi/ without a row above would test nothing.
        const QDir dir(Sandbox::fixturePath(QStringLiteral("nvidia-smi")));
        const QStringList files = dir.entryList(QStringList{QStringLiteral("*.txt")}, QDir::Files);
        QVERIFY(files.size() >= 18);
        for (const QString &file : files) {
            const Expected<Table> table = parseTable(fixture(QStringLiteral("nvidia-smi/") + file));
            QVERIFY2(table.ok(), qPrintable(file));
            QVERIFY2(!table->gpus.isEmpty(), qPrintable(file));
            for (const TableGpu &gpu : table->gpus) {
                QVERIFY2(gpu.memoryTotalMiB > 0, qPrintable(file));
                QVERIFY2(!gpu.name.isEmpty(), qPrintable(file));
            }
        }
    }

    void headerVariants_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("smi");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("cudaRaw");

        QTest::newRow("R580")
            << "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |"
            << "580.95.05"
            << "580.95.05"
            << "13.0"
            << "13.0";
        QTest::newRow("R610 labels")
            << "| NVIDIA-SMI 610.43.02    KMD Version: 610.43.02     CUDA UMD Version: 13.3  |"
            << "610.43.02"
            << "610.43.02"
            << "13.3"
            << "13.3";
        QTest::newRow("no bars") << "NVIDIA-SMI 535.129.03 Driver Version: 535.129.03 CUDA Version: 12.2"
                                 << "535.129.03"
                                 << "535.129.03"
                                 << "12.2"
                                 << "12.2";
        QTest::newRow("quoted and bold")
            << ">  **| NVIDIA-SMI 525.60.13  Driver Version: 525.60.13  CUDA Version: 12.0 |**"
            << "525.60.13"
            << "525.60.13"
            << "12.0"
            << "12.0";
        QTest::newRow("bold value only")
            << "| NVIDIA-SMI 560.35.03  Driver Version: 560.35.03  CUDA Version: **12.6** |"
            << "560.35.03"
            << "560.35.03"
            << "12.6"
            << "12.6";
        QTest::newRow("CUDA ERR!") << "| NVIDIA-SMI 545.46  Driver Version: 546.80  CUDA Version: ERR!  |"
                                   << "545.46"
                                   << "546.80" << kNull << "ERR!";
        QTest::newRow("CUDA N/A") << "| NVIDIA-SMI 575.64.03  Driver Version: 575.64.03  CUDA Version: N/A  |"
                                  << "575.64.03"
                                  << "575.64.03" << kNull << "N/A";
        QTest::newRow("driver label without nvidia-smi version")
            << "| Driver Version: 418.67   CUDA Version: 10.1 |" << kNull << "418.67"
            << "10.1"
            << "10.1";
        QTest::newRow("pre-R410 narrow box")
            << "| NVIDIA-SMI 331.62     Driver Version: 331.62         |          "
            << "331.62"
            << "331.62" << kNull << kNull;
    }
    void headerVariants()
    {
        QFETCH(QString, line);
        QFETCH(QString, smi);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, cudaRaw);

        const Expected<Table> table =
            parseTable(QStringLiteral("Mon Nov 30 18:55:32 2026\n") + line + QLatin1Char('\n'));
        QVERIFY2(table.ok(), qPrintable(table.error().details));
        QCOMPARE(orNull(table->smiVersion), smi);
        QCOMPARE(table->driverVersion, driver);
        QCOMPARE(orNull(table->cudaVersion), cuda);
        QCOMPARE(orNull(table->cudaRaw), cudaRaw);
        QVERIFY(table->gpus.isEmpty());
    }

    void unparsable_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("blank lines") << "\n\n   \r\n";
        QTest::newRow("driver failure") << "NVIDIA-SMI has failed because it couldn't communicate with the "
                                           "NVIDIA driver. Make sure that the "
                                           "latest NVIDIA driver is installed and running.\n";
        QTest::newRow("no devices") << "No devices were found\n";
        QTest::newRow("command not found") << "bash: nvidia-smi: command not found\n";
        QTest::newRow("CUDA label only") << "| CUDA Version: 12.2 |\n";
        QTest::newRow("driver version N/A")
            << "| NVIDIA-SMI 545.46   Driver Version: N/A   CUDA Version: ERR! |\n";
        QTest::newRow("nvidia-smi version only") << "| NVIDIA-SMI 580.95.05                            |\n";
        QTest::newRow("binary") << QString::fromLatin1("\x7f"
                                                       "ELF\x02\x01\x01\x00\x00\x00\xff\xfe|||+++===",
                                                       21);
        QTest::newRow("table without header")
            << "|   0  NVIDIA H200                    On  |   00000000:00:06.0 Off |                    0 |\n"
               "| N/A   40C    P0            127W /  700W |       0MiB / 143771MiB |      0%      Default "
               "|\n";
    }
    void unparsable()
    {
        QFETCH(QString, text);
        const Expected<Table> table = parseTable(text);
        QVERIFY(!table.ok());
        QCOMPARE(table.error().id, QStringLiteral("nvidia-smi.unparsable"));
        QCOMPARE(table.error().severity, Severity::Error);
        QVERIFY(!table.error().message.isEmpty());
        QVERIFY(!table.error().details.isEmpty());
    }

    void cudaLineBeforeTheTableIsNotTheHeader()
    {
        const QString text = QStringLiteral("CUDA Version: 12.1 (from the docs)\n") +
                             fixture(QStringLiteral("nvidia-smi/linux-535.104.05-89col-a100.txt"));
        const Expected<Table> table = parseTable(text);
        QVERIFY(table.ok());
        QCOMPARE(table->driverVersion, QStringLiteral("535.104.05"));
        QCOMPARE(table->cudaVersion, QStringLiteral("12.2"));
    }

    void headerWithoutDriverIsReplacedByALaterOne()
    {
        const QString text =
            QStringLiteral("| NVIDIA-SMI 580.95.05                                   |\n"
                           "|   0  NVIDIA A10          On  | 00000000:00:05.0 Off |   0 |\n"
                           "| NVIDIA-SMI 535.183.01   Driver Version: 535.183.01   CUDA Version: 12.2   |\n"
                           "| N/A   31C    P0    42W / 150W |   1MiB / 23028MiB |   0% Default |\n"
                           "|   0  NVIDIA A10          On  | 00000000:00:05.0 Off |   0 |\n"
                           "| N/A   31C    P0    42W / 150W |   2MiB / 23028MiB |   0% Default |\n");
        const Expected<Table> table = parseTable(text);
        QVERIFY(table.ok());
        QCOMPARE(table->driverVersion, QStringLiteral("535.183.01"));
        QCOMPARE(table->gpus.size(), 1);
        QCOMPARE(describe(table->gpus.first()),
                 QStringLiteral("0|NVIDIA A10|00000000:00:05.0|2/23028|<null>"));
    }

    void onlyTheFirstTableOfTwoPastes()
    {
        const QString text = fixture(QStringLiteral("nvidia-smi/linux-550.54.15-91col-rtx4090.txt")) +
                             fixture(QStringLiteral("nvidia-smi/linux-570.133.20-4gpu-h100.txt"));
        const Expected<Table> table = parseTable(text);
        QVERIFY(table.ok());
        QCOMPARE(table->driverVersion, QStringLiteral("550.54.15"));
        QCOMPARE(table->gpus.size(), 1);
    }

    void gpuRowOddValues_data()
    {
        QTest::addColumn<QString>("rows");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ERR! persistence")
            << "|   0  Tesla T4            ERR! | 00000000:00:1E.0 Off |   ERR! |\n"
               "| N/A   32C    P8     9W /  70W |      0MiB / 15109MiB |   0% Default |"
            << "0|Tesla T4|00000000:00:1E.0|0/15109|<null>";
        QTest::newRow("MCDM")
            << "|   0  NVIDIA RTX PRO 6000 Blac...  MCDM  |   00000000:01:00.0 Off |   Off |\n"
               "| 30%   33C    P8    15W /  600W |      0MiB /  97887MiB |   0% Default |"
            << "0|NVIDIA RTX PRO 6000 Blac...|00000000:01:00.0|0/97887|MCDM";
        QTest::newRow("lower-case bus id, no trailing bars")
            << "   7  Tesla V100-SXM2-32GB  On  | 00000000:8a:00.0 Off\n N/A 31C P0 42W / 300W | 31MiB / "
               "32510MiB"
            << "7|Tesla V100-SXM2-32GB|00000000:8a:00.0|31/32510|<null>";
        QTest::newRow("memory line missing")
            << "|   0  Tesla K80           Off  | 0000:04:00.0     Off |   0 |\n"
               "+-------------------------------+----------------------+"
            << "0|Tesla K80|0000:04:00.0|-1/-1|<null>";
        QTest::newRow("name without a value after it")
            << "|   0  Quadro P4000 | 00000000:65:00.0 Off |\n"
               "| 46%   35C    P8     5W / 105W |   1MiB /  8192MiB |"
            << "0|Quadro P4000|00000000:65:00.0|1/8192|<null>";
    }
    void gpuRowOddValues()
    {
        QFETCH(QString, rows);
        QFETCH(QString, expected);
        const QString header = QStringLiteral(
            "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
            "|-------------------------------+----------------------+----------------------+\n");
        const Expected<Table> table = parseTable(header + rows);
        QVERIFY(table.ok());
        QCOMPARE(table->gpus.size(), 1);
        QCOMPARE(describe(table->gpus.first()), expected);
    }

    // Every cut of the real table (a pipe closed early, a paste cut short) gives an error or a partial
    // table, never a crash; once the header line is in, the driver version is always right.
    void truncatedRealTable()
    {
        const QString text = fixture(QStringLiteral("nvidia-h200-linux/table.txt"));
        QVERIFY(!text.isEmpty());
        const qsizetype headerEnd = text.indexOf(QLatin1String("CUDA Version: 13.0")) + 18;
        for (qsizetype length = 0; length <= text.size(); ++length) {
            const Expected<Table> prefix = parseTable(text.left(length));
            if (prefix.ok()) {
                QVERIFY(prefix->gpus.size() <= 1);
                QVERIFY(!prefix->driverVersion.isEmpty());
            } else {
                QCOMPARE(prefix.error().id, QStringLiteral("nvidia-smi.unparsable"));
            }
            if (length >= headerEnd) {
                QVERIFY2(prefix.ok(), qPrintable(QString::number(length)));
                QCOMPARE(prefix->driverVersion, QStringLiteral("580.159.04"));
                QCOMPARE(prefix->cudaVersion, QStringLiteral("13.0"));
            }
            const Expected<Table> suffix = parseTable(text.mid(length));
            if (suffix.ok())
                QVERIFY(suffix->gpus.size() <= 1);
        }
        // The full table and every cut after the memory line carry the whole GPU.
        const qsizetype memoryEnd = text.indexOf(QLatin1String("143771MiB")) + 9;
        for (qsizetype length = memoryEnd; length <= text.size(); ++length) {
            const Expected<Table> table = parseTable(text.left(length));
            QVERIFY(table.ok());
            QCOMPARE(table->gpus.size(), 1);
            QCOMPARE(table->gpus.first().memoryTotalMiB, 143771);
        }
    }

    void randomGarbage()
    {
        const QString real = fixture(QStringLiteral("nvidia-h200-linux/table.txt"));
        const QStringList realLines = real.split(QLatin1Char('\n'));
        const QString alphabet = QStringLiteral("|+-=: .0123456789MiBWNVIDA/%CUDAVersion!*>\t\r\nSMI-KMD") +
                                 QChar(0x00e9) + QChar(0x4e2d) + QChar(0xfffd);
        QRandomGenerator random(20261130);
        for (int round = 0; round < 2000; ++round) {
            QStringList lines = realLines;
            // Insert, replace or drop a few lines, and mangle characters inside the others.
            const int edits = 1 + int(random.bounded(6));
            for (int e = 0; e < edits; ++e) {
                QString garbage;
                const int length = int(random.bounded(120));
                for (int i = 0; i < length; ++i)
                    garbage.append(alphabet.at(int(random.bounded(int(alphabet.size())))));
                const int at = int(random.bounded(int(lines.size()) + 1));
                switch (random.bounded(4)) {
                case 0:
                    lines.insert(at, garbage);
                    break;
                case 1:
                    if (at < lines.size())
                        lines[at] = garbage;
                    break;
                case 2:
                    if (at < lines.size())
                        lines.removeAt(at);
                    break;
                default:
                    if (at < lines.size() && !lines.at(at).isEmpty()) {
                        QString &line = lines[at];
                        line[int(random.bounded(int(line.size())))] =
                            alphabet.at(int(random.bounded(int(alphabet.size()))));
                    }
                    break;
                }
            }
            const Expected<Table> table = parseTable(lines.join(QLatin1Char('\n')));
            if (table.ok()) {
                QVERIFY(!table->driverVersion.isEmpty());
                QVERIFY(table->gpus.size() <= 3);
            } else {
                QCOMPARE(table.error().id, QStringLiteral("nvidia-smi.unparsable"));
            }
            // Pure garbage, too.
            QString noise;
            const int length = int(random.bounded(400));
            for (int i = 0; i < length; ++i)
                noise.append(alphabet.at(int(random.bounded(int(alphabet.size())))));
            (void)parseTable(noise);
            (void)parseQuery(noise, queryFields());
            (void)isDriverFailure(noise);
        }
    }

    // Lines of every sample, shuffled together and cut: headers without a driver, GPU rows without
    // a header, memory lines without a GPU row, MIG rows after GPU rows.
    void shuffledSampleLines()
    {
        QStringList pool = fixture(QStringLiteral("nvidia-h200-linux/table.txt")).split(QLatin1Char('\n'));
        const QDir dir(Sandbox::fixturePath(QStringLiteral("nvidia-smi")));
        const QStringList files = dir.entryList(QStringList{QStringLiteral("*.txt")}, QDir::Files);
        for (const QString &file : files)
            pool += fixture(QStringLiteral("nvidia-smi/") + file).split(QLatin1Char('\n'));
        pool.append(QStringLiteral("| NVIDIA-SMI 580.95.05                                   |"));
        pool.append(QStringLiteral("| NVIDIA-SMI 545.46   Driver Version: N/A   CUDA Version: ERR! |"));

        QRandomGenerator random(91900);
        for (int round = 0; round < 3000; ++round) {
            QStringList lines;
            const int count = int(random.bounded(40));
            for (int i = 0; i < count; ++i) {
                QString line = pool.at(int(random.bounded(int(pool.size()))));
                if (random.bounded(8) == 0)
                    line.truncate(int(random.bounded(int(line.size()) + 1)));
                lines.append(line);
            }
            const Expected<Table> table = parseTable(lines.join(QLatin1Char('\n')));
            if (table.ok()) {
                QVERIFY(!table->driverVersion.isEmpty());
                for (const TableGpu &gpu : table->gpus)
                    QVERIFY(gpu.index >= 0 && !gpu.busId.isEmpty());
            } else {
                QCOMPARE(table.error().id, QStringLiteral("nvidia-smi.unparsable"));
            }
            (void)isDriverFailure(lines.join(QLatin1Char('\n')));
        }
    }

    void hugeInput()
    {
        const QString longLine(200000, QLatin1Char('a'));
        QVERIFY(!parseTable(longLine).ok());
        const QString versions = QStringLiteral("Driver Version Version Version ").repeated(3000);
        QVERIFY(!parseTable(versions).ok());
        QVERIFY(!parseQuery(longLine, queryFields()).ok());
    }

    void driverFailure_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("failure");
        QTest::addColumn<int>("kind");

        QTest::newRow("cannot communicate") << "NVIDIA-SMI has failed because it couldn't communicate with "
                                               "the NVIDIA driver. Make sure that the "
                                               "latest NVIDIA driver is installed and running.\n\n"
                                            << true << int(DriverFailure::NotCommunicating);
        QTest::newRow("cannot communicate, Windows wording")
            << "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that "
               "the "
               "latest NVIDIA driver is installed and running. This can also be happening if non-NVIDIA GPU "
               "is "
               "running as primary display, and NVIDIA GPU is in WDDM mode.\r\n"
            << true << int(DriverFailure::NotCommunicating);
        QTest::newRow("no libnvidia-ml")
            << "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the "
               "NVIDIA "
               "Display Driver is properly installed and present in your system.\n"
            << true << int(DriverFailure::NotCommunicating);
        QTest::newRow("version mismatch") << "Failed to initialize NVML: Driver/library version mismatch\n"
                                          << true << int(DriverFailure::VersionMismatch);
        QTest::newRow("version mismatch with NVML version")
            << "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183\n"
            << true << int(DriverFailure::VersionMismatch);
        QTest::newRow("NVML unknown error") << "Failed to initialize NVML: Unknown Error\n"
                                            << true << int(DriverFailure::NvmlError);
        QTest::newRow("NVML blocked under WSL")
            << "Failed to initialize NVML: GPU access blocked by the operating system\n"
            << true << int(DriverFailure::NvmlError);
        QTest::newRow("GPU lost, no table")
            << "Unable to determine the device handle for GPU 0000:01:00.0: Unknown Error\n"
            << true << int(DriverFailure::GpuLost);
        QTest::newRow("GPU lost, reboot") << "Unable to determine the device handle for gpu 0000:3B:00.0: "
                                             "GPU is lost.  Reboot the system to "
                                             "recover this GPU\n"
                                          << true << int(DriverFailure::GpuLost);
        QTest::newRow("no devices") << "No devices were found\n" << true << int(DriverFailure::NoDevices);
        QTest::newRow("real table") << fixture(QStringLiteral("nvidia-h200-linux/table.txt")) << false
                                    << int(DriverFailure::None);
        QTest::newRow("empty") << QString() << false << int(DriverFailure::None);
        QTest::newRow("command not found")
            << "nvidia-smi: command not found" << false << int(DriverFailure::None);
    }
    void driverFailure()
    {
        QFETCH(QString, text);
        QFETCH(bool, failure);
        QFETCH(int, kind);
        QCOMPARE(isDriverFailure(text), failure);
        QCOMPARE(int(nvidiasmi::driverFailure(text)), kind);
    }

    void oneLostGpuBesideWorkingOnes()
    {
        const QString text =
            QStringLiteral("Unable to determine the device handle for GPU 0000:5D:00.0: Unknown Error\n") +
            fixture(QStringLiteral("nvidia-smi/linux-570.133.20-4gpu-h100.txt"));
        QCOMPARE(nvidiasmi::driverFailure(text), DriverFailure::GpuLost);
        QVERIFY(!isDriverFailure(text));
    }

    void queryFieldLists()
    {
        QCOMPARE(queryFields(), (strings({"index", "name", "uuid", "pci.bus_id", "driver_version",
                                          "memory.total", "compute_cap"})));
        QCOMPARE(queryFieldsLegacy(),
                 (strings({"index", "name", "uuid", "pci.bus_id", "driver_version", "memory.total"})));
    }

    void query_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QStringList>("rows");

        const QStringList all = queryFields();
        const QStringList legacy = queryFieldsLegacy();

        QTest::newRow("real, header and units, extra column")
            << recordedSection(QStringLiteral("query")) << all
            << strings(
                   {"0|NVIDIA "
                    "H200|GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0|00000000:00:06.0|580.159.04|143771|9.0"});
        QTest::newRow("real, noheader, other fields")
            << recordedSection(QStringLiteral("query noheader"))
            << strings({"name", "driver_version", "compute_cap", "memory.total"})
            << strings({"-1|NVIDIA H200|<null>|<null>|580.159.04|143771|9.0"});
        QTest::newRow("noheader nounits")
            << "0, NVIDIA H200, GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0, 00000000:00:06.0, 580.159.04, "
               "143771, 9.0\n"
            << all
            << strings(
                   {"0|NVIDIA "
                    "H200|GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0|00000000:00:06.0|580.159.04|143771|9.0"});
        QTest::newRow("four GPUs, CRLF")
            << "0, NVIDIA H100 80GB HBM3, GPU-a1, 00000000:18:00.0, 570.133.20, 81559, 9.0\r\n"
               "1, NVIDIA H100 80GB HBM3, GPU-a2, 00000000:2A:00.0, 570.133.20, 81559, 9.0\r\n"
               "2, NVIDIA H100 80GB HBM3, GPU-a3, 00000000:3A:00.0, 570.133.20, 81559, 9.0\r\n"
               "3, NVIDIA H100 80GB HBM3, GPU-a4, 00000000:5D:00.0, 570.133.20, 81559, 9.0\r\n"
            << all
            << strings({"0|NVIDIA H100 80GB HBM3|GPU-a1|00000000:18:00.0|570.133.20|81559|9.0",
                        "1|NVIDIA H100 80GB HBM3|GPU-a2|00000000:2A:00.0|570.133.20|81559|9.0",
                        "2|NVIDIA H100 80GB HBM3|GPU-a3|00000000:3A:00.0|570.133.20|81559|9.0",
                        "3|NVIDIA H100 80GB HBM3|GPU-a4|00000000:5D:00.0|570.133.20|81559|9.0"});
        QTest::newRow("legacy fields")
            << "0, Tesla K80, GPU-6b5d1a2c, 00000000:04:00.0, 470.256.02, 11441\n"
            << legacy << strings({"0|Tesla K80|GPU-6b5d1a2c|00000000:04:00.0|470.256.02|11441|<null>"});
        QTest::newRow("not available values")
            << "0, GRID T4-16Q, [N/A], 00000000:02:00.0, 470.63.01, [Not Supported], N/A\n"
            << all << strings({"0|GRID T4-16Q|<null>|00000000:02:00.0|470.63.01|-1|<null>"});
        QTest::newRow("unknown error values")
            << "0, [Unknown Error], GPU-1, 00000000:01:00.0, 550.54.15, [GPU requires reset], [Unknown "
               "Error]\n"
            << all << strings({"0|<null>|GPU-1|00000000:01:00.0|550.54.15|-1|<null>"});
        QTest::newRow("comma in the name")
            << "0, NVIDIA Foo, Bar Edition, GPU-1, 00000000:01:00.0, 580.95.05, 8192, 8.6\n"
            << all << strings({"0|NVIDIA Foo, Bar Edition|GPU-1|00000000:01:00.0|580.95.05|8192|8.6"});
        QTest::newRow("comma in the name, with header")
            << "index, name, uuid, pci.bus_id, driver_version, memory.total [MiB], compute_cap\n"
               "1, NVIDIA Foo,Bar, GPU-2, 00000000:02:00.0, 580.95.05, 8192 MiB, 8.6\n"
            << all << strings({"1|NVIDIA Foo,Bar|GPU-2|00000000:02:00.0|580.95.05|8192|8.6"});
        QTest::newRow("header in another order")
            << "name, index, memory.total [MiB]\nNVIDIA L4, 0, 23034 MiB\n"
            << strings({"index", "name", "memory.total"})
            << strings({"0|NVIDIA L4|<null>|<null>|<null>|23034|<null>"});
        QTest::newRow("junk lines around the rows")
            << "```\nWarning: persistence mode is disabled on device 00000000:01:00.0.\n"
               "0, NVIDIA GeForce RTX 4090, GPU-9, 00000000:01:00.0, 550.54.15, 24564, 8.9\n```\n"
            << all << strings({"0|NVIDIA GeForce RTX 4090|GPU-9|00000000:01:00.0|550.54.15|24564|8.9"});
        QTest::newRow("bad index skipped")
            << "x, NVIDIA A, GPU-1, 00000000:01:00.0, 550.54.15, 1, 8.9\n"
               "1, NVIDIA B, GPU-2, 00000000:02:00.0, 550.54.15, 2, 8.9\n"
            << all << strings({"1|NVIDIA B|GPU-2|00000000:02:00.0|550.54.15|2|8.9"});
    }
    void query()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, fields);
        QFETCH(QStringList, rows);
        const Expected<QList<QueryRow>> parsed = parseQuery(text, fields);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error().details));
        QStringList described;
        for (const QueryRow &row : parsed.value())
            described.append(describe(row));
        QCOMPARE(described, rows);
    }

    void queryUnparsable_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("invalid field") << "Field \"compute_cap\" is not a valid field to query.\n\n";
        QTest::newRow("no devices") << "No devices were found\n";
        QTest::newRow("driver failure") << "NVIDIA-SMI has failed because it couldn't communicate with the "
                                           "NVIDIA driver. Make sure that the "
                                           "latest NVIDIA driver is installed and running.\n";
        QTest::newRow("too few columns") << "0, NVIDIA H200, GPU-1\n";
        QTest::newRow("header only")
            << "index, name, uuid, pci.bus_id, driver_version, memory.total [MiB], compute_cap\n";
    }
    void queryUnparsable()
    {
        QFETCH(QString, text);
        const Expected<QList<QueryRow>> parsed = parseQuery(text, queryFields());
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().id, QStringLiteral("nvidia-smi.query-unparsable"));
        QCOMPARE(parsed.error().severity, Severity::Error);
        QVERIFY(!parsed.error().details.isEmpty());
    }

    void invalidFieldError_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("invalid");
        QTest::newRow("compute_cap") << "Field \"compute_cap\" is not a valid field to query.\n" << true;
        QTest::newRow("other field, CRLF") << "Field \"gpu_bus_id\" is not a valid field to query.\r\n\r\n"
                                           << true;
        QTest::newRow("after usage text") << "\nField \"compute_cap\" is not a valid field to query.\n\n"
                                             "Please run 'nvidia-smi -h' for help.\n"
                                          << true;
        QTest::newRow("rows") << "0, NVIDIA H200, GPU-1, 00000000:00:06.0, 580.159.04, 143771, 9.0\n"
                              << false;
        QTest::newRow("driver failure") << "Failed to initialize NVML: Unknown Error\n" << false;
        QTest::newRow("empty") << QString() << false;
    }
    void invalidFieldError()
    {
        QFETCH(QString, text);
        QFETCH(bool, invalid);
        QCOMPARE(isInvalidFieldError(text), invalid);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestNvidiaSmiParser)
#include "tst_nvidiasmiparser.moc"
