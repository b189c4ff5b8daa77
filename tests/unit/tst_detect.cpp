#include "MemoryRegistry.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "detect/Detector.h"
#include "platform/SystemContext.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <algorithm>

using namespace cudnnsetup;

namespace {

SystemContext sandboxContext(const Sandbox &sandbox, OsFamily family, const QProcessEnvironment &environment,
                             std::shared_ptr<Registry> registry = Registry::unavailable())
{
    return SystemContext(FileSystem(family, sandbox.root()), EnvironmentStore(family, environment, registry),
                         registry, std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

const Finding *findingOf(const SystemSnapshot &snapshot, const QString &id)
{
    for (const Finding &finding : snapshot.findings) {
        if (finding.id == id)
            return &finding;
    }
    return nullptr;
}

const CudnnCopy *copyIn(const SystemSnapshot &snapshot, const QString &directory)
{
    for (const CudnnCopy &copy : snapshot.cudnn) {
        if (copy.directory == directory)
            return &copy;
    }
    return nullptr;
}

// The Python at `path` (Windows paths compare without case), or an empty one.
PythonInstall pythonAt(const SystemSnapshot &snapshot, const QString &path)
{
    const Qt::CaseSensitivity sensitivity =
        path.contains(QLatin1Char('\\')) ? Qt::CaseInsensitive : Qt::CaseSensitive;
    for (const PythonInstall &python : snapshot.pythons) {
        if (python.path.compare(path, sensitivity) == 0)
            return python;
    }
    return PythonInstall();
}

QProcessEnvironment linuxEnvironment(const QString &path)
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), path);
    environment.insert(QStringLiteral("HOME"), QStringLiteral("/root"));
    return environment;
}

} // namespace

