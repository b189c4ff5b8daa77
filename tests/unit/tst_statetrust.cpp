// What a planted journal or receipt can make an elevated run do: nothing. Journals whose roots
// hold a drive, Program Files or the Windows folder, whose backup folder or steps leave their
// roots, that change the machine environment from a user's folder, set a value no install sets,
// or whose PATH record is not its own edit are set aside, named in a finding, and every byte they
// point at stays as it was; a journal an install really left is still rolled back, and a journal
// is replayed only at the integrity level that wrote it. Receipts likewise.
#include "Cudnnctl.h"
#include "FixedElevation.h"
#include "MemoryFileSecurity.h"
#include "Sandbox.h"
#include "Suite.h"
#include "TreeSnapshot.h"
#include "install/Installer.h"
#include "install/Operations.h"
#include "install/StateTrust.h"
#include "platform/MemoryEnvironment.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QTest>

using namespace cudnnsetup;

namespace {

// A receipt's target: its own folder at `root` (a Windows path unless it starts with '/').
InstallTarget folderTarget(const QString &root)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.family = root.startsWith(QLatin1Char('/')) ? OsFamily::Linux : OsFamily::Windows;
    target.root = root;
    target.binFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("bin");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("lib\\x64");
    return target;
}

const QString kSystemPath = QStringLiteral("%SystemRoot%\\system32;C:\\Tools");

// Owners and ACLs as Windows 10 and 11 give them. C:\ProgramData: Users may create in it.
const QString kProgramData = QStringLiteral("O:SYG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICIIO;GA;;;CO)"
                                            "(A;OICI;0x1200a9;;;BU)(A;CI;0x116;;;BU)");
// A state folder an older version made elevated, inheriting ProgramData's ACL: Users may add files.
const QString kInheritedStateFolder = QStringLiteral(
    "O:BAG:SYD:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIIOID;GA;;;CO)(A;OICIID;0x1200a9;;;BU)"
    "(A;CIID;0x116;;;BU)");
const QString kStudent = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-1001");
const QString kAdministrator = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-500");
// A file an elevated process wrote there: owned by the Administrators, others read.
const QString kAdminsFile = QStringLiteral("O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)");
// A file a standard user created there: CREATOR OWNER gives them full control of it.
const QString kStudentsFile = QStringLiteral("O:%1G:%1D:AI(A;ID;FA;;;%1)(A;ID;FA;;;SY)(A;ID;FA;;;BA)"
                                             "(A;ID;0x1200a9;;;BU)")
                                  .arg(kStudent);
// The Administrators' file, with Modify for Users added by hand.
const QString kUsersMayModify = QStringLiteral("O:BAG:SYD:(A;;FA;;;SY)(A;;FA;;;BA)(A;;0x1301bf;;;BU)");
// What an administrator's files read back as where they are owned by the account (Wine, or the
// "default owner" policy): the account itself has full control.
const QString kAccountsFile = QStringLiteral("O:%1G:%1D:(A;;FA;;;SY)(A;;FA;;;%1)(A;;0x1200a9;;;WD)");

// `context` acted on by a process that answers as FixedElevation(elevated, account) does.
SystemContext actingAs(const SystemContext &context, bool elevated, const QString &account = QString())
{
    return context.withElevation(std::make_shared<FixedElevation>(elevated, account));
}

// A Windows machine in a sandbox with its state folders, and files an attacker would aim at.
struct Machine
{
    Sandbox sandbox;
    SystemContext context = contextFor(sandbox);
    std::shared_ptr<MemoryEnvironment> environment = std::make_shared<MemoryEnvironment>();
    StateFolders folders = StateFolders::of(context);

