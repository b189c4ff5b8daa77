// The Finish page as a student acts on it: one line per use of cuDNN. On a machine whose only
// user is PyTorch, "nothing to do" and no terminal to open; after an install that changed PATH,
// "open a new terminal" with PATH's (i), and the line their own Python code needs, to copy, under
// "For programmers"; in English and in Chinese.
#include "FinishPage.h"
#include "InfoIcon.h"
#include "InstallPage.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "TargetPage.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "platform/MemoryEnvironment.h"
#include "session/SetupSession.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>

#include <memory>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using namespace wizardpagetests;

namespace {

void addLanguages()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

QString core(const char *source)
{
    return QCoreApplication::translate("cudnnsetup", source);
}

const QLabel *stepLabel(const QWidget *page, const QString &id)
{
    return page->findChild<QLabel *>(QStringLiteral("nextStep-") + id);
}

} // namespace

class TestFinishPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void pytorchOnlyMachineHasNothingToDo_data() { addLanguages(); }
    // torch in a venv that runs on the GPU and finds its own cuDNN, nothing installed: PyTorch's
    // line says there is nothing to do; no terminal to open, no programmers' line.
    void pytorchOnlyMachineHasNothingToDo()
    {
        QFETCH(QString, language);
        Translations::install(language);
        SetupSession session(SystemContext::running());
        session.setSnapshot(recordedH200WithConsumers());
        FinishPage page(&session);
        page.resize(760, 520);
        page.initializePage(); // before it is shown, as QWizard does
        page.show();
        const QLabel *pytorch = stepLabel(&page, QStringLiteral("pytorch"));
        QVERIFY(pytorch && pytorch->isVisible());
        QCOMPARE(pytorch->text(), core("PyTorch: nothing to do. It brings its own cuDNN and does not use a "
                                       "system-wide one."));
        QVERIFY(!page.findChild<QLineEdit *>(QStringLiteral("nextStepCode-pytorch")));
        QVERIFY(!stepLabel(&page, QStringLiteral("new-terminal")));
        QVERIFY(!stepLabel(&page, QStringLiteral("python-code")));
        QVERIFY(!page.findChild<QLabel *>(QStringLiteral("programmersTitle"))->isVisible());
        QVERIFY(stepLabel(&page, QStringLiteral("keep-log"))->isVisible());
        saveScreenshot(&page, QStringLiteral("finish-pytorch-%1.png").arg(language));
    }

    void pathChangedInstallSaysNewTerminal_data() { addLanguages(); }
    // A real install into the per-user folder with the user's PATH: a new terminal (with PATH's
    // (i)), and for programmers the os.add_dll_directory line with its Copy button.
    void pathChangedInstallSaysNewTerminal()
    {
        QFETCH(QString, language);
        Translations::install(language);
        Workstation machine;
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {QStringLiteral("C:\\Tools"), true});
        machine.session.setPersistentEnvironment(environment);
        SetupWizard wizard(&machine.session);
        wizard.resize(820, 700);
        auto target = openPage<TargetPage>(wizard, SetupWizard::Page_Target);
        QVERIFY(target);
        target->findChild<QRadioButton *>(QStringLiteral("target-user"))->click();
        QVERIFY(waitUntilComplete(wizard));
        wizard.next();
        auto install = qobject_cast<InstallPage *>(wizard.currentPage());
        QVERIFY(install);
        wizard.button(QWizard::CommitButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!install->isInstalling(), 120000);
        QVERIFY(install->isInstalled());
        QVERIFY(machine.session.installOutcome().changedEnvironment());

        FinishPage page(&machine.session);
        page.resize(760, 560);
        page.initializePage(); // before it is shown, as QWizard does
        page.show();
        const QLabel *terminal = stepLabel(&page, QStringLiteral("new-terminal"));
        QVERIFY(terminal && terminal->isVisible());
        QCOMPARE(terminal->text(),
                 core("Open a new Command Prompt, PowerShell or terminal window, and restart "
                      "programs such as PyCharm or Jupyter: those already open keep the old "
                      "PATH."));
        auto info = page.findChild<InfoIcon *>(QStringLiteral("info-path"));
        QVERIFY(info && info->isVisible());
        QCOMPARE(info->toolTip(), InfoIcon::explanation(Term::Path));
        QVERIFY(!stepLabel(&page, QStringLiteral("pytorch"))); // no torch on this workstation

        QVERIFY(page.findChild<QLabel *>(QStringLiteral("programmersTitle"))->isVisible());
        QVERIFY(stepLabel(&page, QStringLiteral("python-code"))->isVisible());
        const QString dlls = machine.session.target().dllFolder();
        auto code = page.findChild<QLineEdit *>(QStringLiteral("nextStepCode-python-code"));
        QCOMPARE(code->text(), QStringLiteral("import os; os.add_dll_directory(r\"%1\")").arg(dlls));
        page.findChild<QPushButton *>(QStringLiteral("nextStepCopy-python-code"))->click();
        QCOMPARE(QApplication::clipboard()->text(), code->text());
        saveScreenshot(&page, QStringLiteral("finish-path-changed-%1.png").arg(language));
    }
};

CUDNNSETUP_TEST_MAIN(TestFinishPage)
#include "tst_finishpage.moc"
