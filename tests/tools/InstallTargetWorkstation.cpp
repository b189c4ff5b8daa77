#include "InstallTargetWorkstation.h"

#include "CudnnArchiveLists.h"
#include "SystemTrees.h"
#include "ZipWriter.h"
#include "compat/KnowledgeBase.h"
#include "install/TargetSpec.h"
#include "platform/LibraryLoader.h"
#include "platform/ProcessRunner.h"
#include "platform/Registry.h"

#include <QFile>
#include <QTest>

using namespace cudnnsetup;

SystemContext InstallTargetWorkstation::windowsContext(const Sandbox &sandbox,
                                                       const QProcessEnvironment &environment)
{
    auto registry = Registry::unavailable();
    return SystemContext(FileSystem(OsFamily::Windows, sandbox.root()),
                         EnvironmentStore(OsFamily::Windows, environment, registry), registry,
                         std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

QProcessEnvironment InstallTargetWorkstation::windowsEnvironment()
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

CudaToolkit InstallTargetWorkstation::toolkit(const QString &version, const QString &binDir)
{
    CudaToolkit toolkit;
    toolkit.version = version;
    toolkit.path = kCuda + QStringLiteral("v") + version.section(QLatin1Char('.'), 0, 1);
    toolkit.binDir = binDir.isEmpty() ? QString() : toolkit.path + QLatin1Char('\\') + binDir;
    toolkit.libDir = toolkit.path + QStringLiteral("\\lib\\x64");
    toolkit.source = QStringLiteral("default-folder");
    return toolkit;
}

SystemSnapshot InstallTargetWorkstation::workstationSnapshot(const QString &driverMaxCuda)
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

QStringList InstallTargetWorkstation::ids(const Findings &findings, Severity atLeast)
{
    QStringList result;
    for (const Finding &finding : findings) {
        if (finding.severity >= atLeast)
            result.append(finding.id);
    }
    return result;
}

const Finding *InstallTargetWorkstation::findingOf(const Findings &findings, const QString &id)
{
    for (const Finding &finding : findings) {
        if (finding.id == id)
            return &finding;
    }
    return nullptr;
}

QString InstallTargetWorkstation::describe(const Findings &findings)
{
    QStringList lines;
    for (const Finding &finding : findings)
        lines.append(QStringLiteral("%1 [%2] %3 | %4")
                         .arg(finding.id, severityName(finding.severity), finding.message.toEnglish(),
                              finding.details));
    return lines.join(QLatin1Char('\n'));
}

ArchiveReport InstallTargetWorkstation::inspectZip(const QString &fileName, const QByteArray &zip)
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

const ArchiveReport &InstallTargetWorkstation::archive(const QString &key) const
{
    if (!m_reports.contains(key))
        qFatal("no archive %s", qPrintable(key));
    return *m_reports.constFind(key);
}

InstallTarget InstallTargetWorkstation::target(const QString &spec, const QString &archiveKey,
                                               std::optional<PathScope> scope)
{
    const auto result = targetFromSpec(spec, scope, workstationSnapshot(), archive(archiveKey), context());
    if (!result)
        qFatal("spec %s: %s", qPrintable(spec), qPrintable(result.error().message.toEnglish()));
    return *result;
}

void InstallTargetWorkstation::initWorkstation()
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
    m_reports.insert(QStringLiteral("8.2"),
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
    m_sandbox.write(QStringLiteral("C:\\cudnn-ours\\.cudnn-setup-staging-backup\\1\\cudnn64_9.dll"), "MZ");
    m_sandbox.mkdir(QStringLiteral("C:\\cudnn-empty\\bin\\x64"));
    m_context = std::make_unique<SystemContext>(windowsContext(m_sandbox, windowsEnvironment()));
}
