// `cudnnctl check` run as users run it: on a sandbox machine, as a pure what-if, with another
// compatibility database, and with bad input.
#include "BuildPaths.h"
#include "Cudnnctl.h"
#include "ElfImage.h"
#include "FatbinImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "common/Version.h"
#include "compat/KnowledgeBase.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace {

const QString kWhatIfDriverTooOld = QStringLiteral("522.06");

// A what-if that needs nothing from the machine: every value is given.
QStringList whatIf(const QString &driver)
{
    return {QStringLiteral("check"),    QStringLiteral("--json"),
            QStringLiteral("--lang"),   QStringLiteral("en"),

            QStringLiteral("--os"),     QStringLiteral("windows"),
            QStringLiteral("--driver"), driver,
            QStringLiteral("--cuda"),   QStringLiteral("12.2"),
            QStringLiteral("--sm"),     QStringLiteral("8.6"),
            QStringLiteral("--cudnn"),  QStringLiteral("cudnn-windows-x86-64-8.9.7.29-cuda12-archive.zip")};
}

QJsonObject findingOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &finding : report.value(QStringLiteral("findings")).toArray()) {
        if (finding.toObject().value(QStringLiteral("id")).toString() == id)
            return finding.toObject();
    }
    return {};
}

QByteArray databaseWithVersion(const QString &version)
{
    QByteArray json = Sandbox::readFixture(QStringLiteral("compat/minimal.json"));
    return json.replace("\"2099.01.01\"", "\"" + version.toUtf8() + "\"");
}

// `check --for` as a pure what-if on Linux: a driver of CUDA 12.9 and the GPU of capability `sm`.
QStringList checkFor(const QString &what, const QString &sm, const QString &root)
{
    return {QStringLiteral("check"),         QStringLiteral("--json"),
            QStringLiteral("--lang"),        QStringLiteral("en"),
            QStringLiteral("--os"),          QStringLiteral("linux"),
            QStringLiteral("--driver"),      QStringLiteral("575.57.08"),
            QStringLiteral("--sm"),          sm,
            QStringLiteral("--for"),         what,
            QStringLiteral("--system-root"), root};
}

// A speech program in /opt/whisper: its library links cuDNN 8 and cuBLAS 12 through $ORIGIN and
// carries Ampere SASS; beside it cuBLAS 12 and cuDNN 9, and cuDNN 8 only when `withCudnn8`.
void writeWhisperApp(const Sandbox &sandbox, bool withCudnn8)
{
    fatbinimage::Entry sass;
    sass.arch = 86;
    elfimage::SharedObject library;
    library.soname = QStringLiteral("libwhisper_gpu.so");
    library.needed = {QStringLiteral("libcudnn.so.8"), QStringLiteral("libcublas.so.12")};
    library.runpath = {QStringLiteral("$ORIGIN")};
    library.sections = {{".nv_fatbin", fatbinimage::container({sass})}};
    sandbox.write(QStringLiteral("/opt/whisper/libwhisper_gpu.so"), elfimage::build(library));
    QStringList beside{QStringLiteral("libcublas.so.12"), QStringLiteral("libcudnn.so.9")};
    if (withCudnn8)
        beside << QStringLiteral("libcudnn.so.8");
    for (const QString &name : beside) {
        elfimage::SharedObject copy;
        copy.soname = name;
        sandbox.write(QStringLiteral("/opt/whisper/") + name, elfimage::build(copy));
    }
}

QJsonObject firstConsumer(const QJsonObject &report)
{
    return report.value(QStringLiteral("consumers")).toArray().first().toObject();
}

} // namespace

class TestCudnnctlCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The sandbox workstation of the host's family, judged from what detection finds.
    void judgesTheDetectedMachine()
    {
        Sandbox sandbox;
        const bool windows = cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows;
        if (windows)
            trees::windowsWorkstation(sandbox);
        else
            trees::workstation(sandbox);
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--lang"),
                         QStringLiteral("en"), QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/check/1"));
        QVERIFY2(run.exitCode == 0, run.out.constData());
        QVERIFY(report.value(QStringLiteral("compatible")).toBool());
        const QJsonObject cuda = report.value(QStringLiteral("cuda")).toObject();
        QCOMPARE(cuda.value(QStringLiteral("driverMaxCuda")).toString(),
                 windows ? QStringLiteral("13.1") : QStringLiteral("13.0"));
        QCOMPARE(cuda.value(QStringLiteral("toolkit")).toString(), QStringLiteral("13.0.2"));
        QCOMPARE(cuda.value(QStringLiteral("archive")).toString(), QStringLiteral("13"));
        const QJsonObject recommendation = report.value(QStringLiteral("recommendation")).toObject();
        QCOMPARE(recommendation.value(QStringLiteral("archive")).toString(),
                 // Windows: the newest whose archive the database records with its checksum.
                 windows ? QStringLiteral("cudnn-windows-x86_64-9.25.0.15_cuda13-archive.zip")
                         : QStringLiteral("cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz"));
        QCOMPARE(recommendation.value(QStringLiteral("driverUpdateNeeded")).toBool(), false);
        // NVIDIA's checksum where the database has it; the download folder either way.
        const QString archive = recommendation.value(QStringLiteral("archive")).toString();
        const cudnnsetup::KnownArchive *known = cudnnsetup::KnowledgeBase::embedded().archiveByFile(archive);
        QCOMPARE(recommendation.value(QStringLiteral("sha256")).toString(),
                 known ? known->sha256 : QString());
        QCOMPARE(
            recommendation.value(QStringLiteral("url")).toString(),
            QStringLiteral("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/%1/%2")
                .arg(windows ? QStringLiteral("windows-x86_64") : QStringLiteral("linux-x86_64"), archive));
        const QJsonObject target = recommendation.value(QStringLiteral("targetToolkit")).toObject();
        QCOMPARE(target.value(QStringLiteral("version")).toString(), QStringLiteral("13.0.2"));
        QVERIFY(target.value(QStringLiteral("path")).toString().contains(QStringLiteral("13.0")));
        const QStringList ids = findingIds(report);
        if (windows) {
            // Table 3 prints no Windows minimum for CUDA 13, and the Python has a CPU-only torch.
            QVERIFY2(ids.contains(QStringLiteral("match.driver-minimum-unknown")),
                     qPrintable(ids.join(QLatin1Char(','))));
            QVERIFY(ids.contains(QStringLiteral("match.torch-cpu-only")));
        } else {
            QVERIFY2(!ids.contains(QStringLiteral("match.driver-minimum-unknown")),
                     qPrintable(ids.join(QLatin1Char(','))));
        }
        const QJsonObject database = report.value(QStringLiteral("database")).toObject();
        QCOMPARE(database.value(QStringLiteral("origin")).toString(), QStringLiteral("embedded"));
        QVERIFY(!database.value(QStringLiteral("version")).toString().isEmpty());
    }

    void whatIfTooOldIsExitOne()
    {
        Sandbox sandbox;
        QStringList arguments = whatIf(kWhatIfDriverTooOld);
        arguments << QStringLiteral("--system-root") << sandbox.root();
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("compatible")).toBool(true), false);
        const QJsonObject finding = findingOf(report, QStringLiteral("match.driver-too-old-for-toolkit"));
        QCOMPARE(finding.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
        QCOMPARE(finding.value(QStringLiteral("fix")).toString(),
                 QStringLiteral("Update the driver to 536.25 or newer."));
        const QJsonObject inputs = report.value(QStringLiteral("inputs")).toObject();
        QCOMPARE(inputs.value(QStringLiteral("os")).toString(), QStringLiteral("windows"));
        QCOMPARE(inputs.value(QStringLiteral("driver")).toString(), kWhatIfDriverTooOld);
        QCOMPARE(inputs.value(QStringLiteral("cudnn")).toObject().value(QStringLiteral("version")).toString(),
                 QStringLiteral("8.9.7.29"));
        QCOMPARE(
            report.value(QStringLiteral("cuda")).toObject().value(QStringLiteral("driverMaxCuda")).toString(),
            QStringLiteral("11.8"));
        QVERIFY(report.value(QStringLiteral("recommendation"))
                    .toObject()
                    .value(QStringLiteral("driverUpdateNeeded"))
                    .toBool());
    }

    void whatIfFittingIsExitZero()
    {
        Sandbox sandbox;
        QStringList arguments = whatIf(QStringLiteral("537.13"));
        arguments << QStringLiteral("--system-root") << sandbox.root();
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        QVERIFY(outputJson(run).value(QStringLiteral("compatible")).toBool());
    }

    // Students' GPUs by the name the driver reports (compat-audit.md): each is known, and a
    // GPU before Turing is offered the last cuDNN with code for it (9.10.2), not a newer one.
    void whatIfByGpuName_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("computeCapability");
        QTest::addColumn<bool>("lastForPreTuring");
        QTest::newRow("GTX 1080") << "NVIDIA GeForce GTX 1080"
                                  << "6.1" << true;
        QTest::newRow("GTX 960M") << "NVIDIA GeForce GTX 960M"
                                  << "5.0" << true;
        QTest::newRow("GTX 1660 Ti") << "NVIDIA GeForce GTX 1660 Ti"
                                     << "7.5" << false;
        QTest::newRow("MX450") << "NVIDIA GeForce MX450"
                               << "7.5" << false;
        QTest::newRow("RTX 2050") << "NVIDIA GeForce RTX 2050"
                                  << "8.6" << false;
        QTest::newRow("TITAN RTX") << "NVIDIA TITAN RTX"
                                   << "7.5" << false;
    }
    void whatIfByGpuName()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, computeCapability);
        QFETCH(bool, lastForPreTuring);
        Sandbox sandbox;
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--lang"),
                         QStringLiteral("en"), QStringLiteral("--os"), QStringLiteral("windows"),
                         QStringLiteral("--driver"), QStringLiteral("560.94"), QStringLiteral("--cuda"),
                         QStringLiteral("12.6"), QStringLiteral("--gpu"), gpu,
                         QStringLiteral("--system-root"), sandbox.root()},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = outputJson(run);
        const QJsonArray gpus =
            report.value(QStringLiteral("inputs")).toObject().value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), 1);
        QCOMPARE(gpus.first().toObject().value(QStringLiteral("computeCapability")).toString(),
                 computeCapability);
        const QString recommended = report.value(QStringLiteral("recommendation"))
                                        .toObject()
                                        .value(QStringLiteral("cudnn"))
                                        .toString();
        if (lastForPreTuring)
            QCOMPARE(recommended, QStringLiteral("9.10.2.21"));
        else
            QVERIFY2(cudnnsetup::Version::parse(recommended) >
                         cudnnsetup::Version::parse(QStringLiteral("9.17")),
                     qPrintable(recommended));
    }

    // The facts the audit found missing or wrong (compat-audit.md), asked the way a student would.
    void whatIfPublishedFacts_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("driverMaxCuda");
        QTest::addColumn<QString>("archiveCuda");
        QTest::addColumn<QString>("warningId");
        QTest::newRow("a 615 driver runs CUDA 13.4") << "--os linux --driver 615.20 --cuda 13.4"
                                                     << "13.4"
                                                     << "13" << QString();
        QTest::newRow("9.10.2 has a CUDA 11.8 build")
            << "--os windows --driver 560.94 --cuda 11.8 --sm 6.1 --cudnn 9.10.2.21"
            << "12.6"
            << "11" << QString();
        QTest::newRow("9.1.0 was tested with CUDA 12.4")
            << "--os windows --driver 560.94 --cuda 12.4 --sm 8.6 --cudnn 9.1.0.70"
            << "12.6"
            << "12" << QString();
        QTest::newRow("9.1.0 was not tested with CUDA 12.6")
            << "--os windows --driver 560.94 --cuda 12.6 --sm 8.6 --cudnn 9.1.0.70"
            << "12.6"
            << "12"
            << "match.toolkit-outside-tested-range";
    }
    void whatIfPublishedFacts()
    {
        QFETCH(QString, given);
        QFETCH(QString, driverMaxCuda);
        QFETCH(QString, archiveCuda);
        QFETCH(QString, warningId);
        Sandbox sandbox;
        const QStringList arguments =
            QStringList{QStringLiteral("check"), QStringLiteral("--json"),        QStringLiteral("--lang"),
                        QStringLiteral("en"),    QStringLiteral("--system-root"), sandbox.root()} +
            given.split(QLatin1Char(' '));
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = outputJson(run);
        QVERIFY(report.value(QStringLiteral("compatible")).toBool());
        const QJsonObject cuda = report.value(QStringLiteral("cuda")).toObject();
        QCOMPARE(cuda.value(QStringLiteral("driverMaxCuda")).toString(), driverMaxCuda);
        QCOMPARE(cuda.value(QStringLiteral("archive")).toString(), archiveCuda);
        const QStringList ids = findingIds(report);
        if (warningId.isEmpty()) {
            QVERIFY2(ids.isEmpty(), qPrintable(ids.join(QLatin1Char(','))));
        } else {
            QCOMPARE(ids, QStringList{warningId});
            QVERIFY(findingOf(report, warningId)
                        .value(QStringLiteral("message"))
                        .toString()
                        .contains(QStringLiteral("up to 12.4")));
        }
    }

    void textSpeaksChinese()
    {
        Sandbox sandbox;
        QStringList arguments = whatIf(kWhatIfDriverTooOld);
        arguments.removeAll(QStringLiteral("--json"));
        arguments[arguments.indexOf(QStringLiteral("en"))] = QStringLiteral("zh_CN");
        arguments << QStringLiteral("--system-root") << sandbox.root();
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QCOMPARE(run.exitCode, 1);
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.contains(QStringLiteral("兼容：否")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("驱动 522.06 太旧")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("cudnn-windows-x86_64-")));
    }

    // check --for torch on a Pascal GPU with no torch installed: the install line of the cu126
    // index, and exit 1 (nothing that runs is there yet).
    void checkForTorchNamesTheIndexForThisGpu()
    {
        Sandbox sandbox;
        const CudnnctlRun run = runCudnnctl(
            checkFor(QStringLiteral("torch"), QStringLiteral("6.1"), sandbox.root()), sandboxEnvironment());
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("for")).toString(), QStringLiteral("torch"));
        QCOMPARE(report.value(QStringLiteral("compatible")), QJsonValue(false));
        const QJsonObject torch = firstConsumer(report);
        QCOMPARE(torch.value(QStringLiteral("found")), QJsonValue(false));
        const QJsonObject fix = torch.value(QStringLiteral("fix")).toObject();
        QCOMPARE(fix.value(QStringLiteral("kind")).toString(), QStringLiteral("torch-index"));
        QCOMPARE(fix.value(QStringLiteral("command")).toString(),
                 QStringLiteral("pip install torch --index-url https://download.pytorch.org/whl/cu126"));
    }

    // check --for app:FOLDER: a program that needs cuDNN 8 and reaches only 9 gets cuDNN 8.9.7 for
    // CUDA 12 beside it (exit 1); with cuDNN 8 beside it, nothing to do (exit 0). In Chinese too.
    void checkForAppFolder()
    {
        Sandbox sandbox;
        writeWhisperApp(sandbox, false);
        const QString what = QStringLiteral("app:/opt/whisper");
        const CudnnctlRun missing =
            runCudnnctl(checkFor(what, QStringLiteral("8.6"), sandbox.root()), sandboxEnvironment());
        QCOMPARE(missing.exitCode, 1);
        const QJsonObject consumer = firstConsumer(outputJson(missing));
        const QJsonObject verdict = consumer.value(QStringLiteral("verdict")).toObject();
        QCOMPARE(verdict.value(QStringLiteral("runs")).toString(), QStringLiteral("yes"));
        QCOMPARE(verdict.value(QStringLiteral("findsCudnn")).toString(), QStringLiteral("no"));
        const QJsonObject fix = consumer.value(QStringLiteral("fix")).toObject();
        QCOMPARE(fix.value(QStringLiteral("kind")).toString(), QStringLiteral("cudnn-beside"));
        QVERIFY2(fix.value(QStringLiteral("text"))
                     .toString()
                     .contains(QStringLiteral("cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz")),
                 missing.out.constData());
        QCOMPARE(
            fix.value(QStringLiteral("command")).toString(),
            QStringLiteral("cudnnctl download --cudnn 8.9.7.29 --cuda 12 --out .\n"
                           "cudnnctl install --archive cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz "
                           "--target app:/opt/whisper"));

        QStringList chinese = checkFor(what, QStringLiteral("8.6"), sandbox.root());
        chinese.removeAll(QStringLiteral("--json"));
        chinese[chinese.indexOf(QStringLiteral("en"))] = QStringLiteral("zh_CN");
        const QString text = QString::fromUtf8(runCudnnctl(chinese, sandboxEnvironment()).out);
        QVERIFY2(text.contains(QStringLiteral("解决办法：只为这个程序")), qPrintable(text));

        writeWhisperApp(sandbox, true);
        const CudnnctlRun fine =
            runCudnnctl(checkFor(what, QStringLiteral("8.6"), sandbox.root()), sandboxEnvironment());
        QVERIFY2(fine.exitCode == 0, fine.out.constData());
        QCOMPARE(firstConsumer(outputJson(fine))
                     .value(QStringLiteral("fix"))
                     .toObject()
                     .value(QStringLiteral("kind")),
                 QJsonValue(QStringLiteral("nothing")));
    }

    void badInputIsExitTwo_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::newRow("driver word") << "--driver"
                                     << "abc";
        QTest::newRow("driver as CUDA") << "--driver"
                                        << "12";
        QTest::newRow("cuda word") << "--cuda"
                                   << "v12.x";
        QTest::newRow("cudnn word") << "--cudnn"
                                    << "abc";
        QTest::newRow("unknown archive name") << "--cudnn"
                                              << "cudnn-setup.zip";
        QTest::newRow("os") << "--os"
                            << "macos";
        QTest::newRow("sm") << "--sm"
                            << "ampere";
        QTest::newRow("for") << "--for"
                             << "keras";
        QTest::newRow("missing database") << "--compat-db"
                                          << "/nonexistent/cudnn-compat.json";
        QTest::newRow("malformed database") << "--compat-db"
                                            << "MALFORMED";
    }
    void badInputIsExitTwo()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        Sandbox sandbox;
        if (value == QLatin1String("MALFORMED")) {
            sandbox.write(QStringLiteral("/broken.json"),
                          "{\"schema\": \"cudnn-setup/compat-db/1\", \"version\": ");
            value = sandbox.hostPath(QStringLiteral("/broken.json"));
        }
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("check"), QStringLiteral("--lang"), QStringLiteral("en"),
                         QStringLiteral("--system-root"), sandbox.root(), option, value},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(QFileInfo(value).fileName().toUtf8()), run.err.constData());
    }

    void whatIfOptionsBelongToCheck()
    {
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--lang"), QStringLiteral("en"),
                         QStringLiteral("--driver"), QStringLiteral("535.98")},
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--driver"), run.err.constData());
    }

    // Lab IT's offline update: a database named on the command line, or put beside the program.
    void otherDatabases()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/mine.json"), databaseWithVersion(QStringLiteral("2099.01.01")));
        QStringList arguments = whatIf(QStringLiteral("537.13"));
        arguments << QStringLiteral("--system-root") << sandbox.root();
        const CudnnctlRun named =
            runCudnnctl(arguments + QStringList{QStringLiteral("--compat-db"),
                                                sandbox.hostPath(QStringLiteral("/mine.json"))},
                        sandboxEnvironment());
        const QJsonObject database = outputJson(named).value(QStringLiteral("database")).toObject();
        QCOMPARE(database.value(QStringLiteral("version")).toString(), QStringLiteral("2099.01.01"));
        QCOMPARE(QFileInfo(database.value(QStringLiteral("origin")).toString()).fileName(),
                 QStringLiteral("mine.json"));

        // A copy of the program with a database beside it: newer is used, broken is a warning.
        const QString program = sandbox.hostPath(QStringLiteral("/program")) + QLatin1Char('/') +
                                QFileInfo(BuildPaths::cudnnctl()).fileName();
        sandbox.mkdir(QStringLiteral("/program"));
        QVERIFY(QFile::copy(BuildPaths::cudnnctl(), program));
        QFile(program).setPermissions(QFile(program).permissions() | QFileDevice::ExeOwner);
        sandbox.write(QStringLiteral("/program/cudnn-compat.json"),
                      databaseWithVersion(QStringLiteral("2099.02.02")));
        const CudnnctlRun beside = runCudnnctl(arguments, sandboxEnvironment(), program);
        QCOMPARE(outputJson(beside)
                     .value(QStringLiteral("database"))
                     .toObject()
                     .value(QStringLiteral("version"))
                     .toString(),
                 QStringLiteral("2099.02.02"));

        sandbox.write(QStringLiteral("/program/cudnn-compat.json"), "{ broken");
        const CudnnctlRun broken = runCudnnctl(arguments, sandboxEnvironment(), program);
        QCOMPARE(broken.exitCode, 0); // the built-in database judges, and the what-if fits
        const QJsonObject report = outputJson(broken);
        QCOMPARE(
            report.value(QStringLiteral("database")).toObject().value(QStringLiteral("origin")).toString(),
            QStringLiteral("embedded"));
        QCOMPARE(findingOf(report, QStringLiteral("compat-db.unusable"))
                     .value(QStringLiteral("severity"))
                     .toString(),
                 QStringLiteral("warning"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlCheck)
#include "tst_cudnnctl_check.moc"
