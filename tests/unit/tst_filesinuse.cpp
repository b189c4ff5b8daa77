#include "Sandbox.h"
#include "Suite.h"
#include "UnderWine.h"
#include "platform/DurableFiles.h"
#include "platform/Elevation.h"
#include "platform/FilesInUse.h"
#include "platform/Registry.h"

#ifdef Q_OS_WIN
#include <windows.h>

#include <thread>
#else
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

const ProcessUsingFile *findPid(const QList<ProcessUsingFile> &processes, qint64 pid)
{
    for (const ProcessUsingFile &process : processes) {
        if (qint64(process.pid) == pid)
            return &process;
    }
    return nullptr;
}

QString describe(const QList<ProcessUsingFile> &processes)
{
    QStringList lines;
    for (const ProcessUsingFile &process : processes)
        lines.append(QStringLiteral("%1 %2 (%3)").arg(process.pid).arg(process.name, process.description));
    return lines.join(QStringLiteral("; "));
}

// A running stand-in program, killed when the test ends.
class RunningTool
{
public:
    RunningTool(const Sandbox &sandbox, const QString &path)
        : m_path(sandbox.hostPath(path))
    {
        ToolBehaviour tool;
        tool.sleepMs = 60000;
        sandbox.writeTool(path, tool);
        m_process.setProgram(m_path);
    }
    ~RunningTool()
    {
        m_process.kill();
        m_process.waitForFinished(10000);
    }
    bool start()
    {
        m_process.start();
        return m_process.waitForStarted(30000);
    }
    QProcess &process() { return m_process; }
    QString path() const { return m_path; }

private:
    QString m_path;
    QProcess m_process;
};

#ifdef Q_OS_WIN
const QString kSessionManager = QStringLiteral("SYSTEM\\CurrentControlSet\\Control\\Session Manager");

// PendingFileRenameOperations as its list of strings (pairs: source, "!"-marked or plain target).
QStringList pendingRenames()
{
    const std::optional<RegistryValue> value = Registry::forRunningSystem()->value(
        RegistryHive::LocalMachine, kSessionManager, QStringLiteral("PendingFileRenameOperations"));
    if (!value)
        return {};
    // REG_MULTI_SZ: each string ends in a NUL, the list in one more; a removal's empty new name is
    // a string of its own.
    QString text =
        QString::fromUtf16(reinterpret_cast<const char16_t *>(value->raw.constData()), value->raw.size() / 2);
    if (text.endsWith(QStringLiteral("%1%1").arg(QChar(0))))
        text.chop(1);
    QStringList entries = text.split(QChar(0));
    entries.removeLast(); // after the last string's NUL
    return entries;
}

// Puts the list back (the test's own pair taken out), or removes the value when nothing is left.
bool writePendingRenames(const QStringList &entries)
{
    HKEY key = nullptr;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, kSessionManager.toStdWString().c_str(), 0, KEY_SET_VALUE, &key) !=
        ERROR_SUCCESS)
        return false;
    LONG rc;
    if (entries.isEmpty()) {
        rc = RegDeleteValueW(key, L"PendingFileRenameOperations");
    } else {
        QString data = entries.join(QChar(0));
        data.append(QChar(0));
        data.append(QChar(0));
        rc = RegSetValueExW(key, L"PendingFileRenameOperations", 0, REG_MULTI_SZ,
                            reinterpret_cast<const BYTE *>(data.utf16()), DWORD(data.size() * 2));
    }
    RegCloseKey(key);
    return rc == ERROR_SUCCESS;
}

// The index of the pair that renames `from` to `to` (an empty `to`: removes it), or -1.
qsizetype findPendingPair(const QStringList &entries, const QString &from, const QString &to)
{
    const QString source = QDir::toNativeSeparators(from);
    const QString target = QDir::toNativeSeparators(to);
    for (qsizetype i = 0; i + 1 < entries.size(); i += 2) {
        if (entries.at(i).endsWith(source, Qt::CaseInsensitive) &&
            (target.isEmpty() ? entries.at(i + 1).isEmpty()
                              : entries.at(i + 1).endsWith(target, Qt::CaseInsensitive)))
            return i;
    }
    return -1;
}
#endif

} // namespace

