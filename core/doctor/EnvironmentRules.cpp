// The rules on the driver, the matcher's verdict and the environment programs start in.
#include "doctor/RuleFamilies.h"

#include "compat/KnowledgeBase.h"
#include "install/Zlibwapi.h"
#include "verify/LoadErrors.h"

#include <algorithm>
#include <tuple>

namespace cudnnsetup {

namespace doctorrules {

// ---- #8 CUDNN_STATUS_NOT_INITIALIZED -------------------------------------------------------------

void notInitializedRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.input.verify)
        return;
    const VerifyReport &verify = *facts.input.verify;
    const ProbeGpu &gpu = verify.probe.gpu;
    const int major = int(verify.probe.cudnnVersion.value_or(0) /
                          (verify.probe.cudnnVersion.value_or(0) >= 90000 ? 10000 : 1000));
    const bool notInitialized = gpu.cudnnStatusName == QLatin1String("CUDNN_STATUS_NOT_INITIALIZED") ||
                                (gpu.cudnnStatus && ((major >= 9 && *gpu.cudnnStatus == 1001) ||
                                                     (major == 8 && *gpu.cudnnStatus == 1)));
    if (!notInitialized)
        return;
    const ErrorExplanation explanation = explainCudnnStatus(gpu.cudnnStatus.value_or(1001), major);
    const int builtFor = int(verify.probe.cudnnCudartVersion.value_or(0) / 1000);
    const int runtime = gpu.cudaRuntimeVersion.value_or(0) / 1000;
    const QString details =
        QStringLiteral("cuDNN %1 built for CUDA %2; CUDA runtime %3; driver CUDA %4; stage %5")
            .arg(verify.cudnnVersion)
            .arg(verify.probe.cudnnCudartVersion.value_or(0))
            .arg(gpu.cudaRuntimeVersion.value_or(0))
            .arg(gpu.cudaDriverVersion.value_or(0))
            .arg(gpu.stage);
    const Text message =
        builtFor > 0 && runtime > 0 && builtFor != runtime
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): it is "
                                     "built for CUDA %1, but the program uses the CUDA %2 runtime."))
                  .arg(QString::number(builtFor), QString::number(runtime))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "cuDNN could not start (CUDNN_STATUS_NOT_INITIALIZED): most "
                                     "often the driver is too old for the CUDA runtime, or this "
                                     "cuDNN is built for another CUDA than the program uses."));
    const Text fix =
        !explanation.fix.isEmpty()
            ? explanation.fix
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use the cuDNN archive built for the CUDA major "
                                                   "the program uses, and update the driver if the "
                                                   "check reports it too old."));
    out.append(
        diagnosis(Finding::error(QStringLiteral("doctor.cudnn-not-initialized"), message, details, fix), 8));
}

// ---- #9, #14, #15: the matcher's verdict, and the probe's CUDA error -------------------------------

void matcherRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const QList<std::tuple<QString, QString, int>> adopted = {
        {QStringLiteral("match.torch-cpu-only"), QStringLiteral("doctor.torch-cpu-only"), 9},
        {QStringLiteral("match.tensorflow-windows"), QStringLiteral("doctor.tensorflow-windows"), 14},
        {QStringLiteral("match.jax-windows"), QStringLiteral("doctor.jax-windows"), 14},
        {QStringLiteral("match.driver-too-old-for-toolkit"), QStringLiteral("doctor.driver-too-old"), 15},
        {QStringLiteral("match.torch-cuda-newer-than-driver"),
         QStringLiteral("doctor.driver-too-old-for-torch"), 15},
        // Worth knowing, not wrong: who uses only PyTorch may need no system-wide cuDNN at all, and
        // a database older than the machine may judge it out of date.
        {QStringLiteral("match.framework-brings-cudnn"), QStringLiteral("doctor.framework-brings-cudnn"), 0},
        {QStringLiteral("match.database-older"), QStringLiteral("doctor.database-older"), 0},
    };
    bool driverTold = false;
    for (const Finding &finding : facts.match.findings) {
        for (const auto &[matchId, doctorId, mode] : adopted) {
            if (finding.id != matchId)
                continue;
            out.append(diagnosis(renamed(finding, doctorId), mode));
            driverTold = driverTold || mode == 15;
        }
    }
    if (driverTold || !facts.input.verify)
        return;
    const ProbeGpu &gpu = facts.input.verify->probe.gpu;
    if (gpu.cudaError != 35 && gpu.cudaErrorName != QLatin1String("cudaErrorInsufficientDriver"))
        return;
    // The runtime calls a missing driver "insufficient" too; cudaDriverGetVersion tells them apart.
    if (gpu.cudaDriverVersion == 0) {
        if (facts.snapshot.gpus.isEmpty()) {
            out.append(diagnosis(Finding::info(QStringLiteral("doctor.no-driver"),
                                               Text(QT_TRANSLATE_NOOP(
                                                   "cudnnsetup", "This machine has no NVIDIA GPU or driver: "
                                                                 "cuDNN can be installed and loaded, but not "
                                                                 "run here.")),
                                               gpu.reason),
                                 15));
        } else {
            out.append(diagnosis(
                Finding::error(
                    QStringLiteral("doctor.no-driver"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has no working NVIDIA driver."))
                        .arg(facts.snapshot.gpus.first().name),
                    gpu.reason,
                    Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup",
                        "Install the newest NVIDIA driver for this GPU, then run the check again."))),
                15));
        }
        return;
    }
    // The matcher's own words for "this driver against that runtime", when the driver is known.
    const int runtime = gpu.cudaRuntimeVersion.value_or(0);
    const Version runtimeVersion = Version::fromParts({runtime / 1000, (runtime % 1000) / 10});
    MatchFacts matchFacts = MatchFacts::fromSnapshot(facts.snapshot);
    matchFacts.targetToolkit = MatchFacts::Toolkit{runtimeVersion, QString()};
    const MatchResult judged = match(matchFacts, facts.database);
    if (const Finding *tooOld = judged.finding(QStringLiteral("match.driver-too-old-for-toolkit"))) {
        out.append(diagnosis(renamed(*tooOld, QStringLiteral("doctor.driver-too-old")), 15));
        return;
    }
    const Version minimum = facts.database.toolkitMinimumDriver(facts.context.family(), runtimeVersion);
    const ErrorExplanation explanation = explainCudaError(35);
    out.append(diagnosis(
        Finding::error(
            QStringLiteral("doctor.driver-too-old"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The driver is too old for the CUDA %1 runtime the program "
                                   "loaded (cudaErrorInsufficientDriver): it supports CUDA up to %2."))
                .arg(runtime > 0 ? runtimeVersion.toString() : QStringLiteral("?"),
                     gpu.cudaDriverVersion ? Version::fromParts({*gpu.cudaDriverVersion / 1000,
                                                                 (*gpu.cudaDriverVersion % 1000) / 10})
                                                 .toString()
                                           : QStringLiteral("?")),
            QStringLiteral("%1: %2").arg(explanation.name, gpu.reason),
            minimum.isValid()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                      .arg(minimum.toString())
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Update the driver to the newest one NVIDIA offers for this GPU."))),
        15));
}

