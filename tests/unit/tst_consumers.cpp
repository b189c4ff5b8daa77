#include "ElfImage.h"
#include "FatbinImage.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "detect/Consumers.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace cudnnsetup;

namespace {

using fatbinimage::Entry;

SystemContext consumerContext(const Sandbox &sandbox, OsFamily family, const QProcessEnvironment &environment)
{
    const auto registry = Registry::unavailable();
    return SystemContext(FileSystem(family, sandbox.root()), EnvironmentStore(family, environment, registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

Entry gpuEntry(Entry::Kind kind, int arch)
{
    Entry entry;
    entry.kind = kind;
    entry.arch = arch;
    entry.payloadSize = 4000;
    return entry;
}

QByteArray fatbinFor(const QList<int> &sass, const QList<int> &ptx)
{
    QList<Entry> entries;
    for (int arch : sass)
        entries.append(gpuEntry(Entry::Sass, arch));
    for (int arch : ptx)
        entries.append(gpuEntry(Entry::Ptx, arch));
    return fatbinimage::container(entries);
}

// A wheel's metadata: its RECORD lists `files` (relative to site-packages).
void writeWheel(const Sandbox &sandbox, const QString &site, const QString &distInfo,
                const QStringList &files, const QString &separator = QStringLiteral("/"))
{
    QByteArray record;
    for (const QString &file : files)
        record += file.toUtf8() + ",sha256=abc,1234\n";
    record += distInfo.toUtf8() + "/RECORD,,\n";
    sandbox.write(site + separator + distInfo + separator + QStringLiteral("RECORD"), record);
}

QByteArray peLibrary(const QList<QByteArray> &imports, const QByteArray &data = {},
                     const QByteArray &fatbin = {})
{
    peimage::ImageSpec spec;
    spec.imports = imports;
    spec.rdataData = data;
    if (!fatbin.isEmpty())
        spec.sections = {{".nv_fatb", fatbin}};
    return peimage::buildImage(spec).bytes;
}

// The UTF-16LE bytes of `text`, zero-terminated, as a wide string literal is stored.
QByteArray wide(const QString &text)
{
    QByteArray bytes;
    for (const QChar c : text)
        bytes += char(c.unicode()) + QByteArray(1, '\0');
    return bytes + QByteArray(2, '\0');
}

const ConsumerInfo *consumerNamed(const QList<ConsumerInfo> &consumers, const QString &name)
{
    for (const ConsumerInfo &consumer : consumers) {
        if (consumer.name == name)
            return &consumer;
    }
    return nullptr;
}

std::optional<ResolvedLibrary> resolved(const ConsumerInfo &consumer, const QString &library)
{
    for (const auto &[name, copy] : consumer.resolves) {
        if (name == library)
            return copy;
    }
    return ResolvedLibrary{QStringLiteral("<not needed>"), {}};
}

QStringList consumerNames(const QList<ConsumerInfo> &consumers)
{
    QStringList names;
    for (const ConsumerInfo &consumer : consumers)
        names.append(consumer.name);
    return names;
}

} // namespace

class TestConsumers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A venv with a torch-like wheel whose CUDA library links cuDNN 9 through RUNPATH into the nvidia
    // wheels: the cuDNN copy is the wheel's; a cuBLAS nobody ships is not found; the nvidia wheel and
    // torch's CPU library are no consumers.
    void linuxVenvWheelLinksCudnnThroughRunpath()
    {
        Sandbox sandbox;
        const QString site = QStringLiteral("/home/ana/venv/lib/python3.12/site-packages");
        elfimage::SharedObject torchCuda;
        torchCuda.soname = QStringLiteral("libtorch_cuda.so");
        torchCuda.needed = {QStringLiteral("libc10.so"), QStringLiteral("libcudnn.so.9"),
                            QStringLiteral("libcublas.so.12"), QStringLiteral("libcudart.so.12")};
        torchCuda.runpath = {QStringLiteral("$ORIGIN"), QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"),
                             QStringLiteral("$ORIGIN/../../nvidia/cuda_runtime/lib")};
        torchCuda.sections = {{".rodata", QByteArray("torch\0", 6)},
                              {".nv_fatbin", fatbinFor({80, 90}, {90})}};
        sandbox.write(site + QStringLiteral("/torch/lib/libtorch_cuda.so"), elfimage::build(torchCuda));
        elfimage::SharedObject c10;
        c10.soname = QStringLiteral("libc10.so");
        sandbox.write(site + QStringLiteral("/torch/lib/libc10.so"), elfimage::build(c10));
        writeWheel(sandbox, site, QStringLiteral("torch-2.5.1.dist-info"),
                   {QStringLiteral("torch/__init__.py"), QStringLiteral("torch/lib/libtorch_cuda.so"),
                    QStringLiteral("torch/lib/libc10.so")});
        elfimage::SharedObject cudnn;
        cudnn.soname = QStringLiteral("libcudnn.so.9");
        cudnn.needed = {QStringLiteral("libcudart.so.12")};
        cudnn.sections = {{".nv_fatbin", fatbinFor({75}, {})}};
        sandbox.write(site + QStringLiteral("/nvidia/cudnn/lib/libcudnn.so.9"), elfimage::build(cudnn));
        writeWheel(sandbox, site, QStringLiteral("nvidia_cudnn_cu12-9.1.0.70.dist-info"),
                   {QStringLiteral("nvidia/cudnn/lib/libcudnn.so.9")});
        elfimage::SharedObject cudart;
        cudart.soname = QStringLiteral("libcudart.so.12");
        sandbox.write(site + QStringLiteral("/nvidia/cuda_runtime/lib/libcudart.so.12"),
                      elfimage::build(cudart));

        const SystemContext context = consumerContext(sandbox, OsFamily::Linux, {});
        PythonEnvironment venv;
        venv.interpreter = QStringLiteral("/home/ana/venv/bin/python");
        venv.prefix = QStringLiteral("/home/ana/venv");
        venv.sitePackages = {site};
        CudnnCopy copy;
        copy.version = QStringLiteral("9.1.0");
        copy.directory = site + QStringLiteral("/nvidia/cudnn/lib");
        copy.path = copy.directory + QStringLiteral("/libcudnn.so.9");
        copy.libraries = {QStringLiteral("libcudnn.so.9")};

        const QList<ConsumerInfo> consumers = findConsumers(context, {venv}, {}, {copy});
        QCOMPARE(consumerNames(consumers), QStringList{QStringLiteral("torch")});
        const ConsumerInfo &torch = consumers.first();
        QCOMPARE(torch.version, QStringLiteral("2.5.1"));
        QCOMPARE(torch.location, site);
        QCOMPARE(torch.files, QStringList{site + QStringLiteral("/torch/lib/libtorch_cuda.so")});
        QCOMPARE(torch.cudnnMajor, std::optional<int>(9));
        QCOMPARE(torch.cublasMajor, std::optional<int>(12));
        QCOMPARE(torch.cudaMajor, std::optional<int>(12));
        QCOMPARE(torch.sass, (QStringList{QStringLiteral("sm_80"), QStringLiteral("sm_90")}));
        QCOMPARE(torch.ptx, QStringList{QStringLiteral("compute_90")});
        const auto cudnnCopy = resolved(torch, QStringLiteral("libcudnn.so.9"));
        QVERIFY(cudnnCopy);
        QCOMPARE(cudnnCopy->path, copy.path);
        QCOMPARE(cudnnCopy->version, QStringLiteral("9.1.0"));
        QCOMPARE(resolved(torch, QStringLiteral("libcudart.so.12"))->path,
                 site + QStringLiteral("/nvidia/cuda_runtime/lib/libcudart.so.12"));
        QVERIFY(!resolved(torch, QStringLiteral("libcublas.so.12")));
    }

    // JAX's CUDA plugin names no cuDNN in its native module: its __init__.py loads the nvidia wheels'
    // libraries by their paths first (as jax-cuda13-plugin 0.11.2 does on the H200). Its cuDNN is
    // that wheel's; a library whose wheel is not there is not claimed.
    void jaxPluginLoadsTheNvidiaWheelsItself()
    {
        Sandbox sandbox;
        const QString site = QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages");
        elfimage::SharedObject plugin;
        plugin.soname = QStringLiteral("xla_cuda_plugin.so");
        plugin.sections = {{".rodata", QByteArray("cudnn\0cublasLt\0", 15)},
                           {".nv_fatbin", fatbinFor({75, 80, 90, 100, 120}, {120})}};
        sandbox.write(site + QStringLiteral("/jax_plugins/xla_cuda13/xla_cuda_plugin.so"),
                      elfimage::build(plugin));
        sandbox.write(site + QStringLiteral("/jax_plugins/xla_cuda13/__init__.py"),
                      "import ctypes\n"
                      "def _load_nvidia_libraries():\n"
                      "  _load(\"cu13\", [\"libcudart.so.13\"])\n"
                      "  _load(\"cublas\", [\"libcublas.so.12\", \"libcublasLt.so.12\"])\n"
                      "  _load(\"cudnn\", [\"libcudnn.so.9\"])\n");
        writeWheel(sandbox, site, QStringLiteral("jax_cuda13_plugin-0.11.2.dist-info"),
                   {QStringLiteral("jax_plugins/xla_cuda13/__init__.py"),
                    QStringLiteral("jax_plugins/xla_cuda13/xla_cuda_plugin.so")});
        elfimage::SharedObject cudnn;
        cudnn.soname = QStringLiteral("libcudnn.so.9");
        sandbox.write(site + QStringLiteral("/nvidia/cudnn/lib/libcudnn.so.9"), elfimage::build(cudnn));
        elfimage::SharedObject cudart;
        cudart.soname = QStringLiteral("libcudart.so.13");
        sandbox.write(site + QStringLiteral("/nvidia/cu13/lib/libcudart.so.13"), elfimage::build(cudart));

        const SystemContext context = consumerContext(sandbox, OsFamily::Linux, {});
        PythonEnvironment venv;
        venv.interpreter = QStringLiteral("/opt/torch/.venv/bin/python");
        venv.prefix = QStringLiteral("/opt/torch/.venv");
        venv.sitePackages = {site};
        CudnnCopy copy;
        copy.version = QStringLiteral("9.19.0");
        copy.directory = site + QStringLiteral("/nvidia/cudnn/lib");
        copy.path = copy.directory + QStringLiteral("/libcudnn.so.9");
        copy.libraries = {QStringLiteral("libcudnn.so.9")};

        const QList<ConsumerInfo> consumers = findConsumers(context, {venv}, {}, {copy});
        const ConsumerInfo *jax = consumerNamed(consumers, QStringLiteral("jax-cuda13-plugin"));
        QVERIFY(jax);
        QCOMPARE(jax->cudnnMajor, std::optional<int>(9));
        QCOMPARE(jax->cudaMajor, std::optional<int>(13));
        const auto cudnnCopy = resolved(*jax, QStringLiteral("libcudnn.so.9"));
        QVERIFY(cudnnCopy);
        QCOMPARE(cudnnCopy->path, copy.path);
        QCOMPARE(cudnnCopy->version, QStringLiteral("9.19.0"));
        QCOMPARE(resolved(*jax, QStringLiteral("libcudart.so.13"))->path,
                 site + QStringLiteral("/nvidia/cu13/lib/libcudart.so.13"));
        QCOMPARE(resolved(*jax, QStringLiteral("libcublas.so.12"))->path, QStringLiteral("<not needed>"));
    }

    // A conda environment's CTranslate2 links cuBLAS only and opens cuDNN 8 by the name in its data;
    // the copy it reaches is the one on LD_LIBRARY_PATH.
    void condaWheelNamesCudnnOnlyInItsData()
    {
#ifdef Q_OS_WIN
        QSKIP("a Linux tree's library links: QFile::link makes a shortcut on Windows, not a link");
#endif
        Sandbox sandbox;
        const QString site = QStringLiteral("/opt/conda/envs/asr/lib/python3.10/site-packages");
        elfimage::SharedObject library;
        library.soname = QStringLiteral("libctranslate2.so.4");
        library.needed = {QStringLiteral("libcublas.so.12")};
        library.sections = {
            {".rodata", QByteArrayLiteral("open %s\0libcudnn_ops_infer.so.8\0libcudnn.so.8\0")},
            {".nv_fatbin", fatbinFor({70, 86}, {86})}};
        sandbox.write(site + QStringLiteral("/ctranslate2.libs/libctranslate2-bc15bf3f.so.4"),
                      elfimage::build(library));
        writeWheel(sandbox, site, QStringLiteral("ctranslate2-4.4.0.dist-info"),
                   {QStringLiteral("ctranslate2/__init__.py"),
                    QStringLiteral("ctranslate2.libs/libctranslate2-bc15bf3f.so.4")});
        elfimage::SharedObject cudnn8;
        cudnn8.soname = QStringLiteral("libcudnn.so.8");
        sandbox.write(QStringLiteral("/opt/cudnn8/lib/libcudnn.so.8.9.7"), elfimage::build(cudnn8));
        sandbox.symlink(QStringLiteral("libcudnn.so.8.9.7"), QStringLiteral("/opt/cudnn8/lib/libcudnn.so.8"));

        QProcessEnvironment environment;
        environment.insert(QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral("/opt/cudnn8/lib"));
        const SystemContext context = consumerContext(sandbox, OsFamily::Linux, environment);
        PythonEnvironment conda;
        conda.interpreter = QStringLiteral("/opt/conda/envs/asr/bin/python");
        conda.prefix = QStringLiteral("/opt/conda/envs/asr");
        conda.source = QStringLiteral("conda");
        conda.sitePackages = {site};

        const QList<ConsumerInfo> consumers = findConsumers(context, {conda}, {}, {});
        QCOMPARE(consumers.size(), 1);
        const ConsumerInfo &ct2 = consumers.first();
        QCOMPARE(ct2.name, QStringLiteral("ctranslate2"));
        QCOMPARE(ct2.version, QStringLiteral("4.4.0"));
        QCOMPARE(ct2.cudnnMajor, std::optional<int>(8));
        QCOMPARE(ct2.cudaMajor, std::optional<int>(12)); // cuBLAS's, no CUDA runtime named
        QCOMPARE(ct2.sass, (QStringList{QStringLiteral("sm_70"), QStringLiteral("sm_86")}));
        const auto cudnn = resolved(ct2, QStringLiteral("libcudnn.so.8"));
        QVERIFY(cudnn);
        QCOMPARE(cudnn->path, QStringLiteral("/opt/cudnn8/lib/libcudnn.so.8"));
        QCOMPARE(cudnn->version, QStringLiteral("8.9.7")); // the name the link leads to
        QVERIFY(!resolved(ct2, QStringLiteral("libcublas.so.12")));
    }

    // A program folder on Windows: an EXE that imports cuDNN 8 finds the copy beside it; a DLL in a
    // subfolder names cuDNN 9 only as a wide string in .rdata and carries Pascal and Ampere code.
    void windowsAppFolderPrograms()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("C:\\Apps\\Whisper\\whisper.exe"),
                      peLibrary({"KERNEL32.dll", "cudnn64_8.dll", "cublas64_11.dll"}));
        sandbox.write(QStringLiteral("C:\\Apps\\Whisper\\cudnn64_8.dll"), peLibrary({"KERNEL32.dll"}));
        sandbox.write(QStringLiteral("C:\\Apps\\Whisper\\plugins\\denoise.dll"),
                      peLibrary({"cudart64_12.dll"},
                                QByteArrayLiteral("denoise\0\0") + wide(QStringLiteral("cudnn64_9.dll")),
                                fatbinFor({61, 86}, {86})));
        sandbox.write(QStringLiteral("C:\\Apps\\Whisper\\plain.dll"), peLibrary({"KERNEL32.dll"}));
        sandbox.write(QStringLiteral("C:\\CUDA11\\bin\\cublas64_11.dll"), peLibrary({"KERNEL32.dll"}));
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("C:\\Windows\\System32;C:\\CUDA11\\bin"));
        const SystemContext context = consumerContext(sandbox, OsFamily::Windows, environment);

