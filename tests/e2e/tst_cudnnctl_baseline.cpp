// Issue 34: a lab's baseline and each workstation's drift from it, as lab IT's tools run them, on
// sandbox Windows trees: `cudnnctl baseline export` from a machine installed unattended and from an
// answer file, read back strictly; `status --against` on drifted copies of that machine (driver
// too old, another cuDNN first on PATH, the PATH entry gone, a DLL replaced, the cuDNN gone, torch
// CPU-only), each with its exit code (0 compliant, 1 drifted, 2 broken, 3 unknown) and item; the
// Intune and ConfigMgr forms; and the repair file applied by `cudnn-setup --unattended` bringing
// the machine back to exit 0.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "LabMachine.h"
#include "PeImage.h"
#include "Suite.h"
#include "TarWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#ifndef Q_OS_WIN
#include <unistd.h>
#endif

namespace {

const QString kVersion = QStringLiteral("9.1.0.70");
const QString kDllFolder = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
const QString kSystemPath = QStringLiteral("C:\\Windows\\System32;C:\\Python312");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

// The driver's nvcuda.dll of an offline image, whose file version names the driver
// (32.0.15.6094 is 560.94).
void driverOfVersion(const Sandbox &sandbox, quint16 build)
{
    peimage::ImageSpec nvcuda;
    nvcuda.fileVersion = {32, 0, 15, build};
    sandbox.write(QStringLiteral("C:\\Windows\\System32\\nvcuda.dll"), peimage::buildImage(nvcuda).bytes);
}

// The items of a `status --against --json` answer that differ, by id.
QJsonObject differences(const QJsonObject &report)
{
    QJsonObject byId;
    for (const QJsonValue &entry : report.value(QStringLiteral("differences")).toArray())
        byId.insert(entry.toObject().value(QStringLiteral("id")).toString(), entry);
    return byId;
}

} // namespace

