// The wizard drawn by Windows (the "windows" platform plugin, under Wine and Xvfb): its first page
// in English and in Chinese, and the What fits page of a Windows workstation, saved as screenshots
// by the test run.
#include "MatchPage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "common/Translations.h"
#include "session/SetupSession.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QTest>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;

class TestWinScreenshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstPageInBothLanguages()
    {
        if (QGuiApplication::platformName() != QLatin1String("windows"))
            QSKIP("needs the windows platform plugin and a display (xvfb-run under Wine)");
        Translations::install(QStringLiteral("en"));
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        SetupSession session(SystemContext::rooted(sandbox.root()));
        SetupWizard wizard(&session);
        wizard.resize(820, 620);
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        const QString dir = QDir::currentPath() + QStringLiteral("/screenshots");
        QDir().mkpath(dir);
        const QImage english = wizard.grab().toImage();
        QVERIFY(english.save(dir + QStringLiteral("/windows-welcome-en.png")));

        auto language = wizard.findChild<QComboBox *>(QStringLiteral("languageCombo"));
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QTRY_VERIFY(wizard.currentPage()->title().contains(QStringLiteral("欢迎")));
        // A font Windows ships comes first; some family on this system must draw Chinese.
        QCOMPARE(QApplication::font().families().value(0), QStringLiteral("Microsoft YaHei UI"));
        QVERIFY(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty());
        QTest::qWait(200);
        const QImage chinese = wizard.grab().toImage();
        QVERIFY(chinese.save(dir + QStringLiteral("/windows-welcome-zh_CN.png")));
        QVERIFY(chinese != english);
        Translations::install(QStringLiteral("en"));
    }

    // Detection of the sandbox workstation (its nvidia-smi.exe really runs), then the verdict.
    void matchPageOfAWindowsWorkstation()
    {
        if (QGuiApplication::platformName() != QLatin1String("windows"))
            QSKIP("needs the windows platform plugin and a display (xvfb-run under Wine)");
        Translations::install(QStringLiteral("en"));
        Sandbox sandbox;
        trees::windowsWorkstation(sandbox);
        SetupSession session(SystemContext::rooted(sandbox.root()));
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.currentPage()->isComplete(), 60000);
        wizard.next();
        auto page = qobject_cast<MatchPage *>(wizard.currentPage());
        QVERIFY(page);
        QCOMPARE(page->findChild<QLabel *>(QStringLiteral("driverCudaValue"))->text(),
                 QStringLiteral("13.1"));
        QCOMPARE(page->findChild<QLabel *>(QStringLiteral("archiveCudaValue"))->text(), QStringLiteral("13"));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("recommendationLabel"))
                    ->text()
                    .contains(QStringLiteral("cudnn-windows-x86_64-")));
        // CUDA 13 has no published Windows driver minimum: said, not hidden.
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("match.driver-minimum-unknown"))->isVisible());
        QVERIFY(page->isComplete());
        QTest::qWait(200);
        const QString dir = QDir::currentPath() + QStringLiteral("/screenshots");
        QVERIFY(wizard.grab().toImage().save(dir + QStringLiteral("/windows-match-en.png")));
    }
};

CUDNNSETUP_TEST_MAIN(TestWinScreenshot)
#include "tst_win_screenshot.moc"