    Machine()
    {
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\kernel32.dll"), "the real kernel32");
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll"), "a stale cuDNN 8");
        sandbox.write(QStringLiteral("C:\\Data\\thesis.docx"), "four years of work");
        sandbox.write(QStringLiteral("C:\\Program Files\\App\\app.exe"), "an application");
        sandbox.write(QStringLiteral("C:\\Users\\Public\\evil\\cudnn64_9.dll"), "planted");
        environment->set(EnvironmentScope::System, QStringLiteral("PATH"), {kSystemPath, true});
    }
    static SystemContext contextFor(const Sandbox &sandbox)
    {
        sandbox.mkdir(QStringLiteral("C:\\Windows\\System32"));
        qputenv("ProgramData", "C:\\ProgramData");
        qputenv("ProgramFiles", "C:\\Program Files");
        qputenv("LOCALAPPDATA", "C:\\Users\\lab\\AppData\\Local");
        qputenv("USERPROFILE", "C:\\Users\\lab");
        return SystemContext::rooted(sandbox.root());
    }
    QString host(const QString &path) const { return context.files().toHost(path); }
    // Everything but cuDNN Setup's own folders, where the journals are set aside.
    TreeSnapshot tree() const
    {
        return TreeSnapshot::of(sandbox.root(), {QStringLiteral("ProgramData"),
                                                 QStringLiteral("Users/lab/AppData/Local/cuDNN Setup")});
    }
    // A journal as a hand would write it: its header and steps ({"seq","begin"/"state"/"done"}).
    // "@ROOT@" in them stands for the sandbox's root (host paths).
    void plantJournal(const QString &folder, QJsonObject header, const QList<QJsonObject> &lines) const
    {
        const auto rebased = [this](const QJsonObject &object) {
            return QJsonDocument(object)
                       .toJson(QJsonDocument::Compact)
                       .replace("@ROOT@", sandbox.root().toUtf8()) +
                   '\n';
        };
        header.insert(QStringLiteral("schema"), QLatin1String(Journal::kSchema));
        header.insert(QStringLiteral("id"), QStringLiteral("planted"));
        header.insert(QStringLiteral("kind"), QStringLiteral("install"));
        QDir().mkpath(folder);
        QFile file(folders.journal(folder));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(rebased(header));
        for (const QJsonObject &line : lines)
            file.write(rebased(line));
    }
    // What the doctor really does in System32 (a stale cuDNN renamed aside), stopped by a crash
    // right after the rename: its journal stays in the machine's folder.
    Transaction::Outcome crashRepairInSystem32() const
    {
        const QString stale = host(QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll"));
        OperationContext context;
        context.environment = environment;
        context.backupFolder = folders.machine + QStringLiteral("/repair-backup");
        context.crashAt = [](const FaultPoint &point) {
            return point.stage == FaultPoint::Stage::AfterPerform;
        };
        Transaction repair(QStringLiteral("repair-1"), QStringLiteral("repair"),
                           folders.journal(folders.machine), context, {QFileInfo(stale).absolutePath()});
        repair.add(operations::moveIntoPlace(stale, stale + QStringLiteral(".cudnn-setup-aside")));
        return repair.run().outcome;
    }
    QStringList setAside(const QString &folder) const
    {
        return QDir(folder).entryList({QStringLiteral("transaction.journal.untrusted-*")}, QDir::Files);
    }
};

QJsonObject begin(int sequence, const Operation &operation)
{
    return {{QStringLiteral("seq"), sequence},
            {QStringLiteral("begin"), QJsonObject{{QStringLiteral("name"), operation.name()},
                                                  {QStringLiteral("arguments"), operation.arguments()}}}};
}

QJsonObject state(int sequence, const QJsonObject &remembered)
{
    return {{QStringLiteral("seq"), sequence}, {QStringLiteral("state"), remembered}};
}

QJsonObject storedValue(const QString &text)
{
    return {{QStringLiteral("text"), text}, {QStringLiteral("expandable"), true}};
}

} // namespace