class TestFilesInUse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingAskedNothingHeld()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Expected<QList<ProcessUsingFile>> none = FilesInUse::host().processesUsing({});
        QVERIFY(none.ok());
        QVERIFY(none->isEmpty());
        const Expected<QList<ProcessUsingFile>> missing =
            FilesInUse::host().processesUsing({dir.filePath(QStringLiteral("cudnn64_8.dll"))});
        QVERIFY2(missing.ok(), qPrintable(missing.error().details));
        QVERIFY(missing->isEmpty());
    }

    void aFileNobodyHoldsIsFree()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cudnn_ops_infer64_8.dll"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("MZ");
        out.close();
        const Expected<QList<ProcessUsingFile>> holders = FilesInUse::host().processesUsing({file});
        QVERIFY2(holders.ok(), qPrintable(holders.error().details));
        QVERIFY2(holders->isEmpty(), qPrintable(describe(*holders)));
    }

#ifndef Q_OS_WIN
    void findsAChildThatHasTheFileOpen()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cudnn64_8.dll"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("MZ");
        out.close();
        QProcess sleeper;
        sleeper.setStandardInputFile(file);
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(sleeper.waitForStarted(10000));
        const auto stop = qScopeGuard([&] {
            sleeper.kill();
            sleeper.waitForFinished(10000);
        });

        // By another name too: found by device and inode, not by the path.
        const QString link = dir.filePath(QStringLiteral("link.dll"));
        QVERIFY(QFile::link(file, link));
        for (const QString &asked : {file, link}) {
            const Expected<QList<ProcessUsingFile>> holders = FilesInUse::host().processesUsing({asked});
            QVERIFY2(holders.ok(), qPrintable(holders.error().details));
            const ProcessUsingFile *holder = findPid(*holders, sleeper.processId());
            QVERIFY2(holder, qPrintable(describe(*holders)));
            QCOMPARE(holder->name, QStringLiteral("sleep"));
            // QProcess starts it by its full path.
            QVERIFY2(holder->description.endsWith(QStringLiteral("sleep 60")),
                     qPrintable(holder->description));
        }

        sleeper.kill();
        sleeper.waitForFinished(10000);
        const Expected<QList<ProcessUsingFile>> after = FilesInUse::host().processesUsing({file});
        QVERIFY(after.ok());
        QVERIFY2(!findPid(*after, sleeper.processId()), qPrintable(describe(*after)));
    }

    void runningExecutableCannotBeOpenedForWritingOnLinux()
    {
        Sandbox sandbox;
        RunningTool tool(sandbox, QStringLiteral("/bin/holder"));
        QVERIFY(tool.start());
        // Linux refuses to write a running program (ETXTBSY), the one "in use" error it has.
        const int fd = ::open(QFile::encodeName(tool.path()).constData(), O_WRONLY);
        const int error = errno;
        if (fd >= 0)
            ::close(fd);
        QVERIFY(fd < 0);
        QCOMPARE(error, ETXTBSY);
        QVERIFY(FilesInUse::host().isInUseError(SystemFailure{QStringLiteral("busy"),
                                                              error,
                                                              { tool.path() }}));
    }
#endif

    void findsAProgramByItsRunningExecutable()
    {
        Sandbox sandbox;
        RunningTool tool(sandbox, QStringLiteral("/python/python.exe"));
        QVERIFY(tool.start());
        const Expected<QList<ProcessUsingFile>> holders = FilesInUse::host().processesUsing({tool.path()});
        QVERIFY2(holders.ok(), qPrintable(holders.error().details));
        qInfo("holders of the running program's file: [%s]", qPrintable(describe(*holders)));
        if (runningUnderWine()) {
            // Wine's Restart Manager answers every call with success and lists nobody.
            QVERIFY(holders->isEmpty() || findPid(*holders, tool.process().processId()));
            return;
        }
        const ProcessUsingFile *holder = findPid(*holders, tool.process().processId());
        QVERIFY2(holder, qPrintable(describe(*holders)));
        QCOMPARE(holder->name, QStringLiteral("python.exe"));
    }

    void durableFailuresSayWhichSystemError()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.dll"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.close();

        const SystemResult missing = durable::rename(dir.filePath(QStringLiteral("missing.dll")),
                                                     dir.filePath(QStringLiteral("b.dll")));
        QVERIFY(!missing);
#ifdef Q_OS_WIN
        QCOMPARE(missing.error().code, int(ERROR_FILE_NOT_FOUND));
#else
        QCOMPARE(missing.error().code, ENOENT);
