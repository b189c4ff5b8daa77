#include "verify/Verifier.h"

#include "common/Logging.h"
#include "detect/PythonProbe.h"
#include "detect/VersionParsers.h"
#include "platform/Elevation.h"
#include "platform/FileSecurity.h"
#include "platform/SystemContext.h"
#include "verify/ErrorLog.h"
#include "verify/LoadErrors.h"
#include "verify/ReleaseMix.h"
#include "verify/VerifyStages.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <functional>

namespace cudnnsetup {

using namespace verifystages;

namespace {

// The library a program names to the loader: Windows cudnn_ops64_9.dll; Linux the soname
// (libcudnn_ops.so.9), not the development link (libcudnn.so) nor the versioned file.
bool isLoadableName(const QString &name, OsFamily family)
{
    if (!versions::isCudnnLibraryName(name))
        return false;
    if (family == OsFamily::Windows)
        return name.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive);
    static const QRegularExpression soname(QStringLiteral("^libcudnn[a-z_]*\\.so\\.\\d+$"));
    return soname.match(name).hasMatch();
}

int majorOfLibraries(const QStringList &libraries)
{
    for (const QString &name : libraries) {
        const Version version = versions::fromCudnnLibraryName(name);
        if (version.isValid())
            return version.major();
    }
    return 0;
}

std::optional<int> leadingNumber(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("^(\\d+)"));
    const auto match = number.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return match.captured(1).toInt();
}

// Run-time CUDA library names the GPU stage may load, the subject's CUDA major first, then the
// toolkits' own files by full path (a toolkit's lib64 is not always on the loader's path).
QStringList cudartCandidates(const SystemContext &context, const SystemSnapshot &snapshot,
                             const VerifySubject &subject)
{
    const bool windows = context.family() == OsFamily::Windows;
    QList<int> majors;
    if (subject.cudaMajor)
        majors.append(*subject.cudaMajor);
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
        if (const auto major = leadingNumber(toolkit.version); major && !majors.contains(*major))
            majors.append(*major);
    }
    for (int major : {13, 12, 11}) {
        if (!majors.contains(major))
            majors.append(major);
    }
    const auto fileName = [windows](int major) {
        // CUDA 11's runtime DLL is cudart64_110.dll.
        return windows ? QStringLiteral("cudart64_%1.dll").arg(major == 11 ? 110 : major)
                       : QStringLiteral("libcudart.so.%1").arg(major);
    };
    QStringList candidates;
    for (int major : std::as_const(majors))
        candidates.append(fileName(major));
    for (int major : std::as_const(majors)) {
        for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
            const QString folder = windows ? toolkit.binDir : toolkit.libDir;
            if (leadingNumber(toolkit.version) != major || folder.isEmpty())
                continue;
            const QString file = context.paths().join(folder, fileName(major));
            if (context.files().isFile(file))
                candidates.append(context.files().toHost(file));
        }
    }
    return candidates;
}

} // namespace

VerifyStage verifystages::makeStage(const QString &id, VerifyStage::Status status, const Text &message,
                                    const QString &details, const Text &fix, double milliseconds)
{
    VerifyStage stage;
    stage.id = id;
    stage.status = status;
    stage.message = message;
    stage.details = details;
    stage.fix = fix;
    stage.milliseconds = milliseconds;
    return stage;
}

ProbeRun runProbeChild(const SystemContext &context, const ProbeRequest &request,
                       const ProbeEnvironment &environment, const VerifyOptions &options)
{
    ProbeRun run;
    const QString program = options.probeProgram.isEmpty() ? defaultProbeProgram() : options.probeProgram;
    if (program.isEmpty()) {
        run.failure = QStringLiteral("cudnnctl, which runs the probe, is not beside this program");
        return run;
    }
    QTemporaryDir folder;
    const QString requestFile = folder.filePath(QStringLiteral("probe-request.json"));
    QFile file(requestFile);
    if (!folder.isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(request.toJson()).toJson(QJsonDocument::Compact)) < 0 || !file.flush()) {
        run.failure = QStringLiteral("the probe request cannot be written to %1").arg(requestFile);
        return run;
    }
    file.close();
    // It starts in the request's own folder, which holds nothing to load: Windows searches the
    // current folder before PATH, and the caller's may be an unpacked archive's bin.
    const ProcessResult result = context.processes().run(
        program, {QStringLiteral("probe"), QStringLiteral("--request"), requestFile}, options.probeTimeoutMs,
        environment.environment, options.cancel, folder.path());
    run.milliseconds = double(result.elapsedMs);
    const QByteArray output = result.standardOutput.trimmed();
    const QJsonDocument document = QJsonDocument::fromJson(output.mid(output.lastIndexOf('\n') + 1));
    if (!result.succeeded() || !document.isObject()) {
        run.failure = QStringLiteral("the probe process %1 ended without a result: %2")
                          .arg(QDir::toNativeSeparators(program), result.summary());
        run.said = readErrorLog(QString::fromLocal8Bit(result.standardError + '\n' + result.standardOutput));
        return run;
    }
    const Expected<ProbeResult> probe = ProbeResult::fromJson(document.object());
    if (!probe) {
        run.failure =
            probe.error().details.isEmpty() ? probe.error().message.toEnglish() : probe.error().details;
        return run;
    }
    run.result = *probe;
    return run;
}