// ---- #13 VirtualStore ----------------------------------------------------------------------------

void virtualStoreRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (!facts.windows)
        return;
    const EnvironmentStore &environment = facts.context.environment();
    const SystemPaths &paths = facts.paths();
    const FileSystem &files = facts.context.files();
    QString local = environment.value(QStringLiteral("LOCALAPPDATA"));
    if (local.isEmpty() && !environment.value(QStringLiteral("USERPROFILE")).isEmpty())
        local =
            paths.join(environment.value(QStringLiteral("USERPROFILE")), QStringLiteral("AppData\\Local"));
    if (local.isEmpty())
        return;
    const QString store = paths.join(local, QStringLiteral("VirtualStore"));
    // Breadth first, bounded: a VirtualStore holds what old programs wrote, which can be a lot.
    QStringList folders{store};
    for (int i = 0; i < folders.size() && i < 5000; ++i) {
        const QString folder = folders.at(i);
        const QStringList found = files.entries(
            folder, {QStringLiteral("cudnn*.dll"), QLatin1String(kZlibwapiName)}, FileSystem::Files);
        if (!found.isEmpty()) {
            const QString original = QStringLiteral("C:\\") + folder.mid(store.size() + 1);
            out.append(diagnosis(
                Finding::warning(
                    QStringLiteral("doctor.virtualstore"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 holds cuDNN files (%2) that Windows "
                                                         "redirected there from %3: only this user's "
                                                         "programs without a manifest see them; every "
                                                         "other program sees %3 without them."))
                        .arg(folder, Text::list(found), original),
                    QStringLiteral("UAC file virtualisation"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install cuDNN again with administrator rights "
                                                         "(cuDNN Setup asks for them), then delete %1."))
                        .arg(folder)),
                13));
        }
        for (const QString &sub : files.entries(folder, {}, FileSystem::Dirs))
            folders.append(paths.join(folder, sub));
    }
}

// ---- The environment of programs: CUDA_VISIBLE_DEVICES, a PATH that changed since they started ----

void environmentRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    const EnvironmentInfo &info = facts.snapshot.environment;
    const QList<GpuInfo> &gpus = facts.snapshot.gpus;
    if (!info.cudaVisibleDevices.trimmed().isEmpty() && !gpus.isEmpty()) {
        QStringList unknown;
        for (const QString &raw : info.cudaVisibleDevices.split(QLatin1Char(','))) {
            const QString device = raw.trimmed();
            bool isIndex = false;
            const int index = device.toInt(&isIndex);
            if (isIndex && index < 0)
                break; // -1 hides every GPU on purpose (the detector says so)
            const bool exists = isIndex ? index < gpus.size()
                                        : std::any_of(gpus.cbegin(), gpus.cend(), [&](const GpuInfo &gpu) {
                                              return !gpu.uuid.isEmpty() && !device.isEmpty() &&
                                                     gpu.uuid.startsWith(device, Qt::CaseInsensitive);
                                          });
            if (!exists)
                unknown.append(device);
        }
        if (!unknown.isEmpty()) {
            out.append(diagnosis(
                Finding::warning(
                    QStringLiteral("doctor.cuda-visible-devices-unknown-gpu"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA_VISIBLE_DEVICES names %1, but this "
                                                         "machine has no such GPU (it has %2): CUDA "
                                                         "ignores that entry and every one after it."))
                        .arg(Text::list(unknown), QString::number(gpus.size())),
                    QStringLiteral("CUDA_VISIBLE_DEVICES=%1").arg(info.cudaVisibleDevices),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Set CUDA_VISIBLE_DEVICES to GPU numbers from "
                                                         "0 to %1, or remove it."))
                        .arg(QString::number(gpus.size() - 1))),
                0));
        }
    }
    if (info.pathStale == true) {
        out.append(diagnosis(
            Finding::info(
                QStringLiteral("doctor.restart-programs"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "PATH has changed: terminals and IDEs opened before "
                                                     "the change, and the programs they start, still "
                                                     "use the old PATH.")),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Close the terminal, IDE or Jupyter and open "
                                                     "them again; sign out and in if a program "
                                                     "started from the desktop still does not see "
                                                     "the change."))),
            0));
    }
}

// ---- WSL 2: the Windows driver's libcuda --------------------------------------------------------

// Under WSL 2 the Windows driver lends its libcuda through /usr/lib/wsl/lib: a Linux driver
// installed inside hides it, and a loader cache that lacks the folder does not find it.
void wslRules(const DoctorFacts &facts, QList<Diagnosis> &out)
{
    if (facts.windows || !facts.snapshot.os.wsl || facts.snapshot.os.wsl->version != 2)
        return;
    const FileSystem &files = facts.context.files();
    const SystemPaths &paths = facts.paths();
    const QString wslLib = QStringLiteral("/usr/lib/wsl/lib");
    QStringList linuxDriver;
    for (const QString &folder :
         {QStringLiteral("/usr/lib/x86_64-linux-gnu"), QStringLiteral("/lib/x86_64-linux-gnu"),
          QStringLiteral("/usr/lib64"), QStringLiteral("/usr/lib")}) {
        for (const QString &name :
             files.entries(folder, {QStringLiteral("libcuda.so*")}, FileSystem::Files)) {
            const QString canonical = files.canonical(paths.join(folder, name));
            if (!canonical.isEmpty() && !paths.startsWith(canonical, wslLib) &&
                !linuxDriver.contains(canonical))
                linuxDriver.append(canonical);
        }
    }
    if (!linuxDriver.isEmpty()) {
        out.append(diagnosis(
            Finding::error(
                QStringLiteral("doctor.wsl-linux-driver"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "A Linux NVIDIA driver is installed inside WSL (%1): programs load its "
                         "libcuda instead of the Windows driver's in %2, and CUDA finds no GPU."))
                    .arg(Text::list(linuxDriver), Text::verbatim(wslLib)),
                linuxDriver.join(QLatin1Char('\n')),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Remove the Linux driver from WSL (sudo apt-get remove --purge the "
                                       "nvidia-driver and libnvidia-compute packages), keep only the Windows "
                                       "driver, then run sudo ldconfig."))),
            0));
    }
    const QString libcuda = paths.join(wslLib, QStringLiteral("libcuda.so.1"));
    if (!files.isFile(libcuda))
        return;
    const bool notALink = files.canonical(libcuda) == libcuda;
    const Expected<QByteArray> cache = files.read(QStringLiteral("/etc/ld.so.cache"), 64 * 1024 * 1024);
    const bool onLibraryPath = std::any_of(facts.snapshot.environment.libraryPath.cbegin(),
                                           facts.snapshot.environment.libraryPath.cend(),
                                           [&](const QString &entry) { return paths.equal(entry, wslLib); });
    if (cache && !cache->contains(libcuda.toUtf8()) && !onLibraryPath) {
        out.append(diagnosis(
            Finding::error(
                QStringLiteral("doctor.wsl-libcuda-not-cached"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The loader's cache (/etc/ld.so.cache) does not name %1, and "
                                       "LD_LIBRARY_PATH does not either: programs under WSL do not find the "
                                       "Windows driver's libcuda.so.1."))
                    .arg(Text::verbatim(wslLib)),
                notALink ? QStringLiteral("%1 is a file, not a symbolic link").arg(libcuda) : libcuda,
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Name the folder in a file of /etc/ld.so.conf.d (echo %1 | sudo tee "
                                       "/etc/ld.so.conf.d/ld.wsl.conf), then run sudo ldconfig."))
                    .arg(Text::verbatim(wslLib))),
            0));
    } else if (notALink) {
        out.append(diagnosis(
            Finding::info(
                QStringLiteral("doctor.wsl-libcuda-not-a-link"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "ldconfig warns that %1 is not a symbolic link: WSL ships it "
                                       "as a file, and the loader finds it all the same."))
                    .arg(Text::verbatim(libcuda)),
                QString(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Nothing to do: the warning is harmless."))),
            0));
    }
}

} // namespace doctorrules

} // namespace cudnnsetup
