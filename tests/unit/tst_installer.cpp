// The installer in-process, on sandbox Windows trees with an in-memory environment: PATH and the
// CUDNN_* variables in and out again, a venv found through its .pth file, zlibwapi.dll placed only
// when the DLLs import it and no 64-bit copy is found first, and a disk that fills up midway.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "ElfImage.h"
#include "MemoryFileSecurity.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "ZipWriter.h"
#include "archive/ArchiveInspector.h"
#include "install/FilePlacement.h"
#include "install/Installer.h"
#include "install/TargetSpec.h"
#include "install/Zlibwapi.h"
#include "platform/Elevation.h"
#include "platform/FilesInUse.h"
#include "platform/MemoryEnvironment.h"
#include "platform/Sha256.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <unistd.h>
#endif

using namespace cudnnsetup;

namespace {

// The outcome's status, and why, for failure messages.
QByteArray describe(const ChangeOutcome &outcome)
{
    QStringList lines{outcome.statusName()};
    for (const Finding &finding : outcome.findings)
        lines.append(finding.id + QStringLiteral(": ") + finding.message.toEnglish() + QStringLiteral(" / ") +
                     finding.details);
    return lines.join(QLatin1Char('\n')).toUtf8();
}

} // namespace

class TestInstaller : public QObject
{
    Q_OBJECT

    QTemporaryDir m_archives;

    // A Windows machine under `root` (a sandbox, or any folder) with the environment an install
    // reads, and the in-memory store it writes.
    struct Machine
    {
        QString root;
        SystemContext context;
        std::shared_ptr<MemoryEnvironment> environment = std::make_shared<MemoryEnvironment>();

        explicit Machine(const QString &rootFolder)
            : root(rootFolder)
            , context(contextFor(rootFolder))
        {
            QDir().mkpath(root + QStringLiteral("/Windows/System32"));
            QDir().mkpath(root + QStringLiteral("/Program Files"));
            environment->set(EnvironmentScope::Machine, QStringLiteral("PATH"),
                             {QStringLiteral("%SystemRoot%\\system32;C:\\Tools"), true});
        }
        static SystemContext contextFor(const QString &root)
        {
            QDir().mkpath(root + QStringLiteral("/Windows/System32"));
            qputenv("ProgramData", "C:\\ProgramData");
            qputenv("ProgramFiles", "C:\\Program Files");
            qputenv("LOCALAPPDATA", "C:\\Users\\lab\\AppData\\Local");
            return SystemContext::rooted(root);
        }
        TreeSnapshot tree() const
        {
            return TreeSnapshot::of(root, {QStringLiteral("ProgramData"), QStringLiteral("Users")});
        }
        QString host(const QString &path) const { return context.files().toHost(path); }
    };

    QString save(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_archives.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    static ArchiveReport inspect(const QString &path)
    {
        InspectOptions options;
        options.verifyData = false;
        const auto report = inspectArchive(path, KnowledgeBase::embedded(), options);
        if (!report || report->verdict != ArchiveReport::Verdict::Ok)
            qFatal("the test archive does not pass inspection");
        return *report;
    }

    static InstallTarget target(const Machine &machine, const QString &spec, std::optional<PathScope> scope,
                                const ArchiveReport &report)
    {
        const auto chosen = targetFromSpec(spec, scope, SystemSnapshot(), report, machine.context);
        if (!chosen)
            qFatal("target %s: %s", qPrintable(spec), qPrintable(chosen.error().message.toEnglish()));
        return *chosen;
    }

    // Whether another thread gets the lock.
    static bool lockableElsewhere(const Machine &machine)
    {
        const StateFolders folders = StateFolders::of(machine.context);
        bool locked = false;
        const std::unique_ptr<QThread> other(
            QThread::create([&] { locked = bool(folders.tryLock(machine.context, Elevation::host())); }));
        other->start();
        other->wait();
        return locked;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_archives.isValid()); }

    // One change at a time to a tree, but each tree (a sandbox, a mounted image) has a lock of its
    // own: changes to two trees never wait for each other.
    void eachTreeHasItsOwnLock()
    {
        Sandbox first;
        Sandbox second;
        const Machine firstMachine(first.root());
        const Machine secondMachine(second.root());
        const StateFolders firstFolders = StateFolders::of(firstMachine.context);
        const StateFolders secondFolders = StateFolders::of(secondMachine.context);
        QCOMPARE(firstFolders.lockScope, InstallLock::Scope::RootedTree);
        const std::unique_ptr<InstallLock> held =
            firstFolders.tryLock(firstMachine.context, Elevation::host());
        QVERIFY(held);
        QVERIFY(!lockableElsewhere(firstMachine));
        QVERIFY(lockableElsewhere(secondMachine));
        const std::unique_ptr<InstallLock> alsoHeld =
            secondFolders.tryLock(secondMachine.context, Elevation::host());
        QVERIFY(alsoHeld);
    }

