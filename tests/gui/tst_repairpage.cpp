// The Repair page on the sandbox Windows workstation, its stored environment in memory: the user's
// PATH names the folder above the old cuDNN's DLLs (an error the doctor can repair) and the machine's
// CUDA_PATH another toolkit (a warning, repaired with administrator rights). The doctor's real
// diagnosis with its boxes (ticked for the error), the preview following the ticks, a real repair
// applied with its receipt, what changed and how to undo it, the diagnosis after it; a repair
// refused while another change holds the machine's lock, in English and in Chinese; and the
// diagnosis kept across Back and Next.
#include "FindingsView.h"
#include "PathTextView.h"
#include "RepairPage.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "VerifyPage.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "platform/InstallLock.h"
#include "platform/MemoryEnvironment.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <memory>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::labelText;
using wizardpagetests::saveScreenshot;
using wizardpagetests::Workstation;

namespace {

// A detection of the sandbox and the doctor's rules; a repair is a few environment writes. Wine
// starts slowly.
constexpr int kDoctorTimeoutMs = 120000;

const QString kOldCudnnRoot = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v8.9");
const QString kOtherToolkit = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8");
const QString kUserPath = kOldCudnnRoot + QStringLiteral(";%USERPROFILE%\\bin");

const char kTooHigh[] = "doctor.path-entry-too-high";
const char kCudaPath[] = "doctor.cuda-path-mismatch";

void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

QByteArray describe(const DoctorReport &report)
{
    QStringList lines;
    for (const Diagnosis &diagnosis : report.diagnoses)
        lines.append(diagnosis.finding.id + QStringLiteral(": ") + diagnosis.finding.message.toEnglish());
    return lines.join(QLatin1Char('\n')).toUtf8();
}

// What the preview of `repair` says the user PATH becomes ("User PATH after: VALUE").
QString promisedUserPath(const Repair &repair)
{
    const QString after = QStringLiteral("User PATH after: ");
    for (const Text &line : repair.preview) {
        if (line.toEnglish().startsWith(after))
            return line.toEnglish().mid(after.size());
    }
    return QStringLiteral("<the user PATH is not in the preview>");
}

const Diagnosis *find(const DoctorReport &report, const QString &id)
{
    for (const Diagnosis &diagnosis : report.diagnoses) {
        if (diagnosis.finding.id == id)
            return &diagnosis;
    }
    return nullptr;
}

// The workstation with the two slips in its stored environment, its wizard opened at `start`.
struct Opened
{
    explicit Opened(int start = SetupWizard::Page_Repair)
    {
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {kUserPath, true});
        environment->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"), {kOtherToolkit, false});
        machine.session.setPersistentEnvironment(environment);
        wizard = std::make_unique<SetupWizard>(&machine.session);
        wizard->resize(820, 700);
        page = qobject_cast<RepairPage *>(wizard->page(SetupWizard::Page_Repair));
        wizard->setStartId(start);
        wizard->show();
    }

    QCheckBox *box(const QString &findingId) const
    {
        return page->findChild<QCheckBox *>(QStringLiteral("repair-") + findingId);
    }
    QString preview() const { return page->findChild<PathTextView *>(QStringLiteral("previewText"))->text(); }
    QAbstractButton *apply() const
    {
        return page->findChild<QAbstractButton *>(QStringLiteral("applyButton"));
    }
    bool visible(const QString &name) const
    {
        const auto widget = page->findChild<QWidget *>(name);
        return widget && widget->isVisible();
    }
    QString userPath() const
    {
        return environment->value(EnvironmentScope::User, QStringLiteral("PATH"))->text;
    }
    const DoctorReport &report() const { return machine.session.doctorReport(); }

    Workstation machine;
    std::shared_ptr<MemoryEnvironment> environment = std::make_shared<MemoryEnvironment>();
    std::unique_ptr<SetupWizard> wizard;
    RepairPage *page = nullptr;
};

} // namespace

class TestRepairPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { Translations::install(QStringLiteral("en")); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // The doctor's own diagnosis of the workstation: each finding with its icon and word, a box
    // where a repair is offered (ticked for the error), the preview showing exactly what the ticked
    // ones change, and the Apply button saying when administrator rights are needed.
    void diagnosesWithBoxesAndPreview()
    {
        Opened opened;
        RepairPage *page = opened.page;
        QCOMPARE(opened.wizard->currentPage(), page);
        QVERIFY(page->isBusy());
        QVERIFY(!page->isComplete());
        QVERIFY(opened.visible(QStringLiteral("busyIndicator")));
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        QVERIFY(page->isComplete());
        QVERIFY(opened.wizard->button(QWizard::FinishButton)->isEnabled());
        QVERIFY(!opened.visible(QStringLiteral("busyIndicator")));

        const DoctorReport &report = opened.report();
        const Diagnosis *tooHigh = find(report, QLatin1String(kTooHigh));
        const Diagnosis *cudaPath = find(report, QLatin1String(kCudaPath));
        QVERIFY2(tooHigh && tooHigh->repair && cudaPath && cudaPath->repair, describe(report).constData());
        QCOMPARE(tooHigh->finding.severity, Severity::Error);
        QCOMPARE(cudaPath->finding.severity, Severity::Warning);
        QVERIFY(cudaPath->repair->needsAdministrator);

        // Each finding: the word of its severity, its message, what to do.
        const QString tooHighText = labelText(page, QLatin1String(kTooHigh));
        QVERIFY2(tooHighText.startsWith(QStringLiteral("<b>Error:</b> ") +
                                        tooHigh->finding.message.toString().toHtmlEscaped()),
                 qPrintable(tooHighText));
        QVERIFY(tooHighText.contains(
            QStringLiteral("<i>What to do: %1</i>").arg(tooHigh->finding.fix.toString().toHtmlEscaped())));
        QVERIFY(labelText(page, QLatin1String(kCudaPath)).startsWith(QStringLiteral("<b>Warning:</b> ")));
        // The number of errors, in the words of the English plural forms once they are there.
        const int errors = int(
            std::count_if(report.diagnoses.cbegin(), report.diagnoses.cend(), [](const Diagnosis &diagnosis) {
                return diagnosis.finding.severity == Severity::Error;
            }));
        QCOMPARE(labelText(page, QStringLiteral("summaryLabel")),
                 QCoreApplication::translate("cudnnsetup::wizard::RepairPage",
                                             "%n problem(s) stop cuDNN from working.", nullptr, errors));
        QVERIFY(opened.visible(QStringLiteral("hintLabel")));

        // The error's repair ticked, the warning's not; a finding without a repair has no box.
        QVERIFY(opened.box(QLatin1String(kTooHigh))->isChecked());
        QVERIFY(!opened.box(QLatin1String(kCudaPath))->isChecked());
        QCOMPARE(opened.box(QLatin1String(kTooHigh))->accessibleName(),
                 QStringLiteral("Repair: ") + tooHigh->repair->summary.toString());
        QCOMPARE(labelText(page, QStringLiteral("repairText-") + QLatin1String(kTooHigh)),
                 QStringLiteral("Repair: ") + tooHigh->repair->summary.toString());
        QCOMPARE(opened.box(QLatin1String(kCudaPath))->accessibleName(),
                 QStringLiteral("Repair, with administrator rights: ") +
                     cudaPath->repair->summary.toString());
        const int boxes = int(page->findChildren<QCheckBox *>().size());
        const int offered =
            int(std::count_if(report.diagnoses.cbegin(), report.diagnoses.cend(),
                              [](const Diagnosis &diagnosis) { return diagnosis.repair.has_value(); }));
        QCOMPARE(boxes, offered);

        // The preview is exactly what the ticked repairs change.
        QCOMPARE(page->selectedRepairs().size(), 1);
        QString preview = opened.preview();
        QVERIFY(preview.startsWith(tooHigh->repair->summary.toString() + QLatin1Char('\n')));
        for (const Text &line : tooHigh->repair->preview)
            QVERIFY2(preview.contains(QStringLiteral("    ") + line.toString()), qPrintable(preview));
        QVERIFY(preview.contains(kUserPath));
        QVERIFY(!preview.contains(kOtherToolkit));
        QCOMPARE(opened.apply()->text(), QStringLiteral("&Apply selected"));
        QVERIFY(opened.apply()->isEnabled());
        settle();
        // Issue 35: the preview box is as high as its lines: all of them shown, none scrolled to.
        const auto previewBox = page->findChild<PathTextView *>(QStringLiteral("previewText"));
        QVERIFY2(previewBox->verticalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1 lines (%2 wrapped) in %3 px, %4 px a line")
                                .arg(previewBox->document()->blockCount())
                                .arg(previewBox->shownLines())
                                .arg(previewBox->viewport()->height())
                                .arg(QFontMetricsF(previewBox->font()).lineSpacing())));
        const int oneRepairHigh = previewBox->height();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-en.png"));