        const QList<ConsumerInfo> consumers =
            findConsumers(context, {}, {QStringLiteral("C:\\Apps\\Whisper")}, {});
        QCOMPARE(consumerNames(consumers),
                 (QStringList{QStringLiteral("whisper.exe"), QStringLiteral("denoise.dll")}));
        const ConsumerInfo *whisper = consumerNamed(consumers, QStringLiteral("whisper.exe"));
        QCOMPARE(whisper->cudnnMajor, std::optional<int>(8));
        QCOMPARE(whisper->cudaMajor, std::optional<int>(11));
        QVERIFY(whisper->version.isNull());
        QVERIFY(whisper->sass.isEmpty());
        const auto cudnn8 = resolved(*whisper, QStringLiteral("cudnn64_8.dll"));
        QVERIFY(cudnn8);
        QCOMPARE(cudnn8->path.toLower(), QStringLiteral("c:\\apps\\whisper\\cudnn64_8.dll"));
        QCOMPARE(cudnn8->version, QStringLiteral("8"));
        // A program searches PATH.
        QCOMPARE(resolved(*whisper, QStringLiteral("cublas64_11.dll"))->path.toLower(),
                 QStringLiteral("c:\\cuda11\\bin\\cublas64_11.dll"));

        const ConsumerInfo *denoise = consumerNamed(consumers, QStringLiteral("denoise.dll"));
        QCOMPARE(denoise->cudnnMajor, std::optional<int>(9));
        QCOMPARE(denoise->cudaMajor, std::optional<int>(12));
        QCOMPARE(denoise->sass, (QStringList{QStringLiteral("sm_61"), QStringLiteral("sm_86")}));
        QCOMPARE(denoise->ptx, QStringList{QStringLiteral("compute_86")});
        QVERIFY(!resolved(*denoise, QStringLiteral("cudnn64_9.dll")));
    }

    // A portable ComfyUI: its embedded Python's wheels are consumers with the Python's load context
    // (os.add_dll_directory: torch\lib, never PATH). torch finds its own cuDNN 9; ONNX Runtime built
    // for cuDNN 8 finds none: the cuDNN 8 on PATH is not searched.
    void portableComfyUiOnWindows()
    {
        Sandbox sandbox;
        const QString home = QStringLiteral("C:\\ComfyUI\\python_embeded");
        const QString site = home + QStringLiteral("\\Lib\\site-packages");
        sandbox.write(home + QStringLiteral("\\python.exe"), peLibrary({"KERNEL32.dll"}));
        sandbox.write(site + QStringLiteral("\\torch\\lib\\torch_cuda.dll"),
                      peLibrary({"cudnn64_9.dll", "cudart64_12.dll"}, {}, fatbinFor({50, 120}, {120})));
        sandbox.write(site + QStringLiteral("\\torch\\lib\\cudnn64_9.dll"), peLibrary({"KERNEL32.dll"}));
        sandbox.write(site + QStringLiteral("\\torch\\lib\\cudart64_12.dll"), peLibrary({"KERNEL32.dll"}));
        writeWheel(sandbox, site, QStringLiteral("torch-2.7.0+cu128.dist-info"),
                   {QStringLiteral("torch/lib/torch_cuda.dll"), QStringLiteral("torch/lib/cudnn64_9.dll"),
                    QStringLiteral("torch/lib/cudart64_12.dll")},
                   QStringLiteral("\\"));
        sandbox.write(site + QStringLiteral("\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"),
                      peLibrary({"cudnn64_8.dll", "cublas64_11.dll", "cudart64_110.dll"}));
        writeWheel(sandbox, site, QStringLiteral("onnxruntime_gpu-1.16.3.dist-info"),
                   {QStringLiteral("onnxruntime/capi/onnxruntime_providers_cuda.dll")}, QStringLiteral("\\"));
        // A cuDNN 8 on PATH, which Python 3.8+ does not search for an extension's imports.
        sandbox.write(QStringLiteral("C:\\cudnn8\\bin\\cudnn64_8.dll"), peLibrary({"KERNEL32.dll"}));
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("C:\\Windows\\System32;C:\\cudnn8\\bin"));
        const SystemContext context = consumerContext(sandbox, OsFamily::Windows, environment);

        const QList<ConsumerInfo> consumers = findConsumers(context, {}, {QStringLiteral("C:\\ComfyUI")}, {});
        QCOMPARE(consumerNames(consumers),
                 (QStringList{QStringLiteral("onnxruntime-gpu"), QStringLiteral("torch")}));
        const ConsumerInfo *torch = consumerNamed(consumers, QStringLiteral("torch"));
        QCOMPARE(torch->version, QStringLiteral("2.7.0+cu128"));
        QCOMPARE(torch->files.size(), 1); // cuDNN and the CUDA runtime it ships are no consumers
        QCOMPARE(torch->sass, (QStringList{QStringLiteral("sm_50"), QStringLiteral("sm_120")}));
        const auto cudnn9 = resolved(*torch, QStringLiteral("cudnn64_9.dll"));
        QVERIFY(cudnn9);
        QCOMPARE(cudnn9->path.toLower(), (site + QStringLiteral("\\torch\\lib\\cudnn64_9.dll")).toLower());
        const ConsumerInfo *ort = consumerNamed(consumers, QStringLiteral("onnxruntime-gpu"));
        QCOMPARE(ort->version, QStringLiteral("1.16.3"));
        QCOMPARE(ort->cudnnMajor, std::optional<int>(8));
        QCOMPARE(ort->cudaMajor, std::optional<int>(11));
        QVERIFY(!resolved(*ort, QStringLiteral("cudnn64_8.dll")));
    }

    // What detect read on the H200 (torch 2.11.0+cu130, JAX 0.11.2 in one venv) reads back: torch's
    // architectures are those torch.cuda.get_arch_list() printed there, the rest of its kernels'
    // apart; torch and JAX each bind the nvidia wheel's cuDNN 9.19.0.
    void realH200ConsumersReadBack()
    {
        const QJsonObject json =
            QJsonDocument::fromJson(
                Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect-consumers.json")))
                .object();
        const Expected<SystemSnapshot> snapshot = SystemSnapshot::fromJson(json);
        QVERIFY(snapshot);
        const ConsumerInfo *torch = consumerNamed(snapshot->consumers, QStringLiteral("torch"));
        QVERIFY(torch);
        const QByteArray printed =
            Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/torch-arch-list.txt"));
        QStringList archList;
        static const QRegularExpression arch(QStringLiteral("'(sm_\\d+)'"));
        for (auto match = arch.globalMatch(QString::fromUtf8(printed)); match.hasNext();)
            archList.append(match.next().captured(1));
        QCOMPARE(archList.size(), 6);
        QCOMPARE(torch->sass, archList);
        QVERIFY(torch->sassInPart.contains(QStringLiteral("sm_90a")));
        const QString wheelCudnn =
            QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9");
        QCOMPARE(resolved(*torch, QStringLiteral("libcudnn.so.9"))->path, wheelCudnn);
        const ConsumerInfo *jax = consumerNamed(snapshot->consumers, QStringLiteral("jax-cuda13-pjrt"));
        QVERIFY(jax);
        QCOMPARE(resolved(*jax, QStringLiteral("libcudnn.so.9"))->path, wheelCudnn);
        QCOMPARE(resolved(*jax, QStringLiteral("libcudnn.so.9"))->version, QStringLiteral("9.19.0"));
    }

    void snapshotJsonCarriesConsumers()
    {
        SystemSnapshot snapshot;
        ConsumerInfo consumer;
        consumer.name = QStringLiteral("torch");
        consumer.version = QStringLiteral("2.5.1");
        consumer.files = {QStringLiteral("/venv/torch/lib/libtorch_cuda.so")};
        consumer.cudnnMajor = 9;
        consumer.cudaMajor = 12;
        consumer.sass = {QStringLiteral("sm_80")};
        consumer.ptx = {QStringLiteral("compute_90")};
        consumer.resolves = {{QStringLiteral("libcudnn.so.9"),
                              ResolvedLibrary{QStringLiteral("/venv/nvidia/cudnn/lib/libcudnn.so.9"),
                                              QStringLiteral("9.1.0")}},
                             {QStringLiteral("libcublas.so.12"), std::nullopt}};
        snapshot.consumers = {consumer};
        const QJsonObject json = snapshot.toJson();
        const QJsonObject object = json.value(QStringLiteral("consumers")).toArray().first().toObject();
        QCOMPARE(object.value(QStringLiteral("needs")).toObject().value(QStringLiteral("cudnnMajor")).toInt(),
                 9);
        QVERIFY(
            object.value(QStringLiteral("needs")).toObject().value(QStringLiteral("cublasMajor")).isNull());
        QCOMPARE(
            object.value(QStringLiteral("archs")).toObject().value(QStringLiteral("sass")).toArray().first(),
            QJsonValue(QStringLiteral("sm_80")));
        const QJsonObject resolves = object.value(QStringLiteral("resolves")).toObject();
        QVERIFY(resolves.value(QStringLiteral("libcublas.so.12")).isNull());
        QCOMPARE(resolves.value(QStringLiteral("libcudnn.so.9")).toObject().value(QStringLiteral("version")),
                 QJsonValue(QStringLiteral("9.1.0")));

        const Expected<SystemSnapshot> back = SystemSnapshot::fromJson(json);
        QVERIFY(back.ok());
        QCOMPARE(back->consumers.size(), 1);
        const ConsumerInfo &read = back->consumers.first();
        QCOMPARE(read.name, consumer.name);
        QCOMPARE(read.cudnnMajor, consumer.cudnnMajor);
        QCOMPARE(read.ptx, consumer.ptx);
        QCOMPARE(read.resolves.size(), 2);
        QCOMPARE(back->toJson().value(QStringLiteral("consumers")), json.value(QStringLiteral("consumers")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestConsumers)
#include "tst_consumers.moc"
