#include "Artwork.h"
#include "FactsTree.h"
#include "HardwarePage.h"
#include "InfoIcon.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "session/SetupSession.h"

#include <QAbstractItemDelegate>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPainter>
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
                QStringLiteral("This computer is ready for a cuDNN install."),
                QStringLiteral("NVIDIA GeForce RTX 3080")};
    }
    h200Machine(sandbox);
    return {{QStringLiteral("NVIDIA H200 — compute capability 9.0"),
             QStringLiteral("580.159.04, supports CUDA up to 13.0"),
             QStringLiteral("13.0.2 in /usr/local/cuda-13.0"),
             QStringLiteral("9.19.0 in /usr/local/cuda-13.0/targets/x86_64-linux/lib (loaded by default)"),
             QStringLiteral("9.14.0 in /usr/lib/x86_64-linux-gnu (hidden by another copy)")},
            QStringLiteral("This computer is ready for a cuDNN install; 1 thing below is worth checking."),
            QStringLiteral("NVIDIA H200")};
}

// The rows of the system table whose status is `status`, children included.
int rowsOf(const QTreeWidget *tree, Status status)
{
    int rows = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        rows += item->data(0, HardwarePage::kStatusRole).toInt() == int(status);
        for (int c = 0; c < item->childCount(); ++c)
            rows += item->child(c)->data(0, HardwarePage::kStatusRole).toInt() == int(status);
    }
    return rows;
}

// The red rows of the findings below the table.
int errorFindings(const SystemSnapshot &snapshot, const QStringList &ids)
{
    return int(std::count_if(snapshot.findings.cbegin(), snapshot.findings.cend(), [&](const Finding &f) {
        return f.severity == Severity::Error && ids.contains(f.id);
    }));
}

