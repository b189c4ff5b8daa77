#include "compat/Judge.h"

#include "compat/ArchiveName.h"
#include "detect/SystemSnapshot.h"

#include <QJsonValue>

#include <algorithm>

namespace cudnnsetup {

using judge::Judge;

namespace judge {

QString text(const Version &version)
{
    return version.isValid() ? version.toString() : QStringLiteral("?");
}

QString platformFor(const MatchFacts &facts)
{
    if (facts.os == OsFamily::Windows)
        return QStringLiteral("windows-x86_64");
    return facts.arch == QLatin1String("arm64") ? QStringLiteral("linux-sbsa")
                                                : QStringLiteral("linux-x86_64");
}

int cudaMajorOf(const QString &cudaVariant)
{
    return cudaVariant.section(QLatin1Char('.'), 0, 0).toInt();
}

QString archiveFileName(const QString &platform, const Version &cudnn, const QString &cudaVariant)
{
    ArchiveName name;
    name.platform = platform;
    name.cudnn = cudnn;
    name.cudaVariant = cudaVariant;
    name.extension =
        platform.startsWith(QLatin1String("windows")) ? QStringLiteral("zip") : QStringLiteral("tar.xz");
    return name.canonicalFileName();
}

QString redistUrl(const QString &platform, const Version &cudnn, const QString &fileName)
{
    if (cudnn < Version::parse(QStringLiteral("8.5.0")) ||
        (platform != QLatin1String("linux-x86_64") && platform != QLatin1String("windows-x86_64")))
        return {};
    return QStringLiteral("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/%1/%2")
        .arg(platform, fileName);
}

Text gpuText(const KnowledgeBase &kb, const MatchFacts::Gpu &gpu)
{
    const QString architecture = kb.architectureName(gpu.computeCapability);
    const Text name =
        gpu.name.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")) : Text::verbatim(gpu.name);
    if (architecture.isEmpty())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (compute capability %2)"))
            .arg(name, text(gpu.computeCapability));
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (%2, compute capability %3)"))
        .arg(name, architecture, text(gpu.computeCapability));
}

Support supportOf(const CudnnRow &row, const Version &cc)
{
    if (!cc.isValid())
        return Support::Unknown;
    if (!row.computeCapabilities.isEmpty()) {
        for (const Version &listed : row.computeCapabilities) {
            if (listed.major() == cc.major() && listed.minor() <= cc.minor())
                return Support::Supported;
        }
        const auto highest =
            std::max_element(row.computeCapabilities.cbegin(), row.computeCapabilities.cend());
        return cc > *highest ? Support::NewerThanListed : Support::Unsupported;
    }
    if (row.minimumComputeCapability.isValid())
        return cc >= row.minimumComputeCapability ? Support::Supported : Support::Unsupported;
    return Support::Unknown;
}

Version driverMinimum(const CudnnRow &row, OsFamily os)
{
    return os == OsFamily::Windows ? row.windowsDriverMin : row.linuxDriverMin;
}

Judge::Judge(const MatchFacts &facts, const KnowledgeBase &kb)
    : m_facts(facts)
    , m_kb(kb)
{
    m_maxCuda = facts.driverMaxCuda.isValid() ? facts.driverMaxCuda : kb.maxCudaForDriver(facts.driver);
    for (MatchFacts::Gpu gpu : facts.gpus) {
        if (!gpu.computeCapability.isValid() && !gpu.name.isEmpty()) {
            if (const auto cc = kb.computeCapabilityForGpu(gpu.name))
                gpu.computeCapability = *cc;
        }
        m_gpus.append(gpu);
    }
}

MatchResult Judge::run()
{
    if (m_facts.os == OsFamily::Windows && m_facts.arch == QLatin1String("arm64")) {
        add(Finding::error(
            QStringLiteral("match.windows-arm64"),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "NVIDIA publishes cuDNN for Windows only for x64 PCs; this is Windows on ARM.")),
            QStringLiteral("os windows, arch arm64"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN."))));
        return m_result;
    }
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        const GpuPattern *known = m_kb.gpu(gpu.name);
        if (!known || !known->jetson)
            continue;
        add(Finding::error(
            QStringLiteral("match.jetson"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "%1 is a Jetson module: its CUDA and cuDNN come with NVIDIA JetPack, "
                                   "not from the cuDNN archives for PCs."))
                .arg(gpu.name),
            QStringLiteral("jetson %1").arg(gpu.name),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Install or upgrade JetPack (with NVIDIA SDK Manager, or with apt on "
                                   "the device): it brings the cuDNN that fits the module."))));
        return m_result;
    }
    if (m_facts.wsl2) {
        add(Finding::info(
            QStringLiteral("match.wsl2"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Under WSL 2, cuDNN goes inside this Linux distribution: use NVIDIA's "
                                   "Linux archive (cudnn-linux-x86_64-…-archive.tar.xz), not the Windows "
                                   "one. The driver stays the Windows driver.")),
            QStringLiteral("wsl 2")));
    }
    checkDatabaseAge();
    checkGpus();
    checkDriverPresent();
    const std::optional<MatchFacts::Toolkit> target = chooseTarget();
    if (target) {
        checkToolkitDriver(*target);
        checkGpusAgainstCuda(target->version.major());
    } else {
        checkUnusableToolkits();
    }
    if (m_facts.archive)
        checkArchive(*m_facts.archive, target);
    else
        checkInstalledZlib();
    checkPythons();
    recommend(target);
    return m_result;
}

