// The Target page on a sandbox Windows workstation (a CUDA 12.9 toolkit, a conda env, a venv, an old
// cuDNN on PATH) with NVIDIA's cuDNN 9.19 zip for CUDA 12: the choices it offers and explains, the
// toolkit core proposes chosen first, a folder typed in and checked, the PATH preview with the
// clean-ups it offers (never ticked by itself), the CUDNN_* variables, and PATH left alone where
// it cannot be written; in English and in Chinese.
#include "Artwork.h"
#include "Cudnnctl.h"
#include "InfoIcon.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "TargetPage.h"
#include "WizardPageTests.h"
#include "common/Sizes.h"
#include "common/Translations.h"
#include "platform/MemoryEnvironment.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QToolButton>
#include <QTreeWidget>

#include <atomic>
#include <memory>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::labelText;
using wizardpagetests::saveScreenshot;
using wizardpagetests::Workstation;

namespace {

const QString kOurs =
    QStringLiteral("C:\\Users\\lab\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.19\\bin\\x64");
const QString kOwnFolder = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.19");

// Volumes whose free space is what the test says, counting who asks: on which thread.
class ToldVolumes final : public Volumes
{
public:
    std::atomic<qint64> free{0};
    mutable std::atomic<int> asked{0};
    mutable std::atomic<int> askedOnGuiThread{0};

    qint64 freeBytes(const QString &) const override
    {
        ++asked;
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++askedOnGuiThread;
        return free;
    }
};

// The workstation (its context changed by `change`), its wizard, and the Target page open.
struct Opened
{
    explicit Opened(std::shared_ptr<PersistentEnvironment> environment = {},
                    const Workstation::ContextChange &change = {})
        : machine(0, change)
    {
        if (environment)
            machine.session.setPersistentEnvironment(environment);
        wizard = std::make_unique<SetupWizard>(&machine.session);
        wizard->resize(820, 700);
        page = wizardpagetests::openPage<TargetPage>(*wizard, SetupWizard::Page_Target);
    }

    template <typename Widget>
    Widget *child(const QString &name) const
    {
        auto widget = page->findChild<Widget *>(name);
        if (!widget)
            qWarning("no %s", qPrintable(name));
        return widget;
    }
    QRadioButton *choice(const QString &name) const { return child<QRadioButton>(name); }

