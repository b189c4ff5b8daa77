// The wizard drawn by Windows (the "windows" platform plugin, under Wine and Xvfb): its first page
// in English and in Chinese, saved as screenshots by the test run.
#include "Sandbox.h"
#include "SetupWizard.h"
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
};

QTEST_MAIN(TestWinScreenshot)
#include "tst_win_screenshot.moc"
