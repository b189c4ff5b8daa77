// The whole verification under Windows' own loader (Wine), with the stand-in cuDNN DLLs: the probe
// runs in a fresh cudnnctl.exe whose PATH comes from the registry, not from this process; a missing
// zlibwapi.dll, a 32-bit DLL in the chain and an older copy earlier on PATH are each named; a pasted
// torch error is repaired by the doctor and torch then binds the copy it placed.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "MemoryRegistry.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "detect/Consumers.h"
#include "platform/SystemContext.h"
#include "verify/ConsumerVerify.h"
#include "verify/Verifier.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace cudnnsetup;

namespace {

const QString kStandins = BuildPaths::standins();

QString standinFolder(const QString &family)
{
    return QDir::toNativeSeparators(QFileInfo(kStandins + QLatin1Char('/') + family).absoluteFilePath());
}

const VerifyStage &stageOf(const VerifyReport &report, const QString &id)
{
    const VerifyStage *stage = report.stage(id);
    if (!stage)
        qFatal("no stage %s", qPrintable(id));
    return *stage;
}

// Whether two paths name one file, whatever their separators and case.
bool sameFile(const QString &a, const QString &b)
{
    return QFileInfo(a).canonicalFilePath().compare(QFileInfo(b).canonicalFilePath(), Qt::CaseInsensitive) ==
           0;
}

// The DLLs of a stand-in family copied into `target`, but for `left`.
void copyFamily(const QString &family, const QString &target, const QStringList &left)
{
    const QDir from(kStandins + QLatin1Char('/') + family);
    for (const QString &name : from.entryList({QStringLiteral("*.dll")}, QDir::Files)) {
        if (!left.contains(name, Qt::CaseInsensitive))
            QVERIFY(QFile::copy(from.filePath(name), QDir(target).filePath(name)));
    }
}

} // namespace

class TestWinVerify : public QObject
{
    Q_OBJECT

