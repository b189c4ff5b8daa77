// What a planted journal or receipt can make an elevated run do: nothing. Journals whose roots
// hold a drive, Program Files or the Windows folder, whose backup folder or steps leave their
// roots, that change the machine environment from a user's folder, set a value no install sets,
// or whose PATH record is not its own edit are set aside, named in a finding, and every byte they
// point at stays as it was; a journal an install really left is still rolled back, and a journal
// is replayed only at the integrity level that wrote it. Receipts likewise.
#include "Cudnnctl.h"
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

const QString kSystemPath = QStringLiteral("%SystemRoot%\\system32;C:\\Tools");

// Answers "elevated?" as told, for the integrity-level rule.
class FixedElevation final : public Elevation
{
public:
    explicit FixedElevation(bool elevated)
        : m_elevated(elevated)
    {
    }
    bool isElevated() const override { return m_elevated; }
    bool isLocalSystem() const override { return false; }
    bool isAdministratorsMember() const override { return m_elevated; }
    UacState uacState() const override { return UacState::Enabled; }
    Expected<int> runElevated(const QString &, const QStringList &, const QString &) const override
    {
        return 0;
    }

private:
    bool m_elevated;
};

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
        environment->set(EnvironmentScope::Machine, QStringLiteral("PATH"), {kSystemPath, true});
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
        if (!header.contains(QStringLiteral("elevated")))
            header.insert(QStringLiteral("elevated"), Elevation::host().isElevated());
        QDir().mkpath(folder);
        QFile file(folders.journal(folder));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(rebased(header));
        for (const QJsonObject &line : lines)
            file.write(rebased(line));
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
        const auto machinePath =
            operations::addPathEntry(OsFamily::Windows, EnvironmentScope::Machine,
                                     QStringLiteral("C:\\Users\\Public\\evil"), true, {});
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
            operations::setEnvironmentValue(EnvironmentScope::Machine, QStringLiteral("ComSpec"),
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
        const auto pathBefore = machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH"));

        const Findings findings = recoverUnfinished(machine.context, machine.environment);
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("state.untrusted-journal")});
        QVERIFY2(findings.first().details.contains(reason), qPrintable(findings.first().details));
        QVERIFY(!QFileInfo::exists(machine.folders.journal(folder)));
        QCOMPARE(machine.setAside(folder).size(), 1);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
        QCOMPARE(machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH")), pathBefore);
        QCOMPARE(machine.environment->writeCount(), 0);
    }

    // What the doctor really does in System32 (a stale cuDNN renamed aside), stopped by a crash:
    // the journal is trusted and rolled back.
    void aRepairInSystem32IsStillRolledBack()
    {
        Machine machine;
        const QString stale = machine.host(QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll"));
        const TreeSnapshot before = machine.tree();
        OperationContext context;
        context.environment = machine.environment;
        context.backupFolder = machine.folders.machine + QStringLiteral("/repair-backup");
        context.crashAt = [](const FaultPoint &point) {
            return point.stage == FaultPoint::Stage::AfterPerform;
        };
        Transaction repair(QStringLiteral("repair-1"), QStringLiteral("repair"),
                           machine.folders.journal(machine.folders.machine), context,
                           {QFileInfo(stale).absolutePath()});
        repair.add(operations::moveIntoPlace(stale, stale + QStringLiteral(".cudnn-setup-aside")));
        QCOMPARE(repair.run().outcome, Transaction::Outcome::Crashed);
        QVERIFY(machine.tree() != before);

        const Findings findings = recoverUnfinished(machine.context, machine.environment);
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("install.recovered-rollback")});
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // A journal is replayed only by a process at the level that wrote it: an elevated one is not
    // settled by the user's own process, nor the other way round; it stays for its own kind.
    void aJournalWaitsForItsOwnIntegrityLevel()
    {
        for (const bool writtenElevated : {true, false}) {
            Machine machine;
            machine.plantJournal(machine.folders.user,
                                 {{QStringLiteral("backupFolder"), QStringLiteral("@ROOT@/cudnn/.b")},
                                  {QStringLiteral("roots"), QJsonArray{QStringLiteral("@ROOT@/cudnn")}},
                                  {QStringLiteral("elevated"), writtenElevated}},
                                 {});
            QVERIFY(recoverUnfinished(machine.context, machine.environment, FixedElevation(!writtenElevated))
                        .isEmpty());
            QVERIFY(QFileInfo::exists(machine.folders.journal(machine.folders.user)));
            QCOMPARE(findingIds(recoverUnfinished(machine.context, machine.environment,
                                                  FixedElevation(writtenElevated))),
                     QStringList{QStringLiteral("install.recovered-rollback")});
            QVERIFY(!QFileInfo::exists(machine.folders.journal(machine.folders.user)));
        }
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
        planted.target = {{QStringLiteral("root"), QStringLiteral("C:\\cudnn")}};
        planted.files.append(
            {QStringLiteral("C:\\Windows\\System32\\kernel32.dll"),
             QString::fromLatin1(
                 QCryptographicHash::hash("the real kernel32", QCryptographicHash::Sha256).toHex()),
             17, QStringLiteral("C:\\Users\\Public\\evil\\cudnn64_9.dll")});
        write(QStringLiteral("planted.json"), planted);
        Receipt wideRoot = planted;
        wideRoot.id = QStringLiteral("cudnn-9.1.0-cuda12-wide");
        wideRoot.target = {{QStringLiteral("root"), QStringLiteral("C:\\")}};
        wideRoot.files = {{QStringLiteral("C:\\Data\\thesis.docx"), QString(), 18, QString()}};
        write(QStringLiteral("wide.json"), wideRoot);
        Receipt machineFromUser;
        machineFromUser.id = QStringLiteral("cudnn-9.1.0-cuda12-user");
        machineFromUser.target = {{QStringLiteral("root"), QStringLiteral("C:\\cudnn")}};
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
        honest.target = {{QStringLiteral("root"), QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1")}};
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
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestStateTrust)
#include "tst_statetrust.moc"
