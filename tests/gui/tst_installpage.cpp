// The Install page on a sandbox Windows workstation with NVIDIA's cuDNN 9.19 zip for CUDA 12: the
// summary before anything is done, a real install into the CUDA toolkit (the files in place, the
// receipt, no way back), a cancel halfway that gives the tree back as it was, a PATH and CUDNN_*
// install into an in-memory environment with the programs to restart, and a failing one rolled
// back; screenshots in English and in Chinese.
#include "InstallPage.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "TargetPage.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "platform/MemoryEnvironment.h"
#include "platform/RunningPrograms.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::labelText;
using wizardpagetests::saveScreenshot;
using wizardpagetests::Workstation;

namespace {

// A few MB unpacked and moved into place, but Wine starts slowly.
constexpr int kInstallTimeoutMs = 120000;

const QString kUserRoot = QStringLiteral("C:\\Users\\lab\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.19");

const QStringList kRestartNames = {QStringLiteral("Command Prompt, PowerShell and Windows Terminal windows"),
                                   QStringLiteral("PyCharm"), QStringLiteral("Visual Studio Code"),
                                   QStringLiteral("Jupyter (the server, and with it its kernels)")};

// Programs said to be running, counting who asks: on which thread.
class ToldRunningPrograms final : public RunningPrograms
{
public:
    explicit ToldRunningPrograms(QStringList running)
        : m_running(std::move(running))
    {
    }
    mutable std::atomic<int> asked{0};
    mutable std::atomic<int> askedOnGuiThread{0};

    QStringList names() const override
    {
        ++asked;
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++askedOnGuiThread;
        return m_running;
    }

private:
    QStringList m_running;
};

// The workstation (its context changed by `change`), its wizard on the Target page with `choice`
// taken, then on the Install page.
struct Opened
{
    explicit Opened(const QString &choice = {}, std::shared_ptr<PersistentEnvironment> environment = {},
                    int noise = 0, const Workstation::ContextChange &change = {})
        : machine(noise, change)
    {
        if (environment)
            machine.session.setPersistentEnvironment(environment);
        wizard = std::make_unique<SetupWizard>(&machine.session);
        wizard->resize(820, 700);
        target = wizardpagetests::openPage<TargetPage>(*wizard, SetupWizard::Page_Target);
        if (!target)
            return;
        if (!choice.isEmpty())
            target->findChild<QRadioButton *>(choice)->click();
        // The choice is checked in the background; Next comes on once it is done.
        wizardpagetests::waitUntilComplete(*wizard);
        wizard->next();
        page = qobject_cast<InstallPage *>(wizard->currentPage());
    }

    QPushButton *button(const QString &name) const { return page->findChild<QPushButton *>(name); }
    // The wizard's commit button: "Install" until cuDNN is installed, then "Verify >".
    QAbstractButton *commit() const { return wizard->button(QWizard::CommitButton); }
    QString result() const { return labelText(page, QStringLiteral("resultLabel")); }
    bool fileInstalled(const QString &path) const { return QFileInfo::exists(machine.hostPath(path)); }

    Workstation machine;
    std::unique_ptr<SetupWizard> wizard;
    TargetPage *target = nullptr;
    InstallPage *page = nullptr;
};

// Lets the layouts the last changes asked for happen, so that a screenshot shows them.
void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

QString findingIds(const Findings &findings)
{
    QStringList ids;
    for (const Finding &finding : findings)
        ids.append(finding.id + QStringLiteral(": ") + finding.details);
    return ids.join(QStringLiteral("; "));
}

QString summaryValue(const InstallPage *page, const QString &key)
{
    return labelText(page, QStringLiteral("summary-") + key);
}

// The restart list as the page shows it, one name a line.
QStringList restartItems(const InstallPage *page)
{
    QString html = labelText(page, QStringLiteral("restartList"));
    QStringList names;
    for (qsizetype at = html.indexOf(QLatin1String("<li>")); at >= 0;
         at = html.indexOf(QLatin1String("<li>"), at)) {
        at += 4;
        names.append(html.mid(at, html.indexOf(QLatin1String("</li>"), at) - at));
    }
    return names;
}

} // namespace

class TestInstallPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { Translations::install(QStringLiteral("en")); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // Into the CUDA toolkit core proposes, without a PATH change: the summary, then a real install
    // whose files land beside CUDA's, the receipt, Finish, and no way back.
    void installsIntoTheToolkit()
    {
        Opened opened;
        InstallPage *page = opened.page;
        QVERIFY(page);
        QVERIFY(page->isCommitPage());
        QCOMPARE(page->title(), QStringLiteral("Install"));
        const QString toolkit = QLatin1String(Workstation::kToolkit);
        QCOMPARE(summaryValue(page, QStringLiteral("archive")),
                 QStringLiteral(
                     "cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip (cuDNN 9.19.0.56 for CUDA 12)"));
        QCOMPARE(summaryValue(page, QStringLiteral("into")),
                 QStringLiteral("the CUDA 12.9 toolkit, ") + toolkit);
        QCOMPARE(summaryValue(page, QStringLiteral("dlls")), toolkit + QStringLiteral("\\bin"));
        QCOMPARE(summaryValue(page, QStringLiteral("path")), QStringLiteral("Not changed"));
        QVERIFY(page->findChild<QWidget *>(QStringLiteral("info-path"))->isVisible()); // PATH's (i)
        QCOMPARE(summaryValue(page, QStringLiteral("admin")), QStringLiteral("Needed"));
        // The action is the wizard's own commit button, not a button inside the page.
        QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("installButton")));
        QVERIFY(opened.commit()->isVisible() && opened.commit()->isEnabled());
        QCOMPARE(opened.commit()->text(), QStringLiteral("&Install"));
        QVERIFY(!page->isInstalled());
        QVERIFY(!opened.wizard->button(QWizard::FinishButton)->isVisible());
        QVERIFY(opened.wizard->button(QWizard::BackButton)->isEnabled());
        const TreeSnapshot before = opened.machine.tree();
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("install-ready-en.png"));

        QSignalSpy completeChanged(page, &QWizardPage::completeChanged);
        opened.commit()->click();
        QCOMPARE(opened.wizard->currentPage(), page);
        QVERIFY(page->isInstalling());
        QVERIFY(page->findChild<QProgressBar *>(QStringLiteral("installProgress"))->isVisible());
        QVERIFY(!opened.commit()->isEnabled());
        QVERIFY(!opened.wizard->button(QWizard::BackButton)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);

        const ChangeOutcome &outcome = opened.machine.session.installOutcome();
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, qPrintable(findingIds(outcome.findings)));
        QVERIFY(page->isComplete());
        QVERIFY(completeChanged.count() >= 2);
        QVERIFY(opened.fileInstalled(toolkit + QStringLiteral("\\bin\\cudnn64_9.dll")));
        QVERIFY(opened.fileInstalled(toolkit + QStringLiteral("\\bin\\cudnn_graph64_9.dll")));
        QVERIFY(opened.fileInstalled(toolkit + QStringLiteral("\\include\\cudnn_version.h")));
        QVERIFY(opened.fileInstalled(toolkit + QStringLiteral("\\lib\\x64\\cudnn.lib")));
        QVERIFY(!opened.fileInstalled(toolkit + QStringLiteral("\\.cudnn-setup-staging")));
        QVERIFY(opened.machine.tree() != before);
        QCOMPARE(opened.result(), QStringLiteral("cuDNN 9.19.0.56 is installed in %1.").arg(toolkit));
        QVERIFY(outcome.receipt);
        // In words on the page; the id and where it is kept (named as the installed system names it,
        // not by where this test keeps its tree) behind the tooltip.
        QVERIFY(!labelText(page, QStringLiteral("receiptLabel")).contains(outcome.receipt->id));
        // Only Uninstall takes an install back (Repair changes what is wrong, not this install).
        QCOMPARE(
            labelText(page, QStringLiteral("receiptLabel")),
            QStringLiteral("A record of every file and change is kept, so that Uninstall can undo exactly "
                           "this install."));
        const QString receipt = page->findChild<QLabel *>(QStringLiteral("receiptLabel"))->toolTip();
        QCOMPARE(receipt,
                 QStringLiteral("Receipt %1, kept in C:\\ProgramData\\cuDNN Setup\\receipts\\%1.json")
                     .arg(outcome.receipt->id));
        QCOMPARE(labelText(page, QStringLiteral("summaryTitle")), QStringLiteral("What was done"));
        // Done, the administrator is no longer asked for: "Needed" would read as a request.
        QCOMPARE(summaryValue(page, QStringLiteral("admin")), QStringLiteral("Used for this install"));
        QVERIFY(QFileInfo::exists(outcome.receiptPath));
        // The toolkit's folder was on PATH already: nothing to restart.
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("restartList"))->isVisible());
        QCOMPARE(opened.commit()->text(), QStringLiteral("&Verify >"));
        QVERIFY(opened.commit()->isEnabled());
        QVERIFY(!opened.button(QStringLiteral("cancelInstallButton"))->isVisible());
        QVERIFY(opened.wizard->button(QWizard::FinishButton)->isEnabled());
        QVERIFY(!opened.wizard->button(QWizard::BackButton)->isEnabled());
    }

    // A running program holds a DLL the install would replace: the page names it, keeps Install for
    // a second try once it is closed, and offers the swap at the next start of Windows.
    void fileInUseIsNamedWithTheWaysOut()
    {
        if (cudnnsetup::hostOsFamily() == OsFamily::Windows)
            QSKIP("Wine's Restart Manager names nobody; this runs where /proc tells who holds a file");
        Opened opened;
        InstallPage *page = opened.page;
        QVERIFY(page);
        const QString toolkit = QLatin1String(Workstation::kToolkit);
        const QString held = opened.machine.hostPath(toolkit + QStringLiteral("\\bin\\cudnn64_9.dll"));
        QDir().mkpath(QFileInfo(held).absolutePath());
        QFile old(held);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("an older cuDNN");
        old.close();
        QProcess holder; // reads nothing, holds its stdin (the DLL) open
        holder.setStandardInputFile(held);
        holder.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(holder.waitForStarted());
        const TreeSnapshot before = opened.machine.tree();

        opened.commit()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);
        const ChangeOutcome outcome = opened.machine.session.installOutcome();
        QCOMPARE(outcome.status, ChangeOutcome::Status::Failed);
        const QString inUse = labelText(page, QStringLiteral("install.files-in-use"));
        QVERIFY2(inUse.contains(QStringLiteral("sleep (%1)").arg(holder.processId())), qPrintable(inUse));
        QVERIFY(opened.button(QStringLiteral("replaceInUseButton"))->isVisible());
        QVERIFY(opened.commit()->isEnabled());
        QCOMPARE(opened.commit()->text(), QStringLiteral("&Install"));
        QVERIFY(opened.machine.tree() == before);

        // Closed: the same button installs.
        holder.kill();
        holder.waitForFinished();
        opened.commit()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);
        QCOMPARE(opened.machine.session.installOutcome().status, ChangeOutcome::Status::Done);
        QVERIFY(!opened.button(QStringLiteral("replaceInUseButton"))->isVisible());
    }

    // Cancelled while it unpacks (by the wizard's own Cancel, which does not close the wizard then):
    // everything undone, the tree exactly as before, and the user may go back or try again.
    void cancelRollsBack()
    {
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"),
                         {QStringLiteral("%USERPROFILE%\\bin"), true});
        Opened opened(QStringLiteral("target-user"), environment, 96 << 20);
        InstallPage *page = opened.page;
        QVERIFY(page);
        const TreeSnapshot before = opened.machine.tree();

        opened.commit()->click();
        auto progress = page->findChild<QProgressBar *>(QStringLiteral("installProgress"));
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0 || !page->isInstalling(), kInstallTimeoutMs);
        QVERIFY2(page->isInstalling(), "the install ended before it could be cancelled");
        QVERIFY(!labelText(page, QStringLiteral("etaLabel")).isEmpty());
        opened.wizard->button(QWizard::CancelButton)->click();
        QVERIFY(opened.wizard->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);

        const ChangeOutcome &outcome = opened.machine.session.installOutcome();
        QCOMPARE(outcome.statusName(), QStringLiteral("cancelled"));
        QCOMPARE(outcome.exitCode(), 1602);
        QCOMPARE(opened.result(), QStringLiteral("The installation was cancelled. Everything it had done was "
                                                 "undone: nothing was changed."));
        QVERIFY2(opened.machine.tree() == before, qPrintable(opened.machine.tree().difference(before)));
        QCOMPARE(environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text,
                 QStringLiteral("%USERPROFILE%\\bin"));
        QVERIFY(!page->isInstalled());
        QVERIFY(opened.commit()->isEnabled());
        QCOMPARE(opened.commit()->text(), QStringLiteral("&Install"));
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("restartList"))->isVisible());
        QVERIFY(opened.wizard->button(QWizard::BackButton)->isEnabled());
        opened.wizard->back();
        QCOMPARE(opened.wizard->currentId(), int(SetupWizard::Page_Target));
    }

    // Into the per-user folder with the user's PATH and the CUDNN_* variables: written to the
    // environment, and the programs that must be restarted named; in English and in Chinese.
    void pathInstallNamesTheProgramsToRestart()
    {
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(
            EnvironmentScope::User, QStringLiteral("PATH"),
            {QLatin1String(Workstation::kOldCudnn) + QStringLiteral(";%USERPROFILE%\\bin"), true});
        Opened opened(QStringLiteral("target-user"), environment);
        QVERIFY(opened.target);
        opened.wizard->back();
        opened.target->findChild<QCheckBox *>(QStringLiteral("cudnnVariablesCheck"))->click();
        opened.target->findChild<QCheckBox *>(QStringLiteral("pathFix-remove-0"))->click();
        wizardpagetests::waitUntilComplete(*opened.wizard);
        opened.wizard->next();
        InstallPage *page = opened.page;
        QCOMPARE(opened.wizard->currentPage(), page);
        const QString ours = kUserRoot + QStringLiteral("\\bin\\x64");
        QCOMPARE(summaryValue(page, QStringLiteral("path")),
                 QStringLiteral("%1 added to your PATH").arg(ours));
        QCOMPARE(summaryValue(page, QStringLiteral("variables")),
                 QStringLiteral("CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for you"));
        QCOMPARE(summaryValue(page, QStringLiteral("admin")), QStringLiteral("Not needed"));
        QCOMPARE(summaryValue(page, QStringLiteral("cleanup")),
                 QStringLiteral("Remove %1").arg(QLatin1String(Workstation::kOldCudnn)));

        opened.commit()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);
        const ChangeOutcome &outcome = opened.machine.session.installOutcome();
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, qPrintable(findingIds(outcome.findings)));
        QVERIFY(opened.fileInstalled(ours + QStringLiteral("\\cudnn64_9.dll")));
        // Ours in front, and the old cuDNN the user chose to drop gone, in the same write.
        QCOMPARE(environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text,
                 ours + QStringLiteral(";%USERPROFILE%\\bin"));
        QCOMPARE(environment->value(EnvironmentScope::User, QStringLiteral("CUDNN_PATH"))->text, kUserRoot);
        QCOMPARE(environment->value(EnvironmentScope::User, QStringLiteral("CUDNN_LIBRARY"))->text,
                 kUserRoot + QStringLiteral("\\lib\\x64\\cudnn.lib"));
        QVERIFY(!environment->value(EnvironmentScope::System, QStringLiteral("CUDNN_PATH")));
        QVERIFY(environment->announceCount() >= 1);

        QCOMPARE(opened.result(), QStringLiteral("cuDNN 9.19.0.56 is installed in %1.").arg(kUserRoot));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("restartList"))->isVisible());
        QVERIFY(
            labelText(page, QStringLiteral("restartTitle"))
                .startsWith(QStringLiteral("Programs that are already running keep the PATH and variables")));
        // A system given by its root runs none of this host's programs: the fixed list.
        QCOMPARE(restartItems(page), kRestartNames);
        QVERIFY(page->isComplete());
        QVERIFY(opened.wizard->button(QWizard::FinishButton)->isEnabled());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("install-done-en.png"));

        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(opened.wizard->button(QWizard::FinishButton)->text() != QLatin1String("&Finish"));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("restartList"))->isVisible());
        QCOMPARE(restartItems(page).size(), kRestartNames.size());
        // The hidden Target page words itself again without analysing PATH anew (which now holds
        // ours): the chosen clean-up stays in the session and in the summary.
        QCOMPARE(opened.machine.session.pathFixes().size(), 1);
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("summary-cleanup")));
        QVERIFY(page->isComplete());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("install-done-zh_CN.png"));
    }

    // The programs named as running are the session's answer: what the context's running programs
    // say, asked by the install job off the GUI thread once the install has changed PATH.
    void runningProgramsComeFromTheSession()
    {
        const auto running = std::make_shared<ToldRunningPrograms>(QStringList{
            QStringLiteral("jupyter-lab"), QStringLiteral("Code.exe"), QStringLiteral("svchost.exe")});
        Opened opened(
            QStringLiteral("target-user"), std::make_shared<MemoryEnvironment>(), 0,
            [running](const SystemContext &context) { return context.withRunningPrograms(running); });
        QVERIFY(opened.page);
        QCOMPARE(running->asked.load(), 0);
        opened.commit()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isInstalling(), kInstallTimeoutMs);
        QVERIFY(opened.machine.session.installOutcome().changedEnvironment());
        QCOMPARE(restartItems(opened.page),
                 (QStringList{QStringLiteral("Visual Studio Code (running now)"),
                              QStringLiteral("Jupyter (the server, and with it its kernels) (running now)"),
                              kRestartNames.at(0), kRestartNames.at(1)}));
        QCOMPARE(running->asked.load(), 1);
        QCOMPARE(running->askedOnGuiThread.load(), 0);
    }

    // The PATH write fails: the files already placed are taken back, the findings say why.
    void failureRollsBackAndSaysWhy()
    {
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {QStringLiteral("C:\\Tools"), true});
        Opened opened(QStringLiteral("target-user"), environment);
        InstallPage *page = opened.page;
        QVERIFY(page);
        const TreeSnapshot before = opened.machine.tree();
        environment->failWritesAfter(0, -1);
        opened.commit()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInstalling(), kInstallTimeoutMs);

        const ChangeOutcome &outcome = opened.machine.session.installOutcome();
        QCOMPARE(outcome.statusName(), QStringLiteral("failed"));
        QCOMPARE(opened.result(),
                 QStringLiteral(
                     "The installation failed. Everything it had done was undone: nothing was changed."));
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("environment.write-failed")) &&
                    page->findChild<QLabel *>(QStringLiteral("environment.write-failed"))->isVisible());
        QVERIFY2(opened.machine.tree() == before, qPrintable(opened.machine.tree().difference(before)));
        QCOMPARE(environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text,
                 QStringLiteral("C:\\Tools"));
        QVERIFY(!page->isInstalled());
        QVERIFY(opened.commit()->isEnabled());
        QCOMPARE(opened.commit()->text(), QStringLiteral("&Install"));
        QVERIFY(opened.wizard->button(QWizard::BackButton)->isEnabled());
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("receiptLabel"))->isVisible());
    }

    // The programs named at the end: those seen running first; and this very test among the
    // processes the platform lists.
    void namesTheRunningProgramsFirst()
    {
        const QList<InstallPage::RestartHint> hints = InstallPage::programsToRestart(
            {QStringLiteral("code.exe"), QStringLiteral("bash"), QStringLiteral("svchost.exe")});
        QCOMPARE(hints.size(), 4);
        QCOMPARE(hints.at(0).name, kRestartNames.at(0));
        QVERIFY(hints.at(0).running);
        QCOMPARE(hints.at(1).name, QStringLiteral("Visual Studio Code"));
        QVERIFY(hints.at(1).running);
        QCOMPARE(hints.at(2).name, QStringLiteral("PyCharm"));
        QVERIFY(!hints.at(2).running);
        QVERIFY(!hints.at(3).running);

        const QStringList running = RunningPrograms::forRunningSystem()->names();
        const QString self = QFileInfo(QCoreApplication::applicationFilePath()).fileName();
        QVERIFY2(running.contains(self, Qt::CaseInsensitive), qPrintable(running.join(u',')));
    }
};

CUDNNSETUP_TEST_MAIN(TestInstallPage)
#include "tst_installpage.moc"