    // A live context whose stored (registry) PATH is `path`, while this process's own PATH names
    // none of it (unless `alsoInProcess`): what a freshly started program sees must come from the
    // registry.
    static SystemContext contextWithStoredPath(const QStringList &path, bool alsoInProcess = false)
    {
        auto registry = std::make_shared<MemoryRegistry>();
        const QString system = QDir::toNativeSeparators(
            QDir(qEnvironmentVariable("SystemRoot")).filePath(QStringLiteral("system32")));
        registry->setString(RegistryHive::LocalMachine,
                            EnvironmentStore::registryKey(EnvironmentScope::System), QStringLiteral("Path"),
                            (QStringList{system} + path).join(QLatin1Char(';')), RegistryValue::ExpandString);
        registry->setString(RegistryHive::CurrentUser, EnvironmentStore::registryKey(EnvironmentScope::User),
                            QStringLiteral("CUDNN_SETUP_TEST"), QStringLiteral("fresh"));
        QProcessEnvironment process = QProcessEnvironment::systemEnvironment();
        process.insert(QStringLiteral("PATH"),
                       alsoInProcess ? (QStringList{system} + path).join(QLatin1Char(';')) : system);
        return SystemContext(FileSystem(OsFamily::Windows, {}),
                             EnvironmentStore(OsFamily::Windows, process, registry), registry,
                             std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
    }

    static VerifyReport verifyFolder(const SystemContext &context, const QString &family,
                                     const QString &expected)
    {
        return verifyIn(context, standinFolder(family), expected);
    }

    static VerifyReport verifyIn(const SystemContext &context, const QString &folder, const QString &expected)
    {
        const Expected<VerifySubject> subject = subjectInFolder(context, folder, QStringLiteral("target"));
        if (!subject)
            qFatal("%s", qPrintable(subject.error().message.toEnglish()));
        VerifySubject checked = *subject;
        checked.expectedVersion = expected;
        checked.cudaMajor = 12;
        return verifySubject(context, checked);
    }

    static VerifyReport verifySubject(const SystemContext &context, const VerifySubject &subject)
    {
        VerifyOptions options;
        options.probeProgram = BuildPaths::cudnnctl();
        options.framework = false;
        return verify(context, SystemSnapshot(), subject, options);
    }

    // The 9.18 set copied without `missing`, or with `replacement` under its name, verified there
    // (the CUDA runtime on the stored PATH before it); with the copy's folder.
    static std::pair<VerifyReport, QString> verifyCopyWithout(const QString &missing,
                                                              const QString &replacement = QString())
    {
        QTemporaryDir copy;
        if (!copy.isValid())
            qFatal("no temporary folder");
        copyFamily(QStringLiteral("cudnn-9.18.0.77"), copy.path(), {missing});
        if (!replacement.isEmpty() && !QFile::copy(replacement, copy.filePath(missing)))
            qFatal("cannot copy %s", qPrintable(replacement));
        const QString folder = QDir::toNativeSeparators(copy.path());
        const SystemContext context =
            contextWithStoredPath({standinFolder(QStringLiteral("cuda-12.2")), folder});
        return {verifyIn(context, folder, QStringLiteral("9.18.0")), folder};
    }

private Q_SLOTS:
    void init() { qunsetenv("CUDNN_STANDIN_GPUS"); }

    // Issue 32 side by side under Windows' own loader: cuDNN 8 beside one program, cuDNN 9.18 in a
    // folder on PATH. verify --for loads each program's own module in a fresh process: the one
    // beside cuDNN 8 binds that copy, the other finds 9.18 along PATH, each as detection predicted;
    // without its copy the first binds none, in the loader's words.
    void verifyForBindsEachProgramToItsOwnCopy()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString whisper = QDir::toNativeSeparators(root.filePath(QStringLiteral("whisper")));
        const QString onnx = QDir::toNativeSeparators(root.filePath(QStringLiteral("onnx")));
        const QString nine = QDir::toNativeSeparators(root.filePath(QStringLiteral("cudnn9")));
        for (const QString &folder : {whisper, onnx, nine})
            QVERIFY(QDir().mkpath(folder));
        copyFamily(QStringLiteral("cudnn-8.9.7.29"), whisper, {});
        copyFamily(QStringLiteral("zlib-1.2.3"), whisper, {});
        copyFamily(QStringLiteral("consumer-8"), whisper, {});
        copyFamily(QStringLiteral("cudnn-9.18.0.77"), nine, {});
        copyFamily(QStringLiteral("consumer-9"), onnx, {});
        const SystemContext context =
            contextWithStoredPath({standinFolder(QStringLiteral("cuda-12.2")), nine}, true);
        const QList<ConsumerInfo> consumers = findConsumers(context, {}, {whisper, onnx}, {});
        QCOMPARE(consumers.size(), 2);
        VerifyOptions options;
        options.probeProgram = BuildPaths::cudnnctl();
        const auto verifyOne = [&](const QString &name) {
            for (const ConsumerInfo &consumer : consumers) {
                if (consumer.name == name)
                    return verifyConsumers(context, SystemSnapshot(),
                                           QStringLiteral("app:") + consumer.location, {consumer}, options);
            }
            qFatal("no consumer %s", qPrintable(name));
        };

        const ConsumerVerifyReport eight = verifyOne(QStringLiteral("ctranslate2.dll"));
        QVERIFY2(eight.passed(), QJsonDocument(eight.toJson()).toJson().constData());
        const ConsumerLoadCheck &bindsEight = eight.consumers.first();
        QVERIFY2(sameFile(bindsEight.bound, whisper + QStringLiteral("\\cudnn64_8.dll")),
                 qPrintable(bindsEight.bound));
        QCOMPARE(bindsEight.boundVersion, QStringLiteral("8.9.7"));
        QCOMPARE(bindsEight.versionSource, QStringLiteral("library"));
        QVERIFY(bindsEight.predicted && sameFile(bindsEight.predicted->path, bindsEight.bound));

        const ConsumerVerifyReport bindsNine = verifyOne(QStringLiteral("onnxruntime_providers_cuda.dll"));
        QVERIFY2(bindsNine.passed(), QJsonDocument(bindsNine.toJson()).toJson().constData());
        QVERIFY2(sameFile(bindsNine.consumers.first().bound, nine + QStringLiteral("\\cudnn64_9.dll")),
                 qPrintable(bindsNine.consumers.first().bound));
        QCOMPARE(bindsNine.consumers.first().boundVersion, QStringLiteral("9.18.0"));
        QCOMPARE(findingIds(bindsNine.consumers.first().findings), QStringList());

        QVERIFY(QFile::remove(whisper + QStringLiteral("\\cudnn64_8.dll")));
        const ConsumerVerifyReport none = verifyOne(QStringLiteral("ctranslate2.dll"));
        QVERIFY(!none.passed());
        QVERIFY(none.consumers.first().bound.isEmpty());
        QVERIFY(
            findingIds(none.consumers.first().findings).contains(QStringLiteral("verify.for-load-failed")));
    }

