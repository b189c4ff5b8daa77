// Install targets: every kind's folders for NVIDIA's archives of three eras, --target specs and their
// errors, the proposed target, every rule of checkTarget on a sandbox Windows tree (free space and
// volumes through a stand-in, writes tried for real), the host's volumes, and the venv's .pth file
// read back by a real Python under a locale that only knows ASCII.
#include "CudnnArchiveLists.h"
#include "MemoryFileSecurity.h"
#include "MemoryPosixOwnership.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "ZipWriter.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"
#include "install/TargetChecks.h"
#include "install/TargetSpec.h"
#include "platform/SystemContext.h"
#include "platform/Volumes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

#ifndef Q_OS_WIN
#include <unistd.h>
#endif

using namespace cudnnsetup;

namespace {

const QString kUser = QStringLiteral("C:\\Users\\\u5f20\u4e09"); // C:\Users\张三
const QString kCuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
const QString kVenv = kUser + QStringLiteral("\\\u9879\u76ee\\.venv"); // ...\项目\.venv
const QString kConda = kUser + QStringLiteral("\\miniconda3");

SystemContext windowsContext(const Sandbox &sandbox, const QProcessEnvironment &environment)
{
    auto registry = Registry::unavailable();
    return SystemContext(FileSystem(OsFamily::Windows, sandbox.root()),
                         EnvironmentStore(OsFamily::Windows, environment, registry), registry,
                         std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

QProcessEnvironment windowsEnvironment()
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("C:\\Program Files"));
    environment.insert(QStringLiteral("ProgramW6432"), QStringLiteral("C:\\Program Files"));
    environment.insert(QStringLiteral("ProgramFiles(x86)"), QStringLiteral("C:\\Program Files (x86)"));
    environment.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
    environment.insert(QStringLiteral("USERPROFILE"), kUser);
    environment.insert(QStringLiteral("LOCALAPPDATA"), kUser + QStringLiteral("\\AppData\\Local"));
    return environment;
}

CudaToolkit toolkit(const QString &version, const QString &binDir)
{
    CudaToolkit toolkit;
    toolkit.version = version;
    toolkit.path = kCuda + QStringLiteral("v") + version.section(QLatin1Char('.'), 0, 1);
    toolkit.binDir = binDir.isEmpty() ? QString() : toolkit.path + QLatin1Char('\\') + binDir;
    toolkit.libDir = toolkit.path + QStringLiteral("\\lib\\x64");
    toolkit.source = QStringLiteral("default-folder");
    return toolkit;
}

// A Windows workstation as detection would report it: driver 591.59 (CUDA 13.1), CUDA 11.8, 12.2,
// 12.4 and 13.0, a conda base and env, a venv.
SystemSnapshot workstationSnapshot(const QString &driverMaxCuda = QStringLiteral("13.1"))
{
    SystemSnapshot snapshot;
    snapshot.os.family = QStringLiteral("windows");
    snapshot.os.arch = QStringLiteral("x64");
    DriverInfo driver;
    driver.version = QStringLiteral("591.59");
    driver.maxCuda = driverMaxCuda;
    snapshot.driver = driver;
    GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA GeForce RTX 3080");
    gpu.computeCapability = QStringLiteral("8.6");
    snapshot.gpus.append(gpu);
    snapshot.cudaToolkits = {toolkit(QStringLiteral("11.8.89"), QStringLiteral("bin")),
                             toolkit(QStringLiteral("12.2.140"), QStringLiteral("bin")),
                             toolkit(QStringLiteral("12.4.131"), QStringLiteral("bin")),
                             toolkit(QStringLiteral("13.0.88"), QStringLiteral("bin\\x64"))};
    PythonInstall base;
    base.path = kConda + QStringLiteral("\\python.exe");
    base.source = QStringLiteral("conda");
    PythonInstall env;
    env.path = kConda + QStringLiteral("\\envs\\torch\\python.exe");
    env.source = QStringLiteral("conda");
    PythonInstall venv;
    venv.path = kVenv + QStringLiteral("\\Scripts\\python.exe");
    venv.source = QStringLiteral("venv");
    snapshot.pythons = {base, env, venv};
    return snapshot;
}

QStringList ids(const Findings &findings, Severity atLeast = Severity::Warning)
{
    QStringList result;
    for (const Finding &finding : findings) {
        if (finding.severity >= atLeast)
            result.append(finding.id);
    }
    return result;
}

const Finding *findingOf(const Findings &findings, const QString &id)
{
    for (const Finding &finding : findings) {
        if (finding.id == id)
            return &finding;
    }
    return nullptr;
}

QString describe(const Findings &findings)
{
    QStringList lines;
    for (const Finding &finding : findings)
        lines.append(QStringLiteral("%1 [%2] %3 | %4")
                         .arg(finding.id, severityName(finding.severity), finding.message.toEnglish(),
                              finding.details));
    return lines.join(QLatin1Char('\n'));
}

// Volumes whose answers a test chooses; unset answers are the host's.
class FakeVolumes final : public Volumes
{
public:
    qint64 free = -2; // -2: ask the host
    mutable QStringList freeAsked;
    std::function<QString(const QString &)> id;
    std::function<WriteProbe(const QString &)> write;
    std::function<WriteProbe(const QString &)> replace;

    qint64 freeBytes(const QString &hostPath) const override
    {
        freeAsked.append(hostPath);
        return free == -2 ? Volumes::freeBytes(hostPath) : free;
    }
    QString volumeId(const QString &hostPath) const override
    {
        return id ? id(hostPath) : Volumes::volumeId(hostPath);
    }
    WriteProbe tryWrite(const QString &hostFolder) const override
    {
        return write ? write(hostFolder) : Volumes::tryWrite(hostFolder);
    }
    WriteProbe tryReplace(const QString &hostFile) const override
    {
        return replace ? replace(hostFile) : Volumes::tryReplace(hostFile);
    }
};

QString findPython()
{
    for (const QString &name : {QStringLiteral("python3"), QStringLiteral("python")}) {
        const QString found = QStandardPaths::findExecutable(name);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

// Runs `siteDir`'s .pth files through site.addsitedir with os.add_dll_directory recorded (it is
// Windows-only); `pretend` makes every folder exist (for Windows paths on a Linux host); `strict`
// runs under the C locale with Python's UTF-8 coercions off, so the locale encoding is ASCII.
struct PythonRun
{
    int exitCode = -1;
    QString encoding;
    int minor = 0; // Python 3.minor
    QStringList calls;
    QByteArray error;
};

PythonRun runPth(const QString &python, const QString &siteDir, bool pretend, bool strict)
{
    static const char script[] =
        "import os, sys, site, locale\n"
        "calls = []\n"
        "os.add_dll_directory = calls.append\n"
        "if sys.argv[2] == 'pretend':\n"
        "    os.path.isdir = lambda p: True\n"
        "site.addsitedir(sys.argv[1])\n"
        "out = ['%s %d' % (locale.getpreferredencoding(False), sys.version_info[1])] + calls\n"
        "sys.stdout.buffer.write('\\n'.join(out).encode('utf-8'))\n";
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("PYTHONUTF8"));
    environment.remove(QStringLiteral("PYTHONIOENCODING"));
    if (strict) {
        environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
        environment.insert(QStringLiteral("LANG"), QStringLiteral("C"));
        environment.insert(QStringLiteral("PYTHONUTF8"), QStringLiteral("0"));
        environment.insert(QStringLiteral("PYTHONCOERCECLOCALE"), QStringLiteral("0"));
    } else {
        environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    }
    process.setProcessEnvironment(environment);
    process.start(python, {QStringLiteral("-S"), QStringLiteral("-c"), QString::fromLatin1(script), siteDir,
                           pretend ? QStringLiteral("pretend") : QStringLiteral("real")});
    PythonRun run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.error = "python did not finish";
        return run;
    }
    run.exitCode = process.exitCode();
    run.error = process.readAllStandardError();
    QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    const QString first = lines.takeFirst();
    run.encoding = first.section(QLatin1Char(' '), 0, 0);
    run.minor = first.section(QLatin1Char(' '), 1).toInt();
    run.calls = lines;
    return run;
}

// Its own folder on a Linux system, its libraries in lib.
InstallTarget linuxFolder(const QString &root, PathScope scope)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.family = OsFamily::Linux;
    target.root = root;
    target.binFolder = QStringLiteral("lib");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = QStringLiteral("lib");
    target.pathScope = scope;
    return target;
}

} // namespace

class TestInstallTarget : public QObject
{
    Q_OBJECT

    QTemporaryDir m_archives;
    Sandbox m_sandbox;
    std::unique_ptr<SystemContext> m_context;
    QHash<QString, ArchiveReport> m_reports;