    // A lock that is merely held says "wait", naming the lock file and who holds it where that can
    // be told; one this account may not even open (another account's, or a program's that keeps it
    // to block every install) is told apart, and the change answers busy, 1618, saying so.
    void aLockThisAccountCannotOpenIsSaidSo()
    {
        Sandbox sandbox;
        const Machine machine(sandbox.root());
        const StateFolders folders = StateFolders::of(machine.context);
        std::unique_ptr<InstallLock> held = folders.tryLock(machine.context, Elevation::host());
        QVERIFY(held);
        InstallLock::Refusal refusal;
        refusal.shutOut = true;
        bool lockedToo = true;
        const std::unique_ptr<QThread> other(QThread::create(
            [&] { lockedToo = bool(folders.tryLock(machine.context, Elevation::host(), &refusal)); }));
        other->start();
        other->wait();
        QVERIFY(!lockedToo);
        QVERIFY(!refusal.shutOut);
        QCOMPARE(refusal.lockFile, QDir::toNativeSeparators(folders.lockFile(Elevation::host())));
#ifndef Q_OS_WIN
        QVERIFY2(
            refusal.holder.startsWith(QStringLiteral("process %1 (").arg(QCoreApplication::applicationPid())),
            qPrintable(refusal.holder));
#endif
        const ChangeOutcome busy = uninstall(QString(), machine.context, machine.environment);
        QCOMPARE(busy.exitCode(), 1618);
        QVERIFY2(busy.findings.first().details.contains(refusal.lockFile),
                 qPrintable(busy.findings.first().details));
        held.reset();
        QVERIFY(folders.tryLock(machine.context, Elevation::host()));

        refusal.shutOut = true;
        refusal.holder = QStringLiteral("owned by S-1-5-21-1004336348-1177238915-682003330-1001");
        const ChangeOutcome shutOut = ChangeOutcome::busy(refusal);
        QCOMPARE(shutOut.exitCode(), 1618);
        const Finding &finding = shutOut.findings.first();
        QVERIFY(finding.message.toEnglish().contains(QLatin1String("may not even open it")));
        QVERIFY2(finding.details.contains(refusal.holder), qPrintable(finding.details));
        QVERIFY(finding.fix.toEnglish().contains(refusal.lockFile));
#ifdef Q_OS_WIN
        // A program that keeps the file open (even sharing it with everyone) holds the lock.
        const std::wstring name =
            QDir::toNativeSeparators(folders.lockFile(Elevation::host())).toStdWString();
        HANDLE squatter =
            CreateFileW(name.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                        nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
        QVERIFY(squatter != INVALID_HANDLE_VALUE);
        QVERIFY(!folders.tryLock(machine.context, Elevation::host(), &refusal));
        QVERIFY(!refusal.shutOut);
        CloseHandle(squatter);
        QVERIFY(folders.tryLock(machine.context, Elevation::host()));
#endif
    }

    // Its own folder on the system PATH, with the CUDNN_* variables; the uninstall takes out our
    // PATH entry only and the variables it set.
    void pathAndVariablesComeAndGo()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("a.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("dir"), std::nullopt, report);
        QCOMPARE(into.pathScope, PathScope::System);
        const TreeSnapshot before = machine.tree();

        ChangeOptions options;
        options.cudnnVariables = EnvironmentScope::Machine;
        const ChangeOutcome outcome =
            install(archive, report, into, machine.context, machine.environment, options);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        const QString dlls = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
        QCOMPARE(machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH"))->text,
                 dlls + QStringLiteral(";%SystemRoot%\\system32;C:\\Tools"));
        QCOMPARE(machine.environment->value(EnvironmentScope::Machine, QStringLiteral("CUDNN_PATH"))->text,
                 QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"));
        QCOMPARE(machine.environment->value(EnvironmentScope::Machine, QStringLiteral("CUDNN_LIBRARY"))->text,
                 QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\lib\\x64\\cudnn.lib"));
        QVERIFY(machine.environment->announceCount() > 0);
        QVERIFY(outcome.receipt);
        QCOMPARE(outcome.receipt->environment.size(), 4);
        QCOMPARE(outcome.receipt->environment.first().before->text,
                 QStringLiteral("%SystemRoot%\\system32;C:\\Tools"));
        QVERIFY(outcome.receipt->environment.first().after->text.startsWith(dlls));

        // Someone adds to PATH meanwhile: the uninstall keeps their entry.
        StoredEnvironmentValue edited =
            *machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH"));
        edited.text += QStringLiteral(";D:\\Later");
        machine.environment->set(EnvironmentScope::Machine, QStringLiteral("PATH"), edited);
        const ChangeOutcome removed = uninstall(QString(), machine.context, machine.environment);
        QCOMPARE(removed.statusName(), QStringLiteral("done"));
        QCOMPARE(machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH"))->text,
                 QStringLiteral("%SystemRoot%\\system32;C:\\Tools;D:\\Later"));
        QVERIFY(!machine.environment->value(EnvironmentScope::Machine, QStringLiteral("CUDNN_PATH")));
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
    }

    // A user with no PATH of their own: the install makes one, and the uninstall deletes it again
    // rather than leave an empty PATH; one the user has added to since keeps what they added.
    void aPathTheInstallMadeGoesWithIt()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("u.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("user"), std::nullopt, report);
        QCOMPARE(into.pathScope, PathScope::User);
        QVERIFY(!machine.environment->value(EnvironmentScope::User, QStringLiteral("PATH")));
        for (const bool addedTo : {false, true}) {
            const ChangeOutcome installed =
                install(archive, report, into, machine.context, machine.environment);
            QVERIFY2(installed.status == ChangeOutcome::Status::Done, describe(installed).constData());
            QCOMPARE(machine.environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text,
                     into.dllFolder());
            if (addedTo)
                machine.environment->set(EnvironmentScope::User, QStringLiteral("PATH"),
                                         {into.dllFolder() + QStringLiteral(";D:\\Mine"), true});
            const ChangeOutcome removed = uninstall(QString(), machine.context, machine.environment);
            QCOMPARE(removed.statusName(), QStringLiteral("done"));
            const auto path = machine.environment->value(EnvironmentScope::User, QStringLiteral("PATH"));
            if (addedTo) {
                QVERIFY(path);
                QCOMPARE(path->text, QStringLiteral("D:\\Mine"));
            } else {
                QVERIFY2(!path, qPrintable(path ? path->text : QString()));
            }
        }
    }

    // The folder an install makes for the system PATH is given the administrators-only descriptor
    // before anything is put in it (all below inherits it); one for the user's PATH is left as is.
    void folderForTheSystemPathIsMadeProtected()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("p.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        for (const PathScope scope : {PathScope::System, PathScope::User}) {
            auto security = std::make_shared<MemoryFileSecurity>();
            const SystemContext guarded = machine.context.withFileSecurity(security);
            const QString root = scope == PathScope::System ? QStringLiteral("C:\\lab\\cudnn")
                                                            : QStringLiteral("C:\\mine\\cudnn");
            const ChangeOutcome outcome =
                install(archive, report, target(machine, QStringLiteral("dir:") + root, scope, report),
                        guarded, machine.environment);
            QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
            if (scope == PathScope::System) {
                const QList<QPair<QString, QString>> expected{
                    {QDir::cleanPath(machine.host(QStringLiteral("C:\\lab"))), security::adminsOnlySddl()}};
                QCOMPARE(security->protectedFolders(), expected);
            } else {
                QVERIFY(security->protectedFolders().isEmpty());
            }
        }
    }

    // What a crash left in the staging folder is cleared before an install, and a link planted in it
    // (a junction on Windows, a symbolic link here) is removed as a link: the folder it points at
    // keeps every file.
    void leftoverStagingIsClearedWithoutFollowingLinks()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "symbolic links of the host");
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString data = machine.host(QStringLiteral("C:\\Data"));
        QDir().mkpath(data);
        QFile thesis(data + QStringLiteral("/thesis.docx"));
        QVERIFY(thesis.open(QIODevice::WriteOnly));
        thesis.write("four years of work");
        thesis.close();
        const QString staging = machine.host(QStringLiteral("C:\\cudnn\\.cudnn-setup-staging"));
        QDir().mkpath(staging + QStringLiteral("/bin"));
        QVERIFY(QFile::link(data, staging + QStringLiteral("/bin/data")));
        QVERIFY(QFile::link(data + QStringLiteral("/thesis.docx"), staging + QStringLiteral("/thesis.docx")));

        const QString archive = save(QStringLiteral("l.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const ChangeOutcome outcome = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report),
            machine.context, machine.environment);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QVERIFY(!QFileInfo::exists(staging));
        QFile kept(data + QStringLiteral("/thesis.docx"));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("four years of work"));
    }

