// What the wizard answers once it knows what cuDNN is for: PyTorch and TensorFlow on Windows need
// no system-wide cuDNN, a program gets its own verdict and fix, own C++ gets CMake's variables, and
// "not sure" follows the programs found.
#include "Suite.h"
#include "common/Surface.h"
#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"
#include "compat/PurposeAdvice.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kGtx1080 = QStringLiteral("NVIDIA GeForce GTX 1080"); // Pascal, 6.1
const QString kRtx3060 = QStringLiteral("NVIDIA GeForce RTX 3060"); // Ampere, 8.6

MatchFacts machine(OsFamily os, const QString &gpu)
{
    MatchFacts facts;
    facts.os = os;
    facts.driver = Version::parse(QStringLiteral("566.36"));
    facts.driverMaxCuda = Version::parse(QStringLiteral("12.7"));
    facts.gpus.append({gpu, Version()});
    return facts;
}

// torch 2.8 with GPU code from sm_70 up, finding its cuDNN 9 in the nvidia wheel.
ConsumerInfo torchWith(const QStringList &sass)
{
    ConsumerInfo torch;
    torch.name = QStringLiteral("torch");
    torch.version = QStringLiteral("2.8.0");
    torch.location = QStringLiteral("C:\\venv\\Lib\\site-packages");
    torch.files = {torch.location + QStringLiteral("\\torch\\lib\\torch_cuda.dll")};
    torch.cudnnMajor = 9;
    torch.cudaMajor = 12;
    torch.sass = sass;
    torch.resolves = {{QStringLiteral("cudnn64_9.dll"),
                       ResolvedLibrary{torch.location + QStringLiteral("\\torch\\lib\\cudnn64_9.dll"),
                                       QStringLiteral("9.10.2")}}};
    return torch;
}

// A speech app whose CTranslate2 needs cuDNN 8 and reaches none.
ConsumerInfo ctranslate2App()
{
    ConsumerInfo app;
    app.name = QStringLiteral("ctranslate2.dll");
    app.location = QStringLiteral("C:\\Apps\\Whisper");
    app.files = {app.location + QStringLiteral("\\ctranslate2.dll")};
    app.cudnnMajor = 8;
    app.cudaMajor = 12;
    app.sass = {QStringLiteral("sm_80"), QStringLiteral("sm_86")};
    app.resolves = {{QStringLiteral("cudnn64_8.dll"), std::nullopt}};
    return app;
}

ConsumerInfo tensorflow(const QString &version)
{
    ConsumerInfo tf;
    tf.name = QStringLiteral("tensorflow");
    tf.version = version;
    tf.location = QStringLiteral("C:\\venv\\Lib\\site-packages");
    tf.cudaMajor = 12;
    tf.sass = {QStringLiteral("sm_86")};
    return tf;
}

const QStringList kModernSass{QStringLiteral("sm_70"), QStringLiteral("sm_75"), QStringLiteral("sm_80"),
                              QStringLiteral("sm_86"), QStringLiteral("sm_90")};

} // namespace

