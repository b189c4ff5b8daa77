// Every rule of checkTarget about the target's folder on a sandbox Windows tree: what is already
// there, who may change a folder on the system PATH, path lengths, kinds that are gone, links.
#include "InstallTargetWorkstation.h"
#include "MemoryFileSecurity.h"
#include "Suite.h"
#include "archive/ArchiveInspector.h"
#include "install/InstallTarget.h"
#include "install/TargetChecks.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTest>

#include <memory>

using namespace cudnnsetup;

class TestTargetChecks : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWorkstation(); }

    void rules_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("severity");
        const int error = int(Severity::Error);
        const int warning = int(Severity::Warning);
        const int info = int(Severity::Info);

        QTest::newRow("clean new folder") << "dir:C:\\cudnn-new" << QString() << 0;
        QTest::newRow("empty") << "dir:"
                               << "target.empty" << error;
        QTest::newRow("relative") << "dir:cudnn\\v9.1"
                                  << "target.relative" << error;
        QTest::newRow("rooted, no drive") << "dir:\\cudnn"
                                          << "target.relative" << error;
        QTest::newRow("drive-relative") << "dir:C:cudnn"
                                        << "target.relative" << error;
        QTest::newRow("relative venv") << "venv:.venv"
                                       << "target.relative" << error;
        QTest::newRow("CON") << "dir:C:\\CON\\cudnn"
                             << "target.reserved-name" << error;
        QTest::newRow("nul with extension") << "dir:C:\\tools\\nul.txt"
                                            << "target.reserved-name" << error;
        QTest::newRow("COM1") << "dir:C:\\com1"
                              << "target.reserved-name" << error;
        QTest::newRow("LPT9") << "dir:D:\\x\\LPT9\\cudnn"
                              << "target.reserved-name" << error;
        QTest::newRow("AUX") << "dir:C:\\aux"
                             << "target.reserved-name" << error;
        QTest::newRow("PRN") << "dir:C:\\Prn.log"
                             << "target.reserved-name" << error;
        QTest::newRow("trailing dot") << "dir:C:\\cudnn.\\v9.1"
                                      << "target.reserved-name" << error;
        QTest::newRow("trailing space") << "dir:C:\\tools \\cudnn"
                                        << "target.reserved-name" << error;
        QTest::newRow("COM10 is a name") << "dir:C:\\com10" << QString() << 0;
        QTest::newRow("CONSOLE is a name") << "dir:C:\\console" << QString() << 0;
        QTest::newRow("question mark") << "dir:C:\\cu?dnn"
                                       << "target.invalid-character" << error;
        QTest::newRow("colon inside") << "dir:C:\\cudnn:v9"
                                      << "target.invalid-character" << error;

        // The longest destination is lib\x64\cudnn_engines_runtime_compiled64_9.lib (47 characters
        // with its separators): a 212-character root gives 259 characters, one more gives 260.
        QTest::newRow("259 characters")
            << QStringLiteral("dir:C:\\") + QString(209, QLatin1Char('a')) << QString() << 0;
        QTest::newRow("260 characters")
            << QStringLiteral("dir:C:\\") + QString(210, QLatin1Char('a')) << "target.too-long" << error;
        QTest::newRow("far too long") << QStringLiteral("dir:C:\\") + QString(100, QLatin1Char('b')) +
                                             QLatin1Char('\\') + QString(200, QLatin1Char('c'))
                                      << "target.too-long" << error;

        QTest::newRow("existing folder of other files") << "dir:C:\\cudnn-foreign"
                                                        << "target.not-empty" << error;
        QTest::newRow("existing folder of another cuDNN major") << "dir:C:\\cudnn-v8"
                                                                << "target.not-empty" << error;
        QTest::newRow("NVIDIA's installer layout, same files") << "dir:C:\\cudnn-nvidia"
                                                               << "target.not-empty" << warning;
        QTest::newRow("a previous install of ours") << "dir:C:\\cudnn-ours"
                                                    << "target.previous-install" << info;
        QTest::newRow("existing empty folders") << "dir:C:\\cudnn-empty" << QString() << 0;
        QTest::newRow("a toolkit is never 'not empty'") << "cuda:12.4" << QString() << 0;

        QTest::newRow("parent is a file") << "dir:C:\\data\\file.txt\\cudnn"
                                          << "target.not-writable" << error;
        QTest::newRow("target is a file") << "dir:C:\\data\\file.txt"
                                          << "target.not-writable" << error;
    }

    void rules()
    {
        QFETCH(QString, spec);
        QFETCH(QString, id);
        QFETCH(int, severity);

        const InstallTarget target = this->target(spec);
        const Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context());
        if (id.isEmpty()) {
            QVERIFY2(ids(findings).isEmpty(), qPrintable(describe(findings)));
            return;
        }
        const Finding *finding = findingOf(findings, id);
        QVERIFY2(finding, qPrintable(describe(findings)));
        QCOMPARE(int(finding->severity), severity);
        QVERIFY(finding->message.source() != nullptr);
        QVERIFY(!finding->message.toEnglish().contains(QLatin1String("%1")));
        if (finding->severity >= Severity::Warning)
            QVERIFY2(!finding->fix.isEmpty(), qPrintable(id));
        // Nothing else is wrong with these targets.
        QStringList others = ids(findings);
        others.removeAll(id);
        QVERIFY2(others.isEmpty(), qPrintable(describe(findings)));
    }

    // A folder on the system PATH is the administrators' alone: a new one under C:\ is fine (the
    // install makes it protected), an existing one that inherited Authenticated Users' right to
    // modify is refused with the ways out, and the same folder on the user's own PATH is not.
    void writableFolderStaysOffTheSystemPath()
    {
        auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext guarded = context().withFileSecurity(security);
        // C:\ as Windows sets it up: Authenticated Users may add folders, and modify what they add.
        security->set(m_sandbox.root(),
                      QStringLiteral("O:SYG:SYD:PAI(A;OICI;FA;;;BA)(A;OICI;FA;;;SY)"
                                     "(A;OICI;0x1200a9;;;BU)(A;;0x4;;;AU)(A;OICIIO;SDGXGWGR;;;AU)"));
        const QString inherited =
            QStringLiteral("O:S-1-5-21-1004336348-1177238915-682003330-1001D:AI"
                           "(A;OICIID;FA;;;BA)(A;OICIID;FA;;;SY)(A;OICIID;0x1301bf;;;AU)"
                           "(A;OICIID;0x1200a9;;;BU)");
        m_sandbox.mkdir(QStringLiteral("C:\\tools\\cudnn"));
        security->set(m_sandbox.hostPath(QStringLiteral("C:\\tools")), inherited);
        security->set(m_sandbox.hostPath(QStringLiteral("C:\\tools\\cudnn")), inherited);
        const auto check = [&](const QString &spec, PathScope scope) {
            return checkTarget(target(spec, QStringLiteral("9.1"), scope), archive(QStringLiteral("9.1")),
                               guarded);
        };
        const QString id = QStringLiteral("target.writable-system-path");

        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\cudnn"), PathScope::System), id));
        const Findings refused = check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::System);
        const Finding *finding = findingOf(refused, id);
        QVERIFY2(finding, qPrintable(describe(refused)));
        QCOMPARE(finding->severity, Severity::Error);
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QLatin1String("but C:\\tools\\cudnn can be changed")) &&
                     message.contains(QLatin1String("Authenticated Users")),
                 qPrintable(message));
        QVERIFY(finding->fix.toEnglish().contains(QLatin1String("--path user")));
        // Review 2, N12: on the user's own PATH the same folder lets others choose what the user's
        // programs load; a folder only the administrators may change is fine there.
        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::User), id));
        const Findings mine = check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::User);
        const Finding *onUserPath = findingOf(mine, QStringLiteral("target.writable-user-path"));
        QVERIFY2(onUserPath, qPrintable(describe(mine)));
        QCOMPARE(onUserPath->severity, Severity::Error);
        QVERIFY(onUserPath->message.toEnglish().contains(QLatin1String("Authenticated Users")));
        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\cudnn"), PathScope::User),
                           QStringLiteral("target.writable-user-path")));
    }

    // Review 2, N4: a DLL folder for the system PATH that cannot be shown to be the administrators'
    // alone is refused as one others may change. Each of these was passed before: the descriptor
    // could not be read, or not parsed (an alias the parser did not know, an entry it could not
    // read), or what the folder's files inherit was not looked at.
    void systemPathFolderNotProvablyTheAdministratorsIsRefused_data()
    {
        QTest::addColumn<QString>("sddl"); // empty: the descriptor cannot be read
        QTest::addColumn<QString>("named");
        const QString student = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-1001");
        QTest::newRow("a student owns it, PRINCIPAL SELF reads")
            << QStringLiteral("O:%1D:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;;FR;;;PS)").arg(student)
            << student;
        QTest::newRow("a domain account may modify")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1301bf;;;%1)").arg(student)
            << student;
        QTest::newRow("OWNER RIGHTS, a student owns it")
            << QStringLiteral("O:%1D:PAI(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;OW)").arg(student) << student;
        QTest::newRow("conditional allow for Everyone")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(XA;;FA;;;WD;(Member_of {SID(BA)}))")
            << QStringLiteral("Everyone");
        QTest::newRow("object allow for Users")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;BA)(OA;;FA;bf967aba-0de6-11d0-a285-00aa003049e2;;BU)")
            << QStringLiteral("Users");
        QTest::newRow("Users (OI)(IO)(M): every DLL put there")
            << QStringLiteral(
                   "O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FX;;;BU)(A;OIIO;0x1301bf;;;BU)")
            << QStringLiteral("Users");
        QTest::newRow("an entry of an unknown type")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(QQ;;FA;;;BU)")
            << QStringLiteral("possibly anyone");
        QTest::newRow("cannot be read") << QString() << QStringLiteral("possibly anyone");
    }

    void systemPathFolderNotProvablyTheAdministratorsIsRefused()
    {
        QFETCH(QString, sddl);
        QFETCH(QString, named);
        auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext guarded = context().withFileSecurity(security);
        const QString spec = QStringLiteral("dir:C:\\tools\\cudnn");
        const QString dllFolder = target(spec, QStringLiteral("9.1"), PathScope::System).dllFolder();
        m_sandbox.mkdir(dllFolder);
        for (const QString &above : {QStringLiteral("C:\\tools"), QStringLiteral("C:\\tools\\cudnn")})
            security->set(m_sandbox.hostPath(above), security::adminsOnlySddl());
        const auto check = [&] {
            return checkTarget(target(spec, QStringLiteral("9.1"), PathScope::System),
                               archive(QStringLiteral("9.1")), guarded);
        };
        const QString id = QStringLiteral("target.writable-system-path");
        security->set(m_sandbox.hostPath(dllFolder), security::adminsOnlySddl());
        QVERIFY(!findingOf(check(), id));

        if (sddl.isEmpty())
            security->setUnreadable(m_sandbox.hostPath(dllFolder), QStringLiteral("access denied"));
        else
            security->set(m_sandbox.hostPath(dllFolder), sddl);
        const Findings refused = check();
        const Finding *finding = findingOf(refused, id);
        QVERIFY2(finding, qPrintable(describe(refused)));
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral("but %1 can be changed").arg(dllFolder)) &&
                     message.contains(named),
                 qPrintable(message));
    }

    void tooLongNamesTheLongestPath()
    {
        const QString root = QStringLiteral("C:\\") + QString(210, QLatin1Char('a'));
        const Findings findings =
            checkTarget(target(QStringLiteral("dir:") + root), archive(QStringLiteral("9.1")), context());
        const Finding *finding = findingOf(findings, QStringLiteral("target.too-long"));
        QVERIFY(finding);
        QCOMPARE(finding->details, QStringLiteral("1 of 32 paths at 260 characters or more, the longest: ") +
                                       root +
                                       QStringLiteral("\\lib\\x64\\cudnn_engines_runtime_compiled64_9.lib"));
        QVERIFY2(finding->message.toEnglish().contains(QLatin1String("would have 260 characters")),
                 qPrintable(finding->message.toEnglish()));
        // 9.18's DLLs in bin\x64 are as long as its import libraries in lib\x64.
        const QString shorter = QStringLiteral("C:\\") + QString(206, QLatin1Char('a'));
        QVERIFY(ids(checkTarget(target(QStringLiteral("dir:") + shorter, QStringLiteral("9.18")),
                                archive(QStringLiteral("9.18")), context()))
                    .isEmpty());
    }

    void notEmptyNamesWhatIsThere()
    {
        m_sandbox.write(QStringLiteral("C:\\cudnn-photos\\holiday.jpg"), "jpeg");
        const Findings findings = checkTarget(target(QStringLiteral("dir:C:\\cudnn-photos")),
                                              archive(QStringLiteral("9.1")), context());
        const Finding *finding = findingOf(findings, QStringLiteral("target.not-empty"));
        QVERIFY(finding);
        QVERIFY2(finding->message.toEnglish().contains(QLatin1String("holiday.jpg")),
                 qPrintable(finding->message.toEnglish()));
        // A user folder is judged the same way.
        m_sandbox.write(kUser + QStringLiteral("\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.1\\x.txt"),
                        "x");
        QVERIFY(
            findingOf(checkTarget(target(QStringLiteral("user")), archive(QStringLiteral("9.1")), context()),
                      QStringLiteral("target.not-empty")));
        // A conda env or venv is full of other files by nature.
        QVERIFY(
            ids(checkTarget(target(QStringLiteral("conda:base")), archive(QStringLiteral("9.1")), context()))
                .isEmpty());
    }

    void kindsThatAreGone_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("id");
        QTest::newRow("toolkit uninstalled")
            << "cuda:12.4" << kCuda + QStringLiteral("v10.0") << "target.toolkit-missing";
        QTest::newRow("toolkit folder empty")
            << "cuda:12.4" << kUser + QStringLiteral("\\AppData\\Local") << "target.toolkit-missing";
        QTest::newRow("venv deleted")
            << QStringLiteral("venv:") + kVenv << QStringLiteral("D:\\old\\.venv") << "target.venv-invalid";
        QTest::newRow("venv without python") << QStringLiteral("venv:") + kVenv
                                             << kUser + QStringLiteral("\\not-venv") << "target.venv-invalid";
        QTest::newRow("conda env removed")
            << "conda:torch" << kConda + QStringLiteral("\\envs\\gone") << "target.conda-invalid";
        QTest::newRow("conda root is not an env")
            << "conda:torch" << kConda + QStringLiteral("\\envs") << "target.conda-invalid";
    }

    void kindsThatAreGone()
    {
        QFETCH(QString, spec);
        QFETCH(QString, root);
        QFETCH(QString, id);
        InstallTarget target = this->target(spec);
        target.root = root;
        const Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context());
        QCOMPARE(ids(findings), QStringList{id});
        QVERIFY(!findingOf(findings, id)->fix.isEmpty());
    }

    // A folder inside the target that is a link to somewhere else would carry the install's files
    // out of it: refused before anything is written. A link that stays inside is fine.
    void linksThatLeadOutOfTheTargetAreRefused()
    {
#ifdef Q_OS_WIN
        QSKIP("QFile::link makes a shortcut on Windows, not a link");
#else
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-linked\\v9.1"));
        const QString lib = target.pathOf(target.libFolder);
        // What the link leads to holds a file of this cuDNN's name.
        m_sandbox.write(QStringLiteral("C:\\elsewhere\\cudnn.lib"), "other");
        m_sandbox.symlink(m_sandbox.hostPath(QStringLiteral("C:\\elsewhere")), lib);
        const auto cleanUp = qScopeGuard([&] { QDir(m_sandbox.hostPath(target.root)).removeRecursively(); });
        Findings findings = checkTarget(target, report, context());
        const Finding *outside = findingOf(findings, QStringLiteral("target.link-outside"));
        QVERIFY2(outside, qPrintable(describe(findings)));
        QCOMPARE(outside->severity, Severity::Error);
        QVERIFY2(outside->message.toEnglish().contains(QStringLiteral("elsewhere")),
                 qPrintable(outside->message.toEnglish()));
        QVERIFY(!outside->fix.isEmpty());
        // Nor is the target said to hold this cuDNN already: the file is not in it.
        QVERIFY2(!findingOf(findings, QStringLiteral("target.previous-install")),
                 qPrintable(describe(findings)));

        QVERIFY(QFile::remove(m_sandbox.hostPath(lib)));
        m_sandbox.mkdir(target.root + QStringLiteral("\\real"));
        m_sandbox.symlink(m_sandbox.hostPath(target.root + QStringLiteral("\\real")), lib);
        findings = checkTarget(target, report, context());
        QVERIFY2(!findingOf(findings, QStringLiteral("target.link-outside")), qPrintable(describe(findings)));
#endif
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTargetChecks)
#include "tst_targetchecks.moc"
