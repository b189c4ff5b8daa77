// `cudnnctl install --path user` on the running Windows (Wine's, in CI): the DLL folder goes into
// the real HKCU\Environment PATH, and the uninstall gives the value back byte for byte and with its
// type; a killed install is rolled back in the registry too.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Suite.h"
#include "TreeSnapshot.h"
#include "platform/PersistentEnvironment.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

class TestWinInstall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;
    QString m_archive;
    QString m_database; // takes the test-made archive for NVIDIA's
    std::shared_ptr<PersistentEnvironment> m_environment = PersistentEnvironment::forRunningSystem();
    std::optional<StoredEnvironmentValue> m_userPath;

    QString target() const { return QDir::toNativeSeparators(m_work.filePath(QStringLiteral("cuDNN 9.1"))); }

    CudnnctlRun run(const QStringList &arguments, const QProcessEnvironment &extra = {}) const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString &key : extra.keys())
            environment.insert(key, extra.value(key));
        return runCudnnctl(arguments + QStringList{QStringLiteral("--lang"), QStringLiteral("en"),
                                                   QStringLiteral("--compat-db"), m_database},
                           environment);
    }

    std::optional<StoredEnvironmentValue> userPath() const
    {
        const auto value = m_environment->read(EnvironmentScope::User, QStringLiteral("PATH"));
        return value ? *value : std::nullopt;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        QVERIFY(m_environment->isAvailable());
        const archives::StandIn standIn =
            archives::writeStandIn(m_work.path(), QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        m_archive = standIn.archive;
        m_database = standIn.database;
        // A user PATH of the kind people have: REG_EXPAND_SZ with a variable and a trailing ';'.
        m_userPath = userPath();
        QVERIFY(m_environment->write(EnvironmentScope::User, QStringLiteral("PATH"),
                                     {QStringLiteral("%USERPROFILE%\\bin;C:\\Tools;"), true}));
    }

    void cleanupTestCase()
    {
        const Expected<void> restored =
            m_userPath ? m_environment->write(EnvironmentScope::User, QStringLiteral("PATH"), *m_userPath)
                       : m_environment->remove(EnvironmentScope::User, QStringLiteral("PATH"));
        QVERIFY(restored);
    }

    void userPathRoundTripsThroughInstallAndUninstall()
    {
        const std::optional<StoredEnvironmentValue> before = userPath();
        const CudnnctlRun installed =
            run({QStringLiteral("install"), QStringLiteral("--archive"), m_archive,
                 QStringLiteral("--target"), QStringLiteral("dir:") + target(), QStringLiteral("--path"),
                 QStringLiteral("user"), QStringLiteral("--json")});
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const std::optional<StoredEnvironmentValue> after = userPath();
        QVERIFY(after);
        QCOMPARE(after->text, target() + QStringLiteral("\\bin;%USERPROFILE%\\bin;C:\\Tools;"));
        QVERIFY(after->expandable);
        const QJsonObject receipt = outputJson(installed).value(QStringLiteral("receipt")).toObject();
        const QJsonObject change = receipt.value(QStringLiteral("environment")).toArray().first().toObject();
        QCOMPARE(change.value(QStringLiteral("before")).toObject().value(QStringLiteral("text")).toString(),
                 before->text);
        QCOMPARE(change.value(QStringLiteral("before")).toObject().value(QStringLiteral("type")).toString(),
                 QStringLiteral("REG_EXPAND_SZ"));

        const CudnnctlRun removed =
            run({QStringLiteral("uninstall"), receipt.value(QStringLiteral("id")).toString()});
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QCOMPARE(userPath(), before);
        QVERIFY(!QFileInfo::exists(target()));
    }

    // Killed after the PATH was written: the next start puts the value back.
    void killedInstallRestoresThePath()
    {
        const std::optional<StoredEnvironmentValue> before = userPath();
        const QStringList install{
            QStringLiteral("install"),  QStringLiteral("--archive"),       m_archive,
            QStringLiteral("--target"), QStringLiteral("dir:") + target(), QStringLiteral("--path"),
            QStringLiteral("user"),     QStringLiteral("--json")};
        const CudnnctlRun dry = run(install + QStringList{QStringLiteral("--dry-run")});
        QCOMPARE(dry.exitCode, 0);
        const QJsonArray plan = outputJson(dry).value(QStringLiteral("plan")).toArray();
        int pathStep = -1;
        for (int i = 0; i < plan.size(); ++i) {
            if (plan.at(i).toString().startsWith(QLatin1String("Adding ")))
                pathStep = i;
        }
        QVERIFY(pathStep > 0);
        QProcessEnvironment crash;
        crash.insert(QStringLiteral("CUDNNSETUP_CRASH_AT"), QStringLiteral("%1:after").arg(pathStep));
        QCOMPARE(run(install, crash).exitCode, 70);
        QVERIFY(userPath() != before); // the crash left our entry in PATH

        const CudnnctlRun next =
            run({QStringLiteral("uninstall"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY(findingIds(outputJson(next)).contains(QStringLiteral("install.recovered-rollback")));
        QCOMPARE(userPath(), before);
        QVERIFY(!QFileInfo::exists(target()));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinInstall)
#include "tst_win_install.moc"
