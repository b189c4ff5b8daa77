// The machine's state folder as the running Windows system (Wine's, in CI) places and protects it:
// where the system keeps ProgramData, whatever the environment says, and its folders made with
// their descriptor through Win32 itself.
#include "Suite.h"
#include "install/StateFolders.h"
#include "platform/FileSecurity.h"
#include "platform/HostInfo.h"
#include "platform/SecurityDescriptor.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

class TestWinStateFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Review 2, N7: an elevated process inherits its user's environment, so %ProgramData% may name
    // the user's own folder; the machine folder is where Windows keeps ProgramData all the same.
    void theMachineFolderIsWhereWindowsKeepsProgramData()
    {
        QTemporaryDir users;
        QVERIFY(users.isValid());
        const QString programData = hostinfo::programDataFolder();
        QVERIFY(!programData.isEmpty());
        const QByteArray before = qgetenv("ProgramData");
        qputenv("ProgramData", QDir::toNativeSeparators(users.path()).toUtf8());
        const StateFolders folders = StateFolders::of(SystemContext::running());
        qputenv("ProgramData", before);
        QCOMPARE(QDir::cleanPath(QDir::fromNativeSeparators(folders.machine)).toLower(),
                 QDir::cleanPath(QDir::fromNativeSeparators(programData) + QStringLiteral("/cuDNN Setup"))
                     .toLower());
    }

    // Review 2, N6: a folder is made with its descriptor (CreateDirectoryW), never over one that is
    // there already; protect() gives a folder its descriptor through a handle to the folder itself
    // and refuses what is not a plain folder (review 2, D2).
    void foldersAreMadeWithTheirDescriptor()
    {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        const std::shared_ptr<FileSecurity> security = FileSecurity::forRunningSystem();
        const QString made = work.filePath(QStringLiteral("made"));
        const SystemResult first = security->makeFolder(made, security::adminsOnlySddl());
        QVERIFY2(first, first ? "" : qPrintable(first.error().message));
        QVERIFY(QFileInfo(made).isDir());
        QVERIFY(!security->makeFolder(made, security::adminsOnlySddl()));
        const DescriptorAnswer answer = security->descriptorOf(made);
        QCOMPARE(answer.kind, DescriptorAnswer::Kind::Read);

        const SystemResult protectedFolder = security->protect(made, security::adminsOnlySddl());
        QVERIFY2(protectedFolder, protectedFolder ? "" : qPrintable(protectedFolder.error().message));
        QFile file(work.filePath(QStringLiteral("file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const SystemResult refused = security->protect(file.fileName(), security::adminsOnlySddl());
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("not a plain folder")),
                 qPrintable(refused.error().message));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinStateFolder)
#include "tst_win_statefolder.moc"
