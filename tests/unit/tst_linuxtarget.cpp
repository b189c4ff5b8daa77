// Linux targets: the ld.so.conf.d file that names a folder for the loader, and the folders others may
// change, refused as root.
#include "InstallTargetWorkstation.h"
#include "MemoryPosixOwnership.h"
#include "Sandbox.h"
#include "Suite.h"
#include "TreeSnapshot.h"
#include "install/InstallTarget.h"
#include "install/TargetChecks.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#ifndef Q_OS_WIN
#include <unistd.h>
#endif

using namespace cudnnsetup;

namespace {

// Its own folder on a Linux system, its libraries in lib.
InstallTarget linuxFolder(const QString &root, PathScope scope)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.family = OsFamily::Linux;
    target.root = root;
    target.binFolder = QStringLiteral("lib");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = QStringLiteral("lib");
    target.pathScope = scope;
    return target;
}

} // namespace

class TestLinuxTarget : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWorkstation(); }

    // The loader's file of a folder is named after it, and after its path's SHA-256 (sha256sum's):
    // folders whose paths differ only in what the readable part replaces get a file each.
    void linuxLoaderFileNamesEachFolderApart()
    {
        QCOMPARE(linuxFolder(QStringLiteral("/opt/a b"), PathScope::System).ldSoConfFile(),
                 QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-a-b-lib-8bb57619e89a.conf"));
        QCOMPARE(linuxFolder(QStringLiteral("/opt/a-b"), PathScope::System).ldSoConfFile(),
                 QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-a-b-lib-8289e2845423.conf"));
        // Past the 120 characters the readable part keeps, only the hash tells them apart.
        const QString longer = QStringLiteral("/opt/") + QString(130, QLatin1Char('x'));
        const QString first = linuxFolder(longer + QStringLiteral("/one"), PathScope::System).ldSoConfFile();
        const QString second = linuxFolder(longer + QStringLiteral("/two"), PathScope::System).ldSoConfFile();
        QVERIFY(first != second);
        QCOMPARE(first.left(first.size() - 18), second.left(second.size() - 18));
        QVERIFY(linuxFolder(QStringLiteral("/opt/a b"), PathScope::None).ldSoConfFile().isEmpty());
    }

    // The comment that names the target stays on its line whatever the target's name holds.
    void linuxLoaderFileCommentIsOneLine()
    {
        const InstallTarget target =
            linuxFolder(QStringLiteral("/opt/x\ninclude /home/eve/*.conf\r\x7f"), PathScope::System);
        const QByteArray content = target.ldSoConfContent();
        QVERIFY2(content.startsWith("# cuDNN Setup: /opt/x\\u000ainclude /home/eve/*.conf\\u000d\\u007f\n"),
                 content.constData());
        QCOMPARE(linuxFolder(QStringLiteral("/opt/cudnn"), PathScope::System).ldSoConfContent(),
                 QByteArray("# cuDNN Setup: /opt/cudnn\n/opt/cudnn/lib\n"));
    }

    // The loader's configuration takes one folder a line and "#" starts a comment: a folder whose
    // path holds a control character or "#" is not named there (a line break would add lines of
    // its own, such as an include). Only the loader's configuration minds.
    void linuxLoaderFolderWithoutControlCharacters_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("shown");
        QTest::newRow("line break") << QStringLiteral("/opt/cu\ninclude /tmp/x") << "U+000A";
        QTest::newRow("carriage return") << QStringLiteral("/opt/cu\rdnn") << "U+000D";
        QTest::newRow("tab") << QStringLiteral("/opt/cu\tdnn") << "U+0009";
        QTest::newRow("DEL") << QStringLiteral("/opt/cu\x7f") << "U+007F";
        QTest::newRow("next line (C1)") << QStringLiteral("/opt/cu\u0085dnn") << "U+0085";
        QTest::newRow("#") << QStringLiteral("/opt/cu#dnn") << "\"#\"";
    }

    void linuxLoaderFolderWithoutControlCharacters()
    {
        QFETCH(QString, root);
        QFETCH(QString, shown);
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/opt"));
        const SystemContext linux = SystemContext::rooted(sandbox.root())
                                        .withPosixOwnership(std::make_shared<MemoryPosixOwnership>());
        QCOMPARE(linux.family(), OsFamily::Linux);
        const QString id = QStringLiteral("target.unsafe-name-linux");
        const Findings findings =
            checkTarget(linuxFolder(root, PathScope::System), archive(QStringLiteral("9.1")), linux);
        const Finding *finding = findingOf(findings, id);
        QVERIFY2(finding, qPrintable(describe(findings)));
        QCOMPARE(finding->severity, Severity::Error);
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral(" has %1 in its path").arg(shown)), qPrintable(message));
        QVERIFY2(std::none_of(message.cbegin(), message.cend(),
                              [](QChar c) { return c.category() == QChar::Other_Control; }),
                 qPrintable(message));
        QVERIFY(!finding->fix.isEmpty());
        QVERIFY(!findingOf(
            checkTarget(linuxFolder(root, PathScope::None), archive(QStringLiteral("9.1")), linux), id));
    }

    // As root, on the running system: a folder another user owns, one below a folder its group
    // may write, and one under /tmp (sticky, and anyone's to make again after its cleaning) are
    // refused for the loader before anything is written, not even the write test's file; under
    // --system-root a folder root made 0755 is accepted (real owners and modes: lstat).
    void linuxFoldersOthersMayChangeAsRoot_data()
    {
        QTest::addColumn<QString>("made");    // under the test's folder in /tmp
        QTest::addColumn<QString>("changed"); // made another user's, or its group's to write
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("named"); // the folder the refusal names ("" the test's own)
        QTest::newRow("another user's folder") << "cudnn"
                                               << "cudnn"
                                               << "cudnn"
                                               << "cudnn";
        QTest::newRow("a parent its group may write") << "shared/cudnn"
                                                      << "shared"
                                                      << "shared/cudnn"
                                                      << "shared";
        QTest::newRow("under /tmp") << "cudnn"
                                    << ""
                                    << "cudnn"
                                    << "/tmp";
    }

    void linuxFoldersOthersMayChangeAsRoot()
    {
#ifdef Q_OS_WIN
        QSKIP("POSIX owners and modes: Linux only");
#else
        if (::geteuid() != 0)
            QSKIP("changing a folder's owner needs root");
        QFETCH(QString, made);
        QFETCH(QString, changed);
        QFETCH(QString, target);
        QFETCH(QString, named);
        QTemporaryDir tmp(QStringLiteral("/tmp/cudnn-setup-owners-XXXXXX"));
        QVERIFY(tmp.isValid());
        QVERIFY(QDir().mkpath(tmp.filePath(made)));
        if (changed == QLatin1String("cudnn"))
            QCOMPARE(::chown(QFile::encodeName(tmp.filePath(changed)).constData(), 65534, 65534), 0);
        else if (!changed.isEmpty())
            QVERIFY(QFile::setPermissions(tmp.filePath(changed), QFile::Permissions(0x7775)));
        const TreeSnapshot before = TreeSnapshot::of(tmp.path());
        const Findings findings = checkTarget(linuxFolder(tmp.filePath(target), PathScope::System),
                                              archive(QStringLiteral("9.1")), SystemContext::running());
        const Finding *finding = findingOf(findings, QStringLiteral("target.unsafe-owner-linux"));
        QVERIFY2(finding, qPrintable(describe(findings)));
        const QString folder = named.startsWith(QLatin1Char('/')) ? named : tmp.filePath(named);
        QVERIFY2(finding->message.toEnglish().contains(QStringLiteral("but %1 can be changed").arg(folder)),
                 qPrintable(finding->message.toEnglish()));
        QVERIFY2(TreeSnapshot::of(tmp.path()) == before,
                 qPrintable(TreeSnapshot::of(tmp.path()).difference(before)));

        // The same kind of folder in a tree that root made, its own "/" included: accepted.
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/opt/cudnn"));
        for (const QString &folder :
             {QStringLiteral("/"), QStringLiteral("/opt"), QStringLiteral("/opt/cudnn")})
            QVERIFY(QFile::setPermissions(sandbox.hostPath(folder), QFile::Permissions(0x7755)));
        const Findings accepted =
            checkTarget(linuxFolder(QStringLiteral("/opt/cudnn"), PathScope::System),
                        archive(QStringLiteral("9.1")), SystemContext::rooted(sandbox.root()));
        QVERIFY2(!findingOf(accepted, QStringLiteral("target.unsafe-owner-linux")),
                 qPrintable(describe(accepted)));
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestLinuxTarget)
#include "tst_linuxtarget.moc"
