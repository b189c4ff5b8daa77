// `cudnnctl verify`, `doctor` and `report` run as users run them, against the real cuDNN 9 and
// CUDA runtime of /usr/local/cuda-13.0 (Linux; this machine has no GPU driver, so the GPU stage
// takes its real skip path): a fresh process loads every library, names the file it loaded,
// notices another copy that wins, and the report files are written.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "ElfImage.h"
#include "FatbinImage.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kCudaLib = QStringLiteral("/usr/local/cuda-13.0/lib");

// The version cudnn_version.h of the toolkit states, "9.19.0".
QString headerVersion()
{
    QFile header(QStringLiteral("/usr/local/cuda-13.0/include/cudnn_version.h"));
    if (!header.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(header.readAll());
    QStringList parts;
    for (const char *name : {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}) {
        const auto match =
            QRegularExpression(QStringLiteral("#define %1\\s+(\\d+)").arg(QLatin1String(name))).match(text);
        if (!match.hasMatch())
            return {};
        parts.append(match.captured(1));
    }
    return parts.join(QLatin1Char('.'));
}

// Whether `probe` (a report's probe or targetProbe) loaded `count` libraries, each from `folder`.
bool allLoadedFrom(const QJsonValue &probe, qsizetype count, const QString &folder)
{
    const QJsonArray loads = probe.toObject().value(QStringLiteral("loads")).toArray();
    return loads.size() == count && std::all_of(loads.cbegin(), loads.cend(), [&](const QJsonValue &load) {
               return load.toObject()
                   .value(QStringLiteral("loadedFrom"))
                   .toString()
                   .startsWith(folder + QLatin1Char('/'));
           });
}

QJsonObject stageOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &stage : report.value(QStringLiteral("stages")).toArray()) {
        if (stage.toObject().value(QStringLiteral("id")).toString() == id)
            return stage.toObject();
    }
    return {};
}

// A folder of links to the real cuDNN libraries: another "copy" at another place.
void linkLibraries(const QString &folder, const QStringList &names)
{
    QDir().mkpath(folder);
    for (const QString &name : names)
        QVERIFY(QFile::link(QDir(kCudaLib).filePath(name), QDir(folder).filePath(name)));
}

QStringList cudnnSonames()
{
    return QDir(kCudaLib).entryList({QStringLiteral("libcudnn*.so.9")}, QDir::Files);
}

// A Windows tree (for --system-root) whose cuDNN 8.9, in the toolkit's bin on PATH, imports
// zlibwapi.dll and has none: what `doctor --fix` repairs by placing the project's own.
struct ZlibwapiMissing
{
    Sandbox sandbox;
    QString placed; // host path of the zlibwapi.dll the repair places
    QProcessEnvironment environment = sandboxEnvironment();

    ZlibwapiMissing()
    {
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("12.2.2"));
        const QString bin =
            QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\bin");
        peimage::ImageSpec importsZlib;
        importsZlib.imports = {"KERNEL32.dll", "zlibwapi.dll"};
        for (const QString &name : trees::cudnnWindowsDlls(8))
            sandbox.write(bin + QLatin1Char('\\') + name, peimage::buildImage(importsZlib).bytes);
        sandbox.write(
            QStringLiteral(
                "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\include\\cudnn_version.h"),
            trees::cudnnVersionHeader(8, 9, 7));
        placed = sandbox.hostPath(bin + QStringLiteral("\\zlibwapi.dll"));
        // The toolkit's bin folder on the tree's PATH, as CUDA's installer leaves it.
        environment.insert(QStringLiteral("PATH"), QStringLiteral("C:\\Windows\\System32;") + bin);
    }
    QStringList options(const QString &language) const
    {
        return {QStringLiteral("--system-root"), sandbox.root(), QStringLiteral("--lang"), language};
    }
    // Whether the doctor offers the repair (a build without a zlibwapi.dll to place does not).
    bool repairOffered() const
    {
        const QJsonObject report = outputJson(runCudnnctl(
            QStringList{QStringLiteral("doctor"), QStringLiteral("--json")} + options(QStringLiteral("en")),
            environment));
        for (const QJsonValue &diagnosis : report.value(QStringLiteral("diagnoses")).toArray()) {
            if (diagnosis.toObject().value(QStringLiteral("id")).toString() ==
                QLatin1String("doctor.zlibwapi-missing"))
                return true;
        }
        return false;
    }
};

// A Linux tree and what `verify --for` needs around it: the test-made Linux archives of cuDNN 8
// and 9 (their libraries ELF files ld.so loads, exporting nothing), installs and uninstalls under
// --system-root, and `verify --for` run on the running system, whose loader opens the tree's files
// by their host paths (a tree's programs are not loaded under --system-root).
struct LinuxTree
{
    Sandbox sandbox;
    QTemporaryDir archives;

