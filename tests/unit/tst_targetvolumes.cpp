// checkTarget and the disks: free space and volumes through a stand-in, writes and replacements
// tried for real, staging on another volume, a read-only folder, and the host's volumes.
#include "InstallTargetWorkstation.h"
#include "Suite.h"
#include "archive/ArchiveInspector.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetChecks.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace cudnnsetup;

namespace {

// Volumes whose answers a test chooses; unset answers are the host's.
class FakeVolumes final : public Volumes
{
public:
    qint64 free = -2; // -2: ask the host
    mutable QStringList freeAsked;
    std::function<QString(const QString &)> id;
    std::function<WriteProbe(const QString &)> write;
    std::function<WriteProbe(const QString &)> replace;

    qint64 freeBytes(const QString &hostPath) const override
    {
        freeAsked.append(hostPath);
        return free == -2 ? Volumes::freeBytes(hostPath) : free;
    }
    QString volumeId(const QString &hostPath) const override
    {
        return id ? id(hostPath) : Volumes::volumeId(hostPath);
    }
    WriteProbe tryWrite(const QString &hostFolder) const override
    {
        return write ? write(hostFolder) : Volumes::tryWrite(hostFolder);
    }
    WriteProbe tryReplace(const QString &hostFile) const override
    {
        return replace ? replace(hostFile) : Volumes::tryReplace(hostFile);
    }
};

} // namespace

