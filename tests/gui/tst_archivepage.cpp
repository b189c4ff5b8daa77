// The Archive page: a cuDNN zip chosen, dropped, refused or cancelled, inspected off the GUI thread,
// and shown with its verdict, what it holds and its findings, in English and in Chinese. The
// archives are built here with NVIDIA's file lists; the machine is the H200 recorded with the device,
// made a Windows workstation so that a Windows zip can fit it.
#include "ArchivePage.h"
#include "CudnnArchiveLists.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "LoopbackHttpServer.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "WizardPageTests.h"
#include "ZipWriter.h"
#include "common/Sizes.h"
#include "common/Translations.h"
#include "platform/Sha256.h"
#include "session/SetupSession.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QCryptographicHash>
#include <QDialog>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>

#include <memory>
#include <utility>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::labelText;
using wizardpagetests::saveScreenshot;
using wizardpagetests::windowsH200;

namespace {

// Every inspection here reads a few MB at most, but Wine starts slowly.
constexpr int kInspectionTimeoutMs = 60000;

const QString kVersion = QStringLiteral("9.19.0.56");

// With a recommendation to download (every machine here has one).
const QString kIdleText = QStringLiteral(
    "Press \u201CDownload it for me\u201D, or choose the cuDNN archive you downloaded from NVIDIA, "
    "or drop it here. Nothing is installed yet: it is checked first.");

bool saveZip(const QString &hostPath, const QList<ZipWriter::Entry> &entries)
{
    return ZipWriter(entries).save(hostPath);
}

// NVIDIA's Windows archive of `version` for `cudaVariant`, every DLL a small x64 DLL.
QList<ZipWriter::Entry> cudnnEntries(const QString &version, const QString &cudaVariant)
{
    return archives::entriesOf(archives::windowsFiles(version, cudaVariant), version);
}

QString summaryText(const QWidget *page)
{
    return labelText(page, QStringLiteral("summaryLabel"));
}

QTreeWidget *factsTree(const QWidget *page)
{
    return page->findChild<QTreeWidget *>(QStringLiteral("archiveFacts"));
}

const QTreeWidgetItem *factItem(const QWidget *page, const QString &question)
{
    const QTreeWidget *tree = factsTree(page);
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (tree->topLevelItem(i)->text(0) == question)
            return tree->topLevelItem(i);
    }
    return nullptr;
}

QString factValue(const QWidget *page, const QString &question)
{
    const QTreeWidgetItem *item = factItem(page, question);
    return item ? item->text(1) : QStringLiteral("<no row %1>").arg(question);
}

QString factsText(const QWidget *page)
{
    const QTreeWidget *tree = factsTree(page);
    QStringList lines;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        lines.append(item->text(0) + QLatin1Char('|') + item->text(1));
        for (int c = 0; c < item->childCount(); ++c)
            lines.append(QLatin1Char('|') + item->child(c)->text(1));
    }
    return lines.join(QLatin1Char('\n'));
}

QStringList childValues(const QTreeWidgetItem *item)
{
    QStringList values;
    for (int c = 0; item && c < item->childCount(); ++c)
        values.append(item->child(c)->text(1));
    return values;
}

QString findingIds(const Findings &findings)
{
    QStringList ids;
    for (const Finding &finding : findings)
        ids.append(finding.id);
    return ids.join(QStringLiteral(", "));
}

