// `cudnnctl install` and `uninstall` run as lab IT runs them, on a sandbox Windows tree: the files
// placed and the receipt written, the same install again a no-op, an uninstall that gives the tree
// back, a changed file refused, the process killed at points of the transaction and the next start
// rolling back (or finishing) what it left, the machine's lock, bad input.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
#include "TarWriter.h"
#endif
#include "TreeSnapshot.h"
#include "ZipWriter.h"
#include "platform/Elevation.h"
#include "platform/InstallLock.h"
#include "platform/SystemPaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#ifndef Q_OS_WIN
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace {

const QString kVersion = QStringLiteral("9.1.0.70");
const QString kTarget = QStringLiteral("dir:C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");

// The code a caller sees: Windows keeps all 32 bits, other systems the low 8.
int exitCode(int windowsCode)
{
    return cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows ? windowsCode : windowsCode & 0xff;
}

} // namespace

class TestCudnnctlInstall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_archives; // outside every sandbox, so a sandbox's tree is only what it holds
    archives::StandIn m_standIn;
    QString m_archive;
    QString m_linuxArchive; // NVIDIA's Linux archive of 9.19 for CUDA 13, as a zip

    struct Machine
    {
        Sandbox sandbox;
        QProcessEnvironment environment = sandboxEnvironment();
        QString database; // the --compat-db that takes the test-made archive for NVIDIA's
        QString program = BuildPaths::cudnnctl();

        explicit Machine(QString compatDatabase)
            : database(std::move(compatDatabase))
        {
            trees::windowsSystem(sandbox);
            sandbox.mkdir(QStringLiteral("C:\\Program Files"));
            sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
            environment.insert(QStringLiteral("ProgramData"), QStringLiteral("C:\\ProgramData"));
            environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("C:\\Program Files"));
            environment.insert(QStringLiteral("LOCALAPPDATA"),
                               QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
            environment.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\lab"));
        }
        // What the install changes, without cuDNN Setup's own bookkeeping (journal, receipts).
        TreeSnapshot tree() const
        {
            return TreeSnapshot::of(sandbox.root(), {QStringLiteral("ProgramData"),
                                                     QStringLiteral("Users/lab/AppData/Local/cuDNN Setup")});
        }
        CudnnctlRun run(QStringList arguments, const QProcessEnvironment &extra = {},
                        const QString &workingDirectory = {}) const
        {
            arguments << QStringLiteral("--system-root") << sandbox.root() << QStringLiteral("--lang")
                      << QStringLiteral("en") << QStringLiteral("--compat-db") << database;
            QProcessEnvironment environment = this->environment;
            for (const QString &key : extra.keys())
                environment.insert(key, extra.value(key));
            return runCudnnctl(arguments, environment, program, workingDirectory);
        }
        CudnnctlRun install(const QString &archive, const QStringList &more = {},
                            const QProcessEnvironment &extra = {}) const
        {
            return run(QStringList{QStringLiteral("install"), QStringLiteral("--archive"), archive,
                                   QStringLiteral("--target"), kTarget, QStringLiteral("--path"),
                                   QStringLiteral("none"), QStringLiteral("--json")} +
                           more,
                       extra);
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_archives.isValid());
        m_standIn = archives::writeStandIn(m_archives.path(), kVersion, QStringLiteral("12"));
        m_archive = m_standIn.archive;
        m_linuxArchive =
            m_archives.filePath(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.zip"));
        QFile linuxZip(m_linuxArchive);
        QVERIFY(linuxZip.open(QIODevice::WriteOnly));
        QVERIFY(linuxZip.write(archives::linuxZip(QStringLiteral("9.19.0.56"), QStringLiteral("13"))) > 0);
    }

    // Install, the same install again, uninstall: the files, the receipt, and the tree given back.
    void installThenUninstall()
    {
        Machine machine(m_standIn.database);
        const TreeSnapshot before = machine.tree();

        const CudnnctlRun installed = machine.install(m_archive);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QJsonObject result = outputJson(installed);
        QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("done"));
        const QJsonObject receipt = result.value(QStringLiteral("receipt")).toObject();
        QCOMPARE(receipt.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/receipt/1"));
        const QJsonArray files = receipt.value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), archives::windowsFiles(kVersion, QStringLiteral("12")).size());
        for (const QJsonValue &file : files) {
            const QString path = file.toObject().value(QStringLiteral("path")).toString();
            QVERIFY2(QFileInfo::exists(machine.sandbox.hostPath(path)), qPrintable(path));
            QVERIFY(path.startsWith(QLatin1String("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\")));
        }
        QVERIFY(QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn_graph64_9.dll"))));
        QVERIFY(QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\include\\cudnn_version.h"))));
        QVERIFY(QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\lib\\x64\\cudnn.lib"))));
        // Staging and backups are gone; the receipt is where machine installs keep theirs.
        QVERIFY(!QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\.cudnn-setup-staging"))));
        QVERIFY(
            result.value(QStringLiteral("receiptPath")).toString().contains(QStringLiteral("ProgramData")));
        const TreeSnapshot after = machine.tree();

        const CudnnctlRun again = machine.install(m_archive);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(outputJson(again).value(QStringLiteral("status")).toString(),
                 QStringLiteral("already-done"));
        QVERIFY(machine.tree() == after);

        const CudnnctlRun removed = machine.run({QStringLiteral("uninstall"), QStringLiteral("--json")});
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QCOMPARE(outputJson(removed).value(QStringLiteral("status")).toString(), QStringLiteral("done"));
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
        const CudnnctlRun nothing = machine.run({QStringLiteral("uninstall")});
        QCOMPARE(nothing.exitCode, exitCode(1603));
        QVERIFY(nothing.out.contains("installed nothing here"));
    }

    // Issue 32: "--target app:FOLDER" puts the libraries beside the program in FOLDER and nothing
    // else, with no PATH change; asked for a PATH too it is refused before any change. Uninstall
    // takes out what it placed, and the program stays.
    void installBesideOneProgram()
    {
        Machine machine(m_standIn.database);
        const QString folder = QStringLiteral("C:\\Apps\\Whisper");
        machine.sandbox.write(folder + QStringLiteral("\\whisper.exe"), peimage::x64Dll());
        const TreeSnapshot before = machine.tree();
        const QStringList beside{
            QStringLiteral("install"),  QStringLiteral("--archive"),     m_archive,
            QStringLiteral("--target"), QStringLiteral("app:") + folder, QStringLiteral("--json")};

        const CudnnctlRun onPath =
            machine.run(beside + QStringList{QStringLiteral("--path"), QStringLiteral("system")});
        QCOMPARE(onPath.exitCode, exitCode(87));
        QVERIFY2(onPath.out.contains("not added to the system PATH"), onPath.out + onPath.err);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));

        const CudnnctlRun installed = machine.run(beside);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QJsonObject receipt = outputJson(installed).value(QStringLiteral("receipt")).toObject();
        QCOMPARE(receipt.value(QStringLiteral("target")).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("app"));
        QVERIFY(receipt.value(QStringLiteral("environment")).toArray().isEmpty());
        int libraries = 0;
        for (const QString &file : archives::windowsFiles(kVersion, QStringLiteral("12")))
            libraries += file.endsWith(QLatin1String(".dll")) ? 1 : 0;
        QCOMPARE(receipt.value(QStringLiteral("files")).toArray().size(), libraries);
        QVERIFY(
            QFileInfo::exists(machine.sandbox.hostPath(folder + QStringLiteral("\\cudnn_graph64_9.dll"))));
        QCOMPARE(QDir(machine.sandbox.hostPath(folder)).entryList(QDir::Dirs | QDir::NoDotAndDotDot),
                 QStringList());

        const CudnnctlRun removed = machine.run({QStringLiteral("uninstall"), QStringLiteral("--json")});
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // Paths typed relative to the current folder are made absolute as they are read: the receipt
    // names the archive where it is, and the log lands beside it (an elevated child, which starts
    // in another folder, gets the same absolute paths).
    void relativePathsAreMadeAbsolute()
    {
        Machine machine(m_standIn.database);
        const QString folder = QFileInfo(m_archive).absolutePath();
        const QString log = folder + QStringLiteral("/relative-install.log");
        QFile::remove(log);
        const CudnnctlRun installed = machine.run(
            {QStringLiteral("install"), QStringLiteral("--archive"), QFileInfo(m_archive).fileName(),
             QStringLiteral("--target"), kTarget, QStringLiteral("--path"), QStringLiteral("none"),
             QStringLiteral("--log"), QFileInfo(log).fileName(), QStringLiteral("--json")},
            {}, folder);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QJsonObject archive = outputJson(installed)
                                        .value(QStringLiteral("receipt"))
                                        .toObject()
                                        .value(QStringLiteral("archive"))
                                        .toObject();
        const QString recorded = QDir::fromNativeSeparators(archive.value(QStringLiteral("path")).toString());
        QVERIFY2(QDir::isAbsolutePath(recorded), qPrintable(recorded));
        QCOMPARE(QFileInfo(recorded).canonicalFilePath(), QFileInfo(m_archive).canonicalFilePath());
        QVERIFY(QFileInfo(log).size() > 0);
        QFile::remove(log);
    }

    // An older, read-only cuDNN DLL where the new one goes: replaced, kept, and put back by the
    // uninstall exactly as it was.
    void replacedReadOnlyFileComesBack()
    {
        Machine machine(m_standIn.database);
        const QString old = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn64_9.dll");
        machine.sandbox.write(old, peimage::x64Dll() + "an older cuDNN 9.1");
        QFile::setPermissions(machine.sandbox.hostPath(old), QFileDevice::ReadOwner | QFileDevice::ReadUser);
        const TreeSnapshot before = machine.tree();

        const CudnnctlRun installed = machine.install(m_archive);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QJsonObject receipt = outputJson(installed).value(QStringLiteral("receipt")).toObject();
        QString kept;
        for (const QJsonValue &file : receipt.value(QStringLiteral("files")).toArray()) {
            if (file.toObject().value(QStringLiteral("path")).toString() == old)
                kept = file.toObject().value(QStringLiteral("replaced")).toString();
        }
        QVERIFY2(!kept.isEmpty(), "the receipt names where the replaced file is kept");
        QFile keptFile(machine.sandbox.hostPath(kept));
        QVERIFY(keptFile.open(QIODevice::ReadOnly));
        QVERIFY(keptFile.readAll().endsWith("an older cuDNN 9.1"));
        keptFile.close(); // Windows will not move a file someone holds open
        QFile placed(machine.sandbox.hostPath(old));
        QVERIFY(placed.open(QIODevice::ReadOnly));
        QVERIFY(!placed.readAll().endsWith("an older cuDNN 9.1"));
        placed.close();

        const CudnnctlRun removed = machine.run({QStringLiteral("uninstall")});
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
        QVERIFY(!QFileInfo::exists(machine.sandbox.hostPath(kept)));
    }

    // A file that changed since the install is never deleted: the whole uninstall is refused.
    void uninstallRefusesChangedFiles()
    {
        Machine machine(m_standIn.database);
        QCOMPARE(machine.install(m_archive).exitCode, 0);
        const QString dll = machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn64_9.dll"));
        QFile file(dll);
        QVERIFY(file.open(QIODevice::Append));
        file.write("patched");
        file.close();
        const TreeSnapshot changed = machine.tree();
        const CudnnctlRun refused = machine.run({QStringLiteral("uninstall"), QStringLiteral("--json")});
        QCOMPARE(refused.exitCode, exitCode(1603));
        const QJsonObject result = outputJson(refused);
        QVERIFY(findingIds(result).contains(QStringLiteral("uninstall.file-changed")));
        QVERIFY(result.value(QStringLiteral("findings"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("cudnn64_9.dll")));
        QVERIFY(machine.tree() == changed);
    }

    // The process killed at a point of its transaction; the next cudnnctl that may change the
    // system settles what it left: before the commit the tree is as before, after it as after.
    void killedInstallIsSettledAtNextStart_data()
    {
        QTest::addColumn<QString>("point");
        QTest::addColumn<bool>("committed");
        QTest::newRow("before the first folder") << QStringLiteral("0:before") << false;
        QTest::newRow("after the unpacking") << QStringLiteral("1:after") << false;
        QTest::newRow("before a file is moved") << QStringLiteral("8:before") << false;
        QTest::newRow("after a file is moved") << QStringLiteral("12:after") << false;
        QTest::newRow("before the receipt") << QStringLiteral("-1:before") << false;
        QTest::newRow("after the commit") << QStringLiteral("commit") << true;
    }
    void killedInstallIsSettledAtNextStart()
    {
        QFETCH(QString, point);
        QFETCH(bool, committed);
        Machine machine(m_standIn.database);
        const TreeSnapshot before = machine.tree();
        // The steps, from a dry run (which changes nothing).
        const CudnnctlRun dry = machine.install(m_archive, {QStringLiteral("--dry-run")});
        QVERIFY2(dry.exitCode == 0, dry.out + dry.err);
        const int steps = outputJson(dry).value(QStringLiteral("plan")).toArray().size();
        QVERIFY(steps > 12);
        QVERIFY(machine.tree() == before);
        QString crashAt = point;
        if (point == QLatin1String("commit"))
            crashAt = QStringLiteral("%1:commit").arg(steps);
        else if (point.startsWith(QLatin1String("-1")))
            crashAt = QStringLiteral("%1:before").arg(steps - 1);

        QProcessEnvironment crash;
        crash.insert(QStringLiteral("CUDNNSETUP_CRASH_AT"), crashAt);
        const CudnnctlRun killed = machine.install(m_archive, {}, crash);
        QCOMPARE(killed.exitCode, 70);
        const QString journal =
            machine.sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\transaction.journal"));
        QVERIFY(QFileInfo::exists(journal));

        // The next start (a dry run changes nothing of its own).
        const CudnnctlRun next =
            machine.run({QStringLiteral("uninstall"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
        const QStringList ids = findingIds(outputJson(next));
        QVERIFY2(ids.contains(committed ? QStringLiteral("install.recovered-commit")
                                        : QStringLiteral("install.recovered-rollback")),
                 qPrintable(ids.join(QLatin1Char(','))));
        QVERIFY(!QFileInfo::exists(journal));
        if (!committed) {
            QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
            return;
        }
        QVERIFY(QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn64_9.dll"))));
        QVERIFY(!QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\.cudnn-setup-staging"))));
        QCOMPARE(machine.run({QStringLiteral("uninstall")}).exitCode, 0);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // Review 2, N15: the cudnnctl the installers pack has no test hook. A crash the environment asks
    // for stops the suites' build (exit 70) but not that one, whose file does not even hold the
    // names of the hooks' variables.
    void shippedProgramHasNoTestHooks()
    {
        QProcessEnvironment crash;
        crash.insert(QStringLiteral("CUDNNSETUP_CRASH_AT"), QStringLiteral("0:before"));
        const Machine suites(m_standIn.database);
        QCOMPARE(suites.install(m_archive, {}, crash).exitCode, 70);
        Machine shipped(m_standIn.database);
        shipped.program = BuildPaths::shippedCudnnctl();
        QVERIFY(QFileInfo(shipped.program).absolutePath() != QFileInfo(suites.program).absolutePath());
        const CudnnctlRun installed = shipped.install(m_archive, {}, crash);
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        QVERIFY(!outputJson(installed).value(QStringLiteral("receipt")).toObject().isEmpty());

        const auto contents = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        const QByteArray withHooks = contents(suites.program);
        const QByteArray handedOut = contents(shipped.program);
        QVERIFY(!handedOut.isEmpty());
        for (const char *hook : {"CUDNNSETUP_CRASH_AT", "CUDNNSETUP_HELPER_COMPAT_DB"}) {
            QVERIFY2(withHooks.contains(hook), hook);
            QVERIFY2(!handedOut.contains(hook), hook);
        }
    }

    // A journal planted in the machine's state folder, whose replay would delete a user's folder
    // (its "backup folder") and take a file of it away: the next cudnnctl sets it aside, says so,
    // changes not a byte of that folder, and installs as asked.
    void plantedJournalChangesNothing()
    {
        Machine machine(m_standIn.database);
        machine.sandbox.write(QStringLiteral("C:\\Data\\thesis.docx"), "four years of work");
        const QString data = machine.sandbox.hostPath(QStringLiteral("C:\\Data"));
        const QString journal =
            machine.sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\transaction.journal"));
        const QJsonObject header{
            {QStringLiteral("schema"), QStringLiteral("cudnn-setup/journal/1")},
            {QStringLiteral("id"), QStringLiteral("planted")},
            {QStringLiteral("kind"), QStringLiteral("install")},
            {QStringLiteral("backupFolder"), data},
            {QStringLiteral("roots"),
             QJsonArray{machine.sandbox.hostPath(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"))}},
            {QStringLiteral("elevated"), cudnnsetup::Elevation::host().isElevated()}};
        const QJsonObject step{
            {QStringLiteral("seq"), 0},
            {QStringLiteral("begin"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("remove-file")},
                         {QStringLiteral("arguments"),
                          QJsonObject{{QStringLiteral("path"), data + QStringLiteral("/thesis.docx")}}}}}};
        const QJsonObject state{{QStringLiteral("seq"), 0},
                                {QStringLiteral("state"), QJsonObject{{QStringLiteral("existed"), true}}}};
        QDir().mkpath(QFileInfo(journal).absolutePath());
        QFile planted(journal);
        QVERIFY(planted.open(QIODevice::WriteOnly));
        for (const QJsonObject &line : {header, step, state})
            planted.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
        planted.close();

        const CudnnctlRun run = machine.install(m_archive);
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(findingIds(outputJson(run)).contains(QStringLiteral("state.untrusted-journal")), run.out);
        QFile thesis(data + QStringLiteral("/thesis.docx"));
        QVERIFY(thesis.open(QIODevice::ReadOnly));
        QCOMPARE(thesis.readAll(), QByteArray("four years of work"));
        QCOMPARE(QDir(data).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("thesis.docx")});
        QVERIFY(!QFileInfo::exists(journal));
        QCOMPARE(QDir(QFileInfo(journal).absolutePath())
                     .entryList({QStringLiteral("transaction.journal.untrusted-*")}, QDir::Files)
                     .size(),
                 1);
        QVERIFY(QFileInfo::exists(machine.sandbox.hostPath(
            QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\cudnn64_9.dll"))));
    }

    // One install at a time: a second one answers 1618 and changes nothing.
    void secondInstanceIsBusy()
    {
        Machine machine(m_standIn.database);
        const TreeSnapshot before = machine.tree();
        const std::unique_ptr<cudnnsetup::InstallLock> held = cudnnsetup::InstallLock::tryAcquire(
            machine.sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\install.lock")),
            QString());
        QVERIFY(held);
        const CudnnctlRun busy = machine.install(m_archive);
        QCOMPARE(busy.exitCode, exitCode(1618));
        QCOMPARE(outputJson(busy).value(QStringLiteral("status")).toString(), QStringLiteral("busy"));
        QVERIFY(machine.tree() == before);
    }

    // Bad input: 87 for what cannot be understood, 1603 for an archive that failed its check;
    // nothing changes either way.
    void badInputChangesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QByteArray>("words");
        QTest::newRow("unknown target kind")
            << QStringList{QStringLiteral("--target"), QStringLiteral("floppy:A:\\")} << 87
            << QByteArray("floppy");
        QTest::newRow("unknown PATH scope")
            << QStringList{QStringLiteral("--path"), QStringLiteral("everywhere")} << 87
            << QByteArray("--path");
        QTest::newRow("unknown in-use answer")
            << QStringList{QStringLiteral("--if-in-use"), QStringLiteral("maybe")} << 87
            << QByteArray("--if-in-use");
        QTest::newRow("unsafe archive")
            << QStringList{QStringLiteral("unsafe")} << 1603 << QByteArray("did not pass its check");
    }
    void badInputChangesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QByteArray, words);
        Machine machine(m_standIn.database);
        const TreeSnapshot before = machine.tree();
        QString archive = m_archive;
        if (arguments == QStringList{QStringLiteral("unsafe")}) {
            QList<ZipWriter::Entry> entries = archives::entriesOf(
                archives::windowsFiles(kVersion, QStringLiteral("12")), QStringLiteral("9.1.0"));
            entries.append(ZipWriter::Entry::file("../../evil.dll", peimage::x64Dll()));
            archive = m_archives.filePath(QStringLiteral("unsafe.zip"));
            QVERIFY(ZipWriter(entries).save(archive));
            arguments.clear();
        }
        QStringList all{QStringLiteral("install"), QStringLiteral("--archive"), archive};
        if (!arguments.contains(QStringLiteral("--target")))
            all << QStringLiteral("--target") << kTarget;
        const CudnnctlRun run = machine.run(all + arguments);
        QCOMPARE(run.exitCode, exitCode(code));
        QVERIFY2((run.out + run.err).contains(words), (run.out + run.err).constData());
        QVERIFY(machine.tree() == before);
    }

    // A Linux tree for "cudnnctl install --path system": its loader's configuration folder, and the
    // folder that holds cuDNN Setup's state folder (which a refused install may still make).
    static void linuxTree(const Sandbox &sandbox)
    {
        sandbox.mkdir(QStringLiteral("/etc/ld.so.conf.d"));
        sandbox.mkdir(QStringLiteral("/var/lib"));
    }
    // What an install changes in that tree, without cuDNN Setup's own state folder.
    static TreeSnapshot linuxTreeNow(const Sandbox &sandbox)
    {
        return TreeSnapshot::of(sandbox.root(), {QStringLiteral("var/lib/cudnn-setup")});
    }
    // "cudnnctl install --path system" of NVIDIA's Linux archive into `target` of that tree.
    // The stand-in archive is no archive NVIDIA published: the administrator at the console vouches
    // for it (`vouched`), else it is refused for what every program would load.
    CudnnctlRun installForTheLoader(const Sandbox &sandbox, const QString &target, bool vouched = true,
                                    const QString &archive = {}) const
    {
        QStringList arguments{QStringLiteral("install"),
                              QStringLiteral("--archive"),
                              archive.isEmpty() ? m_linuxArchive : archive,
                              QStringLiteral("--target"),
                              QStringLiteral("dir:") + target,
                              QStringLiteral("--path"),
                              QStringLiteral("system"),
                              QStringLiteral("--json"),
                              QStringLiteral("--system-root"),
                              sandbox.root(),
                              QStringLiteral("--lang"),
                              QStringLiteral("en")};
        if (vouched)
            arguments << QStringLiteral("--allow-unverified-archive");
        return runCudnnctl(arguments, sandboxEnvironment());
    }

    // "sudo cudnnctl install --path system" on a Linux tree (--system-root: its real owners and
    // modes): a folder another user owns, one below a folder its group may write, and one under a
    // sticky /tmp are refused before anything changes; a folder root made 0755 is accepted, and
    // the loader's file names it.
    void linuxLoaderFolderIsRootsAlone_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("changed"); // made with `owner` and `mode`
        QTest::addColumn<uint>("owner");
        QTest::addColumn<uint>("mode");
        QTest::addColumn<QString>("named"); // the folder the refusal names; empty: accepted
        QTest::newRow("another user's folder") << "/opt/cudnn"
                                               << "/opt/cudnn" << 65534u << 0755u << "/opt/cudnn";
        QTest::newRow("a parent its group may write") << "/opt/shared/cudnn"
                                                      << "/opt/shared" << 0u << 0775u << "/opt/shared";
        QTest::newRow("under /tmp") << "/tmp/cudnn"
                                    << "/tmp" << 0u << 01777u << "/tmp";
        QTest::newRow("root's, 0755") << "/opt/cudnn"
                                      << "/opt/cudnn" << 0u << 0755u << "";
    }
    void linuxLoaderFolderIsRootsAlone()
    {
#ifdef Q_OS_WIN
        QSKIP("POSIX owners and modes: Linux only");
#else
        if (::geteuid() != 0)
            QSKIP("giving a folder to another user needs root");
        QFETCH(QString, target);
        QFETCH(QString, changed);
        QFETCH(uint, owner);
        QFETCH(uint, mode);
        QFETCH(QString, named);
        Sandbox sandbox;
        linuxTree(sandbox);
        sandbox.mkdir(changed);
        QCOMPARE(::chown(QFile::encodeName(sandbox.hostPath(changed)).constData(), owner, owner), 0);
        QCOMPARE(::chmod(QFile::encodeName(sandbox.hostPath(changed)).constData(), mode), 0);
        const TreeSnapshot before = linuxTreeNow(sandbox);
        if (named.isEmpty()) {
            // Not NVIDIA's archive, and nobody vouched for it: refused before anything changes.
            const CudnnctlRun unvouched = installForTheLoader(sandbox, target, false);
            QCOMPARE(outputJson(unvouched).value(QStringLiteral("exitCode")).toInt(), 1603);
            QVERIFY2(
                findingIds(outputJson(unvouched)).contains(QStringLiteral("install.archive-not-nvidias")),
                unvouched.out + unvouched.err);
            QVERIFY2(linuxTreeNow(sandbox) == before, qPrintable(linuxTreeNow(sandbox).difference(before)));
        }
        const CudnnctlRun run = installForTheLoader(sandbox, target);
        const QJsonObject result = outputJson(run);
        if (named.isEmpty()) {
            QVERIFY2(run.exitCode == 0, run.out + run.err);
            const QString conf = result.value(QStringLiteral("receipt"))
                                     .toObject()
                                     .value(QStringLiteral("target"))
                                     .toObject()
                                     .value(QStringLiteral("ldSoConfFile"))
                                     .toString();
            QFile written(sandbox.hostPath(conf));
            QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(conf));
            QVERIFY(written.readAll().split('\n').contains(target.toUtf8() + "/lib"));
            return;
        }
        QVERIFY2(run.exitCode != 0, run.out + run.err);
        QVERIFY2(findingIds(result).contains(QStringLiteral("target.unsafe-owner-linux")), run.out + run.err);
        QVERIFY2(
            run.out.contains(QStringLiteral("but %1 can be changed by others than root").arg(named).toUtf8()),
            run.out.constData());
        QVERIFY2(linuxTreeNow(sandbox) == before, qPrintable(linuxTreeNow(sandbox).difference(before)));
#endif
    }

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
    // Issue 34: NVIDIA's Linux archive as it is, a tar.xz with its soname links, installed for the
    // whole system into a --system-root tree: the links are links again, the receipt names them,
    // verify passes what another system's files can show, and uninstall gives the tree (the loader's
    // configuration included) back as it was.
    void linuxTarXzInstallsWithItsLinks()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "symbolic links in a Linux tree");
        Sandbox sandbox;
        linuxTree(sandbox);
        const TreeSnapshot before = linuxTreeNow(sandbox);
        const QString archive =
            m_archives.filePath(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"));
        QFile tar(archive);
        QVERIFY(tar.open(QIODevice::WriteOnly));
        QVERIFY(tar.write(archives::linuxTarXz(QStringLiteral("9.19.0.56"), QStringLiteral("13"))) > 0);
        tar.close();

        // The test-made tar stands in for NVIDIA's file of that name (the database knows its checksum).
        const QString database = archives::writeDatabaseKnowing(
            m_archives.filePath(QStringLiteral("linux-tar-compat.json")), {archive});
        const QString target = QStringLiteral("/opt/cudnn");
        const CudnnctlRun run = runCudnnctl(
            {QStringLiteral("install"), QStringLiteral("--archive"), archive, QStringLiteral("--target"),
             QStringLiteral("dir:") + target, QStringLiteral("--path"), QStringLiteral("system"),
             QStringLiteral("--json"), QStringLiteral("--system-root"), sandbox.root(),
             QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--compat-db"), database},
            sandboxEnvironment());
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        const QString lib = sandbox.hostPath(target + QStringLiteral("/lib"));
        QCOMPARE(QFileInfo(lib + QStringLiteral("/libcudnn.so.9")).symLinkTarget(),
                 lib + QStringLiteral("/libcudnn.so.9.19.0"));
        QCOMPARE(QFileInfo(lib + QStringLiteral("/libcudnn.so")).symLinkTarget(),
                 lib + QStringLiteral("/libcudnn.so.9"));
        QVERIFY(!QFileInfo(lib + QStringLiteral("/libcudnn.so.9.19.0")).isSymLink());
        QVERIFY(QFileInfo(lib + QStringLiteral("/libcudnn_graph.so.9")).isSymLink());
        const QJsonArray files = outputJson(run)
                                     .value(QStringLiteral("receipt"))
                                     .toObject()
                                     .value(QStringLiteral("files"))
                                     .toArray();
        QStringList links;
        for (const QJsonValue &file : files) {
            const QJsonObject object = file.toObject();
            if (object.contains(QStringLiteral("link")))
                links.append(object.value(QStringLiteral("path")).toString() + QStringLiteral(" -> ") +
                             object.value(QStringLiteral("link")).toString());
        }
        QVERIFY2(links.contains(target + QStringLiteral("/lib/libcudnn.so.9 -> libcudnn.so.9.19.0")),
                 qPrintable(links.join(QLatin1Char('\n'))));
        QCOMPARE(links.size(), 16); // two links for each of cuDNN 9's eight libraries

        const CudnnctlRun verified =
            runCudnnctl({QStringLiteral("verify"), QStringLiteral("--lang"), QStringLiteral("en"),
                         QStringLiteral("--system-root"), sandbox.root(), QStringLiteral("--target"),
                         QStringLiteral("dir:") + target, QStringLiteral("--compat-db"), database},
                        sandboxEnvironment());
        // Its set of libraries is found by their sonames, which only the links carry: one missing
        // would fail verify (verify.libraries-missing).
        QVERIFY2(verified.exitCode == 0, verified.out + verified.err);
        QVERIFY2(verified.out.contains("cuDNN checked: /opt/cudnn/lib"), verified.out.constData());

        const CudnnctlRun removed =
            runCudnnctl({QStringLiteral("uninstall"), QStringLiteral("--json"),
                         QStringLiteral("--system-root"), sandbox.root(), QStringLiteral("--lang"),
                         QStringLiteral("en"), QStringLiteral("--compat-db"), database},
                        sandboxEnvironment());
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QVERIFY2(linuxTreeNow(sandbox) == before, qPrintable(linuxTreeNow(sandbox).difference(before)));
    }

    // Hostile tars are refused before anything changes in the tree.
    void hostileTarsChangeNothing_data()
    {
        QTest::addColumn<QByteArray>("tar");
        QTest::addColumn<QString>("finding");
        const QList<TarEntry> nvidias =
            archives::linuxTarEntries(QStringLiteral("9.19.0.56"), QStringLiteral("13"));
        const QByteArray lib = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/";
        const auto with = [&](const TarEntry &added) {
            return tarwriter::write(nvidias + QList<TarEntry>{added});
        };
        QTest::newRow("link out of its folder")
            << with(TarEntry::symlink(lib + "libcudnn_x.so", "../../../etc/shadow")) << "archive.unsafe-link";
        QTest::newRow("absolute link")
            << with(TarEntry::symlink(lib + "libcudnn_x.so", "/etc/shadow")) << "archive.unsafe-link";
        QTest::newRow("link to a missing member")
            << with(TarEntry::symlink(lib + "libcudnn_x.so", "libcudnn_x.so.9"))
            << "archive.unsafe-link-missing";
        QTest::newRow("absolute name")
            << with(TarEntry::file("/etc/ld.so.conf.d/evil.conf", "/tmp\n")) << "archive.unsafe-path";
        QTest::newRow("climbing name")
            << with(TarEntry::file(lib + "../../../etc/evil", "x")) << "archive.unsafe-path";
        QTest::newRow("hard link")
            << with({lib + "libcudnn_evil.so", {}, "/etc/shadow", TarEntry::Type::HardLink})
            << "archive.unsafe-hardlink";
        QTest::newRow("device node") << with({lib + "libcudnn_null.so", {}, {}, TarEntry::Type::CharDevice})
                                     << "archive.unsafe-special";
        QTest::newRow("bomb's declared size")
            << tarwriter::withDeclaredSize(lib + "libcudnn.so.9.19.0", 100LL << 30) << "archive.unsafe-size";
    }
    void hostileTarsChangeNothing()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "a Linux tree");
        QFETCH(QByteArray, tar);
        QFETCH(QString, finding);
        Sandbox sandbox;
        linuxTree(sandbox);
        const TreeSnapshot before = linuxTreeNow(sandbox);
        QTemporaryDir folder;
        const QString archive =
            folder.filePath(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"));
        QFile file(archive);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(tar) == tar.size());
        file.close();
        const CudnnctlRun run = installForTheLoader(sandbox, QStringLiteral("/opt/cudnn"), true, archive);
        QVERIFY2(run.exitCode != 0, run.out + run.err);
        QVERIFY2(findingIds(outputJson(run)).contains(finding), run.out + run.err);
        QVERIFY2(linuxTreeNow(sandbox) == before, qPrintable(linuxTreeNow(sandbox).difference(before)));
    }
#endif

    // A line break in a folder named for the loader would add lines of its own to its
    // configuration (an include of anyone's files): refused before anything changes.
    void linuxLoaderFolderWithALineBreakIsRefused()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "a Linux tree's folder names");
        Sandbox sandbox;
        linuxTree(sandbox);
        sandbox.mkdir(QStringLiteral("/opt"));
        const TreeSnapshot before = linuxTreeNow(sandbox);
        const CudnnctlRun run =
            installForTheLoader(sandbox, QStringLiteral("/opt/cudnn\ninclude /home/eve/*.conf"));
        QVERIFY2(run.exitCode != 0, run.out + run.err);
        QVERIFY2(findingIds(outputJson(run)).contains(QStringLiteral("target.unsafe-name-linux")),
                 run.out + run.err);
        QVERIFY2(linuxTreeNow(sandbox) == before, qPrintable(linuxTreeNow(sandbox).difference(before)));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlInstall)
#include "tst_cudnnctl_install.moc"