Expected<VerifySubject> subjectInFolder(const SystemContext &context, const QString &folder,
                                        const QString &source)
{
    const bool windows = context.family() == OsFamily::Windows;
    QStringList libraries;
    for (const QString &name : context.files().entries(
             folder, {windows ? QStringLiteral("cudnn*.dll") : QStringLiteral("libcudnn*.so*")},
             FileSystem::Files)) {
        if (isLoadableName(name, context.family()))
            libraries.append(name);
    }
    if (libraries.isEmpty()) {
        return Finding::error(QStringLiteral("verify.no-cudnn"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "There is no cuDNN library in %1."))
                                  .arg(QDir::toNativeSeparators(folder)));
    }
    // Several majors side by side: the newest is the one checked.
    int newest = 0;
    for (const QString &name : std::as_const(libraries))
        newest = std::max(newest, versions::fromCudnnLibraryName(name).major());
    libraries.erase(std::remove_if(libraries.begin(), libraries.end(),
                                   [&](const QString &name) {
                                       return versions::fromCudnnLibraryName(name).major() != newest;
                                   }),
                    libraries.end());
    VerifySubject subject;
    subject.directory = context.paths().normalize(folder);
    subject.libraries = versions::cudnnLibrariesInLoadOrder(libraries);
    subject.source = source;
    return subject;
}

Expected<VerifySubject> subjectFromReceipt(const SystemContext &context, const Receipt &receipt)
{
    QString folder;
    for (const Receipt::File &file : receipt.files) {
        if (versions::isMainCudnnLibraryName(context.paths().fileName(file.path))) {
            folder = context.paths().parent(file.path);
            break;
        }
    }
    if (folder.isEmpty() && receipt.target)
        folder = receipt.target->dllFolder();
    const Expected<VerifySubject> found = subjectInFolder(context, folder, QStringLiteral("receipt"));
    if (!found)
        return found;
    VerifySubject subject = *found;
    subject.receiptId = receipt.id;
    subject.expectedVersion = receipt.archive.cudnn.toString();
    subject.cudaMajor = leadingNumber(receipt.archive.cudaVariant);
    if (!receipt.target)
        return subject;
    if (receipt.target->toolkitVersion.isValid())
        subject.toolkitVersion = receipt.target->toolkitVersion.toString();
    if (receipt.target->kind == InstallTarget::Kind::Venv) {
        subject.loadModel = LoadModel::PythonDllDirectories;
        subject.dllDirectories = {subject.directory};
    } else if (receipt.target->kind == InstallTarget::Kind::Conda ||
               receipt.target->kind == InstallTarget::Kind::App) {
        // A program loads what lies beside it first, as a library loaded by its full path does.
        subject.loadModel = LoadModel::CondaActivated;
    }
    return subject;
}

std::optional<VerifySubject> subjectFromSnapshot(const SystemContext &context, const SystemSnapshot &snapshot)
{
    const CudnnCopy *copy = snapshot.cudnnLoadedByDefault();
    if (!copy)
        return std::nullopt;
    const Expected<VerifySubject> found =
        subjectInFolder(context, copy->directory, QStringLiteral("detected"));
    if (!found)
        return std::nullopt;
    VerifySubject subject = *found;
    subject.expectedVersion = copy->version;
    subject.cudaMajor = copy->cudaMajor;
    return subject;
}

ProbeEnvironment probeEnvironment(const SystemContext &context)
{
    ProbeEnvironment probe;
    const EnvironmentStore &store = context.environment();
    if (const std::optional<QProcessEnvironment> fresh = store.freshEnvironment()) {
        probe.environment = *fresh;
        probe.source = QStringLiteral("registry");
        probe.path = *store.freshPath();
        return probe;
    }
    probe.environment = store.processEnvironment();
    probe.source = QStringLiteral("process");
    probe.path = context.family() == OsFamily::Windows
                     ? store.processPath()
                     : context.paths().splitList(store.value(QStringLiteral("LD_LIBRARY_PATH")));
    return probe;
}

