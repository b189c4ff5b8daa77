// The installer in-process, on sandbox Windows trees with an in-memory environment: PATH and the
// CUDNN_* variables in and out again, a venv found through its .pth file, zlibwapi.dll placed only
// when the DLLs import it and no 64-bit copy is found first, and a disk that fills up midway.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "MemoryFileSecurity.h"
#include "MemoryPosixOwnership.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "ZipWriter.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "detect/Consumers.h"
#include "install/ArchiveCustody.h"
#include "install/FilePlacement.h"
#include "install/Installer.h"
#include "install/StateFolders.h"
#include "install/TargetChecks.h"
#include "install/TargetSpec.h"
#include "install/Zlibwapi.h"
#include "platform/Elevation.h"
#include "platform/FilesInUse.h"
#include "platform/MemoryEnvironment.h"
#include "platform/Sha256.h"

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#ifdef Q_OS_WIN
#include <qt_windows.h>
#else
#include <csignal>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
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

// An administrator at their own console who vouches for the tests' stand-in archives, which NVIDIA
// never published (--allow-unverified-archive).
ChangeOptions atTheConsole()
{
    ChangeOptions options;
    options.archiveVouching.allowUnverified = true;
    return options;
}

bool hasFinding(const ChangeOutcome &outcome, const QString &id)
{
    return std::any_of(outcome.findings.cbegin(), outcome.findings.cend(),
                       [&](const Finding &finding) { return finding.id == id; });
}

void writeHostFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

QByteArray readHostFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

#ifndef Q_OS_WIN
// An archive that can be read once: a named pipe at `path` that hands `bytes` to the first process
// that opens it, and is gone from its folder as soon as that one has it open.
class ArchiveReadOnce final
{
public:
    ArchiveReadOnce(const QString &path, const QByteArray &bytes)
        : m_path(QFile::encodeName(path))
        , m_bytes(bytes)
    {
        QFile::remove(path);
        if (::mkfifo(m_path.constData(), 0600) != 0)
            qFatal("cannot make the named pipe %s", m_path.constData());
        m_writer.reset(QThread::create([this] { serve(); }));
        m_writer->start();
    }
    ~ArchiveReadOnce()
    {
        // Never read: opened here, so that the writer's wait for a reader ends (and its write fails).
        if (const int reader = ::open(m_path.constData(), O_RDONLY | O_NONBLOCK); reader >= 0)
            ::close(reader);
        m_writer->wait();
        ::unlink(m_path.constData());
    }
    ArchiveReadOnce(const ArchiveReadOnce &) = delete;
    ArchiveReadOnce &operator=(const ArchiveReadOnce &) = delete;

    bool wasRead() const { return !QFileInfo::exists(QFile::decodeName(m_path)); }

private:
    void serve()
    {
        // A reader that stops early makes the write fail (EPIPE) instead of ending the tests.
        sigset_t brokenPipe;
        sigemptyset(&brokenPipe);
        sigaddset(&brokenPipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &brokenPipe, nullptr);
        const int writer = ::open(m_path.constData(), O_WRONLY); // waits for a reader
        if (writer < 0)
            return;
        ::unlink(m_path.constData());
        for (qint64 done = 0; done < m_bytes.size();) {
            const ssize_t written =
                ::write(writer, m_bytes.constData() + done, size_t(m_bytes.size() - done));
            if (written <= 0)
                break;
            done += written;
        }
        ::close(writer);
    }

