// The wizard end to end on the sandbox Windows workstation, in English and in Chinese: the Install
// path (Welcome, Hardware, Match, Archive, Target, a real install, Verify with the built cudnnctl's
// probe, Repair when a check failed, Finish with its summary and a saved report); the Repair path
// (Welcome, Hardware, the doctor, Finish); the Uninstall path, offered only once cuDNN Setup has a
// receipt, taking back an install the wizard made; the plain words without an NVIDIA GPU or a
// working driver, with Install still possible; Back keeping every choice. A screenshot of each page.
#include "Artwork.h"
#include "FinishPage.h"
#include "HardwarePage.h"
#include "InstallPage.h"
#include "RepairPage.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "UninstallPage.h"
#include "VerifyPage.h"
#include "WelcomePage.h"
#include "WizardFlow.h"
#include "common/Translations.h"

#include <algorithm>

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QMap>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::Flow;
using wizardpagetests::installThroughWizard;
using wizardpagetests::kWorkTimeoutMs;
using wizardpagetests::labelText;
using wizardpagetests::Workstation;

namespace {

const QString kToolkit = QLatin1String(Workstation::kToolkit);

bool isEnglish()
{
    return Translations::current() == QLatin1String("en");
}

// A button's text as it is read: without its mnemonic ("&Uninstall", "卸载(&U)").
QString shownText(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("\\(&.\\)"))).remove(QLatin1Char('&'));
}

// Every way a page writes the sandbox archive's release, 9.19.0 with or without a build number, in
// its labels and tables.
QStringList releaseTexts(const QWidget *page)
{
    static const QRegularExpression release(QStringLiteral("(?<![\\d.])9\\.19\\.0(?:\\.\\d+)*(?![\\d])"));
    QStringList texts;
    for (const QLabel *label : page->findChildren<QLabel *>()) {
        if (label->isVisible())
            texts.append(label->text());
    }
    for (QTreeWidget *tree : page->findChildren<QTreeWidget *>()) {
        for (QTreeWidgetItemIterator item(tree); *item; ++item) {
            for (int column = 0; column < tree->columnCount(); ++column)
                texts.append((*item)->text(column));
        }
    }
    QStringList found;
    for (const QString &text : texts) {
        for (QRegularExpressionMatchIterator match = release.globalMatch(text); match.hasNext();)
            found.append(match.next().captured());
    }
    return found;
}

void addLanguages()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

} // namespace