Version Judge::lowestCc() const
{
    Version lowest;
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        if (gpu.computeCapability.isValid() && (!lowest.isValid() || gpu.computeCapability < lowest))
            lowest = gpu.computeCapability;
    }
    return lowest;
}

void Judge::checkGpus()
{
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        if (gpu.computeCapability.isValid())
            continue;
        const Text name =
            gpu.name.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")) : Text::verbatim(gpu.name);
        add(Finding::warning(
            QStringLiteral("match.gpu-cannot-tell"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Cannot tell whether %1 can run CUDA and cuDNN: its compute capability "
                                   "is not known (NVIDIA's table in the compatibility database does not "
                                   "list this name)."))
                .arg(name),
            QStringLiteral("gpu \"%1\", database %2").arg(gpu.name, m_kb.version()),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Look the GPU up on developer.nvidia.com/cuda-gpus and "
                                                 "run the check again with --sm X.Y."))));
    }
}

void Judge::checkDatabaseAge()
{
    const Version known = m_kb.newestKnownCuda();
    Version newer;
    if (m_facts.driverMaxCuda.isValid() && m_facts.driverMaxCuda.truncated(2) > known)
        newer = m_facts.driverMaxCuda.truncated(2);
    for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
        if (toolkit.version.truncated(2) > known && toolkit.version.truncated(2) > newer)
            newer = toolkit.version.truncated(2);
    }
    if (!newer.isValid())
        return;
    add(Finding::warning(
        QStringLiteral("match.database-older"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "This PC has CUDA %1, newer than anything the compatibility database "
                               "(%2, of %3) knows: it stops at CUDA %4, so the verdicts about CUDA %1 "
                               "may be out of date."))
            .arg(text(newer), m_kb.version(), m_kb.date(), text(known)),
        QStringLiteral("newest known CUDA %1").arg(text(known)),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Put a newer cudnn-compat.json beside the program (your lab's IT or the "
                               "cuDNN Setup project publishes it), or give one with --compat-db."))));
}

} // namespace judge

