// The install engine's promise: a transaction leaves the files and the environment exactly as
// they were before it, or exactly as they are after it, whatever stops it and wherever. Every
// operation's perform → undo round trip, a crash at every operation boundary and inside a copy
// (then recovery by a fresh start), a failing operation, a cancel; the trees compared in full.
#include "Suite.h"
#include "TreeSnapshot.h"
#include "install/Journal.h"
#include "install/Operations.h"
#include "install/PathEditor.h"
#include "install/Transaction.h"
#include "platform/FilesInUse.h"
#include "platform/MemoryEnvironment.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <cerrno>
#endif

using namespace cudnnsetup;

namespace {

const QStringList kVariables = {QStringLiteral("PATH"), QStringLiteral("CUDNN_PATH")};

// Every file (with its content's hash), folder and environment value under test.
struct World
{
    TreeSnapshot tree;
    QMap<QString, QString> environment;

    bool operator==(const World &other) const
    {
        return tree == other.tree && environment == other.environment;
    }
    QString describe(const World &other) const
    {
        QStringList lines{tree.difference(other.tree)};
        for (auto it = environment.cbegin(); it != environment.cend(); ++it) {
            if (other.environment.value(it.key()) != it.value())
                lines.append(it.key() + QStringLiteral("=") + it.value() + QStringLiteral(" / ") +
                             other.environment.value(it.key()));
        }
        return lines.join(QLatin1Char('\n'));
    }
};

World capture(const QString &root, const PersistentEnvironment &environment, const QStringList &skip = {})
{
    World world;
    world.tree = TreeSnapshot::of(root, skip);
    for (const EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::System}) {
        for (const QString &name : kVariables) {
            const auto value = environment.read(scope, name);
            const QString key = operations::scopeName(scope) + QLatin1Char(':') + name;
            if (!value)
                world.environment.insert(key, QStringLiteral("<unreadable>"));
            else if (value->has_value())
                world.environment.insert(
                    key, (value->value().expandable ? QStringLiteral("expand:") : QStringLiteral("sz:")) +
                             value->value().text);
        }
    }
    return world;
}

bool write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

} // namespace

class TestTransaction : public QObject
{
    Q_OBJECT

    // A target with an older cuDNN in it, a staging folder with the new files, a source folder
    // for copies, and environment values of both kinds; the state folder holds the journal.
    struct Scene
    {
        QTemporaryDir dir;
        std::shared_ptr<MemoryEnvironment> environment = std::make_shared<MemoryEnvironment>();
        QString root() const { return dir.path() + QStringLiteral("/system"); }
        QString state() const { return dir.path() + QStringLiteral("/state"); }
        QString journal() const { return state() + QStringLiteral("/install.journal"); }

        Scene()
        {
            QDir().mkpath(state()); // ProgramData\cuDNN Setup: it stays
            write(root() + QStringLiteral("/cuda/bin/cudnn64_9.dll"), "old cudnn 9.1");
            write(root() + QStringLiteral("/cuda/bin/cudart64_12.dll"), "cudart");
            write(root() + QStringLiteral("/staging/cudnn64_9.dll"), QByteArray(3 << 20, 'n'));
            write(root() + QStringLiteral("/staging/cudnn_ops64_9.dll"), "new ops");
            write(root() + QStringLiteral("/source/cudnn.h"), QByteArray(5 << 20, 'h'));
            write(root() + QStringLiteral("/cuda/bin/libcudnn.so.9"), "an older file in the link's place");
            environment->set(EnvironmentScope::User, QStringLiteral("PATH"),
                             {QStringLiteral("%USERPROFILE%\\bin;C:\\Tools"), true});
            environment->set(EnvironmentScope::System, QStringLiteral("CUDNN_PATH"),
                             {QStringLiteral("C:\\old"), false});
        }

        OperationContext context() const
        {
            OperationContext context;
            context.environment = environment;
            context.backupFolder = state() + QStringLiteral("/backup");
            return context;
        }