class TestStateTrust : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Journals a standard user could have planted in a state folder: each is set aside with its
    // reason, and nothing it names changes, files or environment.
    void plantedJournalsAreSetAside_data()
    {
        QTest::addColumn<QString>("folderName"); // "machine" or "user"
        QTest::addColumn<QJsonObject>("header");
        QTest::addColumn<QList<QJsonObject>>("lines");
        QTest::addColumn<QString>("reason");

        const QString system32 = QStringLiteral("@ROOT@/Windows/System32");
        const QString data = QStringLiteral("@ROOT@/Data");
        const QString cudnn = QStringLiteral("@ROOT@/cudnn");
        const auto roots = [](const QStringList &folders) { return QJsonArray::fromStringList(folders); };

        QTest::newRow("backup folder elsewhere on the disk")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), data}, {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{} << "backup folder";
        QTest::newRow("no roots at all")
            << "machine" << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/b")}}
            << QList<QJsonObject>{} << "names no roots";
        // The shape a damaged write or an older version leaves, claiming the other level: set
        // aside all the same (it once stayed, and every later install failed on it).
        QTest::newRow("no roots, claiming the other level")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/b")},
                           {QStringLiteral("elevated"), !Elevation::host().isElevated()}}
            << QList<QJsonObject>{} << "names no roots";
        QTest::newRow("the whole drive as its root")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), data + QStringLiteral("/b")},
                           {QStringLiteral("roots"), roots({QStringLiteral("@ROOT@")})}}
            << QList<QJsonObject>{} << "whole drive";
        QTest::newRow("Program Files as its root")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), QStringLiteral("@ROOT@/Program Files/b")},
                           {QStringLiteral("roots"), roots({QStringLiteral("@ROOT@/Program Files")})}}
            << QList<QJsonObject>{} << "holds";
        // kernel32.dll "replaced" by an undo that renames its backup into place: System32 admits
        // cuDNN's own files only.
        const auto kernel32 = operations::moveIntoPlace(data + QStringLiteral("/thesis.docx"),
                                                        system32 + QStringLiteral("/kernel32.dll"));
        QTest::newRow("a step into System32 that is not cuDNN")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn, system32})}}
            << QList<QJsonObject>{begin(0, *kernel32), state(0, {{QStringLiteral("replaced"), true}})}
            << "outside its roots";
        const auto outside = operations::removeFile(data + QStringLiteral("/thesis.docx"));
        QTest::newRow("a step outside its roots")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{begin(0, *outside), state(0, {{QStringLiteral("existed"), true}})}
            << "outside its roots";
        const auto machinePath = operations::addPathEntry(
            OsFamily::Windows, EnvironmentScope::System, QStringLiteral("C:\\Users\\Public\\evil"), true, {});
        QTest::newRow("the machine PATH from a user's journal")
            << "user"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{begin(0, *machinePath)} << "machine environment";
        // Its undo would write "before" back: a PATH that puts a planted folder first.
        QTest::newRow("a PATH record that is not its own edit")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{begin(0, *machinePath),
                                  state(0, {{QStringLiteral("before"),
                                             storedValue(QStringLiteral("C:\\Users\\Public\\evil;") +
                                                         kSystemPath)},
                                            {QStringLiteral("after"), storedValue(kSystemPath)}})}
            << "not add-path-entry applied";
        const auto comSpec =
            operations::setEnvironmentValue(EnvironmentScope::System, QStringLiteral("ComSpec"),
                                            StoredEnvironmentValue{QStringLiteral("x"), false});
        QTest::newRow("a value no install sets")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{begin(0, *comSpec)} << "no install sets";
        QTest::newRow("an operation nobody registered")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{{{QStringLiteral("seq"), 0},
                                   {QStringLiteral("begin"),
                                    QJsonObject{{QStringLiteral("name"), QStringLiteral("run-program")}}}}}
            << "unknown operation";
        // Its undo would run the program it names as the administrator: no step names a program.
        const auto ldSoConf = operations::refreshingLibraryCache(
            operations::writeFile(cudnn + QStringLiteral("/x.conf"), "x"), true);
        QJsonObject namesProgram = ldSoConf->arguments();
        namesProgram.insert(QStringLiteral("ldconfig"), QStringLiteral("@ROOT@/Users/lab/evil.exe"));
        QTest::newRow("a step naming the program to run")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{{{QStringLiteral("seq"), 0},
                                   {QStringLiteral("begin"),
                                    QJsonObject{{QStringLiteral("name"), ldSoConf->name()},
                                                {QStringLiteral("arguments"), namesProgram}}}},
                                  state(0, {{QStringLiteral("existed"), false}})}
            << "unknown operation";
        // Its undo removes what it "created" while empty: only folders above its own are its own.
        const auto makeDirectory = operations::makeDirectory(cudnn);
        QTest::newRow("a folder it did not create")
            << "machine"
            << QJsonObject{{QStringLiteral("backupFolder"), cudnn + QStringLiteral("/.b")},
                           {QStringLiteral("roots"), roots({cudnn})}}
            << QList<QJsonObject>{begin(0, *makeDirectory),
                                  state(0, {{QStringLiteral("created"), QJsonArray{data}}})}
            << "outside its roots";
    }
    void plantedJournalsAreSetAside()
    {
        QFETCH(QString, folderName);
        QFETCH(QJsonObject, header);
        QFETCH(QList<QJsonObject>, lines);
        QFETCH(QString, reason);
        Machine machine;
        const QString folder =
            folderName == QLatin1String("user") ? machine.folders.user : machine.folders.machine;
        machine.plantJournal(folder, header, lines);
        const TreeSnapshot before = machine.tree();
        const auto pathBefore = machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"));

        const Findings findings = recoverUnfinished(machine.context, machine.environment);
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("state.untrusted-journal")});
        QVERIFY2(findings.first().details.contains(reason), qPrintable(findings.first().details));
        QVERIFY(!QFileInfo::exists(machine.folders.journal(folder)));
        QCOMPARE(machine.setAside(folder).size(), 1);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH")), pathBefore);
        QCOMPARE(machine.environment->writeCount(), 0);
    }

    // What the doctor really does in System32 (a stale cuDNN renamed aside), stopped by a crash:
    // the journal is trusted and rolled back.
    void aRepairInSystem32IsStillRolledBack()
    {
        Machine machine;
        const TreeSnapshot before = machine.tree();
        QCOMPARE(machine.crashRepairInSystem32(), Transaction::Outcome::Crashed);
        QVERIFY(machine.tree() != before);

        const Findings findings = recoverUnfinished(machine.context, machine.environment);
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("install.recovered-rollback")});
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // A journal or receipt is trusted by where it lies, never by what it says of itself: on the
    // running system an elevated process trusts and settles the machine folder alone, never the
    // user's (which the user's own processes can write); a process at the user's level settles its
    // own folder and leaves the machine's to an elevated one. Another system's tree has no levels.
    void stateIsTrustedByWhereItLies()
    {
        QProcessEnvironment variables;
        variables.insert(QStringLiteral("ProgramData"), QStringLiteral("C:\\ProgramData"));
        variables.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        const std::shared_ptr<Registry> registry = Registry::unavailable();
        const SystemContext live(FileSystem(OsFamily::Windows, {}),
                                 EnvironmentStore(OsFamily::Windows, variables, registry), registry,
                                 std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
        QVERIFY(live.isLive());
        const StateFolders folders = StateFolders::of(live);
        QVERIFY(folders.machine != folders.user);
        QCOMPARE(folders.trustedBy(live, FixedElevation(true)), QStringList{folders.machine});
        QCOMPARE(folders.settledBy(live, FixedElevation(true)), QStringList{folders.machine});
        QCOMPARE(folders.trustedBy(live, FixedElevation(false)),
                 (QStringList{folders.machine, folders.user}));
        QCOMPARE(folders.settledBy(live, FixedElevation(false)), QStringList{folders.user});

        Machine machine;
        QVERIFY(!machine.context.isLive());
        const QStringList both{machine.folders.machine, machine.folders.user};
        for (const bool elevated : {true, false}) {
            QCOMPARE(machine.folders.trustedBy(machine.context, FixedElevation(elevated)), both);
            QCOMPARE(machine.folders.settledBy(machine.context, FixedElevation(elevated)), both);
        }
    }

    // What a journal claims of the level that wrote it changes nothing: in the folders a process
    // settles, an honest journal is rolled back whatever it claims.
    void aJournalsClaimOfItsLevelIsIgnored()
    {
        for (const QJsonValue &claim : {QJsonValue(true), QJsonValue(false), QJsonValue()}) {
            Machine machine;
            QJsonObject header{{QStringLiteral("backupFolder"), QStringLiteral("@ROOT@/cudnn/.b")},
                               {QStringLiteral("roots"), QJsonArray{QStringLiteral("@ROOT@/cudnn")}}};
            if (!claim.isNull())
                header.insert(QStringLiteral("elevated"), claim);
            machine.plantJournal(machine.folders.machine, header, {});
            QCOMPARE(findingIds(recoverUnfinished(actingAs(machine.context, true), machine.environment)),
                     QStringList{QStringLiteral("install.recovered-rollback")});
            QVERIFY(!QFileInfo::exists(machine.folders.journal(machine.folders.machine)));
        }
    }

    // A journal from before steps stopped naming programs, naming the distribution's ldconfig, is
    // still read (as a step that rebuilds the cache); one naming any other program is none of ours.
    void aCacheRebuildNamesNoProgram()
    {
        const auto step = operations::refreshingLibraryCache(
            operations::writeFile(QStringLiteral("/etc/ld.so.conf.d/x.conf"), "x"), true);
        QVERIFY(!step->arguments().contains(QStringLiteral("ldconfig")));
        QJsonObject older = step->arguments();
        older.remove(QStringLiteral("rebuildsCache"));
        for (const QString &program :
             {QStringLiteral("/sbin/ldconfig"), QStringLiteral("/usr/sbin/ldconfig")}) {
            older.insert(QStringLiteral("ldconfig"), program);
            const auto read = Operation::create(step->name(), older);
            QVERIFY(read);
            QCOMPARE(read->arguments().value(QStringLiteral("rebuildsCache")).toBool(), true);
        }
        for (const QString &program :
             {QStringLiteral("/tmp/ldconfig"), QStringLiteral("ldconfig"), QStringLiteral("C:\\evil.exe")}) {
            older.insert(QStringLiteral("ldconfig"), program);
            QVERIFY2(!Operation::create(step->name(), older), qPrintable(program));
        }
        QJsonObject wrongType = step->arguments();
        wrongType.insert(QStringLiteral("rebuildsCache"), QStringLiteral("/tmp/x"));
        QVERIFY(!Operation::create(step->name(), wrongType));
    }

    // A receipt whose uninstall would put a planted file in place of kernel32.dll (its hash
    // matches: anyone can read the real one) is not listed, and is set aside; an honest one is.
    void plantedReceiptsAreLeftOut()
    {
        Machine machine;
        const QString receipts = machine.folders.receipts(machine.folders.machine);
        const auto write = [&](const QString &name, const Receipt &receipt) {
            QDir().mkpath(receipts);
            QFile file(receipts + QLatin1Char('/') + name);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QJsonDocument(receipt.toJson()).toJson());
        };
        Receipt planted;
        planted.id = QStringLiteral("cudnn-9.1.0-cuda12-planted");
        planted.target = folderTarget(QStringLiteral("C:\\cudnn"));
        planted.files.append(
            {QStringLiteral("C:\\Windows\\System32\\kernel32.dll"),
             QString::fromLatin1(
                 QCryptographicHash::hash("the real kernel32", QCryptographicHash::Sha256).toHex()),
             17, QStringLiteral("C:\\Users\\Public\\evil\\cudnn64_9.dll")});
        write(QStringLiteral("planted.json"), planted);
        Receipt wideRoot = planted;
        wideRoot.id = QStringLiteral("cudnn-9.1.0-cuda12-wide");
        wideRoot.target = folderTarget(QStringLiteral("C:\\"));
        wideRoot.files = {{QStringLiteral("C:\\Data\\thesis.docx"), QString(), 18, QString()}};
        write(QStringLiteral("wide.json"), wideRoot);
        Receipt machineFromUser;
        machineFromUser.id = QStringLiteral("cudnn-9.1.0-cuda12-user");
        machineFromUser.target = folderTarget(QStringLiteral("C:\\cudnn"));
        machineFromUser.environment.append({QStringLiteral("machine"), QStringLiteral("PATH"),
                                            QStringLiteral("C:\\Users\\Public\\evil"), std::nullopt,
                                            std::nullopt});
        QDir().mkpath(machine.folders.receipts(machine.folders.user));
        QFile userReceipt(machine.folders.receipts(machine.folders.user) + QStringLiteral("/user.json"));
        QVERIFY(userReceipt.open(QIODevice::WriteOnly));
        userReceipt.write(QJsonDocument(machineFromUser.toJson()).toJson());
        userReceipt.close();
        Receipt honest;
        honest.id = QStringLiteral("cudnn-9.1.0-cuda12-honest");
        honest.target = folderTarget(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"));
        honest.files.append(
            {QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn64_9.dll"), QString(), 1,
             machine.context.files().fromHost(receipts) + QStringLiteral("\\honest\\cudnn64_9.dll")});
        honest.folders = {QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN")};
        write(QStringLiteral("honest.json"), honest);

        Findings refused;
        const QList<std::pair<Receipt, QString>> listed = installedReceipts(machine.context, &refused);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first.id, honest.id);
        QCOMPARE(findingIds(refused), QStringList(3, QStringLiteral("state.untrusted-receipt")));
        QCOMPARE(QDir(receipts).entryList({QStringLiteral("*.untrusted-*")}, QDir::Files).size(), 2);
        QVERIFY(!QFileInfo::exists(receipts + QStringLiteral("/planted.json")));

        // And the uninstall it would have driven finds nothing of it to act on.
        const TreeSnapshot before = machine.tree();
        const ChangeOutcome outcome =
            uninstall(planted.id, machine.context, machine.environment, ChangeOptions());
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // Where Windows keeps owners and ACLs, a receipt in the machine's folder is trusted only when
    // administrators alone could have written it: one a student owns, or one Users may modify, is
    // left out and set aside, with who could write it; the administrators' own is listed.
    void receiptsOthersCouldWriteAreLeftOut()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString receipts = machine.folders.receipts(machine.folders.machine);
        security->set(QFileInfo(machine.folders.machine).absolutePath(), kProgramData);
        security->set(machine.folders.machine, kInheritedStateFolder);
        security->set(receipts, kInheritedStateFolder);
        QDir().mkpath(receipts);
        const auto write = [&](const QString &name, const QString &sddl) {
            Receipt receipt;
            receipt.id = name;
            receipt.target = folderTarget(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"));
            QFile file(receipts + QLatin1Char('/') + name + QStringLiteral(".json"));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QJsonDocument(receipt.toJson()).toJson());
            security->set(file.fileName(), sddl);
        };
        write(QStringLiteral("honest"), kAdminsFile);
        write(QStringLiteral("students"), kStudentsFile);
        write(QStringLiteral("modifiable"), kUsersMayModify);

        Findings refused;
        const auto listed = installedReceipts(actingAs(secured, true, kAdministrator), &refused);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first.id, QStringLiteral("honest"));
        QCOMPARE(findingIds(refused), QStringList(2, QStringLiteral("state.untrusted-receipt")));
        const QString details = refused.at(0).details + refused.at(1).details;
        QVERIFY2(details.contains(kStudent) && details.contains(QStringLiteral("BU")), qPrintable(details));
        QCOMPARE(QDir(receipts).entryList({QStringLiteral("*.untrusted-*")}, QDir::Files).size(), 2);
        // Where the system keeps no ACLs (Linux, a tree under --system-root) there is none to check.
        QCOMPARE(installedReceipts(machine.context).size(), 1);
    }

    // Review 2, N4: where the system keeps owners and ACLs, a receipt whose descriptor cannot be
    // read (nor its folder's: it was trusted then), or holds an entry the parser cannot read, is no
    // administrator's: it is left out and set aside, saying so.
    void receiptsWhoseOwnerCannotBeReadAreLeftOut()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString receipts = machine.folders.receipts(machine.folders.machine);
        QDir().mkpath(receipts);
        const auto write = [&](const QString &name) {
            Receipt receipt;
            receipt.id = name;
            receipt.target = folderTarget(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"));
            QFile file(receipts + QLatin1Char('/') + name + QStringLiteral(".json"));
            if (file.open(QIODevice::WriteOnly))
                file.write(QJsonDocument(receipt.toJson()).toJson());
            return file.fileName();
        };
        security->set(write(QStringLiteral("honest")), kAdminsFile);
        security->setUnreadable(write(QStringLiteral("unreadable")), QStringLiteral("access denied"));
        security->set(write(QStringLiteral("unknown-entry")),
                      QStringLiteral("O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(ZZ;;FA;;;BU)"));
        for (const QString &folder : {machine.folders.machine, receipts})
            security->setUnreadable(folder, QStringLiteral("access denied"));

        Findings refused;
        // The folders cannot be read either: even the administrators' receipt is not trusted.
        QVERIFY(installedReceipts(actingAs(secured, true, kAdministrator), &refused).isEmpty());
        QCOMPARE(findingIds(refused), QStringList(3, QStringLiteral("state.untrusted-receipt")));
        QVERIFY2(refused.first().details.contains(QStringLiteral("cannot be read: access denied")),
                 qPrintable(refused.first().details));

        for (const QString &folder : {machine.folders.machine, receipts})
            security->set(folder, security::adminsOnlySddl());
        security->set(write(QStringLiteral("honest")), kAdminsFile);
        security->setUnreadable(write(QStringLiteral("unreadable")), QStringLiteral("access denied"));
        security->set(write(QStringLiteral("unknown-entry")),
                      QStringLiteral("O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(ZZ;;FA;;;BU)"));
        refused.clear();
        const auto listed = installedReceipts(actingAs(secured, true, kAdministrator), &refused);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first.id, QStringLiteral("honest"));
        QCOMPARE(findingIds(refused), QStringList(2, QStringLiteral("state.untrusted-receipt")));
        const QString details = refused.at(0).details + refused.at(1).details;
        QVERIFY2(details.contains(QStringLiteral("access denied")) &&
                     details.contains(QStringLiteral("(ZZ;;FA;;;BU)")),
                 qPrintable(details));
    }

    // An elevated process trusts its own account's files as an administrator's (Wine, and Windows
    // with the "default owner" policy, make an administrator's files the account's); a process
    // that is not elevated, or another account, does not.
    void theAccountsOwnFilesAreTrustedWhenElevated()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString receipts = machine.folders.receipts(machine.folders.machine);
        security->set(machine.folders.machine, security::adminsOnlySddl());
        QDir().mkpath(receipts);
        Receipt receipt;
        receipt.id = QStringLiteral("by-the-account");
        receipt.target = folderTarget(QStringLiteral("C:\\cudnn"));
        QFile file(receipts + QStringLiteral("/by-the-account.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(receipt.toJson()).toJson());
        file.close();
        security->set(file.fileName(), kAccountsFile.arg(kAdministrator));

        QCOMPARE(installedReceipts(actingAs(secured, true, kAdministrator), nullptr).size(), 1);
        QCOMPARE(installedReceipts(actingAs(secured, true, kStudent), nullptr).size(), 0);
        QVERIFY(!QFileInfo::exists(file.fileName())); // set aside
    }

    // The same crashed repair that is rolled back when administrators alone could have written its
    // journal is set aside, untouched, when a student owns the journal file.
    void aJournalAStudentOwnsIsNotReplayed()
    {
        for (const QString &owner : {kStudentsFile, kAdminsFile}) {
            Machine machine;
            const auto security = std::make_shared<MemoryFileSecurity>();
            const SystemContext secured = machine.context.withFileSecurity(security);
            security->set(machine.folders.machine, security::adminsOnlySddl());
            const QString stale = machine.host(QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll"));
            QCOMPARE(machine.crashRepairInSystem32(), Transaction::Outcome::Crashed);
            security->set(machine.folders.journal(machine.folders.machine), owner);
            const TreeSnapshot crashed = machine.tree();

            const Findings findings = recoverUnfinished(
                actingAs(secured, Elevation::host().isElevated(), kAdministrator), machine.environment);
            if (owner == kStudentsFile) {
                QCOMPARE(findingIds(findings), QStringList{QStringLiteral("state.untrusted-journal")});
                QVERIFY2(findings.first().details.contains(kStudent), qPrintable(findings.first().details));
                QVERIFY2(machine.tree() == crashed, qPrintable(machine.tree().difference(crashed)));
            } else {
                QCOMPARE(findingIds(findings), QStringList{QStringLiteral("install.recovered-rollback")});
                QVERIFY(QFileInfo::exists(stale));
            }
        }
    }

    // The machine's state folder is made only by an elevated process, and made the administrators'
    // alone; one that others may add files to (an older version's) is made so again, elevated.
    void theMachineFolderIsTheAdministratorsAlone()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString folder = machine.folders.machine;
        security->set(QFileInfo(folder).absolutePath(), kProgramData);
        QDir().mkpath(QFileInfo(folder).absolutePath());

        const Expected<void> refused = machine.folders.prepare(folder, secured, FixedElevation(false));
        QVERIFY(!refused);
        QCOMPARE(refused.error().id, QStringLiteral("state.needs-administrator"));
        QVERIFY(machine.folders.tryLock(secured, FixedElevation(false)));
        QVERIFY(!QFileInfo::exists(folder));
        // The user's own folder needs no one's leave.
        QVERIFY(machine.folders.prepare(machine.folders.user, secured, FixedElevation(false)).ok());

        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator)).ok());
        QVERIFY(QFileInfo(folder).isDir());
        // Made protected, it and its folders (review 2, N6): never protected after a mkdir.
        using Descriptors = QList<QPair<QString, QString>>;
        Descriptors made{{folder, security::adminsOnlySddl()}};
        for (const QString &name : StateFolders::subfolders()) {
            made.append({folder + QLatin1Char('/') + name, security::adminsOnlySddl()});
            QVERIFY(QFileInfo(folder + QLatin1Char('/') + name).isDir());
        }
        // Where archives taken from users are copied: not even readable by Users (review 2, N8).
        made.append({machine.folders.custody(folder), security::administratorsAloneSddl()});
        QCOMPARE(security->madeFolders(), made);
        QVERIFY(security->protectedFolders().isEmpty());
        // Trusted now: nothing more to do.
        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator)).ok());
        QCOMPARE(security->madeFolders().size(), made.size());
        QVERIFY(security->protectedFolders().isEmpty());

        security->set(folder, kInheritedStateFolder);
        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(false)).ok());
        QVERIFY(security->protectedFolders().isEmpty());
        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator)).ok());
        QCOMPARE(security->protectedFolders(), (Descriptors{{folder, security::adminsOnlySddl()}}));
    }

    // Review 2, N6: what a student put in the machine's state folder before an elevated run made it
    // the administrators' (a `logs` folder the student owns and Users may write, a file a student
    // owns, one whose descriptor cannot be read, a link) is set aside beside itself before it is
    // used, each with a finding, at any depth; the folders it needs are made anew, protected, and
    // the administrators' own files and folders are kept as they are.
    void squattedEntriesOfTheMachineFolderAreSetAside()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString folder = machine.folders.machine;
        const QString receipts = machine.folders.receipts(folder);
        const QString logs = machine.folders.logs(folder);
        const QString downloads = machine.folders.downloads(folder);
        const QString kept = receipts + QStringLiteral("/cudnn-9.1.0-cuda12-honest");
        security->set(QFileInfo(folder).absolutePath(), kProgramData);
        for (const QString &made : {folder, receipts, logs, downloads, kept}) {
            QDir().mkpath(made);
            security->set(made, security::adminsOnlySddl());
        }
        // A folder the student made: they own it, and Users may add to it.
        security->set(logs, QStringLiteral("O:%1G:%1D:AI(A;OICI;FA;;;%1)(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)"
                                           "(A;OICIID;0x1200a9;;;BU)(A;CI;0x116;;;BU)")
                                .arg(kStudent));
        const auto write = [&](const QString &path, const std::optional<QString> &sddl) {
            QFile file(path);
            if (file.open(QIODevice::WriteOnly))
                file.write("x");
            if (sddl)
                security->set(path, *sddl);
            else
                security->setUnreadable(path, QStringLiteral("access denied"));
        };
        write(logs + QStringLiteral("/unattended-20250101T000000Z.log"), kStudentsFile);
        write(downloads + QStringLiteral("/cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), kStudentsFile);
        write(receipts + QStringLiteral("/honest.json"), kAdminsFile);
        write(receipts + QStringLiteral("/unreadable.json"), std::nullopt);
        write(kept + QStringLiteral("/cudnn64_9.dll"), kAdminsFile);
        write(kept + QStringLiteral("/cudnn_ops64_9.dll"), kUsersMayModify);
        write(folder + QStringLiteral("/transaction.journal"), kAdminsFile);
#ifndef Q_OS_WIN
        const QString elsewhere = machine.host(QStringLiteral("C:\\Users\\Public"));
        QVERIFY(QFile::link(elsewhere, folder + QStringLiteral("/repair-backup")));
#endif

        // Not elevated: nothing is looked at, nothing moved.
        Findings setAside;
        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(false), &setAside).ok());
        QVERIFY(setAside.isEmpty());

        QVERIFY(
            machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator), &setAside).ok());
        QStringList expected{
            logs, downloads + QStringLiteral("/cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"),
            receipts + QStringLiteral("/unreadable.json"), kept + QStringLiteral("/cudnn_ops64_9.dll")};