QString cudnnctlBesideThisProgram()
{
#ifdef Q_OS_WIN
    const QString name = QStringLiteral("cudnnctl.exe");
#else
    const QString name = QStringLiteral("cudnnctl");
#endif
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QString defaultProbeProgram()
{
    const QString program = cudnnctlBesideThisProgram();
    return QFileInfo(program).isExecutable() ? program : QString();
}

namespace {

bool hasFinding(const Findings &findings, const QString &id)
{
    return std::any_of(findings.cbegin(), findings.cend(),
                       [&id](const Finding &finding) { return finding.id == id; });
}

// The variable a program's library search reads: PATH on Windows, LD_LIBRARY_PATH on Linux.
QString searchVariable(const SystemContext &context)
{
    return context.family() == OsFamily::Windows ? QStringLiteral("PATH") : QStringLiteral("LD_LIBRARY_PATH");
}

// The probe again, `subject`'s folder first on the search path; its result only when every
// library then came from that folder.
std::optional<ProbeResult> probeWithFolderFirst(const SystemContext &context, const VerifySubject &subject,
                                                const ProbeRequest &request,
                                                const ProbeEnvironment &environment,
                                                const VerifyOptions &options)
{
    ProbeEnvironment first = environment;
    const QString variable = searchVariable(context);
    const QString folder = QDir::toNativeSeparators(context.files().toHost(subject.directory));
    const QString rest = first.environment.value(variable);
    first.environment.insert(variable,
                             rest.isEmpty() ? folder : folder + context.paths().listSeparator() + rest);
    first.path.prepend(subject.directory);
    const ProbeRun run = runProbeChild(context, request, first, options);
    if (!run.result || run.result->loads.isEmpty())
        return std::nullopt;
    for (const ProbeLoad &load : run.result->loads) {
        if (!load.loaded() || !sameFolder(context, folderOf(context, load.loadedFrom), subject.directory))
            return std::nullopt;
    }
    return run.result;
}

// Where each stage goes as soon as it is done: the report, and the caller's stageDone.
using StageDone = std::function<void(const VerifyStage &)>;

// What the probe child is asked: `subject`'s libraries, by the load model its consumers use.
ProbeRequest probeRequest(const SystemContext &context, const SystemSnapshot &snapshot,
                          const VerifySubject &subject, const VerifyOptions &options)
{
    ProbeRequest request;
    for (const QString &library : subject.libraries) {
        request.libraries.append(
            subject.loadModel != LoadModel::Program
                ? context.files().toHost(context.paths().join(subject.directory, library))
                : library);
    }
    request.model = subject.loadModel;
    for (const QString &folder : subject.dllDirectories)
        request.dllDirectories.append(context.files().toHost(folder));
    request.cudartCandidates = cudartCandidates(context, snapshot, subject);
    request.gpu = options.gpu;
    return request;
}

// The stages measured with `subject`'s folder first, when a fresh program finds another copy first.
void targetProbeStages(const SystemContext &context, const VerifySubject &subject, int cudnnMajor,
                       const VerifyOptions &options, VerifyReport &report, const StageDone &done)
{
    // What a fresh program loads first is not the copy asked about: that copy's own answers,
    // each stage saying how they were had, and one finding that says both.
    const QString shadowVersion =
        report.probe.cudnnVersion ? versions::fromCudnnVersionNumber(*report.probe.cudnnVersion).toString()
                                  : QString();
    QList<VerifyStage> stages{versionStage(subject, *report.targetProbe, report, report.findings)};
    stages += gpuStages(*report.targetProbe, cudnnMajor, options.gpu, report.findings);
    const QString variable = searchVariable(context);
    bool works = true;
    for (VerifyStage &stage : stages) {
        works = works && stage.status != VerifyStage::Status::Failed;
        stage.message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (measured with %2 first on %3)"))
                            .arg(stage.message)
                            .arg(QDir::toNativeSeparators(subject.directory), variable);
        done(stage);
    }
    if (works) {
        const QString checked = report.cudnnVersion.isEmpty() ? report.expectedVersion : report.cudnnVersion;
        const QString winner = QDir::toNativeSeparators(context.files().fromHost(report.loadedFrom()));
        report.findings.append(Finding::warning(
            QStringLiteral("verify.works-when-first"),
            shadowVersion.isEmpty()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 in %2 works when it is found first, but a "
                                                       "freshly started program finds %3 before it."))
                      .arg(checked, QDir::toNativeSeparators(subject.directory), winner)
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "cuDNN %1 in %2 works when it is found first, but a freshly "
                                         "started program finds %3 (cuDNN %4) before it."))
                      .arg(checked, QDir::toNativeSeparators(subject.directory), winner, shadowVersion),
            QStringLiteral("%1 first on %2").arg(QDir::toNativeSeparators(subject.directory), variable)));
    }
}