    // Issue 33 under Windows' own loader: a torch traceback naming a venv of the tree (as that
    // system sees it) whose torch\lib lost cudnn64_9.dll (quarantined) leads the doctor to torch's
    // own folder, which reaches no cudnn64_9.dll; its repair puts the archive's missing DLL there,
    // and then torch_cuda.dll, loaded in a fresh process as Python loads it (torch\lib added, PATH
    // not searched), binds that copy.
    void pastedTorchErrorRepairedThenVerified()
    {
        Sandbox tree;
        trees::windowsSystem(tree);
        const QString venv = QStringLiteral("C:\\Users\\ana\\venv");
        const QString site = venv + QStringLiteral("\\Lib\\site-packages");
        const QString torchLib = site + QStringLiteral("\\torch\\lib");
        const QString failing = torchLib + QStringLiteral("\\cudnn_cnn64_9.dll");
        // What `import torch` says there, in a traceback as a Windows console shows it (CRLF, as
        // the pyvenv.cfg Python writes and the RECORD pip writes).
        const QString error =
            QStringLiteral("OSError: [WinError 126] The specified module could not be found. "
                           "Error loading \"%1\" or one of its dependencies.")
                .arg(failing);
        const QString traceback =
            QStringList{QStringLiteral("Traceback (most recent call last):"),
                        QStringLiteral("  File \"C:\\Users\\ana\\train.py\", line 1, in <module>"),
                        QStringLiteral("    import torch"),
                        QStringLiteral("  File \"%1\\torch\\__init__.py\", line 274, in <module>").arg(site),
                        QStringLiteral("    _load_dll_libraries()"),
                        QStringLiteral("  File \"%1\\torch\\__init__.py\", line 270, in _load_dll_libraries")
                            .arg(site),
                        QStringLiteral("    raise err"),
                        error,
                        QString()}
                .join(QStringLiteral("\r\n"));
        tree.write(venv + QStringLiteral("\\pyvenv.cfg"),
                   "home = C:\\Python312\r\ninclude-system-site-packages = false\r\nversion = 3.12.8\r\n");
        const QJsonObject importFails{{QStringLiteral("error"), error}};
        trees::pythonStandin(tree, venv + QStringLiteral("\\Scripts\\python.exe"), QStringLiteral("3.12.8"),
                             QJsonDocument(importFails).toJson(QJsonDocument::Compact));
        trees::torchFiles(tree, site, QStringLiteral("2.8.0+cu128"), QStringLiteral("12.8"));
        tree.copyFrom(standinFolder(QStringLiteral("torch")) + QStringLiteral("\\torch_cuda.dll"),
                      torchLib + QStringLiteral("\\torch_cuda.dll"));
        tree.copyFrom(standinFolder(QStringLiteral("cuda-12.2")) + QStringLiteral("\\cudart64_12.dll"),
                      torchLib + QStringLiteral("\\cudart64_12.dll"));
        copyFamily(QStringLiteral("cudnn-9.18.0.77"), tree.hostPath(torchLib),
                   {QStringLiteral("cudnn64_9.dll")});
        tree.write(site + QStringLiteral("\\torch-2.8.0+cu128.dist-info\\RECORD"),
                   "torch/__init__.py,,\r\ntorch/lib/torch_cuda.dll,,\r\ntorch/lib/cudart64_12.dll,,\r\n");
        const QString placed = tree.hostPath(torchLib + QStringLiteral("\\cudnn64_9.dll"));

        // verify --for torch on the running system, in the venv as its activate.bat leaves it.
        QProcessEnvironment inVenv = QProcessEnvironment::systemEnvironment();
        inVenv.insert(QStringLiteral("VIRTUAL_ENV"), QDir::toNativeSeparators(tree.hostPath(venv)));
        const auto verifyTorch = [&inVenv] {
            return runCudnnctl({QStringLiteral("verify"), QStringLiteral("--for"), QStringLiteral("torch"),
                                QStringLiteral("--json"), QStringLiteral("--lang"), QStringLiteral("en")},
                               inVenv);
        };
        const CudnnctlRun before = verifyTorch();
        QCOMPARE(before.exitCode, 1);
        const QJsonObject failed = onlyConsumer(outputJson(before));
        QVERIFY2(boundPath(failed).isEmpty(), qPrintable(boundPath(failed)));
        QVERIFY2(findingIds(failed).contains(QStringLiteral("verify.for-load-failed")),
                 QJsonDocument(failed).toJson().constData());

        tree.write(QStringLiteral("C:\\Users\\ana\\error.txt"), traceback.toUtf8());
        // The stand-in archive, under NVIDIA's name, and a database that takes it for NVIDIA's file.
        const QString archive = BuildPaths::standinArchives() +
                                QStringLiteral("/cudnn-windows-x86_64-9.18.0.77_cuda12-archive.zip");
        QTemporaryDir work;
        QVERIFY(work.isValid());
        QProcessEnvironment environment = sandboxEnvironment();
        environment.insert(QStringLiteral("VIRTUAL_ENV"), venv);
        const QStringList doctor{
            QStringLiteral("doctor"),
            QStringLiteral("--from-log"),
            tree.hostPath(QStringLiteral("C:\\Users\\ana\\error.txt")),
            QStringLiteral("--archive"),
            archive,
            QStringLiteral("--compat-db"),
            archives::writeDatabaseKnowing(work.filePath(QStringLiteral("compat.json")), {archive}),
            QStringLiteral("--system-root"),
            tree.root(),
            QStringLiteral("--lang"),
            QStringLiteral("en")};
        const CudnnctlRun diagnosed =
            runCudnnctl(doctor + QStringList{QStringLiteral("--json")}, environment);
        const QJsonObject offered = outputJson(diagnosed);
        const QJsonObject signature = offered.value(QStringLiteral("log"))
                                          .toObject()
                                          .value(QStringLiteral("signatures"))
                                          .toArray()
                                          .first()
                                          .toObject();
        QCOMPARE(signature.value(QStringLiteral("library")).toString(), QStringLiteral("cudnn_cnn64_9.dll"));
        QCOMPARE(signature.value(QStringLiteral("consumer")).toString(), QStringLiteral("torch"));
        const QJsonObject first = offered.value(QStringLiteral("diagnoses")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("log.missing-library"));
        QVERIFY2(first.value(QStringLiteral("fix")).toString().contains(torchLib),
                 QJsonDocument(first).toJson().constData());
        // The archive as Windows writes paths, as the user gave it, not Qt's "Z:/work/...".
        QVERIFY2(first.value(QStringLiteral("fix"))
                     .toString()
                     .contains(QDir::toNativeSeparators(QFileInfo(archive).absoluteFilePath())),
                 QJsonDocument(first).toJson().constData());
        QVERIFY2(!first.value(QStringLiteral("repair")).isNull(), QJsonDocument(first).toJson().constData());
        // cudnn_cnn64_9.dll is there; what torch cannot reach is the main library that loads it.
        QVERIFY2(first.value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("no copy of cudnn64_9.dll is reachable")),
                 QJsonDocument(first).toJson().constData());