SystemSnapshot windowsLaptop()
{
    SystemSnapshot snapshot;
    snapshot.os.family = QStringLiteral("windows");
    snapshot.os.name = QStringLiteral("Windows 11 Home");
    snapshot.os.arch = QStringLiteral("x64");
    GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA GeForce RTX 3060 Laptop GPU");
    gpu.computeCapability = QStringLiteral("8.6");
    snapshot.gpus.append(gpu);
    DriverInfo driver;
    driver.version = QStringLiteral("581.57");
    driver.maxCuda = QStringLiteral("13.0");
    snapshot.driver = driver;
    return snapshot;
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
        // The jargon of a row is explained in its tooltip, behind a visible (i).
        const QTreeWidgetItem *gpu = tree->topLevelItem(1);
        QVERIFY2(gpu->toolTip(1).contains(QStringLiteral("Compute capability is how CUDA numbers")),
                 qPrintable(gpu->text(0) + QLatin1Char(' ') + gpu->toolTip(1)));
        QVERIFY(!gpu->icon(1).isNull());
        QCOMPARE(gpu->whatsThis(1), InfoIcon::explanation(Term::ComputeCapability));
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

    // Issue 35: a facts list is reached with Tab, but its current cell gets no focus box: nothing
    // in it can be selected, so the box pointed at nothing.
    void factsTreeDrawsNoFocusBox()
    {
        QWidget window;
        QTreeWidget *tree = newFactsTree(QStringLiteral("facts"), &window);
        QCOMPARE(tree->focusPolicy(), Qt::TabFocus);
        auto item = new QTreeWidgetItem(tree, {QStringLiteral("System"), QStringLiteral("Linux")});
        tree->setCurrentItem(item);
        const QModelIndex cell = tree->model()->index(0, 0);
        const auto draw = [&](QStyle::State state) {
            QStyleOptionViewItem option;
            option.initFrom(tree);
            option.rect = QRect(0, 0, 120, 24);
            option.state = state;
            QImage image(option.rect.size(), QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            tree->itemDelegate()->paint(&painter, option, cell);
            return image;
        };
        const QStyle::State shown = QStyle::State_Enabled | QStyle::State_Active;
        QCOMPARE(draw(shown | QStyle::State_HasFocus), draw(shown));
    }

    void headlineNeverContradictsTheRows_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    // The headline counts the red rows (no GPU and no driver: two, not one); speaks of an install,
    // never of a cuDNN that works; a copy nothing uses has a note's mark, not a tick. In both
    // languages.
    void headlineNeverContradictsTheRows()
    {
        QFETCH(QString, language);
        Translations::install(language);
        const char *context = "cudnnsetup::wizard::HardwarePage";
        Sandbox sandbox;
        SetupSession session(SystemContext::rooted(sandbox.root()));
        SetupWizard wizard(&session);
        wizard.show();
        auto page = qobject_cast<HardwarePage *>(wizard.page(SetupWizard::Page_Hardware));
        const auto tree = page->findChild<QTreeWidget *>(QStringLiteral("systemTree"));
        const auto summary = page->findChild<QLabel *>(QStringLiteral("summaryLabel"));

        // No GPU, no driver: two red rows, and their findings are the same two problems.
        SystemSnapshot bare = windowsLaptop();
        bare.gpus.clear();
        bare.driver.reset();
        bare.findings = {
            Finding::error(QStringLiteral("gpu.none"), Text::verbatim(QStringLiteral("no GPU"))),
            Finding::error(QStringLiteral("driver.missing"), Text::verbatim(QStringLiteral("no driver")))};
        session.setSnapshot(bare);
        wizard.next();
        QCOMPARE(wizard.currentPage(), page);
        QCOMPARE(rowsOf(tree, Status::Error), 2);
        const char *problems = "%n problem(s) must be solved before cuDNN can work on this computer.";
        QCOMPARE(summary->text(), QCoreApplication::translate(context, problems, nullptr, 2));

        // A red finding no row shows is one more problem.
        bare.findings.append(Finding::error(QStringLiteral("nvidia-smi.unparsable"),
                                            Text::verbatim(QStringLiteral("unreadable"))));
        session.setSnapshot(bare);
        page->initializePage();
        QCOMPARE(rowsOf(tree, Status::Error) + errorFindings(bare, {QStringLiteral("nvidia-smi.unparsable")}),
                 3);
        QCOMPARE(summary->text(), QCoreApplication::translate(context, problems, nullptr, 3));

        // Ready: a copy loaded by default has a tick, one nothing uses a note's (i); the headline says
        // the machine is ready for an install, not that cuDNN works.
        SystemSnapshot ready = windowsLaptop();
        CudnnCopy used;
        used.version = QStringLiteral("9.19.0");
        used.directory = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\12.9\\x64");
        used.loadOrder = 1;
        CudnnCopy unused;
        unused.version = QStringLiteral("8.9.7");
        unused.directory = QStringLiteral("C:\\cudnn-8.9\\bin");
        ready.cudnn = {unused, used};
        session.setSnapshot(ready);
        page->initializePage();
        QCOMPARE(rowsOf(tree, Status::Error), 0);
        const QList<QTreeWidgetItem *> unusedRows =
            tree->findItems(QStringLiteral("8.9.7"), Qt::MatchStartsWith | Qt::MatchRecursive, 1);
        QCOMPARE(unusedRows.size(), 1);
        QCOMPARE(unusedRows.first()->data(0, HardwarePage::kStatusRole).toInt(), int(Status::Info));
        const QList<QTreeWidgetItem *> usedRows =
            tree->findItems(QStringLiteral("9.19.0"), Qt::MatchStartsWith | Qt::MatchRecursive, 1);
        QCOMPARE(usedRows.size(), 1);
        QCOMPARE(usedRows.first()->data(0, HardwarePage::kStatusRole).toInt(), int(Status::Ok));
        QCOMPARE(summary->text(),
                 QCoreApplication::translate(context, "This computer is ready for a cuDNN install."));
        if (language == QLatin1String("zh_CN"))
            QCOMPARE(summary->text(), QStringLiteral("这台电脑满足安装 cuDNN 的条件。"));

        // A warning open: counted, and never the plain "ready".
        ready.findings = {
            Finding::warning(QStringLiteral("cudnn.shadowed"), Text::verbatim(QStringLiteral("hidden")))};
        session.setSnapshot(ready);
        page->initializePage();
        QCOMPARE(summary->text(),
                 QCoreApplication::translate(
                     context,
                     "This computer is ready for a cuDNN install; %n thing(s) below are worth checking.",
                     nullptr, 1));
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
