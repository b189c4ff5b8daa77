// The doctor on sandbox systems, one fixture per failure mode of the reference list: the Windows
// trees are read by the real detector (their stored PATH and variables in an in-memory environment
// that the registry view and the repairs share), the probe's answers are built here where a rule
// needs one. Each rule fires on its fixture and not on a healthy one; each repair, applied, makes its
// finding go, and its receipt's uninstall puts the files and the stored environment back byte for
// byte; a repair that fails midway leaves nothing changed.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "MemoryFileSecurity.h"
#include "MemoryRegistry.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "TreeSnapshot.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"
#include "detect/Detector.h"
#include "doctor/Doctor.h"
#include "doctor/RepairSteps.h"
#include "install/Operations.h"
#include "install/Zlibwapi.h"
#include "platform/InstallLock.h"
#include "platform/MemoryEnvironment.h"
#include "session/InstallRequest.h"
#include "verify/ErrorLog.h"
#include "verify/Verifier.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <functional>

using namespace cudnnsetup;

namespace {

const QString kCuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
const QString kCuda122Bin = kCuda + QStringLiteral("v12.2\\bin");

// The registry as a freshly started program reads it: the Environment keys are the stored
// environment the repairs change, everything else an in-memory registry.
class EnvironmentRegistry final : public Registry
{
public:
    explicit EnvironmentRegistry(std::shared_ptr<MemoryEnvironment> stored)
        : m_stored(std::move(stored))
    {
    }
    MemoryRegistry other;

    bool isAvailable() const override { return true; }
    std::optional<RegistryValue> value(RegistryHive hive, const QString &key, const QString &name,
                                       RegistryView view) const override
    {
        if (const auto scope = environmentScope(hive, key)) {
            const auto stored = m_stored->value(*scope, name);
            if (!stored)
                return std::nullopt;
            RegistryValue value;
            value.type = stored->expandable ? RegistryValue::ExpandString : RegistryValue::String;
            value.text = stored->text;
            return value;
        }
        return other.value(hive, key, name, view);
    }
    QStringList valueNames(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        if (const auto scope = environmentScope(hive, key))
            return m_stored->names(*scope);
        return other.valueNames(hive, key, view);
    }
    QStringList subKeys(RegistryHive hive, const QString &key, RegistryView view) const override
    {
        return other.subKeys(hive, key, view);
    }

private:
    static std::optional<EnvironmentScope> environmentScope(RegistryHive hive, const QString &key)
    {
        const EnvironmentScope scope =
            hive == RegistryHive::CurrentUser ? EnvironmentScope::User : EnvironmentScope::System;
        if (key.compare(EnvironmentStore::registryKey(scope), Qt::CaseInsensitive) == 0)
            return scope;
        return std::nullopt;
    }
    std::shared_ptr<MemoryEnvironment> m_stored;
};

QByteArray x64DllImporting(const QList<QByteArray> &imports)
{
    peimage::ImageSpec spec;
    spec.imports = imports;
    return peimage::buildImage(spec).bytes;
}

QByteArray x64Program()
{
    peimage::ImageSpec spec;
    spec.characteristics = 0x0022; // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE: a program, not a DLL
    return peimage::buildImage(spec).bytes;
}

// A cuDNN set whose DLLs are real x64 PE files importing what NVIDIA's do (zlibwapi.dll for 8.x).
void peCudnn(const Sandbox &sandbox, const QString &binDir, const QString &includeDir, int major, int minor,
             int patch)
{
    const QList<QByteArray> imports =
        major == 8 ? QList<QByteArray>{"KERNEL32.dll", "zlibwapi.dll"} : QList<QByteArray>{"KERNEL32.dll"};
    for (const QString &name : trees::cudnnWindowsDlls(major))
        sandbox.write(binDir + QLatin1Char('\\') + name, x64DllImporting(imports));
    sandbox.write(includeDir + QStringLiteral("\\cudnn_version.h"),
                  trees::cudnnVersionHeader(major, minor, patch));
}

// A healthy Windows workstation: CUDA 12.2 with cuDNN 8.9.7 and a 64-bit zlibwapi.dll in its bin
// folder, on the machine PATH; CUDA_PATH naming it; an RTX 4090 with driver 560.94; Python 3.12 with
// a CUDA build of torch that brings its own cuDNN 9.
class Machine
{
public:
    Sandbox sandbox;
    std::shared_ptr<MemoryEnvironment> stored = std::make_shared<MemoryEnvironment>();
    std::shared_ptr<EnvironmentRegistry> registry = std::make_shared<EnvironmentRegistry>(stored);
    QProcessEnvironment process;
    // Who may change its files: nobody knows, unless a test says.
    std::shared_ptr<FileSecurity> security = FileSecurity::none();
    // A terminal opened before the last change keeps its own PATH; null: it has the fresh one.
    QString sessionPath;
    // What the fixture adds to each diagnosis: a probe's report, an archive, what an interpreter said.
    std::function<void(DoctorInput &)> adjust;
    // The compatibility database the doctor judges with (one that knows a test-made archive).
    KnowledgeBase database = KnowledgeBase::embedded();
    // What each interpreter would answer about itself (the tree's python.exe files cannot run).
    QMap<QString, QString> pythonVersions{
        {QStringLiteral("C:\\Python312\\python.exe"), QStringLiteral("3.12.8")}};

    Machine()
    {
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("12.2.2"));
        peCudnn(sandbox, kCuda122Bin, kCuda + QStringLiteral("v12.2\\include"), 8, 9, 7);
        sandbox.write(kCuda122Bin + QStringLiteral("\\zlibwapi.dll"), peimage::x64Dll());
        sandbox.write(QStringLiteral("C:\\Python312\\python.exe"), x64Program());
        sandbox.mkdir(QStringLiteral("C:\\Python312\\Scripts"));
        sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        const QString site = QStringLiteral("C:\\Python312\\Lib\\site-packages");
        sandbox.write(site + QStringLiteral("\\torch\\version.py"),
                      "__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\n");
        trees::windowsCudnn(sandbox, site + QStringLiteral("\\torch\\lib"), QString(), 9, 1, 0);
        registry->other.setString(
            RegistryHive::LocalMachine, QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.12\\InstallPath"),
            QStringLiteral("ExecutablePath"), QStringLiteral("C:\\Python312\\python.exe"));
        const QString adapter = QStringLiteral(
            "SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0000");
        registry->other.setString(RegistryHive::LocalMachine, adapter, QStringLiteral("MatchingDeviceId"),
                                  QStringLiteral("PCI\\VEN_10DE&DEV_2684&SUBSYS_16F110DE"));
        registry->other.setString(RegistryHive::LocalMachine, adapter, QStringLiteral("DriverDesc"),
                                  QStringLiteral("NVIDIA GeForce RTX 4090"));
        setDriver(QStringLiteral("32.0.15.6094")); // 560.94

        stored->set(EnvironmentScope::System, QStringLiteral("Path"),
                    {QStringLiteral("%SystemRoot%\\system32;%SystemRoot%;%SystemRoot%\\System32\\Wbem;") +
                         kCuda122Bin + QStringLiteral(";") + kCuda +
                         QStringLiteral("v12.2\\libnvvp;C:\\Python312\\Scripts\\;C:\\Python312\\"),
                     true});
        stored->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                    {kCuda + QStringLiteral("v12.2"), false});
        stored->set(EnvironmentScope::User, QStringLiteral("Path"),
                    {QStringLiteral("%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;"), true});

        process.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
        process.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\lab"));
        process.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\lab\\AppData\\Local"));
        process.insert(QStringLiteral("ProgramData"), QStringLiteral("C:\\ProgramData"));
        process.insert(QStringLiteral("ProgramFiles"), QStringLiteral("C:\\Program Files"));
    }

    void setDriver(const QString &registryVersion)
    {
        registry->other.setString(
            RegistryHive::LocalMachine,
            QStringLiteral(
                "SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0000"),
            QStringLiteral("DriverVersion"), registryVersion);
    }

    SystemContext context() const
    {
        QProcessEnvironment environment = process;
        const EnvironmentStore fresh(OsFamily::Windows, process, registry);
        environment.insert(QStringLiteral("PATH"),
                           sessionPath.isNull()
                               ? fresh.freshPath().value_or(QStringList()).join(QLatin1Char(';'))
                               : sessionPath);
        return SystemContext(FileSystem(OsFamily::Windows, sandbox.root()),
                             EnvironmentStore(OsFamily::Windows, environment, registry), registry,
                             std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>(), security);
    }

    SystemSnapshot detect() const
    {
        DetectOptions options;
        options.probePythons = false; // the tree's interpreters are files, not programs
        options.useDriverApi = false;
        return detectSystem(context(), options);
    }

    DoctorReport diagnose() const
    {
        const SystemContext system = context();
        DoctorInput input;
        input.snapshot = detect();
        for (const auto &[receipt, path] : installedReceipts(system))
            input.receipts.append(receipt);
        for (PythonInstall &python : input.snapshot.pythons)
            python.version = pythonVersions.value(python.path, python.version);
        if (adjust)
            adjust(input);
        return cudnnsetup::diagnose(input, system, *stored, database);
    }

    // The tree but cuDNN Setup's own state (journal, receipts, lock).
    TreeSnapshot tree() const
    {
        return TreeSnapshot::of(sandbox.root(), {QStringLiteral("ProgramData"),
                                                 QStringLiteral("Users/lab/AppData/Local/cuDNN Setup")});
    }

    // Every stored value, as the registry would hold it.
    QStringList environment() const
    {
        QStringList values;
        for (const EnvironmentScope scope : {EnvironmentScope::User, EnvironmentScope::System}) {
            for (const QString &name : stored->names(scope)) {
                const auto value = stored->value(scope, name);
                values.append(QStringLiteral("%1 %2 %3 %4")
                                  .arg(int(scope))
                                  .arg(name, value ? value->text : QStringLiteral("?"))
                                  .arg(value && value->expandable));
            }
        }
        return values;
    }

    QString host(const QString &path) const { return sandbox.hostPath(path); }
    void remove(const QString &path) const { QVERIFY(QFile::remove(host(path))); }
};