        const CudnnctlRun fixed =
            runCudnnctl(doctor + QStringList{QStringLiteral("--fix"), QStringLiteral("--yes")}, environment);
        QVERIFY2(fixed.exitCode == 0, fixed.out + fixed.err);
        QVERIFY(QFileInfo::exists(placed));
        const QString pastError =
            pastErrorProblem(runCudnnctl(doctor + QStringList{QStringLiteral("--json")}, environment));
        QVERIFY2(pastError.isEmpty(), qPrintable(pastError));

        const CudnnctlRun after = verifyTorch();
        QVERIFY2(after.exitCode == 0, after.out + after.err);
        const QJsonObject torch = onlyConsumer(outputJson(after));
        QCOMPARE(torch.value(QStringLiteral("name")).toString(), QStringLiteral("torch"));
        QVERIFY2(sameFile(boundPath(torch), placed), qPrintable(boundPath(torch)));
        QCOMPARE(torch.value(QStringLiteral("bound")).toObject().value(QStringLiteral("version")).toString(),
                 QStringLiteral("9.18.0"));
        QCOMPARE(findingIds(torch), QStringList());
    }

    // The 9.18 set and its CUDA runtime on the stored PATH: every library loads from its folder in
    // the fresh process, nothing is missing, the versions are the stand-ins', and without a GPU
    // the handle and convolution are skipped with the runtime's reason (35).
    void storedPathIsWhatTheProbeSees()
    {
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("cuda-12.2")), standinFolder(QStringLiteral("cudnn-9.18.0.77"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("9.18.0"));
        QCOMPARE(report.probeEnvironmentSource, QStringLiteral("registry"));
        QCOMPARE(stageOf(report, QStringLiteral("load")).status, VerifyStage::Status::Passed);
        QCOMPARE(report.probe.loads.size(), 8);
        QVERIFY2(report.loadedFrom().endsWith(QStringLiteral("cudnn-9.18.0.77\\cudnn64_9.dll"),
                                              Qt::CaseInsensitive) ||
                     report.loadedFrom().endsWith(QStringLiteral("cudnn-9.18.0.77/cudnn64_9.dll"),
                                                  Qt::CaseInsensitive),
                 qPrintable(report.loadedFrom()));
        QCOMPARE(stageOf(report, QStringLiteral("dependencies")).status, VerifyStage::Status::Passed);
        QCOMPARE(stageOf(report, QStringLiteral("version")).status, VerifyStage::Status::Passed);
        QCOMPARE(report.cudnnVersion, QStringLiteral("9.18.0"));
        QCOMPARE(stageOf(report, QStringLiteral("handle")).status, VerifyStage::Status::Skipped);
        QCOMPARE(report.probe.gpu.cudaError.value_or(0), 35);
        QCOMPARE(stageOf(report, QStringLiteral("convolution")).status, VerifyStage::Status::Skipped);
        QVERIFY(report.passed());
    }

    // With the stand-in GPU the handle and the convolution run and match the CPU.
    void standInGpuRunsTheConvolution()
    {
        qputenv("CUDNN_STANDIN_GPUS", "1");
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("cuda-12.2")), standinFolder(QStringLiteral("cudnn-9.18.0.77"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("9.18.0"));
        QCOMPARE(stageOf(report, QStringLiteral("handle")).status, VerifyStage::Status::Passed);
        QCOMPARE(stageOf(report, QStringLiteral("convolution")).status, VerifyStage::Status::Passed);
        QVERIFY(report.probe.gpu.maxAbsoluteError.has_value());
    }

    // cuDNN 8.9 imports zlibwapi.dll; with none on the stored PATH the load fails with 126 and the
    // dependency stage names zlibwapi.dll and who needs it.
    void missingZlibwapiIsNamed()
    {
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("cuda-12.2")), standinFolder(QStringLiteral("cudnn-8.9.7.29"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-8.9.7.29"), QStringLiteral("8.9.7"));
        QCOMPARE(stageOf(report, QStringLiteral("load")).status, VerifyStage::Status::Failed);
        QCOMPARE(report.probe.loads.first().errorCode, 126);
        const VerifyStage &dependencies = stageOf(report, QStringLiteral("dependencies"));
        QCOMPARE(dependencies.status, VerifyStage::Status::Failed);
        QVERIFY2(dependencies.message.toEnglish().contains(QStringLiteral("zlibwapi.dll")),
                 qPrintable(dependencies.message.toEnglish()));
        QVERIFY(dependencies.message.toEnglish().contains(QStringLiteral("cudnn64_8.dll")));
        QVERIFY(!report.passed());
    }

    // A 32-bit zlibwapi.dll first on the stored PATH: named as x86, error 193. (Wine's loader, when
    // resolving an import, passes over a DLL of the wrong machine and takes the 64-bit one after
    // it, so the load itself may pass here; cuDNN's own LoadLibrary("zlibwapi.dll") gets 193.)
    void x86DllInTheChainIsNamed()
    {
        if (!QFileInfo::exists(kStandins + QStringLiteral("/x86/zlibwapi.dll")))
            QSKIP("no 32-bit stand-in (no i686 MinGW compiler)");
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("x86")), standinFolder(QStringLiteral("zlib-1.2.3")),
             standinFolder(QStringLiteral("cuda-12.2")), standinFolder(QStringLiteral("cudnn-8.9.7.29"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-8.9.7.29"), QStringLiteral("8.9.7"));
        const VerifyStage &dependencies = stageOf(report, QStringLiteral("dependencies"));
        QCOMPARE(dependencies.status, VerifyStage::Status::Failed);
        QVERIFY2(dependencies.message.toEnglish().contains(QStringLiteral("x86")),
                 qPrintable(dependencies.message.toEnglish()));
        QVERIFY(dependencies.message.toEnglish().contains(QStringLiteral("zlibwapi.dll")));
        QVERIFY(dependencies.message.toEnglish().contains(QStringLiteral("193")));
    }

    // Started from a folder that holds another cuDNN (an unpacked archive's bin, where a student
    // opened the prompt), the probe still loads the copy the stored PATH gives: it runs in a folder
    // of its own, not in the caller's current directory, which Windows searches before PATH.
    void callersCurrentFolderIsNotSearched()
    {
        const QString before = QDir::currentPath();
        const auto back = qScopeGuard([&] { QDir::setCurrent(before); });
        QVERIFY(QDir::setCurrent(standinFolder(QStringLiteral("cudnn-9.1.0.70"))));
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("cuda-12.2")), standinFolder(QStringLiteral("cudnn-9.18.0.77"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("9.18.0"));
        QVERIFY2(stageOf(report, QStringLiteral("load")).status == VerifyStage::Status::Passed,
                 qPrintable(stageOf(report, QStringLiteral("load")).message.toEnglish()));
        QVERIFY2(report.loadedFrom().contains(QStringLiteral("cudnn-9.18.0.77"), Qt::CaseInsensitive),
                 qPrintable(report.loadedFrom()));
        QCOMPARE(report.cudnnVersion, QStringLiteral("9.18.0"));
    }

    // A copy of the 9.18 set without cudnn_graph64_9.dll: not loaded at all (the stand-in, like
    // NVIDIA's dispatcher, would end the process over it); the missing file and folder are named.
    void incompleteSetIsNamedBeforeLoading()
    {
        const auto [report, folder] = verifyCopyWithout(QStringLiteral("cudnn_graph64_9.dll"));
        const VerifyStage &load = stageOf(report, QStringLiteral("load"));
        QCOMPARE(load.status, VerifyStage::Status::Failed);
        QVERIFY2(load.message.toEnglish().contains(QStringLiteral("cudnn_graph64_9.dll")),
                 qPrintable(load.message.toEnglish()));
        QVERIFY2(load.message.toEnglish().contains(folder, Qt::CaseInsensitive),
                 qPrintable(load.message.toEnglish()));
        QVERIFY(findingIds(report.findings).contains(QStringLiteral("verify.libraries-missing")));
        QVERIFY(report.probe.loads.isEmpty());
    }

    // The set is all there but cudnn_graph64_9.dll is a 32-bit DLL: the probe's own load of it
    // fails, and when the handle is created the stand-in main library, like NVIDIA's, prints
    // "Could not load library cudnn_graph64_9.dll. Error code …" and ends the process. The
    // verification reads NVIDIA's words and names the file, instead of "could not be tried".
    void cudnnEndingTheProbeIsUnderstood()
    {
        if (!QFileInfo::exists(kStandins + QStringLiteral("/x86/zlibwapi.dll")))
            QSKIP("no 32-bit stand-in (no i686 MinGW compiler)");
        qputenv("CUDNN_STANDIN_GPUS", "1"); // so that the probe creates a handle
        const auto [report, folder] = verifyCopyWithout(QStringLiteral("cudnn_graph64_9.dll"),
                                                        kStandins + QStringLiteral("/x86/zlibwapi.dll"));
        const VerifyStage &load = stageOf(report, QStringLiteral("load"));
        QCOMPARE(load.status, VerifyStage::Status::Failed);
        QVERIFY2(
            findingIds(report.findings).contains(QStringLiteral("verify.cudnn-could-not-load")),
            qPrintable(findingIds(report.findings).join(QLatin1Char(' ')) + QLatin1Char(' ') + load.details));
        QVERIFY2(load.message.toEnglish().contains(QStringLiteral("cudnn_graph64_9.dll")),
                 qPrintable(load.message.toEnglish()));
        QVERIFY(load.details.contains(folder, Qt::CaseInsensitive));
    }

    // A venv's Python (3.8+) looks for DLLs in the folders os.add_dll_directory gave it, never
    // along PATH: with the CUDA runtime only on PATH, the stand-in cudnn64_9.dll (which imports it)
    // does not load for Python although it does for a program, and the dependency walk says the
    // same; with the runtime's folder added too, it loads, and cudnn_cnn64_9.dll finds the
    // cudnn_ops64_9.dll it imports in its own folder.
    void pythonConsumersDoNotSearchPath()
    {
        const QString cuda = standinFolder(QStringLiteral("cuda-12.2"));
        const QString cudnn = standinFolder(QStringLiteral("cudnn-9.18.0.77"));
        const SystemContext context = contextWithStoredPath({cuda, cudnn});
        const Expected<VerifySubject> found = subjectInFolder(context, cudnn, QStringLiteral("target"));
        QVERIFY(found);
        VerifySubject subject = *found;
        subject.expectedVersion = QStringLiteral("9.18.0");
        subject.loadModel = LoadModel::PythonDllDirectories;
        subject.dllDirectories = {cudnn};
        const VerifyReport pathOnly = verifySubject(context, subject);
        QCOMPARE(stageOf(pathOnly, QStringLiteral("load")).status, VerifyStage::Status::Failed);
        QCOMPARE(pathOnly.probe.loads.first().errorCode, 126);
        const VerifyStage &walk = stageOf(pathOnly, QStringLiteral("dependencies"));
        QCOMPARE(walk.status, VerifyStage::Status::Failed);
        QVERIFY2(walk.message.toEnglish().contains(QStringLiteral("cudart64_12.dll"), Qt::CaseInsensitive),
                 qPrintable(walk.message.toEnglish()));

        subject.dllDirectories = {cudnn, cuda};
        const VerifyReport added = verifySubject(context, subject);
        QVERIFY2(stageOf(added, QStringLiteral("load")).status == VerifyStage::Status::Passed,
                 qPrintable(stageOf(added, QStringLiteral("load")).message.toEnglish()));
        QCOMPARE(stageOf(added, QStringLiteral("dependencies")).status, VerifyStage::Status::Passed);
        QCOMPARE(added.probe.loads.size(), 8);
    }

    // An older cuDNN 9 earlier on the stored PATH wins the load: the file it loaded is named and
    // the version that answers is the older one's.
    void olderCopyEarlierOnPathIsNamed()
    {
        const SystemContext context = contextWithStoredPath(
            {standinFolder(QStringLiteral("zlib-1.2.3")), standinFolder(QStringLiteral("cuda-12.2")),
             standinFolder(QStringLiteral("cudnn-9.1.0.70")),
             standinFolder(QStringLiteral("cudnn-9.18.0.77"))});
        const VerifyReport report =
            verifyFolder(context, QStringLiteral("cudnn-9.18.0.77"), QStringLiteral("9.18.0"));
        const VerifyStage &load = stageOf(report, QStringLiteral("load"));
        QCOMPARE(load.status, VerifyStage::Status::Failed);
        QVERIFY2(load.message.toEnglish().contains(QStringLiteral("cudnn-9.1.0.70"), Qt::CaseInsensitive),
                 qPrintable(load.message.toEnglish()));
        // Tried again with its folder first on PATH, the copy asked about answers for itself, and
        // the findings say both.
        QVERIFY(report.targetProbe);
        const VerifyStage &version = stageOf(report, QStringLiteral("version"));
        QCOMPARE(version.status, VerifyStage::Status::Passed);
        QVERIFY2(version.message.toEnglish().contains(QStringLiteral("first on PATH")),
                 qPrintable(version.message.toEnglish()));
        QCOMPARE(report.cudnnVersion, QStringLiteral("9.18.0"));
        const auto works =
            std::find_if(report.findings.cbegin(), report.findings.cend(), [](const Finding &finding) {
                return finding.id == QLatin1String("verify.works-when-first");
            });
        QVERIFY(works != report.findings.cend());
        QVERIFY2(works->message.toEnglish().contains(QStringLiteral("(cuDNN 9.1.0)")),
                 qPrintable(works->message.toEnglish()));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinVerify)
#include "tst_win_verify.moc"