#endif
        QCOMPARE(missing.error().paths, QStringList({dir.filePath(QStringLiteral("missing.dll")),
                                                     dir.filePath(QStringLiteral("b.dll"))}));
        QVERIFY(missing.error().message.contains(QStringLiteral("missing.dll")));
        QVERIFY(!FilesInUse::host().isInUseError(missing.error()));

        QVERIFY(durable::rename(file, dir.filePath(QStringLiteral("b.dll"))));

        // A read-only file is removed all the same; one that is not there is fine.
        const QString readOnly = dir.filePath(QStringLiteral("read-only.dll"));
        QFile ro(readOnly);
        QVERIFY(ro.open(QIODevice::WriteOnly));
        ro.close();
        QVERIFY(QFile::setPermissions(readOnly, QFileDevice::ReadOwner | QFileDevice::ReadUser));
        QVERIFY(durable::remove(readOnly));
        QVERIFY(!QFileInfo::exists(readOnly));
        QVERIFY(durable::remove(readOnly));

        // Copy and write report the rename that ends them.
        const SystemResult copied =
            durable::copy(dir.filePath(QStringLiteral("b.dll")), dir.filePath(QStringLiteral("c.partial")),
                          dir.filePath(QStringLiteral("no folder/c.dll")));
        QVERIFY(!copied);
        QVERIFY(copied.error().code != 0);
        QCOMPARE(copied.error().paths.value(1), dir.filePath(QStringLiteral("no folder/c.dll")));
        const SystemResult written = durable::write("x", dir.filePath(QStringLiteral("d.partial")),
                                                    dir.filePath(QStringLiteral("no folder/d.dll")));
        QVERIFY(!written);
        QVERIFY(written.error().code != 0);
        // A copy that fails before its rename (no such source) says so with no system code.
        const SystemResult noSource =
            durable::copy(dir.filePath(QStringLiteral("none.dll")), dir.filePath(QStringLiteral("e.partial")),
                          dir.filePath(QStringLiteral("e.dll")));
        QVERIFY(!noSource);
        QCOMPARE(noSource.error().code, 0);
        QVERIFY(noSource.error().message.contains(QStringLiteral("none.dll")));
    }

