// The Match page on the H200 machine recorded with the device, and on variants of it.
#include "Artwork.h"
#include "MatchPage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "WizardPageTests.h"
#include "common/Translations.h"
#include "session/SetupSession.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDir>
#include <QFrame>
#include <QJsonDocument>
#include <QLabel>
#include <QLayout>
#include <QTest>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using namespace wizardpagetests;

namespace {

QColor valueColour(const QWidget *page, const QString &tile)
{
    const auto value = page->findChild<QLabel *>(tile + QStringLiteral("Value"));
    return value ? value->palette().color(QPalette::WindowText) : QColor();
}

// Walks to the Match page the way a user does (the Hardware page keeps the given snapshot).
MatchPage *openMatchPage(SetupWizard &wizard)
{
    return openPage<MatchPage>(wizard, SetupWizard::Page_Match);
}

} // namespace

class TestMatchPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void showsTheFourNumbersAndTheDownload()
    {
        Translations::install(QStringLiteral("en"));
        SetupSession session(SystemContext::running());
        session.setSnapshot(recordedH200());
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        MatchPage *page = openMatchPage(wizard);
        QVERIFY(page);
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Match));

        QCOMPARE(labelText(page, QStringLiteral("driverCudaValue")), QStringLiteral("13.0"));
        QCOMPARE(labelText(page, QStringLiteral("toolkitCudaValue")), QStringLiteral("13.0"));
        QCOMPARE(labelText(page, QStringLiteral("frameworkCudaValue")), QStringLiteral("13.0"));
        QCOMPARE(labelText(page, QStringLiteral("archiveCudaValue")), QStringLiteral("13.x"));
        const QString recommendation = labelText(page, QStringLiteral("recommendationLabel"));
        QVERIFY2(
            recommendation.contains(QStringLiteral("cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz")) &&
                recommendation.contains(QStringLiteral("/usr/local/cuda-13.0")) &&
                !recommendation.contains(QStringLiteral("update the driver")),
            qPrintable(recommendation));
        // The newest release is on NVIDIA's download page, not (yet) among its older releases.
        QVERIFY2(recommendation.contains(QStringLiteral("from NVIDIA's cuDNN download page.")),
                 qPrintable(recommendation));
        QVERIFY(session.match().compatible());
        QVERIFY(page->isComplete());
        QVERIFY(!page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"))->isVisible());
        QVERIFY(
            labelText(page, QStringLiteral("databaseLabel")).contains(KnowledgeBase::embedded().version()));
        saveScreenshot(&wizard, QStringLiteral("match-en.png"));

        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(page->title() != QLatin1String("What fits"));
        QVERIFY(!labelText(page, QStringLiteral("recommendationLabel")).contains(QStringLiteral("Download")));
        QVERIFY(!labelText(page, QStringLiteral("recommendationLabel")).contains(QStringLiteral("历史版本")));
        QVERIFY(labelText(page, QStringLiteral("recommendationLabel"))
                    .contains(QStringLiteral("cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz")));
        saveScreenshot(&wizard, QStringLiteral("match-zh_CN.png"));
    }

    // Issue 35: each tile says in words and in colour whether its number fits, in both languages,
    // and keeps its frame whole on a 1366×700 screen.
    void tilesGiveAColourAndAVerdict()
    {
        Translations::install(QStringLiteral("en"));
        SystemSnapshot snapshot = recordedH200();
        SetupSession session(SystemContext::running());
        session.setSnapshot(snapshot);
        SetupWizard wizard(&session);
        wizard.resize(1366, 700);
        MatchPage *page = openMatchPage(wizard);
        QVERIFY(page);
        QCOMPARE(labelText(page, QStringLiteral("driverCudaVerdict")),
                 QStringLiteral("runs the archive's CUDA 13"));
        QCOMPARE(valueColour(page, QStringLiteral("driverCuda")), statusColour(Status::Ok));
        QCOMPARE(labelText(page, QStringLiteral("toolkitCudaVerdict")),
                 QStringLiteral("matches the archive"));
        QCOMPARE(valueColour(page, QStringLiteral("toolkitCuda")), statusColour(Status::Ok));
        for (const QString &tile : {QStringLiteral("driverCuda"), QStringLiteral("toolkitCuda"),
                                    QStringLiteral("frameworkCuda"), QStringLiteral("archiveCuda")}) {
            const auto frame = page->findChild<QFrame *>(tile);
            QVERIFY(frame);
            // A frame lower than its wrapped lines need is drawn cut.
            const int needed = frame->layout()->totalHeightForWidth(frame->width());
            QVERIFY2(frame->height() >= needed,
                     qPrintable(QStringLiteral("%1: %2 < %3").arg(tile).arg(frame->height()).arg(needed)));
        }
        saveScreenshot(&wizard, QStringLiteral("match-tiles-en.png"));
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(labelText(page, QStringLiteral("driverCudaVerdict")) !=
                    QLatin1String("runs the archive's CUDA 13"));
        saveScreenshot(&wizard, QStringLiteral("match-tiles-zh_CN.png"));
        Translations::install(QStringLiteral("en"));

        // R535 runs CUDA 12.2 at most: the 12.x archive is recommended, which the only toolkit
        // (CUDA 13) does not match.
        snapshot.driver->version = QStringLiteral("535.104.05");
        snapshot.driver->maxCuda = QStringLiteral("12.2");
        session.setSnapshot(snapshot);
        QCOMPARE(labelText(page, QStringLiteral("driverCudaVerdict")),
                 QStringLiteral("runs the archive's CUDA 12"));
        QCOMPARE(labelText(page, QStringLiteral("toolkitCudaVerdict")),
                 QStringLiteral("does not match the archive (CUDA 12)"));
        QCOMPARE(valueColour(page, QStringLiteral("toolkitCuda")), statusColour(Status::Error));

        // No driver at all: the driver tile is red.
        snapshot.driver.reset();
        session.setSnapshot(snapshot);
        QCOMPARE(labelText(page, QStringLiteral("driverCudaValue")), QStringLiteral("not installed"));
        QCOMPARE(labelText(page, QStringLiteral("driverCudaVerdict")),
                 QStringLiteral("no NVIDIA driver found"));
        QCOMPARE(valueColour(page, QStringLiteral("driverCuda")), statusColour(Status::Error));
    }

    // A blocking finding holds the user on the page until they explicitly go on, and that is logged.
    void blockingFindingNeedsAnExplicitOverride()
    {
        SystemSnapshot snapshot = recordedH200();
        snapshot.driver->version = QStringLiteral("535.104.05");
        snapshot.driver->maxCuda = QStringLiteral("12.2");
        snapshot.pythons.clear();
        SetupSession session(SystemContext::running());
        session.setSnapshot(snapshot);
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        MatchPage *page = openMatchPage(wizard);
        QVERIFY(page);
        // The only toolkit is CUDA 13, which R535 cannot run; the 12.x archive is the way forward,
        // and no finding blocks. Take the driver away to block.
        QVERIFY(session.match().finding(QStringLiteral("match.toolkit-needs-newer-driver")));
        QCOMPARE(labelText(page, QStringLiteral("archiveCudaValue")), QStringLiteral("12.x"));
        QVERIFY(page->isComplete());

        snapshot.driver.reset();
        session.setSnapshot(snapshot);
        QVERIFY(!session.match().compatible());
        QVERIFY(!page->isComplete());
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        auto override = page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"));
        QVERIFY(override->isVisible());
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("match.driver-missing")));
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("match.driver-missing"))->isVisible());
        saveScreenshot(&wizard, QStringLiteral("match-blocked-en.png"));

        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("go on despite: match.driver-missing")));
        override->click();
        QVERIFY(session.blockersOverridden());
        QVERIFY(page->isComplete());
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());

        // A new verdict takes the override back.
        session.setSnapshot(snapshot);
        QVERIFY(!session.blockersOverridden());
        QVERIFY(!page->isComplete());
        QVERIFY(!override->isChecked());
    }

    // Issue 32: a GPU whose compute capability nobody knows is "cannot tell", not "fits": the user
    // goes on only by saying so, as past a blocking finding.
    void unknownGpuNeedsAnExplicitOverride()
    {
        Translations::install(QStringLiteral("en"));
        SystemSnapshot snapshot = recordedH200();
        QVERIFY(!snapshot.gpus.isEmpty());
        snapshot.gpus.first().name = QStringLiteral("NVIDIA Quantum Widget 9000");
        snapshot.gpus.first().computeCapability.clear();
        SetupSession session(SystemContext::running());
        session.setSnapshot(snapshot);
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        MatchPage *page = openMatchPage(wizard);
        QVERIFY(page);
        QCOMPARE(session.match().verdict(), MatchResult::Verdict::CannotTell);
        QVERIFY(!page->isComplete());
        QVERIFY2(labelText(page, QStringLiteral("summaryLabel")).startsWith(QStringLiteral("Cannot tell")),
                 qPrintable(labelText(page, QStringLiteral("summaryLabel"))));
        auto override = page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"));
        QVERIFY(override->isVisible());
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("go on despite: match.gpu-cannot-tell")));
        override->click();
        QVERIFY(page->isComplete());
    }

    // A database beside the program or given with --compat-db is named on the page.
    void namesTheDatabaseInUse()
    {
        const QString fixture = Sandbox::fixturePath(QStringLiteral("compat/minimal.json"));
        SetupSession session(SystemContext::running());
        session.setDatabase(DatabaseChoice::choose(fixture, QString()));
        session.setSnapshot(recordedH200());
        SetupWizard wizard(&session);
        MatchPage *page = openMatchPage(wizard);
        const QString text = labelText(page, QStringLiteral("databaseLabel"));
        QVERIFY2(text.contains(QStringLiteral("2099.01.01")) && text.contains(QStringLiteral("minimal.json")),
                 qPrintable(text));
    }
};

CUDNNSETUP_TEST_MAIN(TestMatchPage)
#include "tst_matchpage.moc"