        opened.box(QLatin1String(kCudaPath))->click();
        preview = opened.preview();
        for (const Text &line : cudaPath->repair->preview)
            QVERIFY2(preview.contains(line.toString()), qPrintable(preview));
        QVERIFY(previewBox->height() > oneRepairHigh);
        // Nothing ticked: the box keeps the placeholder's line, not the room of a long preview.
        opened.box(QLatin1String(kCudaPath))->click();
        opened.box(QLatin1String(kTooHigh))->click();
        QVERIFY(opened.preview().isEmpty());
        QVERIFY(previewBox->height() < oneRepairHigh);
        opened.box(QLatin1String(kTooHigh))->click();
        opened.box(QLatin1String(kCudaPath))->click();
        QCOMPARE(opened.apply()->text(), QStringLiteral("&Apply selected as administrator"));
        opened.box(QLatin1String(kTooHigh))->click();
        preview = opened.preview();
        QVERIFY(!preview.contains(kUserPath));
        QVERIFY(preview.contains(kOtherToolkit));
        opened.box(QLatin1String(kCudaPath))->click();
        QVERIFY(opened.preview().isEmpty());
        QVERIFY(!opened.apply()->isEnabled());
        QVERIFY(page->selectedRepairs().isEmpty());
        page->applySelected(); // nothing ticked: nothing done
        QVERIFY(!page->isBusy());
        QCOMPARE(opened.userPath(), kUserPath);
        // Every box is reached from the keyboard.
        QCOMPARE(opened.box(QLatin1String(kTooHigh))->focusPolicy() & Qt::TabFocus, Qt::TabFocus);
    }

    // Issue 35: the diagnosis does not scroll sideways either: its long paths break between
    // folders, and a repair's words, beside its box (which draws one line), wrap; a click on them
    // ticks the box as a click on a box's own words does.
    void diagnosisWrapsAndARepairsWordsTickIt()
    {
        Opened opened;
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isBusy(), kDoctorTimeoutMs);
        opened.wizard->resize(560, 700);
        settle();
        auto list = opened.page->findChild<QWidget *>(QStringLiteral("diagnosisList"));
        QVERIFY(list);
        auto scroll = qobject_cast<QScrollArea *>(list->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        QVERIFY(list->width() <= scroll->viewport()->width());
        QCheckBox *box = opened.box(QLatin1String(kCudaPath));
        QVERIFY(!box->isChecked());
        auto words =
            opened.page->findChild<QLabel *>(QStringLiteral("repairText-") + QLatin1String(kCudaPath));
        QVERIFY(words && words->wordWrap());
        QTest::mouseClick(words, Qt::LeftButton);
        QVERIFY(box->isChecked());
        QVERIFY(opened.preview().contains(kOtherToolkit));
    }

    // Issue 35: the preview wraps a long PATH between its folders instead of scrolling sideways,
    // and what a person copies out of it is exactly what the repairs change, no break mark in it.
    void previewWrapsBetweenFoldersAndCopiesAsGiven()
    {
        Opened opened;
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isBusy(), kDoctorTimeoutMs);
        opened.box(QLatin1String(kCudaPath))->click(); // both ticked: the longest preview
        QCOMPARE(opened.page->selectedRepairs().size(), 2);
        QStringList expected;
        for (const Repair &repair : opened.page->selectedRepairs()) {
            expected.append(repair.summary.toString());
            for (const Text &line : repair.preview)
                expected.append(QStringLiteral("    ") + line.toString());
        }
        // Narrower than its longest lines (a PATH of several folders).
        opened.wizard->resize(560, 700);
        settle();
        auto view = opened.page->findChild<PathTextView *>(QStringLiteral("previewText"));
        QVERIFY(view);
        view->grab(); // laid out as drawn
        QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
        QVERIFY(view->shownLines() > view->document()->blockCount());
        int wrapped = 0;
        for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next()) {
            const QTextLayout *layout = block.layout();
            for (int i = 0; i + 1 < layout->lineCount(); ++i, ++wrapped) {
                const QTextLine line = layout->lineAt(i);
                const QString shown =
                    block.text().mid(line.textStart(), line.textLength()).remove(QChar(0x200B));
                // After a folder's separator, after PATH's own (Windows' text layout breaks there
                // too), or between words; never inside a name.
                QVERIFY2(shown.endsWith(QLatin1Char('\\')) || shown.endsWith(QLatin1Char('/')) ||
                             shown.endsWith(QLatin1Char(';')) || shown.endsWith(QLatin1Char(' ')),
                         qPrintable(shown));
            }
        }
        QVERIFY(wrapped > 0);
        view->selectAll();
        view->copy();
        QCOMPARE(QGuiApplication::clipboard()->text(), expected.join(QLatin1Char('\n')));
    }

    // The ticked repair applied for real: the stored PATH names the DLLs' folder, the page says
    // what changed and how to undo it (the receipt's id, which uninstall takes), and shows the
    // diagnosis made after it, without the repaired finding.
    void appliesAndShowsTheNewDiagnosis()
    {
        Opened opened;
        RepairPage *page = opened.page;
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        const Diagnosis *tooHigh = find(opened.report(), QLatin1String(kTooHigh));
        QVERIFY2(tooHigh && tooHigh->repair, describe(opened.report()).constData());
        const Repair repair = *tooHigh->repair;
        const QString tooHighMessage = tooHigh->finding.message.toString();
        QVERIFY(!opened.visible(QStringLiteral("outcomeBox")));
        QVERIFY(!opened.visible(QStringLiteral("changesLabel"))); // a first diagnosis: nothing to compare

        opened.apply()->click();
        QVERIFY(page->isRepairing());
        QVERIFY(!opened.apply()->isEnabled());
        QVERIFY(!page->isComplete());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);

        QCOMPARE(opened.userPath(), promisedUserPath(repair));
        QVERIFY(opened.userPath().contains(kOldCudnnRoot + QStringLiteral("\\bin")));
        QCOMPARE(opened.environment->value(EnvironmentScope::System, QStringLiteral("CUDA_PATH"))->text,
                 kOtherToolkit); // not ticked, not changed
        QVERIFY(opened.visible(QStringLiteral("outcomeBox")));
        // Undone the way a GUI user can: the Uninstall page, never a command to type.
        const QString undo = labelText(page, QStringLiteral("undoLabel"));
        QVERIFY2(undo.startsWith(QStringLiteral("To undo these repairs later, start cuDNN Setup again and "
                                                "choose Uninstall on its first page")),
                 qPrintable(undo));
        QVERIFY(!undo.contains(QStringLiteral("cudnnctl")));
        const QString receiptId = page->findChild<QLabel *>(QStringLiteral("undoLabel"))->toolTip();
        QVERIFY(receiptId.startsWith(QStringLiteral("repair-")));
        const QList<std::pair<Receipt, QString>> receipts =
            installedReceipts(opened.machine.session.context());
        QVERIFY(std::any_of(receipts.cbegin(), receipts.cend(), [&](const auto &receipt) {
            return receipt.first.id == receiptId && receipt.first.result == QLatin1String("repaired");
        }));
        const QString changed = labelText(page, QStringLiteral("changedLabel"));
        QVERIFY(changed.startsWith(QStringLiteral("What changed:\n") + repair.summary.toString()));
        for (const Text &line : repair.preview)
            QVERIFY2(changed.contains(line.toString()), qPrintable(changed));

        // The diagnosis after it, detected from the environment as the repair stored it: the finding
        // repaired is gone, with its box, and the folder just put on PATH is not said to be on none.
        QVERIFY2(!find(opened.report(), QLatin1String(kTooHigh)), describe(opened.report()).constData());
        QVERIFY2(!find(opened.report(), QStringLiteral("doctor.cudnn-not-on-path")),
                 describe(opened.report()).constData());
        QVERIFY(find(opened.report(), QLatin1String(kCudaPath)));
        QVERIFY(!opened.box(QLatin1String(kTooHigh)));
        QVERIFY(opened.box(QLatin1String(kCudaPath)));
        QVERIFY(page->isComplete());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-done-en.png"));

        // Not a fresh list under the same headline: what changed since the diagnosis before.
        QVERIFY(opened.visible(QStringLiteral("changesLabel")));
        const QString changes = labelText(page, QStringLiteral("changesLabel"));
        // Words, not pointers: the session's diagnosis is replaced below.
        const QString cudaPathMessage =
            find(opened.report(), QLatin1String(kCudaPath))->finding.message.toString();
        QVERIFY2(changes.startsWith(QStringLiteral("Since the last diagnosis: 1 fixed, ")),
                 qPrintable(changes));
        QVERIFY2(changes.contains(QStringLiteral("Fixed: ") + tooHighMessage), qPrintable(changes));
        QVERIFY2(changes.contains(QStringLiteral("Still open: ") + cudaPathMessage), qPrintable(changes));
        QCOMPARE(labelText(page, QStringLiteral("listTitle")),
                 QStringLiteral("What the diagnosis finds now"));

        // The undo the page names does undo it.
        const ChangeOutcome undone = uninstall(receiptId, opened.machine.session.context(),
                                               opened.machine.session.persistentEnvironment());
        QCOMPARE(undone.statusName(), QStringLiteral("done"));
        QCOMPARE(opened.userPath(), kUserPath);

        // Diagnose again: the problem is back, as new; the other one still open. In Chinese too.
        page->findChild<QAbstractButton *>(QStringLiteral("diagnoseAgainButton"))->click();
        QVERIFY(!opened.visible(QStringLiteral("changesLabel"))); // nothing to compare while busy
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        const QString again = labelText(page, QStringLiteral("changesLabel"));
        QVERIFY2(again.contains(QRegularExpression(QStringLiteral(
                     "^Since the last diagnosis: \\d+ fixed, \\d+ still open, \\d+ new\\.\n"))),
                 qPrintable(again));
        QVERIFY2(again.contains(QStringLiteral("New: ") + tooHighMessage), qPrintable(again));
        QVERIFY2(again.contains(QStringLiteral("Still open: ") + cudaPathMessage), qPrintable(again));
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(labelText(page, QStringLiteral("changesLabel")) != again);
        const QString chinese = labelText(page, QStringLiteral("changesLabel"));
        QVERIFY2(chinese.contains(
                     QCoreApplication::translate("cudnnsetup::wizard::RepairPage", "New: %1")
                         .arg(find(opened.report(), QLatin1String(kTooHigh))->finding.message.toString())),
                 qPrintable(chinese));
        QVERIFY2(chinese.startsWith(QStringLiteral("与上次诊断相比")), qPrintable(chinese));
    }

    // Another change holds the machine's lock: nothing is changed, the page says why, and the
    // reason follows the language (its message and fix have Chinese in the translation already).
    void lockedMachineIsExplainedInEitherLanguage()
    {
        Opened opened;
        RepairPage *page = opened.page;
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        const std::unique_ptr<InstallLock> held =
            StateFolders::of(opened.machine.session.context())
                .tryLock(opened.machine.session.context(), Elevation::host());
        QVERIFY(held);
        const QJsonObject before = opened.report().toJson();

        opened.apply()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        QCOMPARE(opened.userPath(), kUserPath);
        QCOMPARE(labelText(page, QStringLiteral("resultLabel")),
                 QStringLiteral("The repairs were not made: nothing was changed."));
        QVERIFY(!opened.visible(QStringLiteral("undoLabel")));
        QVERIFY(!opened.visible(QStringLiteral("changedLabel")));
        QTRY_VERIFY(opened.visible(QStringLiteral("install.busy"))); // rows are shown once laid out
        // Issue 35: the failure reads whole in its box, with no scroll arrows of its own.
        const auto outcomeFindings = page->findChild<FindingsView *>(QStringLiteral("outcomeFindings"));
        QTRY_VERIFY(outcomeFindings->height() >= outcomeFindings->sizeHint().height());
        QVERIFY(!outcomeFindings->verticalScrollBar()->isVisible());
        QCOMPARE(
            labelText(page, QStringLiteral("install.busy")),
            QStringLiteral("Another install, uninstall or repair of cuDNN is running.<br><i>What to do: Wait "
                           "until it has finished, then try again.</i>"));
        // Nothing changed: the diagnosis and the ticks stay.
        QCOMPARE(opened.report().toJson(), before);
        QVERIFY(opened.box(QLatin1String(kTooHigh))->isChecked());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-busy-en.png"));

        Translations::install(QStringLiteral("zh_CN"));
        const QString message = QCoreApplication::translate(
            "cudnnsetup", "Another install, uninstall or repair of cuDNN is running.");
        QVERIFY2(message != QLatin1String("Another install, uninstall or repair of cuDNN is running."),
                 "the Chinese translation is not loaded");
        QTRY_VERIFY(
            labelText(page, QStringLiteral("install.busy")).startsWith(message + QStringLiteral("<br><i>")));
        QVERIFY(labelText(page, QStringLiteral("install.busy"))
                    .contains(
                        QCoreApplication::translate("cudnnsetup::wizard::FindingsView", "What to do: %1")
                            .arg(QCoreApplication::translate("cudnnsetup", "Wait until it has finished, then "
                                                                           "try again."))));
        QCOMPARE(page->title(), QCoreApplication::translate("cudnnsetup::wizard::RepairPage", "Repair"));
        QCOMPARE(opened.box(QLatin1String(kTooHigh))->accessibleName(),
                 QCoreApplication::translate("cudnnsetup::wizard::RepairPage", "Repair: %1")
                     .arg(find(opened.report(), QLatin1String(kTooHigh))->repair->summary.toString()));
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-zh_CN.png"));
    }

    // The user pastes the torch traceback they saw: the page hands it to the session, the doctor
    // reads it and the first row says in words what it means on this computer (the venv it names
    // is this one's) and what to do; in Chinese too. Text with no known error says "not recognised".
    void pastedTracebackIsDiagnosed()
    {
        Opened opened;
        RepairPage *page = opened.page;
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        QVERIFY(!opened.visible(QStringLiteral("pastedVerdict")));
        const QString torchLib =
            QLatin1String(Workstation::kVenv) + QStringLiteral("\\Lib\\site-packages\\torch\\lib");
        opened.machine.sandbox.mkdir(torchLib);
        const auto box = page->findChild<QPlainTextEdit *>(QStringLiteral("pastedError"));
        QVERIFY(box && box->isVisible());
        box->setPlainText(
            QStringLiteral("Traceback (most recent call last):\n"
                           "  File \"C:\\Users\\lab\\proj\\train.py\", line 1, in <module>\n"
                           "    import torch\n"
                           "OSError: [WinError 126] The specified module could not be found. Error loading "
                           "\"%1\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.\n")
                .arg(torchLib));
        page->findChild<QAbstractButton *>(QStringLiteral("diagnosePastedButton"))->click();
        QVERIFY(page->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        const DoctorReport &report = opened.report();
        QVERIFY(report.log);
        QVERIFY2(!report.diagnoses.isEmpty() &&
                     report.diagnoses.first().finding.id == QLatin1String("log.missing-library"),
                 describe(report).constData());
        QTRY_VERIFY(opened.visible(QStringLiteral("log.missing-library")));
        const QString row = labelText(page, QStringLiteral("log.missing-library"));
        QVERIFY2(
            row.startsWith(QStringLiteral("<b>Error:</b> cudnn_cnn_infer64_8.dll could not be loaded.")) &&
                row.contains(QStringLiteral("What to do:")),
            qPrintable(row));
        QVERIFY2(row.contains(QStringLiteral("exists on this system")) ||
                     row.contains(QStringLiteral("On this system")),
                 qPrintable(row));
        QVERIFY(opened.visible(QStringLiteral("pastedVerdict")));
        QCOMPARE(labelText(page, QStringLiteral("pastedVerdict")),
                 QStringLiteral("1 known error in the text: the first row below says what it means on this "
                                "computer and offers the repair."));
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-pasted-en.png"));

        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(
            labelText(page, QStringLiteral("pastedVerdict")) ==
            QCoreApplication::translate("cudnnsetup::wizard::RepairPage",
                                        "%n known error(s) in the text: the first rows below say what "
                                        "each means on this computer and offer the repair.",
                                        nullptr, 1));
        QVERIFY(labelText(page, QStringLiteral("pastedVerdict")).contains(QStringLiteral("这台电脑")));
        QVERIFY(labelText(page, QStringLiteral("log.missing-library")).contains(QStringLiteral("无法加载")));
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("repair-pasted-zh_CN.png"));
        Translations::install(QStringLiteral("en"));

        box->setPlainText(QStringLiteral("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"));
        page->findChild<QAbstractButton *>(QStringLiteral("diagnosePastedButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kDoctorTimeoutMs);
        QVERIFY(
            labelText(page, QStringLiteral("pastedVerdict")).startsWith(QStringLiteral("Not recognised")));
        QVERIFY(!find(opened.report(), QStringLiteral("log.missing-library")));
    }

    // From a failed verification to the Repair page and back: the verification and the diagnosis
    // stay as they were, neither made again; a new verification takes the old diagnosis back.
    void backAndNextKeepTheDiagnosis()
    {
        Opened opened(SetupWizard::Page_Verify);
        auto verify = qobject_cast<VerifyPage *>(opened.wizard->currentPage());
        QVERIFY(verify);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isVerifying(), kDoctorTimeoutMs);
        VerifyReport failed;
        failed.createdAt = QDateTime::currentDateTimeUtc();
        failed.directory = kOldCudnnRoot + QStringLiteral("\\bin");
        VerifyStage load;
        load.id = QStringLiteral("load");
        load.status = VerifyStage::Status::Failed;
        load.message = Text::verbatim(QStringLiteral("cudnn64_8.dll did not load."));
        failed.stages = {load};
        opened.machine.session.setVerifyReport(failed);
        QVERIFY(opened.wizard->button(QWizard::NextButton)->isEnabled());

        opened.wizard->next();
        QCOMPARE(opened.wizard->currentPage(), opened.page);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isBusy(), kDoctorTimeoutMs);
        const QJsonObject diagnosis = opened.report().toJson();
        opened.box(QLatin1String(kCudaPath))->click();

        opened.wizard->back();
        QCOMPARE(opened.wizard->currentPage(), verify);
        QCOMPARE(labelText(verify, QStringLiteral("stage-load-status")), QStringLiteral("Failed"));
        opened.wizard->next();
        QVERIFY(!opened.page->isBusy());
        QCOMPARE(opened.report().toJson(), diagnosis);
        QVERIFY(opened.box(QLatin1String(kCudaPath))->isChecked()); // the user's ticks too

        opened.wizard->back();
        opened.machine.session.setVerifyReport(failed);
        QVERIFY(!opened.machine.session.hasDoctorReport());
        opened.wizard->next();
        QVERIFY(opened.page->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!opened.page->isBusy(), kDoctorTimeoutMs);
        QVERIFY(opened.machine.session.hasDoctorReport());
    }
};

CUDNNSETUP_TEST_MAIN(TestRepairPage)
#include "tst_repairpage.moc"