class TestDetect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linuxMachineWithThreeToolkitsAndFiveCopies()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/etc/os-release"),
                      "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nVERSION_ID=\"24.04\"\n");
        trees::linuxToolkit(sandbox, QStringLiteral("11.8.0"), QStringLiteral("11.8.89"));
        trees::linuxToolkit(sandbox, QStringLiteral("12.2.2"), QStringLiteral("12.2.140"));
        trees::linuxToolkit(sandbox, QStringLiteral("13.0.2"), QStringLiteral("13.0.96"),
                            false); // version from the cudart name
        sandbox.symlink(QStringLiteral("/usr/local/cuda-13.0"), QStringLiteral("/usr/local/cuda"));
        const QString cuda122 = QStringLiteral("/usr/local/cuda-12.2/targets/x86_64-linux/lib");
        const QString cuda130 = QStringLiteral("/usr/local/cuda-13.0/targets/x86_64-linux/lib");
        trees::linuxCudnn(sandbox, cuda122, QStringLiteral("/usr/local/cuda-12.2/include"), 8, 9, 7);
        trees::linuxCudnn(sandbox, cuda130, QStringLiteral("/usr/local/cuda-13.0/include"), 9, 19, 0);
        trees::linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
                          QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 14, 0);
        trees::linuxCudnn(sandbox, QStringLiteral("/opt/cudnn-8.6/lib"), QString(), 8, 6, 0);
        const QString site = QStringLiteral("/opt/torch/.venv/lib/python3.12/site-packages");
        trees::linuxCudnn(sandbox, site + QStringLiteral("/nvidia/cudnn/lib"),
                          site + QStringLiteral("/nvidia/cudnn/include"), 9, 19, 0);
        sandbox.mkdir(site + QStringLiteral("/nvidia_cudnn_cu13-9.19.0.56.dist-info"));
        sandbox.write(QStringLiteral("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        sandbox.write(QStringLiteral("/etc/ld.so.conf.d/988_cuda-13.conf"),
                      "/usr/local/cuda-13.0/targets/x86_64-linux/lib\n");
        sandbox.write(
            QStringLiteral("/etc/ld.so.conf.d/x86_64-linux-gnu.conf"),
            "# Multiarch "
            "support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n");
        trees::recordedNvidiaSmi(sandbox, QStringLiteral("/usr/bin/nvidia-smi"));
        sandbox.write(QStringLiteral("/opt/torch/.venv/pyvenv.cfg"), "home = /usr/bin\nversion = 3.12.3\n");
        trees::pythonStandin(
            sandbox, QStringLiteral("/opt/torch/.venv/bin/python"), QStringLiteral("3.12.3"),
            "{\"version\": \"2.11.0+cu130\", \"cuda\": \"13.0\", \"cudnn\": 91900, "
            "\"cudaAvailable\": true, \"cudnnLoadedFrom\": "
            "\"/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9\"}");
        trees::torchFiles(sandbox, site, QStringLiteral("2.11.0+cu130"), QStringLiteral("13.0"));
        trees::linuxTorchCuda(sandbox, site, QStringLiteral("libcudnn.so.9"),
                              {QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"), QStringLiteral("$ORIGIN")});

        QProcessEnvironment environment =
            linuxEnvironment(QStringLiteral("/opt/torch/.venv/bin:/usr/bin:/bin"));
        environment.insert(QStringLiteral("LD_LIBRARY_PATH"), QStringLiteral("/opt/cudnn-8.6/lib"));
        environment.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("0"));
        const SystemSnapshot snapshot = detectSystem(sandboxContext(sandbox, OsFamily::Linux, environment));

        QCOMPARE(snapshot.os.family, QStringLiteral("linux"));
        QCOMPARE(snapshot.os.name, QStringLiteral("Ubuntu 24.04.3 LTS"));
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.gpus.first().name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(snapshot.gpus.first().computeCapability, QStringLiteral("9.0"));
        QCOMPARE(snapshot.gpus.first().memoryMiB, 143771);
        QVERIFY(snapshot.driver);
        QCOMPARE(snapshot.driver->version, QStringLiteral("580.159.04"));
        QCOMPARE(snapshot.driver->maxCuda, QStringLiteral("13.0"));
        QVERIFY(snapshot.driver->working);

        QCOMPARE(snapshot.cudaToolkits.size(), 3);
        QCOMPARE(snapshot.cudaToolkits.at(0).version,
                 QStringLiteral("13.0")); // cudart 13.0.96 counts builds, not updates
        QCOMPARE(snapshot.cudaToolkits.at(0).path, QStringLiteral("/usr/local/cuda-13.0"));
        QCOMPARE(snapshot.cudaToolkits.at(0).versionSource, QStringLiteral("cudart-file-name"));
        QCOMPARE(snapshot.cudaToolkits.at(1).version, QStringLiteral("12.2.2"));
        QCOMPARE(snapshot.cudaToolkits.at(1).versionSource, QStringLiteral("version.json"));
        QCOMPARE(snapshot.cudaToolkits.at(2).version, QStringLiteral("11.8.0"));

        QCOMPARE(snapshot.cudnn.size(), 5);
        const CudnnCopy *toolkit13 = copyIn(snapshot, cuda130);
        QVERIFY(toolkit13);
        QCOMPARE(toolkit13->version, QStringLiteral("9.19.0"));
        QCOMPARE(toolkit13->source, QStringLiteral("toolkit"));
        QCOMPARE(toolkit13->cudaMajor, std::optional<int>(13));
        QCOMPARE(toolkit13->versionSource, QStringLiteral("header"));
        QCOMPARE(toolkit13->path, cuda130 + QStringLiteral("/libcudnn.so.9"));
        QCOMPARE(toolkit13->loadOrder, std::optional<int>(1)); // first in ld.so.conf
        const CudnnCopy *system = copyIn(snapshot, QStringLiteral("/usr/lib/x86_64-linux-gnu"));
        QVERIFY(system);
        QCOMPARE(system->version, QStringLiteral("9.14.0"));
        QCOMPARE(system->headerPath, QStringLiteral("/usr/include/x86_64-linux-gnu/cudnn_version.h"));
        QCOMPARE(system->cudaMajor, std::nullopt);
        QCOMPARE(system->loadOrder, std::optional<int>(2));
        const CudnnCopy *pip = copyIn(snapshot, site + QStringLiteral("/nvidia/cudnn/lib"));
        QVERIFY(pip);
        QCOMPARE(pip->source, QStringLiteral("pip"));
        QCOMPARE(pip->version, QStringLiteral("9.19.0"));
        QCOMPARE(pip->cudaMajor, std::optional<int>(13));
        QCOMPARE(pip->loadOrder, std::nullopt);
        const CudnnCopy *cudnn86 = copyIn(snapshot, QStringLiteral("/opt/cudnn-8.6/lib"));
        QVERIFY(cudnn86);
        QCOMPARE(cudnn86->version, QStringLiteral("8.6.0"));
        QCOMPARE(cudnn86->versionSource, QStringLiteral("file-name"));
        QCOMPARE(cudnn86->loadOrder, std::optional<int>(1)); // LD_LIBRARY_PATH comes first
        const CudnnCopy *toolkit12 = copyIn(snapshot, cuda122);
        QVERIFY(toolkit12);
        QCOMPARE(toolkit12->version, QStringLiteral("8.9.7"));
        QCOMPARE(toolkit12->loadOrder, std::nullopt);

        const Finding *shadowed = findingOf(snapshot, QStringLiteral("cudnn.shadowed"));
        QVERIFY(shadowed);
        QVERIFY(shadowed->message.toString().contains(cuda130));
        QCOMPARE(snapshot.cudnnLoadedByDefault()->path, toolkit13->path);

        QCOMPARE(snapshot.pythons.size(), 1);
        const PythonInstall &python = snapshot.pythons.first();
        QCOMPARE(python.path, QStringLiteral("/opt/torch/.venv/bin/python"));
        QCOMPARE(python.source, QStringLiteral("venv"));
        QCOMPARE(python.version, QStringLiteral("3.12.3"));
        QVERIFY(python.torch);
        QCOMPARE(python.torch->version, QStringLiteral("2.11.0+cu130"));
        QCOMPARE(python.torch->cuda, QStringLiteral("13.0"));
        // Read from the files: torch's RUNPATH reaches the wheel's copy (LD_LIBRARY_PATH, searched
        // first, has only cuDNN 8); whether torch sees a GPU only the interpreter can say.
        QCOMPARE(python.factsFrom, QStringLiteral("files"));
        QCOMPARE(python.torch->cudnnLoadedFrom, pip->path);
        QCOMPARE(python.torch->cudnn, QStringLiteral("9.19.0"));
        QCOMPARE(python.torch->cudaAvailable, std::nullopt);

        QCOMPARE(snapshot.environment.cudaVisibleDevices, QStringLiteral("0"));
        QVERIFY(findingOf(snapshot, QStringLiteral("env.cuda-visible-devices")));
        QVERIFY(!hasErrors(snapshot.findings));
    }

    // Every environment is described from its files while its interpreter would take 20 s to
    // answer: nothing is run (the stand-ins leave a mark when they are).
    void linuxPythonsAreReadNotRun()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "the stand-in interpreters are shell scripts");
        Sandbox sandbox;
        const QString ran = sandbox.hostPath(QStringLiteral("/tmp/an-interpreter-ran"));
        const QByteArray slowPython = "touch '" + ran.toUtf8() + "'\nsleep 20\n";

        // A venv with torch for CUDA 13 and NVIDIA's cuDNN wheel, reached through torch's RUNPATH.
        const QString venv = QStringLiteral("/home/student/venv");
        sandbox.write(venv + QStringLiteral("/pyvenv.cfg"),
                      "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
        sandbox.writeScriptBody(venv + QStringLiteral("/bin/python"), slowPython);
        const QString venvSite = venv + QStringLiteral("/lib/python3.12/site-packages");
        trees::torchFiles(sandbox, venvSite, QStringLiteral("2.11.0+cu130"), QStringLiteral("13.0"));
        trees::linuxTorchCuda(sandbox, venvSite, QStringLiteral("libcudnn.so.9"),
                              {QStringLiteral("$ORIGIN/../../nvidia/cudnn/lib"), QStringLiteral("$ORIGIN")});
        trees::linuxCudnn(sandbox, venvSite + QStringLiteral("/nvidia/cudnn/lib"),
                          venvSite + QStringLiteral("/nvidia/cudnn/include"), 9, 19, 0);
        sandbox.mkdir(venvSite + QStringLiteral("/nvidia_cudnn_cu13-9.19.0.56.dist-info"));
        sandbox.mkdir(venvSite + QStringLiteral("/jax-0.11.2.dist-info"));
        sandbox.mkdir(venvSite + QStringLiteral("/jax_cuda13_plugin-0.11.2.dist-info"));

        // A conda env with torch for CUDA 12 carrying its own cuDNN 8 in torch/lib, and TensorFlow.
        const QString conda = QStringLiteral("/home/student/miniconda3");
        sandbox.mkdir(conda + QStringLiteral("/conda-meta"));
        const QString env = conda + QStringLiteral("/envs/cu121");
        sandbox.write(env + QStringLiteral("/conda-meta/python-3.11.9-h955ad1f_0.json"), "{}");
        sandbox.writeScriptBody(env + QStringLiteral("/bin/python"), slowPython);
        const QString envSite = env + QStringLiteral("/lib/python3.11/site-packages");
        trees::torchFiles(sandbox, envSite, QStringLiteral("2.3.1+cu121"), QStringLiteral("12.1"));
        trees::linuxTorchCuda(sandbox, envSite, QStringLiteral("libcudnn.so.8"), {QStringLiteral("$ORIGIN")});
        trees::linuxCudnn(sandbox, envSite + QStringLiteral("/torch/lib"), QString(), 8, 9, 2);
        sandbox.mkdir(envSite + QStringLiteral("/tensorflow-2.16.1.dist-info"));
        sandbox.write(envSite + QStringLiteral("/paddle/version/__init__.py"),
                      "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\nfull_version    = '3.0.0'\n"
                      "major           = '3'\ncuda_version    = '12.6'\ncudnn_version   = '9.5.1'\n"
                      "with_mkl        = 'ON'\n");

        // pyenv with 3.11.7 selected: its shims stand for that interpreter; the shims of commands
        // 3.11.7 lacks (python3.12, python3.9) reach nothing.
        const QString pyenv = QStringLiteral("/home/student/.pyenv");
        for (const QString &shim :
             {QStringLiteral("python"), QStringLiteral("python3"), QStringLiteral("python3.11"),
              QStringLiteral("python3.12"), QStringLiteral("python3.9")})
            sandbox.writeScriptBody(pyenv + QStringLiteral("/shims/") + shim, slowPython);
        sandbox.write(pyenv + QStringLiteral("/version"), "3.11.7\n");
        const QString selected = pyenv + QStringLiteral("/versions/3.11.7");
        sandbox.writeScriptBody(selected + QStringLiteral("/bin/python3.11"), slowPython);
        sandbox.symlink(QStringLiteral("python3.11"), selected + QStringLiteral("/bin/python3"));
        sandbox.symlink(QStringLiteral("python3.11"), selected + QStringLiteral("/bin/python"));
        sandbox.write(selected + QStringLiteral("/include/python3.11/patchlevel.h"),
                      "#define PY_MAJOR_VERSION 3\n#define PY_VERSION \"3.11.7\"\n");
        sandbox.writeScriptBody(pyenv + QStringLiteral("/versions/3.12.1/bin/python3.12"), slowPython);
        // pip install --user: torch in the user's site-packages for 3.11.
        trees::torchFiles(sandbox, QStringLiteral("/home/student/.local/lib/python3.11/site-packages"),
                          QStringLiteral("2.5.1+cpu"), QString());

        QProcessEnvironment environment = linuxEnvironment(pyenv + QStringLiteral("/shims:/usr/bin:/bin"));
        environment.insert(QStringLiteral("VIRTUAL_ENV"), venv);
        const SystemSnapshot snapshot = detectSystem(sandboxContext(sandbox, OsFamily::Linux, environment));

        QVERIFY2(!QFile::exists(ran), "an interpreter was run");
        QCOMPARE(snapshot.pythons.size(), 3);
        const PythonInstall inVenv = pythonAt(snapshot, venv + QStringLiteral("/bin/python"));
        QCOMPARE(inVenv.factsFrom, QStringLiteral("files"));
        QCOMPARE(inVenv.version, QStringLiteral("3.12.3"));
        QVERIFY(inVenv.torch);
        QCOMPARE(inVenv.torch->version, QStringLiteral("2.11.0+cu130"));
        QCOMPARE(inVenv.torch->cuda, QStringLiteral("13.0"));
        QCOMPARE(inVenv.torch->cudnnLoadedFrom, venvSite + QStringLiteral("/nvidia/cudnn/lib/libcudnn.so.9"));
        QCOMPARE(inVenv.torch->cudnn, QStringLiteral("9.19.0"));
        QVERIFY(inVenv.probeError.isEmpty());
        QCOMPARE(inVenv.frameworks.size(), 1);
        const FrameworkInfo &jax = inVenv.frameworks.first();
        QCOMPARE(jax.name, QStringLiteral("jax"));
        QCOMPARE(jax.version, QStringLiteral("0.11.2"));
        QCOMPARE(jax.cuda, QStringLiteral("13"));
        QCOMPARE(jax.cudnnLoadedFrom, venvSite + QStringLiteral("/nvidia/cudnn/lib/libcudnn.so.9"));
        QCOMPARE(jax.cudnn, QStringLiteral("9.19.0"));

        const PythonInstall inConda = pythonAt(snapshot, env + QStringLiteral("/bin/python"));
        QCOMPARE(inConda.source, QStringLiteral("conda"));
        QCOMPARE(inConda.version, QStringLiteral("3.11.9"));
        QVERIFY(inConda.torch);
        QCOMPARE(inConda.torch->cuda, QStringLiteral("12.1"));
        QCOMPARE(inConda.torch->cudnnLoadedFrom, envSite + QStringLiteral("/torch/lib/libcudnn.so.8"));
        QCOMPARE(inConda.torch->cudnn, QStringLiteral("8.9.2"));
        QCOMPARE(inConda.tensorflow, QStringLiteral("2.16.1"));
        QCOMPARE(inConda.frameworks.size(), 1);
        QCOMPARE(inConda.frameworks.first().name, QStringLiteral("paddle"));
        QCOMPARE(inConda.frameworks.first().version, QStringLiteral("3.0.0"));
        QCOMPARE(inConda.frameworks.first().cuda, QStringLiteral("12.6"));
        QCOMPARE(inConda.frameworks.first().cudnn, QStringLiteral("9.5.1"));

        const PythonInstall inPyenv = pythonAt(snapshot, selected + QStringLiteral("/bin/python"));
        QCOMPARE(inPyenv.source, QStringLiteral("pyenv"));
        QCOMPARE(inPyenv.version, QStringLiteral("3.11.7"));
        QVERIFY(inPyenv.names.contains(pyenv + QStringLiteral("/shims/python3.11")));
        QVERIFY(inPyenv.names.contains(selected + QStringLiteral("/bin/python3")));
        for (const QString &name : inPyenv.names)
            QVERIFY2(!name.endsWith(QLatin1String("3.12")) && !name.endsWith(QLatin1String("3.9")),
                     qPrintable(name));
        QVERIFY(inPyenv.torch);
        QCOMPARE(inPyenv.torch->version, QStringLiteral("2.5.1+cpu"));
        QVERIFY(inPyenv.torch->cuda.isNull());
        QVERIFY(!findingOf(snapshot, QStringLiteral("python.probe-failed")));

        // In a project folder whose .python-version (or a parent's) selects 3.12.1, the shims stand
        // for that version's interpreter instead.
        sandbox.write(QStringLiteral("/home/student/project/.python-version"), "3.12.1\n");
        environment.insert(QStringLiteral("PWD"), QStringLiteral("/home/student/project/src"));
        const SystemSnapshot inProject = detectSystem(sandboxContext(sandbox, OsFamily::Linux, environment));
        QVERIFY2(!QFile::exists(ran), "an interpreter was run");
        const auto projectPython = std::find_if(
            inProject.pythons.cbegin(), inProject.pythons.cend(), [&](const PythonInstall &candidate) {
                return candidate.path == pyenv + QStringLiteral("/versions/3.12.1/bin/python3.12");
            });
        QVERIFY(projectPython != inProject.pythons.cend());
        QCOMPARE(projectPython->names, QStringList{pyenv + QStringLiteral("/shims/python3.12")});
        QVERIFY(std::none_of(
            inProject.pythons.cbegin(), inProject.pythons.cend(),
            [&](const PythonInstall &candidate) { return candidate.path.startsWith(selected); }));
    }

    // The same on Windows' layouts: torch's own cuDNN in torch\lib, conda's in Library\bin reached
    // through torch_cuda.dll's imports, versions from python.exe's version resource and conda-meta,
    // torch installed with --user, a Store alias passed over for its registry entry.
    void windowsPythonsAreReadNotRun()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const auto program = [](QList<int> version) {
            peimage::ImageSpec spec;
            spec.characteristics = 0x0022; // an executable, not a DLL
            spec.fileVersion = version;
            spec.productVersion = version;
            return peimage::buildImage(spec).bytes;
        };
        const auto cudnnDlls = [&](const QString &dir, QList<int> version) {
            trees::windowsCudnn(sandbox, dir, QString(), version.first(), 0, 0);
            peimage::ImageSpec spec;
            spec.fileVersion = version;
            sandbox.write(dir + QStringLiteral("\\cudnn64_%1.dll").arg(version.first()),
                          peimage::buildImage(spec).bytes);
        };

        const QString venv = QStringLiteral("C:\\Users\\student\\venv");
        sandbox.write(venv + QStringLiteral("\\pyvenv.cfg"), "home = C:\\Python312\n");
        sandbox.write(venv + QStringLiteral("\\Scripts\\python.exe"), program({3, 12, 8150, 1013}));
        const QString venvSite = venv + QStringLiteral("\\Lib\\site-packages");
        trees::torchFiles(sandbox, venvSite, QStringLiteral("2.6.0+cu124"), QStringLiteral("12.4"));
        cudnnDlls(venvSite + QStringLiteral("\\torch\\lib"), {9, 1, 0, 70});

        const QString conda = QStringLiteral("C:\\Users\\student\\miniconda3");
        sandbox.mkdir(conda + QStringLiteral("\\conda-meta"));
        const QString env = conda + QStringLiteral("\\envs\\cu118");
        sandbox.write(env + QStringLiteral("\\conda-meta\\python-3.10.14-h4de0772_0_cpython.json"), "{}");
        sandbox.write(env + QStringLiteral("\\python.exe"), program({3, 10, 14150, 1013}));
        const QString envSite = env + QStringLiteral("\\Lib\\site-packages");
        trees::torchFiles(sandbox, envSite, QStringLiteral("2.0.1+cu118"), QStringLiteral("11.8"));
        peimage::ImageSpec torchCuda;
        torchCuda.imports = {"cudnn64_8.dll", "KERNEL32.dll"};
        sandbox.write(envSite + QStringLiteral("\\torch\\lib\\torch_cuda.dll"),
                      peimage::buildImage(torchCuda).bytes);
        cudnnDlls(env + QStringLiteral("\\Library\\bin"), {8, 7, 0, 84});

        sandbox.write(QStringLiteral("C:\\Python312\\python.exe"), program({3, 12, 8150, 1013}));
        // A venv of that Python whose torch has no cuDNN of its own: torch_cuda.dll's import is
        // found in the base installation's folder, where the real python.exe runs from.
        const QString bare = QStringLiteral("C:\\Users\\student\\bare");
        sandbox.write(bare + QStringLiteral("\\pyvenv.cfg"), "home = C:\\Python312\nversion = 3.12.8\n");
        sandbox.write(bare + QStringLiteral("\\Scripts\\python.exe"), program({3, 12, 8150, 1013}));
        const QString bareSite = bare + QStringLiteral("\\Lib\\site-packages");
        trees::torchFiles(sandbox, bareSite, QStringLiteral("2.4.1+cu121"), QStringLiteral("12.1"));
        peimage::ImageSpec bareTorchCuda;
        bareTorchCuda.imports = {"cudnn64_9.dll", "KERNEL32.dll"};
        sandbox.write(bareSite + QStringLiteral("\\torch\\lib\\torch_cuda.dll"),
                      peimage::buildImage(bareTorchCuda).bytes);
        cudnnDlls(QStringLiteral("C:\\Python312"), {9, 3, 0, 75});
        trees::torchFiles(
            sandbox, QStringLiteral("C:\\Users\\student\\AppData\\Roaming\\Python\\Python312\\site-packages"),
            QStringLiteral("2.5.1+cpu"), QString());
        const QString store =
            QStringLiteral("C:\\Program Files\\WindowsApps\\PythonSoftwareFoundation.Python."
                           "3.13_3.13.1264.0_x64__qbz5n2kfra8p0");
        sandbox.write(store + QStringLiteral("\\python.exe"), program({3, 13, 1150, 1013}));
        const QString alias =
            QStringLiteral("C:\\Users\\student\\AppData\\Local\\Microsoft\\WindowsApps\\"
                           "PythonSoftwareFoundation.Python.3.13_qbz5n2kfra8p0\\python.exe");
        sandbox.write(alias);

        auto registry = std::make_shared<MemoryRegistry>();
        registry->setString(RegistryHive::LocalMachine,
                            QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.12\\InstallPath"),
                            QStringLiteral("ExecutablePath"), QStringLiteral("C:\\Python312\\python.exe"));
        const QString storeKey = QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.13\\InstallPath");
        registry->setString(RegistryHive::CurrentUser, storeKey, QStringLiteral("ExecutablePath"), alias);
        registry->setString(RegistryHive::CurrentUser, storeKey, QStringLiteral(""), store); // (Default)
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("Path"), QStringLiteral("C:\\Windows\\system32;C:\\Python312;") +
                                                       bare + QStringLiteral("\\Scripts"));
        environment.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
        environment.insert(QStringLiteral("VIRTUAL_ENV"), venv);
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Windows, environment, registry));

        const PythonInstall inVenv = pythonAt(snapshot, venv + QStringLiteral("\\Scripts\\python.exe"));
        QCOMPARE(inVenv.version, QStringLiteral("3.12.8"));
        QCOMPARE(inVenv.bits, 64);
        QVERIFY(inVenv.torch);
        QCOMPARE(inVenv.torch->cudnnLoadedFrom, venvSite + QStringLiteral("\\torch\\lib\\cudnn64_9.dll"));
        QCOMPARE(inVenv.torch->cudnn, QStringLiteral("9.1.0"));

        const PythonInstall inConda = pythonAt(snapshot, env + QStringLiteral("\\python.exe"));
        QCOMPARE(inConda.version, QStringLiteral("3.10.14"));
        QVERIFY(inConda.torch);
        QCOMPARE(inConda.torch->cudnnLoadedFrom, env + QStringLiteral("\\Library\\bin\\cudnn64_8.dll"));
        QCOMPARE(inConda.torch->cudnn, QStringLiteral("8.7.0"));

        const PythonInstall inBare = pythonAt(snapshot, bare + QStringLiteral("\\Scripts\\python.exe"));
        QVERIFY(inBare.torch);
        QCOMPARE(inBare.torch->cudnnLoadedFrom, QStringLiteral("C:\\Python312\\cudnn64_9.dll"));
        QCOMPARE(inBare.torch->cudnn, QStringLiteral("9.3.0"));

        const PythonInstall system = pythonAt(snapshot, QStringLiteral("C:\\Python312\\python.exe"));
        QCOMPARE(system.version, QStringLiteral("3.12.8"));
        QVERIFY(system.torch);
        QCOMPARE(system.torch->version, QStringLiteral("2.5.1+cpu"));

        const PythonInstall fromStore = pythonAt(snapshot, store + QStringLiteral("\\python.exe"));
        QCOMPARE(fromStore.source, QStringLiteral("registry"));
        QCOMPARE(fromStore.version, QStringLiteral("3.13.1"));
        for (const PythonInstall &candidate : snapshot.pythons)
            QCOMPARE(candidate.factsFrom, QStringLiteral("files"));
    }

    void windowsMachineFromItsFilesAndRegistry()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("11.8.0"));
        trees::windowsToolkit(sandbox, QStringLiteral("12.2.2"));
        trees::windowsToolkit(sandbox, QStringLiteral("13.0.2"));
        const QString cuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
        trees::windowsCudnn(sandbox, cuda + QStringLiteral("v12.2\\bin"),
                            cuda + QStringLiteral("v12.2\\include"), 8, 9, 7);
        const QString installer = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
        trees::windowsCudnn(sandbox, installer + QStringLiteral("\\bin\\12.4"),
                            installer + QStringLiteral("\\include\\12.4"), 9, 1, 0);
        const QString conda = QStringLiteral("C:\\Users\\student\\miniconda3");
        sandbox.mkdir(conda + QStringLiteral("\\conda-meta"));
        sandbox.write(conda + QStringLiteral("\\python.exe"), "MZ-not-a-real-exe");
        trees::windowsCudnn(sandbox, conda + QStringLiteral("\\envs\\tf\\Library\\bin"),
                            conda + QStringLiteral("\\envs\\tf\\Library\\include"), 8, 1, 0);
        sandbox.mkdir(conda + QStringLiteral("\\envs\\tf\\conda-meta"));
        sandbox.write(conda + QStringLiteral("\\envs\\tf\\python.exe"), "MZ-not-a-real-exe");
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll"),
                      "MZ"); // a stale copy someone dropped there
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll"), "MZ");
        sandbox.write(QStringLiteral("C:\\Python312\\python.exe"), "MZ-not-a-real-exe");
        sandbox.write(QStringLiteral("C:\\Python312\\Lib\\site-packages\\torch\\version.py"),
                      "from typing import Optional\n__version__ = '2.5.1+cpu'\ndebug = False\ncuda: "
                      "Optional[str] = None\n");
        sandbox.write(QStringLiteral(
            "C:\\Users\\student\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe")); // Store alias

        auto registry = std::make_shared<MemoryRegistry>();
        const QString adapters = QStringLiteral(
            "SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}");
        registry->setString(RegistryHive::LocalMachine, adapters + QStringLiteral("\\0000"),
                            QStringLiteral("MatchingDeviceId"), QStringLiteral("PCI\\VEN_8086&DEV_A780"));
        registry->setString(RegistryHive::LocalMachine, adapters + QStringLiteral("\\0000"),
                            QStringLiteral("DriverDesc"), QStringLiteral("Intel(R) UHD Graphics 770"));
        registry->setString(RegistryHive::LocalMachine, adapters + QStringLiteral("\\0001"),
                            QStringLiteral("MatchingDeviceId"),
                            QStringLiteral("PCI\\VEN_10DE&DEV_2684&SUBSYS_16F110DE"));
        registry->setString(RegistryHive::LocalMachine, adapters + QStringLiteral("\\0001"),
                            QStringLiteral("DriverDesc"), QStringLiteral("NVIDIA GeForce RTX 4090"));
        registry->setString(RegistryHive::LocalMachine, adapters + QStringLiteral("\\0001"),
                            QStringLiteral("DriverVersion"), QStringLiteral("32.0.15.6094"));
        registry->setString(RegistryHive::LocalMachine,
                            QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.12\\InstallPath"),
                            QStringLiteral("ExecutablePath"), QStringLiteral("C:\\Python312\\python.exe"));
        const QString machineEnvironment = EnvironmentStore::registryKey(EnvironmentScope::System);
        registry->setString(RegistryHive::LocalMachine, machineEnvironment, QStringLiteral("Path"),
                            QStringLiteral("%SystemRoot%\\system32;") + cuda + QStringLiteral("v12.2\\bin;") +
                                installer + QStringLiteral("\\bin;C:\\Tools\\new"),
                            RegistryValue::ExpandString);

        QProcessEnvironment environment;
        environment.insert(
            QStringLiteral("Path"),
            QStringLiteral("C:\\Windows\\system32;") + cuda + QStringLiteral("v12.2\\bin;") + installer +
                QStringLiteral("\\bin;C:\\Users\\student\\AppData\\Local\\Microsoft\\WindowsApps"));
        environment.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
        environment.insert(QStringLiteral("CUDA_PATH"), cuda + QStringLiteral("v12.2"));
        environment.insert(QStringLiteral("CUDA_PATH_V12_2"), cuda + QStringLiteral("v12.2"));
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Windows, environment, registry));

        QCOMPARE(snapshot.os.family, QStringLiteral("windows"));
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.gpus.first().name, QStringLiteral("NVIDIA GeForce RTX 4090"));
        QCOMPARE(snapshot.gpus.first().source, QStringLiteral("registry"));
        QVERIFY(snapshot.driver);
        QCOMPARE(snapshot.driver->version, QStringLiteral("560.94"));
        QVERIFY(snapshot.driver->maxCuda.isNull()); // nothing could ask the driver: unknown, not guessed

        QCOMPARE(snapshot.cudaToolkits.size(), 3);
        QCOMPARE(snapshot.cudaToolkits.at(0).version, QStringLiteral("13.0.2"));
        QCOMPARE(snapshot.cudaToolkits.at(0).binDir, cuda + QStringLiteral("v13.0\\bin\\x64"));
        QCOMPARE(snapshot.cudaToolkits.at(1).path, cuda + QStringLiteral("v12.2"));
        QCOMPARE(snapshot.cudaToolkits.at(1).source, QStringLiteral("CUDA_PATH"));
        QCOMPARE(snapshot.cudaToolkits.at(2).source, QStringLiteral("default-folder"));
        QCOMPARE(snapshot.environment.cudaPathToolkit, cuda + QStringLiteral("v12.2"));

        const CudnnCopy *inToolkit = copyIn(snapshot, cuda + QStringLiteral("v12.2\\bin"));
        QVERIFY(inToolkit);
        QCOMPARE(inToolkit->version, QStringLiteral("8.9.7"));
        QCOMPARE(inToolkit->cudaMajor, std::optional<int>(12));
        QCOMPARE(inToolkit->libraries.size(), 7);
        QCOMPARE(inToolkit->loadOrder, std::optional<int>(2));
        const CudnnCopy *system32 = copyIn(snapshot, QStringLiteral("C:\\Windows\\System32"));
        QVERIFY(system32);
        QCOMPARE(system32->source, QStringLiteral("system32"));
        QVERIFY(system32->version.isNull());
        QCOMPARE(system32->loadOrder, std::optional<int>(1));
        const CudnnCopy *fromInstaller = copyIn(snapshot, installer + QStringLiteral("\\bin\\12.4"));
        QVERIFY(fromInstaller);
        QCOMPARE(fromInstaller->source, QStringLiteral("cudnn-installer"));
        QCOMPARE(fromInstaller->version, QStringLiteral("9.1.0"));
        QCOMPARE(fromInstaller->cudaMajor, std::optional<int>(12));
        QCOMPARE(fromInstaller->loadOrder, std::nullopt); // PATH names ...\bin, one level too high
        const CudnnCopy *inConda = copyIn(snapshot, conda + QStringLiteral("\\envs\\tf\\Library\\bin"));
        QVERIFY(inConda);
        QCOMPARE(inConda->source, QStringLiteral("conda"));
        QCOMPARE(inConda->version, QStringLiteral("8.1.0"));
        QVERIFY(findingOf(snapshot, QStringLiteral("cudnn.shadowed")));

        QCOMPARE(snapshot.zlibwapi, QStringList{QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll")});
        QCOMPARE(snapshot.environment.pathStale, std::optional<bool>(true));
        QVERIFY(findingOf(snapshot, QStringLiteral("env.path-stale"))
                    ->details.contains(QLatin1String("C:\\Tools\\new")));

        // Python found through PEP 514 and conda; the Store alias is skipped; torch read from its files.
        QStringList paths;
        for (const PythonInstall &python : snapshot.pythons)
            paths.append(python.path);
        QVERIFY2(paths.contains(QStringLiteral("C:\\Python312\\python.exe")),
                 qPrintable(paths.join(QLatin1Char(' '))));
        QVERIFY(paths.contains(conda + QStringLiteral("\\envs\\tf\\python.exe")));
        QVERIFY(!paths.join(QLatin1Char(' ')).contains(QLatin1String("WindowsApps")));
        for (const PythonInstall &python : snapshot.pythons) {
            if (python.path == QLatin1String("C:\\Python312\\python.exe")) {
                QCOMPARE(python.source, QStringLiteral("registry"));
                QVERIFY(python.torch);
                QCOMPARE(python.torch->version, QStringLiteral("2.5.1+cpu"));
                QVERIFY(python.torch->cuda.isNull());
            }
        }
    }

    // The Windows tree's nvidia-smi.exe and python.exe really run (under Wine on Linux CI).
    void windowsWorkstationRunsItsTools()
    {
        SKIP_UNLESS_HOST(OsFamily::Windows, "runs the Windows tree's programs");
        Sandbox sandbox;
        trees::windowsWorkstation(sandbox);
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("C:\\Windows\\System32;C:\\Python312"));
        DetectOptions options;
        options.probePythons = true; // the interpreter is asked too (detect --python-probe)
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Windows, environment), options);
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.gpus.first().name, QStringLiteral("NVIDIA GeForce RTX 3080"));
        QCOMPARE(snapshot.gpus.first().computeCapability, QStringLiteral("8.6"));
        QCOMPARE(snapshot.gpus.first().source, QStringLiteral("nvidia-smi"));
        QVERIFY(snapshot.driver);
        QCOMPARE(snapshot.driver->version, QStringLiteral("591.59"));
        QCOMPARE(snapshot.driver->maxCuda, QStringLiteral("13.1"));
        QCOMPARE(snapshot.cudaToolkits.size(), 3);
        QCOMPARE(snapshot.cudnn.size(), 2);
        QCOMPARE(snapshot.pythons.size(), 1);
        const PythonInstall &python = snapshot.pythons.first();
        QCOMPARE(python.path, QStringLiteral("C:\\Python312\\python.exe"));
        QCOMPARE(python.version, QStringLiteral("3.12.8"));
        QCOMPARE(python.bits, 64); // read from the stand-in's PE header
        QCOMPARE(python.arch, QStringLiteral("x64"));
        QCOMPARE(python.factsFrom, QStringLiteral("interpreter"));
        QVERIFY(python.torch);
        QVERIFY(python.torch->cuda.isNull());
        QCOMPARE(python.torch->cudaAvailable, std::optional<bool>(false));
        QVERIFY(!hasErrors(snapshot.findings));
    }

    void brokenDriverIsAFindingNotACrash()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        ToolBehaviour failing;
        failing.output =
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
            "that the latest NVIDIA driver is installed and running.\n\n";
        failing.exitCode = 9;
        sandbox.writeTool(QStringLiteral("/usr/bin/nvidia-smi"), failing);
        sandbox.write(QStringLiteral("/proc/driver/nvidia/version"),
                      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
                      "(dvs-builder@U22)  Thu Oct 2 2026\n"
                      "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n");
        sandbox.write(QStringLiteral("/proc/driver/nvidia/gpus/0000:00:06.0/information"),
                      "Model: \t\t NVIDIA H200\nIRQ:   \t\t 35\nGPU UUID: \t "
                      "GPU-24d30ffc-2e67-3002-d0aa-b0fecdbad5c0\n");
        const SystemSnapshot snapshot = detectSystem(
            sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QStringLiteral("/usr/bin"))));
        const Finding *failure = findingOf(snapshot, QStringLiteral("driver.not-working"));
        QVERIFY(failure);
        QCOMPARE(failure->severity, Severity::Error);
        QVERIFY(failure->details.contains(QLatin1String("couldn't communicate")));
        QVERIFY(snapshot.driver);
        QCOMPARE(snapshot.driver->version, QStringLiteral("580.159.04"));
        QVERIFY(!snapshot.driver->working);
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.gpus.first().name, QStringLiteral("NVIDIA H200"));
    }

    // An elevated or SYSTEM process runs nvidia-smi from where the driver puts it, never from a
    // PATH folder that someone else may have written: the same planted program is run for the user
    // and not for the administrator.
    void anElevatedRunTakesNoToolFromPath()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::recordedNvidiaSmi(sandbox, QStringLiteral("/home/student/bin/nvidia-smi"));
        const SystemContext context =
            sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QStringLiteral("/home/student/bin")));
        QVERIFY(!detectSystem(context).gpus.isEmpty());
        const SystemSnapshot elevated = detectSystem(context.withToolsFromPath(false));
        QVERIFY(elevated.gpus.isEmpty());
        QVERIFY(findingOf(elevated, QStringLiteral("gpu.none")));
    }

    void hungNvidiaSmiIsStopped()
    {
        // Whatever the host, its own kind of tree: the hung program must really run and be killed.
        Sandbox sandbox;
        ToolBehaviour hung;
        hung.sleepMs = 60000;
        trees::hostTool(sandbox, trees::HostTool::NvidiaSmi, hung);
        DetectOptions options;
        options.toolTimeoutMs = 300;
        QElapsedTimer timer;
        timer.start();
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, hostOsFamily(), linuxEnvironment(QString())), options);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(findingOf(snapshot, QStringLiteral("nvidia-smi.timeout")));
        QVERIFY(findingOf(snapshot, QStringLiteral("gpu.none")));
    }

    void garbageVersionFilesFallBack()
    {
        Sandbox sandbox;
        trees::linuxToolkit(sandbox, QStringLiteral("12.4.1"), QStringLiteral("12.4.127"));
        sandbox.write(QStringLiteral("/usr/local/cuda-12.4/version.json"),
                      "{\"cuda\": {\"version\": \"\xff\xfe garbage\"");
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QString())));
        QCOMPARE(snapshot.cudaToolkits.size(), 1);
        QCOMPARE(snapshot.cudaToolkits.first().version, QStringLiteral("12.4"));
        QCOMPARE(snapshot.cudaToolkits.first().versionSource, QStringLiteral("cudart-file-name"));
        QVERIFY(findingOf(snapshot, QStringLiteral("cuda.version-unreadable")));
    }

    void aptPackagesTellReleaseAndCudaMajor()
    {
        Sandbox sandbox;
        trees::linuxToolkit(sandbox, QStringLiteral("13.0.2"), QStringLiteral("13.0.96"), false);
        trees::linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
                          QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 14, 0);
        sandbox.write(QStringLiteral("/var/lib/dpkg/status"),
                      "Package: cuda-toolkit-13-0\nStatus: deinstall ok config-files\nVersion: 13.0.1-1\n\n"
                      "Package: cuda-cudart-13-0\nStatus: install ok installed\nVersion: 13.0.96-1\n\n"
                      "Package: cuda-libraries-13-0\nStatus: install ok installed\nArchitecture: "
                      "amd64\nVersion: 13.0.2-1\n\n");
        sandbox.write(
            QStringLiteral("/var/lib/dpkg/info/libcudnn9-cuda-13.list"),
            "/.\n/usr\n/usr/lib\n/usr/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0\n"
            "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n");
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QString())));
        QCOMPARE(snapshot.cudaToolkits.size(), 1);
        QCOMPARE(snapshot.cudaToolkits.first().version,
                 QStringLiteral("13.0.2")); // the removed toolkit meta package is not it
        QCOMPARE(snapshot.cudaToolkits.first().versionSource, QStringLiteral("dpkg"));
        const CudnnCopy *system = copyIn(snapshot, QStringLiteral("/usr/lib/x86_64-linux-gnu"));
        QVERIFY(system);
        QCOMPARE(system->cudaMajor, std::optional<int>(13));
        QCOMPARE(system->owner, QStringLiteral("libcudnn9-cuda-13"));
    }

    void gpuWithoutDriverIsNamedFromPci()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "sysfs is made of symbolic links");
        Sandbox sandbox;
        const QString device = QStringLiteral("/sys/devices/pci0000:00/0000:01:00.0");
        sandbox.write(device + QStringLiteral("/vendor"), "0x10de\n");
        sandbox.write(device + QStringLiteral("/device"), "0x2684\n");
        sandbox.write(device + QStringLiteral("/class"), "0x030000\n");
        sandbox.symlink(QStringLiteral("../../../devices/pci0000:00/0000:01:00.0"),
                        QStringLiteral("/sys/bus/pci/devices/0000:01:00.0"));
        sandbox.write(QStringLiteral("/usr/share/misc/pci.ids"),
                      "# pci.ids\n10de  NVIDIA Corporation\n\t2684  AD102 [GeForce RTX 4090]\n\t\t10de 16f1  "
                      "RTX 4090 FE\n"
                      "10df  Emulex Corporation\n\t2684  Not this one\n");
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QString())));
        QCOMPARE(snapshot.gpus.size(), 1);
        QCOMPARE(snapshot.gpus.first().name, QStringLiteral("AD102 [GeForce RTX 4090]"));
        QCOMPARE(snapshot.gpus.first().source, QStringLiteral("pci"));
        const Finding *missing = findingOf(snapshot, QStringLiteral("driver.missing"));
        QVERIFY(missing);
        QVERIFY(missing->message.toString().contains(QLatin1String("RTX 4090")));
    }

    void wsl2IsRecognised()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/proc/version"), "Linux version 5.15.167.4-microsoft-standard-WSL2 "
                                                       "(root@f9c826d3017f) (gcc (GCC) 11.2.0) #1 SMP\n");
        ToolBehaviour smi;
        smi.output =
            Sandbox::readFixture(QStringLiteral("nvidia-smi/wsl2-545.46-driver-546.80-cuda-err.txt"));
        sandbox.writeTool(QStringLiteral("/usr/lib/wsl/lib/nvidia-smi"), smi);
        QProcessEnvironment environment = linuxEnvironment(QStringLiteral("/usr/bin"));
        environment.insert(QStringLiteral("WSL_DISTRO_NAME"), QStringLiteral("Ubuntu-22.04"));
        const SystemSnapshot snapshot = detectSystem(sandboxContext(sandbox, OsFamily::Linux, environment));
        QVERIFY(snapshot.os.wsl);
        QCOMPARE(snapshot.os.wsl->version, 2);
        QCOMPARE(snapshot.os.wsl->distribution, QStringLiteral("Ubuntu-22.04"));
        QVERIFY(findingOf(snapshot, QStringLiteral("os.wsl2")));
        QVERIFY(snapshot.driver);
        QCOMPARE(snapshot.driver->version, QStringLiteral("546.80")); // the Windows driver, not the tool
        QVERIFY(snapshot.driver->maxCuda.isNull());
        QVERIFY(findingOf(snapshot, QStringLiteral("driver.max-cuda-unknown")));
    }

    void oddInputBecomesFindingsNotCrashes()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/etc/os-release"),
                      "PRETTY_NAME=\"\xc4\xe3\xba\xc3 Linux\"\n\xff\xfe\x00garbage\n");
        trees::linuxToolkit(sandbox, QStringLiteral("12.2.2"), QStringLiteral("12.2.140"), false);
        sandbox.mkdir(QStringLiteral("/usr/local/cuda-12.2/version.json")); // a folder where a file belongs
        sandbox.write(QStringLiteral("/usr/local/cuda-12.2/version.txt"), QByteArray(4096, '\0'));
        // A user folder in Chinese, and a header full of binary junk beside a real library set.
        const QString home = QStringLiteral("/home/张三/miniconda3");
        sandbox.mkdir(home + QStringLiteral("/conda-meta"));
        trees::linuxCudnn(sandbox, home + QStringLiteral("/lib"), QString(), 9, 1, 0);
        sandbox.write(home + QStringLiteral("/include/cudnn_version.h"),
                      "\x89PNG\r\n\x1a\n#define CUDNN_MAJOR\n");
        ToolBehaviour binary;
        binary.output = QByteArray("\x00\x01\xfe\xff binary\n| | |\n+---+\n", 22);
        sandbox.writeTool(QStringLiteral("/usr/bin/nvidia-smi"), binary);
        const SystemSnapshot snapshot = detectSystem(
            sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QStringLiteral("/usr/bin"))));
        QCOMPARE(snapshot.cudaToolkits.size(), 1);
        QCOMPARE(snapshot.cudaToolkits.first().version, QStringLiteral("12.2")); // from libcudart.so.12.2.140
        QVERIFY(findingOf(snapshot, QStringLiteral("cuda.version-unreadable")));
        const CudnnCopy *conda = copyIn(snapshot, home + QStringLiteral("/lib"));
        QVERIFY(conda);
        QCOMPARE(conda->source, QStringLiteral("conda"));
        QCOMPARE(conda->version,
                 QStringLiteral("9.1.0")); // the junk header is not believed; the file name is
        QCOMPARE(conda->versionSource, QStringLiteral("file-name"));
        QVERIFY(findingOf(snapshot, QStringLiteral("nvidia-smi.unparsable")) ||
                findingOf(snapshot, QStringLiteral("nvidia-smi.query-unparsable")));
        QVERIFY(findingOf(snapshot, QStringLiteral("gpu.none")));
        // Whatever came in, the JSON goes out whole.
        QVERIFY(SystemSnapshot::fromJson(snapshot.toJson()));
    }

    void emptySystemSaysNoGpu()
    {
        Sandbox sandbox;
        const SystemSnapshot snapshot =
            detectSystem(sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QString())));
        QVERIFY(snapshot.gpus.isEmpty());
        QVERIFY(!snapshot.driver);
        QCOMPARE(findingOf(snapshot, QStringLiteral("gpu.none"))->severity, Severity::Error);
        QVERIFY(findingOf(snapshot, QStringLiteral("cuda.none")));
        QVERIFY(findingOf(snapshot, QStringLiteral("cudnn.none")));
    }

    void snapshotJsonRoundTrip()
    {
        Sandbox sandbox;
        trees::linuxToolkit(sandbox, QStringLiteral("12.2.2"), QStringLiteral("12.2.140"));
        trees::linuxCudnn(sandbox, QStringLiteral("/usr/local/cuda-12.2/targets/x86_64-linux/lib"),
                          QStringLiteral("/usr/local/cuda-12.2/include"), 9, 5, 1);
        trees::recordedNvidiaSmi(sandbox, QStringLiteral("/usr/bin/nvidia-smi"));
        const SystemSnapshot snapshot = detectSystem(
            sandboxContext(sandbox, OsFamily::Linux, linuxEnvironment(QStringLiteral("/usr/bin"))));
        const QJsonObject json = snapshot.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/snapshot/1"));
        const auto back = SystemSnapshot::fromJson(json);
        QVERIFY(back);
        QCOMPARE(back->toJson(), json);
        QVERIFY(!SystemSnapshot::fromJson(QJsonObject{{QStringLiteral("schema"), QStringLiteral("other")}}));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestDetect)
#include "tst_detect.moc"