class TestTargetVolumes : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWorkstation(); }

    // Free space from a stand-in: twice the archive is enough, a byte less is not.
    void freeSpace()
    {
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-space\\v9.1"));
        qint64 unpacked = 0;
        for (const PlannedFile &file : cudnnsetup::placeFiles(report, target))
            unpacked += file.size;
        const qint64 needed = std::max(2 * report.size, unpacked);
        QVERIFY(needed > 0);

        FakeVolumes volumes;
        volumes.free = needed;
        Findings findings = checkTarget(target, report, context(), volumes);
        QVERIFY2(ids(findings, Severity::Info).isEmpty(), qPrintable(describe(findings)));
        // Asked on the sandbox's side of the root, for the target's own place.
        QVERIFY(!volumes.freeAsked.isEmpty());
        QVERIFY2(volumes.freeAsked.constFirst().startsWith(m_sandbox.root()),
                 qPrintable(volumes.freeAsked.join(QLatin1Char(','))));
        QVERIFY(volumes.freeAsked.constFirst().endsWith(QLatin1String("/cudnn-space/v9.1")));

        volumes.free = needed - 1;
        findings = checkTarget(target, report, context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space")});
        const Finding *finding = findingOf(findings, QStringLiteral("target.no-space"));
        QVERIFY(finding->details.contains(
            QStringLiteral("available %1 bytes, needed %2 bytes").arg(needed - 1).arg(needed)));
        QVERIFY(finding->details.contains(QStringLiteral("archive %1").arg(report.size)));
        QVERIFY(!finding->fix.isEmpty());

        // Free space nobody could read is said, never taken for enough.
        volumes.free = -1;
        findings = checkTarget(target, report, context(), volumes);
        QVERIFY(ids(findings).isEmpty());
        QVERIFY(findingOf(findings, QStringLiteral("target.space-unknown")));

        // A huge archive on the real disk of this host: more than any disk holds.
        ArchiveReport huge = report;
        huge.size = qint64(1) << 60;
        findings = checkTarget(target, huge, context());
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space")});
    }

    // The files an install replaces are kept under the state folder: on another drive than the
    // target they are copies, and that drive must hold them.
    void keepingSpaceCountsTheStateFoldersDrive()
    {
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-keep\\v9.1"));
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        QVERIFY(planned.size() >= 2);
        const QString kept = m_sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\receipts\\r1"));
        FakeVolumes volumes;
        volumes.id = [](const QString &path) {
            return path.contains(QLatin1String("ProgramData")) ? QStringLiteral("D:") : QStringLiteral("C:");
        };
        volumes.free = 0;
        // Nothing replaced: nothing to keep.
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());

        m_sandbox.write(planned.at(0).destination, QByteArray(1000, 'a'));
        m_sandbox.write(planned.at(1).destination, QByteArray(500, 'b'));
        const auto cleanUp = qScopeGuard([&] {
            QFile::remove(m_sandbox.hostPath(planned.at(0).destination));
            QFile::remove(m_sandbox.hostPath(planned.at(1).destination));
        });
        volumes.free = 1499;
        Findings findings = checkKeepingSpace(planned, kept, target, context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space-to-keep")});
        QVERIFY2(findings.first().details.contains(QStringLiteral("available 1499 bytes, needed 1500 bytes")),
                 qPrintable(findings.first().details));
        QVERIFY(
            findings.first().message.toEnglish().contains(QStringLiteral("C:\\ProgramData\\cuDNN Setup")));
        QVERIFY(!findings.first().fix.isEmpty());
        volumes.free = 1500;
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());
        // Unknown free space is said, not taken for enough.
        volumes.free = -1;
        findings = checkKeepingSpace(planned, kept, target, context(), volumes);
        QVERIFY(ids(findings).isEmpty());
        QVERIFY(findingOf(findings, QStringLiteral("target.space-unknown")));
        // On the target's own drive they are only renamed.
        volumes.id = [](const QString &) { return QStringLiteral("C:"); };
        volumes.free = 0;
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());
    }

    // The write test's answer decides the message: admin rights help only where access was denied
    // to a user who is not one.
    void notWritableSaysWhetherAdminHelps_data()
    {
        QTest::addColumn<bool>("accessDenied");
        QTest::addColumn<bool>("elevated");
        QTest::addColumn<bool>("adminHelps");
        QTest::newRow("denied, standard user") << true << false << true;
        QTest::newRow("denied, already elevated") << true << true << false;
        QTest::newRow("read-only medium") << false << false << false;
    }

    void notWritableSaysWhetherAdminHelps()
    {
        QFETCH(bool, accessDenied);
        QFETCH(bool, elevated);
        QFETCH(bool, adminHelps);
        FakeVolumes volumes;
        volumes.write = [&](const QString &folder) {
            WriteProbe probe;
            probe.folder = folder;
            probe.accessDenied = accessDenied;
            probe.elevated = elevated;
            probe.error =
                accessDenied ? QStringLiteral("Access is denied.") : QStringLiteral("Read-only file system");
            return probe;
        };
        const Findings findings =
            checkTarget(target(QStringLiteral("dir")), archive(QStringLiteral("9.1")), context(), volumes);
        const QString id =
            adminHelps ? QStringLiteral("target.needs-admin") : QStringLiteral("target.not-writable");
        QCOMPARE(ids(findings), QStringList{id});
        const QString message = findingOf(findings, id)->message.toEnglish();
        QCOMPARE(message.contains(QLatin1String("administrator rights would allow it")), adminHelps);
        QCOMPARE(message.contains(QLatin1String("administrator rights would not help")), !adminHelps);
    }

    // Every destination folder (or the nearest existing one above it) is tried once: a toolkit's
    // bin, include and lib\x64; a venv's site-packages.
    void writeTestedWhereFilesGo()
    {
        FakeVolumes volumes;
        QStringList tried;
        volumes.write = [&](const QString &folder) {
            tried.append(folder.mid(m_sandbox.root().size()));
            WriteProbe probe;
            probe.ok = true;
            return probe;
        };
        QVERIFY(ids(checkTarget(target(QStringLiteral("cuda:13")), archive(QStringLiteral("9.18")), context(),
                                volumes))
                    .isEmpty());
        QCOMPARE(
            tried,
            (QStringList{QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/bin/x64"),
                         QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/include"),
                         QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/lib/x64")}));
        tried.clear();
        QVERIFY(ids(checkTarget(target(QStringLiteral("venv:") + kVenv), archive(QStringLiteral("9.1")),
                                context(), volumes))
                    .isEmpty());
        QCOMPARE(tried,
                 QStringList{QStringLiteral("/Users/\u5f20\u4e09/\u9879\u76ee/.venv/Lib/site-packages")});
    }

    // An all-users conda in ProgramData: users may add files there but not remove an
    // administrator's, so the write test passes and replacing the cuDNN already there would fail.
    // The replace test of each file to be replaced says so before anything is changed; a file the
    // user may replace, and a new one, pass.
    void filesToReplaceNeedTheRightToReplace()
    {
        const InstallTarget target = this->target(QStringLiteral("conda:torch"));
        const QString existing = target.dllFolder() + QStringLiteral("\\cudnn64_9.dll");
        m_sandbox.write(existing, "the administrator's cuDNN");
        FakeVolumes volumes;
        QStringList asked;
        bool mayReplace = false;
        volumes.replace = [&](const QString &file) {
            asked.append(file);
            WriteProbe probe;
            probe.folder = file;
            probe.ok = mayReplace;
            probe.accessDenied = !mayReplace;
            probe.error = mayReplace ? QString() : QStringLiteral("Access is denied.");
            return probe;
        };
        Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.needs-admin")});
        QVERIFY2(
            findingOf(findings, QStringLiteral("target.needs-admin"))->message.toEnglish().contains(existing),
            qPrintable(describe(findings)));
        QCOMPARE(asked, QStringList{m_sandbox.hostPath(existing)}); // only the file that is there
        mayReplace = true;
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
        QVERIFY(QFile::remove(m_sandbox.hostPath(existing)));
    }

    // The real replace test changes nothing and passes for a file this process may remove.
    void replaceTestChangesNothing()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cudnn64_9.dll"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("bytes");
        out.close();
        const WriteProbe probe = Volumes::host().tryReplace(file);
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QVERIFY(!probe.adminWouldHelp());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("cudnn64_9.dll")});
    }

    // Staging is renamed into place, so it must share the destinations' volume.
    void stagingOnAnotherVolume()
    {
        FakeVolumes volumes;
        volumes.id = [](const QString &path) {
            return path.contains(QLatin1String("/include")) ? QStringLiteral("D:") : QStringLiteral("C:");
        };
        const InstallTarget target = this->target(QStringLiteral("cuda:12.4"));
        Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.staging-volume")});
        QVERIFY(findingOf(findings, QStringLiteral("target.staging-volume"))
                    ->message.toEnglish()
                    .contains(kCuda + QStringLiteral("v12.4\\include")));
        volumes.id = [](const QString &) { return QString(); }; // unknown: not an error
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
        volumes.id = nullptr; // the host's: the sandbox is on one volume
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
    }

    // A folder this user cannot write: the real write test fails with access denied. Root (and
    // Windows, which ignores the read-only attribute of folders) can write anyway: then the row
    // cannot be made and is skipped.
    void readOnlyFolder()
    {
        const QString folder = m_sandbox.hostPath(QStringLiteral("C:\\readonly"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        QFile canary(folder + QStringLiteral("/canary"));
        const bool writable = canary.open(QIODevice::WriteOnly | QIODevice::NewOnly);
        if (writable) {
            canary.close();
            canary.remove();
            QFile::setPermissions(folder,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            QSKIP("this user can write to a read-only folder (root, or Windows)");
        }
        const WriteProbe probe = Volumes::host().tryWrite(folder + QStringLiteral("/cudnn/bin"));
        const Findings findings = checkTarget(target(QStringLiteral("dir:C:\\readonly\\cudnn")),
                                              archive(QStringLiteral("9.1")), context());
        QFile::setPermissions(folder,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!probe.ok);
        QVERIFY(probe.accessDenied);
        QCOMPARE(probe.folder, folder);
        const QString id = Volumes::isElevated() ? QStringLiteral("target.not-writable")
                                                 : QStringLiteral("target.needs-admin");
        QCOMPARE(ids(findings), QStringList{id});
        QCOMPARE(findingOf(findings, id)->message.toEnglish().contains(QLatin1String("would allow it")),
                 !Volumes::isElevated());
    }

    // The host's volumes, for real.
    void hostVolumes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Volumes &volumes = Volumes::host();
        WriteProbe probe = volumes.tryWrite(dir.path());
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QCOMPARE(probe.folder, dir.path());
        QCOMPARE(
            QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
            QStringList()); // removed again

        // A folder that does not exist yet: tried in the nearest one above, never created.
        probe = volumes.tryWrite(dir.filePath(QStringLiteral("new/deeper")));
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QCOMPARE(probe.folder, dir.path());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("new"))));

        // A file in the way: no rights would help.
        QFile file(dir.filePath(QStringLiteral("file.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        probe = volumes.tryWrite(dir.filePath(QStringLiteral("file.txt/below")));
        QVERIFY(!probe.ok);
        QVERIFY(probe.notAFolder);
        QVERIFY(!probe.adminWouldHelp());
        QCOMPARE(probe.folder, dir.filePath(QStringLiteral("file.txt")));

        QVERIFY(volumes.freeBytes(dir.path()) > 0);
        QVERIFY(volumes.freeBytes(dir.filePath(QStringLiteral("missing/x"))) > 0);
        QCOMPARE(volumes.sameVolume(dir.path(), dir.filePath(QStringLiteral("missing/x"))),
                 std::optional<bool>(true));
        QVERIFY(!volumes.volumeId(dir.path()).isEmpty());
        QCOMPARE(Volumes::nearestExisting(dir.filePath(QStringLiteral("a/b/c"))), dir.path());
        QCOMPARE(Volumes::nearestExisting(dir.filePath(QStringLiteral("file.txt"))),
                 dir.filePath(QStringLiteral("file.txt")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTargetVolumes)
#include "tst_targetvolumes.moc"
