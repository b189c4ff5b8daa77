// `cudnnctl status` as a fleet's detection rule runs it (Intune script detection: exit 0 and
// something on stdout means installed) on a sandbox Windows tree: nothing before the install, one
// line after, the --cudnn and --target filters, a changed file, the JSON, and the time of the
// last `cudnnctl verify` recorded beside the receipt.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "LabMachine.h"
#include "Suite.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kVersion = QStringLiteral("9.1.0.70");

QStringList lines(const QByteArray &out)
{
    return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestCudnnctlStatus : public QObject
{
    Q_OBJECT

    QTemporaryDir m_archives; // outside every sandbox
    archives::StandIn m_standIn;
    QString m_archive;

    static CudnnctlRun status(const LabMachine &machine, const QStringList &more = {})
    {
        return machine.run(QStringList{QStringLiteral("status")} + more);
    }
    static QString receiptId(const CudnnctlRun &installed)
    {
        return outputJson(installed)
            .value(QStringLiteral("receipt"))
            .toObject()
            .value(QStringLiteral("id"))
            .toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_archives.isValid());
        m_standIn = archives::writeStandIn(m_archives.path(), kVersion, QStringLiteral("12"));
        m_archive = m_standIn.archive;
    }

    void notInstalledThenInstalled()
    {
        LabMachine machine(m_standIn.database);
        const CudnnctlRun before = status(machine);
        QCOMPARE(before.exitCode, 1);
        QVERIFY2(before.out.isEmpty(), before.out);
        QVERIFY(!before.err.trimmed().isEmpty()); // the reason, for the person reading the log

        const CudnnctlRun installed = machine.install(m_archive);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const CudnnctlRun after = status(machine);
        QVERIFY2(after.exitCode == 0, after.err);
        const QStringList answer = lines(after.out);
        QCOMPARE(answer.size(), 1);
        QVERIFY2(answer.first().startsWith(QStringLiteral("cuDNN 9.1.0.70 for CUDA 12 installed in ")),
                 qPrintable(answer.first()));
        QVERIFY(answer.first().contains(LabMachine::cudnnFolder()));
        QVERIFY(answer.first().contains(receiptId(installed)));
        QVERIFY(answer.first().contains(QStringLiteral("not verified")));

        // Gone again after the uninstall.
        QCOMPARE(machine.run({QStringLiteral("uninstall")}).exitCode, 0);
        const CudnnctlRun removed = status(machine);
        QCOMPARE(removed.exitCode, 1);
        QVERIFY(removed.out.isEmpty());
    }

    void filters_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("version prefix") << QStringList{QStringLiteral("--cudnn"), QStringLiteral("9.1")} << 0;
        QTest::newRow("full version")
            << QStringList{QStringLiteral("--cudnn"), QStringLiteral("9.1.0.70")} << 0;
        QTest::newRow("other minor") << QStringList{QStringLiteral("--cudnn"), QStringLiteral("9.2")} << 1;
        QTest::newRow("prefix is per component")
            << QStringList{QStringLiteral("--cudnn"), QStringLiteral("9.10")} << 1;
        QTest::newRow("other major") << QStringList{QStringLiteral("--cudnn"), QStringLiteral("8")} << 1;
        QTest::newRow("its folder") << QStringList{QStringLiteral("--target"), LabMachine::cudnnTarget()}
                                    << 0;
        QTest::newRow("another folder")
            << QStringList{QStringLiteral("--target"),
                           QStringLiteral("dir:C:\\Program Files\\NVIDIA\\CUDNN\\v9.2")}
            << 1;
        QTest::newRow("both") << QStringList{QStringLiteral("--cudnn"), QStringLiteral("9"),
                                             QStringLiteral("--target"), LabMachine::cudnnTarget()}
                              << 0;
    }
    void filters()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        LabMachine machine(m_standIn.database);
        QCOMPARE(machine.install(m_archive).exitCode, 0);
        const CudnnctlRun answer = status(machine, arguments);
        QVERIFY2(answer.exitCode == exitCode, answer.out + answer.err);
        QCOMPARE(lines(answer.out).size(), exitCode == 0 ? 1 : 0);
    }

    // A file of the install that changed (or went) means the install is no longer there as made.
    void changedFileIsNotInstalled()
    {
        LabMachine machine(m_standIn.database);
        QCOMPARE(machine.install(m_archive).exitCode, 0);
        QFile dll(
            machine.sandbox.hostPath(LabMachine::cudnnFolder() + QStringLiteral("\\bin\\cudnn64_9.dll")));
        QVERIFY(dll.open(QIODevice::Append));
        dll.write("patched");
        dll.close();
        const CudnnctlRun answer = status(machine);
        QCOMPARE(answer.exitCode, 1);
        QVERIFY(answer.out.isEmpty());
        QVERIFY2(answer.err.contains("cudnn64_9.dll"), answer.err);

        QVERIFY(QFile::remove(dll.fileName()));
        QCOMPARE(status(machine).exitCode, 1);
    }

    void json()
    {
        LabMachine machine(m_standIn.database);
        const CudnnctlRun before = status(machine, {QStringLiteral("--json")});
        QCOMPARE(before.exitCode, 1);
        const QJsonObject absent = outputJson(before);
        QCOMPARE(absent.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/status/1"));
        QCOMPARE(absent.value(QStringLiteral("installed")), QJsonValue(false));
        QVERIFY(absent.value(QStringLiteral("receipt")).isNull());
        QVERIFY(findingIds(absent).contains(QStringLiteral("status.not-installed")));

        const CudnnctlRun installed = machine.install(m_archive);
        QCOMPARE(installed.exitCode, 0);
        const CudnnctlRun after = status(machine, {QStringLiteral("--json")});
        QCOMPARE(after.exitCode, 0);
        const QJsonObject present = outputJson(after);
        QCOMPARE(present.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/status/1"));
        QCOMPARE(present.value(QStringLiteral("installed")), QJsonValue(true));
        QCOMPARE(present.value(QStringLiteral("receipt")).toString(), receiptId(installed));
        QCOMPARE(present.value(QStringLiteral("cudnn")).toString(), kVersion);
        QCOMPARE(present.value(QStringLiteral("cudaVariant")).toString(), QStringLiteral("12"));
        QCOMPARE(present.value(QStringLiteral("target")).toObject().value(QStringLiteral("root")).toString(),
                 LabMachine::cudnnFolder());
        QVERIFY(present.value(QStringLiteral("verified")).isNull());
    }

    // `cudnnctl verify` leaves its result beside the receipt; status then says when it ran.
    void verifiedTimeAfterVerify()
    {
        LabMachine machine(m_standIn.database);
        const CudnnctlRun installed = machine.install(m_archive);
        QCOMPARE(installed.exitCode, 0);
        const QDateTime start = QDateTime::currentDateTimeUtc().addSecs(-1);
        const CudnnctlRun verified =
            machine.run({QStringLiteral("verify"), QStringLiteral("--no-framework")});
        QVERIFY2(verified.exitCode == 0 || verified.exitCode == 1, verified.out + verified.err);
        const QDateTime end = QDateTime::currentDateTimeUtc().addSecs(1);

        const QString receiptPath =
            outputJson(installed).value(QStringLiteral("receiptPath")).toString(); // a host path
        const QString recordPath = QFileInfo(receiptPath).absolutePath() + QLatin1Char('/') +
                                   receiptId(installed) + QStringLiteral(".verify.json");
        QVERIFY2(QFileInfo::exists(recordPath), qPrintable(recordPath));

        const QJsonObject present = outputJson(status(machine, {QStringLiteral("--json")}));
        const QJsonObject when = present.value(QStringLiteral("verified")).toObject();
        const QDateTime time =
            QDateTime::fromString(when.value(QStringLiteral("when")).toString(), Qt::ISODate);
        QVERIFY2(time.isValid() && time >= start && time <= end, qPrintable(time.toString(Qt::ISODate)));
        // Under --system-root the load stage is skipped (another system's files): not a failure.
        QCOMPARE(when.value(QStringLiteral("passed")), QJsonValue(verified.exitCode == 0));
        const QString line = lines(status(machine).out).value(0);
        QVERIFY2(
            line.contains(QStringLiteral("verified %1").arg(when.value(QStringLiteral("when")).toString())) ||
                line.contains(QStringLiteral("verification failed")),
            qPrintable(line));
    }

    void misplacedOptions()
    {
        LabMachine machine(m_standIn.database);
        QCOMPARE(
            machine.run({QStringLiteral("detect"), QStringLiteral("--cudnn"), QStringLiteral("9")}).exitCode,
            2);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlStatus)
#include "tst_cudnnctl_status.moc"
