// Review 2, N11: a verification run with administrator rights (an unattended install as SYSTEM, an
// administrator's elevated prompt) loads nothing from a folder others may change.
#include "FixedElevation.h"
#include "MemoryFileSecurity.h"
#include "Sandbox.h"
#include "Suite.h"
#include "platform/SystemContext.h"
#include "verify/Verifier.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

// The administrators' own folder, and one Authenticated Users may change (C:\tools as many labs
// make it).
const QString kAdministratorsAlone = QStringLiteral("O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)");
const QString kOthersMayChange =
    QStringLiteral("O:BAG:SYD:AI(A;OICIID;FA;;;BA)(A;OICIID;FA;;;SY)(A;OICIID;0x1301bf;;;AU)");
// The administrator's own account.
const QString kAdministrator = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-500");

} // namespace

class TestVerifyRights : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void onlyTheAdministratorsFoldersAreLoadedWithRights_data()
    {
        QTest::addColumn<bool>("elevated");
        QTest::addColumn<bool>("system");
        QTest::addColumn<QString>("onPath");  // the descriptor of C:\tools\bin, on the probe's PATH
        QTest::addColumn<QString>("ofCudnn"); // the descriptor of the cuDNN folder
        QTest::addColumn<QString>("named");   // the folder the finding names; empty: none
        QTest::newRow("standard user") << false << false << kOthersMayChange << kOthersMayChange << QString();
        QTest::newRow("elevated, admins' folders")
            << true << false << kAdministratorsAlone << kAdministratorsAlone << QString();
        QTest::newRow("elevated, a PATH folder others may change")
            << true << false << kOthersMayChange << kAdministratorsAlone << QStringLiteral("C:\\tools\\bin");
        QTest::newRow("SYSTEM, a cuDNN folder others may change")
            << false << true << kAdministratorsAlone << kOthersMayChange << QStringLiteral("C:\\cudnn\\bin");
        // The administrator's own folder is theirs to trust when elevated, never SYSTEM's.
        const QString administratorsOwn = QStringLiteral("O:%1G:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)"
                                                         "(A;OICI;FA;;;%1)")
                                              .arg(kAdministrator);
        QTest::newRow("elevated, the account's own folder")
            << true << false << administratorsOwn << kAdministratorsAlone << QString();
        QTest::newRow("SYSTEM, an administrator's own folder")
            << false << true << administratorsOwn << kAdministratorsAlone << QStringLiteral("C:\\tools\\bin");
    }
    void onlyTheAdministratorsFoldersAreLoadedWithRights()
    {
        QFETCH(bool, elevated);
        QFETCH(bool, system);
        QFETCH(QString, onPath);
        QFETCH(QString, ofCudnn);
        QFETCH(QString, named);
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("C:\\Windows\\System32"));
        sandbox.write(QStringLiteral("C:\\cudnn\\bin\\cudnn64_9.dll"), "cuDNN");
        sandbox.mkdir(QStringLiteral("C:\\tools\\bin"));
        auto security = std::make_shared<MemoryFileSecurity>();
        for (const QString &folder :
             {QStringLiteral("C:\\"), QStringLiteral("C:\\Windows"), QStringLiteral("C:\\Windows\\System32")})
            security->set(sandbox.hostPath(folder), kAdministratorsAlone);
        for (const QString &folder : {QStringLiteral("C:\\tools"), QStringLiteral("C:\\tools\\bin")})
            security->set(sandbox.hostPath(folder), onPath);
        for (const QString &folder : {QStringLiteral("C:\\cudnn"), QStringLiteral("C:\\cudnn\\bin")})
            security->set(sandbox.hostPath(folder), ofCudnn);
        const SystemContext context =
            SystemContext::rooted(sandbox.root())
                .withFileSecurity(security)
                .withElevation(std::make_shared<FixedElevation>(elevated, kAdministrator, system));
        VerifySubject subject;
        subject.directory = QStringLiteral("C:\\cudnn\\bin");
        subject.libraries = {QStringLiteral("cudnn64_9.dll")};

        const std::optional<Finding> refusal = unsafeToLoadWithRights(
            context, subject, {QStringLiteral("C:\\Windows\\System32"), QStringLiteral("C:\\tools\\bin")});
        if (named.isEmpty()) {
            QVERIFY2(!refusal, refusal ? qPrintable(refusal->message.toEnglish()) : "");
            return;
        }
        QVERIFY(refusal);
        QCOMPARE(refusal->id, QStringLiteral("verify.not-loaded-with-rights"));
        QVERIFY2(refusal->message.toEnglish().contains(named), qPrintable(refusal->message.toEnglish()));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestVerifyRights)
#include "tst_verifyrights.moc"