        // An install's worth of every kind of operation.
        void fill(Transaction &transaction) const
        {
            const QString bin = root() + QStringLiteral("/cuda/bin");
            const QString include = root() + QStringLiteral("/cuda/include/cudnn");
            transaction.add(operations::makeDirectory(include));
            transaction.add(operations::makeDirectory(state() + QStringLiteral("/kept")));
            transaction.add(operations::moveIntoPlace(root() + QStringLiteral("/staging/cudnn64_9.dll"),
                                                      bin + QStringLiteral("/cudnn64_9.dll"),
                                                      state() + QStringLiteral("/kept/cudnn64_9.dll")));
            transaction.add(operations::moveIntoPlace(root() + QStringLiteral("/staging/cudnn_ops64_9.dll"),
                                                      bin + QStringLiteral("/cudnn_ops64_9.dll")));
            transaction.add(operations::copyFile(root() + QStringLiteral("/source/cudnn.h"),
                                                 include + QStringLiteral("/cudnn.h")));
#ifndef Q_OS_WIN
            // A tar's soname links (issue 34): one replacing a file, kept for the uninstall; one new.
            transaction.add(operations::makeSymlink(QStringLiteral("cudnn64_9.dll"),
                                                    bin + QStringLiteral("/libcudnn.so.9"),
                                                    state() + QStringLiteral("/kept/libcudnn.so.9")));
            transaction.add(operations::makeSymlink(QStringLiteral("libcudnn.so.9"),
                                                    bin + QStringLiteral("/libcudnn.so")));
#endif
            transaction.add(operations::setEnvironmentValue(
                EnvironmentScope::System, QStringLiteral("CUDNN_PATH"), StoredEnvironmentValue{bin, false}));
            transaction.add(operations::setEnvironmentValue(
                EnvironmentScope::User, QStringLiteral("CUDNN_PATH"), StoredEnvironmentValue{bin, true}));
            transaction.add(
                operations::addPathEntry(OsFamily::Windows, EnvironmentScope::System,
                                         QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin")));
            transaction.add(operations::removePathEntry(OsFamily::Windows, EnvironmentScope::User,
                                                        QStringLiteral("c:\\tools\\")));
            transaction.add(operations::removeFile(root() + QStringLiteral("/cuda/bin/cudart64_12.dll")));
            transaction.add(operations::makeDirectory(state() + QStringLiteral("/receipts")));
            transaction.add(
                operations::writeFile(state() + QStringLiteral("/receipts/r.json"), "{\"id\":1}"));
        }
    };

private Q_SLOTS:
    // What a committed install leaves: new files in place, the old DLL kept for an uninstall, the
    // environment set, no journal and no backups.
    void commitLeavesTheAfterState()
    {
        Scene scene;
        Transaction transaction(QStringLiteral("t1"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        QList<int> done;
        const Transaction::Result result =
            transaction.run([&](int index, int, const Text &) { done.append(index); });
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::Committed));
        QVERIFY(result.findings.isEmpty());
        QCOMPARE(done.size(), transaction.size() + 1);
        QFile dll(scene.root() + QStringLiteral("/cuda/bin/cudnn64_9.dll"));
        QVERIFY(dll.open(QIODevice::ReadOnly));
        QCOMPARE(dll.size(), qint64(3 << 20));
        QFile kept(scene.state() + QStringLiteral("/kept/cudnn64_9.dll"));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("old cudnn 9.1"));
        QVERIFY(!QFileInfo::exists(scene.root() + QStringLiteral("/cuda/bin/cudart64_12.dll")));
        QVERIFY(!QFileInfo::exists(scene.journal()));
        QVERIFY(!QFileInfo::exists(scene.state() + QStringLiteral("/backup")));
        QCOMPARE(scene.environment->read(EnvironmentScope::User, QStringLiteral("CUDNN_PATH"))->value(),
                 (StoredEnvironmentValue{scene.root() + QStringLiteral("/cuda/bin"), true}));
        // PATH edited one entry at a time: the machine PATH made as REG_EXPAND_SZ, C:\Tools taken
        // out of the user PATH and the rest of it kept.
        QCOMPARE(
            *scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH")),
            (StoredEnvironmentValue{QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin"), true}));
        QCOMPARE(*scene.environment->value(EnvironmentScope::User, QStringLiteral("PATH")),
                 (StoredEnvironmentValue{QStringLiteral("%USERPROFILE%\\bin"), true}));
        QVERIFY(scene.environment->announceCount() >= 2);
    }

    // Every operation undone right after it was done gives back the world before it.
    void everyOperationRoundTrips_data()
    {
        QTest::addColumn<int>("index");
        Scene scene;
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        for (int i = 0; i < transaction.size(); ++i)
            QTest::newRow(qPrintable(transaction.at(i).name() + QString::number(i))) << i;
    }
    void everyOperationRoundTrips()
    {
        QFETCH(int, index);
        Scene scene;
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        // The operations before it run for real, so it meets the world it would meet.
        Transaction before(QStringLiteral("t0"), QStringLiteral("install"), scene.journal(), scene.context());
        scene.fill(before);
        OperationContext context = scene.context();
        QJsonObject remembered;
        context.remember = [&](const QJsonObject &state) { remembered = state; };
        for (int i = 0; i < index; ++i) {
            context.sequence = i;
            QVERIFY(const_cast<Operation &>(before.at(i)).perform(context).ok());
        }
        const World start = capture(scene.dir.path(), *scene.environment, {QStringLiteral("state/backup")});
        Operation &operation = const_cast<Operation &>(transaction.at(index));
        context.sequence = index;
        QVERIFY(operation.perform(context).ok());
        const World after = capture(scene.dir.path(), *scene.environment, {QStringLiteral("state/backup")});
        QVERIFY2(!(after == start), qPrintable(operation.name())); // it did something
        QVERIFY(operation.undo(context, remembered).ok());
        const World undone = capture(scene.dir.path(), *scene.environment, {QStringLiteral("state/backup")});
        QVERIFY2(undone == start, qPrintable(undone.describe(start)));
        // A second undo changes nothing.
        QVERIFY(operation.undo(context, remembered).ok());
        QVERIFY(capture(scene.dir.path(), *scene.environment, {QStringLiteral("state/backup")}) == start);
    }

    // A crash at any point, then the next start: before the commit the world is as before, after it
    // as after; never anything in between, never a journal left.
    void crashAnywhereThenRecover_data()
    {
        QTest::addColumn<int>("sequence");
        QTest::addColumn<int>("stage");
        Scene scene;
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        for (int i = 0; i < transaction.size(); ++i) {
            QTest::newRow(qPrintable(QStringLiteral("before %1 %2").arg(i).arg(transaction.at(i).name())))
                << i << int(FaultPoint::Stage::BeforePerform);
            QTest::newRow(qPrintable(QStringLiteral("after %1 %2").arg(i).arg(transaction.at(i).name())))
                << i << int(FaultPoint::Stage::AfterPerform);
            if (transaction.at(i).name() == QLatin1String("copy-file"))
                QTest::newRow(qPrintable(QStringLiteral("inside %1 copy").arg(i)))
                    << i << int(FaultPoint::Stage::InsideCopy);
        }
        QTest::newRow("after the commit") << transaction.size() << int(FaultPoint::Stage::AfterCommit);
    }
    void crashAnywhereThenRecover()
    {
        QFETCH(int, sequence);
        QFETCH(int, stage);
        // The after-world, from a transaction that ran undisturbed.
        World afterWorld;
        {
            Scene clean;
            Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), clean.journal(),
                                    clean.context());
            clean.fill(transaction);
            QCOMPARE(int(transaction.run().outcome), int(Transaction::Outcome::Committed));
            afterWorld = capture(clean.dir.path(), *clean.environment);
            // Files are compared by their path in the scene; the environment names the scene's paths.
            for (auto it = afterWorld.environment.begin(); it != afterWorld.environment.end(); ++it)
                it.value().replace(clean.dir.path(), QStringLiteral("<scene>"));
        }

        Scene scene;
        const World before = capture(scene.dir.path(), *scene.environment);
        OperationContext context = scene.context();
        context.crashAt = [&](const FaultPoint &point) {
            return point.sequence == sequence && int(point.stage) == stage;
        };
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(), context);
        scene.fill(transaction);
        QCOMPARE(int(transaction.run().outcome), int(Transaction::Outcome::Crashed));
        QVERIFY(QFileInfo::exists(scene.journal()));

        // The next start.
        const Findings findings = Transaction::recover(scene.journal(), scene.context());
        QVERIFY(!QFileInfo::exists(scene.journal()));
        QVERIFY(!QFileInfo::exists(scene.state() + QStringLiteral("/backup")));
        World now = capture(scene.dir.path(), *scene.environment);
        const bool committed = stage == int(FaultPoint::Stage::AfterCommit);
        QCOMPARE(findings.first().id, committed ? QStringLiteral("install.recovered-commit")
                                                : QStringLiteral("install.recovered-rollback"));
        QCOMPARE(findings.size(), 1); // nothing an undo could not put back
        if (committed) {
            for (auto it = now.environment.begin(); it != now.environment.end(); ++it)
                it.value().replace(scene.dir.path(), QStringLiteral("<scene>"));
            QVERIFY2(now == afterWorld, qPrintable(now.describe(afterWorld)));
        } else {
            QVERIFY2(now == before, qPrintable(now.describe(before)));
        }
    }

