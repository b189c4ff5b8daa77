#include "Suite.h"
#include "platform/SecurityDescriptor.h"

#include <QTest>

using namespace cudnnsetup;

Q_DECLARE_METATYPE(cudnnsetup::ObjectRole)

namespace {

const QString kUser = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-1001");
const QString kTrustedInstaller =
    QStringLiteral("S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464");

// C:\ProgramData as Windows 10 and 11 ship it: Users may create files and folders in it.
const QString kProgramData = QStringLiteral("O:SYG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICIIO;GA;;;CO)"
                                            "(A;OICI;0x1200a9;;;BU)(A;CI;0x116;;;BU)");
// A folder made in the root of a drive: it inherits Authenticated Users' Modify.
const QString kUnderDriveRoot =
    QStringLiteral("O:BAG:S-1-5-21-1004336348-1177238915-682003330-513D:AI(A;ID;FA;;;BA)(A;OICIIOID;GA;;;BA)"
                   "(A;ID;FA;;;SY)(A;OICIIOID;GA;;;SY)(A;ID;0x1301bf;;;AU)(A;OICIIOID;SDGXGWGR;;;AU)"
                   "(A;ID;0x1200a9;;;BU)(A;OICIIOID;GXGR;;;BU)");
// A System32 DLL: TrustedInstaller owns it, everyone else reads.
const QString kSystem32Dll = QStringLiteral(
    "O:S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464G:S-1-5-80-956008885-3418522649-"
    "1831038044-1853292631-2271478464D:PAI(A;;FA;;;S-1-5-80-956008885-3418522649-1831038044-1853292631-"
    "2271478464)(A;;0x1200a9;;;BA)(A;;0x1200a9;;;SY)(A;;0x1200a9;;;BU)(A;;0x1200a9;;;AC)");

} // namespace