MatchFacts MatchFacts::fromSnapshot(const SystemSnapshot &snapshot)
{
    MatchFacts facts;
    facts.os = snapshot.os.family == QLatin1String("linux") ? OsFamily::Linux : OsFamily::Windows;
    facts.arch = snapshot.os.arch.isEmpty() ? QStringLiteral("x64") : snapshot.os.arch;
    facts.wsl2 = snapshot.os.wsl && snapshot.os.wsl->version == 2;
    if (snapshot.driver && snapshot.driver->working) {
        facts.driver = Version::parse(snapshot.driver->version);
        facts.driverMaxCuda = Version::parse(snapshot.driver->maxCuda);
    }
    facts.driverWorking = !snapshot.driver || snapshot.driver->working;
    for (const GpuInfo &gpu : snapshot.gpus)
        facts.gpus.append({gpu.name, Version::parse(gpu.computeCapability)});
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits)
        facts.toolkits.append({Version::parse(toolkit.version), toolkit.path});
    for (const PythonInstall &python : snapshot.pythons) {
        Python entry;
        entry.path = python.path;
        entry.bits = python.bits;
        entry.hasTorch = python.torch.has_value() && !python.torch->version.isEmpty();
        if (python.torch) {
            entry.torchVersion = python.torch->version;
            entry.torchCuda = Version::parse(python.torch->cuda);
            entry.torchCudnn = Version::parse(python.torch->cudnn);
            entry.torchCudnnFile = python.torch->cudnnLoadedFrom;
        }
        entry.tensorflow = Version::parse(python.tensorflow.section(QLatin1Char('.'), 0, 2));
        for (const FrameworkInfo &framework : python.frameworks) {
            if (framework.name == QLatin1String("jax"))
                entry.jax = framework.version;
        }
        facts.pythons.append(entry);
    }
    for (const CudnnCopy &copy : snapshot.cudnn) {
        if (copy.loadOrder == 1)
            facts.installedCudnn.append({copy.path, Version::parse(copy.version)});
    }
    // Only a Windows system that was looked at can lack zlibwapi.dll; elsewhere zlib is a system library.
    if (facts.os == OsFamily::Windows)
        facts.zlibwapi = snapshot.zlibwapi;
    return facts;
}

QJsonObject Recommendation::toJson() const
{
    const auto str = [](const QString &value) { return value.isEmpty() ? QJsonValue() : QJsonValue(value); };
    QJsonObject object{{QStringLiteral("archive"), archiveFile},
                       {QStringLiteral("platform"), platform},
                       {QStringLiteral("cudnn"), cudnn.toString()},
                       {QStringLiteral("cudaVariant"), cudaVariant},
                       {QStringLiteral("sha256"), str(sha256)},
                       {QStringLiteral("url"), str(url)},
                       {QStringLiteral("newestRelease"), newestRelease},
                       {QStringLiteral("driverMinimum"),
                        driverMinimum.isValid() ? QJsonValue(driverMinimum.toString()) : QJsonValue()},
                       {QStringLiteral("driverUpdateNeeded"), driverUpdateNeeded}};
    if (targetToolkit) {
        object.insert(QStringLiteral("targetToolkit"),
                      QJsonObject{{QStringLiteral("version"), targetToolkit->version.toString()},
                                  {QStringLiteral("path"), str(targetToolkit->path)}});
    } else {
        object.insert(QStringLiteral("targetToolkit"), QJsonValue());
    }
    return object;
}

bool MatchResult::leavesVerdictOpen(const Finding &finding)
{
    return finding.id == QLatin1String("match.gpu-cannot-tell") ||
           finding.id == QLatin1String("match.cudnn-cannot-tell");
}

MatchResult::Verdict MatchResult::verdict() const
{
    if (hasErrors(findings))
        return Verdict::Incompatible;
    for (const Finding &finding : findings) {
        if (leavesVerdictOpen(finding))
            return Verdict::CannotTell;
    }
    return Verdict::Compatible;
}

const Finding *MatchResult::finding(const QString &id) const
{
    for (const Finding &candidate : findings) {
        if (candidate.id == id)
            return &candidate;
    }
    return nullptr;
}

MatchResult match(const MatchFacts &facts, const KnowledgeBase &kb)
{
    return Judge(facts, kb).run();
}

} // namespace cudnnsetup
