// The Verify page: a real verification of the cuDNN 9 and CUDA runtime of /usr/local/cuda-13.0 (Linux;
// this machine has no GPU driver, so the GPU checks take their real skip path) as the install's
// receipt names it, with the probe run by the built cudnnctl: each check with its icon, word, time
// and details; the report copied and saved; a wrong expected version failing with its fix and Next
// leading to the Repair page, and the state kept when the user comes back. Everywhere: the hand-over
// from a real install on a sandbox workstation, a report given to the session, and nothing to
// verify, in English and in Chinese.
#include "BuildPaths.h"
#include "InfoIcon.h"
#include "InstallPage.h"
#include "RepairPage.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "TargetPage.h"
#include "VerifyPage.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "detect/VersionParsers.h"
#include "report/VerifyText.h"

#include <QAbstractButton>
#include <QClipboard>
#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::labelText;
using wizardpagetests::saveScreenshot;
using wizardpagetests::Workstation;

namespace {

// A receipt's target: its own folder at `root` (a Windows path unless it starts with '/').
InstallTarget folderTarget(const QString &root)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.family = root.startsWith(QLatin1Char('/')) ? OsFamily::Linux : OsFamily::Windows;
    target.root = root;
    target.binFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("bin");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("lib\\x64");
    return target;
}

const QString kCudaLib = QStringLiteral("/usr/local/cuda-13.0/lib");
// Loading every cuDNN library in a child takes seconds; Wine starts slowly.
constexpr int kVerifyTimeoutMs = 120000;
// A detection of this machine, pythons asked, for the Repair page behind.
constexpr int kDiagnoseTimeoutMs = 180000;

const QStringList kStages = {QStringLiteral("load"),        QStringLiteral("dependencies"),
                             QStringLiteral("version"),     QStringLiteral("handle"),
                             QStringLiteral("convolution"), QStringLiteral("framework")};

void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

// This machine as it runs, its loader told to search `libraryPath` (what a program started from a
// shell with LD_LIBRARY_PATH set would see).
SystemContext runningWith(const QString &libraryPath)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LD_LIBRARY_PATH"), libraryPath);
    return SystemContext(FileSystem(hostOsFamily(), QString()),
                         EnvironmentStore(hostOsFamily(), environment, Registry::unavailable()),
                         Registry::unavailable(), std::make_shared<ProcessRunner>(),
                         std::make_shared<LibraryLoader>());
}

// What an install of the cuDNN in `folder` left: its receipt, which says the archive was `version`
// (empty: it does not say).
ChangeOutcome installedInto(const QString &folder, const QString &version)
{
    Receipt receipt;
    receipt.id = QStringLiteral("cudnn-test-receipt");
    receipt.files = {{folder + QStringLiteral("/libcudnn.so.9"), QString(), 0, QString()}};
    receipt.archive.cudnn = Version::parse(version);
    receipt.target = folderTarget(QFileInfo(folder).absolutePath());
    receipt.target->binFolder = QFileInfo(folder).fileName();
    ChangeOutcome outcome;
    outcome.status = ChangeOutcome::Status::Done;
    outcome.receipt = receipt;
    return outcome;
}

// A wizard opened on the Verify page over `session`.
struct Opened
{
    explicit Opened(SetupSession &session)
        : wizard(&session)
    {
        wizard.resize(820, 700);
        page = qobject_cast<VerifyPage *>(wizard.page(SetupWizard::Page_Verify));
        page->setProbeProgram(BuildPaths::cudnnctl());
        qobject_cast<RepairPage *>(wizard.page(SetupWizard::Page_Repair))
            ->setProbeProgram(BuildPaths::cudnnctl());
        wizard.setStartId(SetupWizard::Page_Verify);
        wizard.show();
    }

    QString stage(const QString &id, const QString &part) const
    {
        return labelText(page, QStringLiteral("stage-%1-%2").arg(id, part));
    }
    bool visible(const QString &name) const
    {
        const auto widget = page->findChild<QWidget *>(name);
        return widget && widget->isVisible();
    }
    QAbstractButton *button(const QString &name) const { return page->findChild<QAbstractButton *>(name); }