// The stages only a loaded library could answer, for another system's files, or for a run whose
// rights make loading unsafe (`unsafe`, which then says why for the GPU stages).
void notLoadedStages(const VerifyReport &report, const std::optional<Finding> &unsafe, const StageDone &done)
{
    done(makeStage(
        QStringLiteral("version"), VerifyStage::Status::Skipped,
        report.expectedVersion.isEmpty()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: only a loaded library can be "
                                                   "asked, and its files do not name the version."))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: only a loaded library can be "
                                                   "asked; its files say cuDNN %1."))
                  .arg(report.expectedVersion)));
    const Text noGpu =
        unsafe ? unsafe->message
               : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: the GPU of another "
                                                      "system's files cannot be used from this one."));
    done(makeStage(QStringLiteral("handle"), VerifyStage::Status::Skipped, noGpu));
    done(makeStage(QStringLiteral("convolution"), VerifyStage::Status::Skipped, noGpu));
}

// The framework stage: each Python with torch (or the ones asked for) loads cuDNN its own way.
// Not run where nothing is loaded: `unsafe` says why, else it is another system's.
void frameworkStages(const SystemContext &context, const SystemSnapshot &snapshot,
                     const VerifySubject &subject, const ProbeEnvironment &environment,
                     const VerifyOptions &options, bool loadsHere, const std::optional<Finding> &unsafe,
                     VerifyReport &report, const StageDone &done)
{
    if (options.framework && loadsHere) {
        QStringList pythons = options.pythons;
        if (pythons.isEmpty()) {
            for (const PythonInstall &python : snapshot.pythons) {
                if (python.torch && !pythons.contains(python.path))
                    pythons.append(python.path);
            }
        }
        for (const QString &python : std::as_const(pythons)) {
            if (options.cancel && options.cancel->load())
                break;
            report.frameworks.append(askFramework(context, python, subject, environment, options));
        }
        done(frameworkStage(report.frameworks, report.findings));
    } else {
        done(makeStage(
            QStringLiteral("framework"), VerifyStage::Status::Skipped,
            !options.framework ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Skipped, as asked (--no-framework)."))
            : unsafe           ? unsafe->message
                               : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: another system's "
                                                                                "Python is not run on this one."))));
    }
}

} // namespace

// A process with administrator rights that loads libraries as a fresh process would runs whatever
// others put in a folder it searches.
std::optional<Finding> unsafeToLoadWithRights(const SystemContext &context, const VerifySubject &subject,
                                              const QStringList &searched)
{
    const Elevation &elevation = context.elevation();
    const bool system = elevation.isLocalSystem();
    if (!system && !elevation.isElevated())
        return std::nullopt;
    QStringList trusted;
    if (!system && !elevation.accountSid().isEmpty())
        trusted.append(elevation.accountSid());
    for (const QString &folder : QStringList{subject.directory} + searched) {
        const std::optional<WritableFolder> writable =
            folder.isEmpty() ? std::nullopt : firstWritableFolder(context, folder, trusted);
        if (!writable)
            continue;
        return Finding::warning(
            QStringLiteral("verify.not-loaded-with-rights"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not loaded, on purpose: with administrator rights the test "
                                                 "would load libraries from %1, which %2 may change."))
                .arg(QDir::toNativeSeparators(writable->folder), Text::list(writable->audit.whoMayChange())),
            writable->audit.summary(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run cudnnctl verify without administrator rights, as the "
                                                 "user who will use cuDNN; or make that folder the "
                                                 "administrators' alone.")));
    }
    return std::nullopt;
}