class TestCudnnctlBaseline : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work; // archives, baselines, answer and repair files: outside every sandbox
    archives::StandIn m_standIn;

    QString file(const QString &name) const { return m_work.filePath(name); }

    // A lab machine as lab IT sets one up: driver 560.94, cuDNN installed unattended into its own
    // folder and verified (the GPU stages skipped in a sandbox).
    std::unique_ptr<LabMachine> goldenMachine() const
    {
        auto machine = std::make_unique<LabMachine>(m_standIn.database);
        driverOfVersion(machine->sandbox, 6094);
        machine->environment.insert(QStringLiteral("PATH"), kSystemPath);
        const CudnnctlRun installed = unattended(
            *machine, {QStringLiteral("--archive"), m_standIn.archive, QStringLiteral("--target"),
                       LabMachine::cudnnTarget(), QStringLiteral("--path"), QStringLiteral("none")});
        if (installed.exitCode != 0)
            qWarning() << installed.out << installed.err;
        return machine;
    }
    CudnnctlRun unattended(const LabMachine &machine, const QStringList &arguments) const
    {
        return machine.run(QStringList{QStringLiteral("--unattended"), QStringLiteral("--log"),
                                       file(QStringLiteral("unattended.log"))} +
                               arguments,
                           BuildPaths::cudnnSetup());
    }
    static CudnnctlRun against(const LabMachine &machine, const QString &baseline,
                               const QStringList &more = {})
    {
        return machine.run(QStringList{QStringLiteral("status"), QStringLiteral("--against"), baseline} +
                           more);
    }
    // The baseline of the golden machine, written to `name`.
    QString exportBaseline(const LabMachine &machine, const QString &name) const
    {
        const QString out = file(name);
        const CudnnctlRun exported =
            machine.run({QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--out"), out});
        if (exported.exitCode != 0)
            qWarning() << exported.out << exported.err;
        return out;
    }
    // A baseline from an answer file that puts the DLL folder first on the PATH of `scope`.
    QString pathBaseline(const LabMachine &machine, const QString &scope) const
    {
        const QString answers = file(QStringLiteral("path-setup.ini"));
        writeAll(answers, QStringLiteral("[setup]\r\narchive=%1\r\ntarget=%2\r\npath=%3\r\nverify=false\r\n")
                              .arg(m_standIn.archive, LabMachine::cudnnTarget(), scope)
                              .toUtf8());
        const QString out = file(QStringLiteral("path-baseline.json"));
        const CudnnctlRun exported =
            machine.run({QStringLiteral("baseline"), QStringLiteral("export"),
                         QStringLiteral("--from-answer"), answers, QStringLiteral("--out"), out});
        if (exported.exitCode != 0)
            qWarning() << exported.out << exported.err;
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        m_standIn = archives::writeStandIn(m_work.path(), kVersion, QStringLiteral("12"));
    }

    void exportFromMachineAndComply()
    {
        const auto machine = goldenMachine();
        const QString baseline = exportBaseline(*machine, QStringLiteral("lab.json"));
        const QJsonObject written = QJsonDocument::fromJson(readAll(baseline)).object();
        QCOMPARE(written.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/baseline/1"));
        QCOMPARE(written.value(QStringLiteral("madeFrom")).toString(), QStringLiteral("machine"));
        QCOMPARE(
            written.value(QStringLiteral("driver")).toObject().value(QStringLiteral("minimum")).toString(),
            QStringLiteral("560.94"));
        const QJsonObject cudnn = written.value(QStringLiteral("cudnn")).toObject();
        QCOMPARE(cudnn.value(QStringLiteral("version")).toString(), kVersion);
        QCOMPARE(cudnn.value(QStringLiteral("cudaMajor")).toInt(), 12);
        QCOMPARE(
            QDir::cleanPath(QDir::fromNativeSeparators(cudnn.value(QStringLiteral("archive")).toString())),
            QDir::cleanPath(m_standIn.archive));
        QCOMPARE(written.value(QStringLiteral("target")).toObject().value(QStringLiteral("root")).toString(),
                 LabMachine::cudnnFolder());
        QCOMPARE(written.value(QStringLiteral("path")).toObject().value(QStringLiteral("scope")).toString(),
                 QStringLiteral("none"));

        const CudnnctlRun text = against(*machine, baseline);
        QVERIFY2(text.exitCode == 0, text.out + text.err);
        QVERIFY2(text.out.startsWith("Compliant with the baseline"), text.out);
        const QJsonObject json = outputJson(against(*machine, baseline, {QStringLiteral("--json")}));
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/drift/1"));
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("compliant"));
        QVERIFY(json.value(QStringLiteral("differences")).toArray().isEmpty());
        QVERIFY(json.value(QStringLiteral("checked")).toArray().contains(QStringLiteral("driver")));

        // Intune: one line of flat JSON, exit 0 whatever the verdict.
        const CudnnctlRun intune =
            against(*machine, baseline, {QStringLiteral("--format"), QStringLiteral("intune")});
        QCOMPARE(intune.exitCode, 0);
        QCOMPARE(intune.out.trimmed().count('\n'), 0);
        const QJsonObject flat = QJsonDocument::fromJson(intune.out).object();
        QCOMPARE(flat.value(QStringLiteral("cudnnCompliant")), QJsonValue(true));
        QCOMPARE(flat.value(QStringLiteral("cudnnComplianceState")).toInt(), 0);
        QCOMPARE(flat.value(QStringLiteral("cudnnVersion")).toString(), kVersion);
        QCOMPARE(flat.value(QStringLiteral("cudnnCudaMajor")).toInt(), 12);
        QCOMPARE(flat.value(QStringLiteral("driverVersion")).toString(), QStringLiteral("560.94"));
        for (auto value = flat.constBegin(); value != flat.constEnd(); ++value)
            QVERIFY2(!value->isObject() && !value->isArray(), qPrintable(value.key()));

        // ConfigMgr: detected is exit 0 with a line on stdout.
        const CudnnctlRun sccm =
            against(*machine, baseline, {QStringLiteral("--format"), QStringLiteral("sccm")});
        QCOMPARE(sccm.exitCode, 0);
        QVERIFY(!sccm.out.trimmed().isEmpty());

        // Compliant: nothing to repair; a repair file an earlier run left is removed.
        const QString repair = file(QStringLiteral("nothing-to-repair.ini"));
        QVERIFY(writeAll(repair, "[setup]\r\naction=install\r\n"));
        QCOMPARE(against(*machine, baseline, {QStringLiteral("--repair-file"), repair}).exitCode, 0);
        QVERIFY(!QFileInfo::exists(repair));

        // The rules file lab IT uploads to Intune names settings the discovery output has, of its types.
        const QJsonObject rules =
            QJsonDocument::fromJson(readAll(BuildPaths::sourceDir() +
                                            QStringLiteral("/deploy/intune/cudnn-compliance-rules.json")))
                .object();
        const QJsonArray ruleList = rules.value(QStringLiteral("Rules")).toArray();
        QVERIFY(!ruleList.isEmpty());
        for (const QJsonValue &rule : ruleList) {
            const QString setting = rule.toObject().value(QStringLiteral("SettingName")).toString();
            QVERIFY2(flat.contains(setting), qPrintable(setting));
            const QString type = rule.toObject().value(QStringLiteral("DataType")).toString();
            QVERIFY2(type == QLatin1String("Boolean") ? flat.value(setting).isBool()
                                                      : flat.value(setting).isDouble(),
                     qPrintable(setting));
        }
    }

    // Each drift gives its exit code and its item; a repairable one also its repair file.
    void drifts_data()
    {
        QTest::addColumn<QString>("drift");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("actual"); // empty: null
        QTest::addColumn<QString>("repairAction");
        QTest::newRow("driver too old") << "driver" << 2 << "driver"
                                        << "556.12"
                                        << "";
        QTest::newRow("a DLL replaced")
            << "dll" << 1 << "cudnn.files"
            << QStringLiteral("changed: ") + kDllFolder + QStringLiteral("\\cudnn64_9.dll") << "install";
        QTest::newRow("cuDNN gone") << "uninstalled" << 1 << "cudnn.version"
                                    << ""
                                    << "install";
        QTest::newRow("another CUDA variant") << "variant" << 1 << "cudnn.version"
                                              << "9.1.0.70 for CUDA 12"
                                              << "install";
        QTest::newRow("torch CPU-only") << "torch" << 2 << "consumer.torch"
                                        << "2.5.1+cpu (CPU-only)"
                                        << "";
    }
    void drifts()
    {
        QFETCH(QString, drift);
        QFETCH(int, exitCode);
        QFETCH(QString, item);
        QFETCH(QString, actual);
        QFETCH(QString, repairAction);
        const auto machine = goldenMachine();
        QString baseline = exportBaseline(*machine, QStringLiteral("lab-%1.json").arg(drift));
        if (drift == QLatin1String("driver")) {
            driverOfVersion(machine->sandbox, 5612);
        } else if (drift == QLatin1String("dll")) {
            // Another release's library in its place.
            QVERIFY(writeAll(machine->sandbox.hostPath(kDllFolder + QStringLiteral("\\cudnn64_9.dll")),
                             peimage::x64Dll() + "9.2.1"));
        } else if (drift == QLatin1String("uninstalled")) {
            QCOMPARE(machine->run({QStringLiteral("uninstall")}).exitCode, 0);
        } else if (drift == QLatin1String("variant")) {
            // The room wants the CUDA 11 build of the same release.
            QJsonObject edited = QJsonDocument::fromJson(readAll(baseline)).object();
            QJsonObject cudnn = edited.value(QStringLiteral("cudnn")).toObject();
            cudnn.insert(QStringLiteral("cudaMajor"), 11);
            edited.insert(QStringLiteral("cudnn"), cudnn);
            QVERIFY(writeAll(baseline, QJsonDocument(edited).toJson()));
        } else if (drift == QLatin1String("torch")) {
            // The lab's programs: torch with cuDNN 9, as the room's baseline names it.
            QJsonObject edited = QJsonDocument::fromJson(readAll(baseline)).object();
            edited.insert(QStringLiteral("consumers"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("torch")},
                                                 {QStringLiteral("cudnnMajors"), QJsonArray{9}}}});
            QVERIFY(writeAll(baseline, QJsonDocument(edited).toJson()));
            QCOMPARE(against(*machine, baseline).exitCode, 2); // no torch at all
            trees::pythonStandin(machine->sandbox, QStringLiteral("C:\\Python312\\python.exe"),
                                 QStringLiteral("3.12.8"), "null");
            trees::torchFiles(machine->sandbox, QStringLiteral("C:\\Python312\\Lib\\site-packages"),
                              QStringLiteral("2.5.1+cpu"), QString());
        }

        const QString repair = file(QStringLiteral("repair-%1.ini").arg(drift));
        const CudnnctlRun judged =
            against(*machine, baseline, {QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(judged.exitCode == exitCode, judged.out + judged.err);
        const QJsonObject report = outputJson(judged);
        QCOMPARE(report.value(QStringLiteral("exitCode")).toInt(), exitCode);
        const QJsonObject differing = differences(report);
        QVERIFY2(differing.contains(item), judged.out);
        const QJsonObject entry = differing.value(item).toObject();
        QCOMPARE(entry.value(QStringLiteral("actual")).toString(), actual);
        QCOMPARE(entry.value(QStringLiteral("repairable")).toBool(), !repairAction.isEmpty());
        QVERIFY(!entry.value(QStringLiteral("fix")).toString().isEmpty());
        QCOMPARE(QFileInfo::exists(repair), !repairAction.isEmpty());

        // The text names the item and its fix; ConfigMgr sees "not installed".
        const CudnnctlRun text = against(*machine, baseline);
        QCOMPARE(text.exitCode, exitCode);
        QVERIFY2(text.out.contains(item.toUtf8()) && text.out.contains("Fix: "), text.out);
        const CudnnctlRun sccm =
            against(*machine, baseline, {QStringLiteral("--format"), QStringLiteral("sccm")});
        QCOMPARE(sccm.exitCode, 0);
        QVERIFY2(sccm.out.isEmpty(), sccm.out);
        QVERIFY2(sccm.err.isEmpty(), sccm.err); // ConfigMgr takes anything on stderr as "unknown"
        const QJsonObject flat =
            QJsonDocument::fromJson(
                against(*machine, baseline, {QStringLiteral("--format"), QStringLiteral("intune")}).out)
                .object();
        QCOMPARE(flat.value(QStringLiteral("cudnnCompliant")), QJsonValue(false));
        QCOMPARE(flat.value(QStringLiteral("cudnnComplianceState")).toInt(), exitCode);
        QVERIFY(flat.value(QStringLiteral("cudnnDifferences")).toString().contains(item));

        // The stand-in archive of the variant row is the CUDA 12 one: no repair applies it.
        if (repairAction.isEmpty() || drift == QLatin1String("variant"))
            return;
        const QString answers = QString::fromUtf8(readAll(repair));
        QVERIFY2(answers.contains(QStringLiteral("action=") + repairAction), qPrintable(answers));
        // The repair file, applied as lab IT's tools apply it, brings the machine back.
        const CudnnctlRun repaired = unattended(*machine, {QStringLiteral("--answer-file"), repair});
        QVERIFY2(repaired.exitCode == 0,
                 repaired.out + repaired.err + readAll(file(QStringLiteral("unattended.log"))));
        const CudnnctlRun after = against(*machine, baseline);
        QVERIFY2(after.exitCode == 0, after.out + after.err);
    }

    // A baseline that puts the DLL folder first on PATH: another cuDNN before it, and the folder
    // gone from the system or the user PATH, are drifts the repair file brings back: action=repair
    // with the baseline's target and PATH scope, so that whoever applies it (SYSTEM, under Intune)
    // puts the folder back on that PATH, first, rather than on its own user PATH. A sandbox has no
    // registry to apply it to: tests/windows/tst_win_drift.cpp applies it under Wine.
    void pathDrifts_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("item"); // empty: compliant
        QTest::addColumn<QString>("actual");
        const QString first = kSystemPath + QLatin1Char(';') + kDllFolder;
        const QString shadowed = kSystemPath + QStringLiteral(";C:\\Tools\\cudnn\\bin;") + kDllFolder;
        QTest::newRow("first") << "system" << first << 0 << ""
                               << "";
        QTest::newRow("system entry removed") << "system" << kSystemPath << 1 << "path.entry"
                                              << "";
        QTest::newRow("user entry removed") << "user" << kSystemPath << 1 << "path.entry"
                                            << "";
        QTest::newRow("another cuDNN first") << "system" << shadowed << 1 << "path.order"
                                             << "C:\\Tools\\cudnn\\bin";
    }
    void pathDrifts()
    {
        QFETCH(QString, scope);
        QFETCH(QString, path);
        QFETCH(int, exitCode);
        QFETCH(QString, item);
        QFETCH(QString, actual);
        const auto machine = goldenMachine();
        const QString baseline = pathBaseline(*machine, scope);
        const QJsonObject written = QJsonDocument::fromJson(readAll(baseline)).object();
        QCOMPARE(written.value(QStringLiteral("madeFrom")).toString(), QStringLiteral("answer-file"));
        QCOMPARE(written.value(QStringLiteral("path")).toObject(),
                 (QJsonObject{{QStringLiteral("scope"), scope},
                              {QStringLiteral("position"), QStringLiteral("first")}}));
        trees::windowsCudnn(machine->sandbox, QStringLiteral("C:\\Tools\\cudnn\\bin"),
                            QStringLiteral("C:\\Tools\\cudnn\\include"), 9, 0, 0);
        machine->environment.insert(QStringLiteral("PATH"), path);

        const QString repair = file(QStringLiteral("repair-path.ini"));
        QFile::remove(repair);
        const CudnnctlRun judged =
            against(*machine, baseline, {QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(judged.exitCode == exitCode, judged.out + judged.err);
        const QJsonObject differing = differences(outputJson(judged));
        if (item.isEmpty()) {
            QVERIFY2(differing.isEmpty(), judged.out);
            return;
        }
        QVERIFY2(differing.contains(item), judged.out);
        const QJsonObject entry = differing.value(item).toObject();
        QCOMPARE(entry.value(QStringLiteral("actual")).toString(), actual);
        QVERIFY(!entry.value(QStringLiteral("fix")).toString().isEmpty());
        QCOMPARE(entry.value(QStringLiteral("repairable")), QJsonValue(true));
        QVERIFY(QFileInfo::exists(repair));
        const QString answers = QString::fromUtf8(readAll(repair));
        QVERIFY2(answers.contains(QStringLiteral("action=repair")) &&
                     answers.contains(QStringLiteral("target=") + LabMachine::cudnnTarget()) &&
                     answers.contains(QStringLiteral("path=") + scope),
                 qPrintable(answers));
    }

    // Bad baselines are refused with a translated reason and exit 3 (unknown), never judged.
    void badBaselines_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("named"); // in the message
        QTest::newRow("not JSON") << QByteArray("<xml/>") << "cannot be read";
        QTest::newRow("another schema") << QByteArray("{\"schema\": \"cudnn-setup/baseline/2\"}") << "schema";
        QTest::newRow("a misspelt key")
            << QByteArray("{\"schema\": \"cudnn-setup/baseline/1\", \"cudnnn\": {}}") << "cudnnn";
    }
    void badBaselines()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, named);
        LabMachine machine(m_standIn.database);
        const QString baseline = file(QStringLiteral("bad.json"));
        QVERIFY(writeAll(baseline, content));
        const CudnnctlRun judged = against(machine, baseline);
        QCOMPARE(judged.exitCode, 3);
        QVERIFY(judged.out.isEmpty());
        QVERIFY2(QString::fromUtf8(judged.err).contains(named), judged.err);
        // The same file, and a field broken in an exported one, in Chinese.
        const CudnnctlRun chinese = runCudnnctl(
            {QStringLiteral("status"), QStringLiteral("--against"), baseline, QStringLiteral("--system-root"),
             machine.sandbox.root(), QStringLiteral("--lang"), QStringLiteral("zh_CN")},
            machine.environment);
        QCOMPARE(chinese.exitCode, 3);
        QVERIFY2(QString::fromUtf8(chinese.err).contains(QStringLiteral("基线")), chinese.err);
        // A command line status --against cannot use is unknown too, not "broken".
        QCOMPARE(against(machine, baseline, {QStringLiteral("--format"), QStringLiteral("xml")}).exitCode, 3);
        QCOMPARE(against(machine, baseline, {QStringLiteral("--cudnn"), QStringLiteral("9")}).exitCode, 3);
        // Another command given --against keeps the usage error of every command.
        QCOMPARE(machine.run({QStringLiteral("detect"), QStringLiteral("--against"), baseline}).exitCode, 2);
    }

    // A Linux workstation whose cuDNN the loader finds through /etc/ld.so.conf.d, first. Another
    // cuDNN first through LD_LIBRARY_PATH is broken: a session's variable (set in shell profiles)
    // is nothing an answer file changes. The loader's file gone is the PATH entry gone there, and a
    // file of the install changed: the repair reinstalls with the system scope, which writes the
    // file again, and applied unattended brings the machine back to compliant.
    void linuxLoaderDrifts()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "a Linux tree's loader configuration");