const Diagnosis *find(const DoctorReport &report, const QString &id)
{
    for (const Diagnosis &diagnosis : report.diagnoses) {
        if (diagnosis.finding.id == id)
            return &diagnosis;
    }
    return nullptr;
}

QByteArray describe(const DoctorReport &report)
{
    QStringList lines;
    for (const Diagnosis &diagnosis : report.diagnoses)
        lines.append(QStringLiteral("%1 (#%2): %3 | %4")
                         .arg(diagnosis.finding.id)
                         .arg(diagnosis.failureMode)
                         .arg(diagnosis.finding.message.toEnglish(), diagnosis.finding.details));
    return lines.join(QLatin1Char('\n')).toUtf8();
}

QByteArray describe(const ChangeOutcome &outcome)
{
    QStringList lines{outcome.statusName()};
    for (const Finding &finding : outcome.findings)
        lines.append(finding.id + QStringLiteral(": ") + finding.message.toEnglish() + QStringLiteral(" / ") +
                     finding.details);
    return lines.join(QLatin1Char('\n')).toUtf8();
}

// `id` fires with failure mode `mode`; returns it (nothing after a failed check).
std::optional<Diagnosis> expectFinding(const DoctorReport &report, const QString &id, int mode)
{
    const Diagnosis *diagnosis = find(report, id);
    [&] {
        QVERIFY2(diagnosis, (id.toUtf8() + " not found in:\n" + describe(report)).constData());
        QCOMPARE(diagnosis->failureMode, mode);
        QVERIFY(!diagnosis->finding.message.toEnglish().isEmpty());
        QVERIFY(!diagnosis->finding.fix.toEnglish().isEmpty());
    }();
    if (QTest::currentTestFailed())
        return std::nullopt;
    return *diagnosis;
}

// The repair of `id` applied: the finding goes; its receipt's uninstall puts everything back, and the
// finding is there again.
void repairAndUndo(Machine &machine, const QString &id, int mode)
{
    const DoctorReport before = machine.diagnose();
    const std::optional<Diagnosis> diagnosis = expectFinding(before, id, mode);
    if (!diagnosis)
        return;
    QVERIFY2(diagnosis->repair, describe(before).constData());
    QVERIFY(!diagnosis->repair->steps.isEmpty());
    QVERIFY(!diagnosis->repair->preview.isEmpty());
    const TreeSnapshot tree = machine.tree();
    const QStringList environment = machine.environment();
    // A repair that needs an administrator is one the elevated helper takes when it is handed
    // over, with the archive it unpacks as that helper inspects it.
    if (diagnosis->repair->needsAdministrator) {
        QString archivePath;
        for (const QJsonObject &step : diagnosis->repair->steps) {
            if (step.value(QStringLiteral("operation")).toString() == QLatin1String("unpack-archive"))
                archivePath = step.value(QStringLiteral("arguments"))
                                  .toObject()
                                  .value(QStringLiteral("archive"))
                                  .toString();
        }
        std::optional<ArchiveReport> archive;
        if (!archivePath.isEmpty()) {
            const Expected<ArchiveReport> inspected =
                inspectArchive(archivePath, machine.database.publishedArchives());
            QVERIFY(inspected.ok());
            archive = *inspected;
        }
        const std::optional<QString> doubt = repairs::handedOverDoubt(
            *diagnosis->repair, machine.context(), archivePath, archive ? &*archive : nullptr);
        QVERIFY2(!doubt, qPrintable(doubt.value_or(QString())));
    }

    const ChangeOutcome repaired = applyRepairs({*diagnosis->repair}, machine.context(), machine.stored);
    QVERIFY2(repaired.status == ChangeOutcome::Status::Done, describe(repaired).constData());
    QVERIFY(repaired.receipt);
    QCOMPARE(repaired.receipt->result, QStringLiteral("repaired"));
    QVERIFY(QFileInfo::exists(repaired.receiptPath));
    const DoctorReport after = machine.diagnose();
    QVERIFY2(!find(after, id), describe(after).constData());

    const ChangeOutcome undone = uninstall(repaired.receipt->id, machine.context(), machine.stored);
    QVERIFY2(undone.status == ChangeOutcome::Status::Done, describe(undone).constData());
    QVERIFY2(machine.tree() == tree, qPrintable(machine.tree().difference(tree)));
    QCOMPARE(machine.environment(), environment);
    QVERIFY(find(machine.diagnose(), id));
}

// cuDNN's DLLs in `binDir` as NVIDIA's carry them: each with a version resource, these of
// `version`, but those named in `others` ({file name, version}).
void versionedCudnn(const Sandbox &sandbox, const QString &binDir, int major, const QList<int> &version,
                    const QMap<QString, QList<int>> &others = {})
{
    for (const QString &name : trees::cudnnWindowsDlls(major)) {
        peimage::ImageSpec spec;
        spec.imports = major == 8 ? QList<QByteArray>{"KERNEL32.dll", "zlibwapi.dll"}
                                  : QList<QByteArray>{"KERNEL32.dll"};
        spec.fileVersion = others.value(name, version);
        sandbox.write(binDir + QLatin1Char('\\') + name, peimage::buildImage(spec).bytes);
    }
}

// A Linux cuDNN 9 set whose main library is `mainVersion` and the sub-libraries `subVersion`
// (each soname a link to the file that carries the full version).
void linuxSetOfReleases(const Sandbox &sandbox, const QString &libDir, const QString &mainVersion,
                        const QString &subVersion)
{
    for (const QString &soname : trees::cudnnLinuxLibraries(9, QString())) {
        if (!soname.endsWith(QLatin1String(".so.9")))
            continue;
        const QString full = soname.left(soname.size() - 1) +
                             (soname == QLatin1String("libcudnn.so.9") ? mainVersion : subVersion);
        sandbox.write(libDir + QLatin1Char('/') + full, "\x7f"
                                                        "ELF");
        sandbox.symlink(full, libDir + QLatin1Char('/') + soname);
    }
}

VerifyReport probeOf(const QString &directory)
{
    VerifyReport verify;
    verify.directory = directory;
    verify.subjectSource = QStringLiteral("detected");
    return verify;
}

// A Linux system of files only (no program in it runs), with the stored environment unavailable.
SystemContext linuxContext(const Sandbox &sandbox, const QProcessEnvironment &environment)
{
    return SystemContext(FileSystem(OsFamily::Linux, sandbox.root()),
                         EnvironmentStore(OsFamily::Linux, environment, Registry::unavailable()),
                         Registry::unavailable(), std::make_shared<ProcessRunner>(),
                         std::make_shared<LibraryLoader>());
}

DoctorReport diagnoseLinux(const Sandbox &sandbox, const QProcessEnvironment &environment,
                           const std::function<void(DoctorInput &)> &adjust = {})
{
    const SystemContext context = linuxContext(sandbox, environment);
    DoctorInput input;
    DetectOptions options;
    options.useDriverApi = false;
    input.snapshot = detectSystem(context, options);
    if (adjust)
        adjust(input);
    return diagnose(input, context, *PersistentEnvironment::unavailable(), KnowledgeBase::embedded());
}

QProcessEnvironment linuxEnvironment(const QString &path, const QString &libraryPath = {})
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), path);
    environment.insert(QStringLiteral("HOME"), QStringLiteral("/root"));
    if (!libraryPath.isEmpty())
        environment.insert(QStringLiteral("LD_LIBRARY_PATH"), libraryPath);
    return environment;
}

} // namespace

class TestDoctor : public QObject
{
    Q_OBJECT

