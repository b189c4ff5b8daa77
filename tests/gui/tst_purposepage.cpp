// The "What is cuDNN for?" page on the H200 machine recorded with the device (its PyTorch venv):
// PyTorch needs no system-wide cuDNN and gets its pip line, own C++ goes on to the install, and a
// program's folder is read for what it needs; one that needs cuDNN 8 gets it beside it.
#include "CudnnArchiveLists.h"
#include "ElfImage.h"
#include "InstallPage.h"
#include "PeImage.h"
#include "PurposePage.h"
#include "Sandbox.h"
#include "SetupWizard.h"
#include "Suite.h"
#include "TargetPage.h"
#include "WizardPageTests.h"
#include "archive/ArchiveInspector.h"
#include "common/Translations.h"
#include "session/SetupSession.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using namespace wizardpagetests;

class TestPurposePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    // Not sure, with torch found: the PyTorch answer, its pip line to copy, and Finish offered
    // beside Next. In Chinese too.
    void pytorchFoundNeedsNoSystemCudnn()
    {
        Translations::install(QStringLiteral("en"));
        SetupSession session(SystemContext::running());
        session.setSnapshot(recordedH200WithConsumers());
        QVERIFY(!session.snapshot().consumers.isEmpty());
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        auto page = openPage<PurposePage>(wizard, SetupWizard::Page_Purpose);
        QVERIFY(page);
        QVERIFY(page->findChild<QRadioButton *>(QStringLiteral("notSureRadio"))->isChecked());
        QCOMPARE(page->advice().purpose, Purpose::PyTorch);
        QVERIFY(!page->advice().systemCudnnNeeded);
        QVERIFY(wizard.button(QWizard::FinishButton)->isVisible());
        QVERIFY(wizard.button(QWizard::NextButton)->isVisible());
        QCOMPARE(labelText(page, QStringLiteral("adviceHeadline")),
                 QStringLiteral("PyTorch brings its own cuDNN: no system-wide cuDNN is needed."));
        auto command = page->findChild<QLineEdit *>(QStringLiteral("adviceCommand"));
        QVERIFY(command->isVisible());
        QVERIFY2(command->text().startsWith(QStringLiteral("pip install torch --index-url "
                                                           "https://download.pytorch.org/whl/cu")),
                 qPrintable(command->text()));
        QCOMPARE(command->text(), page->advice().command);
        page->findChild<QPushButton *>(QStringLiteral("copyCommandButton"))->click();
        QCOMPARE(QApplication::clipboard()->text(), command->text());
        QVERIFY(page->findChild<QComboBox *>(QStringLiteral("programFolderCombo"))
                    ->findText(QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages")) >= 0);
        saveScreenshot(&wizard, QStringLiteral("purpose-en.png"));

        Translations::install(QStringLiteral("zh_CN"));
        QTRY_VERIFY(page->title() != QLatin1String("What is cuDNN for?"));
        QCOMPARE(labelText(page, QStringLiteral("adviceHeadline")),
                 QStringLiteral("PyTorch 自带 cuDNN：不需要安装系统级的 cuDNN。"));
        QCOMPARE(command->text(), page->advice().command);
        saveScreenshot(&wizard, QStringLiteral("purpose-zh_CN.png"));
    }

    // Own C++: no Finish here, CMake's variables for the toolkit, and Next goes on to What fits.
    void ownCodeGoesOnToTheInstall()
    {
        SetupSession session(SystemContext::running());
        session.setSnapshot(recordedH200WithConsumers());
        SetupWizard wizard(&session);
        auto page = openPage<PurposePage>(wizard, SetupWizard::Page_Purpose);
        QVERIFY(page);
        page->findChild<QRadioButton *>(QStringLiteral("ownCodeRadio"))->click();
        QVERIFY(page->advice().systemCudnnNeeded);
        QVERIFY(!wizard.button(QWizard::FinishButton)->isVisible());
        const QString command = page->findChild<QLineEdit *>(QStringLiteral("adviceCommand"))->text();
        QVERIFY2(command.contains(QStringLiteral("-DCUDNN_INCLUDE_DIR=")) &&
                     command.contains(QStringLiteral("-DCUDNN_LIBRARY=")),
                 qPrintable(command));
        QVERIFY(!page->findChild<QWidget *>(QStringLiteral("finishHint"))->isVisible());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Match));
    }

    // TensorFlow on native Windows, installed or not: WSL 2, nothing to install on Windows; the
    // own-C++ answer there names the toolkit's folders the Windows way.
    void tensorflowOnWindowsGoesToWsl()
    {
        SetupSession session(SystemContext::running());
        session.setSnapshot(windowsH200({QStringLiteral("12.9.1")}));
        SetupWizard wizard(&session);
        wizard.resize(820, 660);
        auto page = openPage<PurposePage>(wizard, SetupWizard::Page_Purpose);
        QVERIFY(page);
        QVERIFY(page->advice().systemCudnnNeeded); // nothing found: the install path is open
        QVERIFY(!wizard.button(QWizard::FinishButton)->isVisible());
        page->findChild<QRadioButton *>(QStringLiteral("tensorflowRadio"))->click();
        QCOMPARE(page->advice().purpose, Purpose::TensorFlow);
        QVERIFY(!page->advice().systemCudnnNeeded);
        QVERIFY(wizard.button(QWizard::FinishButton)->isVisible());
        QCOMPARE(page->findChild<QLineEdit *>(QStringLiteral("adviceCommand"))->text(),
                 QStringLiteral("wsl --install"));
        QVERIFY(page->findChild<QWidget *>(QStringLiteral("finishHint"))->isVisible());
        saveScreenshot(&wizard, QStringLiteral("purpose-tensorflow-windows-en.png"));

        page->findChild<QRadioButton *>(QStringLiteral("ownCodeRadio"))->click();
        QCOMPARE(
            page->findChild<QLineEdit *>(QStringLiteral("adviceCommand"))->text(),
            QStringLiteral("cmake -DCUDNN_INCLUDE_DIR=\"C:\\Program Files\\NVIDIA GPU Computing "
                           "Toolkit\\CUDA\\v12.9\\include\" -DCUDNN_LIBRARY=\"C:\\Program "
                           "Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.9\\lib\\x64\\cudnn.lib\" .."));
        QVERIFY(!wizard.button(QWizard::FinishButton)->isVisible());
    }

    // A program's folder, read off the GUI thread: its library wants cuDNN 8, which it does not
    // reach; that verdict and its fix are the answer.
    void programFolderIsRead()
    {
        Sandbox sandbox;
        // The running system's own kind of library: the folder is read as this system's.
#ifdef Q_OS_WIN
        const QString libraryName = QStringLiteral("speech.dll");
        peimage::ImageSpec spec;
        spec.imports = {QByteArrayLiteral("cudnn64_8.dll"), QByteArrayLiteral("cudart64_12.dll")};
        sandbox.write(QStringLiteral("/speechapp/speech.dll"), peimage::buildImage(spec).bytes);
#else
        const QString libraryName = QStringLiteral("libspeech.so");
        elfimage::SharedObject library;
        library.soname = libraryName;
        library.needed = {QStringLiteral("libcudnn.so.8"), QStringLiteral("libcudart.so.12")};
        sandbox.write(QStringLiteral("/speechapp/libspeech.so"), elfimage::build(library));
#endif
        const QString folder = sandbox.hostPath(QStringLiteral("/speechapp"));

        SetupSession session(SystemContext::running());
        session.setSnapshot(recordedH200WithConsumers());
        SetupWizard wizard(&session);
        auto page = openPage<PurposePage>(wizard, SetupWizard::Page_Purpose);
        QVERIFY(page);
        page->scanProgramFolder(folder);
        QVERIFY(page->findChild<QRadioButton *>(QStringLiteral("programRadio"))->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isScanning(), 10000);
        QVERIFY(page->isComplete());
        QCOMPARE(page->advice().purpose, Purpose::Program);
        QCOMPARE(page->advice().consumers.size(), 1);
        const JudgedConsumer &speech = page->advice().consumers.first();
        QCOMPARE(speech.consumer.name, libraryName);
        QCOMPARE(speech.verdict.findsCudnn, ConsumerVerdict::FindsCudnn::No);
        QCOMPARE(labelText(page, QStringLiteral("adviceHeadline")), speech.verdict.summary.toString());
        QCOMPARE(labelText(page, QStringLiteral("adviceExplanation")), speech.verdict.fix.toString());
        QCOMPARE(page->findChild<QComboBox *>(QStringLiteral("programFolderCombo"))->currentText(), folder);
    }

    // Issue 32: a program that needs cuDNN 8 for CUDA 12 and finds none, picked from the folders
    // found. Its answer carries through: What fits recommends cuDNN 8's archive for CUDA 12 (not
    // the machine's cuDNN 9), and Where cuDNN goes offers and chooses "Only for this program", its
    // folder, with no PATH change.
    void programLeadsToItsOwnFolder()
    {
        Workstation machine;
        const QString folder = QStringLiteral("C:\\Apps\\whisper");
        machine.sandbox.write(folder + QStringLiteral("\\ctranslate2.dll"), "MZ");
        ConsumerInfo speech;
        speech.name = QStringLiteral("ctranslate2");
        speech.version = QStringLiteral("4.4.0");
        speech.location = folder;
        speech.files = {folder + QStringLiteral("\\ctranslate2.dll")};
        speech.cudnnImporters = speech.files;
        speech.cudnnMajor = 8;
        speech.cublasMajor = 12;
        speech.cudaMajor = 12;
        speech.sass = {QStringLiteral("sm_90")};
        speech.resolves = {{QStringLiteral("cudnn64_8.dll"), std::nullopt}};
        SystemSnapshot snapshot = machine.snapshot;
        snapshot.consumers = {speech};
        machine.session.setSnapshot(snapshot);

        SetupWizard wizard(&machine.session);
        wizard.resize(820, 700);
        auto purpose = openPage<PurposePage>(wizard, SetupWizard::Page_Purpose);
        QVERIFY(purpose);
        auto folders = purpose->findChild<QComboBox *>(QStringLiteral("programFolderCombo"));
        QVERIFY(folders->findText(folder) >= 0);
        folders->setCurrentIndex(folders->findText(folder));
        purpose->findChild<QRadioButton *>(QStringLiteral("programRadio"))->click();
        QCOMPARE(purpose->advice().purpose, Purpose::Program);
        QVERIFY2(purpose->advice().beside, qPrintable(purpose->advice().headline.toString()));
        QCOMPARE(purpose->advice().beside->cudnnMajor, 8);
        QCOMPARE(purpose->advice().beside->cudaMajor, 12);

        // What fits: cuDNN 8's archive for CUDA 12, as the program needs, with NVIDIA's checksum.
        QVERIFY(wizard.validateCurrentPage());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(SetupWizard::Page_Match));
        QVERIFY(machine.session.program());
        const QString recommended = QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip");
        QVERIFY(machine.session.match().recommendation);
        QCOMPARE(machine.session.match().recommendation->archiveFile, recommended);
        QVERIFY(!machine.session.match().recommendation->sha256.isEmpty());
        const QString shown = labelText(wizard.currentPage(), QStringLiteral("recommendationLabel"));
        QVERIFY2(shown.contains(recommended) && shown.contains(folder), qPrintable(shown));
        saveScreenshot(&wizard, QStringLiteral("match-for-program-en.png"));

        // The user brings that archive (a test-made stand-in for NVIDIA's file).
        const QTemporaryDir made;
        const QString archive = made.filePath(recommended);
        QFile file(archive);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12")));
        file.close();
        machine.session.setDatabase(
            DatabaseChoice{archives::databaseKnowing({archive}), QStringLiteral("embedded"), Findings()});
        InspectOptions options;
        options.verifyData = false;
        const auto report =
            inspectArchive(archive, machine.session.database().database.publishedArchives(), options);
        QVERIFY(report && report->verdict == ArchiveReport::Verdict::Ok);
        machine.session.setArchive(*report);

        // Where cuDNN goes: "Only for this program", chosen, its folder, no PATH change.
        auto target = openPage<TargetPage>(wizard, SetupWizard::Page_Target);
        QVERIFY(target);
        auto app = target->findChild<QRadioButton *>(QStringLiteral("target-app-0"));
        QVERIFY(app);
        QVERIFY(app->isChecked());
        QVERIFY2(app->text().startsWith(QStringLiteral("Only for this program (ctranslate2)")),
                 qPrintable(app->text()));
        QVERIFY(!app->toolTip().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(target->isComplete(), 10000);
        QVERIFY(machine.session.hasTarget());
        const InstallTarget &chosen = machine.session.target();
        QCOMPARE(chosen.kind, InstallTarget::Kind::App);
        QCOMPARE(chosen.root, folder);
        QCOMPARE(chosen.pathScope, PathScope::None);
        saveScreenshot(&wizard, QStringLiteral("target-for-program-en.png"));

        // Install: the libraries beside the program, a receipt, PATH untouched.
        wizard.next();
        auto install = qobject_cast<InstallPage *>(wizard.currentPage());
        QVERIFY(install);
        wizard.button(QWizard::CommitButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!install->isInstalling(), 60000);
        const ChangeOutcome &outcome = machine.session.installOutcome();
        QCOMPARE(outcome.status, ChangeOutcome::Status::Done);
        QVERIFY(QFileInfo::exists(machine.hostPath(folder + QStringLiteral("\\cudnn64_8.dll"))));
        QVERIFY(outcome.receipt);
        QVERIFY(QFileInfo::exists(outcome.receiptPath));
        QVERIFY(outcome.receipt->target);
        QCOMPARE(outcome.receipt->target->kind, InstallTarget::Kind::App);
    }
};

CUDNNSETUP_TEST_MAIN(TestPurposePage)
#include "tst_purposepage.moc"