class TestSecurityDescriptor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsOwnerAndAces()
    {
        const auto descriptor = SecurityDescriptor::fromSddl(kProgramData);
        QVERIFY2(descriptor, qPrintable(descriptor.error().details));
        QCOMPARE(descriptor->owner, QStringLiteral("S-1-5-18"));
        QVERIFY(descriptor->hasDacl);
        QVERIFY(!descriptor->daclIsNull);
        QCOMPARE(descriptor->dacl.size(), 5);
        const SecurityDescriptor::Ace &creatorOwner = descriptor->dacl.at(2);
        QVERIFY(creatorOwner.inheritOnly);
        QCOMPARE(creatorOwner.sid, QStringLiteral("S-1-3-0"));
        QCOMPARE(creatorOwner.mask, quint32(0x10000000));
        const SecurityDescriptor::Ace &usersCreate = descriptor->dacl.at(4);
        QCOMPARE(usersCreate.type, SecurityDescriptor::Ace::Type::Allow);
        QVERIFY(!usersCreate.inheritOnly);
        QCOMPARE(usersCreate.mask, quint32(0x116));
        QCOMPARE(usersCreate.sid, QStringLiteral("S-1-5-32-545"));
    }

    void readsRightCodesSidsAndConditions()
    {
        const auto descriptor = SecurityDescriptor::fromSddl(
            QStringLiteral("O:%1D:(D;;SDWDWO;;;WD)(A;;FRFW;;;DU)(XA;;FX;;;WD;(@User.Title == \"PM (a)\"))"
                           "S:(ML;;NW;;;HI)")
                .arg(kUser));
        QVERIFY2(descriptor, qPrintable(descriptor.error().details));
        QCOMPARE(descriptor->owner, kUser);
        QCOMPARE(descriptor->dacl.size(), 3);
        QCOMPARE(descriptor->dacl.at(0).type, SecurityDescriptor::Ace::Type::Deny);
        QCOMPARE(descriptor->dacl.at(0).mask, quint32(0x10000 | 0x40000 | 0x80000));
        QCOMPARE(descriptor->dacl.at(0).sid, QStringLiteral("S-1-1-0"));
        QCOMPARE(descriptor->dacl.at(1).mask, quint32(0x120089 | 0x120116));
        QCOMPARE(descriptor->dacl.at(1).sid, QStringLiteral("DU")); // Domain Users: no fixed SID
        QCOMPARE(descriptor->dacl.at(2).type, SecurityDescriptor::Ace::Type::Allow);
    }

    void nullAndMissingDaclLetEveryoneWrite()
    {
        for (const QString &sddl : {QStringLiteral("O:BAD:NO_ACCESS_CONTROL"), QStringLiteral("O:BAG:SY")}) {
            const auto descriptor = SecurityDescriptor::fromSddl(sddl);
            QVERIFY(descriptor);
            const WriteAudit audit = security::auditWriters(*descriptor, ObjectRole::File);
            QVERIFY(audit.ownerTrusted);
            QCOMPARE(audit.writers, QStringList{QStringLiteral("S-1-1-0")});
            QVERIFY(!audit.trusted());
        }
    }

    void refusesMalformedText_data()
    {
        QTest::addColumn<QString>("sddl");
        QTest::newRow("unterminated ACE") << QStringLiteral("O:BAD:(A;;FA;;;SY");
        QTest::newRow("no owner after O:") << QStringLiteral("O::D:(A;;FA;;;SY)");
        QTest::newRow("trailing text") << QStringLiteral("O:BAD:(A;;FA;;;SY)junk");
    }
    void refusesMalformedText()
    {
        QFETCH(QString, sddl);
        const auto descriptor = SecurityDescriptor::fromSddl(sddl);
        QVERIFY(!descriptor);
        QCOMPARE(descriptor.error().id, QStringLiteral("security.bad-descriptor"));
        QVERIFY2(descriptor.error().details.contains(sddl), qPrintable(descriptor.error().details));
    }

    // An entry the parser cannot read is kept, not dropped, and the object is trusted by no one:
    // it may be the one that lets others in. (These descriptors were refused whole before, which
    // the callers read as "nothing known" and trusted.)
    void unreadableEntriesTrustNoOne_data()
    {
        QTest::addColumn<QString>("ace");
        QTest::newRow("unknown right") << QStringLiteral("(A;;ZZ;;;SY)");
        QTest::newRow("odd right letters") << QStringLiteral("(A;;FAF;;;SY)");
        QTest::newRow("bad hex") << QStringLiteral("(A;;0xZZ;;;SY)");
        QTest::newRow("unknown ACE type") << QStringLiteral("(Q;;FA;;;SY)");
        QTest::newRow("unknown flag") << QStringLiteral("(A;XX;FA;;;SY)");
        QTest::newRow("too few fields") << QStringLiteral("(A;;FA;;SY)");
        QTest::newRow("not an account") << QStringLiteral("(A;;FA;;;S-1-5-18/x)");
    }
    void unreadableEntriesTrustNoOne()
    {
        QFETCH(QString, ace);
        const auto descriptor =
            SecurityDescriptor::fromSddl(QStringLiteral("O:BAD:P(A;;FA;;;SY)%1(A;;FA;;;BA)").arg(ace));
        QVERIFY2(descriptor, qPrintable(descriptor.error().details));
        QCOMPARE(descriptor->unreadableAces, QStringList{ace});
        QCOMPARE(descriptor->dacl.size(), 2);
        for (const ObjectRole role : {ObjectRole::File, ObjectRole::Folder, ObjectRole::Ancestor}) {
            const WriteAudit audit = security::auditWriters(*descriptor, role);
            QVERIFY(audit.ownerTrusted);
            QVERIFY(audit.writers.isEmpty());
            QVERIFY(!audit.trusted());
            QVERIFY2(audit.summary().contains(ace), qPrintable(audit.summary()));
            QCOMPARE(audit.whoMayChange().size(), 1);
            QVERIFY(audit.whoMayChange().first().toEnglish().contains(QLatin1String("possibly anyone")));
        }
        // In a SACL, no entry decides who may write.
        QVERIFY(security::auditWriters(
                    *SecurityDescriptor::fromSddl(QStringLiteral("O:BAD:P(A;;FA;;;BA)S:%1").arg(ace)),
                    ObjectRole::File)
                    .trusted());
    }

    // Every alias Windows may write for an account the same on every machine is read as its SID
    // (it was refused before: PS, ED, RE, CD, ES, RA, MS, UD, AS, SS, AA); one it resolves against
    // the machine or the domain, or one newer than the list, is kept as written. Granted a change,
    // each is a writer.
    void readsEveryAlias_data()
    {
        QTest::addColumn<QString>("alias");
        QTest::addColumn<QString>("account");
        const QList<QPair<const char *, const char *>> aliases{
            {"PS", "S-1-5-10"},
            {"ED", "S-1-5-9"},
            {"RE", "S-1-5-32-552"},
            {"CD", "S-1-5-32-574"},
            {"ES", "S-1-5-32-576"},
            {"RA", "S-1-5-32-575"},
            {"MS", "S-1-5-32-577"},
            {"UD", "S-1-5-84-0-0-0-0-0"},
            {"AS", "S-1-18-1"},
            {"SS", "S-1-18-2"},
            {"AA", "S-1-5-32-579"},
            {"OW", "S-1-3-4"},
            {"RM", "S-1-5-32-580"},
            {"DU", "DU"},
            {"DA", "DA"},
            {"LA", "LA"},
            {"EK", "EK"},
            {"ZZ", "ZZ"},
            {"S-1-5-21-1004336348-1177238915-682003330-1105",
             "S-1-5-21-1004336348-1177238915-682003330-1105"},
        };
        for (const auto &[alias, account] : aliases)
            QTest::newRow(alias) << QString::fromLatin1(alias) << QString::fromLatin1(account);
    }
    void readsEveryAlias()
    {
        QFETCH(QString, alias);
        QFETCH(QString, account);
        const auto descriptor = SecurityDescriptor::fromSddl(
            QStringLiteral("O:%1G:%1D:P(A;;FA;;;BA)(A;;0x1301bf;;;%1)").arg(alias));
        QVERIFY2(descriptor, qPrintable(descriptor.error().details));
        QCOMPARE(descriptor->owner, account);
        QCOMPARE(descriptor->dacl.last().sid, account);
        QVERIFY(descriptor->unreadableAces.isEmpty());
        const WriteAudit audit = security::auditWriters(*descriptor, ObjectRole::File);
        QVERIFY(!audit.ownerTrusted);
        // OWNER RIGHTS stands for the owner, who is judged as such.
        QCOMPARE(audit.writers, QStringList{account});
        QVERIFY(!audit.trusted());
    }

    void auditsWriters_data()
    {
        QTest::addColumn<QString>("sddl");
        QTest::addColumn<ObjectRole>("role");
        QTest::addColumn<bool>("ownerTrusted");
        QTest::addColumn<QStringList>("writers");
        const QString users = QStringLiteral("S-1-5-32-545");
        const QString authenticated = QStringLiteral("S-1-5-11");
        const QString everyone = QStringLiteral("S-1-1-0");

        QTest::newRow("ours, file") << security::adminsOnlySddl() << ObjectRole::File << true
                                    << QStringList();
        QTest::newRow("ours, folder")
            << security::adminsOnlySddl() << ObjectRole::Folder << true << QStringList();
        QTest::newRow("ProgramData as the folder itself")
            << kProgramData << ObjectRole::Folder << true << QStringList{users};
        // Creating files in ProgramData does not let a user delete or rename a folder in it.
        QTest::newRow("ProgramData above the trusted folder")
            << kProgramData << ObjectRole::Ancestor << true << QStringList();
        QTest::newRow("inherited Modify from a drive root")
            << kUnderDriveRoot << ObjectRole::Folder << true << QStringList{authenticated};
        QTest::newRow("the same folder made protected")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)")
            << ObjectRole::Folder << true << QStringList();
        QTest::newRow("System32 DLL, TrustedInstaller's")
            << kSystem32Dll << ObjectRole::File << true << QStringList();
        QTest::newRow("Users granted write")
            << QStringLiteral("O:BAD:PAI(A;;FA;;;SY)(A;;FA;;;BA)(A;;0x120116;;;BU)") << ObjectRole::File
            << true << QStringList{users};
        QTest::newRow("Everyone granted only the right to change rights")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;WD;;;WD)") << ObjectRole::File << true
            << QStringList{everyone};
        QTest::newRow("Users granted only the right to take ownership")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;WO;;;BU)") << ObjectRole::File << true
            << QStringList{users};
        QTest::newRow("Users granted only attributes and extended attributes")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;0x120190;;;BU)") << ObjectRole::File << true
            << QStringList();
        // CREATOR OWNER's ACE shapes the children a user creates; the folder itself stays shut.
        QTest::newRow("CREATOR OWNER, inherit-only")
            << QStringLiteral("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICIIO;FA;;;CO)(A;OICI;FX;;;BU)")
            << ObjectRole::Folder << true << QStringList();
        QTest::newRow("generic write for the children only")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;OICIIO;GA;;;BU)") << ObjectRole::Folder << true
            << QStringList();
        QTest::newRow("generic write on the folder itself")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;GW;;;BU)") << ObjectRole::Folder << true
            << QStringList{users};
        QTest::newRow("Everyone reads")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;FR;;;WD)") << ObjectRole::File << true << QStringList();
        // A deny of FW leaves delete and change-rights standing.
        QTest::newRow("deny of write data only")
            << QStringLiteral("O:BAD:P(D;;FW;;;BU)(A;;FA;;;BA)(A;;FA;;;BU)") << ObjectRole::File << true
            << QStringList{users};
        QTest::newRow("deny of everything to Everyone")
            << QStringLiteral("O:BAD:P(D;;FA;;;WD)(A;;FA;;;BA)(A;;FA;;;AU)") << ObjectRole::File << true
            << QStringList();
        QTest::newRow("allow before deny wins")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;FA;;;BU)(D;;FA;;;BU)") << ObjectRole::File << true
            << QStringList{users};
        // An account need not be a member of Users (a service's is not): the deny does not stop it.
        QTest::newRow("deny for Users, allow for one account")
            << QStringLiteral("O:BAD:P(D;;FA;;;BU)(A;;FA;;;BA)(A;;0x1301bf;;;%1)").arg(kUser)
            << ObjectRole::File << true << QStringList{kUser};
        QTest::newRow("a user's own folder")
            << QStringLiteral("O:%1D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FA;;;%1)").arg(kUser)
            << ObjectRole::Folder << false << QStringList{kUser};
        QTest::newRow("a foreign owner, nobody else")
            << QStringLiteral("O:%1D:P(A;;FA;;;SY)(A;;FA;;;BA)").arg(kUser) << ObjectRole::File << false
            << QStringList{kUser};
        QTest::newRow("no owner named")
            << QStringLiteral("D:P(A;;FA;;;SY)(A;;FA;;;BA)") << ObjectRole::File << false << QStringList();
        QTest::newRow("TrustedInstaller owns and writes")
            << QStringLiteral("O:%1D:P(A;;FA;;;%1)(A;;FR;;;BU)").arg(kTrustedInstaller) << ObjectRole::File
            << true << QStringList();
        QTest::newRow("Domain Users modify") << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;0x1301bf;;;DU)")
                                             << ObjectRole::File << true << QStringList{QStringLiteral("DU")};
        // FILE_DELETE_CHILD means nothing on a file; on a folder it lets its children be swapped.
        QTest::newRow("delete child, file")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;DT;;;BU)") << ObjectRole::File << true << QStringList();
        QTest::newRow("delete child, folder") << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;DT;;;BU)")
                                              << ObjectRole::Folder << true << QStringList{users};
        QTest::newRow("delete child, above") << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;DT;;;BU)")
                                             << ObjectRole::Ancestor << true << QStringList{users};
        QTest::newRow("add subfolder, file") << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;0x4;;;BU)")
                                             << ObjectRole::File << true << QStringList{users};
        QTest::newRow("add subfolder, above") << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;0x4;;;BU)")
                                              << ObjectRole::Ancestor << true << QStringList();
        // Review 2, N4: what was trusted because the parser refused it, or because what a PATH
        // folder's files inherit was not looked at.
        QTest::newRow("PRINCIPAL SELF reads, a student owns it")
            << QStringLiteral("O:%1D:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;;FR;;;PS)").arg(kUser)
            << ObjectRole::LibraryFolder << false << QStringList{kUser};
        QTest::newRow("a domain account may modify")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;0x1301bf;;;S-1-5-21-1-2-3-1105)") << ObjectRole::File
            << true << QStringList{QStringLiteral("S-1-5-21-1-2-3-1105")};
        QTest::newRow("OWNER RIGHTS full control, a student owns it")
            << QStringLiteral("O:%1D:P(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;OW)").arg(kUser) << ObjectRole::File
            << false << QStringList{kUser};
        QTest::newRow("OWNER RIGHTS full control, the Administrators own it")
            << QStringLiteral("O:BAD:P(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;OW)") << ObjectRole::File << true
            << QStringList();
        QTest::newRow("conditional allow for Everyone")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(XA;;FA;;;WD;(Member_of {SID(BA)}))") << ObjectRole::File
            << true << QStringList{everyone};
        QTest::newRow("object allow for Users")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(OA;;FA;bf967aba-0de6-11d0-a285-00aa003049e2;;BU)")
            << ObjectRole::File << true << QStringList{users};
        QTest::newRow("object and conditional denies are not relied on")
            << QStringLiteral("O:BAD:P(OD;;FA;bf967aba-0de6-11d0-a285-00aa003049e2;;BU)"
                              "(XD;;FA;;;BU;(Member_of {SID(BA)}))(A;;FA;;;BA)(A;;FA;;;BU)")
            << ObjectRole::File << true << QStringList{users};
        const QString usersModifyFiles =
            QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FX;;;BU)(A;OIIO;0x1301bf;;;BU)");
        QTest::newRow("Users (OI)(IO)(M), a library folder")
            << usersModifyFiles << ObjectRole::LibraryFolder << true << QStringList{users};
        // The state folder's audit is of the folder alone: its files are audited one by one.
        QTest::newRow("Users (OI)(IO)(M), a folder")
            << usersModifyFiles << ObjectRole::Folder << true << QStringList();
        QTest::newRow("Users (OI)(IO)(M), above")
            << usersModifyFiles << ObjectRole::Ancestor << true << QStringList();
        QTest::newRow("Users may modify the subfolders only, a library folder")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;CIIO;0x1301bf;;;BU)")
            << ObjectRole::LibraryFolder << true << QStringList();
        QTest::newRow("a deny for the files, a library folder")
            << QStringLiteral("O:BAD:PAI(D;OIIO;FW;;;BU)(A;OICI;FA;;;BA)(A;OIIO;FW;;;BU)")
            << ObjectRole::LibraryFolder << true << QStringList();
        QTest::newRow("CREATOR OWNER, a library folder")
            << QStringLiteral("O:SYD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICIIO;FA;;;CO)(A;OICI;FX;;;BU)")
            << ObjectRole::LibraryFolder << true << QStringList();
        QTest::newRow("ours, a library folder")
            << security::adminsOnlySddl() << ObjectRole::LibraryFolder << true << QStringList();
        QTest::newRow("inherited Modify from a drive root, a library folder")
            << kUnderDriveRoot << ObjectRole::LibraryFolder << true << QStringList{authenticated};
        QTest::newRow("two writers in DACL order")
            << QStringLiteral("O:BAD:P(A;;FA;;;BA)(A;;SD;;;AU)(A;;FA;;;%1)(A;;FW;;;BU)").arg(kUser)
            << ObjectRole::File << true << QStringList{authenticated, kUser, users};
    }
    void auditsWriters()
    {
        QFETCH(QString, sddl);
        QFETCH(ObjectRole, role);
        QFETCH(bool, ownerTrusted);
        QFETCH(QStringList, writers);
        const auto descriptor = SecurityDescriptor::fromSddl(sddl);
        QVERIFY2(descriptor, qPrintable(descriptor.error().details));
        const WriteAudit audit = security::auditWriters(*descriptor, role);
        QCOMPARE(audit.ownerTrusted, ownerTrusted);
        QCOMPARE(audit.writers, writers);
        QCOMPARE(audit.trusted(), ownerTrusted && writers.isEmpty());
    }

    void namesAccountsInSummaries()
    {
        const auto descriptor = SecurityDescriptor::fromSddl(kUnderDriveRoot);
        QVERIFY(descriptor);
        QCOMPARE(security::auditWriters(*descriptor, ObjectRole::Folder).summary(),
                 QStringLiteral("owner BA (Administrators); may change it: AU (Authenticated Users)"));
        const auto ours = SecurityDescriptor::fromSddl(security::adminsOnlySddl());
        QVERIFY(ours);
        QCOMPARE(security::auditWriters(*ours, ObjectRole::Folder).summary(),
                 QStringLiteral("owner BA (Administrators); only administrators may change it"));
        QCOMPARE(security::sidAlias(QStringLiteral("S-1-5-32-545")), QStringLiteral("BU"));
        QCOMPARE(security::sidName(kTrustedInstaller), QStringLiteral("TrustedInstaller"));
        QCOMPARE(security::sidName(kUser), kUser);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestSecurityDescriptor)
#include "tst_securitydescriptor.moc"