#ifndef Q_OS_WIN
        if (::geteuid() != 0)
            QSKIP("the loader is only given folders root alone can change: the sandbox's must be root's");
#endif
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/etc/ld.so.conf.d"));
        sandbox.write(QStringLiteral("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        sandbox.mkdir(QStringLiteral("/var/lib"));
        sandbox.mkdir(QStringLiteral("/opt"));
        trees::linuxCudnn(sandbox, QStringLiteral("/opt/other-cudnn/lib"),
                          QStringLiteral("/opt/other-cudnn/include"), 9, 0, 0);
        const QString archive = file(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"));
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
        QVERIFY(writeAll(archive, archives::linuxTarXz(QStringLiteral("9.19.0.56"), QStringLiteral("13"))));
#else
        QSKIP("NVIDIA's Linux tar.xz is made with libarchive, which this build has not");
#endif
        // The test-made tar stands in for NVIDIA's file of that name, for the unattended repair.
        const QString database =
            archives::writeDatabaseKnowing(file(QStringLiteral("linux-compat.json")), {archive});
        QProcessEnvironment environment = sandboxEnvironment();
        const auto run = [&sandbox, &database, &environment](
                             QStringList arguments, const QString &program = BuildPaths::cudnnctl()) {
            arguments << QStringLiteral("--system-root") << sandbox.root() << QStringLiteral("--lang")
                      << QStringLiteral("en") << QStringLiteral("--compat-db") << database;
            return runCudnnctl(arguments, environment, program);
        };
        const CudnnctlRun installed =
            run({QStringLiteral("install"), QStringLiteral("--archive"), archive, QStringLiteral("--target"),
                 QStringLiteral("dir:/opt/cudnn"), QStringLiteral("--path"), QStringLiteral("system"),
                 QStringLiteral("--json")});
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QString baseline = file(QStringLiteral("linux-lab.json"));
        QCOMPARE(
            run({QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--out"), baseline})
                .exitCode,
            0);
        const QJsonObject written = QJsonDocument::fromJson(readAll(baseline)).object();
        const QJsonObject target = written.value(QStringLiteral("target")).toObject();
        QCOMPARE(target.value(QStringLiteral("pathScope")).toString(), QStringLiteral("system"));
        QCOMPARE(
            written.value(QStringLiteral("path")).toObject().value(QStringLiteral("position")).toString(),
            QStringLiteral("first"));
        const QString loaderFile = target.value(QStringLiteral("ldSoConfFile")).toString();
        QVERIFY2(loaderFile.startsWith(QStringLiteral("/etc/ld.so.conf.d/")), qPrintable(loaderFile));
        const QStringList against{QStringLiteral("status"), QStringLiteral("--against"), baseline};
        const CudnnctlRun compliant = run(against);
        QVERIFY2(compliant.exitCode == 0, compliant.out + compliant.err);

        const QString repair = file(QStringLiteral("linux-repair.ini"));
        environment.insert(QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral("/opt/other-cudnn/lib"));
        const CudnnctlRun shadowed =
            run(against + QStringList{QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(shadowed.exitCode == 2, shadowed.out + shadowed.err);
        const QJsonObject order =
            differences(outputJson(shadowed)).value(QStringLiteral("path.order")).toObject();
        QCOMPARE(order.value(QStringLiteral("actual")).toString(), QStringLiteral("/opt/other-cudnn/lib"));
        QCOMPARE(order.value(QStringLiteral("state")).toString(), QStringLiteral("broken"));
        QVERIFY2(order.value(QStringLiteral("fix")).toString().contains(QStringLiteral("LD_LIBRARY_PATH")),
                 shadowed.out);
        QVERIFY(!QFileInfo::exists(repair));
        environment.remove(QStringLiteral("LD_LIBRARY_PATH"));

        QVERIFY(QFile::remove(sandbox.hostPath(loaderFile)));
        const CudnnctlRun judged =
            run(against + QStringList{QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(judged.exitCode == 1, judged.out + judged.err);
        const QJsonObject differing = differences(outputJson(judged));
        QVERIFY2(differing.contains(QStringLiteral("path.entry")), judged.out);
        QCOMPARE(differing.value(QStringLiteral("cudnn.files"))
                     .toObject()
                     .value(QStringLiteral("actual"))
                     .toString(),
                 QStringLiteral("changed: ") + loaderFile);
        const QString answers = QString::fromUtf8(readAll(repair));
        QVERIFY2(answers.contains(QStringLiteral("action=install")) &&
                     answers.contains(QStringLiteral("path=system")) &&
                     answers.contains(QStringLiteral("target=dir:/opt/cudnn")),
                 qPrintable(answers));
        const CudnnctlRun repaired =
            run({QStringLiteral("--unattended"), QStringLiteral("--answer-file"), repair,
                 QStringLiteral("--log"), file(QStringLiteral("linux-repair.log"))},
                BuildPaths::cudnnSetup());
        QVERIFY2(repaired.exitCode == 0,
                 repaired.out + repaired.err + readAll(file(QStringLiteral("linux-repair.log"))));
        QVERIFY(QFileInfo::exists(sandbox.hostPath(loaderFile)));
        const CudnnctlRun after = run(against);
        QVERIFY2(after.exitCode == 0, after.out + after.err);
    }

    // A repair file that puts a target's DLL folder back on PATH, applied with `cudnnctl apply`
    // where cuDNN Setup installed nothing there: refused before any change (1603), in the
    // language of the run; a path= it cannot read is bad input (87).
    void repairFileRefusals_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("finding");
        QTest::addColumn<QString>("words");
        QTest::newRow("no install there") << "system"
                                          << "en" << 1603 << "unattended.path-without-install"
                                          << "no intact install there";
        QTest::newRow("no install there, in Chinese") << "user"
                                                      << "zh_CN" << 1603 << "unattended.path-without-install"
                                                      << "没有完好的安装";
        QTest::newRow("a scope it cannot read") << "machine"
                                                << "en" << 87 << "unattended.answer-file"
                                                << "path= in the answer file";
    }
    void repairFileRefusals()
    {
        QFETCH(QString, path);
        QFETCH(QString, language);
        QFETCH(int, exitCode);
        QFETCH(QString, finding);
        QFETCH(QString, words);
        LabMachine machine(m_standIn.database);
        const QString repair = file(QStringLiteral("refused-repair.ini"));
        QVERIFY(writeAll(repair, QStringLiteral("[setup]\r\naction=repair\r\ntarget=%1\r\npath=%2\r\n")
                                     .arg(LabMachine::cudnnTarget(), path)
                                     .toUtf8()));
        const QString log = file(QStringLiteral("refused-repair.log"));
        const TreeSnapshot before = machine.tree();
        const CudnnctlRun applied = runCudnnctl({QStringLiteral("apply"), repair, QStringLiteral("--log"),
                                                 log, QStringLiteral("--system-root"), machine.sandbox.root(),
                                                 QStringLiteral("--lang"), language},
                                                machine.environment);
        QCOMPARE(applied.exitCode, LabMachine::exitCode(exitCode));
        const QJsonObject result =
            QJsonDocument::fromJson(readAll(file(QStringLiteral("refused-repair.json")))).object();
        QCOMPARE(result.value(QStringLiteral("exitCode")).toInt(), exitCode);
        QVERIFY2(findingIds(result).contains(finding), readAll(log));
        const QJsonArray findings = result.value(QStringLiteral("findings")).toArray();
        QVERIFY2(std::any_of(
                     findings.cbegin(), findings.cend(),
                     [&](const QJsonValue &entry) {
                         return entry.toObject().value(QStringLiteral("message")).toString().contains(words);
                     }),
                 QJsonDocument(findings).toJson());
        QVERIFY(machine.tree() == before); // nothing changed
    }

    void exportRefusals()
    {
        LabMachine machine(m_standIn.database);
        const CudnnctlRun nothing = machine.run({QStringLiteral("baseline"), QStringLiteral("export"),
                                                 QStringLiteral("--out"), file(QStringLiteral("none.json"))});
        QCOMPARE(nothing.exitCode, 1);
        QVERIFY(!QFileInfo::exists(file(QStringLiteral("none.json"))));
        QCOMPARE(machine.run({QStringLiteral("baseline"), QStringLiteral("import")}).exitCode, 2);
        QCOMPARE(machine
                     .run({QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--driver"),
                           QStringLiteral("new")})
                     .exitCode,
                 2);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlBaseline)
#include "tst_cudnnctl_baseline.moc"
