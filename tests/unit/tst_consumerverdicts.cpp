// The verdict on each program that uses cuDNN (can it run on this GPU, does it find the cuDNN it
// needs) and its one fix, for a Pascal, a Turing, an Ampere and a Blackwell GPU.
#include "ElfImage.h"
#include "FatbinImage.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"
#include "detect/Consumers.h"
#include "platform/SystemContext.h"

#include <QJsonObject>
#include <QTest>

using namespace cudnnsetup;

namespace {

using fatbinimage::Entry;

const QString kGtx1080 = QStringLiteral("NVIDIA GeForce GTX 1080");        // Pascal, 6.1
const QString kRtx2080 = QStringLiteral("NVIDIA GeForce RTX 2080");        // Turing, 7.5
const QString kRtx3060 = QStringLiteral("NVIDIA GeForce RTX 3060");        // Ampere, 8.6
const QString kRtx5070 = QStringLiteral("NVIDIA GeForce RTX 5070");        // Blackwell, 12.0
const QString kUnknownGpu = QStringLiteral("NVIDIA Future Accelerator 9"); // in no table

// A machine with one GPU (its capability looked up by name) and a driver that reports `driverCuda`.
MatchFacts machine(OsFamily os, const QString &gpu, const QString &driver, const QString &driverCuda)
{
    MatchFacts facts;
    facts.os = os;
    facts.driver = Version::parse(driver);
    facts.driverMaxCuda = Version::parse(driverCuda);
    facts.gpus.append({gpu, Version()});
    return facts;
}

SystemContext consumerContext(const Sandbox &sandbox, OsFamily family)
{
    const auto registry = Registry::unavailable();
    return SystemContext(FileSystem(family, sandbox.root()), EnvironmentStore(family, {}, registry), registry,
                         std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

QByteArray fatbin(const QList<int> &sass, const QList<int> &ptx, int isaMajor, int isaMinor)
{
    QList<Entry> entries;
    for (int arch : sass) {
        Entry entry;
        entry.arch = arch;
        entries.append(entry);
    }
    for (int arch : ptx) {
        Entry entry;
        entry.kind = Entry::Ptx;
        entry.arch = arch;
        entry.isaMajor = isaMajor;
        entry.isaMinor = isaMinor;
        entries.append(entry);
    }
    return fatbinimage::container(entries);
}

void writeWheel(const Sandbox &sandbox, const QString &site, const QString &distInfo,
                const QStringList &files)
{
    QByteArray record;
    for (const QString &file : files)
        record += file.toUtf8() + ",sha256=abc,1234\n";
    sandbox.write(site + QLatin1Char('/') + distInfo + QStringLiteral("/RECORD"), record);
}

// A venv whose torch wheel carries `sass` and `ptx` (of PTX ISA `isa`) in libtorch_cuda.so and finds
// its cuDNN 9 in the nvidia wheel through RUNPATH, as PyTorch's Linux wheels do.
ConsumerInfo torchFromFiles(const QString &version, const QList<int> &sass, const QList<int> &ptx,
                            int isaMajor, int isaMinor)
{
    Sandbox sandbox;
    const QString site = QStringLiteral("/home/ana/venv/lib/python3.12/site-packages");
    elfimage::SharedObject torchCuda;
    torchCuda.soname = QStringLiteral("libtorch_cuda.so");
    torchCuda.needed = {QStringLiteral("libcudnn.so.9"), QStringLiteral("libcudart.so.12")};
    torchCuda.runpath = {QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"),
                         QStringLiteral("$ORIGIN/../../nvidia/cuda_runtime/lib")};
    torchCuda.sections = {{".nv_fatbin", fatbin(sass, ptx, isaMajor, isaMinor)}};
    sandbox.write(site + QStringLiteral("/torch/lib/libtorch_cuda.so"), elfimage::build(torchCuda));
    writeWheel(sandbox, site, QStringLiteral("torch-%1.dist-info").arg(version),
               {QStringLiteral("torch/lib/libtorch_cuda.so")});
    elfimage::SharedObject cudnn;
    cudnn.soname = QStringLiteral("libcudnn.so.9");
    sandbox.write(site + QStringLiteral("/nvidia/cudnn/lib/libcudnn.so.9"), elfimage::build(cudnn));
    elfimage::SharedObject cudart;
    cudart.soname = QStringLiteral("libcudart.so.12");
    sandbox.write(site + QStringLiteral("/nvidia/cuda_runtime/lib/libcudart.so.12"), elfimage::build(cudart));

    PythonEnvironment venv;
    venv.interpreter = QStringLiteral("/home/ana/venv/bin/python");
    venv.prefix = QStringLiteral("/home/ana/venv");
    venv.sitePackages = {site};
    CudnnCopy copy;
    copy.version = QStringLiteral("9.10.2");
    copy.directory = site + QStringLiteral("/nvidia/cudnn/lib");
    copy.path = copy.directory + QStringLiteral("/libcudnn.so.9");
    copy.libraries = {QStringLiteral("libcudnn.so.9")};
    const QList<ConsumerInfo> consumers =
        findConsumers(consumerContext(sandbox, OsFamily::Linux), {venv}, {}, {copy});
    return consumers.value(0);
}

// A portable speech app on Windows: its CTranslate2 DLL links cuBLAS 12 and opens cudnn64_8.dll by
// name; beside it only cuDNN 9 (what torch brought along).
ConsumerInfo ctranslate2AppFromFiles(const QString &folder)
{
    Sandbox sandbox;
    peimage::ImageSpec spec;
    spec.imports = {"cublas64_12.dll", "KERNEL32.dll"};
    spec.rdataData = QByteArrayLiteral("cudnn64_8.dll\0cudnn_ops_infer64_8.dll\0");
    spec.sections = {{".nv_fatb", fatbin({70, 75, 80, 86}, {86}, 8, 0)}};
    sandbox.write(folder + QStringLiteral("\\ctranslate2.dll"), peimage::buildImage(spec).bytes);
    sandbox.write(folder + QStringLiteral("\\cublas64_12.dll"), peimage::x64Dll());
    sandbox.write(folder + QStringLiteral("\\cudnn64_9.dll"), peimage::x64Dll());
    const QList<ConsumerInfo> consumers =
        findConsumers(consumerContext(sandbox, OsFamily::Windows), {}, {folder}, {});
    for (const ConsumerInfo &consumer : consumers) {
        if (consumer.name == QLatin1String("ctranslate2.dll"))
            return consumer;
    }
    return {};
}

ConsumerInfo consumerWith(const QString &name, const QStringList &sass, const QStringList &ptx,
                          const QStringList &ptxIsa)
{
    ConsumerInfo consumer;
    consumer.name = name;
    consumer.version = QStringLiteral("1.0");
    consumer.location = QStringLiteral("/opt/app");
    consumer.files = {QStringLiteral("/opt/app/lib/libkernels.so")};
    consumer.cudaMajor = 12;
    consumer.sass = sass;
    consumer.ptx = ptx;
    consumer.ptxIsa = ptxIsa;
    return consumer;
}

} // namespace

class TestConsumerVerdicts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // PyTorch's support matrix and the PTX ISA table load from the database with their sources.
    void databaseKnowsTorchArchitecturesAndPtxIsa()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const TorchBuild *cu126 = nullptr;
        const TorchBuild *cu130 = nullptr;
        for (const TorchRelease &release : kb.torchReleases()) {
            for (const TorchBuild &build : release.builds) {
                if (release.torch != Version::parse(QStringLiteral("2.14")) || !build.architectures)
                    continue;
                if (build.cuda == Version::parse(QStringLiteral("12.6")))
                    cu126 = &build;
                if (build.cuda == Version::parse(QStringLiteral("13.0")))
                    cu130 = &build;
            }
        }
        QVERIFY(cu126 && cu130);
        QCOMPARE(cu126->toolkit, Version::parse(QStringLiteral("12.6.3")));
        QVERIFY(cu126->architectures->sass.contains(Version::parse(QStringLiteral("6.0"))));
        QVERIFY(cu126->architectures->ptx.isEmpty());
        QVERIFY(!cu130->architectures->sass.contains(Version::parse(QStringLiteral("7.0"))));
        QCOMPARE(cu130->architectures->ptx, QList<Version>{Version::parse(QStringLiteral("12.0"))});
        QCOMPARE(cu130->architectures->ptxOn, QStringList{QStringLiteral("linux")});
        QVERIFY(!cu130->architectures->sources.isEmpty());
        QCOMPARE(kb.cudaForPtxIsa(Version::parse(QStringLiteral("9.0"))),
                 Version::parse(QStringLiteral("13.0")));
        QCOMPARE(kb.cudaForPtxIsa(Version::parse(QStringLiteral("8.6"))),
                 Version::parse(QStringLiteral("12.7")));
        QVERIFY(!kb.cudaForPtxIsa(Version::parse(QStringLiteral("9.9"))).isValid());
        QCOMPARE(kb.jaxNativeWindowsGpu(), std::optional<bool>(false));
    }

