// The machine reports of a lab's share (report/MachineReport.h) and their summary
// (report/FleetSummary.h): the report's items from this machine's status, the file name a machine
// name becomes, the majority and the machines that differ with their repairs, old reports, and
// hostile files on the share (huge, damaged, foreign, links, a FIFO, markup in names and values).
#include "Suite.h"
#include "common/Translations.h"
#include "report/FleetSummary.h"
#include "report/MachineReport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#ifndef Q_OS_WIN
#include <sys/stat.h>
#endif

using namespace cudnnsetup;

namespace {

const QDateTime kNow(QDate(2026, 12, 3), QTime(12, 0), Qt::UTC);
const QString kCudnnFolder = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
const QString kDriverFix = QStringLiteral("Update the NVIDIA driver to 580.65 or newer.");
const QString kTorchFix =
    QStringLiteral("pip install torch --index-url https://download.pytorch.org/whl/cu126");

// A Windows lab machine as most of the room is: driver 580.97, cuDNN 9.1 for CUDA 12 second on
// PATH, a CUDA torch, verified the day before.
MachineReportInput labMachine(const QString &name)
{
    MachineReportInput input;
    input.machine = name;
    input.writtenAt = kNow.addDays(-1);
    input.tool = QStringLiteral("cudnnctl test");
    SystemSnapshot &snapshot = input.snapshot;
    snapshot.os.family = QStringLiteral("windows");
    snapshot.os.name = QStringLiteral("Windows 11 Pro");
    DriverInfo driver;
    driver.version = QStringLiteral("580.97");
    snapshot.driver = driver;
    CudnnCopy copy;
    copy.version = QStringLiteral("9.1.0");
    copy.directory = kCudnnFolder;
    copy.path = kCudnnFolder + QStringLiteral("\\cudnn64_9.dll");
    copy.cudaMajor = 12;
    copy.loadOrder = 1;
    snapshot.cudnn = {copy};
    // Another case and a trailing separator: the same folder to Windows.
    snapshot.environment.path = {QStringLiteral("C:\\Windows\\system32"),
                                 QStringLiteral("c:\\program files\\nvidia\\cudnn\\v9.1\\bin\\")};
    PythonInstall python;
    python.path = QStringLiteral("C:\\Python312\\python.exe");
    TorchInfo torch;
    torch.version = QStringLiteral("2.9.1+cu126");
    torch.cuda = QStringLiteral("12.6");
    python.torch = torch;
    snapshot.pythons = {python};
    VerificationRecord record;
    record.when = kNow.addDays(-1);
    record.passed = true;
    record.stages = {{QStringLiteral("load"), QStringLiteral("passed")}};
    input.status.verified = record;
    return input;
}

QString write(const MachineReportInput &input, const QString &folder)
{
    const Expected<QString> written = writeMachineReport(machineReportJson(input), folder);
    if (!written)
        qFatal("report not written: %s", qPrintable(written.error().details));
    return *written;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

const FleetItem &itemOf(const FleetSummary &summary, const QString &name)
{
    for (const FleetItem &item : summary.items) {
        if (item.item == name)
            return item;
    }
    qFatal("no item %s", qPrintable(name));
}

QStringList outlierMachines(const FleetItem &item)
{
    QStringList machines;
    for (const FleetOutlier &outlier : item.outliers)
        machines << outlier.machine;
    return machines;
}

} // namespace

class TestFleetSummary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void fileNames_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("file");
        QTest::newRow("plain") << QStringLiteral("LAB-PC-017") << QStringLiteral("LAB-PC-017.json");
        QTest::newRow("traversal") << QStringLiteral("../../etc/passwd")
                                   << QStringLiteral("_.._etc_passwd.json");
        QTest::newRow("separators") << QStringLiteral("a\\b:c*d") << QStringLiteral("a_b_c_d.json");
        QTest::newRow("empty") << QString() << QStringLiteral("unnamed.json");
        QTest::newRow("dots only") << QStringLiteral("...") << QStringLiteral("unnamed.json");
        QTest::newRow("device") << QStringLiteral("CON") << QStringLiteral("_CON.json");
        QTest::newRow("device with extension")
            << QStringLiteral("nul.txt") << QStringLiteral("_nul.txt.json");
        QTest::newRow("not a device") << QStringLiteral("CONSOLE") << QStringLiteral("CONSOLE.json");
        QTest::newRow("chinese") << QStringLiteral("实验室01") << QStringLiteral("___01.json");
        QTest::newRow("markup") << QStringLiteral("<b>x</b>") << QStringLiteral("_b_x__b_.json");
        QTest::newRow("long") << QString(200, QLatin1Char('a'))
                              << QString(64, QLatin1Char('a')) + QStringLiteral(".json");
    }
    void fileNames()
    {
        QFETCH(QString, machine);
        QFETCH(QString, file);
        QCOMPARE(machineReportFileName(machine), file);
    }

    // The items of one report, from the snapshot and what status answers.
    void reportItems()
    {
        MachineReportInput input = labMachine(QStringLiteral("lab-01"));
        input.findings = {
            Finding::warning(QStringLiteral("doctor.torch-cpu-only"), Text::verbatim(QStringLiteral("cpu")),
                             {}, Text::verbatim(kTorchFix)),
            Finding::info(QStringLiteral("path.long"), Text::verbatim(QStringLiteral("a note")))};
        const QJsonObject report = machineReportJson(input);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/machine-report/1"));
        QCOMPARE(report.value(QStringLiteral("writtenAt")).toString(),
                 QStringLiteral("2026-12-02T12:00:00Z"));
        const QJsonObject items = report.value(QStringLiteral("items")).toObject();
        QCOMPARE(items.keys().size(), machineReportItems().size());
        QCOMPARE(items.value(QStringLiteral("driver")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("580.97"));
        const QJsonObject cudnn = items.value(QStringLiteral("cudnn")).toObject();
        QCOMPARE(cudnn.value(QStringLiteral("value")).toString(),
                 QStringLiteral("9.1.0 cuda12 ") + kCudnnFolder);
        QCOMPARE(cudnn.value(QStringLiteral("loads")).toString(),
                 kCudnnFolder + QStringLiteral("\\cudnn64_9.dll"));
        QCOMPARE(items.value(QStringLiteral("path")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("entry 2"));
        const QJsonObject torch = items.value(QStringLiteral("torch")).toObject();
        QCOMPARE(torch.value(QStringLiteral("value")).toString(),
                 QStringLiteral("cu126; doctor.torch-cpu-only"));
        QCOMPARE(torch.value(QStringLiteral("findings")).toArray(),
                 QJsonArray{QStringLiteral("doctor.torch-cpu-only")});
        const QJsonObject python = torch.value(QStringLiteral("pythons")).toArray().first().toObject();
        QCOMPARE(python.value(QStringLiteral("index")).toString(),
                 QStringLiteral("https://download.pytorch.org/whl/cu126"));
        QCOMPARE(python.value(QStringLiteral("cuda")).toString(), QStringLiteral("12.6"));
        const QJsonObject verify = items.value(QStringLiteral("verify")).toObject();
        QCOMPARE(verify.value(QStringLiteral("value")).toString(), QStringLiteral("passed"));
        QCOMPARE(verify.value(QStringLiteral("stages")).toArray().size(), 1);
        // Only open findings travel: the note stays home.
        QCOMPARE(report.value(QStringLiteral("findings")).toArray().size(), 1);

        input.status.verified.reset();
        input.snapshot.driver.reset();
        input.snapshot.environment.path = {QStringLiteral("C:\\Windows")};
        input.snapshot.pythons.first().torch->version = QStringLiteral("2.9.1+cpu");
        input.snapshot.pythons.first().torch->cuda.clear();
        input.findings.clear();
        const QJsonObject bare = machineReportJson(input).value(QStringLiteral("items")).toObject();
        QCOMPARE(bare.value(QStringLiteral("driver")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("none"));
        QCOMPARE(bare.value(QStringLiteral("path")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("absent"));
        QCOMPARE(bare.value(QStringLiteral("torch")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("cpu"));
        QCOMPARE(bare.value(QStringLiteral("verify")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("not-verified"));
    }

    // A report replaced whole: one file per machine, nothing left under a temporary name.
    void writerReplacesWhole()
    {
        QTemporaryDir share;
        MachineReportInput input = labMachine(QStringLiteral("lab-01"));
        const QString first = write(input, share.path());
        input.snapshot.driver->version = QStringLiteral("581.15");
        QCOMPARE(write(input, share.path()), first);
        QCOMPARE(QDir(share.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("lab-01.json")});
        QFile file(first);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("581.15"));
    }

    void majorityOutliersAndRepairs()
    {
        QTemporaryDir share;
        for (const QString &name : {QStringLiteral("lab-01"), QStringLiteral("lab-05")})
            write(labMachine(name), share.path());
        MachineReportInput oldDriver = labMachine(QStringLiteral("lab-03"));
        oldDriver.snapshot.driver->version = QStringLiteral("550.54");
        oldDriver.findings = {Finding::error(QStringLiteral("doctor.driver-too-old"),
                                             Text::verbatim(QStringLiteral("too old")), {},
                                             Text::verbatim(kDriverFix))};
        write(oldDriver, share.path());
        MachineReportInput cpuTorch = labMachine(QStringLiteral("lab-04"));
        cpuTorch.snapshot.pythons.first().torch->version = QStringLiteral("2.9.1+cpu");
        cpuTorch.snapshot.pythons.first().torch->cuda.clear();
        cpuTorch.findings = {Finding::warning(QStringLiteral("doctor.torch-cpu-only"),
                                              Text::verbatim(QStringLiteral("CPU-only")), {},
                                              Text::verbatim(kTorchFix))};
        cpuTorch.status.verified.reset();
        write(cpuTorch, share.path());
        MachineReportInput pathFirst = labMachine(QStringLiteral("lab-02"));
        pathFirst.snapshot.environment.path.move(1, 0);
        write(pathFirst, share.path());

        const FleetSummary summary = summarizeFleet(share.path(), kNow, 7);
        QCOMPARE(summary.reports, 5);
        QVERIFY(summary.unreadable.isEmpty());
        QVERIFY(summary.stale.isEmpty());

        const FleetItem &driver = itemOf(summary, QStringLiteral("driver"));
        QCOMPARE(driver.majority, QStringLiteral("580.97"));
        QCOMPARE(driver.majorityCount, 4);
        QCOMPARE(outlierMachines(driver), QStringList{QStringLiteral("lab-03")});
        QCOMPARE(driver.outliers.first().repair, kDriverFix); // the finding's fix

        const FleetItem &torch = itemOf(summary, QStringLiteral("torch"));
        QCOMPARE(torch.majority, QStringLiteral("cu126"));
        QCOMPARE(outlierMachines(torch), QStringList{QStringLiteral("lab-04")});
        QCOMPARE(torch.outliers.first().value, QStringLiteral("cpu; doctor.torch-cpu-only"));
        QCOMPARE(torch.outliers.first().repair, kTorchFix);

        const FleetItem &verify = itemOf(summary, QStringLiteral("verify"));
        QCOMPARE(outlierMachines(verify), QStringList{QStringLiteral("lab-04")});
        QVERIFY2(
            verify.outliers.first().repair.contains(QStringLiteral("cudnnctl verify")), // the item's own fix
            qPrintable(verify.outliers.first().repair));

        const FleetItem &path = itemOf(summary, QStringLiteral("path"));
        QCOMPARE(path.majority, QStringLiteral("entry 2"));
        QCOMPARE(outlierMachines(path), QStringList{QStringLiteral("lab-02")});
        QVERIFY(path.outliers.first().repair.isEmpty());

        QVERIFY(itemOf(summary, QStringLiteral("cudnn")).outliers.isEmpty());

        const QJsonObject json = summary.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/fleet-summary/1"));
        QCOMPARE(json.value(QStringLiteral("reports")).toInt(), 5);
        const QString text = fleetSummaryText(summary);
        QVERIFY2(text.contains(QStringLiteral("lab-03: 550.54")), qPrintable(text));
        QVERIFY2(text.contains(kTorchFix), qPrintable(text));
    }

    // Equal counts: the smaller value is the majority, whatever order the files are read in.
    void tieIsDeterministic()
    {
        QTemporaryDir share;
        MachineReportInput a = labMachine(QStringLiteral("b-machine"));
        a.snapshot.driver->version = QStringLiteral("580.97");
        MachineReportInput b = labMachine(QStringLiteral("a-machine"));
        b.snapshot.driver->version = QStringLiteral("550.54");
        write(a, share.path());
        write(b, share.path());
        const FleetItem driver = itemOf(summarizeFleet(share.path(), kNow, 7), QStringLiteral("driver"));
        QCOMPARE(driver.majority, QStringLiteral("550.54"));
        QCOMPARE(outlierMachines(driver), QStringList{QStringLiteral("b-machine")});
    }

    void staleReports()
    {
        QTemporaryDir share;
        write(labMachine(QStringLiteral("fresh")), share.path());
        MachineReportInput old = labMachine(QStringLiteral("old"));
        old.writtenAt = kNow.addDays(-10);
        write(old, share.path());
        QJsonObject undated = machineReportJson(labMachine(QStringLiteral("undated")));
        undated.remove(QStringLiteral("writtenAt"));
        QVERIFY(writeMachineReport(undated, share.path()));

        const FleetSummary week = summarizeFleet(share.path(), kNow, 7);
        QCOMPARE(week.reports, 3);
        QCOMPARE(week.stale.size(), 2);
        QCOMPARE(week.stale.at(0).machine, QStringLiteral("undated")); // no time: oldest
        QCOMPARE(week.stale.at(1).machine, QStringLiteral("old"));
        QCOMPARE(week.stale.at(1).writtenAt, kNow.addDays(-10));
        const FleetSummary fortnight = summarizeFleet(share.path(), kNow, 14);
        QCOMPARE(fortnight.stale.size(), 1);
    }

    // Whoever can write to the share can leave anything there: each such file is listed, none
    // stops the summary, none hangs it, and nothing it says reaches the page unescaped.
    void hostileFiles()
    {
        QTemporaryDir share;
        const QDir dir(share.path());
        write(labMachine(QStringLiteral("lab-01")), share.path());
        MachineReportInput evil = labMachine(QStringLiteral("<script>alert(1)</script>\x1b[31m\u202e"));
        evil.snapshot.driver->version =
            QStringLiteral("<img src=x onerror=alert(1)>") + QString(100000, QLatin1Char('9'));
        write(evil, share.path());

        writeFile(dir.filePath(QStringLiteral("huge.json")),
                  QByteArray(FleetSummary::kMaxReportBytes + 1, ' '));
        const QByteArray whole =
            QJsonDocument(machineReportJson(labMachine(QStringLiteral("torn")))).toJson();
        writeFile(dir.filePath(QStringLiteral("torn.json")), whole.left(whole.size() / 2));
        writeFile(dir.filePath(QStringLiteral("deep.json")), QByteArray(100000, '['));
        writeFile(dir.filePath(QStringLiteral("array.json")), "[1, 2]");
        writeFile(dir.filePath(QStringLiteral("foreign.json")),
                  R"({"schema": "cudnn-setup/report/1", "machine": "x"})");
        writeFile(dir.filePath(QStringLiteral("nameless.json")),
                  R"({"schema": "cudnn-setup/machine-report/1", "machine": 7, "items": {}})");
        writeFile(
            dir.filePath(QStringLiteral("items-wrong.json")),
            R"({"schema": "cudnn-setup/machine-report/1", "machine": "lab-07", "items": {"driver": 5, "verify": {"value": []}}})");
        // Being written, and not a report at all (a folder neither): not looked at.
        writeFile(dir.filePath(QStringLiteral(".lab-09.json.0123456789abcdef.partial")), whole.left(10));
        writeFile(dir.filePath(QStringLiteral("desktop.ini")), "[.ShellClassInfo]");
        QVERIFY(dir.mkdir(QStringLiteral("folder.json")));
#ifndef Q_OS_WIN
        QVERIFY(
            QFile::link(write(labMachine(QStringLiteral("elsewhere")), share.path() + QStringLiteral("/sub")),
                        dir.filePath(QStringLiteral("link.json"))));
        QCOMPARE(::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("pipe.json"))).constData(), 0600), 0);
#endif

        const FleetSummary summary = summarizeFleet(share.path(), kNow, 7);
        QCOMPARE(summary.reports, 3); // lab-01, the evil one, lab-07 with values nobody could read
        QStringList expected{QStringLiteral("array.json"),    QStringLiteral("deep.json"),
                             QStringLiteral("foreign.json"),  QStringLiteral("huge.json"),
                             QStringLiteral("nameless.json"), QStringLiteral("torn.json")};
#ifndef Q_OS_WIN
        expected << QStringLiteral("link.json") << QStringLiteral("pipe.json");
#endif
        QStringList unreadable;
        for (const FleetUnreadable &file : summary.unreadable)
            unreadable << file.file;
        unreadable.sort();
        expected.sort();
        QCOMPARE(unreadable, expected);
        for (const FleetUnreadable &file : summary.unreadable) {
            const bool notAFile = file.file == QLatin1String("folder.json") ||
                                  file.file == QLatin1String("link.json") ||
                                  file.file == QLatin1String("pipe.json");
            if (notAFile)
                QCOMPARE(int(file.problem), int(FleetUnreadable::Problem::NotAFile));
            if (file.file == QLatin1String("huge.json"))
                QCOMPARE(int(file.problem), int(FleetUnreadable::Problem::TooLarge));
            if (file.file == QLatin1String("torn.json") || file.file == QLatin1String("deep.json") ||
                file.file == QLatin1String("array.json"))
                QCOMPARE(int(file.problem), int(FleetUnreadable::Problem::InvalidJson));
            if (file.file == QLatin1String("foreign.json") || file.file == QLatin1String("nameless.json"))
                QCOMPARE(int(file.problem), int(FleetUnreadable::Problem::Foreign));
        }

        const FleetItem &driver = itemOf(summary, QStringLiteral("driver"));
        QCOMPARE(driver.outliers.size(), 2);
        for (const FleetOutlier &outlier : driver.outliers) {
            QVERIFY2(outlier.value.size() <= 301, qPrintable(QString::number(outlier.value.size())));
            QVERIFY(!outlier.machine.contains(QChar(0x1b)));
            QVERIFY(!outlier.machine.contains(QChar(0x202e)));
        }
        QVERIFY(outlierMachines(driver).contains(QStringLiteral("lab-07")));

        const QString html = fleetSummaryHtml(summary);
        QVERIFY(!html.contains(QStringLiteral("<script")));
        QVERIFY(!html.contains(QStringLiteral("<img")));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")));
        QVERIFY(html.contains(QStringLiteral("&lt;img src=x onerror=alert(1)&gt;")));
        // Nothing is fetched: no link to anything outside the page.
        QVERIFY(!html.contains(QStringLiteral("src=\"")));
        QVERIFY(!html.contains(QStringLiteral("href=")));
        QVERIFY(!fleetSummaryText(summary).contains(QChar(0x1b)));
    }

    void emptyShare()
    {
        QTemporaryDir share;
        const FleetSummary summary = summarizeFleet(share.path(), kNow, 7);
        QCOMPARE(summary.reports, 0);
        QVERIFY(summary.items.isEmpty());
        QVERIFY(fleetSummaryText(summary).contains(QStringLiteral("No machine reports")));
    }

    // The page and the text in Chinese when Chinese is chosen.
    void chinese()
    {
        QTemporaryDir share;
        write(labMachine(QStringLiteral("lab-01")), share.path());
        MachineReportInput cpuTorch = labMachine(QStringLiteral("lab-02"));
        cpuTorch.snapshot.pythons.first().torch->version = QStringLiteral("2.9.1+cpu");
        write(cpuTorch, share.path());
        write(labMachine(QStringLiteral("lab-03")), share.path());
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        const FleetSummary summary = summarizeFleet(share.path(), kNow, 7);
        const QString html = fleetSummaryHtml(summary);
        QVERIFY(html.contains(QStringLiteral("<html lang=\"zh-CN\">")));
        QVERIFY2(html.contains(QStringLiteral("<h1>实验室各台电脑的 cuDNN</h1>")), qPrintable(html));
        const QString text = fleetSummaryText(summary);
        QVERIFY2(text.contains(QStringLiteral("lab-02: 纯 CPU")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("PyTorch 构建版本：cu126（3 台电脑中的 2 台）")),
                 qPrintable(text));
        QVERIFY(Translations::install(QStringLiteral("en")));
        QVERIFY(fleetSummaryHtml(summary).contains(QStringLiteral("<html lang=\"en\">")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestFleetSummary)
#include "tst_fleetsummary.moc"