class TestPurposeAdvice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // PyTorch not installed yet: no system cuDNN, and the install line for this GPU and driver.
    void pytorchBeforeTorchIsInstalled()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts pascal = machine(OsFamily::Windows, kGtx1080);
        const PurposeAdvice advice = advisePurpose(Purpose::PyTorch, {}, pascal, kb);
        QCOMPARE(advice.purpose, Purpose::PyTorch);
        QVERIFY(!advice.systemCudnnNeeded);
        QVERIFY(advice.consumers.isEmpty());
        QCOMPARE(advice.command, judgeFor(QStringLiteral("torch"), {}, pascal, kb)->first().verdict.command);
        QVERIFY2(advice.command.startsWith(QStringLiteral("pip install torch --index-url https://")),
                 qPrintable(advice.command));
        QVERIFY(advice.headline.toString().contains(QStringLiteral("no system-wide cuDNN")));
    }

    // Installed and fine: nothing to do, and still the line for another environment. Installed
    // without code for this GPU: the verdict's reinstall from the right index.
    void pytorchInstalled()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts ampere = machine(OsFamily::Windows, kRtx3060);
        const PurposeAdvice fine = advisePurpose(Purpose::PyTorch, {torchWith(kModernSass)}, ampere, kb);
        QVERIFY(!fine.systemCudnnNeeded);
        QCOMPARE(fine.consumers.size(), 1);
        QVERIFY(fine.consumers.first().verdict.fine());
        QVERIFY(!fine.command.isEmpty());
        QCOMPARE(fine.command, judgeFor(QStringLiteral("torch"), {}, ampere, kb)->first().verdict.command);
        QVERIFY(fine.explanation.toString().contains(QStringLiteral("nothing to do")));

        const MatchFacts pascal = machine(OsFamily::Windows, kGtx1080);
        const PurposeAdvice wrongBuild =
            advisePurpose(Purpose::PyTorch, {torchWith(kModernSass)}, pascal, kb);
        QVERIFY(!wrongBuild.systemCudnnNeeded);
        QCOMPARE(wrongBuild.consumers.first().verdict.fixKind, QStringLiteral("torch-index"));
        QVERIFY2(wrongBuild.command.startsWith(QStringLiteral("pip install --force-reinstall torch")),
                 qPrintable(wrongBuild.command));
        QCOMPARE(wrongBuild.command, wrongBuild.consumers.first().verdict.command);
    }

    // TensorFlow after 2.10 on native Windows: WSL 2, installed or not; no cuDNN on Windows helps.
    // On Linux, one not installed yet leaves the install path open.
    void tensorflow()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts windows = machine(OsFamily::Windows, kRtx3060);
        for (const QList<ConsumerInfo> &consumers :
             {QList<ConsumerInfo>{}, QList<ConsumerInfo>{::tensorflow(QStringLiteral("2.15.1"))}}) {
            const PurposeAdvice advice = advisePurpose(Purpose::TensorFlow, consumers, windows, kb);
            QCOMPARE(advice.purpose, Purpose::TensorFlow);
            QVERIFY(!advice.systemCudnnNeeded);
            QCOMPARE(advice.command, QStringLiteral("wsl --install"));
        }
        const PurposeAdvice linux =
            advisePurpose(Purpose::TensorFlow, {}, machine(OsFamily::Linux, kRtx3060), kb);
        QVERIFY(linux.systemCudnnNeeded);
        QVERIFY(linux.command.isEmpty());
    }

    // A program: what it needs and its one fix; cuDNN 8 beside it keeps the install path open. Its
    // folder picks it out of everything found.
    void programGetsItsVerdictAndFix()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts ampere = machine(OsFamily::Windows, kRtx3060);
        const QList<ConsumerInfo> consumers{torchWith(kModernSass), ctranslate2App()};
        const PurposeAdvice advice =
            advisePurpose(Purpose::Program, consumers, ampere, kb, QStringLiteral("c:\\apps\\whisper"));
        QCOMPARE(advice.purpose, Purpose::Program);
        QCOMPARE(advice.consumers.size(), 1);
        QCOMPARE(advice.consumers.first().consumer.name, QStringLiteral("ctranslate2.dll"));
        QCOMPARE(advice.consumers.first().verdict.fixKind, QStringLiteral("cudnn-beside"));
        QVERIFY(advice.systemCudnnNeeded);
        QCOMPARE(advice.command, advice.consumers.first().verdict.command);
        QVERIFY(advice.command.startsWith(QStringLiteral("cudnnctl download")));
        QCOMPARE(advice.explanation.toString(), advice.consumers.first().verdict.fix.toString());
        // In the wizard its own pages download: no cudnnctl command to paste, the fix in words stays.
        setSurface(Surface::Wizard);
        const PurposeAdvice inWizard =
            advisePurpose(Purpose::Program, consumers, ampere, kb, QStringLiteral("C:\\Apps\\Whisper"));
        setSurface(Surface::CommandLine);
        QVERIFY(inWizard.command.isEmpty());
        QCOMPARE(inWizard.explanation.toString(), advice.explanation.toString());

        const PurposeAdvice torchFolder = advisePurpose(Purpose::Program, consumers, ampere, kb,
                                                        QStringLiteral("C:\\venv\\Lib\\site-packages"));
        QVERIFY(!torchFolder.systemCudnnNeeded);
        QVERIFY(torchFolder.command.isEmpty());
        QVERIFY(advisePurpose(Purpose::Program, consumers, ampere, kb).consumers.isEmpty());
        QCOMPARE(consumerFolders(consumers), (QStringList{QStringLiteral("C:\\venv\\Lib\\site-packages"),
                                                          QStringLiteral("C:\\Apps\\Whisper")}));
    }

    // Own C++: the install goes on, with CMake's variables for the toolkit the match chose, or for
    // a folder of the user's own where there is none.
    void ownCodeGetsCmakeVariables()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        MatchFacts linux = machine(OsFamily::Linux, kRtx3060);
        const PurposeAdvice withoutToolkit = advisePurpose(Purpose::OwnCode, {}, linux, kb);
        QVERIFY(withoutToolkit.systemCudnnNeeded);
        QCOMPARE(withoutToolkit.command,
                 QStringLiteral("cmake -DCUDNN_INCLUDE_DIR=\"/path/to/cudnn/include\" "
                                "-DCUDNN_LIBRARY=\"/path/to/cudnn/lib/libcudnn.so\" .."));
        linux.toolkits = {{Version::parse(QStringLiteral("12.6.3")), QStringLiteral("/usr/local/cuda-12.6")}};
        const MatchResult chosen = match(linux, kb);
        QVERIFY(chosen.recommendation && chosen.recommendation->targetToolkit);
        QCOMPARE(advisePurpose(Purpose::OwnCode, {}, linux, kb).command,
                 QStringLiteral("cmake -DCUDNN_INCLUDE_DIR=\"/usr/local/cuda-12.6/include\" "
                                "-DCUDNN_LIBRARY=\"/usr/local/cuda-12.6/lib64/libcudnn.so\" .."));
        const PurposeAdvice windows =
            advisePurpose(Purpose::OwnCode, {}, machine(OsFamily::Windows, kRtx3060), kb);
        QVERIFY(windows.command.contains(QStringLiteral("\\lib\\x64\\cudnn.lib")));
    }

    // Not sure: nothing found keeps the install path; a torch that is fine answers as PyTorch; a
    // program that needs something decides before it; TensorFlow on Windows answers as WSL 2.
    void notSureFollowsWhatWasFound()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts ampere = machine(OsFamily::Windows, kRtx3060);
        const PurposeAdvice nothing = advisePurpose(Purpose::NotSure, {}, ampere, kb);
        QCOMPARE(nothing.purpose, Purpose::NotSure);
        QVERIFY(nothing.systemCudnnNeeded);

        const PurposeAdvice torch = advisePurpose(Purpose::NotSure, {torchWith(kModernSass)}, ampere, kb);
        QCOMPARE(torch.purpose, Purpose::PyTorch);
        QVERIFY(!torch.systemCudnnNeeded);

        const PurposeAdvice program =
            advisePurpose(Purpose::NotSure, {torchWith(kModernSass), ctranslate2App()}, ampere, kb);
        QCOMPARE(program.purpose, Purpose::Program);
        QVERIFY(program.systemCudnnNeeded);
        QCOMPARE(program.consumers.size(), 2);
        QCOMPARE(program.command, program.consumers.last().verdict.command);

        const PurposeAdvice tf =
            advisePurpose(Purpose::NotSure, {::tensorflow(QStringLiteral("2.15.1"))}, ampere, kb);
        QCOMPARE(tf.purpose, Purpose::TensorFlow);
        QCOMPARE(tf.command, QStringLiteral("wsl --install"));

        const PurposeAdvice pascalTorch = advisePurpose(Purpose::NotSure, {torchWith(kModernSass)},
                                                        machine(OsFamily::Windows, kGtx1080), kb);
        QCOMPARE(pascalTorch.purpose, Purpose::PyTorch);
        QVERIFY(pascalTorch.command.contains(QStringLiteral("--force-reinstall")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestPurposeAdvice)
#include "tst_purposeadvice.moc"