    // An operation that fails (here: the environment refuses a write) undoes everything before it.
    void failureRollsBack_data()
    {
        QTest::addColumn<int>("writesAllowed");
        QTest::newRow("first environment write") << 0;
        QTest::newRow("second environment write") << 1;
    }
    void failureRollsBack()
    {
        QFETCH(int, writesAllowed);
        Scene scene;
        const World before = capture(scene.dir.path(), *scene.environment);
        scene.environment->failWritesAfter(writesAllowed);
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        const Transaction::Result result = transaction.run();
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::RolledBack));
        QVERIFY(!result.findings.isEmpty());
        scene.environment->failWritesAfter(-1);
        const World now = capture(scene.dir.path(), *scene.environment);
        QVERIFY2(now == before, qPrintable(now.describe(before)));
        QVERIFY(!QFileInfo::exists(scene.journal()));
    }

    // A file operation that cannot be done (its folder is a file) undoes everything before it.
    void fileFailureRollsBack()
    {
        Scene scene;
        write(scene.root() + QStringLiteral("/blocker"), "a file where a folder should be");
        const World before = capture(scene.dir.path(), *scene.environment);
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        transaction.add(operations::makeDirectory(scene.root() + QStringLiteral("/blocker/sub")));
        const Transaction::Result result = transaction.run();
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::RolledBack));
        QCOMPARE(result.findings.first().id, QStringLiteral("install.file-failed"));
        QVERIFY(capture(scene.dir.path(), *scene.environment) == before);
    }

    // A failure says why, from the system's error: the rights this account lacks (never "close
    // programs"), a file another program holds, or anything else.
    void fileFailureSaysWhy_data()
    {
        QTest::addColumn<int>("systemError");
        QTest::addColumn<QString>("id");
#ifdef Q_OS_WIN
        QTest::newRow("access denied") << int(ERROR_ACCESS_DENIED) << "install.needs-administrator";
        QTest::newRow("sharing violation") << int(ERROR_SHARING_VIOLATION) << "install.file-in-use";
        QTest::newRow("disk full") << int(ERROR_DISK_FULL) << "install.file-failed";
#else
        QTest::newRow("access denied") << int(EACCES) << "install.needs-administrator";
        QTest::newRow("not permitted") << int(EPERM) << "install.needs-administrator";
        QTest::newRow("running program") << int(ETXTBSY) << "install.file-in-use";
        QTest::newRow("disk full") << int(ENOSPC) << "install.file-failed";
#endif
        QTest::newRow("no system error") << 0 << "install.file-failed";
    }
    void fileFailureSaysWhy()
    {
        QFETCH(int, systemError);
        QFETCH(QString, id);
        QTemporaryDir dir;
        const QString dll = dir.filePath(QStringLiteral("cudnn64_9.dll")); // not there: held by no one
        OperationContext context;
        context.filesInUse = &FilesInUse::host();
        const Finding finding = operations::fileFailure(
            context, dll, SystemFailure{QStringLiteral("refused"), systemError, {dll}});
        QCOMPARE(finding.id, id);
        QCOMPARE(finding.details, QStringLiteral("refused"));
        QCOMPARE(finding.fix.toEnglish().contains(QStringLiteral("Close programs")),
                 id == QLatin1String("install.file-failed"));
    }

    // Cancelled between operations: undone, and said so.
    void cancelRollsBack()
    {
        Scene scene;
        const World before = capture(scene.dir.path(), *scene.environment);
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        int asked = 0;
        const Transaction::Result result = transaction.run({}, [&] { return ++asked > 4; });
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::Cancelled));
        QVERIFY(capture(scene.dir.path(), *scene.environment) == before);
    }

    // A PATH of 5,000 characters with %VARS%, an empty entry and a trailing ';', as REG_SZ: our
    // entry goes in and comes out, and every other byte and the type stay.
    void longPathRoundTripsByteForByte()
    {
        QString raw;
        for (int i = 0; raw.size() < 5000; ++i)
            raw += (i % 3 ? QStringLiteral("C:\\Tools\\tool%1\\bin;").arg(i)
                          : QStringLiteral("%SystemRoot%\\x%1;;").arg(i));
        const StoredEnvironmentValue original{raw, false};
        Scene scene;
        scene.environment->set(EnvironmentScope::System, QStringLiteral("PATH"), original);
        OperationContext context = scene.context();
        QJsonObject remembered;
        context.remember = [&](const QJsonObject &state) { remembered = state; };
        const QString ours = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
        auto add = operations::addPathEntry(OsFamily::Windows, EnvironmentScope::System, ours);
        QVERIFY(add->perform(context).ok());
        const StoredEnvironmentValue added =
            *scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH"));
        QCOMPARE(added.text, ours + QLatin1Char(';') + raw);
        QCOMPARE(added.expandable, false);
        QVERIFY(add->undo(context, remembered).ok());
        QCOMPARE(*scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH")), original);

        // Someone edits PATH in between: the undo takes out only ours.
        QVERIFY(add->perform(context).ok());
        StoredEnvironmentValue edited =
            *scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH"));
        edited.text += QStringLiteral("D:\\Later");
        scene.environment->set(EnvironmentScope::System, QStringLiteral("PATH"), edited);
        QVERIFY(add->undo(context, remembered).ok());
        QCOMPARE(scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 raw + QStringLiteral("D:\\Later"));

        // Already there (written another way): nothing changes, nothing to undo.
        scene.environment->set(
            EnvironmentScope::System, QStringLiteral("PATH"),
            {QStringLiteral("\"c:\\program files\\nvidia\\cudnn\\v9.1\\bin\\\";C:\\x"), true});
        const int writes = scene.environment->writeCount();
        QVERIFY(add->perform(context).ok());
        QCOMPARE(scene.environment->writeCount(), writes);
    }

    // The fixes the user ticked go in with our entry, in the same write; undo gives PATH back.
    void chosenPathFixesAreAppliedAndUndone()
    {
        Scene scene;
        // Ours is on PATH already, but an old cuDNN comes first and would be loaded instead.
        const QString ours = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
        const StoredEnvironmentValue original{QStringLiteral("C:\\old\\cudnn\\bin;C:\\Tools;") + ours, true};
        scene.environment->set(EnvironmentScope::System, QStringLiteral("PATH"), original);
        const PathEditor editor(OsFamily::Windows);
        const PathAnalysis analysis = editor.analyse(original.text, ours, [](const QString &folder) {
            return folder.contains(QLatin1String("cudnn"));
        });
        QCOMPARE(analysis.recommended.size(), 1);
        QCOMPARE(analysis.recommended.first().action, PathFix::Action::MoveBehindOurs);

        OperationContext context = scene.context();
        QJsonObject remembered;
        context.remember = [&](const QJsonObject &state) { remembered = state; };
        auto add = operations::addPathEntry(OsFamily::Windows, EnvironmentScope::System, ours, true,
                                            analysis.recommended);
        // Made again from its journal entry, as a recovery would: the fixes travel with it.
        auto replayed = Operation::create(add->name(), add->arguments());
        QVERIFY(replayed);
        QVERIFY(replayed->perform(context).ok());
        QCOMPARE(scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 QStringLiteral("C:\\Tools;") + ours + QStringLiteral(";C:\\old\\cudnn\\bin"));
        QCOMPARE(analysis.preview.after.join(QLatin1Char(';')),
                 scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text);
        QVERIFY(replayed->undo(context, remembered).ok());
        QCOMPARE(*scene.environment->value(EnvironmentScope::System, QStringLiteral("PATH")), original);
    }

    // A PATH that is not plain text (a NUL inside) is never rewritten: the step fails, the
    // transaction rolls back, and the stored bytes stay as they were.
    void pathThatIsNotTextIsLeftAlone()
    {
        Scene scene;
        const QByteArray raw("C\0:\0\\\0a\0\0\0;\0b\0\0\0", 16); // "C:\a", NUL, ";b", NUL
        scene.environment->setRegistryData(EnvironmentScope::System, QStringLiteral("PATH"),
                                           PersistentEnvironment::RegistryExpandString, raw);
        const World before = capture(scene.dir.path(), *scene.environment);
        Transaction transaction(QStringLiteral("t"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        const Transaction::Result result = transaction.run();
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::RolledBack));
        QCOMPARE(result.findings.first().id, QStringLiteral("environment.not-text"));
        QVERIFY2(capture(scene.dir.path(), *scene.environment) == before, "");
        QCOMPARE(scene.environment->writeCount(), scene.environment->attemptCount());
        const auto stored = scene.environment->read(EnvironmentScope::System, QStringLiteral("PATH"));
        QVERIFY(!stored);
        QVERIFY(stored.error().details.contains(QStringLiteral("00")));
    }

    // What a crashed writer leaves: a last line cut short is not part of the journal.
    void journalIgnoresATornLastLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("j"));
        auto journal = Journal::create(path, {{QStringLiteral("id"), QStringLiteral("x")}});
        QVERIFY(journal);
        QVERIFY(
            journal.value()
                .begin(0, QStringLiteral("make-directory"), {{QStringLiteral("path"), QStringLiteral("/a")}})
                .ok());
        QVERIFY(
            journal.value().state(0, {{QStringLiteral("created"), QJsonArray{QStringLiteral("/a")}}}).ok());
        QVERIFY(journal.value().done(0).ok());
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("{\"commit\":tr");
        file.close();
        const auto contents = Journal::read(path);
        QVERIFY(contents);
        QCOMPARE(contents->id, QStringLiteral("x"));
        QCOMPARE(contents->entries.size(), 1);
        QVERIFY(contents->entries.first().done);
        QCOMPARE(contents->entries.first().state.value(QStringLiteral("created")).toArray().size(), 1);
        QVERIFY(!contents->committed);
    }

    // The replaced file cannot be kept where the receipt says (something is in the way): the
    // install stops before its commit and everything is as before; no backup is dropped.
    void aKeepThatFailsRollsBack()
    {
        Scene scene;
        QVERIFY(QDir().mkpath(scene.state() + QStringLiteral("/kept/cudnn64_9.dll/in the way")));
        const World before = capture(scene.dir.path(), *scene.environment);
        Transaction transaction(QStringLiteral("k"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        scene.fill(transaction);
        const Transaction::Result result = transaction.run();
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::RolledBack));
        QStringList ids;
        for (const Finding &finding : result.findings)
            ids.append(finding.id);
        // Windows answers "access denied" for a folder in the way: "needs administrator" there.
        QCOMPARE(ids.size(), 1);
        QVERIFY(result.findings.first().message.toEnglish().contains(QStringLiteral("cudnn64_9.dll")));
        const World after = capture(scene.dir.path(), *scene.environment);
        QVERIFY2(after == before, qPrintable(after.describe(before)));
    }

    // An undo that fails (a folder has taken the new file's place) keeps the journal and every
    // backup, and says so; at the next start, once the obstacle is gone, the rollback completes
    // and the world is as before.
    void aFailedUndoIsTriedAgainAtTheNextStart()
    {
        Scene scene;
        const QString cudart = scene.root() + QStringLiteral("/cuda/bin/cudart64_12.dll");
        const QString staged = scene.root() + QStringLiteral("/staging/cudnn_ops64_9.dll");
        const World before = capture(scene.dir.path(), *scene.environment);
        Transaction transaction(QStringLiteral("u"), QStringLiteral("install"), scene.journal(),
                                scene.context());
        transaction.add(operations::moveIntoPlace(staged, cudart)); // replaces it, backed up
        // Fails: a file is where its folder would be.
        transaction.add(operations::writeFile(scene.root() + QStringLiteral("/source/cudnn.h/x"), "x"));
        const Transaction::Result result = transaction.run([&](int index, int, const Text &) {
            if (index == 1) {
                QFile::remove(cudart);
                QDir().mkpath(cudart + QStringLiteral("/in the way"));
                write(staged, "new ops");
            }
        });
        QCOMPARE(int(result.outcome), int(Transaction::Outcome::RolledBack));
        QStringList ids;
        for (const Finding &finding : result.findings)
            ids.append(finding.id);
        // The write that failed, the undo that failed (its id is Windows' "access denied" there),
        // and what happens now.
        QCOMPARE(ids.size(), 3);
        QCOMPARE(ids.first(), QStringLiteral("install.file-failed"));
        QVERIFY(result.findings.at(1).message.toEnglish().contains(QStringLiteral("cudart64_12.dll")));
        QCOMPARE(ids.last(), QStringLiteral("install.kept-for-next-start"));
        QCOMPARE(result.findings.last().severity, Severity::Error);
        QVERIFY(QFileInfo::exists(scene.journal()));
        QFile backup(scene.state() + QStringLiteral("/backup/0/cudart64_12.dll"));
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), QByteArray("cudart"));
        backup.close();

        // The next start, with the obstacle gone.
        QVERIFY(QDir(cudart).removeRecursively());
        const Findings recovered = Transaction::recover(scene.journal(), scene.context());
        QCOMPARE(recovered.size(), 1);
        QCOMPARE(recovered.first().id, QStringLiteral("install.recovered-rollback"));
        const World after = capture(scene.dir.path(), *scene.environment);
        QVERIFY2(after == before, qPrintable(after.describe(before)));
    }

    // The same at the next start: while the undo still fails, the journal stays and the message
    // does not say the system is as it was.
    void aRecoveryThatCannotUndoSaysSo()
    {
        Scene scene;
        const QString cudart = scene.root() + QStringLiteral("/cuda/bin/cudart64_12.dll");
        {
            auto journal = Journal::create(
                scene.journal(),
                {{QStringLiteral("id"), QStringLiteral("r")},
                 {QStringLiteral("kind"), QStringLiteral("install")},
                 {QStringLiteral("backupFolder"), scene.state() + QStringLiteral("/backup")}});
            QVERIFY(journal);
            QVERIFY(journal.value()
                        .begin(0, QStringLiteral("move-into-place"),
                               operations::moveIntoPlace(
                                   scene.root() + QStringLiteral("/staging/cudnn_ops64_9.dll"), cudart)
                                   ->arguments())
                        .ok());
            QVERIFY(journal.value().state(0, {{QStringLiteral("replaced"), true}}).ok());
        }
        // It had set the old file aside and put a folder in its place.
        QVERIFY(write(scene.state() + QStringLiteral("/backup/0/cudart64_12.dll"), "cudart"));
        QVERIFY(QFile::remove(cudart));
        QVERIFY(QDir().mkpath(cudart + QStringLiteral("/in the way")));
        const Findings findings = Transaction::recover(scene.journal(), scene.context());
        QStringList ids;
        for (const Finding &finding : findings)
            ids.append(finding.id);
        QCOMPARE(ids.size(), 3);
        QCOMPARE(ids.first(), QStringLiteral("install.recovery-incomplete"));
        QVERIFY(findings.at(1).message.toEnglish().contains(QStringLiteral("cudart64_12.dll")));
        QCOMPARE(ids.last(), QStringLiteral("install.kept-for-next-start"));
        for (const Finding &finding : findings)
            QVERIFY(!finding.message.toEnglish().contains(QStringLiteral("as it was before")));
        QVERIFY(QFileInfo::exists(scene.journal()));
        QVERIFY(QFileInfo::exists(scene.state() + QStringLiteral("/backup/0/cudart64_12.dll")));
    }

    // A journal naming an operation this build does not know: the rest is undone, and the
    // unknown step is reported, not skipped in silence.
    void unknownOperationIsReported()
    {
        Scene scene;
        const World before = capture(scene.dir.path(), *scene.environment);
        {
            auto journal =
                Journal::create(scene.journal(), {{QStringLiteral("id"), QStringLiteral("y")},
                                                  {QStringLiteral("kind"), QStringLiteral("install")}});
            QVERIFY(journal);
            QVERIFY(journal.value()
                        .begin(0, QStringLiteral("make-directory"),
                               {{QStringLiteral("path"), scene.root() + QStringLiteral("/new")}})
                        .ok());
            QVERIFY(journal.value()
                        .state(0, {{QStringLiteral("created"),
                                    QJsonArray{scene.root() + QStringLiteral("/new")}}})
                        .ok());
            QVERIFY(QDir().mkdir(scene.root() + QStringLiteral("/new")));
            QVERIFY(journal.value().begin(1, QStringLiteral("from-the-future"), {}).ok());
        }
        const Findings findings = Transaction::recover(scene.journal(), scene.context());
        QStringList ids;
        for (const Finding &finding : findings)
            ids.append(finding.id);
        QVERIFY2(ids.contains(QStringLiteral("install.undo-failed")), qPrintable(ids.join(QLatin1Char(','))));
        QVERIFY(capture(scene.dir.path(), *scene.environment) == before);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTransaction)
#include "tst_transaction.moc"