    SetupWizard wizard;
    VerifyPage *page = nullptr;
};

bool realCudnnPresent()
{
    return hostOsFamily() == OsFamily::Linux && QFile::exists(kCudaLib + QStringLiteral("/libcudnn.so.9"));
}

} // namespace

class TestVerifyPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { Translations::install(QStringLiteral("en")); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // The real libraries, as an install's receipt names them: they load from that folder, need
    // nothing missing, answer the receipt's version; without a driver the GPU checks are skipped
    // with the CUDA runtime's reason. Each check has an icon and a word, its time, its details on
    // demand; Finish, no Repair; the report copied and saved; in English and in Chinese.
    void realCudnnVerifies()
    {
        if (!realCudnnPresent())
            QSKIP("no cuDNN 9 in /usr/local/cuda-13.0/lib");
        SetupSession session(runningWith(kCudaLib));
        session.setInstallOutcome(installedInto(kCudaLib, QString()));
        Opened opened(session);
        VerifyPage *page = opened.page;
        QCOMPARE(opened.wizard.currentPage(), page);
        QVERIFY(page->isVerifying());
        QVERIFY(!page->isComplete());
        QVERIFY(opened.visible(QStringLiteral("verifyProgress")));
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("status")), QStringLiteral("Checking…"));
        QCOMPARE(opened.stage(QStringLiteral("dependencies"), QStringLiteral("status")),
                 QStringLiteral("Waiting"));
        QVERIFY(!opened.wizard.button(QWizard::FinishButton)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isVerifying(), kVerifyTimeoutMs);

        QVERIFY(session.hasVerifyReport());
        const VerifyReport &report = session.verifyReport();
        QCOMPARE(report.receiptId, QStringLiteral("cudnn-test-receipt"));
        QVERIFY2(report.cudnnVersion.startsWith(QLatin1String("9.")), qPrintable(report.cudnnVersion));
        QCOMPARE(labelText(page, QStringLiteral("subjectLabel")),
                 QStringLiteral("Checking what the install placed in %1.").arg(kCudaLib));
        QVERIFY(
            page->findChild<QLabel *>(QStringLiteral("subjectLabel"))->toolTip().contains(report.receiptId));
        for (const QString &id :
             {QStringLiteral("load"), QStringLiteral("dependencies"), QStringLiteral("version")}) {
            QVERIFY2(opened.stage(id, QStringLiteral("status")) == QLatin1String("Passed"),
                     qPrintable(id + QStringLiteral(": ") + opened.stage(id, QStringLiteral("message"))));
            QCOMPARE(opened.stage(id, QStringLiteral("message")), report.stage(id)->message.toString());
            QVERIFY(!opened.visible(QStringLiteral("stage-%1-fix").arg(id)));
        }
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("name")), QStringLiteral("Load"));
        QVERIFY(opened.stage(QStringLiteral("load"), QStringLiteral("time"))
                    .contains(QRegularExpression(QStringLiteral("^(under 1 ms|\\d+ ms|\\d+\\.\\d s)$"))));
        QVERIFY(
            opened.stage(QStringLiteral("version"), QStringLiteral("message")).contains(report.cudnnVersion));
        // Without a driver the runtime says why; with one (the GPU machine) both pass.
        const QString handle = opened.stage(QStringLiteral("handle"), QStringLiteral("status"));
        QVERIFY2(handle == QLatin1String("Skipped") || handle == QLatin1String("Passed"), qPrintable(handle));
        QVERIFY(!opened.stage(QStringLiteral("handle"), QStringLiteral("message")).isEmpty());
        QCOMPARE(opened.stage(QStringLiteral("convolution"), QStringLiteral("status")), handle);
        QCOMPARE(opened.stage(QStringLiteral("framework"), QStringLiteral("status")),
                 QStringLiteral("Skipped"));
        QCOMPARE(opened.stage(QStringLiteral("framework"), QStringLiteral("message")),
                 QStringLiteral("No Python with torch was found or named."));
        // The status word stands beside the message: the message does not say it again.
        QVERIFY(!opened.stage(QStringLiteral("framework"), QStringLiteral("message"))
                     .startsWith(opened.stage(QStringLiteral("framework"), QStringLiteral("status"))));
        QCOMPARE(labelText(page, QStringLiteral("summaryLabel")),
                 handle == QLatin1String("Passed")
                     ? QStringLiteral("cuDNN works: it loads as your programs will load it, and it ran a "
                                      "convolution on the GPU.")
                     : QStringLiteral("cuDNN loads as your programs will load it, but it was not run on the "
                                      "GPU: the checks below say why."));

        // The details, on demand from the keyboard: which file each library was loaded from.
        auto details = qobject_cast<QToolButton *>(opened.button(QStringLiteral("stage-load-detailsButton")));
        QVERIFY(details && details->isVisible());
        QCOMPARE(details->accessibleName(), QStringLiteral("Details of Load"));
        QVERIFY(!opened.visible(QStringLiteral("stage-load-details")));
        details->setFocus();
        QTest::keyClick(details, Qt::Key_Space);
        QVERIFY(opened.visible(QStringLiteral("stage-load-details")));
        QVERIFY(opened.stage(QStringLiteral("load"), QStringLiteral("details"))
                    .contains(QStringLiteral("libcudnn.so.9: %1/libcudnn.so.9").arg(kCudaLib)));

        QVERIFY(page->isComplete());
        QCOMPARE(page->nextId(), -1);
        QVERIFY(opened.wizard.button(QWizard::FinishButton)->isEnabled());
        // Next goes on to the summary, not to the Repair page.
        QCOMPARE(opened.wizard.nextId(), int(SetupWizard::Page_Finish));
        QCOMPARE(opened.wizard.button(QWizard::NextButton)->text(), QStringLiteral("&Next >"));

        QGuiApplication::clipboard()->clear();
        opened.button(QStringLiteral("copyReportButton"))->click();
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied, verifyText(report));
        QVERIFY(copied.contains(QStringLiteral("[ok]   Load: ")));
        QCOMPARE(labelText(page, QStringLiteral("noteLabel")),
                 QStringLiteral("The report was copied to the clipboard."));

        QTemporaryDir folder;
        QVERIFY(page->saveReport(folder.path()));
        for (const QString &name : {QStringLiteral("report.json"), QStringLiteral("report.html"),
                                    QStringLiteral("environment_versions.txt")})
            QVERIFY2(QFile::exists(folder.filePath(name)), qPrintable(name));
        QFile json(folder.filePath(QStringLiteral("report.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(json.readAll().contains(report.receiptId.toUtf8()));
        QVERIFY(labelText(page, QStringLiteral("noteLabel"))
                    .startsWith(QStringLiteral("The report was saved in ")));
        QVERIFY(!page->saveReport(folder.filePath(QStringLiteral("report.json")))); // a file, not a folder
        QVERIFY(labelText(page, QStringLiteral("noteLabel"))
                    .startsWith(QStringLiteral("The report could not be saved in ")));
        settle();
        saveScreenshot(&opened.wizard, QStringLiteral("verify-en.png"));

        // The language switched on the spot: the page words itself again from its checks.
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(opened.wizard.button(QWizard::FinishButton)->text() != QLatin1String("&Finish"));
        QCOMPARE(page->title(), QCoreApplication::translate("cudnnsetup::wizard::VerifyPage", "Verify"));
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("name")),
                 QCoreApplication::translate("cudnnsetup", "Load"));
        QCOMPARE(opened.stage(QStringLiteral("framework"), QStringLiteral("message")),
                 report.stage(QStringLiteral("framework"))->message.toString());
        QVERIFY(opened.visible(QStringLiteral("stage-load-details")));
        settle();
        saveScreenshot(&opened.wizard, QStringLiteral("verify-zh_CN.png"));
    }

    // Issue 35: one copy, one version text. The library answers MAJOR.MINOR.PATCH; the receipt of
    // the archive it came from adds the build number, and the Archive, Install and Finish pages
    // name the copy by it: so do the version check and the copied report.
    void versionIsNamedAsTheOtherPagesNameIt()
    {
        if (!realCudnnPresent())
            QSKIP("no cuDNN 9 in /usr/local/cuda-13.0/lib");
        QFile header(QStringLiteral("/usr/local/cuda-13.0/include/cudnn_version.h"));
        QVERIFY(header.open(QIODevice::ReadOnly));
        const Version headers = versions::fromCudnnHeader(header.readAll());
        QVERIFY(headers.isValid());
        const QString archiveVersion = headers.toString() + QStringLiteral(".56"); // NVIDIA's build
        SetupSession session(runningWith(kCudaLib));
        session.setInstallOutcome(installedInto(kCudaLib, archiveVersion));
        Opened opened(session);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isVerifying(), kVerifyTimeoutMs);

        QCOMPARE(opened.stage(QStringLiteral("version"), QStringLiteral("status")), QStringLiteral("Passed"));
        const QString message = opened.stage(QStringLiteral("version"), QStringLiteral("message"));
        QVERIFY2(message.startsWith(QStringLiteral("cuDNN %1, built for CUDA ").arg(archiveVersion)) ||
                     message == QStringLiteral("cuDNN %1.").arg(archiveVersion),
                 qPrintable(message));
        QCOMPARE(session.verifyReport().cudnnVersion, archiveVersion);
        QVERIFY(verifyText(session.verifyReport()).contains(QStringLiteral("(%1)").arg(archiveVersion)));
    }

    // The receipt says another version than the library answers: the version check fails with
    // its fix, Next reads "Repair…" and leads to the Repair page (Finish stays); Back finds the
    // verification as it was, and Next again the diagnosis as it was, without running either again.
    void failedCheckLeadsToRepairAndBack()
    {
        if (!realCudnnPresent())
            QSKIP("no cuDNN 9 in /usr/local/cuda-13.0/lib");
        SetupSession session(runningWith(kCudaLib));
        session.setInstallOutcome(installedInto(kCudaLib, QStringLiteral("9.0.0")));
        Opened opened(session);
        VerifyPage *page = opened.page;
        QTRY_VERIFY_WITH_TIMEOUT(!page->isVerifying(), kVerifyTimeoutMs);

        QCOMPARE(opened.stage(QStringLiteral("version"), QStringLiteral("status")), QStringLiteral("Failed"));
        QCOMPARE(opened.stage(QStringLiteral("version"), QStringLiteral("message")),
                 QStringLiteral("The cuDNN that loaded is %1, but 9.0.0 was expected there.")
                     .arg(session.verifyReport().cudnnVersion));
        QVERIFY(opened.visible(QStringLiteral("stage-version-fix")));
        QVERIFY(opened.stage(QStringLiteral("version"), QStringLiteral("fix"))
                    .contains(
                        // The wizard's button, not a command to type.
                        QStringLiteral("What to do: Another copy loads first, or the files were replaced: "
                                       "press Repair… below.")));
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("status")), QStringLiteral("Passed"));
        QCOMPARE(labelText(page, QStringLiteral("summaryLabel")),
                 QCoreApplication::translate(
                     "cudnnsetup::wizard::VerifyPage",
                     "cuDNN does not work yet: %n check(s) failed. What to do is written under each.",
                     nullptr, 1));
        QCOMPARE(page->nextId(), int(SetupWizard::Page_Repair));
        QAbstractButton *next = opened.wizard.button(QWizard::NextButton);
        QVERIFY(next->isVisible() && next->isEnabled());
        QCOMPARE(next->text(), QStringLiteral("&Repair…"));
        QVERIFY(opened.wizard.button(QWizard::FinishButton)->isEnabled());
        settle();
        saveScreenshot(&opened.wizard, QStringLiteral("verify-failed-en.png"));
        const QDateTime verifiedAt = session.verifyReport().createdAt;

        opened.wizard.next();
        auto repair = qobject_cast<RepairPage *>(opened.wizard.currentPage());
        QVERIFY(repair);
        QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kDiagnoseTimeoutMs);
        QVERIFY(session.hasDoctorReport());
        const QJsonObject diagnosis = session.doctorReport().toJson();

        QVERIFY(opened.wizard.button(QWizard::BackButton)->isEnabled());
        opened.wizard.back();
        QCOMPARE(opened.wizard.currentPage(), page);
        QVERIFY(!page->isVerifying());
        QCOMPARE(session.verifyReport().createdAt, verifiedAt);
        QCOMPARE(opened.stage(QStringLiteral("version"), QStringLiteral("status")), QStringLiteral("Failed"));
        opened.wizard.next();
        QCOMPARE(opened.wizard.currentPage(), repair);
        QVERIFY(!repair->isBusy());
        QCOMPARE(session.doctorReport().toJson(), diagnosis);

        // Verifying again is a new verification: the diagnosis that read the old one goes with it.
        opened.wizard.back();
        opened.button(QStringLiteral("verifyAgainButton"))->click();
        QVERIFY(page->isVerifying());
        QVERIFY(!session.hasDoctorReport());
        QVERIFY(!opened.wizard.button(QWizard::NextButton)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isVerifying(), kVerifyTimeoutMs);
        QVERIFY(session.verifyReport().createdAt > verifiedAt);
    }

    // A real install on the sandbox workstation through the commit button ("Install"), then the same
    // button ("Verify >"): the Verify page checks what the receipt lists (another system's tree is
    // not loaded here, so the load check says so), with no way back to the install.
    void installHandsOverToVerify()
    {
        Workstation machine;
        SetupWizard wizard(&machine.session);
        wizard.resize(820, 700);
        QVERIFY(wizardpagetests::openPage<TargetPage>(wizard, SetupWizard::Page_Target));
        QVERIFY(wizardpagetests::waitUntilComplete(wizard)); // the target is checked in the background
        wizard.next();
        auto install = qobject_cast<InstallPage *>(wizard.currentPage());
        QVERIFY(install);
        QAbstractButton *commit = wizard.button(QWizard::CommitButton);
        QCOMPARE(commit->text(), QStringLiteral("&Install"));
        QVERIFY(commit->isEnabled());
        commit->click();
        QTRY_VERIFY_WITH_TIMEOUT(!install->isInstalling(), kVerifyTimeoutMs);
        QCOMPARE(wizard.currentPage(), install); // installed, the outcome is shown first
        QVERIFY(install->isComplete());
        QVERIFY(machine.session.installOutcome().receipt);
        QVERIFY(commit->isEnabled());
        QCOMPARE(commit->text(), QStringLiteral("&Verify >"));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());

        commit->click();
        auto page = qobject_cast<VerifyPage *>(wizard.currentPage());
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isVerifying(), kVerifyTimeoutMs);
        const VerifyReport &report = machine.session.verifyReport();
        QCOMPARE(report.receiptId, machine.session.installOutcome().receipt->id);
        QCOMPARE(report.directory, machine.session.target().dllFolder());
        QCOMPARE(labelText(page, QStringLiteral("subjectLabel")),
                 QStringLiteral("Checking what the install placed in %1.").arg(report.directory));
        QStringList shown;
        for (const VerifyStage &stage : report.stages) {
            shown.append(stage.id);
            QVERIFY(!labelText(page, QStringLiteral("stage-%1-status").arg(stage.id)).isEmpty());
        }
        QCOMPARE(shown, kStages);
        QCOMPARE(labelText(page, QStringLiteral("stage-load-status")), QStringLiteral("Skipped"));
        QCOMPARE(
            labelText(page, QStringLiteral("stage-load-message")),
            QStringLiteral("Not run, on purpose: another system's libraries are not loaded on this one."));
        QVERIFY(!wizard.button(QWizard::BackButton)->isEnabled());

        // The sandbox's stand-in libraries name no other library: nothing looked for is "Skipped",
        // never "Passed (0 checked)".
        QVERIFY(report.dependencies.resolved.isEmpty() && report.dependencies.problems.isEmpty());
        QCOMPARE(labelText(page, QStringLiteral("stage-dependencies-status")), QStringLiteral("Skipped"));
        // No GPU stage ran: the copied report says it passed in part, in both languages; never
        // "Verified" / 验证通过.
        QVERIFY(report.passed() && !report.ranOnGpu());
        for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            Translations::install(language);
            QGuiApplication::clipboard()->clear();
            page->findChild<QAbstractButton *>(QStringLiteral("copyReportButton"))->click();
            const QString copied = QGuiApplication::clipboard()->text();
            const QString inPart =
                QCoreApplication::translate("cudnnsetup", "Passed in part, the GPU was not used (%1 s).")
                    .section(QStringLiteral("%1"), 0, 0);
            QVERIFY2(copied.contains(inPart), qPrintable(copied));
            QVERIFY2(!copied.contains(QCoreApplication::translate("cudnnsetup", "Verified in %1 s.")
                                          .section(QStringLiteral("%1"), 0, 0)),
                     qPrintable(copied));
            QVERIFY2(!copied.contains(QStringLiteral("0 checked")), qPrintable(copied));
            // A Chinese report's separators and units are Chinese too: "加载：……", never "加载: ".
            if (language == QLatin1String("zh_CN")) {
                QVERIFY2(
                    !QRegularExpression(QStringLiteral("[\\x{4e00}-\\x{9fff}]: ")).match(copied).hasMatch(),
                    qPrintable(copied));
                QVERIFY2(!copied.contains(QStringLiteral(" ms)")), qPrintable(copied));
            }
        }
    }

    // A verification given to the session (here one whose load check failed: another copy came
    // first) is shown as the page's own: the failed check with its fix, its details hidden until
    // asked for, and the copied report is that one's.
    void givenReportIsShown()
    {
        Sandbox sandbox;
        SetupSession session(SystemContext::rooted(sandbox.root()));
        Opened opened(session);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isVerifying(), kVerifyTimeoutMs);

        VerifyReport report;
        report.createdAt = QDateTime::currentDateTimeUtc();
        report.directory = QStringLiteral("/opt/cudnn/lib");
        const auto stage = [](const QString &id, VerifyStage::Status status, const QString &message,
                              const QString &fix = {}, const QString &details = {}) {
            VerifyStage made;
            made.id = id;
            made.status = status;
            made.message = Text::verbatim(message);
            made.fix = fix.isEmpty() ? Text() : Text::verbatim(fix);
            made.details = details;
            made.milliseconds = 1500;
            return made;
        };
        report.stages = {
            stage(QStringLiteral("load"), VerifyStage::Status::Failed,
                  QStringLiteral(
                      "libcudnn.so.9 was loaded from /usr/lib/libcudnn.so.9, not from /opt/cudnn/lib."),
                  QStringLiteral("Put /opt/cudnn/lib first on LD_LIBRARY_PATH."),
                  QStringLiteral("libcudnn.so.9: /usr/lib/libcudnn.so.9")),
            stage(QStringLiteral("dependencies"), VerifyStage::Status::Passed, QStringLiteral("All found.")),
            stage(QStringLiteral("version"), VerifyStage::Status::Skipped, QStringLiteral("Not asked.")),
        };
        session.setVerifyReport(report);
        VerifyPage *page = opened.page;
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("status")), QStringLiteral("Failed"));
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("time")), QStringLiteral("1.5 s"));
        QCOMPARE(opened.stage(QStringLiteral("load"), QStringLiteral("fix")),
                 QStringLiteral("<i>What to do: Put /opt/cudnn/lib first on LD_LIBRARY_PATH.</i>"));
        QVERIFY(opened.visible(QStringLiteral("stage-load-fix")));
        QVERIFY(!opened.visible(QStringLiteral("stage-load-details")));
        QVERIFY(!opened.visible(QStringLiteral("stage-dependencies-fix")));
        QVERIFY(!opened.visible(QStringLiteral("stage-dependencies-detailsButton"))); // nothing to show
        QCOMPARE(opened.stage(QStringLiteral("version"), QStringLiteral("status")),
                 QStringLiteral("Skipped"));
        // Checks the report does not hold are not made up.
        QCOMPARE(opened.stage(QStringLiteral("handle"), QStringLiteral("status")), QStringLiteral("Not run"));
        // "handle" has its visible (i), which says what getting one proves.
        QVERIFY(opened.visible(QStringLiteral("info-handle")));
        QCOMPARE(page->findChild<QWidget *>(QStringLiteral("info-handle"))->toolTip(),
                 InfoIcon::explanation(Term::Handle));
        QCOMPARE(page->nextId(), int(SetupWizard::Page_Repair));
        // Issue 35: the open toggle stays flat (no pressed box at its edges), and the monospace
        // details break only after a folder's separator.
        QAbstractButton *toggle = opened.button(QStringLiteral("stage-load-detailsButton"));
        const auto edges = [toggle] {
            const QImage drawn = toggle->grab().toImage();
            return QList<QColor>{drawn.pixelColor(1, 1), drawn.pixelColor(drawn.width() - 2, 1),
                                 drawn.pixelColor(1, drawn.height() - 2),
                                 drawn.pixelColor(drawn.width() - 2, drawn.height() - 2)};
        };
        const QList<QColor> closed = edges();
        toggle->click();
        QVERIFY(opened.visible(QStringLiteral("stage-load-details")));
        QCOMPARE(edges(), closed);
        const QString breakHere = QString(QChar(0x200B));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("stage-load-details"))
                    ->text()
                    .endsWith(QStringLiteral("/") + breakHere + QStringLiteral("usr/") + breakHere +
                              QStringLiteral("lib/") + breakHere + QStringLiteral("libcudnn.so.9")));
        opened.button(QStringLiteral("copyReportButton"))->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), verifyText(report));
        settle();
        saveScreenshot(&opened.wizard, QStringLiteral("verify-given-en.png"));
    }

    // Nothing installed and no copy detected: the page says so (complete, nothing to copy), and
    // words it again when the language changes.
    void nothingToVerifyInEitherLanguage()
    {
        Sandbox sandbox;
        SetupSession session(SystemContext::rooted(sandbox.root()));
        Opened opened(session);
        VerifyPage *page = opened.page;
        QVERIFY(!page->isVerifying());
        QVERIFY(page->isComplete());
        QCOMPARE(page->nextId(), -1);
        QCOMPARE(labelText(page, QStringLiteral("summaryLabel")),
                 QStringLiteral("There is nothing to verify."));
        QCOMPARE(labelText(page, QStringLiteral("verify.nothing")),
                 QStringLiteral("No cuDNN was found on this system."));
        QVERIFY(!opened.visible(QStringLiteral("stage-load")));
        QVERIFY(!opened.button(QStringLiteral("copyReportButton"))->isEnabled());
        QVERIFY(!opened.button(QStringLiteral("saveReportButton"))->isEnabled());
        QVERIFY(opened.wizard.button(QWizard::FinishButton)->isEnabled());

        Translations::install(QStringLiteral("zh_CN"));
        const QString chinese =
            QCoreApplication::translate("cudnnsetup", "No cuDNN was found on this system.");
        QVERIFY2(chinese != QLatin1String("No cuDNN was found on this system."),
                 "the Chinese translation is not loaded");
        QTRY_COMPARE(labelText(page, QStringLiteral("verify.nothing")), chinese);
        QCOMPARE(page->title(), QCoreApplication::translate("cudnnsetup::wizard::VerifyPage", "Verify"));
    }
};

CUDNNSETUP_TEST_MAIN(TestVerifyPage)
#include "tst_verifypage.moc"
