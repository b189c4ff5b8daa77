// The wizard drawn by Windows (the "windows" platform plugin, under Wine and Xvfb): its first page
// in English and in Chinese, the What fits page of a Windows workstation, and the README's pictures:
// every page of the install path on a student's laptop in both languages (installed on Wine's own
// C: drive and verified there), its Uninstall page, and its Repair path; saved as screenshots by
// the test run.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "InstallPage.h"
#include "MatchPage.h"
#include "MemoryRegistry.h"
#include "RepairPage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "VerifyPage.h"
#include "WizardFlow.h"
#include "WizardPageTests.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "platform/MemoryEnvironment.h"
#include "session/SetupSession.h"
#include "session/WizardLog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QScopeGuard>
#include <QTest>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;

namespace {

using wizardpagetests::Workstation;

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The README's laptop made on Wine's own C: drive, not in a sandbox, so that the pictures show
// what a student's Windows shows: the install really lands in the CUDA 12.9 toolkit under Program
// Files and Verify really loads it there, in a fresh process whose PATH comes from the (in-memory)
// registry. The toolkit's CUDA runtime and the archive's DLLs are the stand-ins of the release the
// database recommends for this laptop, with one GPU (CUDNN_STANDIN_GPUS); the archive is as large
// as NVIDIA's. What it makes on C: goes when it goes.
struct WineLaptop
{
    static constexpr char kVersion[] = "9.28.1.4";
    // The database records no size for the Windows archives of cuDNN 9.11 and later; NVIDIA's
    // manifest gives the last one it records, 9.10.2.21's for CUDA 12, as 683,336,095 bytes. The
    // archive is made that large (incompressible, stored), so its size reads as NVIDIA's does.
    static constexpr qint64 kArchiveBytes = 683336095;
    static constexpr char kDownloads[] = "C:\\Users\\lab\\Downloads";
    static constexpr char kGpu[] = "NVIDIA GeForce RTX 3060 Laptop GPU";

    // The workstation of the page tests with a student's laptop GPU.
    static cudnnsetup::SystemSnapshot studentLaptop(cudnnsetup::SystemSnapshot snapshot)
    {
        cudnnsetup::GpuInfo gpu;
        gpu.index = 0;
        gpu.name = QLatin1String(kGpu);
        gpu.computeCapability = QStringLiteral("8.6");
        gpu.memoryMiB = 6144;
        gpu.source = QStringLiteral("nvidia-smi");
        snapshot.gpus = {gpu};
        return snapshot;
    }

    Workstation described; // the laptop as detection describes it, and the variables of its user
    std::shared_ptr<MemoryRegistry> registry = std::make_shared<MemoryRegistry>();
    cudnnsetup::SetupSession session;
    QString problem; // why the laptop could not be made; empty when it was

    WineLaptop()
        : session(liveContext(registry))
    {
        using namespace cudnnsetup;
        removeFolders(); // what a run that crashed left
        for (const char *folder : {Workstation::kConda, Workstation::kOldCudnn})
            QDir().mkpath(QLatin1String(folder));
        QDir().mkpath(QLatin1String(Workstation::kConda) + QStringLiteral("\\conda-meta"));
        for (const char *folder : {"\\bin", "\\include", "\\lib\\x64"})
            QDir().mkpath(QLatin1String(Workstation::kToolkit) + QLatin1String(folder));
        QDir().mkpath(QLatin1String(Workstation::kVenv) + QStringLiteral("\\Scripts"));
        QDir().mkpath(QLatin1String(kDownloads));
        const QString standins = BuildPaths::standins();
        if (!QFile::copy(standins + QStringLiteral("/cuda-12.2/cudart64_12.dll"),
                         QLatin1String(Workstation::kToolkit) + QStringLiteral("\\bin\\cudart64_12.dll"))) {
            problem = QStringLiteral("the stand-in CUDA runtime cannot be copied into the toolkit");
            return;
        }
        const QString archive = QLatin1String(kDownloads) + QLatin1Char('\\') +
                                archives::windowsRoot(QLatin1String(kVersion), QStringLiteral("12")) +
                                QStringLiteral(".zip");
        if (!writeArchive(archive, standins + QStringLiteral("/cudnn-") + QLatin1String(kVersion))) {
            problem = QStringLiteral("%1 cannot be written").arg(archive);
            return;
        }

        session.setSnapshot(studentLaptop(described.snapshot));
        session.setDatabase(DatabaseChoice{databaseKnowing(archive), QStringLiteral("embedded"), Findings()});
        session.setDownloadsFolder(QLatin1String(kDownloads));
        // A PATH like a student's, the CUDA toolkit's bin on the machine's, as its installer left it.
        const QString machinePath =
            QDir::toNativeSeparators(
                QDir(qEnvironmentVariable("SystemRoot")).filePath(QStringLiteral("system32"))) +
            QLatin1Char(';') + qEnvironmentVariable("SystemRoot") + QLatin1Char(';') +
            QLatin1String(Workstation::kToolkit) + QStringLiteral("\\bin");
        const QString userPath = QStringLiteral("%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;");
        registry->setString(RegistryHive::LocalMachine,
                            EnvironmentStore::registryKey(EnvironmentScope::System), QStringLiteral("Path"),
                            machinePath, RegistryValue::ExpandString);
        registry->setString(RegistryHive::CurrentUser, EnvironmentStore::registryKey(EnvironmentScope::User),
                            QStringLiteral("Path"), userPath, RegistryValue::ExpandString);
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {userPath, true});
        environment->set(EnvironmentScope::System, QStringLiteral("PATH"), {machinePath, true});
        session.setPersistentEnvironment(environment);