    ArchiveReport inspectZip(const QString &fileName, const QByteArray &zip)
    {
        const QString path = m_archives.filePath(fileName);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(zip) != zip.size())
            qFatal("cannot write the test archive");
        file.close();
        auto report = inspectArchive(path, archives::databaseKnowing({path}).publishedArchives());
        if (!report)
            qFatal("inspection failed: %s", qPrintable(report.error().details));
        return *report;
    }

    const ArchiveReport &archive(const QString &key) const
    {
        if (!m_reports.contains(key))
            qFatal("no archive %s", qPrintable(key));
        return *m_reports.constFind(key);
    }

    const SystemContext &context() const { return *m_context; }

    InstallTarget target(const QString &spec, const QString &archiveKey = QStringLiteral("9.1"),
                         std::optional<PathScope> scope = std::nullopt)
    {
        const auto result =
            targetFromSpec(spec, scope, workstationSnapshot(), archive(archiveKey), context());
        if (!result)
            qFatal("spec %s: %s", qPrintable(spec), qPrintable(result.error().message.toEnglish()));
        return *result;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_archives.isValid());
        QVERIFY(m_sandbox.isValid());
        m_reports.insert(QStringLiteral("8.9.7"),
                         inspectZip(archives::windowsRoot(QStringLiteral("8.9.7.29"), QStringLiteral("12")) +
                                        QStringLiteral(".zip"),
                                    archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12"))));
        m_reports.insert(QStringLiteral("9.1"),
                         inspectZip(archives::windowsRoot(QStringLiteral("9.1.0.70"), QStringLiteral("12")) +
                                        QStringLiteral(".zip"),
                                    archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"))));
        m_reports.insert(QStringLiteral("9.18"),
                         inspectZip(archives::windowsRoot(QStringLiteral("9.18.0.77"), QStringLiteral("13")) +
                                        QStringLiteral(".zip"),
                                    archives::windowsZip(QStringLiteral("9.18.0.77"), QStringLiteral("13"))));
        ZipWriter cudaRoot;
        for (const ZipWriter::Entry &entry :
             archives::entriesOf(archives::cudaRootFiles(8), QStringLiteral("8.2.4.15")))
            cudaRoot.add(entry);
        m_reports.insert(
            QStringLiteral("8.2"),
            inspectZip(QStringLiteral("cudnn-11.4-windows-x64-v8.2.4.15.zip"), cudaRoot.finish()));
        for (const auto &report : std::as_const(m_reports))
            QCOMPARE(report.verdictName(), QStringLiteral("ok"));
        QCOMPARE(archive(QStringLiteral("9.18")).layout.kind, CudnnLayout::Kind::ArchiveRootX64);
        QCOMPARE(archive(QStringLiteral("9.1")).cudaVariant, QStringLiteral("12"));
        QCOMPARE(archive(QStringLiteral("9.18")).cudaVariant, QStringLiteral("13"));

        trees::windowsSystem(m_sandbox);
        for (const QString &version : {QStringLiteral("11.8.0"), QStringLiteral("12.2.2"),
                                       QStringLiteral("12.4.1"), QStringLiteral("13.0.2")})
            trees::windowsToolkit(m_sandbox, version);
        m_sandbox.mkdir(kConda + QStringLiteral("\\conda-meta"));
        m_sandbox.write(kConda + QStringLiteral("\\python.exe"), "MZ");
        m_sandbox.mkdir(kConda + QStringLiteral("\\envs\\torch\\conda-meta"));
        m_sandbox.write(kConda + QStringLiteral("\\envs\\torch\\python.exe"), "MZ");
        m_sandbox.write(kVenv + QStringLiteral("\\pyvenv.cfg"), "home = C:\\Python312\nversion = 3.12.8\n");
        m_sandbox.write(kVenv + QStringLiteral("\\Scripts\\python.exe"), "MZ");
        m_sandbox.mkdir(kVenv + QStringLiteral("\\Lib\\site-packages"));
        m_sandbox.write(kUser + QStringLiteral("\\not-venv\\readme.txt"), "text");
        m_sandbox.write(QStringLiteral("C:\\data\\file.txt"), "a file, not a folder");
        m_sandbox.mkdir(kUser + QStringLiteral("\\AppData\\Local"));
        // Existing folders for the rules: other files, another cuDNN major, NVIDIA's installer layout,
        // a previous install of ours (with a killed install's staging), nothing but folders.
        m_sandbox.write(QStringLiteral("C:\\cudnn-foreign\\notes.txt"), "mine");
        m_sandbox.write(QStringLiteral("C:\\cudnn-foreign\\bin\\cudnn64_9.dll"), "MZ");
        m_sandbox.write(QStringLiteral("C:\\cudnn-v8\\bin\\cudnn64_8.dll"), "MZ");
        m_sandbox.write(QStringLiteral("C:\\cudnn-nvidia\\bin\\12.4\\cudnn64_9.dll"), "MZ");
        m_sandbox.write(QStringLiteral("C:\\cudnn-nvidia\\include\\12.4\\cudnn.h"), "h");
        m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\bin\\cudnn64_9.dll"), "MZ");
        m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\BIN\\cudnn-LICENSE.txt"), "licence");
        m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\include\\cudnn.h"), "h");
        m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\.cudnn-setup-staging\\leftover.dll"), "MZ");
        m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\.cudnn-setup-staging-backup\\1\\cudnn64_9.dll"),
                        "MZ");
        m_sandbox.mkdir(QStringLiteral("C:\\cudnn-empty\\bin\\x64"));
        m_context = std::make_unique<SystemContext>(windowsContext(m_sandbox, windowsEnvironment()));
    }

    // Every kind's folders, for NVIDIA's layouts before and after cuDNN 9.18 moved the DLLs to
    // bin\x64, and for CUDA 12 and 13 toolkits.
    void folders_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("bin");
        QTest::addColumn<QString>("include");
        QTest::addColumn<QString>("lib");
        QTest::addColumn<QString>("pathScope");

        const QString cudnn = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\");
        const QString user = kUser + QStringLiteral("\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\");
        const QString venvBase = QStringLiteral("Lib\\site-packages\\cudnn_setup.libs\\");
        for (const QString &key : {QStringLiteral("8.9.7"), QStringLiteral("9.1"), QStringLiteral("9.18")}) {
            const QString version = QStringLiteral("v") + key.section(QLatin1Char('.'), 0, 1);
            const QString bin =
                key == QLatin1String("9.18") ? QStringLiteral("bin\\x64") : QStringLiteral("bin");
            const QByteArray tag = key.toLatin1();
            QTest::newRow("dir " + tag) << "dir" << key << "dir" << cudnn + version << bin << "include"
                                        << "lib\\x64"
                                        << "system";
            QTest::newRow("dir:PATH " + tag) << "dir:D:/cudnn/" << key << "dir"
                                             << "D:\\cudnn" << bin << "include"
                                             << "lib\\x64"
                                             << "system";
            QTest::newRow("user " + tag) << "user" << key << "user" << user + version << bin << "include"
                                         << "lib\\x64"
                                         << "user";
            QTest::newRow("user:PATH " + tag) << "user:D:/cudnn/" << key << "user"
                                              << "D:\\cudnn" << bin << "include"
                                              << "lib\\x64"
                                              << "user";
            QTest::newRow("conda name " + tag) << "conda:torch" << key << "conda"
                                               << kConda + QStringLiteral("\\envs\\torch") << "Library\\bin"
                                               << "Library\\include"
                                               << "Library\\lib"
                                               << "none";
            QTest::newRow("venv " + tag)
                << QStringLiteral("venv:") + kVenv << key << "venv" << kVenv
                << venvBase + QStringLiteral("bin") << venvBase + QStringLiteral("include")
                << venvBase + QStringLiteral("lib") << "none";
        }
        // The match chooses the newest toolkit of the archive's CUDA major.
        QTest::newRow("cuda, CUDA 12 archive 8.9.7") << "cuda"
                                                     << "8.9.7"
                                                     << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                     << "include"
                                                     << "lib\\x64"
                                                     << "none";
        QTest::newRow("cuda, CUDA 12 archive 9.1") << "cuda"
                                                   << "9.1"
                                                   << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                   << "include"
                                                   << "lib\\x64"
                                                   << "none";
        QTest::newRow("cuda, CUDA 13 archive 9.18") << "cuda"
                                                    << "9.18"
                                                    << "cuda" << kCuda + QStringLiteral("v13.0") << "bin\\x64"
                                                    << "include"
                                                    << "lib\\x64"
                                                    << "none";
        QTest::newRow("cuda:12.2") << "cuda:12.2"
                                   << "9.1"
                                   << "cuda" << kCuda + QStringLiteral("v12.2") << "bin"
                                   << "include"
                                   << "lib\\x64"
                                   << "none";
        QTest::newRow("cuda:12 is the newest 12") << "CUDA:12"
                                                  << "9.1"
                                                  << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                  << "include"
                                                  << "lib\\x64"
                                                  << "none";
        QTest::newRow("cuda:13.0.88") << "cuda:13.0.88"
                                      << "9.18"
                                      << "cuda" << kCuda + QStringLiteral("v13.0") << "bin\\x64"
                                      << "include"
                                      << "lib\\x64"
                                      << "none";
        QTest::newRow("conda base") << "conda:base"
                                    << "9.1"
                                    << "conda" << kConda << "Library\\bin"
                                    << "Library\\include"
                                    << "Library\\lib"
                                    << "none";
        QTest::newRow("conda by path")
            << QStringLiteral("conda:") + kConda + QStringLiteral("\\envs\\torch\\") << "9.1"
            << "conda" << kConda + QStringLiteral("\\envs\\torch") << "Library\\bin"
            << "Library\\include"
            << "Library\\lib"
            << "none";
    }
    void folders()
    {
        QFETCH(QString, spec);
        QFETCH(QString, archive);
        QFETCH(QString, kind);
        QFETCH(QString, root);
        QFETCH(QString, bin);
        QFETCH(QString, include);
        QFETCH(QString, lib);
        QFETCH(QString, pathScope);

        const auto result =
            targetFromSpec(spec, std::nullopt, workstationSnapshot(), this->archive(archive), context());
        QVERIFY2(result.ok(), qPrintable(result.error().message.toEnglish()));
        const InstallTarget &target = *result;
        QCOMPARE(target.kindName(), kind);
        QCOMPARE(target.root, root);
        QCOMPARE(target.binFolder, bin);
        QCOMPARE(target.includeFolder, include);
        QCOMPARE(target.libFolder, lib);
        QCOMPARE(pathScopeName(target.pathScope), pathScope);
        QCOMPARE(target.dllFolder(), root + QLatin1Char('\\') + bin);
        QCOMPARE(target.stagingFolder(), root + QStringLiteral("\\.cudnn-setup-staging"));
        if (kind == QLatin1String("venv"))
            QCOMPARE(target.pthFile(), root + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.pth"));
        else
            QVERIFY(target.pthFile().isEmpty());
        if (kind == QLatin1String("cuda"))
            QVERIFY(target.toolkitVersion.isValid());
        // Every kind's place passes the rules on this machine.
        const Findings findings = checkTarget(target, this->archive(archive), context());
        QVERIFY2(ids(findings).isEmpty(), qPrintable(describe(findings)));
        // Its spec names the same place for a run under another account (an administrator who
        // approved the prompt, whose profile is another): what the elevated helper is given.
        QProcessEnvironment approving = windowsEnvironment();
        approving.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\admin"));
        approving.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\admin\\AppData\\Local"));
        const auto again = targetFromSpec(target.spec(), std::nullopt, workstationSnapshot(),
                                          this->archive(archive), windowsContext(m_sandbox, approving));
        QVERIFY2(again.ok(), qPrintable(target.spec()));
        QCOMPARE(again->kindName(), kind);
        QCOMPARE(again->root, root);
        QCOMPARE(again->dllFolder(), target.dllFolder());
    }

    // --path overrides the kind's own PATH scope.
    void pathScopeOverride()
    {
        QCOMPARE(target(QStringLiteral("dir"), QStringLiteral("9.1"), PathScope::None).pathScope,
                 PathScope::None);
        QCOMPARE(target(QStringLiteral("dir"), QStringLiteral("9.1"), PathScope::User).pathScope,
                 PathScope::User);
        QCOMPARE(target(QStringLiteral("cuda"), QStringLiteral("9.1"), PathScope::System).pathScope,
                 PathScope::System);
        QCOMPARE(pathScopeFromName(QStringLiteral("System")), std::optional<PathScope>(PathScope::System));
        QCOMPARE(pathScopeFromName(QStringLiteral("none")), std::optional<PathScope>(PathScope::None));
        QVERIFY(!pathScopeFromName(QStringLiteral("machine")));
    }

    // A toolkit known only from JSON that does not say where its DLLs are: CUDA 13 means bin\x64.
    void cuda13WithoutBinDir()
    {
        SystemSnapshot snapshot = workstationSnapshot();
        for (CudaToolkit &toolkit : snapshot.cudaToolkits)
            toolkit.binDir.clear();
        auto result = targetFromSpec(QStringLiteral("cuda"), std::nullopt, snapshot,
                                     archive(QStringLiteral("9.18")), context());
        QVERIFY(result.ok());
        QCOMPARE(result->binFolder, QStringLiteral("bin\\x64"));
        result = targetFromSpec(QStringLiteral("cuda:12.2"), std::nullopt, snapshot,
                                archive(QStringLiteral("9.1")), context());
        QVERIFY(result.ok());
        QCOMPARE(result->binFolder, QStringLiteral("bin"));
    }

    // The own folder's parent comes from the inspected system's environment, C:\Program Files when
    // it says nothing.
    void programFilesFromTheEnvironment()
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("D:\\Programme"));
        const SystemContext german = windowsContext(m_sandbox, environment);
        auto result = targetFromSpec(QStringLiteral("dir"), std::nullopt, workstationSnapshot(),
                                     archive(QStringLiteral("9.1")), german);
        QVERIFY(result.ok());
        QCOMPARE(result->root, QStringLiteral("D:\\Programme\\NVIDIA\\CUDNN\\v9.1"));
        QVERIFY(result->needsAdmin(german)); // system PATH
        InstallTarget noPath = *result;
        noPath.pathScope = PathScope::None;
        QVERIFY(noPath.needsAdmin(german)); // under that Program Files

        const SystemContext bare = windowsContext(m_sandbox, QProcessEnvironment());
        result = targetFromSpec(QStringLiteral("dir"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.18")), bare);
        QVERIFY(result.ok());
        QCOMPARE(result->root, QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.18"));
        QCOMPARE(result->dllFolder(), QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.18\\bin\\x64"));

        // Without LOCALAPPDATA the profile folder tells it; with neither there is no per-user folder.
        QProcessEnvironment profileOnly;
        profileOnly.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\li"));
        result = targetFromSpec(QStringLiteral("user"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.1")), windowsContext(m_sandbox, profileOnly));
        QVERIFY(result.ok());
        QCOMPARE(result->root,
                 QStringLiteral("C:\\Users\\li\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.1"));
        result = targetFromSpec(QStringLiteral("user"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.1")), bare);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().id, QStringLiteral("target.no-user-folder"));
    }

    void specErrors_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("driverMaxCuda");
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << ""
                               << "9.1"
                               << "13.1"
                               << "target.unknown-kind";
        QTest::newRow("unknown kind") << "folder:C:\\cudnn"
                                      << "9.1"
                                      << "13.1"
                                      << "target.unknown-kind";
        QTest::newRow("conda without a value") << "conda"
                                               << "9.1"
                                               << "13.1"
                                               << "target.unknown-kind";
        QTest::newRow("no such toolkit") << "cuda:11.0"
                                         << "9.1"
                                         << "13.1"
                                         << "target.no-toolkit";
        QTest::newRow("no toolkit version") << "cuda:latest"
                                            << "9.1"
                                            << "13.1"
                                            << "target.no-toolkit";
        QTest::newRow("cuda:10, none installed") << "cuda:10"
                                                 << "8.2"
                                                 << "13.1"
                                                 << "target.no-toolkit";
        // The driver runs CUDA up to 12.8: the CUDA 13 toolkit cannot be the one.
        QTest::newRow("driver too old for the CUDA 13 toolkit") << "cuda"
                                                                << "9.18"
                                                                << "12.8"
                                                                << "target.no-toolkit";
        QTest::newRow("conda name unknown") << "conda:tensorflow"
                                            << "9.1"
                                            << "13.1"
                                            << "target.no-conda-env";
        QTest::newRow("conda path not an env")
            << QStringLiteral("conda:") + kUser + QStringLiteral("\\not-venv") << "9.1"
            << "13.1"
            << "target.no-conda-env";
        QTest::newRow("venv path not a venv")
            << QStringLiteral("venv:") + kUser + QStringLiteral("\\not-venv") << "9.1"
            << "13.1"
            << "target.not-a-venv";
        QTest::newRow("venv path missing") << "venv:D:\\nowhere"
                                           << "9.1"
                                           << "13.1"
                                           << "target.not-a-venv";
        QTest::newRow("venv empty") << "venv:"
                                    << "9.1"
                                    << "13.1"
                                    << "target.not-a-venv";
    }
    void specErrors()
    {
        QFETCH(QString, spec);
        QFETCH(QString, archive);
        QFETCH(QString, driverMaxCuda);
        QFETCH(QString, id);
        const auto result = targetFromSpec(spec, std::nullopt, workstationSnapshot(driverMaxCuda),
                                           this->archive(archive), context());
        QVERIFY2(!result.ok(), qPrintable(result.ok() ? result->root : QString()));
        QCOMPARE(result.error().id, id);
        QCOMPARE(result.error().severity, Severity::Error);
        QVERIFY(!result.error().message.isEmpty());
        QVERIFY(result.error().message.source() != nullptr); // translated, not verbatim
    }

    // Relative paths are kept as given: the app makes them absolute, checkTarget refuses them.
    void relativeSpecsAreKept()
    {
        QCOMPARE(target(QStringLiteral("dir:cudnn\\v9.1")).root, QStringLiteral("cudnn\\v9.1"));
        QCOMPARE(target(QStringLiteral("venv:.venv")).root, QStringLiteral(".venv"));
        QCOMPARE(target(QStringLiteral("dir:")).root, QString());
    }

    void proposedTarget_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("driverMaxCuda");
        QTest::addColumn<bool>("withoutToolkits");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("pathScope");
        QTest::newRow("CUDA 12 archive: the newest 12 toolkit")
            << "9.1"
            << "13.1" << false << "cuda" << kCuda + QStringLiteral("v12.4") << "none";
        QTest::newRow("CUDA 13 archive: the 13 toolkit")
            << "9.18"
            << "13.1" << false << "cuda" << kCuda + QStringLiteral("v13.0") << "none";
        QTest::newRow("driver cannot run CUDA 13: own folder") << "9.18"
                                                               << "12.8" << false << "dir"
                                                               << "C:\\Program Files\\NVIDIA\\CUDNN\\v9.18"
                                                               << "system";
        QTest::newRow("no toolkit: own folder") << "9.1"
                                                << "13.1" << true << "dir"
                                                << "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"
                                                << "system";
        QTest::newRow("no toolkit of CUDA 11: own folder") << "8.2"
                                                           << "13.1" << false << "dir"
                                                           << "C:\\Program Files\\NVIDIA\\CUDNN\\v8.2"
                                                           << "system";
    }
    void proposedTarget()
    {
        QFETCH(QString, archive);
        QFETCH(QString, driverMaxCuda);
        QFETCH(bool, withoutToolkits);
        QFETCH(QString, kind);
        QFETCH(QString, root);
        QFETCH(QString, pathScope);
        SystemSnapshot snapshot = workstationSnapshot(driverMaxCuda);
        if (withoutToolkits)
            snapshot.cudaToolkits.clear();
        if (archive == QLatin1String("8.2")) // CUDA 11.4's archive: only 12 and 13 toolkits here
            snapshot.cudaToolkits.removeFirst();
        const InstallTarget target = defaultTarget(snapshot, this->archive(archive), context());
        QCOMPARE(target.kindName(), kind);
        QCOMPARE(target.root, root);
        QCOMPARE(pathScopeName(target.pathScope), pathScope);
    }

    // DLLs beside each other, headers, import libraries, the licence renamed; nothing else.
    void placeFiles_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("dlls");
        QTest::addColumn<int>("headers");
        QTest::addColumn<int>("libs");
        for (const QString &spec : {QStringLiteral("dir"), QStringLiteral("user"), QStringLiteral("cuda"),
                                    QStringLiteral("conda:torch"), QStringLiteral("venv:") + kVenv}) {
            const QByteArray name = spec.left(5).toLatin1();
            QTest::newRow("8.9.7 " + name) << "8.9.7" << spec << 7 << 9 << 14;
            QTest::newRow("9.1 " + name) << "9.1" << spec << 8 << 7 << 16;
            QTest::newRow("9.18 " + name) << "9.18" << spec << 8 << 7 << 16;
        }
        QTest::newRow("8.2 cuda-rooted, licence beside cuda") << "8.2"
                                                              << "dir" << 7 << 9 << 7;
    }
    void placeFiles()
    {
        QFETCH(QString, archive);
        QFETCH(QString, spec);
        QFETCH(int, dlls);
        QFETCH(int, headers);
        QFETCH(int, libs);
        const ArchiveReport &report = this->archive(archive);
        const InstallTarget target = this->target(spec, archive);
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        QCOMPARE(planned.size(), dlls + headers + libs + 1);
        int seenDlls = 0;
        int seenHeaders = 0;
        int seenLibs = 0;
        int licences = 0;
        const SystemPaths paths(OsFamily::Windows);
        for (const PlannedFile &file : planned) {
            const QString name = file.archivePath.mid(file.archivePath.lastIndexOf(QLatin1Char('/')) + 1);
            QVERIFY(file.entry >= 0);
            QCOMPARE(report.files.at(file.entry).path, file.archivePath);
            QCOMPARE(file.size, report.files.at(file.entry).size);
            switch (file.kind) {
            case ArchiveFile::Kind::Library:
            case ArchiveFile::Kind::OtherDll:
                ++seenDlls;
                QCOMPARE(file.destination, target.dllFolder() + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::Header:
                ++seenHeaders;
                QCOMPARE(file.destination, target.pathOf(target.includeFolder) + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::ImportLibrary:
                ++seenLibs;
                QCOMPARE(file.destination, target.pathOf(target.libFolder) + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::Other:
                ++licences;
                QVERIFY2(name == QLatin1String("LICENSE") ||
                             name == QLatin1String("NVIDIA_SLA_cuDNN_Support.txt"),
                         qPrintable(file.archivePath));
                QCOMPARE(file.destination, target.dllFolder() + QStringLiteral("\\cudnn-LICENSE.txt"));
                break;
            }
            QVERIFY(paths.isAbsolute(file.destination));
            QVERIFY(!file.destination.contains(QLatin1Char('/')));
        }
        QCOMPARE(seenDlls, dlls);
        QCOMPARE(seenHeaders, headers);
        QCOMPARE(seenLibs, libs);
        QCOMPARE(licences, 1);
    }

    // Two entries that would land on one file: the first wins, the second is not planned.
    void placeFilesKeepsTheFirstOfTwo()
    {
        QStringList files = archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const QString root = archives::windowsRoot(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        files.append(root + QStringLiteral("/bin/extra/cudnn64_9.dll"));
        const ArchiveReport report =
            inspectZip(QStringLiteral("twice.zip"),
                       ZipWriter(archives::entriesOf(files, QStringLiteral("9.1.0.70"))).finish());
        const InstallTarget target = this->target(QStringLiteral("dir:D:\\cudnn"));
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        int count = 0;
        for (const PlannedFile &file : planned) {
            if (file.destination == QLatin1String("D:\\cudnn\\bin\\cudnn64_9.dll")) {
                ++count;
                QCOMPARE(file.archivePath, root + QStringLiteral("/bin/cudnn64_9.dll"));
            }
        }
        QCOMPARE(count, 1);
    }

    void rules_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("severity");
        const int error = int(Severity::Error);
        const int warning = int(Severity::Warning);
        const int info = int(Severity::Info);

        QTest::newRow("clean new folder") << "dir:C:\\cudnn-new" << QString() << 0;
        QTest::newRow("empty") << "dir:"
                               << "target.empty" << error;
        QTest::newRow("relative") << "dir:cudnn\\v9.1"
                                  << "target.relative" << error;
        QTest::newRow("rooted, no drive") << "dir:\\cudnn"
                                          << "target.relative" << error;
        QTest::newRow("drive-relative") << "dir:C:cudnn"
                                        << "target.relative" << error;
        QTest::newRow("relative venv") << "venv:.venv"
                                       << "target.relative" << error;
        QTest::newRow("CON") << "dir:C:\\CON\\cudnn"
                             << "target.reserved-name" << error;
        QTest::newRow("nul with extension") << "dir:C:\\tools\\nul.txt"
                                            << "target.reserved-name" << error;
        QTest::newRow("COM1") << "dir:C:\\com1"
                              << "target.reserved-name" << error;
        QTest::newRow("LPT9") << "dir:D:\\x\\LPT9\\cudnn"
                              << "target.reserved-name" << error;
        QTest::newRow("AUX") << "dir:C:\\aux"
                             << "target.reserved-name" << error;
        QTest::newRow("PRN") << "dir:C:\\Prn.log"
                             << "target.reserved-name" << error;
        QTest::newRow("trailing dot") << "dir:C:\\cudnn.\\v9.1"
                                      << "target.reserved-name" << error;
        QTest::newRow("trailing space") << "dir:C:\\tools \\cudnn"
                                        << "target.reserved-name" << error;
        QTest::newRow("COM10 is a name") << "dir:C:\\com10" << QString() << 0;
        QTest::newRow("CONSOLE is a name") << "dir:C:\\console" << QString() << 0;
        QTest::newRow("question mark") << "dir:C:\\cu?dnn"
                                       << "target.invalid-character" << error;
        QTest::newRow("colon inside") << "dir:C:\\cudnn:v9"
                                      << "target.invalid-character" << error;

        // The longest destination is lib\x64\cudnn_engines_runtime_compiled64_9.lib (47 characters
        // with its separators): a 212-character root gives 259 characters, one more gives 260.
        QTest::newRow("259 characters")
            << QStringLiteral("dir:C:\\") + QString(209, QLatin1Char('a')) << QString() << 0;
        QTest::newRow("260 characters")
            << QStringLiteral("dir:C:\\") + QString(210, QLatin1Char('a')) << "target.too-long" << error;
        QTest::newRow("far too long") << QStringLiteral("dir:C:\\") + QString(100, QLatin1Char('b')) +
                                             QLatin1Char('\\') + QString(200, QLatin1Char('c'))
                                      << "target.too-long" << error;

        QTest::newRow("existing folder of other files") << "dir:C:\\cudnn-foreign"
                                                        << "target.not-empty" << error;
        QTest::newRow("existing folder of another cuDNN major") << "dir:C:\\cudnn-v8"
                                                                << "target.not-empty" << error;
        QTest::newRow("NVIDIA's installer layout, same files") << "dir:C:\\cudnn-nvidia"
                                                               << "target.not-empty" << warning;
        QTest::newRow("a previous install of ours") << "dir:C:\\cudnn-ours"
                                                    << "target.previous-install" << info;
        QTest::newRow("existing empty folders") << "dir:C:\\cudnn-empty" << QString() << 0;
        QTest::newRow("a toolkit is never 'not empty'") << "cuda:12.4" << QString() << 0;

        QTest::newRow("parent is a file") << "dir:C:\\data\\file.txt\\cudnn"
                                          << "target.not-writable" << error;
        QTest::newRow("target is a file") << "dir:C:\\data\\file.txt"
                                          << "target.not-writable" << error;
    }
    void rules()
    {
        QFETCH(QString, spec);
        QFETCH(QString, id);
        QFETCH(int, severity);

        const InstallTarget target = this->target(spec);
        const Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context());
        if (id.isEmpty()) {
            QVERIFY2(ids(findings).isEmpty(), qPrintable(describe(findings)));
            return;
        }
        const Finding *finding = findingOf(findings, id);
        QVERIFY2(finding, qPrintable(describe(findings)));
        QCOMPARE(int(finding->severity), severity);
        QVERIFY(finding->message.source() != nullptr);
        QVERIFY(!finding->message.toEnglish().contains(QLatin1String("%1")));
        if (finding->severity >= Severity::Warning)
            QVERIFY2(!finding->fix.isEmpty(), qPrintable(id));
        // Nothing else is wrong with these targets.
        QStringList others = ids(findings);
        others.removeAll(id);
        QVERIFY2(others.isEmpty(), qPrintable(describe(findings)));
    }

    // A folder on the system PATH is the administrators' alone: a new one under C:\ is fine (the
    // install makes it protected), an existing one that inherited Authenticated Users' right to
    // modify is refused with the ways out, and the same folder on the user's own PATH is not.
    void writableFolderStaysOffTheSystemPath()
    {
        auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext guarded = context().withFileSecurity(security);
        // C:\ as Windows sets it up: Authenticated Users may add folders, and modify what they add.
        security->set(m_sandbox.root(),
                      QStringLiteral("O:SYG:SYD:PAI(A;OICI;FA;;;BA)(A;OICI;FA;;;SY)"
                                     "(A;OICI;0x1200a9;;;BU)(A;;0x4;;;AU)(A;OICIIO;SDGXGWGR;;;AU)"));
        const QString inherited =
            QStringLiteral("O:S-1-5-21-1004336348-1177238915-682003330-1001D:AI"
                           "(A;OICIID;FA;;;BA)(A;OICIID;FA;;;SY)(A;OICIID;0x1301bf;;;AU)"
                           "(A;OICIID;0x1200a9;;;BU)");
        m_sandbox.mkdir(QStringLiteral("C:\\tools\\cudnn"));
        security->set(m_sandbox.hostPath(QStringLiteral("C:\\tools")), inherited);
        security->set(m_sandbox.hostPath(QStringLiteral("C:\\tools\\cudnn")), inherited);
        const auto check = [&](const QString &spec, PathScope scope) {
            return checkTarget(target(spec, QStringLiteral("9.1"), scope), archive(QStringLiteral("9.1")),
                               guarded);
        };
        const QString id = QStringLiteral("target.writable-system-path");

        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\cudnn"), PathScope::System), id));
        const Findings refused = check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::System);
        const Finding *finding = findingOf(refused, id);
        QVERIFY2(finding, qPrintable(describe(refused)));
        QCOMPARE(finding->severity, Severity::Error);
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QLatin1String("but C:\\tools\\cudnn can be changed")) &&
                     message.contains(QLatin1String("Authenticated Users")),
                 qPrintable(message));
        QVERIFY(finding->fix.toEnglish().contains(QLatin1String("--path user")));
        // Review 2, N12: on the user's own PATH the same folder lets others choose what the user's
        // programs load; a folder only the administrators may change is fine there.
        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::User), id));
        const Findings mine = check(QStringLiteral("dir:C:\\tools\\cudnn"), PathScope::User);
        const Finding *onUserPath = findingOf(mine, QStringLiteral("target.writable-user-path"));
        QVERIFY2(onUserPath, qPrintable(describe(mine)));
        QCOMPARE(onUserPath->severity, Severity::Error);
        QVERIFY(onUserPath->message.toEnglish().contains(QLatin1String("Authenticated Users")));
        QVERIFY(!findingOf(check(QStringLiteral("dir:C:\\cudnn"), PathScope::User),
                           QStringLiteral("target.writable-user-path")));
    }

    // Review 2, N4: a DLL folder for the system PATH that cannot be shown to be the administrators'
    // alone is refused as one others may change. Each of these was passed before: the descriptor
    // could not be read, or not parsed (an alias the parser did not know, an entry it could not
    // read), or what the folder's files inherit was not looked at.
    void systemPathFolderNotProvablyTheAdministratorsIsRefused_data()
    {
        QTest::addColumn<QString>("sddl"); // empty: the descriptor cannot be read
        QTest::addColumn<QString>("named");
        const QString student = QStringLiteral("S-1-5-21-1004336348-1177238915-682003330-1001");
        QTest::newRow("a student owns it, PRINCIPAL SELF reads")
            << QStringLiteral("O:%1D:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;;FR;;;PS)").arg(student)
            << student;
        QTest::newRow("a domain account may modify")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1301bf;;;%1)").arg(student)
            << student;
        QTest::newRow("OWNER RIGHTS, a student owns it")
            << QStringLiteral("O:%1D:PAI(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;OW)").arg(student) << student;
        QTest::newRow("conditional allow for Everyone")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(XA;;FA;;;WD;(Member_of {SID(BA)}))")
            << QStringLiteral("Everyone");
        QTest::newRow("object allow for Users")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;BA)(OA;;FA;bf967aba-0de6-11d0-a285-00aa003049e2;;BU)")
            << QStringLiteral("Users");
        QTest::newRow("Users (OI)(IO)(M): every DLL put there")
            << QStringLiteral(
                   "O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FX;;;BU)(A;OIIO;0x1301bf;;;BU)")
            << QStringLiteral("Users");
        QTest::newRow("an entry of an unknown type")
            << QStringLiteral("O:BAD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(QQ;;FA;;;BU)")
            << QStringLiteral("possibly anyone");
        QTest::newRow("cannot be read") << QString() << QStringLiteral("possibly anyone");
    }
    void systemPathFolderNotProvablyTheAdministratorsIsRefused()
    {
        QFETCH(QString, sddl);
        QFETCH(QString, named);
        auto security = std::make_shared<MemoryFileSecurity>();
        const SystemContext guarded = context().withFileSecurity(security);
        const QString spec = QStringLiteral("dir:C:\\tools\\cudnn");
        const QString dllFolder = target(spec, QStringLiteral("9.1"), PathScope::System).dllFolder();
        m_sandbox.mkdir(dllFolder);
        for (const QString &above : {QStringLiteral("C:\\tools"), QStringLiteral("C:\\tools\\cudnn")})
            security->set(m_sandbox.hostPath(above), security::adminsOnlySddl());
        const auto check = [&] {
            return checkTarget(target(spec, QStringLiteral("9.1"), PathScope::System),
                               archive(QStringLiteral("9.1")), guarded);
        };
        const QString id = QStringLiteral("target.writable-system-path");
        security->set(m_sandbox.hostPath(dllFolder), security::adminsOnlySddl());
        QVERIFY(!findingOf(check(), id));

        if (sddl.isEmpty())
            security->setUnreadable(m_sandbox.hostPath(dllFolder), QStringLiteral("access denied"));
        else
            security->set(m_sandbox.hostPath(dllFolder), sddl);
        const Findings refused = check();
        const Finding *finding = findingOf(refused, id);
        QVERIFY2(finding, qPrintable(describe(refused)));
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral("but %1 can be changed").arg(dllFolder)) &&
                     message.contains(named),
                 qPrintable(message));
    }

    void tooLongNamesTheLongestPath()
    {
        const QString root = QStringLiteral("C:\\") + QString(210, QLatin1Char('a'));
        const Findings findings =
            checkTarget(target(QStringLiteral("dir:") + root), archive(QStringLiteral("9.1")), context());
        const Finding *finding = findingOf(findings, QStringLiteral("target.too-long"));
        QVERIFY(finding);
        QCOMPARE(finding->details, QStringLiteral("1 of 32 paths at 260 characters or more, the longest: ") +
                                       root +
                                       QStringLiteral("\\lib\\x64\\cudnn_engines_runtime_compiled64_9.lib"));
        QVERIFY2(finding->message.toEnglish().contains(QLatin1String("would have 260 characters")),
                 qPrintable(finding->message.toEnglish()));
        // 9.18's DLLs in bin\x64 are as long as its import libraries in lib\x64.
        const QString shorter = QStringLiteral("C:\\") + QString(206, QLatin1Char('a'));
        QVERIFY(ids(checkTarget(target(QStringLiteral("dir:") + shorter, QStringLiteral("9.18")),
                                archive(QStringLiteral("9.18")), context()))
                    .isEmpty());
    }

    void notEmptyNamesWhatIsThere()
    {
        m_sandbox.write(QStringLiteral("C:\\cudnn-photos\\holiday.jpg"), "jpeg");
        const Findings findings = checkTarget(target(QStringLiteral("dir:C:\\cudnn-photos")),
                                              archive(QStringLiteral("9.1")), context());
        const Finding *finding = findingOf(findings, QStringLiteral("target.not-empty"));
        QVERIFY(finding);
        QVERIFY2(finding->message.toEnglish().contains(QLatin1String("holiday.jpg")),
                 qPrintable(finding->message.toEnglish()));
        // A user folder is judged the same way.
        m_sandbox.write(kUser + QStringLiteral("\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.1\\x.txt"),
                        "x");
        QVERIFY(
            findingOf(checkTarget(target(QStringLiteral("user")), archive(QStringLiteral("9.1")), context()),
                      QStringLiteral("target.not-empty")));
        // A conda env or venv is full of other files by nature.
        QVERIFY(
            ids(checkTarget(target(QStringLiteral("conda:base")), archive(QStringLiteral("9.1")), context()))
                .isEmpty());
    }

    void kindsThatAreGone_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("id");
        QTest::newRow("toolkit uninstalled")
            << "cuda:12.4" << kCuda + QStringLiteral("v10.0") << "target.toolkit-missing";
        QTest::newRow("toolkit folder empty")
            << "cuda:12.4" << kUser + QStringLiteral("\\AppData\\Local") << "target.toolkit-missing";
        QTest::newRow("venv deleted")
            << QStringLiteral("venv:") + kVenv << QStringLiteral("D:\\old\\.venv") << "target.venv-invalid";
        QTest::newRow("venv without python") << QStringLiteral("venv:") + kVenv
                                             << kUser + QStringLiteral("\\not-venv") << "target.venv-invalid";
        QTest::newRow("conda env removed")
            << "conda:torch" << kConda + QStringLiteral("\\envs\\gone") << "target.conda-invalid";
        QTest::newRow("conda root is not an env")
            << "conda:torch" << kConda + QStringLiteral("\\envs") << "target.conda-invalid";
    }
    void kindsThatAreGone()
    {
        QFETCH(QString, spec);
        QFETCH(QString, root);
        QFETCH(QString, id);
        InstallTarget target = this->target(spec);
        target.root = root;
        const Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context());
        QCOMPARE(ids(findings), QStringList{id});
        QVERIFY(!findingOf(findings, id)->fix.isEmpty());
    }

    // Free space from a stand-in: twice the archive is enough, a byte less is not.
    void freeSpace()
    {
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-space\\v9.1"));
        qint64 unpacked = 0;
        for (const PlannedFile &file : cudnnsetup::placeFiles(report, target))
            unpacked += file.size;
        const qint64 needed = std::max(2 * report.size, unpacked);
        QVERIFY(needed > 0);

        FakeVolumes volumes;
        volumes.free = needed;
        Findings findings = checkTarget(target, report, context(), volumes);
        QVERIFY2(ids(findings, Severity::Info).isEmpty(), qPrintable(describe(findings)));
        // Asked on the sandbox's side of the root, for the target's own place.
        QVERIFY(!volumes.freeAsked.isEmpty());
        QVERIFY2(volumes.freeAsked.constFirst().startsWith(m_sandbox.root()),
                 qPrintable(volumes.freeAsked.join(QLatin1Char(','))));
        QVERIFY(volumes.freeAsked.constFirst().endsWith(QLatin1String("/cudnn-space/v9.1")));

        volumes.free = needed - 1;
        findings = checkTarget(target, report, context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space")});
        const Finding *finding = findingOf(findings, QStringLiteral("target.no-space"));
        QVERIFY(finding->details.contains(
            QStringLiteral("available %1 bytes, needed %2 bytes").arg(needed - 1).arg(needed)));
        QVERIFY(finding->details.contains(QStringLiteral("archive %1").arg(report.size)));
        QVERIFY(!finding->fix.isEmpty());

        // Free space nobody could read is said, never taken for enough.
        volumes.free = -1;
        findings = checkTarget(target, report, context(), volumes);
        QVERIFY(ids(findings).isEmpty());
        QVERIFY(findingOf(findings, QStringLiteral("target.space-unknown")));

        // A huge archive on the real disk of this host: more than any disk holds.
        ArchiveReport huge = report;
        huge.size = qint64(1) << 60;
        findings = checkTarget(target, huge, context());
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space")});
    }

    // A folder inside the target that is a link to somewhere else would carry the install's files
    // out of it: refused before anything is written. A link that stays inside is fine.
    void linksThatLeadOutOfTheTargetAreRefused()
    {
#ifdef Q_OS_WIN
        QSKIP("QFile::link makes a shortcut on Windows, not a link");
#else
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-linked\\v9.1"));
        const QString lib = target.pathOf(target.libFolder);
        // What the link leads to holds a file of this cuDNN's name.
        m_sandbox.write(QStringLiteral("C:\\elsewhere\\cudnn.lib"), "other");
        m_sandbox.symlink(m_sandbox.hostPath(QStringLiteral("C:\\elsewhere")), lib);
        const auto cleanUp = qScopeGuard([&] { QDir(m_sandbox.hostPath(target.root)).removeRecursively(); });
        Findings findings = checkTarget(target, report, context());
        const Finding *outside = findingOf(findings, QStringLiteral("target.link-outside"));
        QVERIFY2(outside, qPrintable(describe(findings)));
        QCOMPARE(outside->severity, Severity::Error);
        QVERIFY2(outside->message.toEnglish().contains(QStringLiteral("elsewhere")),
                 qPrintable(outside->message.toEnglish()));
        QVERIFY(!outside->fix.isEmpty());
        // Nor is the target said to hold this cuDNN already: the file is not in it.
        QVERIFY2(!findingOf(findings, QStringLiteral("target.previous-install")),
                 qPrintable(describe(findings)));

        QVERIFY(QFile::remove(m_sandbox.hostPath(lib)));
        m_sandbox.mkdir(target.root + QStringLiteral("\\real"));
        m_sandbox.symlink(m_sandbox.hostPath(target.root + QStringLiteral("\\real")), lib);
        findings = checkTarget(target, report, context());
        QVERIFY2(!findingOf(findings, QStringLiteral("target.link-outside")), qPrintable(describe(findings)));
#endif
    }

    // The files an install replaces are kept under the state folder: on another drive than the
    // target they are copies, and that drive must hold them.
    void keepingSpaceCountsTheStateFoldersDrive()
    {
        const ArchiveReport &report = archive(QStringLiteral("9.1"));
        const InstallTarget target = this->target(QStringLiteral("dir:C:\\cudnn-keep\\v9.1"));
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        QVERIFY(planned.size() >= 2);
        const QString kept = m_sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\receipts\\r1"));
        FakeVolumes volumes;
        volumes.id = [](const QString &path) {
            return path.contains(QLatin1String("ProgramData")) ? QStringLiteral("D:") : QStringLiteral("C:");
        };
        volumes.free = 0;
        // Nothing replaced: nothing to keep.
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());

        m_sandbox.write(planned.at(0).destination, QByteArray(1000, 'a'));
        m_sandbox.write(planned.at(1).destination, QByteArray(500, 'b'));
        const auto cleanUp = qScopeGuard([&] {
            QFile::remove(m_sandbox.hostPath(planned.at(0).destination));
            QFile::remove(m_sandbox.hostPath(planned.at(1).destination));
        });
        volumes.free = 1499;
        Findings findings = checkKeepingSpace(planned, kept, target, context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.no-space-to-keep")});
        QVERIFY2(findings.first().details.contains(QStringLiteral("available 1499 bytes, needed 1500 bytes")),
                 qPrintable(findings.first().details));
        QVERIFY(
            findings.first().message.toEnglish().contains(QStringLiteral("C:\\ProgramData\\cuDNN Setup")));
        QVERIFY(!findings.first().fix.isEmpty());
        volumes.free = 1500;
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());
        // Unknown free space is said, not taken for enough.
        volumes.free = -1;
        findings = checkKeepingSpace(planned, kept, target, context(), volumes);
        QVERIFY(ids(findings).isEmpty());
        QVERIFY(findingOf(findings, QStringLiteral("target.space-unknown")));
        // On the target's own drive they are only renamed.
        volumes.id = [](const QString &) { return QStringLiteral("C:"); };
        volumes.free = 0;
        QVERIFY(checkKeepingSpace(planned, kept, target, context(), volumes).isEmpty());
    }

    // The write test's answer decides the message: admin rights help only where access was denied
    // to a user who is not one.
    void notWritableSaysWhetherAdminHelps_data()
    {
        QTest::addColumn<bool>("accessDenied");
        QTest::addColumn<bool>("elevated");
        QTest::addColumn<bool>("adminHelps");
        QTest::newRow("denied, standard user") << true << false << true;
        QTest::newRow("denied, already elevated") << true << true << false;
        QTest::newRow("read-only medium") << false << false << false;
    }
    void notWritableSaysWhetherAdminHelps()
    {
        QFETCH(bool, accessDenied);
        QFETCH(bool, elevated);
        QFETCH(bool, adminHelps);
        FakeVolumes volumes;
        volumes.write = [&](const QString &folder) {
            WriteProbe probe;
            probe.folder = folder;
            probe.accessDenied = accessDenied;
            probe.elevated = elevated;
            probe.error =
                accessDenied ? QStringLiteral("Access is denied.") : QStringLiteral("Read-only file system");
            return probe;
        };
        const Findings findings =
            checkTarget(target(QStringLiteral("dir")), archive(QStringLiteral("9.1")), context(), volumes);
        const QString id =
            adminHelps ? QStringLiteral("target.needs-admin") : QStringLiteral("target.not-writable");
        QCOMPARE(ids(findings), QStringList{id});
        const QString message = findingOf(findings, id)->message.toEnglish();
        QCOMPARE(message.contains(QLatin1String("administrator rights would allow it")), adminHelps);
        QCOMPARE(message.contains(QLatin1String("administrator rights would not help")), !adminHelps);
    }

    // Every destination folder (or the nearest existing one above it) is tried once: a toolkit's
    // bin, include and lib\x64; a venv's site-packages.
    void writeTestedWhereFilesGo()
    {
        FakeVolumes volumes;
        QStringList tried;
        volumes.write = [&](const QString &folder) {
            tried.append(folder.mid(m_sandbox.root().size()));
            WriteProbe probe;
            probe.ok = true;
            return probe;
        };
        QVERIFY(ids(checkTarget(target(QStringLiteral("cuda:13")), archive(QStringLiteral("9.18")), context(),
                                volumes))
                    .isEmpty());
        QCOMPARE(
            tried,
            (QStringList{QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/bin/x64"),
                         QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/include"),
                         QStringLiteral("/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/lib/x64")}));
        tried.clear();
        QVERIFY(ids(checkTarget(target(QStringLiteral("venv:") + kVenv), archive(QStringLiteral("9.1")),
                                context(), volumes))
                    .isEmpty());
        QCOMPARE(tried,
                 QStringList{QStringLiteral("/Users/\u5f20\u4e09/\u9879\u76ee/.venv/Lib/site-packages")});
    }

    // An all-users conda in ProgramData: users may add files there but not remove an
    // administrator's, so the write test passes and replacing the cuDNN already there would fail.
    // The replace test of each file to be replaced says so before anything is changed; a file the
    // user may replace, and a new one, pass.
    void filesToReplaceNeedTheRightToReplace()
    {
        const InstallTarget target = this->target(QStringLiteral("conda:torch"));
        const QString existing = target.dllFolder() + QStringLiteral("\\cudnn64_9.dll");
        m_sandbox.write(existing, "the administrator's cuDNN");
        FakeVolumes volumes;
        QStringList asked;
        bool mayReplace = false;
        volumes.replace = [&](const QString &file) {
            asked.append(file);
            WriteProbe probe;
            probe.folder = file;
            probe.ok = mayReplace;
            probe.accessDenied = !mayReplace;
            probe.error = mayReplace ? QString() : QStringLiteral("Access is denied.");
            return probe;
        };
        Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.needs-admin")});
        QVERIFY2(
            findingOf(findings, QStringLiteral("target.needs-admin"))->message.toEnglish().contains(existing),
            qPrintable(describe(findings)));
        QCOMPARE(asked, QStringList{m_sandbox.hostPath(existing)}); // only the file that is there
        mayReplace = true;
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
        QVERIFY(QFile::remove(m_sandbox.hostPath(existing)));
    }

    // The real replace test changes nothing and passes for a file this process may remove.
    void replaceTestChangesNothing()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cudnn64_9.dll"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("bytes");
        out.close();
        const WriteProbe probe = Volumes::host().tryReplace(file);
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QVERIFY(!probe.adminWouldHelp());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("cudnn64_9.dll")});
    }

    // Staging is renamed into place, so it must share the destinations' volume.
    void stagingOnAnotherVolume()
    {
        FakeVolumes volumes;
        volumes.id = [](const QString &path) {
            return path.contains(QLatin1String("/include")) ? QStringLiteral("D:") : QStringLiteral("C:");
        };
        const InstallTarget target = this->target(QStringLiteral("cuda:12.4"));
        Findings findings = checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes);
        QCOMPARE(ids(findings), QStringList{QStringLiteral("target.staging-volume")});
        QVERIFY(findingOf(findings, QStringLiteral("target.staging-volume"))
                    ->message.toEnglish()
                    .contains(kCuda + QStringLiteral("v12.4\\include")));
        volumes.id = [](const QString &) { return QString(); }; // unknown: not an error
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
        volumes.id = nullptr; // the host's: the sandbox is on one volume
        QVERIFY(ids(checkTarget(target, archive(QStringLiteral("9.1")), context(), volumes)).isEmpty());
    }

    // A folder this user cannot write: the real write test fails with access denied. Root (and
    // Windows, which ignores the read-only attribute of folders) can write anyway: then the row
    // cannot be made and is skipped.
    void readOnlyFolder()
    {
        const QString folder = m_sandbox.hostPath(QStringLiteral("C:\\readonly"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        QFile canary(folder + QStringLiteral("/canary"));
        const bool writable = canary.open(QIODevice::WriteOnly | QIODevice::NewOnly);
        if (writable) {
            canary.close();
            canary.remove();
            QFile::setPermissions(folder,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            QSKIP("this user can write to a read-only folder (root, or Windows)");
        }
        const WriteProbe probe = Volumes::host().tryWrite(folder + QStringLiteral("/cudnn/bin"));
        const Findings findings = checkTarget(target(QStringLiteral("dir:C:\\readonly\\cudnn")),
                                              archive(QStringLiteral("9.1")), context());
        QFile::setPermissions(folder,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!probe.ok);
        QVERIFY(probe.accessDenied);
        QCOMPARE(probe.folder, folder);
        const QString id = Volumes::isElevated() ? QStringLiteral("target.not-writable")
                                                 : QStringLiteral("target.needs-admin");
        QCOMPARE(ids(findings), QStringList{id});
        QCOMPARE(findingOf(findings, id)->message.toEnglish().contains(QLatin1String("would allow it")),
                 !Volumes::isElevated());
    }

    // The host's volumes, for real.
    void hostVolumes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Volumes &volumes = Volumes::host();
        WriteProbe probe = volumes.tryWrite(dir.path());
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QCOMPARE(probe.folder, dir.path());
        QCOMPARE(
            QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
            QStringList()); // removed again

        // A folder that does not exist yet: tried in the nearest one above, never created.
        probe = volumes.tryWrite(dir.filePath(QStringLiteral("new/deeper")));
        QVERIFY2(probe.ok, qPrintable(probe.error));
        QCOMPARE(probe.folder, dir.path());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("new"))));

        // A file in the way: no rights would help.
        QFile file(dir.filePath(QStringLiteral("file.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        probe = volumes.tryWrite(dir.filePath(QStringLiteral("file.txt/below")));
        QVERIFY(!probe.ok);
        QVERIFY(probe.notAFolder);
        QVERIFY(!probe.adminWouldHelp());
        QCOMPARE(probe.folder, dir.filePath(QStringLiteral("file.txt")));

        QVERIFY(volumes.freeBytes(dir.path()) > 0);
        QVERIFY(volumes.freeBytes(dir.filePath(QStringLiteral("missing/x"))) > 0);
        QCOMPARE(volumes.sameVolume(dir.path(), dir.filePath(QStringLiteral("missing/x"))),
                 std::optional<bool>(true));
        QVERIFY(!volumes.volumeId(dir.path()).isEmpty());
        QCOMPARE(Volumes::nearestExisting(dir.filePath(QStringLiteral("a/b/c"))), dir.path());
        QCOMPARE(Volumes::nearestExisting(dir.filePath(QStringLiteral("file.txt"))),
                 dir.filePath(QStringLiteral("file.txt")));
    }

    void needsAdmin_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("scope"); // -1: the kind's own
        QTest::addColumn<bool>("admin");
        QTest::newRow("own folder, system PATH") << "dir" << -1 << true;
        QTest::newRow("own folder under Program Files, no PATH") << "dir" << int(PathScope::None) << true;
        QTest::newRow("Program Files (x86)")
            << "dir:C:\\Program Files (x86)\\cudnn" << int(PathScope::None) << true;
        QTest::newRow("Windows folder") << "dir:c:\\windows\\cudnn" << int(PathScope::None) << true;
        QTest::newRow("D:, user PATH") << "dir:D:\\cudnn" << int(PathScope::User) << false;
        QTest::newRow("D:, system PATH") << "dir:D:\\cudnn" << int(PathScope::System) << true;
        QTest::newRow("Program Files lookalike")
            << "dir:C:\\Program Files2\\cudnn" << int(PathScope::None) << false;
        QTest::newRow("per-user") << "user" << -1 << false;
        QTest::newRow("toolkit under Program Files") << "cuda:12.4" << -1 << true;
        QTest::newRow("conda env") << "conda:torch" << -1 << false;
        QTest::newRow("venv") << QStringLiteral("venv:") + kVenv << -1 << false;
    }
    void needsAdmin()
    {
        QFETCH(QString, spec);
        QFETCH(int, scope);
        QFETCH(bool, admin);
        const InstallTarget target = this->target(spec, QStringLiteral("9.1"),
                                                  scope < 0 ? std::nullopt : std::optional(PathScope(scope)));
        QCOMPARE(target.needsAdmin(context()), admin);
    }

    void json()
    {
        const QJsonObject venv = target(QStringLiteral("venv:") + kVenv).toJson();
        QCOMPARE(venv.value(QStringLiteral("kind")).toString(), QStringLiteral("venv"));
        QCOMPARE(venv.value(QStringLiteral("root")).toString(), kVenv);
        QCOMPARE(venv.value(QStringLiteral("dllFolder")).toString(),
                 kVenv + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.libs\\bin"));
        QCOMPARE(venv.value(QStringLiteral("pthFile")).toString(),
                 kVenv + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.pth"));
        QCOMPARE(venv.value(QStringLiteral("pathScope")).toString(), QStringLiteral("none"));
        QVERIFY(venv.value(QStringLiteral("toolkitVersion")).isNull());
        const QJsonObject cuda = target(QStringLiteral("cuda"), QStringLiteral("9.18")).toJson();
        QCOMPARE(cuda.value(QStringLiteral("toolkitVersion")).toString(), QStringLiteral("13.0.88"));
        QCOMPARE(cuda.value(QStringLiteral("binFolder")).toString(), QStringLiteral("bin\\x64"));
        QVERIFY(cuda.value(QStringLiteral("pthFile")).isNull());
    }

    // The loader's file of a folder is named after it, and after its path's SHA-256 (sha256sum's):
    // folders whose paths differ only in what the readable part replaces get a file each.
    void linuxLoaderFileNamesEachFolderApart()
    {
        QCOMPARE(linuxFolder(QStringLiteral("/opt/a b"), PathScope::System).ldSoConfFile(),
                 QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-a-b-lib-8bb57619e89a.conf"));
        QCOMPARE(linuxFolder(QStringLiteral("/opt/a-b"), PathScope::System).ldSoConfFile(),
                 QStringLiteral("/etc/ld.so.conf.d/cudnn-setup-opt-a-b-lib-8289e2845423.conf"));
        // Past the 120 characters the readable part keeps, only the hash tells them apart.
        const QString longer = QStringLiteral("/opt/") + QString(130, QLatin1Char('x'));
        const QString first = linuxFolder(longer + QStringLiteral("/one"), PathScope::System).ldSoConfFile();
        const QString second = linuxFolder(longer + QStringLiteral("/two"), PathScope::System).ldSoConfFile();
        QVERIFY(first != second);
        QCOMPARE(first.left(first.size() - 18), second.left(second.size() - 18));
        QVERIFY(linuxFolder(QStringLiteral("/opt/a b"), PathScope::None).ldSoConfFile().isEmpty());
    }

    // The comment that names the target stays on its line whatever the target's name holds.
    void linuxLoaderFileCommentIsOneLine()
    {
        const InstallTarget target =
            linuxFolder(QStringLiteral("/opt/x\ninclude /home/eve/*.conf\r\x7f"), PathScope::System);
        const QByteArray content = target.ldSoConfContent();
        QVERIFY2(content.startsWith("# cuDNN Setup: /opt/x\\u000ainclude /home/eve/*.conf\\u000d\\u007f\n"),
                 content.constData());
        QCOMPARE(linuxFolder(QStringLiteral("/opt/cudnn"), PathScope::System).ldSoConfContent(),
                 QByteArray("# cuDNN Setup: /opt/cudnn\n/opt/cudnn/lib\n"));
    }

    // The loader's configuration takes one folder a line and "#" starts a comment: a folder whose
    // path holds a control character or "#" is not named there (a line break would add lines of
    // its own, such as an include). Only the loader's configuration minds.
    void linuxLoaderFolderWithoutControlCharacters_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("shown");
        QTest::newRow("line break") << QStringLiteral("/opt/cu\ninclude /tmp/x") << "U+000A";
        QTest::newRow("carriage return") << QStringLiteral("/opt/cu\rdnn") << "U+000D";
        QTest::newRow("tab") << QStringLiteral("/opt/cu\tdnn") << "U+0009";
        QTest::newRow("DEL") << QStringLiteral("/opt/cu\x7f") << "U+007F";
        QTest::newRow("next line (C1)") << QStringLiteral("/opt/cu\u0085dnn") << "U+0085";
        QTest::newRow("#") << QStringLiteral("/opt/cu#dnn") << "\"#\"";
    }
    void linuxLoaderFolderWithoutControlCharacters()
    {
        QFETCH(QString, root);
        QFETCH(QString, shown);
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/opt"));
        const SystemContext linux = SystemContext::rooted(sandbox.root())
                                        .withPosixOwnership(std::make_shared<MemoryPosixOwnership>());
        QCOMPARE(linux.family(), OsFamily::Linux);
        const QString id = QStringLiteral("target.unsafe-name-linux");
        const Findings findings =
            checkTarget(linuxFolder(root, PathScope::System), archive(QStringLiteral("9.1")), linux);
        const Finding *finding = findingOf(findings, id);
        QVERIFY2(finding, qPrintable(describe(findings)));
        QCOMPARE(finding->severity, Severity::Error);
        const QString message = finding->message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral(" has %1 in its path").arg(shown)), qPrintable(message));
        QVERIFY2(std::none_of(message.cbegin(), message.cend(),
                              [](QChar c) { return c.category() == QChar::Other_Control; }),
                 qPrintable(message));
        QVERIFY(!finding->fix.isEmpty());
        QVERIFY(!findingOf(
            checkTarget(linuxFolder(root, PathScope::None), archive(QStringLiteral("9.1")), linux), id));
    }

    // As root, on the running system: a folder another user owns, one below a folder its group
    // may write, and one under /tmp (sticky, and anyone's to make again after its cleaning) are
    // refused for the loader before anything is written, not even the write test's file; under
    // --system-root a folder root made 0755 is accepted (real owners and modes: lstat).
    void linuxFoldersOthersMayChangeAsRoot_data()
    {
        QTest::addColumn<QString>("made");    // under the test's folder in /tmp
        QTest::addColumn<QString>("changed"); // made another user's, or its group's to write
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("named"); // the folder the refusal names ("" the test's own)
        QTest::newRow("another user's folder") << "cudnn"
                                               << "cudnn"
                                               << "cudnn"
                                               << "cudnn";
        QTest::newRow("a parent its group may write") << "shared/cudnn"
                                                      << "shared"
                                                      << "shared/cudnn"
                                                      << "shared";
        QTest::newRow("under /tmp") << "cudnn"
                                    << ""
                                    << "cudnn"
                                    << "/tmp";
    }
    void linuxFoldersOthersMayChangeAsRoot()
    {
#ifdef Q_OS_WIN
        QSKIP("POSIX owners and modes: Linux only");
#else
        if (::geteuid() != 0)
            QSKIP("changing a folder's owner needs root");
        QFETCH(QString, made);
        QFETCH(QString, changed);
        QFETCH(QString, target);
        QFETCH(QString, named);
        QTemporaryDir tmp(QStringLiteral("/tmp/cudnn-setup-owners-XXXXXX"));
        QVERIFY(tmp.isValid());
        QVERIFY(QDir().mkpath(tmp.filePath(made)));
        if (changed == QLatin1String("cudnn"))
            QCOMPARE(::chown(QFile::encodeName(tmp.filePath(changed)).constData(), 65534, 65534), 0);
        else if (!changed.isEmpty())
            QVERIFY(QFile::setPermissions(tmp.filePath(changed), QFile::Permissions(0x7775)));
        const TreeSnapshot before = TreeSnapshot::of(tmp.path());
        const Findings findings = checkTarget(linuxFolder(tmp.filePath(target), PathScope::System),
                                              archive(QStringLiteral("9.1")), SystemContext::running());
        const Finding *finding = findingOf(findings, QStringLiteral("target.unsafe-owner-linux"));
        QVERIFY2(finding, qPrintable(describe(findings)));
        const QString folder = named.startsWith(QLatin1Char('/')) ? named : tmp.filePath(named);
        QVERIFY2(finding->message.toEnglish().contains(QStringLiteral("but %1 can be changed").arg(folder)),
                 qPrintable(finding->message.toEnglish()));
        QVERIFY2(TreeSnapshot::of(tmp.path()) == before,
                 qPrintable(TreeSnapshot::of(tmp.path()).difference(before)));

        // The same kind of folder in a tree that root made, its own "/" included: accepted.
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/opt/cudnn"));
        for (const QString &folder :
             {QStringLiteral("/"), QStringLiteral("/opt"), QStringLiteral("/opt/cudnn")})
            QVERIFY(QFile::setPermissions(sandbox.hostPath(folder), QFile::Permissions(0x7755)));
        const Findings accepted =
            checkTarget(linuxFolder(QStringLiteral("/opt/cudnn"), PathScope::System),
                        archive(QStringLiteral("9.1")), SystemContext::rooted(sandbox.root()));
        QVERIFY2(!findingOf(accepted, QStringLiteral("target.unsafe-owner-linux")),
                 qPrintable(describe(accepted)));
#endif
    }

    void pthIsOneLineOfAscii_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QByteArray>("literal");
        QTest::newRow("plain") << "C:\\venv\\bin" << QByteArray("'C:\\\\venv\\\\bin'");
        QTest::newRow("Chinese") << kVenv
                                 << QByteArray("'C:\\\\Users\\\\\\u5f20\\u4e09\\\\\\u9879\\u76ee\\\\.venv'");
        QTest::newRow("quote") << "C:\\it's" << QByteArray("'C:\\\\it\\'s'");
        QTest::newRow("beyond the BMP")
            << QStringLiteral("C:\\\U00020000") << QByteArray("'C:\\\\\\U00020000'");
        QTest::newRow("a control character") << QStringLiteral("C:\\a\tb") << QByteArray("'C:\\\\a\\x09b'");
    }
    void pthIsOneLineOfAscii()
    {
        QFETCH(QString, folder);
        QFETCH(QByteArray, literal);
        const QByteArray content = venvPthContent(folder);
        QCOMPARE(content, "import os; hasattr(os, 'add_dll_directory') and os.path.isdir(" + literal +
                              ") and os.add_dll_directory(" + literal + ")\n");
        QCOMPARE(content.count('\n'), 1);
        for (const char c : content)
            QVERIFY2(uchar(c) < 0x80 && (uchar(c) >= 0x20 || c == '\n'), content.constData());
    }

    // The .pth through a real Python's site module: the folder comes back exactly, even with Python
    // reading it in a locale whose encoding is ASCII.
    void pthThroughPython_data()
    {
        QTest::addColumn<QString>("folder"); // empty: a real Chinese folder on this host
        QTest::addColumn<bool>("pretend");
        QTest::addColumn<bool>("strict");
        QTest::newRow("real Chinese folder") << QString() << false << false;
        QTest::newRow("real Chinese folder, ASCII locale") << QString() << false << true;
        QTest::newRow("Windows venv of a Chinese user, ASCII locale")
            << kVenv + QStringLiteral("\\Lib\\bin") << true << true;
        QTest::newRow("beyond the BMP, ASCII locale")
            << QStringLiteral("C:\\\U0001F600\\\U00020000\\bin") << true << true;
        QTest::newRow("quote and trailing backslash") << QStringLiteral("C:\\it's\\") << true << true;
    }
    void pthThroughPython()
    {
        QFETCH(QString, folder);
        QFETCH(bool, pretend);
        QFETCH(bool, strict);
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("no python3 on this host");
        QTemporaryDir site;
        QVERIFY(site.isValid());
        QTemporaryDir home;
        QVERIFY(home.isValid());
        if (folder.isEmpty()) {
            folder =
                home.filePath(QStringLiteral("\u7528\u6237/\u5f20\u4e09/cudnn_setup.libs/bin")); // 用户/张三
            QVERIFY(QDir().mkpath(folder));
        }
        QFile pth(site.filePath(QStringLiteral("cudnn_setup.pth")));
        QVERIFY(pth.open(QIODevice::WriteOnly));
        pth.write(venvPthContent(folder));
        pth.close();
        const PythonRun run = runPth(python, site.path(), pretend, strict);
        QVERIFY2(run.exitCode == 0, run.error.constData());
        QVERIFY2(run.error.isEmpty(), run.error.constData());
        if (strict && !pretend) {
            // Under an ASCII locale Python cannot even name a Chinese folder: the guard must
            // keep quiet instead of raising.
            QVERIFY2(run.calls.isEmpty() || run.calls == QStringList{folder},
                     qPrintable(run.calls.join(QLatin1Char('|'))));
            return;
        }
        QCOMPARE(run.calls, QStringList{folder});
        if (strict)
            QVERIFY2(!run.encoding.contains(QLatin1String("UTF"), Qt::CaseInsensitive),
                     qPrintable(run.encoding));
    }

    // The guard: a folder that is gone (or a Python without add_dll_directory) changes nothing and
    // prints nothing; the same line written naively in UTF-8 breaks under an ASCII locale, which is
    // why the escapes are there.
    void pthGuards()
    {
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("no python3 on this host");
        QTemporaryDir site;
        QVERIFY(site.isValid());
        QFile pth(site.filePath(QStringLiteral("cudnn_setup.pth")));
        QVERIFY(pth.open(QIODevice::WriteOnly));
        pth.write(venvPthContent(site.filePath(QStringLiteral("gone"))));
        pth.close();
        PythonRun run = runPth(python, site.path(), false, false);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.error.isEmpty(), run.error.constData());
        QCOMPARE(run.calls, QStringList());

        const QString folder = kVenv + QStringLiteral("\\bin");
        QVERIFY(pth.open(QIODevice::WriteOnly | QIODevice::Truncate));
        pth.write("import os; os.add_dll_directory('" +
                  QString(folder).replace(QLatin1Char('\\'), QStringLiteral("\\\\")).toUtf8() + "')\n");
        pth.close();
        run = runPth(python, site.path(), true, true);
        // Python 3.13 reads .pth files as UTF-8 first, so only older ones show the breakage.
        if (run.minor > 0 && run.minor < 13)
            QVERIFY2(run.calls != QStringList{folder}, qPrintable(run.encoding));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestInstallTarget)
#include "tst_installtarget.moc"