#ifndef Q_OS_WIN
        expected.append(folder + QStringLiteral("/repair-backup"));
#endif
        QCOMPARE(setAside.size(), expected.size());
        QString details;
        for (const Finding &finding : std::as_const(setAside)) {
            QCOMPARE(finding.id, QStringLiteral("state.untrusted-entry"));
            details += finding.details + QLatin1Char('\n');
        }
        QVERIFY2(details.contains(kStudent) && details.contains(QStringLiteral("cannot be read")) &&
                     details.contains(QStringLiteral("BU")),
                 qPrintable(details));
        for (const QString &path : std::as_const(expected)) {
            const QFileInfo entry(path);
            QVERIFY2(QDir(entry.absolutePath())
                             .entryList({entry.fileName() + QStringLiteral(".untrusted-*")},
                                        QDir::AllEntries | QDir::System)
                             .size() == 1,
                     qPrintable(path));
        }
        // The student's logs folder is set aside whole, and a fresh one made the administrators'.
        QVERIFY(QFileInfo(logs).isDir() && !QFileInfo(logs).isSymLink());
        QVERIFY(QDir(logs).isEmpty());
        QVERIFY(security->madeFolders().contains({logs, security::adminsOnlySddl()}));
        for (const QString &kept :
             {receipts + QStringLiteral("/honest.json"), kept + QStringLiteral("/cudnn64_9.dll"),
              folder + QStringLiteral("/transaction.journal")})
            QVERIFY2(QFileInfo::exists(kept), qPrintable(kept));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/repair-backup")));

        // What was set aside stays aside, told once.
        Findings again;
        QVERIFY(machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator), &again).ok());
        QVERIFY2(again.isEmpty(), qPrintable(findingIds(again).join(QLatin1Char(' '))));
    }

    // Review 2, B1: a machine folder whose descriptor shuts the administrators out cannot be given
    // theirs; it is set aside whole (with what is in it, never replayed) and made anew, protected.
    void aMachineFolderAdministratorsCannotReclaimIsMadeAnew()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString folder = machine.folders.machine;
        security->set(QFileInfo(folder).absolutePath(), kProgramData);
        machine.plantJournal(folder,
                             {{QStringLiteral("backupFolder"), QStringLiteral("@ROOT@/cudnn/.b")},
                              {QStringLiteral("roots"), QJsonArray{QStringLiteral("@ROOT@/cudnn")}}},
                             {});
        security->set(folder, QStringLiteral("O:%1G:%1D:P(A;OICI;FA;;;%1)").arg(kStudent));
        security->shutOut(folder);

        Findings setAside;
        QVERIFY(
            machine.folders.prepare(folder, secured, FixedElevation(true, kAdministrator), &setAside).ok());
        QCOMPARE(findingIds(setAside), QStringList{QStringLiteral("state.untrusted-entry")});
        QVERIFY2(setAside.first().details.contains(kStudent) &&
                     setAside.first().details.contains(QStringLiteral("cannot be made the administrators'")),
                 qPrintable(setAside.first().details));
        const QStringList aside =
            QDir(QFileInfo(folder).absolutePath())
                .entryList({QFileInfo(folder).fileName() + QStringLiteral(".untrusted-*")}, QDir::Dirs);
        QCOMPARE(aside.size(), 1);
        QVERIFY(QFileInfo::exists(QFileInfo(folder).absolutePath() + QLatin1Char('/') + aside.first() +
                                  QStringLiteral("/transaction.journal")));
        QVERIFY(!QFileInfo::exists(machine.folders.journal(folder)));
        QCOMPARE(security->madeFolders().first(),
                 (QPair<QString, QString>{folder, security::adminsOnlySddl()}));
        QVERIFY(security->protectedFolders().isEmpty());
    }

    // Review 2, N6: an elevated change whose machine folder cannot be made ready takes no lock and
    // goes no further, saying why (state.folder-failed) in its outcome; an unfinished journal in
    // such a folder is not replayed.
    void anElevatedChangeStopsWhenTheMachineFolderCannotBeMadeReady()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString folder = machine.folders.machine;
        security->set(QFileInfo(folder).absolutePath(), kProgramData);
        QCOMPARE(machine.crashRepairInSystem32(), Transaction::Outcome::Crashed);
        security->set(folder, QStringLiteral("O:%1G:%1D:P(A;OICI;FA;;;%1)").arg(kStudent));
        security->shutOut(folder);
        security->failMaking(folder);
        const TreeSnapshot crashed = machine.tree();
        const FixedElevation administrator(true, kAdministrator);
        const SystemContext asAdministrator = actingAs(secured, true, kAdministrator);

        const Findings recovered = recoverUnfinished(asAdministrator, machine.environment);
        QCOMPARE(findingIds(recovered), (QStringList{QStringLiteral("state.untrusted-entry"),
                                                     QStringLiteral("state.folder-failed")}));
        QVERIFY2(machine.tree() == crashed, qPrintable(machine.tree().difference(crashed)));

        StateFolders::LockNotes notes;
        QVERIFY(!machine.folders.tryLock(secured, administrator, &notes));
        QVERIFY(notes.unprepared);
        QCOMPARE(notes.unprepared->id, QStringLiteral("state.folder-failed"));
        QVERIFY2(notes.unprepared->details.contains(QStringLiteral("Access is denied")),
                 qPrintable(notes.unprepared->details));
        QVERIFY(!QFileInfo::exists(machine.folders.lockFile(administrator)));

        const ChangeOutcome outcome = uninstall(QString(), asAdministrator, machine.environment);
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        QCOMPARE(findingIds(outcome.findings), QStringList{QStringLiteral("state.folder-failed")});
        // A process at the user's level locks in its own folder, as before.
        QVERIFY(machine.folders.tryLock(secured, FixedElevation(false)));
    }

    // Review 2, N13: on the running system an elevated change (or SYSTEM's) locks in the machine
    // folder, which only administrators may add to, so a standard user cannot hold its lock; any
    // other change in its own user folder (it may not create files in the machine folder, whatever
    // its read-only flag says). The lock file itself only SYSTEM, the Administrators and the
    // locking account may open.
    void theLockOfAnElevatedChangeIsTheAdministrators()
    {
        StateFolders folders;
        folders.machine = QStringLiteral("C:/ProgramData/cuDNN Setup");
        folders.user = QStringLiteral("C:/Users/lab/AppData/Local/cuDNN Setup");
        folders.lockScope = InstallLock::Scope::RunningSystem;
        QCOMPARE(folders.lockFile(FixedElevation(true, kAdministrator)),
                 folders.machine + QStringLiteral("/install.lock"));
        QCOMPARE(folders.lockFile(FixedElevation(false, kStudent)),
                 folders.user + QStringLiteral("/install.lock"));
        // A tree under --system-root: its machine folder where that can be written.
        Machine machine;
        QDir().mkpath(machine.folders.machine);
        QCOMPARE(machine.folders.lockFile(FixedElevation(false, kStudent)),
                 machine.folders.machine + QStringLiteral("/install.lock"));

        const auto lock = SecurityDescriptor::fromSddl(InstallLock::lockSddl(kStudent));
        QVERIFY2(lock, qPrintable(lock.error().details));
        QStringList accounts;
        for (const SecurityDescriptor::Ace &ace : lock->dacl)
            accounts.append(ace.sid);
        QCOMPARE(accounts,
                 (QStringList{QStringLiteral("S-1-5-18"), QStringLiteral("S-1-5-32-544"), kStudent}));
        QVERIFY(lock->unreadableAces.isEmpty());
        QCOMPARE(security::auditWriters(*lock, ObjectRole::File).writers, QStringList{kStudent});
        const auto elevated = SecurityDescriptor::fromSddl(InstallLock::lockSddl(QString()));
        QVERIFY(elevated);
        QCOMPARE(elevated->dacl.size(), 2);
    }