#ifndef Q_OS_WIN
    void lackOfRightsIsNotInUse()
    {
        if (::geteuid() == 0)
            QSKIP("root may remove anything");
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + QStringLiteral("/cudnn64_8.dll");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.close();
        QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const auto unlock = qScopeGuard([&] {
            QFile::setPermissions(folder,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        });
        const SystemResult removed = durable::remove(file);
        QVERIFY(!removed);
        QCOMPARE(removed.error().code, EACCES);
        QCOMPARE(removed.error().paths, QStringList{file});
        QVERIFY(removed.error().message.contains(file));
        QVERIFY(durable::isAccessDenied(removed.error()));
        QVERIFY(!FilesInUse::host().isInUseError(removed.error()));
    }

    void inUseCodes()
    {
        SystemFailure failure;
        failure.code = ETXTBSY;
        QVERIFY(FilesInUse::host().isInUseError(failure));
        failure.code = EACCES;
        QVERIFY(!FilesInUse::host().isInUseError(failure));
        failure.code = 0;
        QVERIFY(!FilesInUse::host().isInUseError(failure));
    }
#else
    void inUseCodes()
    {
        QTemporaryDir dir;
        const QString free = dir.filePath(QStringLiteral("free.dll"));
        QFile out(free);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.close();
        SystemFailure failure;
        failure.paths = QStringList{free};
        failure.code = ERROR_SHARING_VIOLATION;
        QVERIFY(FilesInUse::host().isInUseError(failure));
        failure.code = 33; // ERROR_LOCK_VIOLATION
        QVERIFY(FilesInUse::host().isInUseError(failure));
        failure.code = ERROR_FILE_NOT_FOUND;
        QVERIFY(!FilesInUse::host().isInUseError(failure));
        // "Access denied" on a file nobody holds is a lack of rights.
        failure.code = ERROR_ACCESS_DENIED;
        QVERIFY(!FilesInUse::host().isInUseError(failure));

        // ...and on a file another process has open without sharing writes, it is "in use".
        const std::wstring name = QDir::toNativeSeparators(free).toStdWString();
        HANDLE held = CreateFileW(name.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                  FILE_ATTRIBUTE_NORMAL, nullptr);
        QVERIFY(held != INVALID_HANDLE_VALUE);
        QVERIFY(FilesInUse::host().isInUseError(failure));
        CloseHandle(held);
    }

    // An antivirus scanner holds a new file for a moment (opened without sharing): the removal
    // waits it out. A hold that does not end fails, as a sharing violation.
    void aMomentaryHoldIsWaitedOut()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cudnn64_9.dll"));
        // Written, then opened by "the scanner" without sharing until `milliseconds` have passed.
        const auto heldFile = [&]() {
            QFile out(file);
            if (!out.open(QIODevice::WriteOnly) || out.write("dll") != 3)
                return INVALID_HANDLE_VALUE;
            out.close();
            const std::wstring name = QDir::toNativeSeparators(file).toStdWString();
            return CreateFileW(name.c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL,
                               nullptr);
        };
        const auto releaseAfter = [](HANDLE held, DWORD milliseconds) {
            return std::thread([held, milliseconds] {
                Sleep(milliseconds);
                CloseHandle(held);
            });
        };
        HANDLE held = heldFile();
        QVERIFY(held != INVALID_HANDLE_VALUE);
        std::thread scanner = releaseAfter(held, 300);
        const SystemResult removed = durable::remove(file);
        scanner.join();
        QVERIFY2(removed, qPrintable(removed ? QString() : removed.error().message));
        QVERIFY(!QFileInfo::exists(file));

        held = heldFile();
        QVERIFY(held != INVALID_HANDLE_VALUE);
        scanner = releaseAfter(held, 6000); // longer than the retries
        const SystemResult renamed = durable::rename(file, dir.filePath(QStringLiteral("moved.dll")));
        scanner.join();
        QVERIFY(!renamed);
        QCOMPARE(renamed.error().code, int(ERROR_SHARING_VIOLATION));
        QVERIFY(FilesInUse::host().isInUseError(renamed.error()));
        QVERIFY(QFileInfo::exists(file));
    }

    void replacingARunningProgramIsInUse()
    {
        Sandbox sandbox;
        RunningTool tool(sandbox, QStringLiteral("/python/python.exe"));
        QVERIFY(tool.start());
        sandbox.write(QStringLiteral("/staged.exe"), "new");
        const SystemResult replaced =
            durable::rename(sandbox.hostPath(QStringLiteral("/staged.exe")), tool.path());
        qInfo("replacing the running program: %s (system error %d)",
              replaced ? "done" : qPrintable(replaced.error().message), replaced ? 0 : replaced.error().code);
        if (replaced && runningUnderWine())
            QSKIP("Wine replaced a running program's file (Windows refuses): checked only on Windows");
        QVERIFY(!replaced);
        QVERIFY2(FilesInUse::host().isInUseError(replaced.error()), qPrintable(replaced.error().message));

        const SystemResult removed = durable::remove(tool.path());
        qInfo("removing the running program: %s (system error %d)",
              removed ? "done" : qPrintable(removed.error().message), removed ? 0 : removed.error().code);
        QVERIFY(!removed);
        QVERIFY(FilesInUse::host().isInUseError(removed.error()));
    }
#endif

    // A removal at the next start is recorded as a pair whose second name is empty; nothing is
    // removed now.
    void removeAtReboot()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString aside = dir.filePath(QStringLiteral("cudnn64_8.dll.cudnn-setup-replaced"));
        QFile file(aside);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("the old one");
        file.close();
        const SystemResult scheduled = FilesInUse::host().removeAtReboot(aside);
        const QString error = scheduled ? QString() : scheduled.error().message;
#ifdef Q_OS_WIN
        if (!scheduled) {
            qInfo("removal at reboot refused: %s", qPrintable(error));
            // An administrator (and LocalSystem) may; for anyone else the error says what it was.
            QVERIFY2(!Elevation::host().isElevated(), qPrintable(error));
            QVERIFY(error.contains(QDir::toNativeSeparators(aside)));
            QVERIFY(error.contains(QStringLiteral("error")));
            return;
        }
        QStringList entries = pendingRenames();
        const qsizetype pair = findPendingPair(entries, aside, QString());
        qInfo("PendingFileRenameOperations: %s", qPrintable(entries.join(QStringLiteral(" | "))));
        QVERIFY2(pair >= 0, qPrintable(entries.join(QStringLiteral(" | "))));
        QVERIFY(entries.at(pair + 1).isEmpty()); // no new name: removed
        entries.remove(pair, 2);
        QVERIFY(writePendingRenames(entries));
        QCOMPARE(findPendingPair(pendingRenames(), aside, QString()), qsizetype(-1));
        QVERIFY(QFileInfo::exists(aside)); // not yet
#else
        QVERIFY(!scheduled);
        QVERIFY(error.contains(QStringLiteral("not supported")));
        QVERIFY(error.contains(aside));
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestFilesInUse)
#include "tst_filesinuse.moc"