    QString archive(const QString &version) const
    {
        const QString path =
            archives.filePath(QStringLiteral("cudnn-linux-x86_64-%1_cuda12-archive.zip").arg(version));
        QFile file(path);
        if (!file.exists() && file.open(QIODevice::WriteOnly))
            file.write(archives::linuxZip(version, QStringLiteral("12")));
        return path;
    }
    CudnnctlRun change(const QStringList &arguments) const
    {
        return runCudnnctl(arguments + QStringList{QStringLiteral("--json"), QStringLiteral("--system-root"),
                                                   sandbox.root(), QStringLiteral("--lang"),
                                                   QStringLiteral("en")},
                           sandboxEnvironment());
    }
    // Installs `version` into `target`; the receipt, empty when the install failed.
    QJsonObject install(const QString &version, const QString &target) const
    {
        const CudnnctlRun run =
            change({QStringLiteral("install"), QStringLiteral("--archive"), archive(version),
                    QStringLiteral("--target"), target, QStringLiteral("--path"), QStringLiteral("none"),
                    QStringLiteral("--allow-unverified-archive")});
        if (run.exitCode != 0)
            qWarning("install failed: %s %s", run.out.constData(), run.err.constData());
        return outputJson(run).value(QStringLiteral("receipt")).toObject();
    }
    // A program's own module at `path` that needs `soname` and searches `runpath` (tree terms).
    void consumer(const QString &path, const QString &soname, const QStringList &runpath) const
    {
        elfimage::SharedObject module;
        module.soname = QFileInfo(path).fileName();
        module.needed = {soname};
        module.runpath = runpath;
        sandbox.write(path, elfimage::build(module));
    }
    // `verify --for WHAT --json` on the running system, with this environment added.
    CudnnctlRun verifyFor(const QString &what, const QProcessEnvironment &extra = {}) const
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        for (const QString &key : extra.keys())
            environment.insert(key, extra.value(key));
        return runCudnnctl({QStringLiteral("verify"), QStringLiteral("--for"), what, QStringLiteral("--json"),
                            QStringLiteral("--lang"), QStringLiteral("en")},
                           environment);
    }
};

} // namespace

// The suites that load the real Linux cuDNN of /usr/local/cuda-13.0.
#ifdef Q_OS_LINUX
#define REQUIRE_REAL_CUDNN()                                                                                 \
    if (cudnnSonames().isEmpty() || headerVersion().isEmpty())                                               \
    QSKIP("no cuDNN 9 in /usr/local/cuda-13.0")
#else
#define REQUIRE_REAL_CUDNN() QSKIP("the real cuDNN of this test is the Linux one")
#endif