VerifyReport verify(const SystemContext &context, const SystemSnapshot &snapshot,
                    const VerifySubject &subject, const VerifyOptions &options)
{
    QElapsedTimer total;
    total.start();
    VerifyReport report;
    report.createdAt = QDateTime::currentDateTimeUtc();
    report.directory = subject.directory;
    report.libraries = subject.libraries;
    report.subjectSource = subject.source;
    report.receiptId = subject.receiptId;
    report.expectedVersion = subject.expectedVersion;
    if (report.expectedVersion.isEmpty()) {
        // A folder named by the user: what detection read of the copy there (its header, its DLLs'
        // version resource).
        for (const CudnnCopy &copy : snapshot.cudnn) {
            if (context.paths().equal(copy.directory, subject.directory) && !copy.version.isEmpty())
                report.expectedVersion = copy.version;
        }
    }
    report.cudaToolkitVersion = subject.toolkitVersion;
    // Another system's files (an offline image, --system-root): nothing of them runs here.
    const ProbeEnvironment environment = probeEnvironment(context);
    const std::optional<Finding> unsafe =
        context.isLive() ? unsafeToLoadWithRights(context, subject, environment.path) : std::nullopt;
    if (unsafe)
        report.findings.append(*unsafe);
    const bool loadsHere = context.isLive() && context.family() == hostOsFamily() && !unsafe;
    report.probePath = environment.path;
    report.probeEnvironmentSource = environment.source;
    const StageDone done = [&](const VerifyStage &stage) {
        report.stages.append(stage);
        if (options.stageDone)
            options.stageDone(stage);
    };
    const int cudnnMajor = majorOfLibraries(subject.libraries);

    // The probe loads the inspected system's libraries into a process of this machine: only for
    // the running system, never for another system's tree; and not an incomplete set, which
    // cuDNN itself would end the process over.
    // cuDNN's main library loads the others by name when a program first needs them and, when one
    // is not found, ends the program.
    const QStringList missing =
        versions::missingCudnnLibraries(subject.libraries, context.family() == OsFamily::Windows, cudnnMajor);
    // Libraries of two releases in one set: cuDNN's main library does not find its functions in the
    // others, whether or not this machine can load them.
    const std::optional<Finding> mixed = mixedReleaseFinding(
        subject.directory, libraryReleases(context, subject.directory, subject.libraries));
    if (mixed)
        report.findings.append(*mixed);
    if (!missing.isEmpty()) {
        const Finding finding = incompleteSetFinding(subject, missing, cudnnMajor);
        report.findings.append(finding);
        done(makeStage(QStringLiteral("load"), VerifyStage::Status::Failed, finding.message, finding.details,
                       finding.fix));
    } else if (loadsHere) {
        const ProbeRequest request = probeRequest(context, snapshot, subject, options);
        const ProbeRun run = runProbeChild(context, request, environment, options);
        if (run.result) {
            report.probe = *run.result;
            done(loadStage(context, subject, report.probe, report.findings));
            if (hasFinding(report.findings, QStringLiteral("verify.shadowed")) &&
                subject.loadModel == LoadModel::Program)
                report.targetProbe = probeWithFolderFirst(context, subject, request, environment, options);
        } else {
            done(probeEndedStage(context, subject, run, mixed, environment.path, report.findings));
        }
    } else {
        done(makeStage(QStringLiteral("load"), VerifyStage::Status::Skipped,
                       unsafe
                           ? unsafe->message
                           : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not run, on purpose: another system's "
                                                                  "libraries are not loaded on this one."))));
    }

    QElapsedTimer walkTimer;
    walkTimer.start();
    QStringList files;
    for (const QString &library : subject.libraries)
        files.append(context.paths().join(subject.directory, library));
    report.dependencies =
        walkDependencies(context, files, environment.path, subject.loadModel, subject.dllDirectories);
    done(dependencyStage(report.dependencies, context.family() == OsFamily::Windows,
                         double(walkTimer.nsecsElapsed()) / 1e6, report.findings));

    if (report.targetProbe) { // only ever run here
        targetProbeStages(context, subject, cudnnMajor, options, report, done);
    } else if (loadsHere) {
        done(versionStage(subject, report.probe, report, report.findings));
        for (const VerifyStage &stage : gpuStages(report.probe, cudnnMajor, options.gpu, report.findings))
            done(stage);
    } else {
        notLoadedStages(report, unsafe, done);
    }

    frameworkStages(context, snapshot, subject, environment, options, loadsHere, unsafe, report, done);
    report.totalMilliseconds = double(total.nsecsElapsed()) / 1e6;
    qCInfo(lcDetect) << "verify" << subject.directory << (report.passed() ? "passed" : "failed") << "in"
                     << report.totalMilliseconds << "ms";
    return report;
}

} // namespace cudnnsetup