#ifndef Q_OS_WIN
    // A link in place of the receipts folder, or of the state folder itself, is not followed: what
    // it points at is not listed, and no state folder is made through it.
    void linksInTheStateFolderAreNotFollowed()
    {
        Machine machine;
        const auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext secured = machine.context.withFileSecurity(security);
        const QString elsewhere = machine.host(QStringLiteral("C:\\Users\\Public\\receipts"));
        QDir().mkpath(elsewhere);
        Receipt receipt;
        receipt.id = QStringLiteral("elsewhere");
        receipt.target = folderTarget(QStringLiteral("C:\\cudnn"));
        QFile file(elsewhere + QStringLiteral("/elsewhere.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(receipt.toJson()).toJson());
        file.close();
        security->set(file.fileName(), kAdminsFile);
        QDir().mkpath(machine.folders.machine);
        QVERIFY(QFile::link(elsewhere, machine.folders.receipts(machine.folders.machine)));

        Findings refused;
        QVERIFY(installedReceipts(actingAs(secured, true, kAdministrator), &refused).isEmpty());
        QCOMPARE(findingIds(refused), QStringList{QStringLiteral("state.untrusted-receipt")});
        QVERIFY2(refused.first().details.contains(QStringLiteral("link")),
                 qPrintable(refused.first().details));

        QVERIFY(QDir(machine.folders.machine).removeRecursively());
        QVERIFY(QFile::link(elsewhere, machine.folders.machine));
        const Expected<void> error =
            machine.folders.prepare(machine.folders.machine, secured, FixedElevation(true, kAdministrator));
        QVERIFY(!error);
        QCOMPARE(error.error().id, QStringLiteral("state.folder-failed"));
        QVERIFY(security->protectedFolders().isEmpty());
    }
#endif
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestStateTrust)
#include "tst_statetrust.moc"
