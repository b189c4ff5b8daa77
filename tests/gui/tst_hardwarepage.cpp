#include "HardwarePage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "session/SetupSession.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using namespace wizardpagetests;

namespace {

// What the page must show for the machine the sandbox holds.
struct ShownMachine
{
    QStringList lines;
    QString summary;
    QString gpuName;
};

void h200Machine(const Sandbox &sandbox)
{
    sandbox.write(QStringLiteral("/etc/os-release"), "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\n");
    trees::linuxToolkit(sandbox, QStringLiteral("13.0.2"), QStringLiteral("13.0.96"));
    trees::linuxCudnn(sandbox, QStringLiteral("/usr/local/cuda-13.0/targets/x86_64-linux/lib"),
                      QStringLiteral("/usr/local/cuda-13.0/include"), 9, 19, 0);
    trees::linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
                      QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 14, 0);
    sandbox.write(QStringLiteral("/etc/ld.so.conf"),
                  "/usr/local/cuda-13.0/targets/x86_64-linux/lib\n/usr/lib/x86_64-linux-gnu\n");
    trees::recordedNvidiaSmi(sandbox, QStringLiteral("/usr/bin/nvidia-smi"));
}

// A machine of the host's own family, so its nvidia-smi really runs: the H200 recording on Linux,
// the Windows workstation (nvidia-smi.exe in System32) under Wine.
ShownMachine hostMachine(const Sandbox &sandbox)
{
    if (hostOsFamily() == OsFamily::Windows) {
        trees::windowsWorkstation(sandbox);
        const QString cuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
        return {{QStringLiteral("NVIDIA GeForce RTX 3080 — compute capability 8.6, 10.0 GB memory"),
                 QStringLiteral("591.59, supports CUDA up to 13.1"),
                 QStringLiteral("13.0.2 in ") + cuda + QStringLiteral("v13.0"),
                 QStringLiteral("8.9.7 in ") + cuda +
                     QStringLiteral("v12.2\\bin (only for programs that look there themselves)")},
                QStringLiteral("This computer is ready for cuDNN."),
                QStringLiteral("NVIDIA GeForce RTX 3080")};
    }
    h200Machine(sandbox);
    return {{QStringLiteral("NVIDIA H200 — compute capability 9.0"),
             QStringLiteral("580.159.04, supports CUDA up to 13.0"),
             QStringLiteral("13.0.2 in /usr/local/cuda-13.0"),
             QStringLiteral("9.19.0 in /usr/local/cuda-13.0/targets/x86_64-linux/lib (loaded by default)"),
             QStringLiteral("9.14.0 in /usr/lib/x86_64-linux-gnu (hidden by another copy)")},
            QStringLiteral("This computer can run cuDNN; 1 thing below deserves a look."),
            QStringLiteral("NVIDIA H200")};
}

QString treeText(const QTreeWidget *tree)
{
    QStringList lines;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        lines.append(item->text(0) + QLatin1Char('|') + item->text(1));
        for (int c = 0; c < item->childCount(); ++c)
            lines.append(QLatin1Char('|') + item->child(c)->text(1));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestHardwarePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void detectsOffTheGuiThreadAndShowsTheSystem()
    {
        Translations::install(QStringLiteral("en"));
        Sandbox sandbox;
        const ShownMachine expected = hostMachine(sandbox);
        SetupSession session(SystemContext::rooted(sandbox.root()));
        SetupWizard wizard(&session);
        wizard.resize(820, 620);
        wizard.show();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Welcome));
        saveScreenshot(&wizard, QStringLiteral("welcome-en.png"));

        auto page = qobject_cast<HardwarePage *>(wizard.page(SetupWizard::Page_Hardware));
        QSignalSpy completeChanged(page, &QWizardPage::completeChanged);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Hardware));
        QVERIFY(page->isDetecting());
        QVERIFY(!page->isComplete()); // Finish waits for detection
        QTRY_VERIFY_WITH_TIMEOUT(page->isComplete(), 30000);
        QVERIFY(completeChanged.count() >= 2);
        QVERIFY(session.hasSnapshot());

        const auto tree = page->findChild<QTreeWidget *>(QStringLiteral("systemTree"));
        const QString shown = treeText(tree);
        for (const QString &line : expected.lines)
            QVERIFY2(shown.contains(line), qPrintable(line + QStringLiteral("\n---\n") + shown));
        const auto summary = page->findChild<QLabel *>(QStringLiteral("summaryLabel"));
        QCOMPARE(summary->text(), expected.summary);
        // The jargon of a row is explained in its tooltip.
        const QTreeWidgetItem *gpu = tree->topLevelItem(1);
        QVERIFY2(gpu->toolTip(1).contains(QStringLiteral("Compute capability is how CUDA numbers")),
                 qPrintable(gpu->text(0) + QLatin1Char(' ') + gpu->toolTip(1)));
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("findings"))->findChildren<QLabel *>().isEmpty());
        saveScreenshot(&wizard, QStringLiteral("hardware-en.png"));

        // The language switches live, the found facts re-worded without detecting again.
        wizard.back();
        auto language = wizard.findChild<QComboBox *>(QStringLiteral("languageCombo"));
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QCOMPARE(Translations::current(), QStringLiteral("zh_CN"));
        // Qt posts QEvent::LanguageChange to every widget; the pages re-word themselves on it.
        QTRY_VERIFY(wizard.page(SetupWizard::Page_Welcome)->title().contains(QStringLiteral("欢迎")));
        QCOMPARE(wizard.button(QWizard::NextButton)->text(),
                 QCoreApplication::translate("QWizard", "&Next >"));
        QVERIFY(wizard.button(QWizard::NextButton)->text() != QLatin1String("&Next >"));
        saveScreenshot(&wizard, QStringLiteral("welcome-zh_CN.png"));
        wizard.next();
        QVERIFY(page->isComplete());
        const QString chinese = treeText(tree);
        QVERIFY2(chinese.contains(QStringLiteral("显卡")), qPrintable(chinese));
        QVERIFY(chinese.contains(expected.gpuName));
        QVERIFY(wizard.button(QWizard::FinishButton)->text() != QLatin1String("&Finish"));
        saveScreenshot(&wizard, QStringLiteral("hardware-zh_CN.png"));
    }

    void detectAgainRunsAFreshDetection()
    {
        Sandbox sandbox;
        if (hostOsFamily() == OsFamily::Windows)
            trees::windowsSystem(sandbox); // the tree's family is fixed when the session starts
        SetupSession session(SystemContext::rooted(sandbox.root()));
        SetupWizard wizard(&session);
        wizard.show();
        wizard.next();
        auto page = qobject_cast<HardwarePage *>(wizard.currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(page->isComplete(), 30000);
        const auto summary = page->findChild<QLabel *>(QStringLiteral("summaryLabel"));
        QVERIFY2(summary->text().contains(QStringLiteral("must be solved")),
                 qPrintable(summary->text())); // no GPU here

        hostMachine(sandbox);
        QSignalSpy snapshots(&session, &SetupSession::snapshotChanged);
        page->findChild<QPushButton *>(QStringLiteral("detectAgainButton"))->click();
        QVERIFY(!page->isComplete());
        QTRY_VERIFY_WITH_TIMEOUT(page->isComplete(), 30000);
        QCOMPARE(session.snapshot().gpus.size(), 1);
        QVERIFY(snapshots.count() >= 2); // cleared, then found
    }
};

CUDNNSETUP_TEST_MAIN(TestHardwarePage)
#include "tst_hardwarepage.moc"