        InspectOptions options;
        options.verifyData = false;
        const auto report = inspectArchive(archive, session.database().database.publishedArchives(), options);
        if (!report || report->verdict != ArchiveReport::Verdict::Ok) {
            problem = QStringLiteral("the archive does not pass its check");
            return;
        }
        session.setArchive(*report);
    }
    ~WineLaptop() { removeFolders(); }
    WineLaptop(const WineLaptop &) = delete;
    WineLaptop &operator=(const WineLaptop &) = delete;

private:
    // The running Windows (Wine's), its registry in memory: nothing of the test's machine changes.
    static cudnnsetup::SystemContext liveContext(const std::shared_ptr<MemoryRegistry> &registry)
    {
        using namespace cudnnsetup;
        QProcessEnvironment process = QProcessEnvironment::systemEnvironment();
        process.insert(QStringLiteral("CUDNN_STANDIN_GPUS"), QStringLiteral("1"));
        process.insert(QStringLiteral("CUDNN_STANDIN_GPU_NAME"), QLatin1String(kGpu));
        return SystemContext(FileSystem(OsFamily::Windows, {}),
                             EnvironmentStore(OsFamily::Windows, process, registry), registry,
                             std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
    }

    // The built-in database with the stand-in `archive` as the file NVIDIA published under its name:
    // the database names that file as the download (the release's own record lists no Windows
    // archive yet), so its record is made from the newest Windows CUDA 12 one it lists.
    static cudnnsetup::KnowledgeBase databaseKnowing(const QString &archive)
    {
        QJsonObject root = QJsonDocument::fromJson(archives::databaseJsonKnowing({})).object();
        QJsonArray records = root.value(QStringLiteral("archives")).toArray();
        QJsonObject record;
        for (const QJsonValue &value : std::as_const(records)) {
            const QString file = value.toObject().value(QStringLiteral("file")).toString();
            if (file.startsWith(QLatin1String("cudnn-windows-x86_64-")) &&
                file.endsWith(QLatin1String("_cuda12-archive.zip")))
                record = value.toObject();
        }
        QFile file(archive);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        if (record.isEmpty() || !file.open(QIODevice::ReadOnly) || !hash.addData(&file))
            qFatal("no database for %s", qPrintable(archive));
        const QString name = QFileInfo(archive).fileName();
        const QString url = record.value(QStringLiteral("url")).toString();
        record.insert(QStringLiteral("file"), name);
        record.insert(QStringLiteral("cudnn"), QLatin1String(kVersion));
        record.insert(QStringLiteral("url"), url.left(url.lastIndexOf(QLatin1Char('/')) + 1) + name);
        record.insert(QStringLiteral("sha256"), QString::fromLatin1(hash.result().toHex()));
        record.insert(QStringLiteral("size"), double(file.size()));
        records.append(record);
        root.insert(QStringLiteral("archives"), records);
        const auto database = cudnnsetup::KnowledgeBase::parse(QJsonDocument(root).toJson());
        if (!database)
            qFatal("the database with %s does not parse", qPrintable(name));
        return *database;
    }

    static void removeFolders()
    {
        for (const char *folder : {"C:\\Program Files\\NVIDIA GPU Computing Toolkit",
                                   "C:\\Program Files\\NVIDIA", "C:\\Users\\lab"})
            QDir(QLatin1String(folder)).removeRecursively();
    }

    // NVIDIA's layout with the stand-in DLLs of `family`; the largest DLL made as large as the whole
    // archive is to be with bytes that do not compress, stored.
    static bool writeArchive(const QString &path, const QString &family)
    {
        QList<ZipWriter::Entry> entries = archives::entriesOf(
            archives::windowsFiles(QLatin1String(kVersion), QStringLiteral("12")), QLatin1String(kVersion));
        qsizetype largest = -1;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            ZipWriter::Entry &entry = entries[i];
            if (!entry.name.endsWith(".dll"))
                continue;
            entry.data =
                fileBytes(family + QLatin1Char('/') + QFileInfo(QString::fromUtf8(entry.name)).fileName());
            if (entry.data.isEmpty())
                return false;
            if (entry.name.endsWith("/cudnn_engines_precompiled64_9.dll"))
                largest = i;
        }
        if (largest < 0)
            return false;
        entries[largest].method = 0;
        const qint64 without = ZipWriter(entries).finish().size();
        QByteArray noise(kArchiveBytes - without, Qt::Uninitialized);
        quint32 state = 20260101;
        for (char &byte : noise) {
            state = state * 1664525u + 1013904223u;
            byte = char(state >> 24);
        }
        entries[largest].data += noise;
        return ZipWriter(entries).save(path) && QFileInfo(path).size() == kArchiveBytes;
    }
};

} // namespace

class TestWinScreenshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // As cudnn-setup.exe does: a log for this run in the user's log folder, what support asks first
    // at its top; the Finish pages then offer Open log.
    void initTestCase()
    {
        const SystemContext running = SystemContext::running();
        QVERIFY(logging::writeTo(newWizardLog(wizardLogFolder(running), QDateTime::currentDateTime())));
        WizardLogHeader::ofThisRun(running, QCoreApplication::arguments()).log();
    }

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
        const QImage english = wizard.grab(wizardpagetests::shownArea(&wizard)).toImage();
        QVERIFY(english.save(dir + QStringLiteral("/windows-welcome-en.png")));

        auto language = wizard.findChild<QComboBox *>(QStringLiteral("languageCombo"));
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QTRY_VERIFY(wizard.currentPage()->title().contains(QStringLiteral("欢迎")));
        // A font Windows ships comes first; some family on this system must draw Chinese.
        QCOMPARE(QApplication::font().families().value(0), QStringLiteral("Microsoft YaHei UI"));
        QVERIFY(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty());
        QTest::qWait(200);
        const QImage chinese = wizard.grab(wizardpagetests::shownArea(&wizard)).toImage();
        QVERIFY(chinese.save(dir + QStringLiteral("/windows-welcome-zh_CN.png")));
        QVERIFY(chinese != english);
        Translations::install(QStringLiteral("en"));
    }

    // Drawn by Windows, the wizard is an Aero wizard as Windows' own are: the page's title and what it
    // is for above the page, no banner, Back in the top band, where it works as any Back does.
    void nativeWizardStyle()
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
        QCOMPARE(wizard.wizardStyle(), QWizard::AeroStyle);
        const auto shownLabel = [&](const QString &text) {
            const auto labels = wizard.findChildren<QLabel *>();
            return std::any_of(labels.begin(), labels.end(), [&](const QLabel *label) {
                return label->isVisible() && label->text() == text;
            });
        };
        QVERIFY(shownLabel(wizard.currentPage()->title()));
        QVERIFY(shownLabel(wizard.currentPage()->subTitle()));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Hardware));
        QVERIFY(shownLabel(wizard.currentPage()->title()));
        QAbstractButton *back = wizard.button(QWizard::BackButton);
        QTRY_VERIFY(back->isVisible() && back->isEnabled());
        // In the band above the page, not in the row of buttons below it.
        const QRect content = wizardpagetests::shownArea(&wizard);
        QVERIFY2(back->geometry().center().y() < content.top(),
                 qPrintable(QStringLiteral("Back at %1,%2 %3x%4, content from %5")
                                .arg(back->x())
                                .arg(back->y())
                                .arg(back->width())
                                .arg(back->height())
                                .arg(content.top())));
        QVERIFY(wizard.button(QWizard::NextButton)->geometry().top() > wizard.height() / 2);
        back->click();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Welcome));
        // A language chosen later keeps the style (the buttons' words are re-read by setting it again).
        auto language = wizard.findChild<QComboBox *>(QStringLiteral("languageCombo"));
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QTRY_VERIFY(wizard.currentPage()->title().contains(QStringLiteral("欢迎")));
        QCOMPARE(wizard.wizardStyle(), QWizard::AeroStyle);
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
        wizard.next(); // "What is cuDNN for?": not sure, the default, goes on to the match
        QTRY_VERIFY_WITH_TIMEOUT(wizard.currentPage()->isComplete(), 60000);
        wizard.next();
        auto page = qobject_cast<MatchPage *>(wizard.currentPage());
        QVERIFY(page);
        QCOMPARE(page->findChild<QLabel *>(QStringLiteral("driverCudaValue"))->text(),
                 QStringLiteral("13.1"));
        QCOMPARE(page->findChild<QLabel *>(QStringLiteral("archiveCudaValue"))->text(),
                 QStringLiteral("13.x"));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("recommendationLabel"))
                    ->text()
                    .contains(QStringLiteral("cudnn-windows-x86_64-")));
        // CUDA 13 has no published Windows driver minimum: said, not hidden.
        QTRY_VERIFY(page->findChild<QLabel *>(QStringLiteral("match.driver-minimum-unknown"))->isVisible());
        QVERIFY(page->isComplete());
        QTest::qWait(200);
        const QString dir = QDir::currentPath() + QStringLiteral("/screenshots");
        QVERIFY(wizard.grab(wizardpagetests::shownArea(&wizard))
                    .save(dir + QStringLiteral("/windows-match-en.png")));
    }

    void installPathOnALaptop_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    // A student's laptop walked from Welcome to Finish: a real install into the CUDA toolkit, its
    // verification in a fresh process (passed, on the stand-in GPU), the summary; then a later start
    // that lists what Uninstall removes and removes it.
    void installPathOnALaptop()
    {
        if (QGuiApplication::platformName() != QLatin1String("windows"))
            QSKIP("needs the windows platform plugin and a display (xvfb-run under Wine)");
        QFETCH(QString, language);
        using namespace wizardpagetests;
        WineLaptop laptop;
        QVERIFY2(laptop.problem.isEmpty(), qPrintable(laptop.problem));
        Flow flow(laptop.session, language);
        QVERIFY(QTest::qWaitForWindowExposed(flow.wizard.get()));
        const auto shoot = [&] {
            settle();
            QTest::qWait(100);
            const QHash<int, QString> names{{SetupWizard::Page_Welcome, QStringLiteral("1-welcome")},
                                            {SetupWizard::Page_Hardware, QStringLiteral("2-hardware")},
                                            {SetupWizard::Page_Purpose, QStringLiteral("3-purpose")},
                                            {SetupWizard::Page_Match, QStringLiteral("4-match")},
                                            {SetupWizard::Page_Archive, QStringLiteral("5-archive")},
                                            {SetupWizard::Page_Target, QStringLiteral("6-target")},
                                            {SetupWizard::Page_Install, QStringLiteral("7-install")},
                                            {SetupWizard::Page_Verify, QStringLiteral("8-verify")},
                                            {SetupWizard::Page_Finish, QStringLiteral("9-finish")}};
            QString name = names.value(flow.wizard->currentId());
            if (auto install = flow.page<InstallPage>())
                name += install->isInstalled() ? QStringLiteral("-done") : QStringLiteral("-ready");
            saveScreenshot(flow.wizard.get(), QStringLiteral("windows-%1-%2.png").arg(name, language));
        };
        QVERIFY(installThroughWizard(flow, shoot));
        QVERIFY(flow.next());
        auto verify = flow.page<VerifyPage>();
        QVERIFY(verify);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isVerifying(), kWorkTimeoutMs);
        // The picture of Verify is one of a verification that passed, cuDNN working on the GPU.
        const VerifyReport &report = laptop.session.verifyReport();
        QVERIFY2(report.passed() && report.ranOnGpu(), QJsonDocument(report.toJson()).toJson().constData());
        QVERIFY(QDir::toNativeSeparators(report.loadedFrom())
                    .startsWith(QLatin1String(Workstation::kToolkit), Qt::CaseInsensitive));
        shoot();
        QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Finish));
        QVERIFY(flow.find<QPushButton>(QStringLiteral("openLogButton"))->isEnabled());
        shoot();

        // A new start offers to uninstall it: the list of what goes, above the Uninstall button,
        // which then takes it back (and C: with it).
        Flow uninstalling(laptop.session, language);
        QVERIFY(QTest::qWaitForWindowExposed(uninstalling.wizard.get()));
        uninstalling.chooseTask(QStringLiteral("uninstallTaskRadio"));
        QVERIFY(uninstalling.next());
        QCOMPARE(uninstalling.wizard->currentId(), int(SetupWizard::Page_Uninstall));
        QVERIFY(uninstalling.find<QLabel>(QStringLiteral("uninstallPreview"))->isVisible());
        settle();
        QTest::qWait(100);
        saveScreenshot(uninstalling.wizard.get(),
                       QStringLiteral("windows-10-uninstall-%1.png").arg(language));
        uninstalling.wizard->button(QWizard::CommitButton)->click();
        QTRY_COMPARE_WITH_TIMEOUT(uninstalling.wizard->currentId(), int(SetupWizard::Page_Finish),
                                  kWorkTimeoutMs);
        QVERIFY(!QFileInfo::exists(QLatin1String(Workstation::kToolkit) +
                                   QStringLiteral("\\bin\\cudnn64_9.dll")));
        Translations::install(QStringLiteral("en"));
    }

    void repairPathOnALaptop_data() { installPathOnALaptop_data(); }
    // The Repair path of the same laptop (its tree in a sandbox, its stored environment in memory):
    // its old cuDNN 8.9 (NVIDIA's DLL, which says its version) is on the user PATH one folder too
    // high. The diagnosis with the repair ticked and exactly what it changes, the repair made, the
    // summary.
    void repairPathOnALaptop()
    {
        if (QGuiApplication::platformName() != QLatin1String("windows"))
            QSKIP("needs the windows platform plugin and a display (xvfb-run under Wine)");
        QFETCH(QString, language);
        using namespace wizardpagetests;
        const QString oldRoot = QString::fromLatin1(Workstation::kOldCudnn).section(QLatin1Char('\\'), 0, -2);
        const QString machinePath = QStringLiteral("C:\\Windows\\system32;C:\\Windows;") +
                                    QLatin1String(Workstation::kToolkit) + QStringLiteral("\\bin");
        const QString userPath =
            oldRoot + QStringLiteral(";%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps");
        // Started after the PATH it finds stored, as from the Start menu: nothing to restart for.
        const QByteArray startPath = qgetenv("PATH");
        const auto restorePath = qScopeGuard([&] { qputenv("PATH", startPath); });
        qputenv("PATH", QString(machinePath + QLatin1Char(';') + userPath)
                            .replace(QStringLiteral("%USERPROFILE%"), QStringLiteral("C:\\Users\\lab"))
                            .toLocal8Bit());
        Workstation machine;
        const QString oldDll =
            machine.hostPath(QLatin1String(Workstation::kOldCudnn) + QStringLiteral("\\cudnn64_8.dll"));
        QVERIFY(QFile::remove(oldDll));
        // All of NVIDIA's cuDNN 8.9 set, with the zlibwapi.dll it needs beside it.
        for (const QString &family : {QStringLiteral("cudnn-8.9.7.29"), QStringLiteral("zlib-1.2.3")}) {
            const QDir from(BuildPaths::standins() + QLatin1Char('/') + family);
            for (const QString &dll : from.entryList({QStringLiteral("*.dll")}, QDir::Files))
                QVERIFY(QFile::copy(from.filePath(dll), QFileInfo(oldDll).dir().filePath(dll)));
        }
        auto environment = std::make_shared<MemoryEnvironment>();
        environment->set(EnvironmentScope::User, QStringLiteral("PATH"), {userPath, true});
        environment->set(EnvironmentScope::System, QStringLiteral("PATH"), {machinePath, true});
        machine.session.setPersistentEnvironment(environment);
        machine.session.setSnapshot(WineLaptop::studentLaptop(machine.snapshot));
        Flow flow(machine, language);
        QVERIFY(QTest::qWaitForWindowExposed(flow.wizard.get()));
        const auto shoot = [&](const QString &name) {
            settle();
            QTest::qWait(100);
            saveScreenshot(flow.wizard.get(), QStringLiteral("windows-%1-%2.png").arg(name, language));
        };
        flow.chooseTask(QStringLiteral("repairTaskRadio"));
        QVERIFY(flow.next());
        QVERIFY(flow.next());
        auto repair = flow.page<RepairPage>();
        QVERIFY(repair);
        QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
        QVERIFY(!repair->selectedRepairs().isEmpty());
        shoot(QStringLiteral("11-repair"));
        flow.find<QAbstractButton>(QStringLiteral("applyButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
        QVERIFY(environment->value(EnvironmentScope::User, QStringLiteral("PATH"))
                    ->text.contains(QLatin1String(Workstation::kOldCudnn)));
        shoot(QStringLiteral("12-repaired"));
        QVERIFY(flow.next());
        QCOMPARE(flow.wizard->currentId(), int(SetupWizard::Page_Finish));
        shoot(QStringLiteral("13-repair-finish"));
        Translations::install(QStringLiteral("en"));
    }
};

CUDNNSETUP_TEST_MAIN(TestWinScreenshot)
#include "tst_win_screenshot.moc"