    // NVIDIA's 8.9.7 archive for CUDA 12 beside the machine, named to the doctor and known to its
    // database: the archive its repairs take cuDNN 8's files from.
    QString offerArchive(Machine &machine)
    {
        const QString archive =
            m_archives.filePath(QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"));
        QFile file(archive);
        if (file.open(QIODevice::WriteOnly))
            file.write(archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12")));
        file.close();
        machine.adjust = [archive](DoctorInput &input) { input.archive = archive; };
        machine.database = archives::databaseKnowing({archive});
        return archive;
    }

    QTemporaryDir m_archives;

private Q_SLOTS:
    void healthyMachineHasNoFinding()
    {
        Machine machine;
        const DoctorReport report = machine.diagnose();
        // Nothing wrong; only the advice that torch (cu124) brings its own cuDNN.
        QCOMPARE(report.diagnoses.size(), 1);
        QCOMPARE(report.diagnoses.first().finding.id, QStringLiteral("doctor.framework-brings-cudnn"));
        QCOMPARE(report.diagnoses.first().finding.severity, Severity::Info);
        QVERIFY2(report.diagnoses.first().finding.message.toEnglish().contains(QStringLiteral("9.1.0.70")),
                 describe(report).constData());
        QVERIFY(!report.diagnoses.first().repair);
        QVERIFY(report.healthy());

        // Which copy each consumer loads: a fresh program the toolkit's cuDNN 8, torch its own.
        const QJsonArray copies = report.copies.value(QStringLiteral("copies")).toArray();
        QCOMPARE(copies.size(), 2);
        const QJsonArray consumers = report.copies.value(QStringLiteral("consumers")).toArray();
        QJsonObject fresh8;
        for (const QJsonValue &consumer : consumers) {
            if (consumer[QStringLiteral("consumer")] == QStringLiteral("fresh-process") &&
                consumer[QStringLiteral("cudnnMajor")].toInt() == 8)
                fresh8 = consumer.toObject();
        }
        QCOMPARE(fresh8.value(QStringLiteral("loads")).toString(),
                 kCuda122Bin + QStringLiteral("\\cudnn64_8.dll"));
        const bool torchListed =
            std::any_of(consumers.cbegin(), consumers.cend(), [](const QJsonValue &consumer) {
                return consumer[QStringLiteral("consumer")] == QStringLiteral("torch") &&
                       consumer[QStringLiteral("python")] == QStringLiteral("C:\\Python312\\python.exe");
            });
        QVERIFY(torchListed);
    }

    // #1: cuDNN 8.9.7's DLLs import zlibwapi.dll and none is anywhere.
    void zlibwapiMissing()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("this build has no zlibwapi.dll to place");
        Machine machine;
        machine.remove(kCuda122Bin + QStringLiteral("\\zlibwapi.dll"));
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.zlibwapi-missing"), 1);
        QVERIFY(diagnosis);
        QCOMPARE(diagnosis->finding.severity, Severity::Error);
        // Python 3.12 is there: the fix says where such a process looks.
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("Python 3.8")));
        repairAndUndo(machine, QStringLiteral("doctor.zlibwapi-missing"), 1);
    }

    // What the elevated helper refuses when another process hands it over: a step no repair of the
    // doctor has, or one of its steps bent to another file, folder, variable or scope.
    void handedOverRepairsAreOnlyTheDoctors()
    {
        Machine machine;
        auto security = std::make_shared<MemoryFileSecurity>();
        const QString evil = QStringLiteral("C:\\Users\\Public\\evil");
        machine.sandbox.mkdir(evil);
        security->set(machine.host(evil),
                      QStringLiteral("O:BAD:AI(A;OICIID;FA;;;BA)(A;OICIID;0x1301bf;;;BU)"));
        machine.security = security;
        const SystemContext context = machine.context();
        const QString system32 = machine.host(QStringLiteral("C:\\Windows\\System32"));
        const QString bin = machine.host(kCuda122Bin);
        const QString planted = machine.host(evil) + QStringLiteral("/cudnn64_9.dll");
        const QList<QPair<QJsonObject, QString>> bent{
            {repairs::step(
                 *operations::moveIntoPlace(system32 + QStringLiteral("/kernel32.dll"),
                                            system32 + QStringLiteral("/kernel32.dll.cudnn-setup-aside"))),
             QStringLiteral("it moves")},
            {repairs::step(*operations::moveIntoPlace(planted, system32 + QStringLiteral("/cudnn64_9.dll"))),
             QStringLiteral("it moves")},
            {repairs::step(
                 *operations::moveIntoPlace(bin + QStringLiteral("/cudnn64_8.dll"),
                                            bin + QStringLiteral("/cudnn64_8.dll.cudnn-setup-aside"),
                                            machine.host(evil) + QStringLiteral("/cudnn64_8.dll"))),
             QStringLiteral("it moves")},
            {repairs::step(*operations::copyFile(planted, bin + QStringLiteral("/zlibwapi.dll"))),
             QStringLiteral("it copies")},
            {repairs::step(*operations::removeFile(system32 + QStringLiteral("/kernel32.dll"))),
             QStringLiteral("no repair has a step remove-file")},
            {repairs::step(
                 *operations::addPathEntry(OsFamily::Windows, EnvironmentScope::System, evil, true)),
             QStringLiteral("may be changed by")},
            {repairs::step(
                 *operations::addPathEntry(OsFamily::Windows, EnvironmentScope::User, kCuda122Bin, true)),
             QStringLiteral("user PATH")},
            {repairs::step(*operations::setEnvironmentValue(EnvironmentScope::System,
                                                            QStringLiteral("PYTHONPATH"),
                                                            StoredEnvironmentValue{evil, false})),
             QStringLiteral("it sets PYTHONPATH")},
            {repairs::step(*operations::setEnvironmentValue(
                 EnvironmentScope::System, QStringLiteral("CUDA_PATH"), StoredEnvironmentValue{evil, false})),
             QStringLiteral("may be changed by")},
            {repairs::step(*operations::unpackArchive(machine.host(evil) + QStringLiteral("/a.zip"), {}, {},
                                                      bin + QStringLiteral("/.cudnn-setup-repair"), nullptr)),
             QStringLiteral("did not check")},
        };
        for (const auto &[step, why] : bent) {
            Repair repair;
            repair.id = QStringLiteral("repair.move-aside");
            repair.needsAdministrator = true;
            repair.steps = {step};
            const std::optional<QString> doubt =
                repairs::handedOverDoubt(repair, context, QString(), nullptr);
            QVERIFY2(doubt, QJsonDocument(step).toJson().constData());
            QVERIFY2(doubt->contains(why), qPrintable(doubt.value_or(QString())));
        }
        // The doctor's own steps pass: a cuDNN moved aside beside itself, its PATH entry.
        Repair own = repairs::moveAside(context, kCuda122Bin, {QStringLiteral("cudnn64_8.dll")});
        own.steps.append(repairs::step(
            *operations::addPathEntry(OsFamily::Windows, EnvironmentScope::System, kCuda122Bin, true)));
        const std::optional<QString> doubt = repairs::handedOverDoubt(own, context, QString(), nullptr);
        QVERIFY2(!doubt, qPrintable(doubt.value_or(QString())));
    }

    // #1, the 32-bit variant: a 32-bit zlibwapi.dll is the first one found (error 193).
    void zlibwapiThirtyTwoBit()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("this build has no zlibwapi.dll to place");
        Machine machine;
        machine.sandbox.write(kCuda122Bin + QStringLiteral("\\zlibwapi.dll"), peimage::dllFor(PeInfo::I386));
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.zlibwapi-wrong-architecture"), 1);
        QVERIFY(diagnosis);
        QVERIFY(diagnosis->finding.message.toEnglish().contains(QLatin1String("193")));
        repairAndUndo(machine, QStringLiteral("doctor.zlibwapi-wrong-architecture"), 1);
    }

    // #2: only cudnn64_8.dll was copied. Explained; with the archive offered, the repair copies
    // the missing DLLs and replaces the one that differs from it.
    void incompleteSet()
    {
        Machine machine;
        for (const QString &name : trees::cudnnWindowsDlls(8).mid(1))
            machine.remove(kCuda122Bin + QLatin1Char('\\') + name);
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.cudnn-incomplete"), 2);
        QVERIFY(diagnosis);
        QVERIFY(!diagnosis->repair); // nothing to take the DLLs from
        QVERIFY(diagnosis->finding.message.toEnglish().contains(QLatin1String("cudnn_cnn_infer64_8.dll")));

        const QString archive = offerArchive(machine);
        // Handed over to the elevated helper, the repair unpacks only an archive NVIDIA published:
        // the same file judged by a database that does not know it is refused.
        const std::optional<Diagnosis> offered =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.cudnn-incomplete"), 2);
        QVERIFY(offered && offered->repair && offered->repair->needsAdministrator);
        const Expected<ArchiveReport> unknown =
            inspectArchive(archive, KnowledgeBase::embedded().publishedArchives());
        QVERIFY(unknown.ok());
        QVERIFY(unknown->official != ArchiveReport::Official::Match);
        const std::optional<QString> doubt =
            repairs::handedOverDoubt(*offered->repair, machine.context(), archive, &*unknown);
        QVERIFY(doubt);
        QVERIFY2(doubt->contains(QLatin1String("NVIDIA did not publish")), qPrintable(*doubt));
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-incomplete"), 2);
    }

    // Review 2, N8: a repair handed to the elevated helper unpacks the copy of the archive the
    // helper made in the machine's custody folder, never the file the user named. That file is
    // replaced by garbage as soon as the repair starts, and the repair succeeds all the same; the
    // copy is gone when it ends.
    void handedOverRepairUnpacksItsOwnCopy()
    {
        Machine machine;
        for (const QString &name : trees::cudnnWindowsDlls(8).mid(1))
            machine.remove(kCuda122Bin + QLatin1Char('\\') + name);
        const QString archive = offerArchive(machine);
        const std::optional<Diagnosis> offered =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.cudnn-incomplete"), 2);
        QVERIFY(offered && offered->repair && offered->repair->needsAdministrator);
        const QString requestFile = m_archives.filePath(QStringLiteral("repair-request.json"));
        QFile request(requestFile);
        QVERIFY(request.open(QIODevice::WriteOnly));
        request.write(
            QJsonDocument(
                QJsonObject{{QStringLiteral("schema"), QStringLiteral("cudnn-setup/repair-request/1")},
                            {QStringLiteral("repairs"), QJsonArray{offered->repair->toJson()}}})
                .toJson());
        request.close();

        ChangeOptions options;
        bool swapped = false;
        options.progress = [&](int, int, const Text &) {
            QFile user(archive);
            swapped = swapped || (user.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                                  user.write("not the archive that was checked") > 0);
        };
        const ChangeOutcome outcome =
            applyHandedOverRepairs(requestFile, machine.context(), machine.stored, machine.database, options);
        QVERIFY(swapped);
        QVERIFY2(outcome.status == ChangeOutcome::Status::Done, describe(outcome).constData());
        QVERIFY2(!find(machine.diagnose(), QStringLiteral("doctor.cudnn-incomplete")),
                 describe(machine.diagnose()).constData());
        const QDir custody(machine.sandbox.hostPath(QStringLiteral("C:\\ProgramData\\cuDNN Setup\\custody")));
        QVERIFY(custody.exists());
        QCOMPARE(custody.entryList(QDir::Files), QStringList());
    }

    // A set of two releases (NVIDIA's cudnn_cnn_infer64_8.dll of 8.9.2 among 8.9.7's): its own
    // finding, naming each file and release; the archive of one release replaces them all.
    void mixedReleases()
    {
        Machine machine;
        versionedCudnn(machine.sandbox, kCuda122Bin, 8, {8, 9, 7, 29});
        const DoctorReport uniform = machine.diagnose();
        QVERIFY2(!find(uniform, QStringLiteral("doctor.cudnn-mixed-releases")),
                 describe(uniform).constData());
        versionedCudnn(machine.sandbox, kCuda122Bin, 8, {8, 9, 7, 29},
                       {{QStringLiteral("cudnn_cnn_infer64_8.dll"), {8, 9, 2, 26}}});
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.cudnn-mixed-releases"), 0);
        QVERIFY(diagnosis);
        const QString message = diagnosis->finding.message.toEnglish();
        QVERIFY2(
            message.contains(QLatin1String("8.9.2: ") + kCuda122Bin +
                             QLatin1String("\\cudnn_cnn_infer64_8.dll")) &&
                message.contains(QLatin1String("8.9.7: ") + kCuda122Bin + QLatin1String("\\cudnn64_8.dll")),
            qPrintable(message));
        QVERIFY(diagnosis->finding.details.contains(kCuda122Bin +
                                                    QLatin1String("\\cudnn_ops_infer64_8.dll 8.9.7")));
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("one cuDNN release, all of them")));
        QVERIFY(!diagnosis->repair);

        const QString archive =
            m_archives.filePath(QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"));
        QFile file(archive);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12")));
        file.close();
        machine.adjust = [archive](DoctorInput &input) { input.archive = archive; };
        machine.database = archives::databaseKnowing({archive});
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-mixed-releases"), 0);
    }

    // The same on Linux, where the release is in each real file's name.
    void linuxMixedReleases()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        Sandbox sandbox;
        const QString lib = QStringLiteral("/usr/lib/x86_64-linux-gnu");
        linuxSetOfReleases(sandbox, lib, QStringLiteral("9.18.0"), QStringLiteral("9.18.0"));
        const QProcessEnvironment environment = linuxEnvironment(QStringLiteral("/usr/bin"));
        QVERIFY(!find(diagnoseLinux(sandbox, environment), QStringLiteral("doctor.cudnn-mixed-releases")));
        Sandbox mixedSandbox;
        linuxSetOfReleases(mixedSandbox, lib, QStringLiteral("9.2.0"), QStringLiteral("9.18.0"));
        const std::optional<Diagnosis> diagnosis = expectFinding(
            diagnoseLinux(mixedSandbox, environment), QStringLiteral("doctor.cudnn-mixed-releases"), 0);
        QVERIFY(diagnosis);
        const QString message = diagnosis->finding.message.toEnglish();
        QVERIFY2(message.contains(QLatin1String("9.2.0: ") + lib + QLatin1String("/libcudnn.so.9.2.0")) &&
                     message.contains(lib + QLatin1String("/libcudnn_graph.so.9.18.0")),
                 qPrintable(message));
    }

    // The probe child ends with NVIDIA's own words: verify reads them as a pasted log is read. A
    // mixed set says so, naming each file and release; a set that is not says which function
    // cuDNN did not find; neither is "could not be tried" any more.
    void probeOutputIsRead()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs a shell script as the probe");
        Sandbox sandbox;
        sandbox.writeScriptBody(QStringLiteral("/probe"),
                                "echo 'Could not load symbol cudnnGetVersion. Error code 127. Program will "
                                "terminate.' >&2\nexit 1\n");
        VerifyOptions options;
        options.probeProgram = sandbox.hostPath(QStringLiteral("/probe"));
        options.framework = false;
        options.gpu = false;
        const SystemContext context = SystemContext::running();
        const auto loadStage = [&](const QString &folder) {
            const Expected<VerifySubject> subject =
                subjectInFolder(context, sandbox.hostPath(folder), QStringLiteral("target"));
            [&] { QVERIFY2(subject.ok(), subject.ok() ? "" : qPrintable(subject.error().details)); }();
            const VerifyReport report = verify(context, SystemSnapshot(), *subject, options);
            for (const VerifyStage &stage : report.stages) {
                if (stage.id == QLatin1String("load"))
                    return std::make_pair(stage, report.findings);
            }
            return std::make_pair(VerifyStage(), report.findings);
        };
        linuxSetOfReleases(sandbox, QStringLiteral("/mixed"), QStringLiteral("9.2.0"),
                           QStringLiteral("9.18.0"));
        const auto [mixed, mixedFindings] = loadStage(QStringLiteral("/mixed"));
        QCOMPARE(mixed.status, VerifyStage::Status::Failed);
        QVERIFY2(mixed.message.toEnglish().contains(QLatin1String("2 different releases")),
                 qPrintable(mixed.message.toEnglish()));
        QVERIFY(mixed.message.toEnglish().contains(QLatin1String("libcudnn.so.9.2.0")));
        QVERIFY(mixed.details.contains(QLatin1String("Could not load symbol cudnnGetVersion")));
        QVERIFY(mixed.fix.toEnglish().contains(QLatin1String("one cuDNN release, all of them")));
        QVERIFY(findingIds(mixedFindings).contains(QStringLiteral("verify.cudnn-mixed-releases")));

        linuxSetOfReleases(sandbox, QStringLiteral("/uniform"), QStringLiteral("9.18.0"),
                           QStringLiteral("9.18.0"));
        const auto [uniform, uniformFindings] = loadStage(QStringLiteral("/uniform"));
        QCOMPARE(uniform.status, VerifyStage::Status::Failed);
        QVERIFY2(uniform.message.toEnglish().contains(QLatin1String("function cudnnGetVersion")),
                 qPrintable(uniform.message.toEnglish()));
        QVERIFY(findingIds(uniformFindings).contains(QStringLiteral("verify.probe-ended")));
        QVERIFY(!findingIds(uniformFindings).contains(QStringLiteral("verify.cudnn-mixed-releases")));
    }

    // A torch traceback pasted: the environment and torch it names are this machine's; cuDNN 8 in
    // torch\lib needs zlibwapi.dll, which nothing it reaches holds; the repair that places it is
    // offered, and applied, the error's cause is gone. The same text from another machine is
    // explained in general and says so.
    void pastedTracebackTiedToThisMachine()
    {
        Machine machine;
        const QString site = QStringLiteral("C:\\Python312\\Lib\\site-packages");
        const QString torchLib = site + QStringLiteral("\\torch\\lib");
        QVERIFY(QDir(machine.sandbox.hostPath(torchLib)).removeRecursively());
        for (const QString &name : trees::cudnnWindowsDlls(8))
            machine.sandbox.write(torchLib + QLatin1Char('\\') + name,
                                  x64DllImporting({"KERNEL32.dll", "zlibwapi.dll"}));
        peimage::ImageSpec torchCuda;
        torchCuda.imports = {"cudnn64_8.dll", "KERNEL32.dll"};
        machine.sandbox.write(torchLib + QStringLiteral("\\torch_cuda.dll"),
                              peimage::buildImage(torchCuda).bytes);
        machine.sandbox.write(site + QStringLiteral("\\torch-2.0.1+cu118.dist-info\\RECORD"),
                              "torch/lib/torch_cuda.dll,sha256=abc,1\ntorch/lib/cudnn64_8.dll,sha256=abc,1\n"
                              "torch-2.0.1+cu118.dist-info/RECORD,,\n");
        const auto traceback = [](const QString &root) {
            return QStringLiteral(
                       "Traceback (most recent call last):\n"
                       "  File \"%1\\Lib\\site-packages\\torch\\__init__.py\", line 128, in <module>\n"
                       "    raise err\n"
                       "Could not locate zlibwapi.dll. Please make sure it is in your library path!\n")
                .arg(root);
        };
        const auto pasted = [&machine](const QString &text) {
            machine.adjust = [text](DoctorInput &input) { input.log = readErrorLog(text); };
            return machine.diagnose();
        };

        const DoctorReport report = pasted(traceback(QStringLiteral("C:\\Python312")));
        QVERIFY(report.log);
        QCOMPARE(report.log->signatures.size(), 1);
        const LogSignature &signature = report.log->signatures.first();
        QCOMPARE(signature.environment, QStringLiteral("C:\\Python312\\python.exe"));
        QCOMPARE(signature.consumer, QStringLiteral("torch"));
        QCOMPARE(signature.loads, std::optional<QString>(QString())); // none reachable
        const QJsonObject json = signature.toJson();
        QCOMPARE(json.value(QStringLiteral("environment")).toString(),
                 QStringLiteral("C:\\Python312\\python.exe"));
        QVERIFY(json.value(QStringLiteral("loads")).isNull());
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("log.missing-library"), 0);
        QVERIFY(diagnosis);
        const QString message = diagnosis->finding.message.toEnglish();
        QVERIFY2(message.contains(QLatin1String("from torch 2.0.1+cu118 in C:\\Python312\\python.exe")) &&
                     message.contains(QLatin1String("no copy of zlibwapi.dll is reachable")),
                 qPrintable(message));
        QVERIFY2(diagnosis->repair, describe(report).constData());
        QCOMPARE(diagnosis->repair->id, repairs::placeZlibwapi(machine.context(), torchLib).id);
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(torchLib));
        const ChangeOutcome repaired = applyRepairs({*diagnosis->repair}, machine.context(), machine.stored);
        QVERIFY2(repaired.status == ChangeOutcome::Status::Done, describe(repaired).constData());
        QVERIFY(QFile::exists(machine.host(torchLib + QStringLiteral("\\zlibwapi.dll"))));
        const DoctorReport after = pasted(traceback(QStringLiteral("C:\\Python312")));
        QCOMPARE(after.log->signatures.first().loads,
                 std::optional<QString>(torchLib + QStringLiteral("\\zlibwapi.dll")));

        const DoctorReport elsewhere = pasted(traceback(QStringLiteral("D:\\envs\\sd")));
        const Diagnosis *general = find(elsewhere, QStringLiteral("log.missing-library"));
        QVERIFY(general);
        QVERIFY(general->finding.message.toEnglish().contains(QLatin1String("came from another machine")));
        QVERIFY(!general->repair);
        QVERIFY(elsewhere.log->signatures.first().environment.isEmpty());
        QVERIFY(!elsewhere.log->signatures.first().loads);
    }

    // #11: an older cuDNN 8 earlier on the machine PATH; the repair moves it behind the newer one.
    void olderCopyEarlierOnPath()
    {
        Machine machine;
        peCudnn(machine.sandbox, QStringLiteral("C:\\tools\\cudnn-8.1\\bin"),
                QStringLiteral("C:\\tools\\cudnn-8.1\\include"), 8, 1, 0);
        machine.sandbox.write(QStringLiteral("C:\\tools\\cudnn-8.1\\bin\\zlibwapi.dll"), peimage::x64Dll());
        const auto path = machine.stored->value(EnvironmentScope::System, QStringLiteral("Path"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("Path"),
                            {QStringLiteral("C:\\tools\\cudnn-8.1\\bin;") + path->text, true});
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.cudnn-shadowed"), 11);
        QVERIFY(diagnosis && diagnosis->repair);
        QCOMPARE(diagnosis->repair->id, QStringLiteral("repair.demote-path-entry"));
        QVERIFY(diagnosis->repair->needsAdministrator); // the machine's PATH
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-shadowed"), 11);
    }

    // #3: a cuDNN in System32 is found before PATH is looked at; the probe checked the toolkit's.
    void copyInSystem32()
    {
        Machine machine;
        peCudnn(machine.sandbox, QStringLiteral("C:\\Windows\\System32"), QStringLiteral("C:\\unused"), 8, 0,
                5);
        QVERIFY(QFile::remove(machine.host(QStringLiteral("C:\\unused\\cudnn_version.h"))));
        machine.adjust = [](DoctorInput &input) { input.verify = probeOf(kCuda122Bin); };
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.cudnn-shadowed"), 3);
        QVERIFY(diagnosis && diagnosis->repair);
        QCOMPARE(diagnosis->repair->id, QStringLiteral("repair.move-aside"));
        QCOMPARE(diagnosis->repair->steps.size(), 7);
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-shadowed"), 3);
    }

    // #3 for Python: a cuDNN beside python.exe comes before torch's own.
    void copyBesidePython()
    {
        Machine machine;
        trees::windowsCudnn(machine.sandbox, QStringLiteral("C:\\Python312"), QString(), 9, 1, 0);
        // A torch without cuDNN of its own (torch_cuda.dll imports it): the copy beside python.exe,
        // in the application's folder, is what it loads.
        const QString torchLib = QStringLiteral("C:\\Python312\\Lib\\site-packages\\torch\\lib");
        QVERIFY(QDir(machine.sandbox.hostPath(torchLib)).removeRecursively());
        peimage::ImageSpec torchCuda;
        torchCuda.imports = {"cudnn64_9.dll", "KERNEL32.dll"};
        machine.sandbox.write(torchLib + QStringLiteral("\\torch_cuda.dll"),
                              peimage::buildImage(torchCuda).bytes);
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-before-python-path"), 3);
    }

    // #4: the cuDNN 9 installer's folder, which no PATH names.
    void notOnPath()
    {
        Machine machine;
        const QString root = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.5");
        peCudnn(machine.sandbox, root + QStringLiteral("\\bin\\12.8"),
                root + QStringLiteral("\\include\\12.8"), 9, 5, 0);
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.cudnn-not-on-path"), 4);
        QVERIFY(diagnosis && diagnosis->repair);
        QVERIFY(!diagnosis->repair->needsAdministrator); // the user's PATH
        repairAndUndo(machine, QStringLiteral("doctor.cudnn-not-on-path"), 4);
    }

    // #4, the slip: PATH names C:\cudnn instead of C:\cudnn\bin.
    void pathNamesTheFolderAbove()
    {
        Machine machine;
        peCudnn(machine.sandbox, QStringLiteral("C:\\cudnn\\bin"), QStringLiteral("C:\\cudnn\\include"), 9, 5,
                0);
        machine.stored->set(
            EnvironmentScope::User, QStringLiteral("Path"),
            {QStringLiteral("C:\\cudnn;%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;"), true});
        QVERIFY(!find(machine.diagnose(), QStringLiteral("doctor.cudnn-not-on-path")));
        repairAndUndo(machine, QStringLiteral("doctor.path-entry-too-high"), 4);
    }

    // #4 in a CUDA 13 toolkit: PATH names bin (nvcc.exe), the DLLs are in bin\\x64. The entry
    // stays, for the programs in it; the DLLs' folder follows it.
    void toolkitBinAboveDlls()
    {
        Machine machine;
        trees::windowsToolkit(machine.sandbox, QStringLiteral("13.0.2"));
        const QString toolkit = kCuda + QStringLiteral("v13.0");
        peCudnn(machine.sandbox, toolkit + QStringLiteral("\\bin\\x64"),
                toolkit + QStringLiteral("\\include"), 9, 19, 0);
        const auto path = machine.stored->value(EnvironmentScope::System, QStringLiteral("Path"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("Path"),
                            {path->text + QLatin1Char(';') + toolkit + QStringLiteral("\\bin"), true});
        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.path-entry-too-high"), 4);
        QVERIFY(diagnosis && diagnosis->repair);
        QCOMPARE(diagnosis->repair->id, QStringLiteral("repair.add-path-entry"));
        QVERIFY(diagnosis->repair->preview.last().toEnglish().endsWith(
            toolkit + QStringLiteral("\\bin;") + toolkit + QStringLiteral("\\bin\\x64")));
        repairAndUndo(machine, QStringLiteral("doctor.path-entry-too-high"), 4);
    }

    // #5: the cuDNN 9 installer's layout, PATH at ...\v9.x\bin; the DLLs one or two levels deeper.
    void installerLayout_data()
    {
        QTest::addColumn<QString>("dllFolder");
        QTest::newRow("bin\\12.8") << QStringLiteral("bin\\12.8");
        QTest::newRow("bin\\12.8\\x64") << QStringLiteral("bin\\12.8\\x64");
    }
    void installerLayout()
    {
        QFETCH(QString, dllFolder);
        Machine machine;
        const QString root = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.8");
        peCudnn(machine.sandbox, root + QLatin1Char('\\') + dllFolder,
                root + QStringLiteral("\\include\\12.8"), 9, 8, 0);
        const auto path = machine.stored->value(EnvironmentScope::System, QStringLiteral("Path"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("Path"),
                            {path->text + QLatin1Char(';') + root + QStringLiteral("\\bin"), true});
        // NVIDIA's DLL states its release in its version resource: the finding names it, as the
        // Hardware page names the copies it found (issue 35: one version text per copy).
        peimage::ImageSpec stamped;
        stamped.fileVersion = {9, 8, 0, 87};
        stamped.productVersion = {9, 8, 0, 87};
        machine.sandbox.write(root + QLatin1Char('\\') + dllFolder + QStringLiteral("\\cudnn64_9.dll"),
                              peimage::buildImage(stamped).bytes);
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.path-entry-too-high"), 5);
        QVERIFY(diagnosis && diagnosis->repair);
        QVERIFY2(diagnosis->finding.message.toEnglish().contains(QStringLiteral("9.8.0")) &&
                     !diagnosis->finding.message.toEnglish().contains(QStringLiteral("unknown version")),
                 qPrintable(diagnosis->finding.message.toEnglish()));
        QVERIFY(diagnosis->repair->preview.last().toEnglish().endsWith(root + QLatin1Char('\\') + dllFolder));
        repairAndUndo(machine, QStringLiteral("doctor.path-entry-too-high"), 5);
    }

    // #6: Python 3.10 with TensorFlow 2.10 and no cuDNN of its own, which only PATH names.
    void pythonIgnoresPath()
    {
        Machine machine;
        machine.sandbox.write(QStringLiteral("C:\\Python310\\python.exe"), x64Program());
        machine.registry->other.setString(
            RegistryHive::LocalMachine, QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.10\\InstallPath"),
            QStringLiteral("ExecutablePath"), QStringLiteral("C:\\Python310\\python.exe"));
        // What the interpreter would answer (the tree's python.exe cannot run).
        machine.adjust = [](DoctorInput &input) {
            for (PythonInstall &python : input.snapshot.pythons) {
                if (python.path == QLatin1String("C:\\Python310\\python.exe")) {
                    python.version = QStringLiteral("3.10.11");
                    python.tensorflow = QStringLiteral("2.10.1");
                }
            }
        };
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.python-ignores-path"), 6);
        QVERIFY(diagnosis);
        QVERIFY(!diagnosis->repair);
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("os.add_dll_directory")));
    }

    // #7: a 32-bit Python, and an x86 cuDNN DLL where programs load cuDNN from.
    void wrongArchitecture()
    {
        Machine machine;
        machine.sandbox.write(kCuda122Bin + QStringLiteral("\\cudnn64_8.dll"), peimage::dllFor(PeInfo::I386));
        peimage::ImageSpec python;
        python.machine = PeInfo::I386;
        python.pe32Plus = false;
        python.characteristics = 0x0102; // EXECUTABLE_IMAGE | 32BIT_MACHINE
        machine.sandbox.write(QStringLiteral("C:\\Python39-32\\python.exe"),
                              peimage::buildImage(python).bytes);
        machine.registry->other.setString(
            RegistryHive::LocalMachine, QStringLiteral("SOFTWARE\\Python\\PythonCore\\3.9-32\\InstallPath"),
            QStringLiteral("ExecutablePath"), QStringLiteral("C:\\Python39-32\\python.exe"));
        const DoctorReport report = machine.diagnose();
        QVERIFY(expectFinding(report, QStringLiteral("doctor.cudnn-wrong-architecture"), 7));
        QVERIFY(expectFinding(report, QStringLiteral("doctor.python-32bit"), 7));
        QVERIFY(!report.healthy());
    }

    // #8: cudnnCreate answered CUDNN_STATUS_NOT_INITIALIZED; this cuDNN is built for CUDA 11.
    void notInitialized()
    {
        Machine machine;
        machine.adjust = [](DoctorInput &input) {
            VerifyReport verify = probeOf(kCuda122Bin);
            verify.cudnnVersion = QStringLiteral("8.9.7");
            verify.probe.cudnnVersion = 8907;
            verify.probe.cudnnCudartVersion = 11080;
            verify.probe.gpu.status = ProbeGpu::Status::Failed;
            verify.probe.gpu.stage = QStringLiteral("handle");
            verify.probe.gpu.cudaRuntimeVersion = 12020;
            verify.probe.gpu.cudaDriverVersion = 12060;
            verify.probe.gpu.cudnnStatus = 1;
            verify.probe.gpu.cudnnStatusName = QStringLiteral("CUDNN_STATUS_NOT_INITIALIZED");
            input.verify = verify;
        };
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.cudnn-not-initialized"), 8);
        QVERIFY(diagnosis);
        QVERIFY2(diagnosis->finding.message.toEnglish().contains(QLatin1String("CUDA 11")),
                 qPrintable(diagnosis->finding.message.toEnglish()));
        // The same probe, passed: nothing to say.
        machine.adjust = [](DoctorInput &input) { input.verify = probeOf(kCuda122Bin); };
        QVERIFY(!find(machine.diagnose(), QStringLiteral("doctor.cudnn-not-initialized")));
    }

    // #9: a CPU-only torch; the fix is the pip command for this driver.
    void cpuOnlyTorch()
    {
        Machine machine;
        machine.sandbox.write(QStringLiteral("C:\\Python312\\Lib\\site-packages\\torch\\version.py"),
                              "__version__ = '2.5.1+cpu'\ndebug = False\ncuda: Optional[str] = None\n");
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.torch-cpu-only"), 9);
        QVERIFY(diagnosis);
        QVERIFY2(diagnosis->finding.fix.toEnglish().contains(
                     QLatin1String("pip install torch --index-url https://download.pytorch.org/whl/cu12")),
                 qPrintable(diagnosis->finding.fix.toEnglish()));
    }

    // #10: the user PATH ends in the middle of a folder name, or is exactly 1,024 characters.
    void truncatedPath_data()
    {
        QTest::addColumn<bool>("atLimit");
        QTest::newRow("ends mid-name") << false;
        QTest::newRow("1024 characters") << true;
    }
    void truncatedPath()
    {
        QFETCH(bool, atLimit);
        Machine machine;
        machine.sandbox.mkdir(QStringLiteral("C:\\Program Files\\Git\\cmd"));
        QString path =
            QStringLiteral("%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;C:\\Program Files\\Gi");
        if (atLimit)
            path = QStringLiteral("C:\\Tools;").repeated(113) + QStringLiteral("C:\\Tool"); // 1,024
        QCOMPARE(path.size() == 1024, atLimit);
        machine.stored->set(EnvironmentScope::User, QStringLiteral("Path"), {path, true});
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.path-truncated"), 10);
        QVERIFY(diagnosis);
        QVERIFY(!diagnosis->repair); // what was cut off cannot be known
    }

    // Folders on the system PATH that Authenticated Users may modify (Python installed for all users
    // into the drive's root inherits that right): each named once, with who may change it and the
    // icacls command that takes the right away; the toolkit's protected folder is not named.
    void writableSystemPathFolder()
    {
        Machine machine;
        auto security = std::make_shared<MemoryFileSecurity>();
        machine.security = security;
        const QString inherited = QStringLiteral("O:BAD:AI(A;OICIID;FA;;;BA)(A;OICIID;FA;;;SY)"
                                                 "(A;OICIID;0x1301bf;;;AU)(A;OICIID;0x1200a9;;;BU)");
        security->set(machine.host(QStringLiteral("C:\\Python312")), inherited);
        security->set(machine.host(QStringLiteral("C:\\Python312\\Scripts")), inherited);
        security->set(machine.host(kCuda122Bin), security::adminsOnlySddl());

        const DoctorReport report = machine.diagnose();
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.writable-system-path"), 0);
        QVERIFY(diagnosis);
        QCOMPARE(diagnosis->finding.severity, Severity::Warning);
        QVERIFY(!diagnosis->repair); // whether to take it off PATH or re-permission it is the owner's call
        QStringList named;
        for (const Diagnosis &each : report.diagnoses) {
            if (each.finding.id == QLatin1String("doctor.writable-system-path"))
                named.append(each.finding.message.toEnglish());
        }
        QCOMPARE(named.size(), 2);
        QVERIFY2(named.first().startsWith(QLatin1String("C:\\Python312\\Scripts\\ is on the system PATH, but "
                                                        "C:\\Python312\\Scripts can be changed")) &&
                     named.first().contains(QLatin1String("(Authenticated Users)")),
                 qPrintable(named.first()));
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(
            QLatin1String("icacls \"C:\\Python312\\Scripts\" /inheritance:r")));
        QVERIFY(!named.join(QLatin1Char('\n')).contains(kCuda122Bin));
    }

    // #12: CUDA_PATH names CUDA 11.8, the cuDNN in use is the 12.2 toolkit's.
    void cudaPathNamesAnotherToolkit()
    {
        Machine machine;
        trees::windowsToolkit(machine.sandbox, QStringLiteral("11.8.0"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                            {kCuda + QStringLiteral("v11.8"), false});
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.cuda-path-mismatch"), 12);
        QVERIFY(diagnosis && diagnosis->repair);
        QVERIFY(diagnosis->repair->needsAdministrator); // it is stored for the machine
        repairAndUndo(machine, QStringLiteral("doctor.cuda-path-mismatch"), 12);
    }

    // #13: a copy into Program Files that Windows redirected to the user's VirtualStore.
    void virtualStore()
    {
        Machine machine;
        machine.sandbox.write(
            QStringLiteral("C:\\Users\\lab\\AppData\\Local\\VirtualStore\\Program Files\\NVIDIA GPU "
                           "Computing Toolkit\\CUDA\\v12.2\\bin\\cudnn_ops_infer64_8.dll"),
            peimage::x64Dll());
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.virtualstore"), 13);
        QVERIFY(diagnosis);
        QVERIFY(diagnosis->finding.message.toEnglish().contains(kCuda122Bin));
    }

    // #14: TensorFlow 2.15 on native Windows.
    void tensorflowOnWindows()
    {
        Machine machine;
        machine.adjust = [](DoctorInput &input) {
            for (PythonInstall &python : input.snapshot.pythons)
                python.tensorflow = QStringLiteral("2.15.0");
        };
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.tensorflow-windows"), 14);
        QVERIFY(diagnosis);
        QVERIFY(!diagnosis->repair);
    }

    // The twin of #14: JAX on native Windows has no CUDA build to use.
    void jaxOnWindows()
    {
        Machine machine;
        QVERIFY(!find(machine.diagnose(), QStringLiteral("doctor.jax-windows")));
        machine.adjust = [](DoctorInput &input) {
            FrameworkInfo jax;
            jax.name = QStringLiteral("jax");
            jax.version = QStringLiteral("0.4.30");
            for (PythonInstall &python : input.snapshot.pythons)
                python.frameworks.append(jax);
        };
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.jax-windows"), 14);
        QVERIFY(diagnosis);
        QVERIFY(
            diagnosis->finding.message.toEnglish().contains(QLatin1String("JAX 0.4.30 in C:\\Python312")));
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("WSL 2")));
    }

    // WSL 2: the Windows driver's libcuda in /usr/lib/wsl/lib, as a file (ldconfig's "not a symbolic
    // link" is harmless); a Linux driver installed inside hides it; a loader cache without the folder
    // does not find it, unless LD_LIBRARY_PATH names it.
    void wslLibcuda()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/usr/lib/wsl/lib/libcuda.so.1"), "\x7f"
                                                                       "ELF");
        sandbox.write(QStringLiteral("/etc/ld.so.cache"), QByteArray("glibc-ld.so.cache1.1") + '\0' +
                                                              "libcuda.so.1" + '\0' +
                                                              "/usr/lib/wsl/lib/libcuda.so.1" + '\0');
        const auto inWsl = [](DoctorInput &input) {
            input.snapshot.os.wsl = WslInfo{2, QStringLiteral("Ubuntu")};
        };
        const QProcessEnvironment environment = linuxEnvironment(QStringLiteral("/usr/bin"));
        const QStringList wslIds{QStringLiteral("doctor.wsl-linux-driver"),
                                 QStringLiteral("doctor.wsl-libcuda-not-cached"),
                                 QStringLiteral("doctor.wsl-libcuda-not-a-link")};
        const DoctorReport native = diagnoseLinux(sandbox, environment);
        for (const QString &id : wslIds)
            QVERIFY2(!find(native, id), describe(native).constData());

        const DoctorReport healthy = diagnoseLinux(sandbox, environment, inWsl);
        QVERIFY2(find(healthy, QStringLiteral("doctor.wsl-libcuda-not-a-link")),
                 describe(healthy).constData());
        QCOMPARE(find(healthy, QStringLiteral("doctor.wsl-libcuda-not-a-link"))->finding.severity,
                 Severity::Info);
        QVERIFY(!find(healthy, QStringLiteral("doctor.wsl-linux-driver")));
        QVERIFY(!find(healthy, QStringLiteral("doctor.wsl-libcuda-not-cached")));

        sandbox.write(QStringLiteral("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14"), "\x7f"
                                                                                        "ELF");
        sandbox.symlink(QStringLiteral("libcuda.so.550.54.14"),
                        QStringLiteral("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
        const std::optional<Diagnosis> driver = expectFinding(diagnoseLinux(sandbox, environment, inWsl),
                                                              QStringLiteral("doctor.wsl-linux-driver"), 0);
        QVERIFY(driver);
        QVERIFY(driver->finding.message.toEnglish().contains(
            QLatin1String("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14")));
        QVERIFY(driver->finding.message.toEnglish().count(QLatin1String("libcuda.so.550")) == 1);

        sandbox.write(QStringLiteral("/etc/ld.so.cache"), "glibc-ld.so.cache1.1");
        const std::optional<Diagnosis> uncached = expectFinding(
            diagnoseLinux(sandbox, environment, inWsl), QStringLiteral("doctor.wsl-libcuda-not-cached"), 0);
        QVERIFY(uncached);
        QVERIFY(uncached->finding.fix.toEnglish().contains(QLatin1String("ldconfig")));
        QVERIFY(!find(
            diagnoseLinux(sandbox,
                          linuxEnvironment(QStringLiteral("/usr/bin"), QStringLiteral("/usr/lib/wsl/lib")),
                          inWsl),
            QStringLiteral("doctor.wsl-libcuda-not-cached")));
    }

    // #15: driver 522.25 is older than CUDA 12.2 needs.
    void driverTooOld()
    {
        Machine machine;
        machine.setDriver(QStringLiteral("31.0.15.2225"));
        const std::optional<Diagnosis> diagnosis =
            expectFinding(machine.diagnose(), QStringLiteral("doctor.driver-too-old"), 15);
        QVERIFY(diagnosis);
        QVERIFY2(diagnosis->finding.fix.toEnglish().startsWith(QLatin1String("Update the driver to 5")),
                 qPrintable(diagnosis->finding.fix.toEnglish()));
    }

    void cudaVisibleDevicesNamesNoGpu_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("fires");
        QTest::newRow("index 1 of one GPU") << QStringLiteral("1") << true;
        QTest::newRow("index 0") << QStringLiteral("0") << false;
        QTest::newRow("unknown UUID") << QStringLiteral("GPU-deadbeef") << true;
    }
    void cudaVisibleDevicesNamesNoGpu()
    {
        QFETCH(QString, value);
        QFETCH(bool, fires);
        Machine machine;
        machine.process.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), value);
        const DoctorReport report = machine.diagnose();
        QCOMPARE(bool(find(report, QStringLiteral("doctor.cuda-visible-devices-unknown-gpu"))), fires);
    }

    // A terminal opened before PATH changed.
    void staleSession()
    {
        Machine machine;
        machine.sessionPath = QStringLiteral("C:\\Windows\\system32;C:\\Windows");
        QVERIFY(expectFinding(machine.diagnose(), QStringLiteral("doctor.restart-programs"), 0));
    }

    // Two repairs, the second's write fails: the first one's file is taken back too.
    void failureMidwayRollsBack()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("this build has no zlibwapi.dll to place");
        Machine machine;
        machine.remove(kCuda122Bin + QStringLiteral("\\zlibwapi.dll"));
        trees::windowsToolkit(machine.sandbox, QStringLiteral("11.8.0"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                            {kCuda + QStringLiteral("v11.8"), false});
        const DoctorReport report = machine.diagnose();
        const Diagnosis *zlibwapi = find(report, QStringLiteral("doctor.zlibwapi-missing"));
        const Diagnosis *cudaPath = find(report, QStringLiteral("doctor.cuda-path-mismatch"));
        QVERIFY2(zlibwapi && cudaPath && zlibwapi->repair && cudaPath->repair, describe(report).constData());
        const TreeSnapshot tree = machine.tree();
        const QStringList environment = machine.environment();

        machine.stored->failWritesAfter(0);
        const ChangeOutcome outcome =
            applyRepairs({*zlibwapi->repair, *cudaPath->repair}, machine.context(), machine.stored);
        QCOMPARE(outcome.status, ChangeOutcome::Status::Failed);
        QCOMPARE(outcome.exitCode(), 1603);
        QVERIFY(!outcome.receipt);
        QVERIFY2(machine.tree() == tree, qPrintable(machine.tree().difference(tree)));
        QCOMPARE(machine.environment(), environment);
        QVERIFY(installedReceipts(machine.context()).isEmpty());
    }

    void busyWhileAnotherChangeRuns()
    {
        Machine machine;
        trees::windowsToolkit(machine.sandbox, QStringLiteral("11.8.0"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                            {kCuda + QStringLiteral("v11.8"), false});
        const DoctorReport report = machine.diagnose();
        const Diagnosis *diagnosis = find(report, QStringLiteral("doctor.cuda-path-mismatch"));
        QVERIFY(diagnosis && diagnosis->repair);
        // Another change holds the lock, in another thread.
        const StateFolders folders = StateFolders::of(machine.context());
        bool otherHoldsIt = false;
        QSemaphore held;
        QSemaphore release;
        const std::unique_ptr<QThread> other(QThread::create([&] {
            const std::unique_ptr<InstallLock> lock = folders.tryLock(machine.context(), Elevation::host());
            otherHoldsIt = bool(lock);
            held.release();
            release.acquire();
        }));
        other->start();
        held.acquire();
        const QStringList environment = machine.environment();
        const ChangeOutcome outcome = applyRepairs({*diagnosis->repair}, machine.context(), machine.stored);
        release.release();
        other->wait();
        QVERIFY(otherHoldsIt);
        QCOMPARE(outcome.status, ChangeOutcome::Status::Busy);
        QCOMPARE(outcome.exitCode(), 1618);
        QCOMPARE(machine.environment(), environment);
    }

    void dryRunOnlyPlans()
    {
        Machine machine;
        trees::windowsToolkit(machine.sandbox, QStringLiteral("11.8.0"));
        machine.stored->set(EnvironmentScope::System, QStringLiteral("CUDA_PATH"),
                            {kCuda + QStringLiteral("v11.8"), false});
        const DoctorReport report = machine.diagnose();
        const Diagnosis *diagnosis = find(report, QStringLiteral("doctor.cuda-path-mismatch"));
        QVERIFY(diagnosis && diagnosis->repair);
        const TreeSnapshot tree = machine.tree();
        const QStringList environment = machine.environment();
        ChangeOptions options;
        options.dryRun = true;
        const ChangeOutcome outcome =
            applyRepairs({*diagnosis->repair}, machine.context(), machine.stored, options);
        QCOMPARE(outcome.status, ChangeOutcome::Status::DryRun);
        QVERIFY(!outcome.plan.isEmpty());
        QVERIFY(machine.tree() == tree);
        QCOMPARE(machine.environment(), environment);
    }

    // The report and its repairs survive JSON, so `cudnnctl doctor --json` can be applied later.
    void reportRoundTripsThroughJson()
    {
        Machine machine;
        machine.remove(kCuda122Bin + QStringLiteral("\\zlibwapi.dll"));
        const DoctorReport report = machine.diagnose();
        QVERIFY(!report.diagnoses.isEmpty());
        const QJsonObject json = report.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QLatin1String(DoctorReport::kSchema));
        const DoctorReport back = DoctorReport::fromJson(json);
        QCOMPARE(back.diagnoses.size(), report.diagnoses.size());
        for (int i = 0; i < report.diagnoses.size(); ++i) {
            QCOMPARE(back.diagnoses.at(i).finding.id, report.diagnoses.at(i).finding.id);
            QCOMPARE(back.diagnoses.at(i).failureMode, report.diagnoses.at(i).failureMode);
            QCOMPARE(bool(back.diagnoses.at(i).repair), bool(report.diagnoses.at(i).repair));
            if (report.diagnoses.at(i).repair)
                QCOMPARE(back.diagnoses.at(i).repair->steps, report.diagnoses.at(i).repair->steps);
        }
        QCOMPARE(back.copies, report.copies);
        QCOMPARE(back.toJson(), json);
    }

    // ---- Linux, where the rule applies there ----

    // #2: libcudnn.so.9 without libcudnn_graph.so.9.
    void linuxIncompleteSet()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        Sandbox sandbox;
        const QString lib = QStringLiteral("/usr/lib/x86_64-linux-gnu");
        trees::linuxCudnn(sandbox, lib, QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 5, 0);
        const QProcessEnvironment environment = linuxEnvironment(QStringLiteral("/usr/bin"));
        const DoctorReport healthy = diagnoseLinux(sandbox, environment);
        QVERIFY2(!find(healthy, QStringLiteral("doctor.cudnn-incomplete")), describe(healthy).constData());
        for (const QString &name :
             {QStringLiteral("libcudnn_graph.so"), QStringLiteral("libcudnn_graph.so.9"),
              QStringLiteral("libcudnn_graph.so.9.5.0")})
            QVERIFY(QFile::remove(sandbox.root() + lib + QLatin1Char('/') + name));
        const std::optional<Diagnosis> diagnosis =
            expectFinding(diagnoseLinux(sandbox, environment), QStringLiteral("doctor.cudnn-incomplete"), 2);
        QVERIFY(diagnosis);
        QVERIFY(diagnosis->finding.message.toEnglish().contains(QLatin1String("libcudnn_graph.so.9")));
    }

    // #11: an older cuDNN 9 first on LD_LIBRARY_PATH: explained, with the fix in words.
    void linuxOlderCopyOnLibraryPath()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        Sandbox sandbox;
        trees::linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
                          QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 5, 0);
        trees::linuxCudnn(sandbox, QStringLiteral("/opt/cudnn-9.1/lib"),
                          QStringLiteral("/opt/cudnn-9.1/include"), 9, 1, 0);
        QVERIFY(!find(diagnoseLinux(sandbox, linuxEnvironment(QStringLiteral("/usr/bin"))),
                      QStringLiteral("doctor.cudnn-shadowed")));
        const DoctorReport report = diagnoseLinux(
            sandbox, linuxEnvironment(QStringLiteral("/usr/bin"), QStringLiteral("/opt/cudnn-9.1/lib")));
        const std::optional<Diagnosis> diagnosis =
            expectFinding(report, QStringLiteral("doctor.cudnn-shadowed"), 11);
        QVERIFY(diagnosis);
        QVERIFY(!diagnosis->repair);
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("LD_LIBRARY_PATH")));
    }

    // #9 on Linux: the interpreter, asked, says its torch is a CPU build.
    void linuxCpuOnlyTorch()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "runs the Linux tree's interpreter");
        Sandbox sandbox;
        trees::pythonStandin(
            sandbox, QStringLiteral("/usr/bin/python3"), QStringLiteral("3.12.3"),
            "{\"version\": \"2.5.1+cpu\", \"cuda\": null, \"cudnn\": null, \"cudaAvailable\": false}");
        trees::torchFiles(sandbox, QStringLiteral("/usr/lib/python3/dist-packages"),
                          QStringLiteral("2.5.1+cpu"), QString());
        const std::optional<Diagnosis> diagnosis =
            expectFinding(diagnoseLinux(sandbox, linuxEnvironment(QStringLiteral("/usr/bin"))),
                          QStringLiteral("doctor.torch-cpu-only"), 9);
        QVERIFY(diagnosis);
        QVERIFY(diagnosis->finding.fix.toEnglish().contains(QLatin1String("--index-url")));
    }

    // #15 from the probe: cudaErrorInsufficientDriver for the CUDA 13 runtime.
    void linuxProbeInsufficientDriver()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "a Linux tree's symbolic links exist only on Linux hosts");
        Sandbox sandbox;
        trees::linuxCudnn(sandbox, QStringLiteral("/usr/lib/x86_64-linux-gnu"),
                          QStringLiteral("/usr/include/x86_64-linux-gnu"), 9, 19, 0);
        const auto probe = [](int cudaError) {
            return [cudaError](DoctorInput &input) {
                VerifyReport verify = probeOf(QStringLiteral("/usr/lib/x86_64-linux-gnu"));
                verify.probe.gpu.status = cudaError ? ProbeGpu::Status::Failed : ProbeGpu::Status::Passed;
                verify.probe.gpu.cudaRuntimeVersion = 13000;
                verify.probe.gpu.cudaDriverVersion = 12020;
                if (cudaError) {
                    verify.probe.gpu.cudaError = cudaError;
                    verify.probe.gpu.cudaErrorName = QStringLiteral("cudaErrorInsufficientDriver");
                    verify.probe.gpu.reason = QStringLiteral("cudaGetDeviceCount returned 35");
                }
                input.verify = verify;
            };
        };
        const QProcessEnvironment environment = linuxEnvironment(QStringLiteral("/usr/bin"));
        QVERIFY(
            !find(diagnoseLinux(sandbox, environment, probe(0)), QStringLiteral("doctor.driver-too-old")));
        const std::optional<Diagnosis> diagnosis = expectFinding(
            diagnoseLinux(sandbox, environment, probe(35)), QStringLiteral("doctor.driver-too-old"), 15);
        QVERIFY(diagnosis);
        QVERIFY(diagnosis->finding.fix.toEnglish().startsWith(QLatin1String("Update the driver to")));
    }

    // What `cudnnctl doctor --json` printed on the H200 machine reads back: no problem, both copies
    // (the system's 9.14 that a fresh process loads, the wheel's 9.19) and the one torch loads.
    void realH200DoctorReadsBack()
    {
        QFile file(BuildPaths::fixtures() + QStringLiteral("/nvidia-h200-linux/cudnnctl-doctor.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const DoctorReport report = DoctorReport::fromJson(QJsonDocument::fromJson(file.readAll()).object());
        QVERIFY(report.healthy());
        const QJsonArray copies = report.copies.value(QStringLiteral("copies")).toArray();
        QCOMPARE(copies.size(), 2);
        QStringList versions;
        for (const QJsonValue &copy : copies)
            versions.append(copy.toObject().value(QStringLiteral("version")).toString());
        versions.sort();
        QCOMPARE(versions, QStringList({QStringLiteral("9.14.0"), QStringLiteral("9.19.0")}));
        QString torchLoads;
        for (const QJsonValue &consumer : report.copies.value(QStringLiteral("consumers")).toArray()) {
            if (consumer.toObject().value(QStringLiteral("consumer")).toString() == QLatin1String("torch"))
                torchLoads = consumer.toObject().value(QStringLiteral("loads")).toString();
        }
        QVERIFY2(torchLoads.contains(QStringLiteral("nvidia/cudnn/lib/libcudnn.so.9")),
                 qPrintable(torchLoads));
        QCOMPARE(DoctorReport::fromJson(report.toJson()).toJson(), report.toJson());
    }

    // Two diagnoses compared, as the Repair page shows them after "Diagnose again": what went, what
    // stayed (also when its words changed), what is new; two problems of one id pair with their own
    // words; notes are no problems.
    void comparedDiagnosesSayWhatChanged()
    {
        const auto diagnosis = [](Severity severity, const char *id, const QString &words) {
            Diagnosis d;
            d.finding.id = QString::fromLatin1(id);
            d.finding.severity = severity;
            d.finding.message = Text::verbatim(words);
            return d;
        };
        DoctorReport before;
        before.diagnoses = {
            diagnosis(Severity::Error, "doctor.shadowed", QStringLiteral("C:\\old first")),
            diagnosis(Severity::Warning, "doctor.not-on-path", QStringLiteral("v8.9 on no PATH")),
            diagnosis(Severity::Warning, "doctor.not-on-path", QStringLiteral("v9.1 on no PATH")),
            diagnosis(Severity::Error, "doctor.zlibwapi-missing", QStringLiteral("no zlibwapi.dll")),
            diagnosis(Severity::Info, "doctor.note", QStringLiteral("a note that goes")),
        };
        DoctorReport after;
        after.diagnoses = {
            diagnosis(Severity::Warning, "doctor.not-on-path", QStringLiteral("v9.1 on no PATH")),
            diagnosis(Severity::Error, "doctor.shadowed", QStringLiteral("C:\\other first")),
            diagnosis(Severity::Error, "doctor.version-mismatch", QStringLiteral("8.9.7 answers 8.9.2")),
            diagnosis(Severity::Info, "doctor.new-note", QStringLiteral("a note that comes")),
        };
        const auto words = [](const QList<Diagnosis> &list) {
            QStringList out;
            for (const Diagnosis &d : list)
                out.append(d.finding.message.toEnglish());
            return out;
        };
        const DiagnosisChanges changes = compareDiagnoses(before, after);
        QCOMPARE(words(changes.fixed),
                 QStringList({QStringLiteral("v8.9 on no PATH"), QStringLiteral("no zlibwapi.dll")}));
        QCOMPARE(words(changes.stillOpen),
                 QStringList({QStringLiteral("v9.1 on no PATH"), QStringLiteral("C:\\other first")}));
        QCOMPARE(words(changes.found), QStringList({QStringLiteral("8.9.7 answers 8.9.2")}));
        QVERIFY(!changes.isEmpty());
        QVERIFY(compareDiagnoses(after, after).fixed.isEmpty());
        QCOMPARE(compareDiagnoses(after, after).stillOpen.size(), 3);
        QVERIFY(compareDiagnoses(DoctorReport(), DoctorReport()).isEmpty());
        QCOMPARE(before.count(Severity::Warning), 2);
        QCOMPARE(after.count(Severity::Info), 1);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestDoctor)
#include "tst_doctor.moc"