    // Blackwell: a torch of sm_50..sm_90 with PTX for 9.0 runs on an RTX 5070 only when the driver
    // compiles that PTX's ISA; a driver of CUDA 12.8 cannot compile ISA 9.0 (CUDA 13.0): cu128.
    void blackwellRunsTorchPtxOnlyWithADriverThatKnowsIt()
    {
        const ConsumerInfo torch =
            torchFromFiles(QStringLiteral("2.6.0"), {50, 60, 70, 75, 80, 86, 90}, {90}, 9, 0);
        QCOMPARE(torch.name, QStringLiteral("torch"));
        QCOMPARE(torch.ptxIsa, QStringList{QStringLiteral("9.0")});

        const ConsumerVerdict old = judgeConsumer(
            torch, machine(OsFamily::Linux, kRtx5070, QStringLiteral("570.124.06"), QStringLiteral("12.8")),
            KnowledgeBase::embedded());
        QCOMPARE(old.runs, ConsumerVerdict::Runs::No);
        QCOMPARE(old.findsCudnn, ConsumerVerdict::FindsCudnn::Yes);
        QCOMPARE(old.fixKind, QStringLiteral("torch-index"));
        QCOMPARE(old.command, QStringLiteral("pip install --force-reinstall torch --index-url "
                                             "https://download.pytorch.org/whl/cu128"));
        QVERIFY2(old.summary.toString().contains(QStringLiteral("compute capability 12.0")),
                 qPrintable(old.summary.toString()));

        const ConsumerVerdict current = judgeConsumer(
            torch, machine(OsFamily::Linux, kRtx5070, QStringLiteral("580.65.06"), QStringLiteral("13.0")),
            KnowledgeBase::embedded());
        QCOMPARE(current.runs, ConsumerVerdict::Runs::Yes);
        QVERIFY(current.fine());
        QCOMPARE(current.fixKind, QStringLiteral("nothing"));
        QVERIFY(current.command.isEmpty());
    }