class TestWizardFlow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void installPath_data() { addLanguages(); }
    // Install is the default; Uninstall is offered only with a receipt. The pages in order, a real
    // install, the verification, Repair when a check failed, and the summary at the end.
    void installPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Welcome));
        auto welcome = flow.page<WelcomePage>();
        QCOMPARE(welcome->task(), SetupTask::Install);
        QVERIFY(flow.find<QRadioButton>(QStringLiteral("installTaskRadio"))->isChecked());
        QVERIFY(flow.find<QRadioButton>(QStringLiteral("repairTaskRadio"))->isEnabled());
        auto uninstall = flow.find<QRadioButton>(QStringLiteral("uninstallTaskRadio"));
        QVERIFY(!uninstall->isEnabled());
        QVERIFY(!uninstall->accessibleName().isEmpty());
        if (isEnglish()) {
            QCOMPARE(uninstall->accessibleName(), QStringLiteral("Uninstall"));
            QVERIFY(labelText(welcome, QStringLiteral("uninstallTaskExplanation"))
                        .startsWith(QStringLiteral("Not available")));
        }
        flow.shoot(QStringLiteral("welcome"));

        // Install is the wizard's own commit button, in the user's language; installed, it goes on
        // to Verify.
        QString installButton;
        // Issue 35: one text for the copy on every page that names it.
        QMap<int, QStringList> versionTexts;
        QVERIFY(installThroughWizard(flow, [&] {
            if (flow.wizard->currentId() == SetupWizard::Page_Install && installButton.isEmpty())
                installButton = shownText(flow.wizard->button(QWizard::CommitButton)->text());
            versionTexts[flow.wizard->currentId()] += releaseTexts(flow.wizard->currentPage());
        }));
        QCOMPARE(installButton, isEnglish() ? QStringLiteral("Install") : QStringLiteral("安装"));
        QCOMPARE(shownText(flow.wizard->button(QWizard::CommitButton)->text()),
                 isEnglish() ? QStringLiteral("Verify >") : QStringLiteral("验证 >"));
        QCOMPARE(flow.visited,
                 (QList<int>{SetupWizard::Page_Welcome, SetupWizard::Page_Hardware, SetupWizard::Page_Purpose,
                             SetupWizard::Page_Match, SetupWizard::Page_Archive, SetupWizard::Page_Target,
                             SetupWizard::Page_Install}));
        flow.shoot(QStringLiteral("install"));

        QVERIFY(flow.next());
        auto verify = flow.page<VerifyPage>();
        QVERIFY(verify);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isVerifying(), kWorkTimeoutMs);
        QVERIFY(machine.session.hasVerifyReport());
        const bool passed = machine.session.verifyReport().passed();
        // Another system's files are not loaded here: the headline claims nothing the checks do not.
        const VerifyStage *load = machine.session.verifyReport().stage(QStringLiteral("load"));
        if (isEnglish() && passed && load && load->status == VerifyStage::Status::Skipped)
            QCOMPARE(labelText(verify, QStringLiteral("summaryLabel")),
                     QStringLiteral(
                         "cuDNN was not loaded here, so these checks prove nothing yet: each says why it "
                         "was skipped."));
        flow.shoot(QStringLiteral("verify"));
        versionTexts[SetupWizard::Page_Verify] = releaseTexts(verify);
        QVERIFY(flow.next());
        if (!passed) {
            // A check failed (the sandbox's DLLs are stand-ins): the doctor comes first.
            QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Repair));
            auto repair = flow.page<RepairPage>();
            QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
            QVERIFY(flow.next());
        }
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Finish));
        QVERIFY(flow.wizard->button(QWizard::FinishButton)->isVisible());
        QVERIFY(!flow.wizard->button(QWizard::NextButton)->isVisible());

        auto finish = flow.page<FinishPage>();
        versionTexts[SetupWizard::Page_Finish] = releaseTexts(finish);
        for (const int page : {SetupWizard::Page_Archive, SetupWizard::Page_Install, SetupWizard::Page_Verify,
                               SetupWizard::Page_Finish})
            QVERIFY2(!versionTexts.value(page).isEmpty(), qPrintable(QString::number(page)));
        for (auto page = versionTexts.cbegin(); page != versionTexts.cend(); ++page) {
            for (const QString &text : page.value())
                QVERIFY2(text == QLatin1String(Workstation::kVersion),
                         qPrintable(QStringLiteral("page %1: %2").arg(page.key()).arg(text)));
        }
        const Receipt &receipt = *machine.session.installOutcome().receipt;
        const QString done = labelText(finish, QStringLiteral("doneLabel"));
        // The receipt's id is for the command line and the logs: behind the tooltip, not in the text.
        QVERIFY2(!done.contains(receipt.id) && done.contains(kToolkit.toHtmlEscaped()), qPrintable(done));
        QVERIFY(finish->findChild<QLabel *>(QStringLiteral("doneLabel"))->toolTip().contains(receipt.id));
        QVERIFY(!finish->findChild<QLabel *>(QStringLiteral("verdictIcon"))->pixmap().isNull());
        // Into the toolkit, whose folder was on PATH already: no terminal to open anew; the line
        // for the user's own Python code, under "For programmers".
        QVERIFY(!finish->findChild<QLabel *>(QStringLiteral("nextStep-new-terminal")));
        QVERIFY(finish->findChild<QLabel *>(QStringLiteral("programmersTitle"))->isVisible());
        QCOMPARE(finish->findChild<QLineEdit *>(QStringLiteral("nextStepCode-python-code"))->text(),
                 QStringLiteral("import os; os.add_dll_directory(r\"%1\\bin\")").arg(kToolkit));
        if (isEnglish()) {
            QVERIFY(done.contains(QStringLiteral("cuDNN 9.19.0.56 was installed in %1").arg(kToolkit)));
            const VerifyStage *convolution =
                machine.session.verifyReport().stage(QStringLiteral("convolution"));
            const bool ranOnGpu = convolution && convolution->status == VerifyStage::Status::Passed;
            QCOMPARE(labelText(finish, QStringLiteral("verdictLabel")),
                     !passed ? QStringLiteral("Verification: failed. The report names the check that failed.")
                     : ranOnGpu
                         ? QStringLiteral("Verification: passed. cuDNN loads and works.")
                         : QStringLiteral("Verification: passed in part. Some checks were skipped; the "
                                          "Verify page says why."));
        }
        QTemporaryDir reports;
        QVERIFY(finish->saveReport(reports.path()));
        for (const char *file : {"report.json", "report.html", "environment_versions.txt"})
            QVERIFY2(QFileInfo::exists(reports.filePath(QLatin1String(file))), file);
        QVERIFY(QFile(reports.filePath(QStringLiteral("report.json"))).size() > 0);

        // Lab IT replays this install elsewhere: the answer file holds the choices just made, and
        // unattended mode reads them back the same.
        const auto saveAnswers = finish->findChild<QPushButton *>(QStringLiteral("saveAnswerFileButton"));
        QVERIFY(saveAnswers->isVisible());
        const QString answerFile = reports.filePath(QStringLiteral("answers.ini"));
        QVERIFY(finish->saveAnswerFile(answerFile));
        const Expected<UnattendedSettings> replayed = UnattendedSettings().withAnswerFile(answerFile);
        QVERIFY(replayed);
        QCOMPARE(replayed->action, QStringLiteral("install"));
        QCOMPARE(QDir::fromNativeSeparators(replayed->archive), machine.archive);
        QCOMPARE(replayed->target, machine.session.target().spec());
        QCOMPARE(replayed->path, pathScopeName(machine.session.target().pathScope));
        QVERIFY(replayed->verify);
        QVERIFY(labelText(finish, QStringLiteral("noteLabel")).contains(QStringLiteral("--answer-file")));
        flow.shoot(QStringLiteral("finish-install"));
    }

    void repairPath_data() { addLanguages(); }
    // Repair: the system, then the doctor, then the summary; nothing is installed on the way.
    void repairPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        flow.chooseTask(QStringLiteral("repairTaskRadio"));
        QCOMPARE(flow.page<WelcomePage>()->task(), SetupTask::Repair);
        QVERIFY(flow.next());
        flow.shoot(QStringLiteral("hardware"));
        QVERIFY(flow.next());
        auto repair = flow.page<RepairPage>();
        QVERIFY(repair);
        QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
        QVERIFY(machine.session.hasDoctorReport());
        flow.shoot(QStringLiteral("repair"));
        QVERIFY(flow.next());
        QCOMPARE(flow.visited, (QList<int>{SetupWizard::Page_Welcome, SetupWizard::Page_Hardware,
                                           SetupWizard::Page_Repair, SetupWizard::Page_Finish}));
        QVERIFY(!machine.session.hasInstallOutcome());
        auto finish = flow.page<FinishPage>();
        QVERIFY(!finish->findChild<QLabel *>(QStringLiteral("verdictIcon"))->pixmap().isNull());
        if (isEnglish()) {
            QVERIFY(
                labelText(finish, QStringLiteral("doneLabel"))
                    .contains(QStringLiteral("cuDNN Setup diagnosed this computer; no repair was made.")));
            // Nothing changed PATH: no window needs opening anew.
            QVERIFY(!finish->findChild<QLabel *>(QStringLiteral("nextStep-new-terminal")));
        }
        // "Healthy" only when no warning is open either: the workstation's diagnosis leaves one (a
        // cuDNN on no PATH), so the verdict names it, in both languages, with a warning's mark.
        const DoctorReport &report = machine.session.doctorReport();
        QVERIFY(report.healthy());
        const int warnings = report.count(Severity::Warning);
        QVERIFY(warnings > 0);
        const char *finishContext = "cudnnsetup::wizard::FinishPage";
        QCOMPARE(labelText(finish, QStringLiteral("verdictLabel")),
                 QCoreApplication::translate(finishContext,
                                             "Diagnosis: nothing stops cuDNN from working, but %n warning(s) "
                                             "remain. The Repair page lists them with what to do.",
                                             nullptr, warnings));
        QVERIFY(!labelText(finish, QStringLiteral("verdictLabel"))
                     .contains(QCoreApplication::translate(finishContext,
                                                           "Diagnosis: healthy. No problem is left.")));
        QCOMPARE(finish->findChild<QLabel *>(QStringLiteral("verdictIcon"))->pixmap().toImage(),
                 statusIcon(Status::Warning).pixmap(32, 32).toImage());
        flow.shoot(QStringLiteral("finish-repair"));
    }

    void uninstallPath_data() { addLanguages(); }
    // An install made through the wizard leaves a receipt: a new start offers Uninstall, which lists
    // it, takes it back (the files leave the toolkit) and says so on the summary.
    void uninstallPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        Receipt receipt;
        {
            Flow installing(machine, language);
            QVERIFY(installThroughWizard(installing));
            receipt = *machine.session.installOutcome().receipt;
        }
        const QString dll = kToolkit + QStringLiteral("\\bin\\cudnn64_9.dll");
        QVERIFY(QFileInfo::exists(machine.hostPath(dll)));

        Flow flow(machine, language);
        auto uninstallTask = flow.find<QRadioButton>(QStringLiteral("uninstallTaskRadio"));
        QVERIFY(uninstallTask->isEnabled());
        flow.chooseTask(QStringLiteral("uninstallTaskRadio"));
        flow.shoot(QStringLiteral("welcome-receipts"));
        QVERIFY(flow.next());
        auto page = flow.page<UninstallPage>();
        QVERIFY(page);
        QVERIFY(page->isCommitPage());
        auto list = flow.find<QTreeWidget>(QStringLiteral("receiptsTree"));
        QCOMPARE(list->topLevelItemCount(), 1);
        // The folder a person recognises, first; the receipt's id only in the tooltip.
        const QTreeWidgetItem *row = list->topLevelItem(0);
        QCOMPARE(row->text(0), kToolkit);
        QCOMPARE(row->text(1), QStringLiteral("9.19.0.56"));
        QVERIFY(row->text(2).contains(
            QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$"))));
        QVERIFY(row->toolTip(0).contains(receipt.id));
        QCOMPARE(page->chosenReceipt(), receipt.id);
        // Uninstall is the wizard's own commit button, in the user's language, with nothing in the
        // page beside it; what it removes is listed before it is pressed.
        QAbstractButton *commit = flow.wizard->button(QWizard::CommitButton);
        QVERIFY(commit->isVisible() && commit->isEnabled());
        QCOMPARE(shownText(commit->text()),
                 isEnglish() ? QStringLiteral("Uninstall") : QStringLiteral("卸载"));
        QVERIFY(!flow.find<QPushButton>(QStringLiteral("uninstallButton")));
        QVERIFY(flow.find<QLabel>(QStringLiteral("uninstallPreview"))->isVisible());
        const QString preview = labelText(page, QStringLiteral("uninstallPreview"));
        const QString bin = kToolkit + QStringLiteral("\\bin");
        const auto inBin =
            std::count_if(receipt.files.cbegin(), receipt.files.cend(), [&](const Receipt::File &file) {
                return file.path.startsWith(bin + QLatin1Char('\\'));
            });
        QVERIFY(inBin > 1);
        QVERIFY2(preview.contains(isEnglish() ? QStringLiteral("Remove %1 files in %2").arg(inBin).arg(bin)
                                              : QStringLiteral("删除 %1 中的 %2 个文件").arg(bin).arg(inBin)),
                 qPrintable(preview));
        flow.shoot(QStringLiteral("uninstall-ready"));

        // One confirmation: Uninstall takes it back and goes on to the summary.
        commit->click();
        QTRY_COMPARE_WITH_TIMEOUT(flow.wizard->currentId(), int(SetupWizard::Page_Finish), kWorkTimeoutMs);
        QVERIFY2(page->isComplete(), qPrintable(labelText(page, QStringLiteral("resultLabel"))));
        QVERIFY(!QFileInfo::exists(machine.hostPath(dll)));
        QCOMPARE(list->topLevelItemCount(), 0);
        QVERIFY(!flow.wizard->button(QWizard::BackButton)->isEnabled());
        QVERIFY(!flow.wizard->button(QWizard::CancelButton)->isVisible()); // nothing left to cancel
        const QString done = labelText(flow.page<FinishPage>(), QStringLiteral("doneLabel"));
        QVERIFY2(done.contains(kToolkit) && !done.contains(receipt.id), qPrintable(done));
        if (isEnglish())
            QVERIFY(done.contains(QStringLiteral("cuDNN 9.19.0.56 was uninstalled from %1").arg(kToolkit)));
        flow.shoot(QStringLiteral("finish-uninstall"));
    }

    void withoutGpu_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("gpuPresent");
        QTest::addColumn<QString>("words");
        QTest::newRow("no GPU, en") << QStringLiteral("en") << false
                                    << QStringLiteral("No NVIDIA GPU was found");
        QTest::newRow("no GPU, zh_CN") << QStringLiteral("zh_CN") << false << QString();
        QTest::newRow("driver not working, en")
            << QStringLiteral("en") << true << QStringLiteral("The NVIDIA driver is missing or not working");
    }
    // No NVIDIA GPU, or a driver that does not work: the Hardware page says what to do, and
    // cuDNN can still be installed for later.
    void withoutGpu()
    {
        QFETCH(QString, language);
        QFETCH(bool, gpuPresent);
        QFETCH(QString, words);
        Workstation machine;
        SystemSnapshot snapshot = machine.snapshot;
        if (gpuPresent) {
            snapshot.driver->working = false;
        } else {
            snapshot.gpus.clear();
            snapshot.driver.reset();
        }
        machine.session.setSnapshot(snapshot);
        InspectOptions options;
        options.verifyData = false;
        machine.session.setArchive(*inspectArchive(
            machine.archive, machine.session.database().database.publishedArchives(), options));
        Flow flow(machine, language);
        QVERIFY(flow.next());
        auto hardware = flow.page<HardwarePage>();
        QVERIFY(hardware);
        auto note = flow.find<QLabel>(QStringLiteral("noGpuLabel"));
        QVERIFY(note->isVisible());
        QVERIFY(!note->text().isEmpty());
        QVERIFY(labelText(hardware, QStringLiteral("summaryLabel")) !=
                QStringLiteral("This computer is ready for a cuDNN install."));
        if (!words.isEmpty()) {
            QVERIFY2(note->text().startsWith(words), qPrintable(note->text()));
            QVERIFY(note->text().contains(QStringLiteral("nvidia.com/drivers")));
            QVERIFY(note->text().contains(QStringLiteral("You can still install cuDNN now")));
        }
        flow.shoot(gpuPresent ? QStringLiteral("hardware-driver-broken") : QStringLiteral("hardware-no-gpu"));
        // Install stays possible: past the verdict (with the user's explicit word if it blocks).
        QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Purpose));
        QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Match));
        flow.shoot(gpuPresent ? QStringLiteral("match-driver-broken") : QStringLiteral("match-no-gpu"));
        if (!flow.wizard->currentPage()->isComplete())
            flow.find<QCheckBox>(QStringLiteral("overrideCheck"))->click();
        QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Archive));
    }

    void hardwareWithGpuSaysNothingExtra()
    {
        Workstation machine;
        Flow flow(machine, QStringLiteral("en"));
        QVERIFY(flow.next());
        QVERIFY(!flow.find<QLabel>(QStringLiteral("noGpuLabel"))->isVisible());
    }

    void backKeepsState_data() { addLanguages(); }
    // Back and Next again: the task, the language, the detection, the verdict override and the
    // target are as the user left them.
    void backKeepsState()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        flow.chooseTask(QStringLiteral("repairTaskRadio"));
        QVERIFY(flow.next());
        flow.wizard->back();
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Welcome));
        QVERIFY(flow.find<QRadioButton>(QStringLiteral("repairTaskRadio"))->isChecked());
        QCOMPARE(flow.find<QComboBox>(QStringLiteral("languageCombo"))->currentData().toString(), language);
        flow.chooseTask(QStringLiteral("installTaskRadio"));
        for (int step = 0; step < 5; ++step)
            QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Target));
        auto user = flow.find<QRadioButton>(QStringLiteral("target-user"));
        QVERIFY(user && user->isEnabled());
        user->click();
        const InstallTarget chosen = machine.session.target();
        flow.shoot(QStringLiteral("target"));
        flow.wizard->back();
        flow.wizard->back();
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Match));
        flow.wizard->back();
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Purpose));
        flow.wizard->back();
        QVERIFY(!flow.page<HardwarePage>()->isDetecting());
        QVERIFY(machine.session.hasSnapshot());
        flow.wizard->back();
        QVERIFY(flow.find<QRadioButton>(QStringLiteral("installTaskRadio"))->isChecked());
        for (int step = 0; step < 5; ++step)
            QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Target));
        QVERIFY(flow.find<QRadioButton>(QStringLiteral("target-user"))->isChecked());
        QCOMPARE(machine.session.target().root, chosen.root);
    }
};

CUDNNSETUP_TEST_MAIN(TestWizardFlow)
#include "tst_wizardflow.moc"
