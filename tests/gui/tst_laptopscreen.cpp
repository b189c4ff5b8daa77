// A typical student laptop: 1366×768 at 125 % scaling, which leaves 1093×614 logical pixels, less
// the taskbar. Every page of the default install path, Verify and Finish included, fits the wizard
// opened that large without a scroll bar, in both languages.
#include "Suite.h"
#include "VerifyPage.h"
#include "WizardFlow.h"

#include <QApplication>
#include <QScrollBar>
#include <QTest>

using namespace wizardpagetests;
using namespace cudnnsetup::wizard;

namespace {

// The screen in logical pixels, less Windows' taskbar (48 px at 125 %, 40 logical) and the
// window's title bar (about 31 logical pixels).
constexpr int kWidth = 1093;
constexpr int kHeight = 614 - 40 - 31;

// The scroll bars that are shown with something to scroll: the page does not fit.
QStringList scrolling(QWidget *window)
{
    QStringList found;
    for (const QScrollBar *bar : window->findChildren<QScrollBar *>()) {
        if (bar->isVisible() && bar->maximum() > 0)
            found.append(bar->parentWidget() && bar->parentWidget()->parentWidget()
                             ? bar->parentWidget()->parentWidget()->objectName()
                             : bar->objectName());
    }
    return found;
}

} // namespace

class TestLaptopScreen : public QObject
{
    Q_OBJECT

public:
    static void initMain() { qputenv("QT_SCALE_FACTOR", "1.25"); }

private Q_SLOTS:
    void initTestCase() { QCOMPARE(qApp->devicePixelRatio(), 1.25); }
    void cleanup() { cudnnsetup::Translations::install(QStringLiteral("en")); }

    void defaultInstallPathFits_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void defaultInstallPathFits()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        flow.wizard->resize(kWidth, kHeight);
        QStringList problems;
        const auto look = [&] {
            settle();
            const QStringList bars = scrolling(flow.wizard.get());
            if (!bars.isEmpty())
                problems << QStringLiteral("page %1 scrolls: %2")
                                .arg(flow.wizard->currentId())
                                .arg(bars.join(QLatin1Char(',')));
            flow.shoot(QStringLiteral("laptop-%1").arg(flow.wizard->currentId()));
        };
        QVERIFY(installThroughWizard(flow, look));
        QVERIFY(flow.next());
        auto verify = flow.page<VerifyPage>();
        QVERIFY(verify);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isVerifying(), kWorkTimeoutMs);
        look();
        QVERIFY(flow.next());
        if (flow.wizard->currentId() == SetupWizard::Page_Repair)
            QVERIFY(flow.next()); // the sandbox's stand-in DLLs fail a check: the doctor is on the way
        look();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

CUDNNSETUP_TEST_MAIN(TestLaptopScreen)
#include "tst_laptopscreen.moc"