    // Pascal: torch's cu128 build carries nothing for sm_61; PyTorch's cu126 builds still carry
    // sm_60 code, which a 6.1 GPU runs.
    void pascalGetsTheCu126Index()
    {
        const ConsumerInfo torch =
            torchFromFiles(QStringLiteral("2.8.0"), {70, 75, 80, 86, 90, 100, 120}, {120}, 8, 7);
        const ConsumerVerdict verdict = judgeConsumer(
            torch, machine(OsFamily::Linux, kGtx1080, QStringLiteral("575.57.08"), QStringLiteral("12.9")),
            KnowledgeBase::embedded());
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::No);
        QCOMPARE(verdict.fixKind, QStringLiteral("torch-index"));
        QCOMPARE(verdict.command, QStringLiteral("pip install --force-reinstall torch --index-url "
                                                 "https://download.pytorch.org/whl/cu126"));
        QVERIFY(verdict.fix.toString().contains(QStringLiteral("cu126")));
        QVERIFY(verdict.summary.toString().contains(QStringLiteral("no kernel image")));
        const QJsonObject json = verdict.verdictJson();
        QCOMPARE(json.value(QStringLiteral("runs")).toString(), QStringLiteral("no"));
        QCOMPARE(json.value(QStringLiteral("findsCudnn")).toString(), QStringLiteral("yes"));
        QCOMPARE(verdict.fixJson().value(QStringLiteral("command")).toString(), verdict.command);
    }

    // Turing runs that same cu128 torch from its own SASS, and finds its cuDNN: nothing to do.
    void turingRunsTheCu128Build()
    {
        const ConsumerInfo torch =
            torchFromFiles(QStringLiteral("2.8.0"), {70, 75, 80, 86, 90, 100, 120}, {120}, 8, 7);
        const ConsumerVerdict verdict = judgeConsumer(
            torch, machine(OsFamily::Linux, kRtx2080, QStringLiteral("575.57.08"), QStringLiteral("12.9")),
            KnowledgeBase::embedded());
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::Yes);
        QCOMPARE(verdict.findsCudnn, ConsumerVerdict::FindsCudnn::Yes);
        QVERIFY(verdict.fine());
        QCOMPARE(verdict.fixKind, QStringLiteral("nothing"));
        QVERIFY(verdict.fixJson().value(QStringLiteral("command")).isNull());
    }

    // Ampere: CTranslate2 needs cuDNN 8 and reaches only cuDNN 9: cuDNN 8.9.7 for CUDA 12 beside it,
    // by the archive's name in the database.
    void ampereCtranslate2GetsCudnn8Beside()
    {
        const QString folder = QStringLiteral("C:\\Apps\\WhisperDesktop");
        const ConsumerInfo app = ctranslate2AppFromFiles(folder);
        QCOMPARE(app.cudnnMajor, std::optional<int>(8));
        QCOMPARE(app.cudaMajor, std::optional<int>(12));
        const ConsumerVerdict verdict = judgeConsumer(
            app, machine(OsFamily::Windows, kRtx3060, QStringLiteral("566.36"), QStringLiteral("12.7")),
            KnowledgeBase::embedded());
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::Yes);
        QCOMPARE(verdict.findsCudnn, ConsumerVerdict::FindsCudnn::No);
        QVERIFY(verdict.missing.contains(QStringLiteral("cudnn64_8.dll")));
        QCOMPARE(verdict.fixKind, QStringLiteral("cudnn-beside"));
        const QString fix = verdict.fix.toString();
        QVERIFY2(fix.contains(QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip")),
                 qPrintable(fix));
        QVERIFY2(fix.contains(folder), qPrintable(fix));
        // Issue 32: the download, then the install beside the program that needs it.
        QCOMPARE(verdict.command,
                 QStringLiteral("cudnnctl download --cudnn 8.9.7.29 --cuda 12 --out .\n"
                                "cudnnctl install --archive cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip "
                                "--target app:C:\\Apps\\WhisperDesktop"));
    }

    // Blackwell with that app: its Ampere PTX compiles for 12.0 (ISA 8.0 is CUDA 12.0's), but no
    // cuDNN 8 supports compute capability 12.0, so no archive is offered.
    void blackwellCtranslate2HasNoCudnn8()
    {
        const ConsumerInfo app = ctranslate2AppFromFiles(QStringLiteral("C:\\Apps\\WhisperDesktop"));
        const ConsumerVerdict verdict = judgeConsumer(
            app, machine(OsFamily::Windows, kRtx5070, QStringLiteral("572.16"), QStringLiteral("12.8")),
            KnowledgeBase::embedded());
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::Yes);
        QCOMPARE(verdict.findsCudnn, ConsumerVerdict::FindsCudnn::No);
        QCOMPARE(verdict.fixKind, QStringLiteral("none"));
        QVERIFY(verdict.command.isEmpty());
        QVERIFY(!verdict.fix.toString().contains(QStringLiteral("8.9.7")));
    }

    // SASS runs within its major on an equal or later minor; "a" only on its own capability; "f"
    // within its family; PTX for an earlier capability compiles, "a" PTX only for its own.
    void sassAndPtxRules_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QStringList>("sass");
        QTest::addColumn<QStringList>("ptx");
        QTest::addColumn<int>("runs");
        const auto yes = int(ConsumerVerdict::Runs::Yes);
        const auto no = int(ConsumerVerdict::Runs::No);
        QTest::newRow("8.0 SASS on 8.6")
            << kRtx3060 << QStringList{QStringLiteral("sm_80")} << QStringList{} << yes;
        QTest::newRow("8.6 SASS on 7.5")
            << kRtx2080 << QStringList{QStringLiteral("sm_86")} << QStringList{} << no;
        QTest::newRow("6.0 SASS on 6.1")
            << kGtx1080 << QStringList{QStringLiteral("sm_60")} << QStringList{} << yes;
        QTest::newRow("7.0 SASS on 6.1")
            << kGtx1080 << QStringList{QStringLiteral("sm_70")} << QStringList{} << no;
        QTest::newRow("12.0a SASS on 12.0")
            << kRtx5070 << QStringList{QStringLiteral("sm_120a")} << QStringList{} << yes;
        QTest::newRow("10.0a SASS on 10.3")
            << QStringLiteral("NVIDIA B300") << QStringList{QStringLiteral("sm_100a")} << QStringList{} << no;
        QTest::newRow("10.0f SASS on 10.3") << QStringLiteral("NVIDIA B300")
                                            << QStringList{QStringLiteral("sm_100f")} << QStringList{} << yes;
        QTest::newRow("9.0 SASS on 12.0")
            << kRtx5070 << QStringList{QStringLiteral("sm_90")} << QStringList{} << no;
        QTest::newRow("9.0a PTX on 12.0") << kRtx5070 << QStringList{QStringLiteral("sm_90")}
                                          << QStringList{QStringLiteral("compute_90a")} << no;
        QTest::newRow("8.6 PTX on 12.0")
            << kRtx5070 << QStringList{} << QStringList{QStringLiteral("compute_86")} << yes;
        QTest::newRow("8.6 PTX on 7.5")
            << kRtx2080 << QStringList{} << QStringList{QStringLiteral("compute_86")} << no;
    }
    void sassAndPtxRules()
    {
        QFETCH(QString, gpu);
        QFETCH(QStringList, sass);
        QFETCH(QStringList, ptx);
        QFETCH(int, runs);
        const MatchFacts facts =
            machine(OsFamily::Linux, gpu, QStringLiteral("580.65.06"), QStringLiteral("13.0"));
        QVERIFY(KnowledgeBase::embedded().computeCapabilityForGpu(gpu));
        const ConsumerVerdict verdict =
            judgeConsumer(consumerWith(QStringLiteral("kernels"), sass, ptx,
                                       ptx.isEmpty() ? QStringList{} : QStringList{QStringLiteral("8.0")}),
                          facts, KnowledgeBase::embedded());
        QCOMPARE(int(verdict.runs), runs);
    }

    // Whatever is unknown is never "runs": an unknown GPU (fix: --sm), a file with no GPU code list,
    // PTX of an ISA the database does not map.
    void unknownIsNeverYes()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const ConsumerInfo torch = consumerWith(QStringLiteral("kernels"), {QStringLiteral("sm_80")}, {}, {});
        const ConsumerVerdict unknownGpu = judgeConsumer(
            torch, machine(OsFamily::Linux, kUnknownGpu, QStringLiteral("580.65.06"), QStringLiteral("13.0")),
            kb);
        QCOMPARE(unknownGpu.runs, ConsumerVerdict::Runs::CannotTell);
        QCOMPARE(unknownGpu.fixKind, QStringLiteral("sm"));
        QVERIFY(!unknownGpu.fine());

        const ConsumerVerdict noCodeList = judgeConsumer(
            consumerWith(QStringLiteral("plain"), {}, {}, {}),
            machine(OsFamily::Linux, kRtx3060, QStringLiteral("580.65.06"), QStringLiteral("13.0")), kb);
        QCOMPARE(noCodeList.runs, ConsumerVerdict::Runs::CannotTell);
        QCOMPARE(noCodeList.fixKind, QStringLiteral("none"));

        const ConsumerVerdict unmapped = judgeConsumer(
            consumerWith(QStringLiteral("kernels"), {}, {QStringLiteral("compute_80")},
                         {QStringLiteral("9.9")}),
            machine(OsFamily::Linux, kRtx3060, QStringLiteral("580.65.06"), QStringLiteral("13.0")), kb);
        QCOMPARE(unmapped.runs, ConsumerVerdict::Runs::CannotTell);

        std::optional<TorchIndex> index = torchIndexFor(
            machine(OsFamily::Linux, kUnknownGpu, QStringLiteral("580.65.06"), QStringLiteral("13.0")), kb);
        QVERIFY(!index);
    }

    // A program built for CUDA 13 under a driver of CUDA 12.4: the driver to get, by NVIDIA's table.
    void driverTooOldForTheProgramsCuda()
    {
        ConsumerInfo program = consumerWith(QStringLiteral("kernels"), {QStringLiteral("sm_86")}, {}, {});
        program.cudaMajor = 13;
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const ConsumerVerdict verdict = judgeConsumer(
            program, machine(OsFamily::Linux, kRtx3060, QStringLiteral("550.54.14"), QStringLiteral("12.4")),
            kb);
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::No);
        QCOMPARE(verdict.fixKind, QStringLiteral("driver"));
        const Version wanted =
            kb.toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("13.0")));
        QVERIFY(wanted.isValid());
        QVERIFY2(verdict.fix.toString().contains(wanted.toString()), qPrintable(verdict.fix.toString()));
    }

    // torch for a Blackwell GPU whose driver runs CUDA 11.8 only: no build runs on it, so the driver
    // first (NVIDIA's minimum for the CUDA release the build is made with), then the newest build.
    void torchIndexAsksForTheDriverFirst()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const std::optional<TorchIndex> index = torchIndexFor(
            machine(OsFamily::Linux, kRtx5070, QStringLiteral("520.61.05"), QStringLiteral("11.8")), kb);
        QVERIFY(index);
        QVERIFY(index->driverUpdateNeeded);
        QCOMPARE(index->tag, QStringLiteral("cu130"));
        QVERIFY(index->driverMinimum.isValid());
        QCOMPARE(index->driverMinimum,
                 kb.toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("13.0.2"))));
        ConsumerInfo torch = consumerWith(QStringLiteral("torch"), {QStringLiteral("sm_90")}, {}, {});
        const ConsumerVerdict verdict = judgeConsumer(
            torch, machine(OsFamily::Linux, kRtx5070, QStringLiteral("520.61.05"), QStringLiteral("11.8")),
            kb);
        QCOMPARE(verdict.fixKind, QStringLiteral("driver"));
        QVERIFY(verdict.fix.toString().contains(index->driverMinimum.toString()));
        QVERIFY(verdict.command.endsWith(QStringLiteral("/whl/cu130")));
        // A CUDA 13 driver gets CUDA 13's build of the newest release.
        const std::optional<TorchIndex> newest = torchIndexFor(
            machine(OsFamily::Linux, kRtx5070, QStringLiteral("580.65.06"), QStringLiteral("13.0")), kb);
        QVERIFY(newest);
        QCOMPARE(newest->tag, QStringLiteral("cu130"));
        QVERIFY(!newest->driverUpdateNeeded);
    }

    // TensorFlow after 2.10 and JAX have no GPU build for native Windows: WSL 2. Not under WSL 2.
    void nativeWindowsFrameworksGoToWsl()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        ConsumerInfo tensorflow =
            consumerWith(QStringLiteral("tensorflow"), {QStringLiteral("sm_86")}, {}, {});
        tensorflow.version = QStringLiteral("2.15.1");
        MatchFacts windows =
            machine(OsFamily::Windows, kRtx3060, QStringLiteral("566.36"), QStringLiteral("12.7"));
        const ConsumerVerdict verdict = judgeConsumer(tensorflow, windows, kb);
        QCOMPARE(verdict.runs, ConsumerVerdict::Runs::No);
        QCOMPARE(verdict.fixKind, QStringLiteral("wsl2"));
        QCOMPARE(verdict.command, QStringLiteral("wsl --install"));
        ConsumerInfo jax = consumerWith(QStringLiteral("jaxlib"), {QStringLiteral("sm_86")}, {}, {});
        QCOMPARE(judgeConsumer(jax, windows, kb).fixKind, QStringLiteral("wsl2"));
        windows.wsl2 = true;
        QCOMPARE(judgeConsumer(tensorflow, windows, kb).runs, ConsumerVerdict::Runs::Yes);
        tensorflow.version = QStringLiteral("2.10.1");
        windows.wsl2 = false;
        QCOMPARE(judgeConsumer(tensorflow, windows, kb).runs, ConsumerVerdict::Runs::Yes);
    }

    // check --for (and verify --for): only what it names; a torch that is not there gets the install
    // line for this GPU; an unknown name is an error.
    void judgeForPicksAndFillsIn()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const MatchFacts pascal =
            machine(OsFamily::Windows, kGtx1080, QStringLiteral("566.36"), QStringLiteral("12.7"));
        ConsumerInfo onnx =
            consumerWith(QStringLiteral("onnxruntime-gpu"), {QStringLiteral("sm_60")}, {}, {});
        onnx.location = QStringLiteral("C:\\Apps\\Tagger");
        const auto none = judgeFor(QStringLiteral("torch"), {onnx}, pascal, kb);
        QVERIFY(none);
        QCOMPARE(none->size(), 1);
        QVERIFY(!none->first().found);
        QCOMPARE(none->first().verdict.command,
                 QStringLiteral("pip install torch --index-url https://download.pytorch.org/whl/cu126"));
        const auto onnxOnly = judgeFor(QStringLiteral("onnxruntime"), {onnx}, pascal, kb);
        QVERIFY(onnxOnly && onnxOnly->size() == 1 && onnxOnly->first().found);
        const auto byFolder = judgeFor(QStringLiteral("app:c:/apps/tagger"), {onnx}, pascal, kb);
        QVERIFY(byFolder && byFolder->first().found);
        QVERIFY(!judgeFor(QStringLiteral("keras"), {onnx}, pascal, kb));
        // JAX is its plugin's wheel (jax-cuda12-plugin) and jaxlib, not what else is there.
        const ConsumerInfo plugin =
            consumerWith(QStringLiteral("jax-cuda12-plugin"), {QStringLiteral("sm_60")}, {}, {});
        const auto jaxOnly = judgeFor(QStringLiteral("jax"), {onnx, plugin}, pascal, kb);
        QVERIFY(jaxOnly && jaxOnly->size() == 1 && jaxOnly->first().found);
        QCOMPARE(jaxOnly->first().consumer.name, QStringLiteral("jax-cuda12-plugin"));
        QCOMPARE(byFolder->first()
                     .toJson()
                     .value(QStringLiteral("verdict"))
                     .toObject()
                     .value(QStringLiteral("runs")),
                 QJsonValue(QStringLiteral("yes")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestConsumerVerdicts)
#include "tst_consumerverdicts.moc"