QString sha256Of(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

// The button that leaves the page forwards: Next (the Target page follows), or Finish on a last page.
QAbstractButton *forwardButton(QWizard &wizard)
{
    return wizard.button(wizard.nextId() == -1 ? QWizard::FinishButton : QWizard::NextButton);
}

// Walks to the Archive page the way a user does (the Hardware page keeps the given snapshot).
ArchivePage *openArchivePage(SetupWizard &wizard)
{
    wizard.show();
    while (wizard.currentId() != SetupWizard::Page_Archive) {
        const int before = wizard.currentId();
        wizard.next();
        if (wizard.currentId() == before)
            return nullptr;
    }
    return qobject_cast<ArchivePage *>(wizard.currentPage());
}

// Drags `mime` over `target` and drops it there, as a file manager does; true when both the
// enter and the drop were accepted.
bool dragAndDrop(QWidget *target, const QMimeData *mime)
{
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    enter.ignore();
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    drop.ignore();
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

// One machine, its session, and the wizard open at the Archive page.
struct Opened
{
    explicit Opened(const SystemSnapshot &snapshot)
        : session(SystemContext::running())
    {
        session.setSnapshot(snapshot);
        wizard = std::make_unique<SetupWizard>(&session);
        wizard->resize(820, 660);
        page = openArchivePage(*wizard);
    }

    // The test-made archive at `path` taken for the file NVIDIA published under its name.
    void standIn(const QString &path)
    {
        session.setDatabase(
            DatabaseChoice{archives::databaseKnowing({path}), QStringLiteral("embedded"), Findings()});
    }

    SetupSession session;
    std::unique_ptr<SetupWizard> wizard;
    ArchivePage *page = nullptr;
};

// The check has ended and the page shows its outcome.
bool inspected(const Opened &opened)
{
    return !opened.page->isInspecting() && !summaryText(opened.page).startsWith(QLatin1String("Checking "));
}

} // namespace

class TestArchivePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QVERIFY(m_archives.isValid());
        // The page remembers its folder in QSettings: here in a throw-away file, never the user's.
        QCoreApplication::setOrganizationName(QStringLiteral("cudnn-setup-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_archivepage"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::SystemScope, m_settings.path());
        QVERIFY2(QSettings().fileName().startsWith(m_settings.path()), qPrintable(QSettings().fileName()));
    }

    void init() { Translations::install(QStringLiteral("en")); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // A good cuDNN 9 zip for CUDA 12 on a machine with CUDA 12: checked in the background, its
    // facts and libraries shown, and the page lets the user go on; then the same page in Chinese.
    void goodArchiveFitsAndIsShownInBothLanguages()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        QCOMPARE(page->title(), QStringLiteral("Your cuDNN archive"));
        QCOMPARE(summaryText(page), kIdleText);
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());

        // Saved under a name of the user's own: the content, not the name, says what it is.
        const QString path = m_archives.filePath(QStringLiteral("cudnn-for-cuda12.zip"));
        QVERIFY(saveZip(path, cudnnEntries(kVersion, QStringLiteral("12"))));
        QSignalSpy completeChanged(page, &QWizardPage::completeChanged);
        page->chooseArchive(path);
        QCOMPARE(page->findChild<QLineEdit *>(QStringLiteral("archivePath"))->text(),
                 QDir::toNativeSeparators(path));
        QCOMPARE(summaryText(page), QStringLiteral("Checking cudnn-for-cuda12.zip…"));
        QVERIFY(!page->isComplete());
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);

        QVERIFY(opened.session.hasArchive());
        const ArchiveReport &report = opened.session.archive();
        QVERIFY2(report.verdict == ArchiveReport::Verdict::Ok, qPrintable(findingIds(report.findings)));
        QVERIFY2(opened.session.match().compatible(),
                 qPrintable(findingIds(opened.session.match().findings)));
        QCOMPARE(summaryText(page), QStringLiteral("The archive is undamaged and fits this computer."));
        QCOMPARE(factValue(page, QStringLiteral("NVIDIA's file")),
                 QStringLiteral("Unknown: NVIDIA's checksum for it is not in the database"));
        QCOMPARE(factValue(page, QStringLiteral("Actual version")),
                 QStringLiteral("cuDNN 9.19.0 for CUDA 12 (windows-x86_64)"));
        QVERIFY2(!factItem(page, QStringLiteral("File name says")), qPrintable(factsText(page)));
        QCOMPARE(factValue(page, QStringLiteral("Contents")),
                 QStringLiteral("8 libraries, 7 headers, 16 import libraries; %1 unpacked")
                     .arg(shownSize(report.unpackedSize)));
        // "import libraries" has its visible (i).
        QVERIFY(!factItem(page, QStringLiteral("Contents"))->icon(1).isNull());
        QCOMPARE(factItem(page, QStringLiteral("Contents"))->whatsThis(1),
                 InfoIcon::explanation(Term::ImportLibrary));
        QCOMPARE(
            childValues(factItem(page, QStringLiteral("Contents"))),
            (QStringList{QStringLiteral("bin/x64/cudnn64_9.dll"), QStringLiteral("bin/x64/cudnn_adv64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_cnn64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_engines_precompiled64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_engines_runtime_compiled64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_graph64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_heuristic64_9.dll"),
                         QStringLiteral("bin/x64/cudnn_ops64_9.dll")}));
        QCOMPARE(factValue(page, QStringLiteral("SHA-256")), sha256Of(path));
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("archive.checksum-unknown")) &&
                    page->findChild<QLabel *>(QStringLiteral("archive.checksum-unknown"))->isVisible());
        QVERIFY(!page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"))->isVisible());
        QVERIFY(!page->findChild<QProgressBar *>()->isVisible());
        QVERIFY(page->isComplete());
        QVERIFY(forwardButton(*opened.wizard)->isEnabled());
        QVERIFY(completeChanged.count() >= 2);
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-ok-en.png"));

        // The language switches live: the same report, re-worded, without checking again.
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_COMPARE(page->title(), QStringLiteral("你的 cuDNN 压缩包"));
        QVERIFY(!page->isInspecting());
        QCOMPARE(summaryText(page), QStringLiteral("压缩包完好，适合这台电脑。"));
        const qint64 unpacked = opened.session.archive().unpackedSize;
        QCOMPARE(factValue(page, QStringLiteral("NVIDIA 原版文件")),
                 QStringLiteral("未知：数据库中没有它的 NVIDIA 校验值"));
        QCOMPARE(factValue(page, QStringLiteral("实际版本")),
                 QStringLiteral("适用于 CUDA 12 的 cuDNN 9.19.0（windows-x86_64）"));
        QCOMPARE(factValue(page, QStringLiteral("文件清单")),
                 QStringLiteral("8 个库、7 个头文件、16 个导入库；解压后共 %1").arg(shownSize(unpacked)));
        QCOMPARE(childValues(factItem(page, QStringLiteral("文件清单"))).size(), 8);
        QCOMPARE(factValue(page, QStringLiteral("SHA-256")), sha256Of(path));
        const QString checksumNote = labelText(page, QStringLiteral("archive.checksum-unknown"));
        QVERIFY2(checksumNote.startsWith(QStringLiteral("兼容性数据库（版本 ")), qPrintable(checksumNote));
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("archive.checksum-unknown"))->isVisible());
        QVERIFY(page->isComplete());
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-ok-zh_CN.png"));
    }

    // An entry that would land outside the target folder: refused, whatever else the zip holds.
    void unsafeArchiveIsRefused()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        QList<ZipWriter::Entry> entries = cudnnEntries(kVersion, QStringLiteral("12"));
        entries.append(ZipWriter::Entry::file("../evil.dll", peimage::x64Dll()));
        const QString name = archives::windowsRoot(kVersion, QStringLiteral("12")) + QStringLiteral(".zip");
        const QString path = m_archives.filePath(name);
        QVERIFY(saveZip(path, entries));
        page->chooseArchive(path);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);

        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Unsafe);
        QCOMPARE(summaryText(page), QStringLiteral("This archive is unsafe and will not be used."));
        const QString unsafe = labelText(page, QStringLiteral("archive.unsafe-path"));
        QVERIFY2(unsafe.contains(QStringLiteral("../evil.dll")), qPrintable(unsafe));
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("archive.unsafe-path"))->isVisible());
        // Named like NVIDIA's file, but not the one NVIDIA published.
        QCOMPARE(factValue(page, QStringLiteral("NVIDIA's file")),
                 QStringLiteral("No: the checksum differs from the one NVIDIA published"));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("archive.checksum-mismatch")));
        QCOMPARE(factValue(page, QStringLiteral("File name says")),
                 QStringLiteral("cuDNN 9.19.0.56 for CUDA 12 (windows-x86_64)"));
        QCOMPARE(factValue(page, QStringLiteral("Actual version")),
                 QStringLiteral("Not read: nothing is unpacked from an unsafe archive"));
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());
        // Nothing to override: an unsafe archive is never taken.
        QVERIFY(!page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"))->isVisible());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("go on despite")));
        opened.session.setBlockersOverridden(true);
        QVERIFY(!page->isComplete());
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-unsafe-en.png"));

        // The quotes of the path are drawn as quotes, not as the HTML that escapes them.
        const auto unsafeLabel = page->findChild<QLabel *>(QStringLiteral("archive.unsafe-path"));
        QCOMPARE(unsafeLabel->textFormat(), Qt::RichText);
        QVERIFY2(
            unsafeLabel->text().remove(QChar(0x200B)).contains(QStringLiteral("&quot;../evil.dll&quot;")),
            qPrintable(unsafeLabel->text()));
    }

    // A file that is no zip at all, and one that is not there: each says so, and the page waits.
    void notAZipAndAMissingFileFailClearly()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);

        const QString notZip = m_archives.filePath(QStringLiteral("cudnn-readme.zip"));
        {
            QFile file(notZip);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("cuDNN is NVIDIA's library of deep neural network primitives.\n");
        }
        page->chooseArchive(notZip);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::NotCudnn);
        QCOMPARE(summaryText(page), QStringLiteral("This is not a cuDNN archive."));
        QCOMPARE(
            labelText(page, QStringLiteral("archive.not-zip")),
            QStringLiteral("%1 is not a zip archive.<br><i>What to do: Choose the .zip archive itself.</i>")
                .arg(QDir::toNativeSeparators(notZip).toHtmlEscaped()));
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());

        const QString missing =
            m_archives.filePath(QStringLiteral("gone/cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip"));
        page->chooseArchive(missing);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(!opened.session.hasArchive());
        QCOMPARE(summaryText(page),
                 QStringLiteral("The archive %1 cannot be read.").arg(QDir::toNativeSeparators(missing)));
        QCOMPARE(factsTree(page)->topLevelItemCount(), 0);
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("archive.not-zip"))); // the last report is gone
        QVERIFY(!page->findChild<QProgressBar *>()->isVisible());
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());

        // The failure stays on the page when it is re-worded.
        Translations::install(QStringLiteral("zh_CN"));
        QTRY_COMPARE(page->title(), QStringLiteral("你的 cuDNN 压缩包"));
        QCOMPARE(summaryText(page),
                 QStringLiteral("无法读取压缩包 %1。").arg(QDir::toNativeSeparators(missing)));
        QVERIFY(!page->isComplete());
    }

    // NVIDIA's intact archive for CUDA 13 on a machine whose driver runs CUDA up to 12.7: the page
    // holds the user until they explicitly go on anyway, and a new verdict takes that back.
    void archiveThatDoesNotFitNeedsTheOverride()
    {
        Opened opened(
            windowsH200({QStringLiteral("12.6.3")}, QStringLiteral("566.36"), QStringLiteral("12.7")));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        const QString path = m_archives.filePath(archives::windowsRoot(kVersion, QStringLiteral("13")) +
                                                 QStringLiteral(".zip"));
        QVERIFY(saveZip(path, cudnnEntries(kVersion, QStringLiteral("13"))));
        opened.standIn(path);
        page->chooseArchive(path);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);

        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Ok);
        QCOMPARE(factValue(page, QStringLiteral("Actual version")),
                 QStringLiteral("cuDNN 9.19.0.56 for CUDA 13 (windows-x86_64)"));
        QVERIFY2(!opened.session.match().compatible(),
                 qPrintable(findingIds(opened.session.match().findings)));
        QCOMPARE(summaryText(page),
                 QStringLiteral("This archive does not fit this computer: the findings below say why."));
        const QString driver = labelText(page, QStringLiteral("match.driver-too-old-for-cudnn"));
        QVERIFY2(
            driver.contains(QStringLiteral("Driver 566.36 supports CUDA up to 12.7, so it cannot run cuDNN "
                                           "built for CUDA 13.")),
            qPrintable(driver));
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());
        auto override = page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"));
        QVERIFY(override->isVisible());
        QVERIFY(!override->isChecked());
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("match.driver-too-old-for-cudnn"))->isVisible());
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-blocked-en.png"));

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral(
                                               "go on despite: .*match\\.driver-too-old-for-cudnn")));
        override->click();
        QVERIFY(opened.session.blockersOverridden());
        QVERIFY(page->isComplete());
        QVERIFY(forwardButton(*opened.wizard)->isEnabled());

        // Choosing again is a new verdict: the override is taken back.
        page->chooseArchive(path);
        QVERIFY(!page->isComplete());
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(!opened.session.blockersOverridden());
        QVERIFY(!override->isChecked());
        QVERIFY(!page->isComplete());
    }

    // NVIDIA's intact archive for CUDA 11 on a machine that has only CUDA 12 and 13 toolkits.
    void archiveForCuda11OnACuda12And13Machine()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1"), QStringLiteral("13.0.2")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        const QString version = QStringLiteral("9.10.1.4");
        const QString path = m_archives.filePath(archives::windowsRoot(version, QStringLiteral("11")) +
                                                 QStringLiteral(".zip"));
        QVERIFY(saveZip(path, cudnnEntries(version, QStringLiteral("11"))));
        opened.standIn(path);
        page->chooseArchive(path);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Ok);
        QCOMPARE(factValue(page, QStringLiteral("Actual version")),
                 QStringLiteral("cuDNN 9.10.1.4 for CUDA 11 (windows-x86_64)"));
        QCOMPARE(opened.session.archive().cudaVariant, QStringLiteral("11"));

        QVERIFY2(!opened.session.match().compatible(),
                 qPrintable(findingIds(opened.session.match().findings)));
        const Finding *noToolkit =
            opened.session.match().finding(QStringLiteral("match.no-toolkit-for-archive"));
        QVERIFY(noToolkit);
        QCOMPARE(noToolkit->fix.toString(),
                 QStringLiteral("Download cudnn-windows-x86_64-9.10.1.4_cuda12-archive.zip instead."));
        QVERIFY(!page->isComplete());
        QVERIFY(page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"))->isVisible());
    }

    // A zip dropped anywhere on the page is checked; other drops are refused.
    void dropTakesOneZipFile()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        const QString path = m_archives.filePath(QStringLiteral("dropped/cudnn-dropped.zip"));
        QVERIFY(saveZip(path, cudnnEntries(kVersion, QStringLiteral("12"))));
        const QString text = m_archives.filePath(QStringLiteral("dropped/notes.txt"));
        QVERIFY(saveZip(text, cudnnEntries(kVersion, QStringLiteral("12")))); // a zip, but not named one
        const auto pathEdit = page->findChild<QLineEdit *>(QStringLiteral("archivePath"));

        QMimeData plainText;
        plainText.setText(path);
        QMimeData web;
        web.setUrls(
            {QUrl(QStringLiteral("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/"
                                 "windows-x86_64/cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip"))});
        QMimeData notZip;
        notZip.setUrls({QUrl::fromLocalFile(text)});
        QMimeData two;
        two.setUrls({QUrl::fromLocalFile(path), QUrl::fromLocalFile(path)});
        const QList<std::pair<const char *, const QMimeData *>> refused{{"plain text", &plainText},
                                                                        {"a web address", &web},
                                                                        {"a .txt file", &notZip},
                                                                        {"two files", &two}};
        for (const auto &[what, mime] : refused) {
            QVERIFY2(!dragAndDrop(page, mime), what);
            QVERIFY2(!page->isInspecting(), what);
            QVERIFY2(pathEdit->text().isEmpty(), what);
            QVERIFY2(summaryText(page) == kIdleText, what);
        }
        QVERIFY(!opened.session.hasArchive());

        // Dropped on the path field itself, with the text a file manager adds to the address: the
        // page takes it, the field does not type it in.
        QMimeData zip;
        zip.setUrls({QUrl::fromLocalFile(path)});
        zip.setText(QUrl::fromLocalFile(path).toString());
        QVERIFY(dragAndDrop(pathEdit, &zip));
        QCOMPARE(pathEdit->text(), QDir::toNativeSeparators(path));
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().path, path);
        QCOMPARE(summaryText(page), QStringLiteral("The archive is undamaged and fits this computer."));
        QVERIFY(page->isComplete());

        // Dropped on the list of facts, it replaces the archive checked before.
        const QString second = m_archives.filePath(QStringLiteral("dropped/cudnn-second.ZIP"));
        QVERIFY(QFile::copy(path, second));
        QMimeData again;
        again.setUrls({QUrl::fromLocalFile(second)});
        QVERIFY(dragAndDrop(factsTree(page)->viewport(), &again));
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened) && opened.session.hasArchive(), kInspectionTimeoutMs);
        QCOMPARE(opened.session.archive().path, second);
    }

    // The folder of the archive chosen last is where the file dialog opens next time, in any
    // later run; Downloads until then, and again once that folder is gone.
    void remembersTheFolderOfTheLastArchive()
    {
        QSettings().remove(QStringLiteral("archive/folder"));
        const QString downloads = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        QCOMPARE(page->browseFolder(), downloads);

        QTemporaryDir folder(m_archives.filePath(QStringLiteral("downloads-XXXXXX")));
        QVERIFY(folder.isValid());
        const QString path = folder.filePath(QStringLiteral("cudnn-remembered.zip"));
        QVERIFY(saveZip(path, cudnnEntries(kVersion, QStringLiteral("12"))));
        page->chooseArchive(path);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QCOMPARE(QSettings().value(QStringLiteral("archive/folder")).toString(), folder.path());
        QVERIFY2(QFile::exists(QSettings().fileName()) &&
                     QSettings().fileName().startsWith(m_settings.path()),
                 qPrintable(QSettings().fileName()));
        QCOMPARE(page->browseFolder(), folder.path());

        // A later run of the wizard opens there too.
        SetupSession session(SystemContext::running());
        ArchivePage later(&session);
        QCOMPARE(later.browseFolder(), folder.path());

        QVERIFY(folder.remove());
        QCOMPARE(later.browseFolder(), downloads);
    }

    // Cancel right after choosing a large archive: the check stops, and the page is as before.
    void cancelReturnsToIdle()
    {
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        // 48 MiB that do not compress, stored: every byte is read, checked and hashed.
        QList<ZipWriter::Entry> entries = cudnnEntries(kVersion, QStringLiteral("12"));
        QByteArray noise(48 << 20, Qt::Uninitialized);
        QRandomGenerator(20260101).fillRange(reinterpret_cast<quint32 *>(noise.data()),
                                             noise.size() / qsizetype(sizeof(quint32)));
        bool replaced = false;
        for (ZipWriter::Entry &entry : entries) {
            if (entry.name.endsWith("/cudnn_engines_precompiled64_9.dll")) {
                entry.data = peimage::x64Dll() + noise;
                entry.method = 0;
                replaced = true;
            }
        }
        QVERIFY(replaced);
        const QString big = m_archives.filePath(QStringLiteral("cudnn-big.zip"));
        QVERIFY(saveZip(big, entries));
        QVERIFY(QFileInfo(big).size() > (48 << 20));

        page->chooseArchive(big);
        QVERIFY(page->isInspecting());
        auto cancel = page->findChild<QPushButton *>(QStringLiteral("cancelInspectionButton"));
        QVERIFY(cancel->isVisible());
        QCOMPARE(cancel->text(), QStringLiteral("Cancel check"));
        QVERIFY(page->findChild<QProgressBar *>()->isVisible());
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isInspecting(), kInspectionTimeoutMs);
        QTRY_COMPARE(summaryText(page), kIdleText);
        QVERIFY(!cancel->isVisible());
        QVERIFY(!page->findChild<QProgressBar *>()->isVisible());
        QVERIFY(!opened.session.hasArchive());
        QCOMPARE(factsTree(page)->topLevelItemCount(), 0);
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());

        // A check that ends just as another archive is chosen: its result, already on its way to the
        // page, is not shown for the archive now being checked.
        const QString small = m_archives.filePath(QStringLiteral("cudnn-small.zip"));
        QVERIFY(saveZip(small, cudnnEntries(kVersion, QStringLiteral("12"))));
        page->chooseArchive(small);
        // The worker ends and posts its result; no events are handled, so the result stays queued
        // (and the check counts as running until it is handed over).
        QVERIFY(QThreadPool::globalInstance()->waitForDone(kInspectionTimeoutMs));
        QVERIFY(page->isInspecting());
        page->chooseArchive(big);
        QCoreApplication::processEvents();
        QVERIFY(page->isInspecting());
        QVERIFY(!opened.session.hasArchive());
        QCOMPARE(summaryText(page), QStringLiteral("Checking cudnn-big.zip…"));
        QVERIFY(page->findChild<QProgressBar *>()->isVisible());
        QVERIFY(cancel->isVisible());

        // Another archive chosen while the large one is still being read replaces that check.
        page->chooseArchive(small);
        page->chooseArchive(small);
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QVERIFY(opened.session.hasArchive());
        QCOMPARE(opened.session.archive().path, small);
        QCOMPARE(summaryText(page), QStringLiteral("The archive is undamaged and fits this computer."));
        QVERIFY(page->isComplete());
    }

    // A file named like NVIDIA's published archive whose SHA-256 differs is refused outright, even
    // on a machine where "continue anyway" would be offered for a mere misfit: the headline says so,
    // and no override reaches past it.
    void alteredArchiveCannotBeOverridden()
    {
        Opened opened(
            windowsH200({QStringLiteral("12.6.3")}, QStringLiteral("566.36"), QStringLiteral("12.7")));
        ArchivePage *page = opened.page;
        QVERIFY(page);
        const QString path = m_archives.filePath(QStringLiteral("altered/") +
                                                 archives::windowsRoot(kVersion, QStringLiteral("13")) +
                                                 QStringLiteral(".zip"));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QVERIFY(saveZip(path, cudnnEntries(kVersion, QStringLiteral("13"))));
        // Shown, not only "visible": a view of no height passes isVisible() and shows no scroll bar.
        // As the page is laid out right after it shows the verdict (the first paint, or a
        // screenshot, can come before any other queued call), the finding's sentence has the
        // height its wrapped lines need, all of it inside the view.
        const auto findings = page->findChild<FindingsView *>();
        QString laidOut = QStringLiteral("never shown");
        connect(page, &QWizardPage::completeChanged, this, [&] {
            const auto shown = page->findChild<QLabel *>(QStringLiteral("archive.checksum-mismatch"));
            if (!shown)
                return;
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            const QRect inView(shown->mapTo(findings->viewport(), QPoint()), shown->size());
            const bool whole = shown->isVisible() && shown->height() > 0 &&
                               shown->height() >= shown->heightForWidth(shown->width()) &&
                               findings->viewport()->rect().contains(inView);
            laidOut = whole ? QString()
                            : QStringLiteral("finding %1 px high, view %2 px")
                                  .arg(shown->height())
                                  .arg(findings->viewport()->height());
        });
        page->chooseArchive(path); // judged by the built-in database, which has NVIDIA's checksum
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);

        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Altered);
        QVERIFY2(laidOut.isEmpty(), qPrintable(laidOut));
        const auto mismatch = page->findChild<QLabel *>(QStringLiteral("archive.checksum-mismatch"));
        QVERIFY(mismatch);
        QVERIFY2(mismatch->text().contains(QStringLiteral("SHA-256")), qPrintable(mismatch->text()));
        QCOMPARE(summaryText(page),
                 QStringLiteral("This is not NVIDIA's original file, so it will not be used."));
        QCOMPARE(factValue(page, QStringLiteral("NVIDIA's file")),
                 QStringLiteral("No: the checksum differs from the one NVIDIA published"));
        // Its technical details, said to be the English of logs and support, in the tooltip.
        QVERIFY2(mismatch->toolTip().startsWith(QStringLiteral("Technical details, in English:\npublished ")),
                 qPrintable(mismatch->toolTip()));
        // The findings come before the facts, whole.
        const auto facts = page->findChild<QTreeWidget *>(QStringLiteral("archiveFacts"));
        QVERIFY(findings->mapTo(page, QPoint()).y() < facts->mapTo(page, QPoint()).y());
        QTRY_VERIFY(!findings->verticalScrollBar()->isVisible()); // once it has taken the room it asks for
        QVERIFY(!page->findChild<QCheckBox *>(QStringLiteral("overrideCheck"))->isVisible());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("go on despite")));
        opened.session.setBlockersOverridden(true);
        QVERIFY(!page->isComplete());
        QVERIFY(!forwardButton(*opened.wizard)->isEnabled());
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-altered-en.png"));
    }

    // The page repeats what to download, as a link, names it in the empty field, and offers the
    // recommended archive with one click when the browser already saved it in Downloads.
    void recommendsTheDownloadAndFindsItInDownloads()
    {
        QTemporaryDir downloads;
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        opened.session.setDownloadsFolder(downloads.path());
        ArchivePage *page = opened.page;
        QVERIFY(page);
        page->initializePage();
        QVERIFY(opened.session.match().recommendation);
        const Recommendation recommended = *opened.session.match().recommendation;
        const auto label = page->findChild<QLabel *>(QStringLiteral("recommendationLabel"));
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().contains(
                     QStringLiteral("<a href=\"%1\">%2</a>").arg(recommended.url, recommended.archiveFile)),
                 qPrintable(label->text()));
        QCOMPARE(page->findChild<QLineEdit *>(QStringLiteral("archivePath"))->placeholderText(),
                 recommended.archiveFile);
        const auto useDownloaded = page->findChild<QPushButton *>(QStringLiteral("useDownloadedButton"));
        QVERIFY(!useDownloaded->isVisible());

        // Saved by a browser that already had one: "… (1).zip", which is the same archive.
        const QString saved =
            downloads.filePath(recommended.archiveFile.chopped(4) + QStringLiteral(" (1).zip"));
        QVERIFY(saveZip(saved, cudnnEntries(recommended.cudnn.toString(), recommended.cudaVariant)));
        opened.standIn(saved);
        page->initializePage();
        QVERIFY(useDownloaded->isVisible());
        QCOMPARE(useDownloaded->toolTip(), QDir::toNativeSeparators(saved));
        useDownloaded->click();
        QTRY_VERIFY_WITH_TIMEOUT(inspected(opened), kInspectionTimeoutMs);
        QCOMPARE(opened.session.archive().path, saved);
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Ok);
        QVERIFY(!useDownloaded->isVisible()); // it is the one chosen
        // NVIDIA's record of the file, where the database has one, now holds the stand-in's checksum.
        QCOMPARE(summaryText(page),
                 recommended.sha256.isEmpty()
                     ? QStringLiteral("The archive is undamaged and fits this computer.")
                     : QStringLiteral("This is NVIDIA's original archive, and it fits this computer."));
        QVERIFY(page->isComplete());
    }

    // "Download it for me" from a lab mirror chosen under Download settings (remembered for the
    // user): the connection breaks halfway and is resumed, the file lands in Downloads, checked,
    // and the page opens it as if the user had. A source without the file says so, with the fix.
    void downloadsTheRecommendationForTheUser()
    {
        QTemporaryDir downloads;
        QTemporaryDir made;
        Opened opened(windowsH200({QStringLiteral("12.9.1")}));
        opened.session.setDownloadsFolder(downloads.path());
        ArchivePage *page = opened.page;
        page->initializePage();
        const Recommendation recommended = *opened.session.match().recommendation;
        const QString standIn = made.filePath(recommended.archiveFile);
        QVERIFY(saveZip(standIn, cudnnEntries(recommended.cudnn.toString(), recommended.cudaVariant)));
        opened.standIn(standIn);
        QFile file(standIn);
        QVERIFY(file.open(QIODevice::ReadOnly));
        testtools::LoopbackHttpServer server;
        testtools::LoopbackHttpServer::Resource archive;
        archive.content = file.readAll();
        archive.dropAfterBytes = archive.content.size() / 2;
        archive.drops = 1;
        server.serve(QStringLiteral("/mirror/cudnn/windows-x86_64/") + recommended.archiveFile, archive);
        // From a plain http mirror only with the checksum in the database: one that lists the file
        // (NVIDIA's record of it made the stand-in's, else a record of NVIDIA's Windows archives
        // made this one's).
        QJsonObject database = QJsonDocument::fromJson(archives::databaseJsonKnowing({standIn})).object();
        if (!KnowledgeBase::embedded().archiveByFile(recommended.archiveFile)) {
            QJsonArray records = database.value(QStringLiteral("archives")).toArray();
            QJsonObject record = records.first().toObject();
            record.insert(QStringLiteral("file"), recommended.archiveFile);
            record.insert(QStringLiteral("platform"), QStringLiteral("windows-x86_64"));
            record.insert(QStringLiteral("cudnn"), recommended.cudnn.toString());
            record.insert(QStringLiteral("cuda"), recommended.cudaVariant);
            record.insert(QStringLiteral("sha256"), Sha256::of(archive.content));
            record.insert(QStringLiteral("size"), double(archive.content.size()));
            records.append(record);
            database.insert(QStringLiteral("archives"), records);
        }
        const auto known = KnowledgeBase::parse(QJsonDocument(database).toJson());
        QVERIFY2(known, qPrintable(known ? QString() : known.error().details));
        opened.session.setDatabase(DatabaseChoice{*known, QStringLiteral("embedded"), Findings()});
        // A mirror keeps NVIDIA's manifests beside the archives.
        testtools::LoopbackHttpServer::Resource manifest;
        manifest.content = archives::redistManifest(recommended.cudnn.toString(), recommended.archiveFile,
                                                    Sha256::of(archive.content), archive.content.size());
        server.serve(
            QStringLiteral("/mirror/redistrib_%1.json").arg(recommended.cudnn.truncated(3).toString()),
            manifest);
        const QString mirror = server.baseUrl().toString() + QStringLiteral("mirror/");

        page->initializePage();
        const auto download = page->findChild<QPushButton *>(QStringLiteral("downloadButton"));
        const auto settings = page->findChild<QPushButton *>(QStringLiteral("downloadSettingsButton"));
        QVERIFY(download->isVisible() && settings->isVisible());
        QVERIFY2(download->toolTip().contains(QStringLiteral("NVIDIA")), qPrintable(download->toolTip()));
        // The settings dialog: a mirror typed in, refused while empty.
        QTimer::singleShot(0, [&] {
            auto dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->findChild<QRadioButton *>(QStringLiteral("otherSource"))->setChecked(true);
            dialog->accept();
            QVERIFY(dialog->isVisible()); // nothing typed yet
            QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("sourceError"))->isVisible());
            dialog->findChild<QLineEdit *>(QStringLiteral("sourceLocation"))->setText(mirror);
            dialog->accept();
        });
        settings->click();
        QCOMPARE(opened.session.archiveSource(), mirror);
        QCOMPARE(QSettings().value(QStringLiteral("download/source")).toString(), mirror);
        QVERIFY(download->toolTip().contains(mirror));
        QCOMPARE(SetupSession(SystemContext::running()).archiveSource(), mirror); // remembered

        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-download-offered-en.png"));
        download->click();
        QVERIFY(page->isDownloading());
        QVERIFY(!page->isComplete());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isDownloading() && inspected(opened), kInspectionTimeoutMs);
        const QString saved = downloads.filePath(recommended.archiveFile);
        QVERIFY2(opened.session.hasArchive(), qPrintable(summaryText(page)));
        QCOMPARE(opened.session.archive().path, saved);
        QCOMPARE(opened.session.archive().verdict, ArchiveReport::Verdict::Ok);
        QVERIFY(!QFile::exists(saved + QStringLiteral(".part")));
        QCOMPARE(server.requests().last().range, "bytes=" + QByteArray::number(archive.dropAfterBytes) + '-');
        QVERIFY(page->isComplete());
        QVERIFY(!download->isVisible()); // a fitting archive is chosen
        saveScreenshot(opened.wizard.get(), QStringLiteral("archive-downloaded-en.png"));

        // A file the database does not know (none of NVIDIA's archives recorded: the newest release
        // is recommended), from a plain http mirror: refused before the mirror is asked; the
        // headline says so, the fix below it.
        opened.session.setDatabase(
            DatabaseChoice{archives::databaseWithoutChecksums(), QStringLiteral("embedded"), Findings()});
        QVERIFY(opened.session.match().recommendation->sha256.isEmpty());
        const qsizetype asked = server.requests().size();
        QDir(downloads.path()).removeRecursively();
        page->downloadRecommendation();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isDownloading(), kInspectionTimeoutMs);
        QVERIFY2(summaryText(page).contains(QStringLiteral("plain http://")), qPrintable(summaryText(page)));
        QCOMPARE(server.requests().size(), asked);
        const auto findings = page->findChild<FindingsView *>();
        QVERIFY(findings->isVisible());
        QVERIFY(!page->isComplete());
        opened.session.setArchiveSource(QString());
    }

    // A web address in a finding is a link, the sentence's punctuation left outside it.
    void addressesInFindingsAreLinks()
    {
        QCOMPARE(
            withLinks(QStringLiteral("Install it from nvidia.com/drivers, restart.")),
            QStringLiteral("Install it from <a href=\"https://nvidia.com/drivers\">nvidia.com/drivers</a>, "
                           "restart."));
        QCOMPARE(withLinks(QStringLiteral("See https://docs.nvidia.com/cuda/a.html. <b>")),
                 QStringLiteral("See <a href=\"https://docs.nvidia.com/cuda/a.html\">"
                                "https://docs.nvidia.com/cuda/a.html</a>. &lt;b&gt;"));
        QCOMPARE(withLinks(QStringLiteral("从 nvidia.com/drivers 安装。")),
                 QStringLiteral("从 <a href=\"https://nvidia.com/drivers\">nvidia.com/drivers</a> 安装。"));
        QCOMPARE(withLinks(QStringLiteral("No address here.")), QStringLiteral("No address here."));
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_archives;
};

CUDNNSETUP_TEST_MAIN(TestArchivePage)
#include "tst_archivepage.moc"