    Workstation machine;
    std::unique_ptr<SetupWizard> wizard;
    TargetPage *page = nullptr;
};

QStringList items(const QTreeWidget *list)
{
    QStringList texts;
    for (int i = 0; list && i < list->topLevelItemCount(); ++i)
        texts.append(list->topLevelItem(i)->text(0));
    return texts;
}

// Lets the layouts the last changes asked for happen, so that a screenshot shows them.
void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestTargetPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { Translations::install(QStringLiteral("en")); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // Every place this machine offers, each explained; the toolkit of the archive's CUDA major
    // chosen first, as core proposes; PATH and the variables left alone on a system whose
    // environment this setup cannot write.
    void offersThePlacesAndProposesTheToolkit()
    {
        Opened opened;
        TargetPage *page = opened.page;
        QVERIFY(page);
        QCOMPARE(page->title(), QStringLiteral("Where cuDNN goes"));
        // The PATH heading has its visible (i).
        auto pathInfo = page->findChild<QWidget *>(QStringLiteral("info-path"));
        QVERIFY(pathInfo && pathInfo->isVisible());
        QCOMPARE(pathInfo->toolTip(), InfoIcon::explanation(Term::Path));

        // One choice is recommended, with why in one line; the toolkit says it is the tutorials' way.
        QRadioButton *toolkit = opened.choice(QStringLiteral("target-cuda-0"));
        QVERIFY(toolkit && toolkit->isChecked());
        QCOMPARE(toolkit->text(),
                 QStringLiteral("Into the CUDA 12.9 toolkit (what the common tutorials do) — recommended"));
        // Long folders break between folders (a zero-width space after each separator), never after "C:".
        const QString toolkitDetails =
            labelText(page, QStringLiteral("target-cuda-0-details")).remove(QChar(0x200B));
        QVERIFY2(toolkitDetails.startsWith(QStringLiteral(
                     "<b>Why: CUDA programs and build tools already look for cuDNN there.</b><br>")),
                 qPrintable(toolkitDetails));
        // The reason is given once: the description under it says what the choice is for, not again
        // where programs look.
        QVERIFY2(toolkitDetails.count(QStringLiteral("look")) == 1, qPrintable(toolkitDetails));
        QVERIFY2(
            toolkitDetails.contains(QStringLiteral("CUDA\\v12.9<br>For building programs with this toolkit")),
            qPrintable(toolkitDetails));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("target-cuda-0-details"))
                    ->text()
                    .contains(QStringLiteral("C:\\\u200B")));
        // Secondary text, yet readable: at least 4.5:1 against the page.
        const auto details = page->findChild<QLabel *>(QStringLiteral("target-cuda-0-details"));
        const double contrast = contrastRatio(details->palette().color(QPalette::WindowText),
                                              details->palette().color(QPalette::Window));
        QVERIFY2(contrast >= 4.5, qPrintable(QString::number(contrast)));
        QVERIFY(details->palette().color(QPalette::WindowText) !=
                page->palette().color(QPalette::WindowText));
        // The PATH preview and the CUDNN_* variables are folded under Advanced.
        const auto advanced = opened.child<QToolButton>(QStringLiteral("advancedToggle"));
        QVERIFY(advanced->isVisible() && !advanced->isChecked());
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("advancedSection"))->isVisible());
        QVERIFY(!opened.child<QCheckBox>(QStringLiteral("cudnnVariablesCheck"))->isVisible());
        QVERIFY2(toolkitDetails.endsWith(QStringLiteral("Needs administrator rights.")),
                 qPrintable(toolkitDetails));
        QCOMPARE(opened.choice(QStringLiteral("target-dir"))->text(),
                 QStringLiteral("Into a folder of its own"));
        QCOMPARE(opened.child<QLineEdit>(QStringLiteral("folderEdit"))->text(), kOwnFolder);
        QVERIFY(!opened.child<QLineEdit>(QStringLiteral("folderEdit"))->isEnabled());
        QCOMPARE(opened.choice(QStringLiteral("target-user"))->text(),
                 QStringLiteral("Into a folder for you only"));
        // A choice not made shows its folder; what it is for is in its tooltip (a small screen
        // shows every choice at once).
        QCOMPARE(labelText(page, QStringLiteral("target-user-details")),
                 QStringLiteral("C:\\Users\\lab\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.19"));
        const QString userPurpose = opened.choice(QStringLiteral("target-user"))->toolTip();
        QVERIFY2(userPurpose.endsWith(QStringLiteral("No administrator rights needed.")),
                 qPrintable(userPurpose));
        QCOMPARE(opened.choice(QStringLiteral("target-conda-0"))->text(),
                 QStringLiteral("Into the conda environment torch"));
        QCOMPARE(opened.choice(QStringLiteral("target-venv-0"))->text(),
                 QStringLiteral("Into the Python virtual environment dl"));
        QVERIFY(opened.choice(QStringLiteral("target-venv-0"))
                    ->toolTip()
                    .contains(QStringLiteral("a .pth file tells Python where cuDNN is")));

        QVERIFY(opened.machine.session.hasTarget());
        const InstallTarget &target = opened.machine.session.target();
        QCOMPARE(int(target.kind), int(InstallTarget::Kind::CudaToolkit));
        QCOMPARE(target.root, QLatin1String(Workstation::kToolkit));
        QCOMPARE(int(target.pathScope), int(PathScope::None));
        QTRY_VERIFY(!page->isChecking());
        QVERIFY2(page->findings().isEmpty() || !hasErrors(page->findings()),
                 qPrintable(findingIds(page->findings()).join(u',')));
        QTRY_VERIFY(page->isComplete());
        QVERIFY(opened.wizard->button(QWizard::NextButton)->isEnabled());

        const QString space = labelText(page, QStringLiteral("spaceLabel"));
        QVERIFY2(space.startsWith(QStringLiteral("Space: ")) &&
                     space.contains(QStringLiteral(" free on that drive, ")) &&
                     space.endsWith(QStringLiteral(" needed.")),
                 qPrintable(space));

        // A rooted system's environment is not this machine's: no PATH, no variables.
        QVERIFY(!opened.child<QRadioButton>(QStringLiteral("pathUser"))->isVisible());
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("pathPreview"))->isVisible());
        QVERIFY2(
            labelText(page, QStringLiteral("pathNote")).startsWith(QStringLiteral("This setup changes PATH")),
            qPrintable(labelText(page, QStringLiteral("pathNote"))));
        QVERIFY(!opened.child<QCheckBox>(QStringLiteral("cudnnVariablesCheck"))->isEnabled());

        // The own folder is offered without the system PATH here.
        opened.choice(QStringLiteral("target-dir"))->click();
        QCOMPARE(int(opened.machine.session.target().kind), int(InstallTarget::Kind::Folder));
        QCOMPARE(opened.machine.session.target().root, kOwnFolder);
        QCOMPARE(int(opened.machine.session.target().pathScope), int(PathScope::None));
        QVERIFY(opened.child<QLineEdit>(QStringLiteral("folderEdit"))->isEnabled());
        QTRY_VERIFY(page->isComplete());
    }

    // The free space shown is the session's answer: what the context's volumes say, read by the
    // target check off the GUI thread, for the target chosen now.
    void showsTheFreeSpaceTheSessionRead()
    {
        constexpr qint64 kFree = 987654321098;
        const auto volumes = std::make_shared<ToldVolumes>();
        volumes->free = kFree;
        Opened opened({}, [volumes](const SystemContext &context) { return context.withVolumes(volumes); });
        TargetPage *page = opened.page;
        QVERIFY(page);
        QTRY_VERIFY(!page->isChecking());
        const qint64 needed = opened.machine.session.targetConfig()->requiredBytes();
        QCOMPARE(labelText(page, QStringLiteral("spaceLabel")),
                 QStringLiteral("Space: %1 free on that drive, %2 needed.")
                     .arg(shownSize(kFree), shownSize(needed)));
        QVERIFY(volumes->asked > 0);

        // Unknown for the next target chosen: the page says so once its check has read it.
        volumes->free = -1;
        opened.choice(QStringLiteral("target-user"))->click();
        QTRY_VERIFY(!page->isChecking());
        QCOMPARE(labelText(page, QStringLiteral("spaceLabel")),
                 QStringLiteral("Space: %1 needed; the free space on that drive could not be read.")
                     .arg(shownSize(opened.machine.session.targetConfig()->requiredBytes())));
        QCOMPARE(volumes->askedOnGuiThread.load(), 0);
    }

    // Each kind becomes its target in the session, and says how programs find it.
    void eachChoiceBecomesTheTarget()
    {
        Opened opened;
        TargetPage *page = opened.page;
        QVERIFY(page);
        QSignalSpy targetChanged(&opened.machine.session, &SetupSession::targetChanged);

        opened.choice(QStringLiteral("target-conda-0"))->click();
        QCOMPARE(int(opened.machine.session.target().kind), int(InstallTarget::Kind::Conda));
        QCOMPARE(opened.machine.session.target().dllFolder(),
                 QLatin1String(Workstation::kConda) + QStringLiteral("\\Library\\bin"));
        QTRY_VERIFY(page->isComplete());

        opened.choice(QStringLiteral("target-venv-0"))->click();
        QCOMPARE(int(opened.machine.session.target().kind), int(InstallTarget::Kind::Venv));
        QCOMPARE(opened.machine.session.target().dllFolder(),
                 QLatin1String(Workstation::kVenv) +
                     QStringLiteral("\\Lib\\site-packages\\cudnn_setup.libs\\bin"));
        QTRY_VERIFY(page->isComplete());

        opened.choice(QStringLiteral("target-user"))->click();
        QCOMPARE(int(opened.machine.session.target().kind), int(InstallTarget::Kind::UserFolder));
        QCOMPARE(opened.machine.session.target().dllFolder(), kOurs);
        QTRY_VERIFY(page->isComplete());
        QVERIFY(targetChanged.count() >= 3);
    }

    // A folder typed in is checked once the typing pauses: a relative one and one that holds other
    // files are errors that keep the user here; an empty new one is fine.
    void typedFolderIsChecked()
    {
        Opened opened;
        TargetPage *page = opened.page;
        QVERIFY(page);
        opened.choice(QStringLiteral("target-dir"))->click();
        auto folder = opened.child<QLineEdit>(QStringLiteral("folderEdit"));
        QSignalSpy completeChanged(page, &QWizardPage::completeChanged);

        folder->selectAll();
        QTest::keyClicks(folder, QStringLiteral("cudnn"));
        QVERIFY(!page->isComplete()); // waiting for the typing to end
        QTRY_VERIFY(findingIds(page->findings()).contains(QStringLiteral("target.relative")));
        QVERIFY(!page->isComplete());
        QVERIFY(!opened.wizard->button(QWizard::NextButton)->isEnabled());
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("target.relative")));
        QVERIFY(completeChanged.count() >= 2);

        // The CUDA toolkit's folder holds CUDA's own files.
        folder->setText(QLatin1String(Workstation::kToolkit));
        page->refreshNow();
        // The folder's write test runs off the GUI thread: the page waits for it, then says.
        QVERIFY(page->isChecking());
        QVERIFY(!page->isComplete());
        QTRY_VERIFY(!page->isChecking());
        QVERIFY2(findingIds(page->findings()).contains(QStringLiteral("target.not-empty")),
                 qPrintable(findingIds(page->findings()).join(u',')));
        QVERIFY(!page->isComplete());

        folder->setText(QStringLiteral("C:\\Tools\\cuDNN 9"));
        page->refreshNow();
        QTRY_VERIFY(!page->isChecking()); // its write test runs off the GUI thread
        QVERIFY2(!hasErrors(page->findings()), qPrintable(findingIds(page->findings()).join(u',')));
        QTRY_VERIFY(page->isComplete());
        QCOMPARE(opened.machine.session.target().root, QStringLiteral("C:\\Tools\\cuDNN 9"));
        QCOMPARE(opened.machine.session.target().dllFolder(), QStringLiteral("C:\\Tools\\cuDNN 9\\bin\\x64"));
    }

    // With an environment it can write: the PATH choice, the entries before and after with ours
    // first and marked, an old cuDNN's folder offered for removal but not ticked, the system PATH's
    // stale CUDA shown; a ticked fix kept in the session and drawn in the preview.
    void previewsThePathChangeAndOffersFixes()
    {
        auto environment = std::make_shared<MemoryEnvironment>();
        const QString oldCudnn = QLatin1String(Workstation::kOldCudnn);
        const QString oldCuda =
            QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin");
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"),
                         {oldCudnn + QStringLiteral(";%USERPROFILE%\\bin"), true});
        environment->set(EnvironmentScope::System, QStringLiteral("PATH"),
                         {QStringLiteral("C:\\Windows\\system32;") + oldCuda, true});
        Opened opened(environment);
        TargetPage *page = opened.page;
        QVERIFY(page);
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("pathPreview"))->isVisible());
        QCOMPARE(
            labelText(page, QStringLiteral("pathNote")),
            QStringLiteral("PATH stays as it is: CUDA's installer put this toolkit's DLL folder on it."));

        opened.choice(QStringLiteral("target-user"))->click();
        // Folded, Advanced says that PATH has something to look at; opened, it shows it.
        const auto advanced = opened.child<QToolButton>(QStringLiteral("advancedToggle"));
        QVERIFY2(advanced->text().contains(QStringLiteral("to look at")), qPrintable(advanced->text()));
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("pathPreview"))->isVisible());
        advanced->click();
        QVERIFY(opened.child<QRadioButton>(QStringLiteral("pathUser"))->isChecked());
        QVERIFY(opened.child<QRadioButton>(QStringLiteral("pathNone"))->isVisible());
        QVERIFY(!opened.child<QRadioButton>(QStringLiteral("pathSystem"))->isVisible());
        QCOMPARE(int(opened.machine.session.target().pathScope), int(PathScope::User));
        QVERIFY(page->findChild<QWidget *>(QStringLiteral("pathPreview"))->isVisible());
        auto before = opened.child<QTreeWidget>(QStringLiteral("pathBefore"));
        auto after = opened.child<QTreeWidget>(QStringLiteral("pathAfter"));
        QCOMPARE(items(before), (QStringList{oldCudnn, QStringLiteral("%USERPROFILE%\\bin")}));
        QCOMPARE(items(after), (QStringList{kOurs, oldCudnn, QStringLiteral("%USERPROFILE%\\bin")}));
        QVERIFY(after->topLevelItem(0)->font(0).bold());
        QVERIFY(after->topLevelItem(0)->data(0, Qt::UserRole).toBool());
        QVERIFY(!after->topLevelItem(1)->font(0).bold());
        QCOMPARE(
            labelText(page, QStringLiteral("pathNote")),
            QStringLiteral("%1 is added at the front of your own PATH, so programs started from now on load "
                           "this cuDNN.")
                .arg(kOurs));

        // Offered, not forced.
        const QString stale = labelText(page, QStringLiteral("path.stale-cudnn"));
        QVERIFY2(stale.startsWith(oldCudnn + QStringLiteral(" holds another cuDNN; it comes after")),
                 qPrintable(stale));
        auto remove = opened.child<QCheckBox>(QStringLiteral("pathFix-remove-0"));
        QVERIFY(remove);
        QCOMPARE(remove->text(), QStringLiteral("Remove it from PATH"));
        QVERIFY(!remove->isChecked());
        QVERIFY(opened.machine.session.pathFixes().isEmpty());
        // The system PATH's old CUDA comes before the user's PATH: shown, not offered.
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("systemPathTitle")));
        const QString systemCuda = labelText(page, QStringLiteral("system-path.shadowing-cuda"));
        QVERIFY2(systemCuda.startsWith(oldCuda + QStringLiteral(" is the bin folder of CUDA 11.8")),
                 qPrintable(systemCuda));
        QVERIFY(!page->findChild<QCheckBox *>(QStringLiteral("pathFix-move-1")));
        QTRY_VERIFY(page->isComplete());

        remove->click();
        QCOMPARE(opened.machine.session.pathFixes(),
                 (QList<PathFix>{{PathFix::Action::Remove, 0, oldCudnn}}));
        QCOMPARE(items(after), (QStringList{kOurs, QStringLiteral("%USERPROFILE%\\bin")}));
        QVERIFY(before->topLevelItem(0)->font(0).strikeOut());

        auto variables = opened.child<QCheckBox>(QStringLiteral("cudnnVariablesCheck"));
        QVERIFY(variables->isEnabled());
        QVERIFY(!variables->isChecked());
        QVERIFY(!opened.machine.session.cudnnVariables());
        variables->click();
        QCOMPARE(opened.machine.session.cudnnVariables(), std::optional(EnvironmentScope::User));
        QCOMPARE(
            labelText(page, QStringLiteral("variablesNote")),
            QStringLiteral("For building OpenCV, ONNX Runtime or TensorFlow from source; set for you only."));
        // The choices made stay when the page is redrawn in another language.
        QTRY_VERIFY(page->isComplete());
        // Tall enough to show the whole page, which scrolls in the wizard's usual size.
        opened.wizard->resize(820, 1120);
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("target-en.png"));
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(opened.wizard->button(QWizard::NextButton)->text() != QLatin1String("&Next >"));
        QVERIFY(opened.child<QCheckBox>(QStringLiteral("pathFix-remove-0"))->isChecked());
        QCOMPARE(items(opened.child<QTreeWidget>(QStringLiteral("pathAfter"))),
                 (QStringList{kOurs, QStringLiteral("%USERPROFILE%\\bin")}));
        QVERIFY(opened.machine.session.cudnnVariables().has_value());
        QTRY_VERIFY(page->isComplete());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("target-zh_CN.png"));
        Translations::install(QStringLiteral("en"));

        // Its own folder goes on the system PATH; the chosen fixes were for another PATH.
        opened.choice(QStringLiteral("target-dir"))->click();
        QVERIFY(opened.child<QRadioButton>(QStringLiteral("pathSystem"))->isChecked());
        QCOMPARE(int(opened.machine.session.target().pathScope), int(PathScope::System));
        QVERIFY(opened.machine.session.pathFixes().isEmpty());
        QCOMPARE(opened.machine.session.cudnnVariables(), std::optional(EnvironmentScope::System));
        QCOMPARE(items(opened.child<QTreeWidget>(QStringLiteral("pathAfter"))),
                 (QStringList{kOwnFolder + QStringLiteral("\\bin\\x64"),
                              QStringLiteral("C:\\Windows\\system32"), oldCuda}));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("path.stale-cuda")));
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("systemPathTitle")));
        QVERIFY(!opened.child<QCheckBox>(QStringLiteral("pathFix-remove-1"))->isChecked());

        opened.child<QRadioButton>(QStringLiteral("pathNone"))->click();
        QCOMPARE(int(opened.machine.session.target().pathScope), int(PathScope::None));
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("pathPreview"))->isVisible());
        QCOMPARE(labelText(page, QStringLiteral("pathNote")),
                 QStringLiteral(
                     "Without a PATH entry, only programs you point at the folder yourself find cuDNN."));
        // Nothing was written: the page only reads.
        QCOMPARE(environment->writeCount(), 0);
    }

    // A new archive takes the target back; entering the page again proposes it afresh.
    void newArchiveTakesTheTargetBack()
    {
        Opened opened;
        QVERIFY(opened.page);
        opened.choice(QStringLiteral("target-user"))->click();
        QVERIFY(opened.machine.session.hasTarget());
        const ArchiveReport report = opened.machine.session.archive();
        opened.machine.session.setArchive(report);
        QVERIFY(!opened.machine.session.hasTarget());
        opened.wizard->back();
        opened.wizard->next();
        QCOMPARE(opened.wizard->currentId(), int(SetupWizard::Page_Target));
        QVERIFY(opened.choice(QStringLiteral("target-cuda-0"))->isChecked());
        QCOMPARE(int(opened.machine.session.target().kind), int(InstallTarget::Kind::CudaToolkit));
    }

    // An archive whose checksum NVIDIA never published (a copy someone changed, under a name of its
    // own): before Install is pressed, the page says that what every program loads (the toolkit,
    // the system PATH) takes NVIDIA's archive only, and keeps Next off; a folder for this user alone
    // takes it.
    void anArchiveNotNvidiasStaysOffMachineWideTargets()
    {
        Opened opened;
        QVERIFY(opened.page);
        const QString version = QLatin1String(Workstation::kVersion);
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(version, QStringLiteral("12")), version);
        ZipWriter::Entry note;
        note.name = archives::windowsRoot(version, QStringLiteral("12")).toUtf8() + "/NOTES.txt";
        note.data = "copied from a friend";
        entries.append(note);
        const QString changed =
            opened.machine.archiveFolder.filePath(QStringLiteral("cudnn-from-a-friend.zip"));
        QVERIFY(ZipWriter(entries).save(changed));
        InspectOptions options;
        options.verifyData = false;
        const auto report =
            inspectArchive(changed, opened.machine.session.database().database.publishedArchives(), options);
        QVERIFY(report && report->verdict == ArchiveReport::Verdict::Ok);
        QCOMPARE(report->official, ArchiveReport::Official::Unknown);
        QVERIFY(!report->sha256.isEmpty());
        opened.machine.session.setArchive(*report);
        QCOMPARE(opened.machine.session.archive().official, ArchiveReport::Official::Unknown);
        QVERIFY(!opened.machine.session.archive().sha256.isEmpty());
        opened.wizard->back();
        opened.wizard->next();
        QCOMPARE(opened.wizard->currentId(), int(SetupWizard::Page_Target));

        opened.choice(QStringLiteral("target-cuda-0"))->click();
        QTRY_VERIFY(!opened.page->isChecking());
        QTRY_VERIFY2(
            findingIds(opened.page->findings()).contains(QStringLiteral("install.archive-not-nvidias")),
            qPrintable(findingIds(opened.page->findings()).join(u',')));
        QVERIFY(!opened.page->isComplete());
        QVERIFY(!opened.wizard->button(QWizard::NextButton)->isEnabled());
        settle();
        saveScreenshot(opened.wizard.get(), QStringLiteral("target-archive-not-nvidias-en.png"));

        opened.choice(QStringLiteral("target-user"))->click();
        QTRY_VERIFY2(
            !findingIds(opened.page->findings()).contains(QStringLiteral("install.archive-not-nvidias")),
            qPrintable(findingIds(opened.page->findings()).join(u',')));
        QTRY_VERIFY(opened.page->isComplete());
    }
};

CUDNNSETUP_TEST_MAIN(TestTargetPage)
#include "tst_targetpage.moc"