class TestCudnnctlVerify : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QProcessEnvironment withLibraryPath(const QStringList &folders)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("LD_LIBRARY_PATH"), folders.join(QLatin1Char(':')));
        environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        return environment;
    }

    static CudnnctlRun verify(const QStringList &arguments, const QProcessEnvironment &environment)
    {
        return runCudnnctl(QStringList{QStringLiteral("verify"), QStringLiteral("--json"),
                                       QStringLiteral("--lang"), QStringLiteral("en")} +
                               arguments,
                           environment);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The real libraries, found by name through LD_LIBRARY_PATH: every one loads from that folder,
    // nothing they need is missing, the version is the header's, and without a driver the GPU
    // stage is skipped with the CUDA runtime's own reason. Skips are not failures: exit 0.
    void realCudnnVerifies()
    {
        REQUIRE_REAL_CUDNN();
        const CudnnctlRun run = verify(
            {QStringLiteral("--target"), QStringLiteral("dir:") + kCudaLib, QStringLiteral("--no-framework")},
            withLibraryPath({kCudaLib}));
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/verify/1"));
        QCOMPARE(stageOf(report, QStringLiteral("load")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("passed"));
        QCOMPARE(report.value(QStringLiteral("loadedFrom")).toString(),
                 QDir(kCudaLib).filePath(QStringLiteral("libcudnn.so.9")));
        QVERIFY(allLoadedFrom(report.value(QStringLiteral("probe")), cudnnSonames().size(), kCudaLib));
        QCOMPARE(stageOf(report, QStringLiteral("dependencies")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("passed"));
        QCOMPARE(stageOf(report, QStringLiteral("version")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("passed"));
        QCOMPARE(report.value(QStringLiteral("cudnnVersion")).toString(), headerVersion());
        const QJsonObject handle = stageOf(report, QStringLiteral("handle"));
        if (handle.value(QStringLiteral("status")).toString() == QLatin1String("skipped")) {
            // No driver here: cudaGetDeviceCount answers 35 (insufficient driver) or 100 (no device).
            const QJsonObject gpu =
                report.value(QStringLiteral("probe")).toObject().value(QStringLiteral("gpu")).toObject();
            QVERIFY2(QList<int>({35, 100}).contains(gpu.value(QStringLiteral("cudaError")).toInt()),
                     QJsonDocument(gpu).toJson().constData());
            QVERIFY(!handle.value(QStringLiteral("message")).toString().isEmpty());
            QCOMPARE(
                stageOf(report, QStringLiteral("convolution")).value(QStringLiteral("status")).toString(),
                QStringLiteral("skipped"));
        }
        QCOMPARE(stageOf(report, QStringLiteral("framework")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("skipped"));
        QCOMPARE(run.exitCode, 0);
    }

    // Another copy earlier on the search path wins the main library: the load stage fails and
    // names the file that was really loaded.
    void copyEarlierOnPathIsNamed()
    {
        REQUIRE_REAL_CUDNN();
        const QString checked = m_dir.filePath(QStringLiteral("checked"));
        const QString earlier = m_dir.filePath(QStringLiteral("earlier"));
        linkLibraries(checked, cudnnSonames());
        linkLibraries(earlier, {QStringLiteral("libcudnn.so.9")});
        const CudnnctlRun run = verify({QStringLiteral("--target"), QStringLiteral("dir:") + checked,
                                        QStringLiteral("--no-framework"), QStringLiteral("--no-gpu")},
                                       withLibraryPath({earlier, checked}));
        const QJsonObject report = outputJson(run);
        const QJsonObject load = stageOf(report, QStringLiteral("load"));
        QCOMPARE(load.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QVERIFY2(load.value(QStringLiteral("message"))
                     .toString()
                     .contains(earlier + QStringLiteral("/libcudnn.so.9")),
                 qPrintable(load.value(QStringLiteral("message")).toString()));
        QVERIFY(findingIds(report).contains(QStringLiteral("verify.shadowed")));
        // On the command line the advice names the command (the wizard names its Repair button).
        QVERIFY2(load.value(QStringLiteral("fix"))
                     .toString()
                     .contains(QStringLiteral("cudnnctl doctor offers both")),
                 qPrintable(load.value(QStringLiteral("fix")).toString()));
        QCOMPARE(report.value(QStringLiteral("loadedFrom")).toString(),
                 earlier + QStringLiteral("/libcudnn.so.9"));
        // The copy asked about, tried again with its folder first: every library from there, and
        // the version stage answers for it.
        QVERIFY(allLoadedFrom(report.value(QStringLiteral("targetProbe")), cudnnSonames().size(), checked));
        const QJsonObject version = stageOf(report, QStringLiteral("version"));
        QCOMPARE(version.value(QStringLiteral("status")).toString(), QStringLiteral("passed"));
        QVERIFY2(version.value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("measured with %1 first on LD_LIBRARY_PATH").arg(checked)),
                 qPrintable(version.value(QStringLiteral("message")).toString()));
        QCOMPARE(report.value(QStringLiteral("cudnnVersion")).toString(), headerVersion());
        QVERIFY(findingIds(report).contains(QStringLiteral("verify.works-when-first")));
        QCOMPARE(run.exitCode, 1);
    }

    // The real cuDNN 9 with libcudnn_graph.so.9 left out: nothing is loaded (cuDNN would end the
    // probe over it), and the load stage names the missing file and where it should be.
    void incompleteSetIsNamedBeforeLoading()
    {
        REQUIRE_REAL_CUDNN();
        const QString incomplete = m_dir.filePath(QStringLiteral("incomplete"));
        QStringList names = cudnnSonames();
        QVERIFY(names.removeOne(QStringLiteral("libcudnn_graph.so.9")));
        linkLibraries(incomplete, names);
        const CudnnctlRun run = verify({QStringLiteral("--target"), QStringLiteral("dir:") + incomplete,
                                        QStringLiteral("--no-framework")},
                                       withLibraryPath({incomplete}));
        const QJsonObject report = outputJson(run);
        const QJsonObject load = stageOf(report, QStringLiteral("load"));
        QCOMPARE(load.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        const QString message = load.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("libcudnn_graph.so.9")) && message.contains(incomplete),
                 qPrintable(message));
        QVERIFY(findingIds(report).contains(QStringLiteral("verify.libraries-missing")));
        QVERIFY(report.value(QStringLiteral("probe"))
                    .toObject()
                    .value(QStringLiteral("loads"))
                    .toArray()
                    .isEmpty());
        QCOMPARE(run.exitCode, 1);
    }

    // An offline Windows image: no driver runs, yet its nvcuda.dll names the driver; verify checks
    // what files can show and says which stages it skipped on purpose.
    void offlineWindowsImage()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("12.2.2"));
        const QString cudnn = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
        trees::windowsCudnn(sandbox, cudnn + QStringLiteral("\\bin\\12.4"),
                            cudnn + QStringLiteral("\\include\\12.4"), 9, 1, 0);
        for (const QString &dll : trees::cudnnWindowsDlls(9)) // loadable-looking, importing only KERNEL32
            sandbox.write(cudnn + QStringLiteral("\\bin\\12.4\\") + dll, peimage::x64Dll());
        peimage::ImageSpec nvcuda;
        nvcuda.fileVersion = {32, 0, 15, 6094};
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\nvcuda.dll"), peimage::buildImage(nvcuda).bytes);
        const CudnnctlRun detected = runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json"),
                                                  QStringLiteral("--system-root"), sandbox.root()},
                                                 sandboxEnvironment());
        const QJsonObject driver = outputJson(detected).value(QStringLiteral("driver")).toObject();
        QCOMPARE(driver.value(QStringLiteral("version")).toString(), QStringLiteral("560.94"));
        QCOMPARE(driver.value(QStringLiteral("source")).toString(), QStringLiteral("nvcuda.dll"));

        const QString installer = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4");
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("verify"), QStringLiteral("--lang"), QStringLiteral("en"),
                         QStringLiteral("--system-root"), sandbox.root(), QStringLiteral("--target"),
                         QStringLiteral("dir:") + installer},
                        sandboxEnvironment());
        const QString text = QString::fromUtf8(run.out + run.err);
        QVERIFY2(text.contains(QStringLiteral("(9.1.0)")) && !text.contains(QStringLiteral("()")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("did not load")), qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("Not run, on purpose")),
                 5); // load, version, handle, convolution, framework
        QVERIFY2(text.contains(QStringLiteral("its files say cuDNN 9.1.0")), qPrintable(text));
        QCOMPARE(run.exitCode, 0); // what could be checked passed; the rest was skipped on purpose
    }

    // A Python without torch, named on purpose: the framework stage fails and says why.
    void pythonWithoutTorchFailsTheFrameworkStage()
    {
        REQUIRE_REAL_CUDNN();
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("no python3");
        const CudnnctlRun probe = runCudnnctl({QStringLiteral("--version")});
        QCOMPARE(probe.exitCode, 0);
        QProcess torchCheck;
        torchCheck.start(python, {QStringLiteral("-c"), QStringLiteral("import torch")});
        torchCheck.waitForFinished();
        if (torchCheck.exitCode() == 0)
            QSKIP("this python3 has torch");
        const CudnnctlRun run = verify({QStringLiteral("--target"), QStringLiteral("dir:") + kCudaLib,
                                        QStringLiteral("--no-gpu"), QStringLiteral("--python"), python},
                                       withLibraryPath({kCudaLib}));
        const QJsonObject report = outputJson(run);
        QCOMPARE(stageOf(report, QStringLiteral("framework")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("failed"));
        QVERIFY(findingIds(report).contains(QStringLiteral("verify.framework-unavailable")));
        QCOMPARE(run.exitCode, 1);
    }

    // Issue 32, side by side: cuDNN 8 beside one program (install --target app:FOLDER) and cuDNN 9
    // in the CUDA toolkit. Each program, loaded in a fresh process by its own RUNPATH, binds its own
    // copy, as detection predicted; uninstalling the app's copy leaves the toolkit's as it was, and
    // the program then binds nothing of the tree, as before the install.
    void verifyForBindsEachProgramToItsOwnCopy()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        QVERIFY(tree.archives.isValid());
        trees::linuxToolkit(tree.sandbox, QStringLiteral("12.2.2"), QStringLiteral("12.2.140"));
        const QJsonObject toolkit = tree.install(QStringLiteral("9.19.0.56"), QStringLiteral("cuda:12.2"));
        QString toolkitLib; // tree path of the folder the toolkit install put libcudnn.so.9.19.0 in
        for (const QJsonValue &file : toolkit.value(QStringLiteral("files")).toArray()) {
            const QString path = file.toObject().value(QStringLiteral("path")).toString();
            if (path.endsWith(QLatin1String("/libcudnn.so.9.19.0")))
                toolkitLib = QFileInfo(path).path();
        }
        QVERIFY2(!toolkitLib.isEmpty(), QJsonDocument(toolkit).toJson().constData());
        // What `ldconfig` does for a toolkit install run as root (the sandbox's is not run): the
        // soname links, from each library's DT_SONAME.
        QProcess ldconfig;
        ldconfig.start(QStringLiteral("/sbin/ldconfig"),
                       {QStringLiteral("-n"), tree.sandbox.hostPath(toolkitLib)});
        QVERIFY(ldconfig.waitForFinished() && ldconfig.exitCode() == 0);
        QVERIFY(QFileInfo(tree.sandbox.hostPath(toolkitLib + QStringLiteral("/libcudnn.so.9"))).isSymLink());

        // Whisper needs cuDNN 8 and searches its own folder; the other program reaches the toolkit's
        // folder through its RUNPATH (relative, so the tree and this host agree on it).
        tree.consumer(QStringLiteral("/opt/whisper/libwhisper.so"), QStringLiteral("libcudnn.so.8"),
                      {QStringLiteral("$ORIGIN")});
        tree.consumer(QStringLiteral("/opt/other/libother.so"), QStringLiteral("libcudnn.so.9"),
                      {QStringLiteral("$ORIGIN/../..") + toolkitLib});
        const QString whisper =
            QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/whisper"));
        const QString other = QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/other"));

        // Before the install nothing in the tree holds libcudnn.so.8: the loader says so (or binds
        // this host's own copy, where its ld.so cache has one).
        const auto bindsNothingOfTheTree = [&tree, &whisper] {
            const CudnnctlRun run = tree.verifyFor(whisper);
            const QJsonObject consumer = onlyConsumer(outputJson(run));
            if (boundPath(consumer).isEmpty())
                return run.exitCode == 1 &&
                       findingIds(consumer).contains(QStringLiteral("verify.for-load-failed")) &&
                       QJsonDocument(consumer).toJson().contains("libcudnn.so.8");
            return !boundPath(consumer).startsWith(tree.sandbox.root());
        };
        QVERIFY(bindsNothingOfTheTree());

        const TreeSnapshot toolkitBefore = TreeSnapshot::of(tree.sandbox.hostPath(toolkitLib));
        const QJsonObject app = tree.install(QStringLiteral("8.9.7.29"), QStringLiteral("app:/opt/whisper"));
        QVERIFY(!app.isEmpty());
        QVERIFY(TreeSnapshot::of(tree.sandbox.hostPath(toolkitLib)) == toolkitBefore);

        const CudnnctlRun eight = tree.verifyFor(whisper);
        QVERIFY2(eight.exitCode == 0, eight.out + eight.err);
        const QJsonObject eightReport = outputJson(eight);
        QCOMPARE(eightReport.value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/verify-for/1"));
        const QJsonObject bindsEight = onlyConsumer(eightReport);
        const QString besideWhisper = tree.sandbox.hostPath(QStringLiteral("/opt/whisper/libcudnn.so.8"));
        QCOMPARE(boundPath(bindsEight), besideWhisper);
        QCOMPARE(bindsEight.value(QStringLiteral("cudnnMajor")).toInt(), 8);
        QCOMPARE(
            bindsEight.value(QStringLiteral("resolves")).toObject().value(QStringLiteral("path")).toString(),
            besideWhisper);
        QCOMPARE(findingIds(bindsEight), QStringList());

        const CudnnctlRun nine = tree.verifyFor(other);
        QVERIFY2(nine.exitCode == 0, nine.out + nine.err);
        const QJsonObject bindsNine = onlyConsumer(outputJson(nine));
        QCOMPARE(QFileInfo(boundPath(bindsNine)).canonicalFilePath(),
                 QFileInfo(tree.sandbox.hostPath(toolkitLib + QStringLiteral("/libcudnn.so.9.19.0")))
                     .canonicalFilePath());
        QCOMPARE(
            bindsNine.value(QStringLiteral("bound")).toObject().value(QStringLiteral("version")).toString(),
            QStringLiteral("9.19.0"));
        // A program that loads its cuDNN only at run time, naming it in its data (TensorFlow's
        // dlopen): loading its module binds none, so verify --for loads the name as the module
        // would, and its RUNPATH leads to the toolkit's copy.
        elfimage::SharedObject lateLoader;
        lateLoader.soname = QStringLiteral("liblate.so");
        lateLoader.runpath = {QStringLiteral("$ORIGIN/../..") + toolkitLib};
        fatbinimage::Entry kernels; // GPU code is what makes a file a consumer worth reading
        kernels.arch = 90;
        lateLoader.sections = {{".rodata", QByteArrayLiteral("dlopen %s\0libcudnn.so.9\0")},
                               {".nv_fatbin", fatbinimage::container({kernels})}};
        tree.sandbox.write(QStringLiteral("/opt/late/liblate.so"), elfimage::build(lateLoader));
        const CudnnctlRun late =
            tree.verifyFor(QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/late")));
        QVERIFY2(late.exitCode == 0, late.out + late.err);
        const QJsonObject bindsLate = onlyConsumer(outputJson(late));
        QCOMPARE(bindsLate.value(QStringLiteral("cudnnMajor")).toInt(), 9);
        QCOMPARE(QFileInfo(boundPath(bindsLate)).canonicalFilePath(),
                 QFileInfo(tree.sandbox.hostPath(toolkitLib + QStringLiteral("/libcudnn.so.9.19.0")))
                     .canonicalFilePath());

        // In words too: the file bound and the one detection expected.
        const CudnnctlRun text = runCudnnctl({QStringLiteral("verify"), QStringLiteral("--for"), whisper,
                                              QStringLiteral("--lang"), QStringLiteral("en")});
        QVERIFY2(text.out.contains("cuDNN bound: " + besideWhisper.toUtf8()), text.out.constData());
        QVERIFY2(text.out.contains("Each program bound the cuDNN it needs."), text.out.constData());

        const CudnnctlRun removed =
            tree.change({QStringLiteral("uninstall"), app.value(QStringLiteral("id")).toString()});
        QVERIFY2(removed.exitCode == 0, removed.out + removed.err);
        QVERIFY(!QFileInfo::exists(besideWhisper));
        QVERIFY2(TreeSnapshot::of(tree.sandbox.hostPath(toolkitLib)) == toolkitBefore,
                 qPrintable(TreeSnapshot::of(tree.sandbox.hostPath(toolkitLib)).difference(toolkitBefore)));
        QVERIFY(bindsNothingOfTheTree());
        QCOMPARE(tree.verifyFor(other).exitCode, 0);
    }

    // Issue 33, end to end: a torch traceback naming a venv of the tree leads the doctor to torch's
    // own folder, which reaches no libcudnn.so.9; its repair puts the archive's cuDNN 9 there, and
    // then torch's libtorch_cuda.so, loaded in a fresh process by its own RUNPATH, binds it.
    void pastedTorchErrorRepairedThenVerified()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        QVERIFY(tree.archives.isValid());
        const QString venv = QStringLiteral("/home/ana/venv");
        const QString site = venv + QStringLiteral("/lib/python3.12/site-packages");
        tree.sandbox.write(venv + QStringLiteral("/pyvenv.cfg"), "home = /usr/bin\nversion = 3.12.3\n");
        trees::pythonStandin(tree.sandbox, venv + QStringLiteral("/bin/python"), QStringLiteral("3.12.3"),
                             trees::kTorchCu130);
        trees::torchFiles(tree.sandbox, site, QStringLiteral("2.8.0+cu128"), QStringLiteral("12.8"));
        trees::linuxTorchCuda(tree.sandbox, site, QStringLiteral("libcudnn.so.9"),
                              {QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"), QStringLiteral("$ORIGIN")});
        tree.sandbox.write(site + QStringLiteral("/torch/lib/libc10_cuda.so"),
                           elfimage::build({QStringLiteral("libc10_cuda.so"), {}, {}, {}}));
        tree.sandbox.write(site + QStringLiteral("/torch-2.8.0+cu128.dist-info/RECORD"),
                           "torch/__init__.py,,\ntorch/lib/libtorch_cuda.so,,\ntorch/lib/libc10_cuda.so,,\n");
        const QString torchLib = tree.sandbox.hostPath(site + QStringLiteral("/torch/lib"));
        QProcessEnvironment inVenv;
        inVenv.insert(QStringLiteral("VIRTUAL_ENV"), tree.sandbox.hostPath(venv));

        // Before the repair nothing in the tree holds libcudnn.so.9: torch binds none, or this
        // host's own copy where its ld.so cache has one.
        const CudnnctlRun before = tree.verifyFor(QStringLiteral("torch"), inVenv);
        const QString boundBefore = boundPath(onlyConsumer(outputJson(before)));
        QVERIFY2(!boundBefore.startsWith(tree.sandbox.root()), qPrintable(boundBefore));
        QCOMPARE(before.exitCode, boundBefore.isEmpty() ? 1 : 0);

        QTemporaryDir folder;
        const QString log = folder.filePath(QStringLiteral("traceback.txt"));
        QFile file(log);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Traceback (most recent call last):\n  File \"/home/ana/train.py\", line 1, in <module>\n"
                   "    import torch\n  File \"" +
                   site.toUtf8() +
                   "/torch/__init__.py\", line 290, in <module>\n    from torch._C import *  # noqa: F403\n"
                   "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n");
        file.close();
        QProcessEnvironment environment = sandboxEnvironment();
        environment.insert(QStringLiteral("VIRTUAL_ENV"), venv);
        const QStringList doctor{QStringLiteral("doctor"),
                                 QStringLiteral("--from-log"),
                                 log,
                                 QStringLiteral("--archive"),
                                 tree.archive(QStringLiteral("9.19.0.56")),
                                 QStringLiteral("--system-root"),
                                 tree.sandbox.root(),
                                 QStringLiteral("--lang"),
                                 QStringLiteral("en")};
        const QJsonObject offered =
            outputJson(runCudnnctl(doctor + QStringList{QStringLiteral("--json")}, environment));
        const QJsonObject first = offered.value(QStringLiteral("diagnoses")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("log.missing-library"));
        QVERIFY2(first.value(QStringLiteral("fix")).toString().contains(site + QStringLiteral("/torch/lib")),
                 QJsonDocument(first).toJson().constData());
        QVERIFY2(!first.value(QStringLiteral("repair")).isNull(), QJsonDocument(first).toJson().constData());

        const CudnnctlRun fixed =
            runCudnnctl(doctor + QStringList{QStringLiteral("--fix"), QStringLiteral("--yes")}, environment);
        QVERIFY2(fixed.exitCode == 0, fixed.out + fixed.err);
        QVERIFY(QFileInfo::exists(torchLib + QStringLiteral("/libcudnn.so.9")));
        const QString pastError =
            pastErrorProblem(runCudnnctl(doctor + QStringList{QStringLiteral("--json")}, environment));
        QVERIFY2(pastError.isEmpty(), qPrintable(pastError));

        const CudnnctlRun after = tree.verifyFor(QStringLiteral("torch"), inVenv);
        QVERIFY2(after.exitCode == 0, after.out + after.err);
        const QJsonObject torch = onlyConsumer(outputJson(after));
        QCOMPARE(torch.value(QStringLiteral("name")).toString(), QStringLiteral("torch"));
        QCOMPARE(boundPath(torch), torchLib + QStringLiteral("/libcudnn.so.9"));
        QCOMPARE(torch.value(QStringLiteral("resolves")).toObject().value(QStringLiteral("path")).toString(),
                 torchLib + QStringLiteral("/libcudnn.so.9"));
    }

    // A cuDNN 8 file under cuDNN 9's soname: the program needing 9 loads, but binds cuDNN 8, which
    // is named as the wrong major (exit 1).
    void wrongMajorBoundIsNamed()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        tree.sandbox.write(QStringLiteral("/opt/mixed/libcudnn.so.8.9.7"),
                           elfimage::build({QStringLiteral("libcudnn.so.8"), {}, {}, {}}));
        tree.sandbox.symlink(QStringLiteral("libcudnn.so.8.9.7"), QStringLiteral("/opt/mixed/libcudnn.so.9"));
        tree.consumer(QStringLiteral("/opt/mixed/libmixed.so"), QStringLiteral("libcudnn.so.9"),
                      {QStringLiteral("$ORIGIN")});
        const CudnnctlRun run =
            tree.verifyFor(QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/mixed")));
        QCOMPARE(run.exitCode, 1);
        const QJsonObject consumer = onlyConsumer(outputJson(run));
        QCOMPARE(boundPath(consumer), tree.sandbox.hostPath(QStringLiteral("/opt/mixed/libcudnn.so.9")));
        QCOMPARE(
            consumer.value(QStringLiteral("bound")).toObject().value(QStringLiteral("version")).toString(),
            QStringLiteral("8.9.7"));
        QCOMPARE(findingIds(consumer), QStringList{QStringLiteral("verify.for-wrong-major")});
    }

    // A program that uses the CUDA runtime and no cuDNN loads, binds none, and passes.
    void programWithoutCudnnPasses()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        tree.sandbox.write(QStringLiteral("/opt/plain/libcudart.so.12"),
                           elfimage::build({QStringLiteral("libcudart.so.12"), {}, {}, {}}));
        tree.consumer(QStringLiteral("/opt/plain/libplain.so"), QStringLiteral("libcudart.so.12"),
                      {QStringLiteral("$ORIGIN")});
        const CudnnctlRun run =
            tree.verifyFor(QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/plain")));
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        const QJsonObject consumer = onlyConsumer(outputJson(run));
        QVERIFY(consumer.value(QStringLiteral("bound")).isNull());
        QCOMPARE(findingIds(consumer), QStringList{QStringLiteral("verify.for-no-cudnn-needed")});
    }

    // A program whose module crashes as it is loaded ends the probe process, not cudnnctl: the
    // report says loading it ended the test process.
    void crashingModuleEndsOnlyTheProbe()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        tree.sandbox.write(QStringLiteral("/opt/crash/libcudnn.so.9"),
                           elfimage::build({QStringLiteral("libcudnn.so.9"), {}, {}, {}}));
        elfimage::SharedObject crashing{QStringLiteral("libcrash.so"),
                                        {QStringLiteral("libcudnn.so.9")},
                                        {QStringLiteral("$ORIGIN")},
                                        {}};
        crashing.crashesWhenLoaded = true;
        tree.sandbox.write(QStringLiteral("/opt/crash/libcrash.so"), elfimage::build(crashing));
        const CudnnctlRun run =
            tree.verifyFor(QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/crash")));
        QCOMPARE(run.exitCode, 1);
        const QJsonObject consumer = onlyConsumer(outputJson(run));
        QCOMPARE(consumer.value(QStringLiteral("name")).toString(), QStringLiteral("libcrash.so"));
        QCOMPARE(findingIds(consumer), QStringList{QStringLiteral("verify.for-probe-ended")});
    }

    // A program's module stays loaded until the probe ends, as in the program itself: one that
    // faults when unloaded (seen with JAX's XLA plugin on the H200) is still verified.
    void moduleThatCannotBeUnloadedIsVerified()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "loads the Linux tree's files with this host's ld.so");
        LinuxTree tree;
        tree.sandbox.write(QStringLiteral("/opt/plugin/libcudnn.so.9"),
                           elfimage::build({QStringLiteral("libcudnn.so.9"), {}, {}, {}}));
        elfimage::SharedObject plugin{QStringLiteral("libplugin.so"),
                                      {QStringLiteral("libcudnn.so.9")},
                                      {QStringLiteral("$ORIGIN")},
                                      {}};
        plugin.crashesWhenUnloaded = true;
        tree.sandbox.write(QStringLiteral("/opt/plugin/libplugin.so"), elfimage::build(plugin));
        const CudnnctlRun run =
            tree.verifyFor(QStringLiteral("app:") + tree.sandbox.hostPath(QStringLiteral("/opt/plugin")));
        const QJsonObject consumer = onlyConsumer(outputJson(run));
        QCOMPARE(consumer.value(QStringLiteral("name")).toString(), QStringLiteral("libplugin.so"));
        QVERIFY2(!findingIds(consumer).contains(QStringLiteral("verify.for-probe-ended")),
                 run.out.constData());
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(boundPath(consumer).endsWith(QStringLiteral("/opt/plugin/libcudnn.so.9")),
                 run.out.constData());
    }

    // A folder without cuDNN is a usage error, not a verification.
    void folderWithoutCudnnIsRefused()
    {
        REQUIRE_REAL_CUDNN();
        const QString empty = m_dir.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        const CudnnctlRun run =
            verify({QStringLiteral("--target"), QStringLiteral("dir:") + empty}, withLibraryPath({}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("no cuDNN library"), run.err.constData());
    }

    // Options of other commands are refused with the command they belong to.
    void misplacedOptionsAreRefused()
    {
        const CudnnctlRun run = runCudnnctl({QStringLiteral("verify"), QStringLiteral("--fix")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("doctor"));
    }

    // `report --out DIR` writes the three files, the JSON with the verification in it.
    void reportWritesThreeFiles()
    {
        REQUIRE_REAL_CUDNN();
        const QString folder = m_dir.filePath(QStringLiteral("report"));
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("report"), QStringLiteral("--out"), folder,
                         QStringLiteral("--no-framework"), QStringLiteral("--lang"), QStringLiteral("en")},
                        withLibraryPath({kCudaLib}));
        QCOMPARE(run.exitCode, 0);
        for (const char *name : {"report.json", "report.html", "environment_versions.txt"})
            QVERIFY2(QFile::exists(QDir(folder).filePath(QLatin1String(name))), name);
        QFile json(QDir(folder).filePath(QStringLiteral("report.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/report/1"));
        QCOMPARE(report.value(QStringLiteral("verify")).toObject().value(QStringLiteral("schema")).toString(),
                 QStringLiteral("cudnn-setup/verify/1"));
    }

    // The doctor's JSON on this machine: its schema and the copies it found.
    void doctorReportsCopies()
    {
        REQUIRE_REAL_CUDNN();
        const CudnnctlRun run = runCudnnctl({QStringLiteral("doctor"), QStringLiteral("--json"),
                                             QStringLiteral("--lang"), QStringLiteral("en")},
                                            withLibraryPath({kCudaLib}));
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/doctor/1"));
        QVERIFY(run.exitCode == 0 || run.exitCode == 1);
    }

    // `doctor --fix --yes` on a Windows tree (--system-root) whose cuDNN 8.9 imports zlibwapi.dll
    // and has none: the repair places the project's own, the doctor then finds no such problem,
    // and `uninstall` of the repair's receipt takes the file away again.
    void doctorFixesAndUninstallUndoes()
    {
        const ZlibwapiMissing tree;
        const QString &placed = tree.placed;
        const QProcessEnvironment &environment = tree.environment;
        const QStringList common = tree.options(QStringLiteral("en"));

        const CudnnctlRun fix = runCudnnctl(QStringList{QStringLiteral("doctor"), QStringLiteral("--fix"),
                                                        QStringLiteral("--yes"), QStringLiteral("--json")} +
                                                common,
                                            environment);
        const QJsonObject outcome = outputJson(fix);
        const QJsonObject before = outcome.value(QStringLiteral("before")).toObject();
        QStringList beforeIds;
        for (const QJsonValue &diagnosis : before.value(QStringLiteral("diagnoses")).toArray())
            beforeIds.append(diagnosis.toObject().value(QStringLiteral("id")).toString());
        if (!beforeIds.contains(QStringLiteral("doctor.zlibwapi-missing")))
            QSKIP("this build has no zlibwapi.dll to place");
        QCOMPARE(fix.exitCode, 0);
        QVERIFY(QFile::exists(placed));
        for (const QJsonValue &diagnosis :
             outcome.value(QStringLiteral("after")).toObject().value(QStringLiteral("diagnoses")).toArray())
            QVERIFY(diagnosis.toObject().value(QStringLiteral("id")).toString() !=
                    QLatin1String("doctor.zlibwapi-missing"));
        const QString receipt = outcome.value(QStringLiteral("change"))
                                    .toObject()
                                    .value(QStringLiteral("receipt"))
                                    .toObject()
                                    .value(QStringLiteral("id"))
                                    .toString();
        QVERIFY(!receipt.isEmpty());

        const CudnnctlRun undo =
            runCudnnctl(QStringList{QStringLiteral("uninstall"), receipt} + common.mid(0, 2), environment);
        QVERIFY2(undo.exitCode == 0, undo.out.constData());
        QVERIFY(!QFile::exists(placed));
    }

    // `doctor --fix` asks before each repair, in the user's language: in Chinese a typed "是" is a
    // yes (read as text, whatever the console's code page), anything else a no.
    void doctorTakesAChineseYes()
    {
        const ZlibwapiMissing tree;
        if (!tree.repairOffered())
            QSKIP("this build has no zlibwapi.dll to place");
        const QStringList fix = QStringList{QStringLiteral("doctor"), QStringLiteral("--fix")} +
                                tree.options(QStringLiteral("zh_CN"));

        const CudnnctlRun declined =
            runCudnnctl(fix, tree.environment, BuildPaths::cudnnctl(), {}, QStringLiteral("否\n").toUtf8());
        QVERIFY2(QString::fromUtf8(declined.out).contains(QStringLiteral("没有做任何改动")),
                 declined.out.constData());
        QVERIFY(!QFile::exists(tree.placed));

        const CudnnctlRun accepted =
            runCudnnctl(fix, tree.environment, BuildPaths::cudnnctl(), {}, QStringLiteral("是\n").toUtf8());
        QVERIFY2(accepted.exitCode == 0, accepted.out + accepted.err);
        QVERIFY(QFile::exists(tree.placed));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlVerify)
#include "tst_cudnnctl_verify.moc"