    QByteArray m_path;
    QByteArray m_bytes;
    std::unique_ptr<QThread> m_writer;
};
#endif

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
            environment->set(EnvironmentScope::System, QStringLiteral("PATH"),
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

    // The archive as the install that unpacks it takes it: its SHA-256 is taken in that pass.
    static ArchiveReport inspect(const QString &path)
    {
        InspectOptions options;
        options.verifyData = false;
        options.hashArchive = false;
        const auto report = inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options);
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

    // A Linux tree under `root` with /etc/ld.so.conf.d, /opt and the folders that hold the state
    // folders, whose owners and modes `ownership` tells.
    static SystemContext linuxContext(const QString &root, std::shared_ptr<MemoryPosixOwnership> ownership)
    {
        QDir().mkpath(root + QStringLiteral("/etc/ld.so.conf.d"));
        QDir().mkpath(root + QStringLiteral("/opt"));
        const SystemContext context = SystemContext::rooted(root).withPosixOwnership(std::move(ownership));
        const StateFolders folders = StateFolders::of(context);
        QDir().mkpath(QFileInfo(folders.machine).absolutePath());
        QDir().mkpath(QFileInfo(folders.user).absolutePath());
        return context;
    }

    // What an install changes in a Linux tree, without cuDNN Setup's own state folders.
    static TreeSnapshot linuxTree(const SystemContext &context)
    {
        const StateFolders folders = StateFolders::of(context);
        const QString root = context.files().toHost(QStringLiteral("/"));
        return TreeSnapshot::of(
            root, {QDir(root).relativeFilePath(folders.machine), QDir(root).relativeFilePath(folders.user)});
    }

    // NVIDIA's Linux archive of cuDNN 9.19 for CUDA 13, as a zip, and its inspection.
    std::pair<QString, ArchiveReport> linuxArchive()
    {
        const QString archive = save(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.zip"),
                                     archives::linuxZip(QStringLiteral("9.19.0.56"), QStringLiteral("13")));
        return {archive, inspect(archive)};
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
        StateFolders::LockNotes notes;
        InstallLock::Refusal &refusal = notes.held;
        refusal.shutOut = true;
        bool lockedToo = true;
        const std::unique_ptr<QThread> other(QThread::create(
            [&] { lockedToo = bool(folders.tryLock(machine.context, Elevation::host(), &notes)); }));
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
        QVERIFY(!folders.tryLock(machine.context, Elevation::host(), &notes));
        QVERIFY(!refusal.shutOut);
        CloseHandle(squatter);
        QVERIFY(folders.tryLock(machine.context, Elevation::host()));
#endif
    }

    // What every program on the machine would load (the system PATH, a CUDA toolkit, System32, the
    // loader's configuration), and whatever the elevated helper installs for another process, comes
    // only from an archive whose SHA-256 NVIDIA published; refused before any change otherwise. An
    // administrator at their own console may vouch for another archive, the helper never.
    void machineWideTargetsTakeOnlyNvidiasArchive()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QByteArray bytes = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        // Another file than NVIDIA's (one byte of its LICENSE differs), under a name of its own.
        const QString unknown =
            save(QStringLiteral("standin-9.1.zip"),
                 archives::alteredWindowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const QString nvidiaNamed =
            save(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), bytes);
        const KnowledgeBase knowing = archives::databaseKnowing({nvidiaNamed});
        const ArchiveReport report = inspect(unknown);
        QCOMPARE(report.official, ArchiveReport::Official::Unknown);
        const InstallTarget systemPath =
            target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report);
        const InstallTarget system32 =
            target(machine, QStringLiteral("dir:C:\\Windows\\System32"), PathScope::None, report);
        const InstallTarget ownFolder =
            target(machine, QStringLiteral("dir:C:\\mine"), PathScope::None, report);
        QVERIFY(loadsMachineWide(systemPath, machine.context));
        QVERIFY(loadsMachineWide(system32, machine.context));
        QVERIFY(!loadsMachineWide(ownFolder, machine.context));
        const QString stateFolder = StateFolders::of(machine.context).machine;
        const auto noCopyLeft = [&] {
            return QDir(StateFolders::of(machine.context).custody(stateFolder))
                .entryList({QStringLiteral("archive-*")}, QDir::Files)
                .isEmpty();
        };
        const TreeSnapshot before = machine.tree();
        for (const InstallTarget &into : {systemPath, system32}) {
            const ChangeOutcome refused =
                install(unknown, report, into, machine.context, machine.environment, {}, knowing);
            QCOMPARE(refused.exitCode(), 1603);
            QVERIFY2(hasFinding(refused, QStringLiteral("install.archive-not-nvidias")),
                     describe(refused).constData());
            QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
            QCOMPARE(machine.environment->writeCount(), 0);
            QVERIFY(noCopyLeft());
        }
        // The elevated helper vouches for nothing, not even for a target of the user's own.
        ChangeOptions helper;
        helper.archiveVouching = {true, true, QString()};
        const ChangeOutcome forAnother =
            install(unknown, report, ownFolder, machine.context, machine.environment, helper, knowing);
        QVERIFY2(hasFinding(forAnother, QStringLiteral("install.archive-not-nvidias")),
                 describe(forAnother).constData());
        QVERIFY(machine.tree() == before);
        // NVIDIA's archive (its checksum in the database) goes anywhere, for anyone.
        const ChangeOutcome nvidias = install(nvidiaNamed, inspect(nvidiaNamed), systemPath, machine.context,
                                              machine.environment, helper, knowing);
        QVERIFY2(nvidias.status == ChangeOutcome::Status::Done, describe(nvidias).constData());
        QCOMPARE(nvidias.receipt->archive.official, QStringLiteral("match"));
        QVERIFY(noCopyLeft());
        // An administrator at the console may vouch for another; a target of one's own needs no one.
        const ChangeOutcome vouched =
            install(unknown, report, system32, machine.context, machine.environment, atTheConsole(), knowing);
        QVERIFY2(vouched.status == ChangeOutcome::Status::Done, describe(vouched).constData());
        const ChangeOutcome own =
            install(unknown, report, ownFolder, machine.context, machine.environment, {}, knowing);
        QVERIFY2(own.status == ChangeOutcome::Status::Done, describe(own).constData());
    }

    // The archive a machine-wide install unpacks is a copy only administrators can change, hashed
    // as it is made: the user's file changed after that never reaches the target, and one that
    // differs from what was hashed before is refused.
    void theUnpackedArchiveIsTheCheckedCopy()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString name = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        const QString archive =
            save(name, archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const QByteArray altered =
            archives::alteredWindowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const KnowledgeBase knowing = archives::databaseKnowing({archive});
        const ArchiveReport report = inspect(archive);
        // What the archive's files are: an install of the untouched file.
        const ChangeOutcome untouched = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\reference"), PathScope::System, report),
            machine.context, machine.environment, {}, knowing);
        QVERIFY2(untouched.status == ChangeOutcome::Status::Done, describe(untouched).constData());
        const auto contents = [](const Receipt &receipt) {
            QMap<QString, QString> byName;
            for (const Receipt::File &file : receipt.files)
                byName.insert(file.path.section(QLatin1Char('\\'), 2), file.sha256);
            return byName;
        };
        ChangeOptions options;
        bool swapped = false;
        options.progress = [&](int, int, const Text &) {
            if (!swapped)
                swapped = save(name, altered) == archive;
        };
        const ChangeOutcome outcome = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report),
            machine.context, machine.environment, options, knowing);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QVERIFY(swapped);
        QCOMPARE(contents(*outcome.receipt), contents(*untouched.receipt));

        // A report of the file as it was hashed, for a file that changed since: refused.
        InspectOptions hashed;
        hashed.verifyData = false;
        const QString second = save(QStringLiteral("standin-9.1.zip"),
                                    archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const auto secondReport = inspectArchive(second, knowing.publishedArchives(), hashed);
        QVERIFY(secondReport && !secondReport->sha256.isEmpty());
        save(QStringLiteral("standin-9.1.zip"), altered);
        const TreeSnapshot before = machine.tree();
        const ChangeOutcome changed =
            install(second, *secondReport,
                    target(machine, QStringLiteral("dir:C:\\other"), PathScope::System, *secondReport),
                    machine.context, machine.environment, atTheConsole(), knowing);
        QVERIFY2(hasFinding(changed, QStringLiteral("install.archive-changed")),
                 describe(changed).constData());
        QVERIFY(machine.tree() == before);
    }

    // A reinstall of a release into a target that takes the archive into custody reads the archive
    // once: the copy's SHA-256 tells whether the same archive is installed intact (the copy is then
    // dropped), and is the one judged and unpacked otherwise.
    void aReinstallReadsTheArchiveOnce()
    {
#ifdef Q_OS_WIN
        QSKIP("a file that can be read once is a named pipe of POSIX");
#else
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString name = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        const QByteArray bytes = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const QString archive = save(name, bytes);
        const KnowledgeBase knowing = archives::databaseKnowing({archive});
        const ArchiveReport report = inspect(archive);
        QVERIFY(report.sha256.isEmpty());
        const InstallTarget into =
            target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report);
        const ChangeOutcome first =
            install(archive, report, into, machine.context, machine.environment, {}, knowing);
        QVERIFY2(first.status == ChangeOutcome::Status::Done, describe(first).constData());
        const StateFolders folders = StateFolders::of(machine.context);
        const auto noCopyLeft = [&] {
            return QDir(folders.custody(folders.machine))
                .entryList({QStringLiteral("archive-*")}, QDir::Files)
                .isEmpty();
        };

        {
            const ArchiveReadOnce once(archive, bytes);
            const ChangeOutcome again =
                install(archive, report, into, machine.context, machine.environment, {}, knowing);
            QVERIFY2(again.status == ChangeOutcome::Status::AlreadyDone, describe(again).constData());
            QCOMPARE(again.receipt->id, first.receipt->id);
            QVERIFY(once.wasRead());
            QVERIFY(noCopyLeft());
        }
        // One of its files changed: installed again, from the one read.
        const QString changedFile = machine.host(first.receipt->files.first().path);
        writeHostFile(changedFile, "changed");
        const ArchiveReadOnce once(archive, bytes);
        const ChangeOutcome repaired =
            install(archive, report, into, machine.context, machine.environment, {}, knowing);
        QVERIFY2(repaired.status == ChangeOutcome::Status::Done, describe(repaired).constData());
        QCOMPARE(repaired.receipt->archive.sha256, Sha256::of(bytes));
        QCOMPARE(repaired.receipt->archive.official, QStringLiteral("match"));
        QCOMPARE(Sha256::ofFile(changedFile), std::optional(first.receipt->files.first().sha256));
        QVERIFY(once.wasRead());
        QVERIFY(noCopyLeft());
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

        ChangeOptions options = atTheConsole();
        options.cudnnVariables = EnvironmentScope::System;
        const ChangeOutcome outcome =
            install(archive, report, into, machine.context, machine.environment, options);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        const QString dlls = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 dlls + QStringLiteral(";%SystemRoot%\\system32;C:\\Tools"));
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("CUDNN_PATH"))->text,
                 QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"));
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("CUDNN_LIBRARY"))->text,
                 QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\lib\\x64\\cudnn.lib"));
        QVERIFY(machine.environment->announceCount() > 0);
        QVERIFY(outcome.receipt);
        QCOMPARE(outcome.receipt->environment.size(), 4);
        QCOMPARE(outcome.receipt->environment.first().before->text,
                 QStringLiteral("%SystemRoot%\\system32;C:\\Tools"));
        QVERIFY(outcome.receipt->environment.first().after->text.startsWith(dlls));

        // Someone adds to PATH meanwhile: the uninstall keeps their entry.
        StoredEnvironmentValue edited =
            *machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"));
        edited.text += QStringLiteral(";D:\\Later");
        machine.environment->set(EnvironmentScope::System, QStringLiteral("PATH"), edited);
        const ChangeOutcome removed = uninstall(QString(), machine.context, machine.environment);
        QCOMPARE(removed.statusName(), QStringLiteral("done"));
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 QStringLiteral("%SystemRoot%\\system32;C:\\Tools;D:\\Later"));
        QVERIFY(!machine.environment->value(EnvironmentScope::System, QStringLiteral("CUDNN_PATH")));
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

    // The PATH an install judges for length is the one its step writes, %VARS% expanded by the one
    // rule: our folder already on the user's PATH as %LOCALAPPDATA%\... is not added again, so a
    // PATH at the limit of a variable is no reason to refuse.
    void pathLengthJudgedAsTheStepWritesIt()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString archive = save(QStringLiteral("l.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("user"), std::nullopt, report);
        const QString local = QStringLiteral("C:\\Users\\lab\\AppData\\Local");
        QVERIFY(into.dllFolder().startsWith(local));
        QString raw = QStringLiteral("%LOCALAPPDATA%") + into.dllFolder().mid(local.size());
        while (raw.size() < PathEditor::kMaxVariable - 4)
            raw += QStringLiteral(";D:\\x");
        machine.environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {raw, true});
        const ChangeOutcome installed = install(archive, report, into, machine.context, machine.environment);
        QVERIFY2(installed.status == ChangeOutcome::Status::Done, describe(installed).constData());
        QCOMPARE(machine.environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text, raw);
    }

    // The folder an install makes for the system PATH has the administrators-only descriptor from
    // its first moment, not mkdir then protect (review 2, N2): all below inherits it. One for the
    // user's PATH is left as is.
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
                        guarded, machine.environment, atTheConsole());
            QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
            if (scope == PathScope::System) {
                const QList<QPair<QString, QString>> expected{
                    {QDir::cleanPath(machine.host(QStringLiteral("C:\\lab"))), security::adminsOnlySddl()}};
                QCOMPARE(security->madeFolders(), expected);
                QVERIFY(security->protectedFolders().isEmpty());
            } else {
                QVERIFY(security->protectedFolders().isEmpty());
                QVERIFY(security->madeFolders().isEmpty());
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
        const SystemContext context = linuxContext(dir.path(), std::make_shared<MemoryPosixOwnership>());
        QCOMPARE(context.family(), OsFamily::Linux);
        const auto [archive, report] = linuxArchive();
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
        // The readable part, and the start of the SHA-256 of "/opt/cudnn-9.19/lib" (sha256sum's).
        QCOMPARE(conf, QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-cudnn-9.19-lib-d495e3c49724.conf"));
        const auto environment = std::make_shared<MemoryEnvironment>();
        const ChangeOutcome outcome = install(archive, report, *chosen, context, environment, atTheConsole());
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QCOMPARE(environment->writeCount(), 0); // no PATH on Linux
        QFile written(context.files().toHost(conf));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), QByteArray("# cuDNN Setup: /opt/cudnn-9.19\n/opt/cudnn-9.19/lib\n"));
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

    // A folder the loader's configuration names is searched by every program, root's too; and what
    // root writes, the folder's owner could swap. So for --path system, or as root, the target and
    // every folder above it must be root's alone: refused before any change otherwise (owners and
    // modes as data: no root needed).
    void linuxTargetOthersMayChangeIsRefused_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<int>("scope");
        QTest::addColumn<bool>("asRoot");
        QTest::addColumn<QString>("changed"); // the folder given `owner` and `mode`
        QTest::addColumn<uint>("owner");
        QTest::addColumn<uint>("mode");
        QTest::addColumn<QString>("named"); // the folder the refusal names; empty: accepted
        const int system = int(PathScope::System);
        const int none = int(PathScope::None);
        QTest::newRow("a user's folder, --path system")
            << "/opt/cudnn" << system << false << "/opt/cudnn" << 1000u << 0755u << "/opt/cudnn";
        QTest::newRow("a parent its group may write")
            << "/opt/shared/cudnn" << system << false << "/opt/shared" << 0u << 0775u << "/opt/shared";
        QTest::newRow("under the sticky /tmp")
            << "/tmp/cudnn" << system << false << "/tmp" << 0u << 01777u << "/tmp";
        QTest::newRow("not made yet, in a user's folder")
            << "/home/alice/cudnn" << system << false << "/home/alice" << 1000u << 0700u << "/home/alice";
        QTest::newRow("a world-writable /") << "/opt/cudnn" << system << false << "/" << 0u << 0777u << "/";
        QTest::newRow("root's, 0755, --path system")
            << "/opt/cudnn" << system << false << "/opt/cudnn" << 0u << 0755u << "";
        QTest::newRow("a user's folder, as root")
            << "/opt/cudnn" << none << true << "/opt/cudnn" << 65534u << 0755u << "/opt/cudnn";
        QTest::newRow("root's, as root") << "/opt/cudnn" << none << true << "/opt/cudnn" << 0u << 0755u << "";
        QTest::newRow("a user's own folder, by that user")
            << "/opt/cudnn" << none << false << "/opt/cudnn" << 1000u << 0755u << "";
    }
    void linuxTargetOthersMayChangeIsRefused()
    {
        QFETCH(QString, root);
        QFETCH(int, scope);
        QFETCH(bool, asRoot);
        QFETCH(QString, changed);
        QFETCH(uint, owner);
        QFETCH(uint, mode);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const auto ownership = std::make_shared<MemoryPosixOwnership>(asRoot);
        const SystemContext context = linuxContext(dir.path(), ownership);
        QDir().mkpath(context.files().toHost(changed));
        ownership->set(context.files().toHost(changed), owner, mode);
        const auto [archive, report] = linuxArchive();
        const auto chosen = targetFromSpec(QStringLiteral("dir:") + root, PathScope(scope), SystemSnapshot(),
                                           report, context);
        QVERIFY(chosen);
        const TreeSnapshot before = linuxTree(context);
        const ChangeOutcome outcome =
            install(archive, report, *chosen, context, std::make_shared<MemoryEnvironment>(), atTheConsole());
        if (named.isEmpty()) {
            QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
            return;
        }
        QCOMPARE(outcome.status, ChangeOutcome::Status::Failed);
        const auto refusal =
            std::find_if(outcome.findings.cbegin(), outcome.findings.cend(), [](const Finding &finding) {
                return finding.id == QLatin1String("target.unsafe-owner-linux");
            });
        QVERIFY2(refusal != outcome.findings.cend(), describe(outcome).constData());
        QCOMPARE(refusal->severity, Severity::Error);
        const QString message = refusal->message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral("but %1 can be changed by others than root").arg(named)),
                 qPrintable(message));
        const QString shownMode = QStringLiteral("%1").arg(mode, 4, 8, QLatin1Char('0'));
        QVERIFY2(message.contains(QStringLiteral("owner uid %1, mode %2").arg(owner).arg(shownMode)),
                 qPrintable(message));
        QVERIFY2(message.contains(asRoot ? QLatin1String("runs as root") : QLatin1String("loader's")),
                 qPrintable(message));
        QVERIFY(refusal->fix.toEnglish().contains(QLatin1String("/opt/cudnn")));
        QVERIFY2(linuxTree(context) == before, qPrintable(linuxTree(context).difference(before)));
    }

    // A link on the way is not followed to judge what it leads to: it is refused as a link.
    void linuxTargetThroughALinkIsRefused()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        QTemporaryDir dir;
        const SystemContext context = linuxContext(dir.path(), std::make_shared<MemoryPosixOwnership>());
        QDir().mkpath(context.files().toHost(QStringLiteral("/srv/real")));
        // As the tree's own system would make it: a link to /srv/real, which the tree resolves inside.
        QVERIFY(QFile::link(QStringLiteral("/srv/real"),
                            context.files().toHost(QStringLiteral("/opt")) + QStringLiteral("/linked")));
        const auto [archive, report] = linuxArchive();
        const auto chosen = targetFromSpec(QStringLiteral("dir:/opt/linked/cudnn"), PathScope::System,
                                           SystemSnapshot(), report, context);
        QVERIFY(chosen);
        const TreeSnapshot before = linuxTree(context);
        const ChangeOutcome outcome =
            install(archive, report, *chosen, context, std::make_shared<MemoryEnvironment>(), atTheConsole());
        QCOMPARE(outcome.status, ChangeOutcome::Status::Failed);
        const auto refusal =
            std::find_if(outcome.findings.cbegin(), outcome.findings.cend(), [](const Finding &finding) {
                return finding.id == QLatin1String("target.unsafe-owner-linux");
            });
        QVERIFY2(refusal != outcome.findings.cend(), describe(outcome).constData());
        QVERIFY2(refusal->message.toEnglish().contains(QLatin1String("but /opt/linked can be changed")) &&
                     refusal->message.toEnglish().contains(QLatin1String("a symbolic link to")),
                 qPrintable(refusal->message.toEnglish()));
        QVERIFY2(linuxTree(context) == before, qPrintable(linuxTree(context).difference(before)));
        QVERIFY(!QFileInfo::exists(context.files().toHost(QStringLiteral("/srv/real/cudnn"))));
    }

    // Under --system-root root's writes go through the host's folders above the tree: one another
    // user owns could swap the whole tree; a sticky one (/tmp) lets none but root rename root's
    // tree, and will do there.
    void linuxTreeInAFolderOthersMayChange()
    {
        QTemporaryDir outer;
        const auto ownership = std::make_shared<MemoryPosixOwnership>();
        const SystemContext context = linuxContext(outer.filePath(QStringLiteral("tree")), ownership);
        const auto [archive, report] = linuxArchive();
        const auto chosen = targetFromSpec(QStringLiteral("dir:/opt/cudnn"), PathScope::System,
                                           SystemSnapshot(), report, context);
        QVERIFY(chosen);
        ownership->set(outer.path(), 1000, 0755);
        const ChangeOutcome refused =
            install(archive, report, *chosen, context, std::make_shared<MemoryEnvironment>(), atTheConsole());
        QCOMPARE(refused.status, ChangeOutcome::Status::Failed);
        QVERIFY2(std::any_of(refused.findings.cbegin(), refused.findings.cend(),
                             [&](const Finding &finding) {
                                 return finding.id == QLatin1String("target.unsafe-owner-linux") &&
                                        finding.message.toEnglish().contains(
                                            QStringLiteral("but %1 can be changed").arg(outer.path()));
                             }),
                 describe(refused).constData());
        ownership->set(outer.path(), 0, 01777);
        const ChangeOutcome outcome =
            install(archive, report, *chosen, context, std::make_shared<MemoryEnvironment>(), atTheConsole());
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
    }

    // Two folders whose paths differ only in what the readable part of the file name replaces get a
    // file each: the second install takes nothing from the first, and the first's uninstall leaves
    // the second's registration alone.
    void linuxLoaderFilesOfLikeNamedFoldersDiffer()
    {
        QTemporaryDir dir;
        const SystemContext context = linuxContext(dir.path(), std::make_shared<MemoryPosixOwnership>());
        const auto [archive, report] = linuxArchive();
        const auto environment = std::make_shared<MemoryEnvironment>();
        QList<InstallTarget> targets;
        QList<ChangeOutcome> outcomes;
        for (const QString &root : {QStringLiteral("/opt/a b"), QStringLiteral("/opt/a-b")}) {
            const auto chosen = targetFromSpec(QStringLiteral("dir:") + root, PathScope::System,
                                               SystemSnapshot(), report, context);
            QVERIFY(chosen);
            targets.append(*chosen);
            outcomes.append(install(archive, report, *chosen, context, environment, atTheConsole()));
            QVERIFY2(outcomes.last().status == ChangeOutcome::Status::Done,
                     describe(outcomes.last()).constData());
        }
        QVERIFY(targets.at(0).ldSoConfFile() != targets.at(1).ldSoConfFile());
        for (const InstallTarget &target : std::as_const(targets)) {
            QVERIFY2(
                target.ldSoConfFile().startsWith(QLatin1String("/etc/ld.so.conf.d/cudnn-setup-opt-a-b-lib-")),
                qPrintable(target.ldSoConfFile()));
            QFile conf(context.files().toHost(target.ldSoConfFile()));
            QVERIFY(conf.open(QIODevice::ReadOnly));
            QVERIFY(conf.readAll().split('\n').contains(target.dllFolder().toUtf8()));
        }
        const ChangeOutcome first = uninstall(outcomes.at(0).receipt->id, context, environment);
        QVERIFY2(first.status == ChangeOutcome::Status::Done, describe(first).constData());
        QVERIFY(!QFileInfo::exists(context.files().toHost(targets.at(0).ldSoConfFile())));
        QVERIFY(QFileInfo::exists(context.files().toHost(targets.at(1).ldSoConfFile())));
    }

    // An install recorded before the file name carried the path's hash is uninstalled by the name
    // its receipt lists, not by the name this version would give.
    void linuxReceiptWithTheOldLoaderFileNameUninstalls()
    {
        QTemporaryDir dir;
        const SystemContext context = linuxContext(dir.path(), std::make_shared<MemoryPosixOwnership>());
        const auto [archive, report] = linuxArchive();
        const auto chosen = targetFromSpec(QStringLiteral("dir:/opt/cudnn-9.19"), PathScope::System,
                                           SystemSnapshot(), report, context);
        QVERIFY(chosen);
        const auto environment = std::make_shared<MemoryEnvironment>();
        const ChangeOutcome outcome = install(archive, report, *chosen, context, environment, atTheConsole());
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        // What an older version wrote: the same file under the readable name alone.
        const QString oldName = QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-cudnn-9.19-lib.conf");
        QVERIFY(
            QFile::rename(context.files().toHost(chosen->ldSoConfFile()), context.files().toHost(oldName)));
        QFile receiptFile(outcome.receiptPath);
        QVERIFY(receiptFile.open(QIODevice::ReadOnly));
        QByteArray json = receiptFile.readAll();
        receiptFile.close();
        QVERIFY(json.contains(chosen->ldSoConfFile().toUtf8()));
        json.replace(chosen->ldSoConfFile().toUtf8(), oldName.toUtf8());
        QVERIFY(receiptFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
        receiptFile.write(json);
        receiptFile.close();

        const ChangeOutcome removed = uninstall(QString(), context, environment);
        QVERIFY2(removed.status == ChangeOutcome::Status::Done, describe(removed).constData());
        QVERIFY(!QFileInfo::exists(context.files().toHost(oldName)));
        QVERIFY(QDir(context.files().toHost(QStringLiteral("/etc/ld.so.conf.d"))).isEmpty());
    }

    // Root's state folder on Linux: made root's with mode 0755 (others read the receipts, as on
    // Windows); one that others could have changed is set aside with what is in it and made anew,
    // so no receipt or journal planted there steers root. Owners as data: no root needed.
    void linuxMachineStateFolderIsRootsAlone_data()
    {
        QTest::addColumn<bool>("asRoot");
        QTest::addColumn<uint>("owner");
        QTest::addColumn<uint>("mode");
        QTest::addColumn<bool>("setAside");
        QTest::newRow("root's, 0755") << true << 0u << 0755u << false;
        QTest::newRow("root's, 0700") << true << 0u << 0700u << false;
        QTest::newRow("a user's") << true << 1000u << 0755u << true;
        QTest::newRow("its group may write") << true << 0u << 0775u << true;
        QTest::newRow("anyone may write") << true << 0u << 0777u << true;
        QTest::newRow("a user's, prepared by that user") << false << 1000u << 0755u << false;
    }
    void linuxMachineStateFolderIsRootsAlone()
    {
        QFETCH(bool, asRoot);
        QFETCH(uint, owner);
        QFETCH(uint, mode);
        QFETCH(bool, setAside);
        QTemporaryDir dir;
        const auto ownership = std::make_shared<MemoryPosixOwnership>(asRoot);
        const SystemContext context = linuxContext(dir.path(), ownership);
        const StateFolders folders = StateFolders::of(context);
        const QString planted = folders.receipts(folders.machine) + QStringLiteral("/cudnn-planted.json");
        QVERIFY(QDir().mkpath(QFileInfo(planted).absolutePath()));
        QFile file(planted);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        ownership->set(folders.machine, owner, mode);

        QVERIFY(folders.prepare(folders.machine, context, Elevation::host()).ok());
        QCOMPARE(QFileInfo::exists(planted), !setAside);
        const QStringList aside = QDir(QFileInfo(folders.machine).absolutePath())
                                      .entryList({QStringLiteral("cudnn-setup.untrusted-*")}, QDir::Dirs);
        QCOMPARE(aside.size(), setAside ? 1 : 0);
        QVERIFY(QFileInfo(folders.machine).isDir());
        if (setAside) {
            QVERIFY(QFileInfo::exists(QFileInfo(folders.machine).absolutePath() + QLatin1Char('/') +
                                      aside.first() + QStringLiteral("/receipts/cudnn-planted.json")));
            // Made anew: only the folder archives are copied into, root's alone.
            QCOMPARE(QDir(folders.machine).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                     QStringList{QLatin1String(kCustodyFolder)});
        }
#ifndef Q_OS_WIN // POSIX modes are the Linux host's alone
        if (asRoot)
            QCOMPARE(QFileInfo(folders.custody(folders.machine)).permissions(),
                     QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadUser |
                         QFile::WriteUser | QFile::ExeUser);
#endif
    }

    // Made by root where there is none: root's, and others may read it but not write it.
    void linuxMachineStateFolderIsMadeRootsAlone()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "Windows keeps no POSIX modes");
        QTemporaryDir dir;
        const SystemContext context = linuxContext(dir.path(), std::make_shared<MemoryPosixOwnership>(true));
        const StateFolders folders = StateFolders::of(context);
        QVERIFY(!QFileInfo::exists(folders.machine));
        QVERIFY(folders.prepare(folders.machine, context, Elevation::host()).ok());
        const QFile::Permissions made = QFileInfo(folders.machine).permissions();
        const QFile::Permissions expected = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                            QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                            QFile::ExeOther;
        QCOMPARE(made & ~(QFile::ReadUser | QFile::WriteUser | QFile::ExeUser), expected);
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

    // Issue 32: cuDNN 8 beside one program and cuDNN 9 in a folder of its own on the system PATH,
    // side by side. The program's folder gets the libraries only (and zlibwapi.dll, which cuDNN 8's
    // DLLs import), PATH is not touched; the program finds its own copy and a program elsewhere the
    // PATH's. The app install's uninstall removes its files only: the program, its folder and the
    // other cuDNN stay as they were.
    void appFolderSideBySideWithAnotherMajor()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString appFolder = QStringLiteral("C:\\Apps\\Whisper");
        peimage::ImageSpec eight;
        eight.imports = {"KERNEL32.dll", "cudnn64_8.dll"};
        writeHostFile(machine.host(appFolder + QStringLiteral("\\whisper.exe")),
                      peimage::buildImage(eight).bytes);
        peimage::ImageSpec nine;
        nine.imports = {"KERNEL32.dll", "cudnn64_9.dll"};
        writeHostFile(machine.host(QStringLiteral("C:\\Tools\\denoise.exe")),
                      peimage::buildImage(nine).bytes);

        const QString archive9 = save(QStringLiteral("nine.zip"),
                                      archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report9 = inspect(archive9);
        const InstallTarget own = target(machine, QStringLiteral("dir:C:\\cudnn9"), std::nullopt, report9);
        const ChangeOutcome installed9 =
            install(archive9, report9, own, machine.context, machine.environment, atTheConsole());
        QVERIFY2(installed9.status == ChangeOutcome::Status::Done, describe(installed9).constData());
        const QString pathWithNine =
            machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text;
        QVERIFY(pathWithNine.startsWith(QStringLiteral("C:\\cudnn9\\bin;")));

        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12")),
                                QStringLiteral("8.9.7"));
        peimage::ImageSpec importsZlib;
        importsZlib.imports = {"KERNEL32.dll", "zlibwapi.dll"};
        entries[1].data = peimage::buildImage(importsZlib).bytes; // cudnn_ops_infer64_8.dll
        const QString archive8 = save(QStringLiteral("eight.zip"), ZipWriter(entries).finish());
        const ArchiveReport report8 = inspect(archive8);
        const InstallTarget app = target(machine, QStringLiteral("app:") + appFolder, std::nullopt, report8);
        QCOMPARE(app.kind, InstallTarget::Kind::App);
        QCOMPARE(app.pathScope, PathScope::None);
        QCOMPARE(app.dllFolder(), appFolder);
        const TreeSnapshot beforeApp = machine.tree();
        const ChangeOutcome installed8 =
            install(archive8, report8, app, machine.context, machine.environment);
        QVERIFY2(installed8.status == ChangeOutcome::Status::Done, describe(installed8).constData());
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 pathWithNine);
        QVERIFY(!machine.environment->value(EnvironmentScope::User, QStringLiteral("PATH")));
        QVERIFY(installed8.receipt && installed8.receipt->target);
        QCOMPARE(installed8.receipt->target->kind, InstallTarget::Kind::App);
        QVERIFY(installed8.receipt->environment.isEmpty());
        QStringList placed;
        for (const Receipt::File &file : installed8.receipt->files) {
            QCOMPARE(machine.context.paths().parent(file.path), appFolder);
            placed.append(machine.context.paths().fileName(file.path));
        }
        QStringList expected{QStringLiteral("whisper.exe")};
        for (const QString &file : archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12"))) {
            if (file.endsWith(QLatin1String(".dll")))
                expected.append(file.section(QLatin1Char('/'), -1));
        }
        if (embeddedZlibwapiAvailable())
            expected.append(QStringLiteral("zlibwapi.dll"));
        QCOMPARE(placed.size() + 1, expected.size());
        QStringList present =
            QDir(machine.host(appFolder)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        present.sort(Qt::CaseInsensitive);
        expected.sort(Qt::CaseInsensitive);
        QCOMPARE(present, expected); // no include, no lib, no licence, no staging left

        // Each program reaches its own copy: the one beside it first, the other along PATH.
        const auto registry = Registry::unavailable();
        QProcessEnvironment processEnvironment;
        processEnvironment.insert(QStringLiteral("PATH"), pathWithNine);
        const SystemContext seen(FileSystem(OsFamily::Windows, dir.path()),
                                 EnvironmentStore(OsFamily::Windows, processEnvironment, registry), registry,
                                 std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
        const auto reached = [&](const QString &folder, const QString &library) {
            for (const ConsumerInfo &consumer : findConsumers(seen, {}, {folder}, {})) {
                for (const auto &[name, copy] : consumer.resolves) {
                    if (name == library && copy)
                        return copy->path.toLower();
                }
            }
            return QString();
        };
        QCOMPARE(reached(appFolder, QStringLiteral("cudnn64_8.dll")),
                 QStringLiteral("c:\\apps\\whisper\\cudnn64_8.dll"));
        QCOMPARE(reached(QStringLiteral("C:\\Tools"), QStringLiteral("cudnn64_9.dll")),
                 QStringLiteral("c:\\cudnn9\\bin\\cudnn64_9.dll"));

        const ChangeOutcome removed = uninstall(installed8.receipt->id, machine.context, machine.environment);
        QVERIFY2(removed.status == ChangeOutcome::Status::Done, describe(removed).constData());
        QVERIFY2(machine.tree() == beforeApp, qPrintable(machine.tree().difference(beforeApp)));
        QCOMPARE(machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"))->text,
                 pathWithNine);
        QCOMPARE(reached(QStringLiteral("C:\\Tools"), QStringLiteral("cudnn64_9.dll")),
                 QStringLiteral("c:\\cudnn9\\bin\\cudnn64_9.dll"));
    }

    // A program that brought its own (older) cudnn64_8.dll: the install keeps it and the uninstall
    // puts it back as it was. With an app folder that is only the program's, the folder stays even
    // when the uninstall leaves it empty.
    void appFolderFileReplacedIsRestored()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        const QString appFolder = QStringLiteral("C:\\Apps\\Paddle");
        const QByteArray own = peimage::x64Dll() + QByteArray("the program's own build");
        const QString dll = machine.host(appFolder + QStringLiteral("\\cudnn64_8.dll"));
        writeHostFile(dll, own);
        const QString archive = save(QStringLiteral("r.zip"),
                                     archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const TreeSnapshot before = machine.tree();
        const InstallTarget app = target(machine, QStringLiteral("app:") + appFolder, std::nullopt, report);
        const ChangeOutcome installed = install(archive, report, app, machine.context, machine.environment);
        QVERIFY2(installed.status == ChangeOutcome::Status::Done, describe(installed).constData());
        QVERIFY(readHostFile(dll) != own);
        const ChangeOutcome removed = uninstall(QString(), machine.context, machine.environment);
        QVERIFY2(removed.status == ChangeOutcome::Status::Done, describe(removed).constData());
        QCOMPARE(readHostFile(dll), own);
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));

        QFile::remove(dll);
        QVERIFY(install(archive, report, app, machine.context, machine.environment).status ==
                ChangeOutcome::Status::Done);
        QCOMPARE(uninstall(QString(), machine.context, machine.environment).statusName(),
                 QStringLiteral("done"));
        QVERIFY(QFileInfo(machine.host(appFolder)).isDir());
    }

    // An app folder never goes on a PATH, and is refused before any change when asked to; a folder
    // that is not there, or one of the system's, is no program's folder; nor are CUDNN_* variables
    // set for an install without headers.
    void appFolderRefusals()
    {
        QTemporaryDir dir;
        Machine machine(dir.path());
        QDir().mkpath(machine.host(QStringLiteral("C:\\Apps\\Whisper")));
        const QString archive = save(QStringLiteral("f.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        for (const PathScope scope : {PathScope::User, PathScope::System}) {
            const auto refused = targetFromSpec(QStringLiteral("app:C:\\Apps\\Whisper"), scope,
                                                SystemSnapshot(), report, machine.context);
            QVERIFY(!refused);
            QCOMPARE(refused.error().id, QStringLiteral("target.app-path"));
        }
        QVERIFY(targetFromSpec(QStringLiteral("app:C:\\Apps\\Whisper"), PathScope::None, SystemSnapshot(),
                               report, machine.context));
        const auto findingIds = [&](const QString &spec) {
            QStringList ids;
            for (const Finding &finding :
                 checkTarget(target(machine, spec, std::nullopt, report), report, machine.context))
                ids.append(finding.id);
            return ids;
        };
        QVERIFY(
            findingIds(QStringLiteral("app:C:\\Apps\\Gone")).contains(QStringLiteral("target.app-missing")));
        for (const QString &system : {QStringLiteral("C:\\Windows\\System32"), QStringLiteral("C:\\"),
                                      QStringLiteral("C:\\Program Files")}) {
            const QStringList ids = findingIds(QStringLiteral("app:") + system);
            QVERIFY2(ids.contains(QStringLiteral("target.app-system-folder")), qPrintable(system));
        }
        QCOMPARE(findingIds(QStringLiteral("app:C:\\Apps\\Whisper")), QStringList());

        const TreeSnapshot before = machine.tree();
        ChangeOptions options;
        options.cudnnVariables = EnvironmentScope::User;
        const InstallTarget app =
            target(machine, QStringLiteral("app:C:\\Apps\\Whisper"), std::nullopt, report);
        const ChangeOutcome refused =
            install(archive, report, app, machine.context, machine.environment, options);
        QCOMPARE(refused.status, ChangeOutcome::Status::Failed);
        QVERIFY(hasFinding(refused, QStringLiteral("install.app-variables")));
        QVERIFY2(machine.tree() == before, qPrintable(machine.tree().difference(before)));
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
            const auto report = inspectArchive(path, kb.publishedArchives(), options);
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
            QCOMPARE(installed.receipt->archive.sha256, Sha256::of(one.bytes));
            QCOMPARE(installed.receipt->archive.official, one.official);
            QCOMPARE(installed.receipt->archive.cudnn.toString(), QStringLiteral("9.1.0.70"));
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
        const auto files = std::make_shared<HeldFiles>();
        files->held = machine.host(dll);
        const QString archive = save(QStringLiteral("u.zip"),
                                     archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        const ArchiveReport report = inspect(archive);
        const InstallTarget into = target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::None, report);
        const TreeSnapshot before = machine.tree();
        const auto account = std::make_shared<Account>();
        const SystemContext context = machine.context.withFilesInUse(files).withElevation(account);
        ChangeOptions options;
        const auto inUseFinding = [](const ChangeOutcome &outcome) -> const Finding * {
            for (const Finding &finding : outcome.findings) {
                if (finding.id == QLatin1String("install.files-in-use"))
                    return &finding;
            }
            return nullptr;
        };

        const ChangeOutcome stopped = install(archive, report, into, context, machine.environment, options);
        QCOMPARE(stopped.exitCode(), 1603);
        QVERIFY(inUseFinding(stopped));
        QVERIFY(inUseFinding(stopped)->message.toEnglish().contains(QStringLiteral("python.exe (4242)")));
        QVERIFY(inUseFinding(stopped)->fix.toEnglish().contains(QStringLiteral("replace the files anyway")));
        QVERIFY(machine.tree() == before);

        // Not an administrator: refused before anything is unpacked, and said why.
        options.replaceInUse = true;
        const ChangeOutcome refused = install(archive, report, into, context, machine.environment, options);
        QCOMPARE(refused.exitCode(), 1603);
        QVERIFY(inUseFinding(refused));
        QVERIFY2(inUseFinding(refused)->fix.toEnglish().contains(QStringLiteral("only an administrator")),
                 qPrintable(inUseFinding(refused)->fix.toEnglish()));
        QVERIFY(machine.tree() == before);

        account->administrator = true;
        const ChangeOutcome replaced = install(archive, report, into, context, machine.environment, options);
        QVERIFY2(replaced.status == ChangeOutcome::Status::DoneRestartNeeded, describe(replaced).constData());
        QCOMPARE(replaced.exitCode(), 3010);
        QVERIFY(findingIds(replaced.findings).contains(QStringLiteral("install.replaced-in-use")));
        QFile now(machine.host(dll));
        QVERIFY(now.open(QIODevice::ReadOnly));
        QVERIFY(now.readAll() != oldBytes); // the new file, for every program started from now on
        now.close();
        // The state folder is on the target's volume here: the old file was renamed where the
        // receipt keeps it, so nothing waits for the next start and nothing is left beside the DLL.
        QVERIFY(files->removedAtReboot.isEmpty());
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
        const SystemContext asSystem = machine.context.withElevation(std::make_shared<AsSystem>());
        const ChangeOptions options = atTheConsole();
        const TreeSnapshot before = machine.tree();
        const ChangeOutcome refused =
            install(archive, report, target(machine, QStringLiteral("user"), std::nullopt, report), asSystem,
                    machine.environment, options);
        QCOMPARE(refused.exitCode(), 1603);
        QCOMPARE(refused.findings.last().id, QStringLiteral("elevation.system-user-target"));
        QVERIFY(machine.tree() == before);
        // The system PATH, changed from session 0: done, but it reaches programs only after the
        // next sign-in, which the exit code (3010) and a finding say.
        const ChangeOutcome systemPath = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\cudnn"), PathScope::System, report),
            asSystem, machine.environment, options);
        QVERIFY2(systemPath.status == ChangeOutcome::Status::DoneRestartNeeded,
                 describe(systemPath).constData());
        QCOMPARE(systemPath.exitCode(), 3010);
        QCOMPARE(systemPath.findings.last().id, QStringLiteral("install.takes-effect-after-sign-in"));
        // Files only, no environment: nothing waits for a sign-in.
        const ChangeOutcome filesOnly = install(
            archive, report, target(machine, QStringLiteral("dir:C:\\other"), PathScope::None, report),
            asSystem, machine.environment, options);
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
            *machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH"));

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
        QCOMPARE(*machine.environment->value(EnvironmentScope::System, QStringLiteral("PATH")), pathBefore);
        QVERIFY(!QFileInfo::exists(
            machine.host(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\transaction.journal"))));
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestInstaller)
#include "tst_installer.moc"
