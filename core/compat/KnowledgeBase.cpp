#include "compat/KnowledgeBase.h"

#include "common/Logging.h"

#include <QFile>

namespace cudnnsetup {

const CudnnVariant *CudnnRelease::variant(const QString &cuda) const
{
    for (const CudnnVariant &candidate : variants) {
        if (candidate.cuda == cuda)
            return &candidate;
    }
    return nullptr;
}

const CudnnVariant *CudnnRelease::variantForCudaMajor(int major) const
{
    for (const CudnnVariant &candidate : variants) {
        if (candidate.cudaMajor() == major)
            return &candidate;
    }
    return nullptr;
}

const KnowledgeBase &KnowledgeBase::embedded()
{
    static const KnowledgeBase kb = [] {
        QFile file(QStringLiteral(":/compat/cudnn-compat.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("the embedded compatibility database is missing");
        const auto parsed = parse(file.readAll());
        if (!parsed)
            qFatal("the embedded compatibility database is invalid: %s", qPrintable(parsed.error().details));
        return parsed.value();
    }();
    return kb;
}

Version KnowledgeBase::toolkitMinimumDriver(OsFamily family, const Version &toolkit) const
{
    const ToolkitDriver *best = nullptr;
    for (const ToolkitDriver &entry : m_toolkits) {
        if (entry.version.truncated(2) != toolkit.truncated(2))
            continue;
        // The exact update when known; otherwise the GA (the lowest update of that major.minor).
        if (toolkit.size() >= 3 && entry.version == toolkit) {
            best = &entry;
            break;
        }
        if (!best || entry.version < best->version)
            best = &entry;
    }
    if (!best)
        return {};
    return family == OsFamily::Windows ? best->windowsMin : best->linuxMin;
}

const MinorCompat *KnowledgeBase::minorCompat(int cudaMajor) const
{
    for (const MinorCompat &entry : m_minorCompat) {
        if (entry.cudaMajor == cudaMajor)
            return &entry;
    }
    return nullptr;
}

int KnowledgeBase::firstBranchSupporting(const Version &cuda) const
{
    for (const DriverBranch &branch : m_branches) {
        if (branch.maxCuda >= cuda.truncated(2))
            return branch.branch;
    }
    return 0;
}

Version KnowledgeBase::cudaForPtxIsa(const Version &isa) const
{
    for (const auto &[ptx, cuda] : m_ptxIsa) {
        if (ptx == isa.truncated(2))
            return cuda;
    }
    return {};
}

Version KnowledgeBase::newestKnownCuda() const
{
    Version newest;
    for (const ToolkitDriver &toolkit : m_toolkits) {
        if (!newest.isValid() || toolkit.version.truncated(2) > newest)
            newest = toolkit.version.truncated(2);
    }
    return newest;
}

Version KnowledgeBase::maxCudaForDriver(const Version &driver) const
{
    if (!driver.isValid())
        return {};
    const DriverBranch *found = nullptr;
    for (const DriverBranch &branch : m_branches) {
        if (branch.branch <= driver.major())
            found = &branch;
    }
    // A driver newer than every branch listed supports at least what the newest one does.
    return found ? found->maxCuda : Version();
}

const CudnnRelease *KnowledgeBase::cudnnRelease(const Version &version) const
{
    for (const CudnnRelease &release : m_releases) {
        if (release.version == version || (version.size() == 3 && release.version.truncated(3) == version))
            return &release;
    }
    return nullptr;
}

const GpuPattern *KnowledgeBase::gpu(const QString &name) const
{
    QString normalized = name.simplified();
    normalized.remove(QStringLiteral("(TM)"), Qt::CaseInsensitive);
    normalized.remove(QStringLiteral("(R)"), Qt::CaseInsensitive);
    normalized = normalized.simplified();
    if (normalized.startsWith(QLatin1String("NVIDIA "), Qt::CaseInsensitive))
        normalized = normalized.mid(7);
    bool stripped = true;
    while (stripped) {
        stripped = false;
        for (const QString &suffix : m_gpuSuffixes) {
            if (normalized.endsWith(suffix, Qt::CaseInsensitive)) {
                normalized.chop(suffix.size());
                normalized = normalized.trimmed();
                stripped = true;
            }
        }
    }
    for (const GpuPattern &pattern : m_gpus) {
        if (pattern.pattern.match(normalized).hasMatch())
            return &pattern;
    }
    return nullptr;
}

std::optional<Version> KnowledgeBase::computeCapabilityForGpu(const QString &name) const
{
    if (const GpuPattern *found = gpu(name))
        return found->computeCapability;
    return std::nullopt;
}

QString KnowledgeBase::architectureName(const Version &computeCapability) const
{
    for (const auto &entry : m_architectures) {
        if (entry.first == computeCapability)
            return entry.second;
    }
    return {};
}

Version KnowledgeBase::minimumComputeCapabilityForCuda(int cudaMajor) const
{
    return m_cudaMinimumCc.value(cudaMajor);
}

} // namespace cudnnsetup