    // A venv: the DLLs inside it and a .pth file that names them; no PATH change.
    void venvGetsItsPthFile()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        QDir().mkpath(machine.host(QStringLiteral("C:\\venvs\\实验\\Scripts")));
        QDir().mkpath(machine.host(QStringLiteral("C:\\venvs\\实验\\Lib\\site-packages")));
        QFile(machine.host(QStringLiteral("C:\\venvs\\实验\\pyvenv.cfg"))).open(QIODevice::WriteOnly);
        QFile(machine.host(QStringLiteral("C:\\venvs\\实验\\Scripts\\python.exe")))
            .open(QIODevice::WriteOnly);
        const QString archive = save(QStringLiteral("v.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into =
            target(machine, QStringLiteral("venv:C:\\venvs\\实验"), std::nullopt, report);
        const int writes = machine.environment->writeCount();
        const ChangeOutcome outcome = install(archive, report, into, machine.context, machine.environment);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QCOMPARE(machine.environment->writeCount(), writes);
        QFile pth(machine.host(into.pthFile()));
        QVERIFY(pth.open(QIODevice::ReadOnly));
        const QByteArray line = pth.readAll();
        pth.close(); // Windows will not remove a file someone holds open
        QVERIFY2(!line.contains("\xe5"), line.constData()); // pure ASCII: 实 escaped
        QVERIFY(line.contains("\\u5b9e\\u9a8c"));
        QVERIFY(QFileInfo::exists(machine.host(into.dllFolder() + QStringLiteral("\\cudnn64_9.dll"))));
        QVERIFY(std::any_of(outcome.receipt->files.cbegin(), outcome.receipt->files.cend(),
                            [&](const Receipt::File &file) { return file.path == into.pthFile(); }));
        QCOMPARE(uninstall(QString(), machine.context, machine.environment).statusName(),
                 QStringLiteral("done"));
        QVERIFY(!QFileInfo::exists(machine.host(into.pthFile())));
        QVERIFY(!QFileInfo::exists(machine.host(into.dllFolder())));
    }

    // Linux has no PATH for libraries: the system scope is a file in /etc/ld.so.conf.d naming the
    // folder, in the receipt, and gone with the uninstall. Under --system-root ldconfig is that
    // system's to run, and the install says so.
    void linuxSystemScopeNamesTheFolderForTheLoader()
    {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("etc/ld.so.conf.d")));
        QDir().mkpath(dir.filePath(QStringLiteral("opt")));
        const SystemContext context = SystemContext::rooted(dir.path());
        QCOMPARE(context.family(), OsFamily::Linux);
        const QString version = QStringLiteral("9.19.0.56");
        QList<ZipWriter::Entry> entries;
        for (const QString &file : archives::linuxFiles(version, QStringLiteral("13"))) {
            QByteArray data = QByteArray("contents of ") + file.toUtf8() + '\n';
            if (file.contains(QLatin1String(".so.")))
                data =
                    elfimage::build({QFileInfo(file).fileName().section(QLatin1Char('.'), 0, 2), {}, {}, {}});
            else if (file.endsWith(QLatin1String("/cudnn_version.h")))
                data = archives::versionHeader(version);
            entries.append(ZipWriter::Entry::file(file.toUtf8(), data));
        }
        const QString archive = save(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.zip"),
                                     ZipWriter(entries).finish());
        const ArchiveReport report = inspect(archive);
        // No per-user loader configuration exists: the user scope is refused before any change.
        const auto forUser = targetFromSpec(QStringLiteral("dir:/opt/cudnn-9.19"), PathScope::User,
                                            SystemSnapshot(), report, context);
        QVERIFY(forUser);
        const ChangeOutcome refused =
            install(archive, report, *forUser, context, std::make_shared<MemoryEnvironment>());
        QCOMPARE(refused.status, ChangeOutcome::Status::Failed);
        QVERIFY2(std::any_of(refused.findings.cbegin(), refused.findings.cend(),
                             [](const Finding &finding) {
                                 return finding.id == QLatin1String("install.linux-user-path");
                             }),
                 describe(refused).constData());
        QVERIFY(!QFileInfo::exists(context.files().toHost(QStringLiteral("/opt/cudnn-9.19"))));
        const auto chosen = targetFromSpec(QStringLiteral("dir:/opt/cudnn-9.19"), PathScope::System,
                                           SystemSnapshot(), report, context);
        QVERIFY(chosen);
        const QString conf = chosen->ldSoConfFile();
        QCOMPARE(conf, QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-cudnn-9.19-lib.conf"));
        const auto environment = std::make_shared<MemoryEnvironment>();
        const ChangeOutcome outcome = install(archive, report, *chosen, context, environment);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QCOMPARE(environment->writeCount(), 0); // no PATH on Linux
        QFile written(context.files().toHost(conf));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().split('\n').contains("/opt/cudnn-9.19/lib"));
        written.close();
        QVERIFY(std::any_of(outcome.findings.cbegin(), outcome.findings.cend(), [](const Finding &finding) {
            return finding.id == QLatin1String("install.ldconfig-not-run");
        }));
        QVERIFY(std::any_of(outcome.receipt->files.cbegin(), outcome.receipt->files.cend(),
                            [&](const Receipt::File &file) { return file.path == conf; }));
        // What ldconfig does to a folder it is told about: a link by the soname to each library
        // (a host that makes such links: on Windows QFile::link makes a shortcut).
        if (hostOsFamily() == OsFamily::Linux) {
            const QString lib = context.files().toHost(QStringLiteral("/opt/cudnn-9.19/lib"));
            QVERIFY(
                QFile::link(QStringLiteral("libcudnn.so.9.19.0"), lib + QStringLiteral("/libcudnn.so.9")));
        }
        QCOMPARE(uninstall(QString(), context, environment).statusName(), QStringLiteral("done"));
        QVERIFY(!QFileInfo::exists(context.files().toHost(conf)));
        QVERIFY(QFileInfo::exists(context.files().toHost(QStringLiteral("/etc/ld.so.conf.d"))));
        QVERIFY(!QFileInfo::exists(context.files().toHost(QStringLiteral("/opt/cudnn-9.19"))));
    }

    // cuDNN 8.9's DLLs import zlibwapi.dll: ours goes beside them, unless a 64-bit copy would be
    // found first; DLLs that do not import it get none.
    void zlibwapiOnlyWhereNeeded_data()
    {
        QTest::addColumn<bool>("imports");
        QTest::addColumn<bool>("systemCopy");
        QTest::addColumn<bool>("placed");
        QTest::newRow("imported, none on the system") << true << false << true;
        QTest::newRow("imported, a 64-bit copy in System32") << true << true << false;
        QTest::newRow("not imported") << false << false << false;
    }
    void zlibwapiOnlyWhereNeeded()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("this build has no zlibwapi.dll to install");
        QFETCH(bool, imports);
        QFETCH(bool, systemCopy);
        QFETCH(bool, placed);
        QTemporaryDir dir;
        Machine machine(dir.path());
        if (systemCopy) {
            QFile copy(machine.host(QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll")));
            QVERIFY(copy.open(QIODevice::WriteOnly));
            copy.write(peimage::x64Dll());
        }
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12")),
                                QStringLiteral("8.9.7"));
        if (imports) {
            peimage::ImageSpec spec;
            spec.imports = {"KERNEL32.dll", "zlibwapi.dll"};
            entries[1].data = peimage::buildImage(spec).bytes; // cudnn_ops_infer64_8.dll
        }
        const QString archive = save(QStringLiteral("z.zip"), ZipWriter(entries).finish());
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report);
        const ChangeOutcome outcome = install(archive, report, into, machine.context, machine.environment);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        const QString zlibwapi = machine.host(QStringLiteral("C:\\cudnn\\bin\\zlibwapi.dll"));
        QCOMPARE(QFileInfo::exists(zlibwapi), placed);
        const bool listed = std::any_of(
            outcome.receipt->files.cbegin(), outcome.receipt->files.cend(),
            [](const Receipt::File &file) { return file.path.endsWith(QLatin1String("zlibwapi.dll")); });
        QCOMPARE(listed, placed);
        if (placed)
            QCOMPARE(Sha256::ofFile(zlibwapi).value_or(QString()), embeddedZlibwapiSha256());
        QCOMPARE(uninstall(QString(), machine.context, machine.environment).statusName(),
                 QStringLiteral("done"));
        QVERIFY(!QFileInfo::exists(zlibwapi));
    }

    // A damaged entry that is not installed (a sample under the archive's top folder) is still
    // inflated and held to its CRC while the rest is unpacked: what `inspect` calls corrupt is not
    // installed in part. Nothing is left of the attempt.
    void aDamagedEntryThatIsNotPlacedStopsTheInstall()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        ZipWriter::Entry sample = ZipWriter::Entry::file(
            "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/samples/conv.cpp", QByteArray(4096, 'x'));
        sample.crc32 = 0x12345678;
        entries.append(sample);
        const QString archive = save(QStringLiteral("damaged-sample.zip"), ZipWriter(entries).finish());
        const ArchiveReport report = inspect(archive); // a quick look does not read the sample
        QVERIFY(std::none_of(report.findings.cbegin(), report.findings.cend(), [](const Finding &finding) {
            return finding.id == QLatin1String("archive.crc-mismatch");
        }));
        const TreeSnapshot before = machine.tree();
        const InstallTarget into = target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report);
        const ChangeOutcome outcome = install(archive, report, into, machine.context, machine.environment);
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        QVERIFY2(findingIds(outcome.findings).contains(QStringLiteral("archive.crc-mismatch")),
                 describe(outcome).constData());
        QVERIFY2(std::any_of(outcome.findings.cbegin(), outcome.findings.cend(),
                             [](const Finding &finding) {
                                 return finding.message.toEnglish().contains(
                                     QLatin1String("samples/conv.cpp"));
                             }),
                 describe(outcome).constData());
        QVERIFY(machine.tree() == before);
    }

    // An archive inspected without its hash, as `cudnnctl install` does, is hashed in the pass that
    // unpacks it: the receipt has its SHA-256 and NVIDIA's word on it, the outcome what the checksum
    // told. A dry run, and a second install of the same release, hash it beforehand. A file named like
    // NVIDIA's that is not theirs is refused either way, and nothing of it stays.
    void archiveIsHashedWhileItIsUnpacked()
    {
        const QString official = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        const QByteArray nvidias = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const QByteArray altered =
            archives::alteredWindowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const KnowledgeBase kb = archives::databaseWithChecksum(official, Sha256::of(nvidias));
        const auto inspectedWithoutHash = [&](const QString &path) {
            InspectOptions options;
            options.verifyData = false;
            options.hashArchive = false;
            const auto report = inspectArchive(path, kb, options);
            if (!report || report->verdict != ArchiveReport::Verdict::Ok || !report->sha256.isEmpty())
                qFatal("the test archive does not pass inspection");
            return *report;
        };

        struct Case
        {
            QString fileName;
            QByteArray bytes;
            QString official;
            QString finding;
        };
        for (const Case &one :
             {Case{QStringLiteral("download.zip"), nvidias, QStringLiteral("match"),
                   QStringLiteral("archive.renamed")},
              Case{official, altered, QString(), QStringLiteral("archive.checksum-mismatch")}}) {
            const bool refused = one.official.isEmpty();
            QTemporaryDir dir;
            Machine machine(dir.path());
            const QString archive = save(one.fileName, one.bytes);
            const ArchiveReport report = inspectedWithoutHash(archive);
            const InstallTarget into =
                target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report);
            const TreeSnapshot before = machine.tree();

            ChangeOptions dryRun;
            dryRun.dryRun = true;
            const ChangeOutcome planned =
                install(archive, report, into, machine.context, machine.environment, dryRun, kb);
            QCOMPARE(planned.statusName(), refused ? QStringLiteral("failed") : QStringLiteral("dry-run"));
            QVERIFY2(findingIds(planned.findings).contains(one.finding), describe(planned).constData());
            QVERIFY(machine.tree() == before);

            const ChangeOutcome installed =
                install(archive, report, into, machine.context, machine.environment, {}, kb);
            if (refused) {
                // Judged while unpacking: the transaction rolls back before a file leaves staging.
                QCOMPARE(installed.statusName(), QStringLiteral("failed"));
                QVERIFY2(findingIds(installed.findings).contains(one.finding),
                         describe(installed).constData());
                QVERIFY(!installed.receipt);
                QVERIFY(machine.tree() == before);
                QVERIFY(!QFileInfo::exists(machine.host(into.stagingFolder())));
                continue;
            }
            QVERIFY2(installed.status == ChangeOutcome::Status::Done, describe(installed).constData());
            QCOMPARE(findingIds(installed.findings).first(), one.finding);
            QVERIFY(installed.receipt);
            QCOMPARE(installed.receipt->archive.value(QStringLiteral("sha256")).toString(),
                     Sha256::of(one.bytes));
            QCOMPARE(installed.receipt->archive.value(QStringLiteral("official")).toString(), one.official);
            QCOMPARE(installed.receipt->archive.value(QStringLiteral("cudnn")).toString(),
                     QStringLiteral("9.1.0.70"));
            QVERIFY(!QFileInfo::exists(machine.host(into.stagingFolder())));

            const ChangeOutcome again =
                install(archive, report, into, machine.context, machine.environment, {}, kb);
            QCOMPARE(again.statusName(), QStringLiteral("already-done"));
            QCOMPARE(again.receipt->id, installed.receipt->id);
        }
    }

    // A folder whose files' own paths fit under MAX_PATH but whose working paths (the staged
    // files, the undo's backups) would not: refused before anything is written, naming the path.
    void workingPathsCountForTheLength()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("long.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const QString root = QStringLiteral("C:\\") + QString(197, QLatin1Char('a')); // 200 characters
        const InstallTarget into = target(machine, QStringLiteral("dir:") + root, PathScope::None, report);
        const QList<PlannedFile> planned = placeFiles(report, into);
        const auto longest = std::max_element(planned.cbegin(), planned.cend(),
                                              [](const PlannedFile &a, const PlannedFile &b) {
                                                  return a.destination.size() < b.destination.size();
                                              });
        QVERIFY(longest->destination.size() < 260); // the installed files themselves would fit
        const TreeSnapshot before = machine.tree();
        const ChangeOutcome outcome = install(archive, report, into, machine.context, machine.environment);
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        const auto tooLong =
            std::find_if(outcome.findings.cbegin(), outcome.findings.cend(), [](const Finding &finding) {
                return finding.id == QLatin1String("target.too-long");
            });
        QVERIFY2(tooLong != outcome.findings.cend(), describe(outcome).constData());
        QVERIFY2(tooLong->message.toEnglish().contains(QStringLiteral(".cudnn-setup-staging")),
                 qPrintable(tooLong->message.toEnglish()));
        QVERIFY(machine.tree() == before);
    }

    // An older cuDNN DLL that a running python.exe holds: the install stops and names it; asked to
    // replace it anyway, it does so only as an administrator (Windows removes what stays loaded
    // only at its next start): the old file is renamed aside for python.exe, the new one is in
    // place at once, the old one ends where the receipt keeps it, and the uninstall puts it back.
    void fileInUseIsNamedOrReplacedAnyway()
    {
        struct HeldFiles final : FilesInUse
        {
            QString held;
            mutable QStringList removedAtReboot;
            Expected<QList<ProcessUsingFile>> processesUsing(const QStringList &paths) const override
            {
                QList<ProcessUsingFile> holders;
                if (paths.contains(held))
                    holders.append({4242, QStringLiteral("python.exe"), QStringLiteral("Python")});
                return holders;
            }
            SystemResult removeAtReboot(const QString &path) const override
            {
                removedAtReboot.append(path);
                return {};
            }
            bool isInUseError(const SystemFailure &) const override { return true; }
        };
        struct Account final : Elevation
        {
            bool administrator = false;
            bool isElevated() const override { return administrator; }
            bool isLocalSystem() const override { return false; }
            QString accountSid() const override { return QStringLiteral("S-1-5-21-1-2-3-1001"); }
            bool isAdministratorsMember() const override { return administrator; }
            UacState uacState() const override { return UacState::Enabled; }
            Expected<int> runElevated(const QString &, const QStringList &, const QString &,
                                      const ElevatedStart &) const override
            {
                return 0;
            }
        };
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString dll = QStringLiteral("C:\\cudnn\\bin\\cudnn64_9.dll");
        QDir().mkpath(machine.host(QStringLiteral("C:\\cudnn\\bin")));
        const QByteArray oldBytes = peimage::x64Dll() + "the old one";
        QFile old(machine.host(dll));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write(oldBytes);
        old.close();
        HeldFiles files;
        files.held = machine.host(dll);
        const QString archive = save(QStringLiteral("u.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report);
        const TreeSnapshot before = machine.tree();
        Account account;
        ChangeOptions options;
        options.filesInUse = &files;
        options.elevation = &account;
        const auto inUseFinding = [](const ChangeOutcome &outcome) -> const Finding * {
            for (const Finding &finding : outcome.findings) {
                if (finding.id == QLatin1String("install.files-in-use"))
                    return &finding;
            }
            return nullptr;
        };

        const ChangeOutcome stopped =
            install(archive, report, into, machine.context, machine.environment, options);
        QCOMPARE(stopped.exitCode(), 1603);
        QVERIFY(inUseFinding(stopped));
        QVERIFY(inUseFinding(stopped)->message.toEnglish().contains(QStringLiteral("python.exe (4242)")));
        QVERIFY(inUseFinding(stopped)->fix.toEnglish().contains(QStringLiteral("replace the files anyway")));
        QVERIFY(machine.tree() == before);

        // Not an administrator: refused before anything is unpacked, and said why.
        options.replaceInUse = true;
        const ChangeOutcome refused =
            install(archive, report, into, machine.context, machine.environment, options);
        QCOMPARE(refused.exitCode(), 1603);
        QVERIFY(inUseFinding(refused));
        QVERIFY2(inUseFinding(refused)->fix.toEnglish().contains(QStringLiteral("only an administrator")),
                 qPrintable(inUseFinding(refused)->fix.toEnglish()));
        QVERIFY(machine.tree() == before);

        account.administrator = true;
        const ChangeOutcome replaced =
            install(archive, report, into, machine.context, machine.environment, options);
        QVERIFY2(replaced.status == ChangeOutcome::Status::DoneRestartNeeded, describe(replaced).constData());
        QCOMPARE(replaced.exitCode(), 3010);
        QVERIFY(findingIds(replaced.findings).contains(QStringLiteral("install.replaced-in-use")));
        QFile now(machine.host(dll));
        QVERIFY(now.open(QIODevice::ReadOnly));
        QVERIFY(now.readAll() != oldBytes); // the new file, for every program started from now on
        now.close();
        // The state folder is on the target's volume here: the old file was renamed where the
        // receipt keeps it, so nothing waits for the next start and nothing is left beside the DLL.
        QVERIFY(files.removedAtReboot.isEmpty());
        QCOMPARE(QDir(machine.host(QStringLiteral("C:\\cudnn\\bin")))
                     .entryList({QStringLiteral("*.cudnn-setup-*")}, QDir::Files | QDir::Hidden),
                 QStringList());
        const auto kept = std::find_if(replaced.receipt->files.cbegin(), replaced.receipt->files.cend(),
                                       [&](const Receipt::File &file) { return file.path == dll; });
        QVERIFY(kept != replaced.receipt->files.cend() && !kept->replaced.isEmpty());
        QFile keptFile(machine.host(kept->replaced));
        QVERIFY(keptFile.open(QIODevice::ReadOnly));
        QCOMPARE(keptFile.readAll(), oldBytes);
        keptFile.close();

        QCOMPARE(uninstall(QString(), machine.context, machine.environment).statusName(),
                 QStringLiteral("done"));
        QFile back(machine.host(dll));
        QVERIFY(back.open(QIODevice::ReadOnly));
        QCOMPARE(back.readAll(), oldBytes);
    }

    // Run as SYSTEM (a deployment tool), the per-user PATH would be SYSTEM's: refused, said so.
    void systemAccountRefusesTheUserPath()
    {
        struct AsSystem final : Elevation
        {
            bool isElevated() const override { return true; }
            bool isLocalSystem() const override { return true; }
            QString accountSid() const override { return QStringLiteral("S-1-5-18"); }
            bool isAdministratorsMember() const override { return true; }
            UacState uacState() const override { return UacState::Enabled; }
            Expected<int> runElevated(const QString &, const QStringList &, const QString &,
                                      const ElevatedStart &) const override
            {
                return 0;
            }
        };
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("s.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const AsSystem system;
        ChangeOptions options;
        options.elevation = &system;
        const TreeSnapshot before = machine.tree();
        const ChangeOutcome refused =
            install(archive, report, target(machine, QStringLiteral("user"), std::nullopt, report),
                    machine.context, machine.environment, options);
        QCOMPARE(refused.exitCode(), 1603);
        QCOMPARE(refused.findings.last().id, QStringLiteral("elevation.system-user-target"));
        QVERIFY(machine.tree() == before);
        // The system PATH, changed from session 0: done, but it reaches programs only after the
        // next sign-in, which the exit code (3010) and a finding say.
        const ChangeOutcome systemPath = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report),
            machine.context, machine.environment, options);
        QVERIFY2(systemPath.status == ChangeOutcome::Status::DoneRestartNeeded,
                 describe(systemPath).constData());
        QCOMPARE(systemPath.exitCode(), 3010);
        QCOMPARE(systemPath.findings.last().id, QStringLiteral("install.takes-effect-after-sign-in"));
        // Files only, no environment: nothing waits for a sign-in.
        const ChangeOutcome filesOnly = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\other"), PathScope::None, report),
            machine.context, machine.environment, options);
        QVERIFY2(filesOnly.status == ChangeOutcome::Status::Done, describe(filesOnly).constData());
    }

    // The disk fills up while the files are placed: everything is undone, nothing is left behind.
    void diskFullMidwayRollsBack()
    {
#ifdef Q_OS_WIN
        QSKIP("needs a small file system of its own (Linux: a tmpfs, mounted as root)");
#else
        if (::geteuid() != 0)
            QSKIP("needs root to mount a small tmpfs");
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/small");
        QDir().mkpath(root);
        if (QProcess::execute(QStringLiteral("mount"),
                              {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                               QStringLiteral("size=4m"), QStringLiteral("tmpfs"), root}) != 0)
            QSKIP("this machine does not allow mounting a tmpfs");
        const auto unmount = qScopeGuard([&] { QProcess::execute(QStringLiteral("umount"), {root}); });
        Machine machine(root);
        const QString archive = save(QStringLiteral("d.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into =
            target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report);
        const TreeSnapshot before = machine.tree();
        const StoredEnvironmentValue pathBefore =
            *machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH"));

        // Once the archive is unpacked, something else takes the rest of the disk: the steps after
        // it, and the journal's own lines, meet a full disk.
        const QString filler = root + QStringLiteral("/filler");
        ChangeOptions options;
        options.crashAt = [&](const FaultPoint &point) {
            if (point.sequence >= 2 && point.stage == FaultPoint::Stage::BeforePerform &&
                !QFileInfo::exists(filler)) {
                QFile fill(filler);
                fill.open(QIODevice::WriteOnly);
                const QByteArray block(64 * 1024, 'x');
                int written = 0;
                while (written < 1000 && fill.write(block) == block.size() && fill.flush())
                    ++written;
            }
            return false;
        };
        const ChangeOutcome outcome =
            install(archive, report, into, machine.context, machine.environment, options);
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        QVERIFY2(!outcome.findings.isEmpty(), "it says why");
        QFile::remove(filler);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
        QCOMPARE(*machine.environment->value(EnvironmentScope::Machine, QStringLiteral("PATH")), pathBefore);
        QVERIFY(!QFileInfo::exists(
            machine.host(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\transaction.journal"))));
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestInstaller)
#include "tst_installer.moc"
