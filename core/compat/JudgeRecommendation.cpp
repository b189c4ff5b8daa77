// The judge's recommendation: which archive, for which toolkit, with which driver.
#include "compat/Judge.h"

#include <algorithm>

namespace cudnnsetup {

namespace judge {

int Judge::cudaMajorForGpus(int major, const Version &lowest) const
{
    while (major > 0 && lowest.isValid() && m_kb.minimumComputeCapabilityForCuda(major).isValid() &&
           lowest < m_kb.minimumComputeCapabilityForCuda(major))
        --major;
    return major;
}

bool Judge::fitsGpus(const CudnnVariant &variant) const
{
    const Version turing = Version::parse(QStringLiteral("7.5"));
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        Support support = supportOf(variant, gpu.computeCapability);
        for (const CudnnRow &extra : variant.extraRows) {
            if (support != Support::Supported &&
                supportOf(extra, gpu.computeCapability) == Support::Supported)
                support = Support::Supported;
        }
        if (!gpu.computeCapability.isValid())
            continue;
        // Only published support counts for older GPUs: the matrices that dropped Maxwell,
        // Pascal and Volta are not all known, and a borrowed list could wrongly include them.
        if (support != Support::Supported || (variant.derived && gpu.computeCapability < turing))
            return false;
    }
    return true;
}

void Judge::recommend(const std::optional<MatchFacts::Toolkit> &target)
{
    const QString platform = platformFor(m_facts);
    const Version lowest = lowestCc();
    int major = 0;
    if (m_facts.wantedCudaMajor) {
        major = cudaMajorForGpus(*m_facts.wantedCudaMajor, lowest);
    } else if (target) {
        // A toolkit whose CUDA no longer builds for the GPU gets no archive of its own: the one
        // offered is for the CUDA the finding about it names.
        major = cudaMajorForGpus(target->version.major(), lowest);
    } else if (m_maxCuda.isValid()) {
        major = cudaMajorForGpus(m_maxCuda.major(), lowest);
    } else if (lowest.isValid()) {
        major = newestCudaFor(lowest);
    }
    if (major <= 0)
        return;

    // The newest release that fits, unless an older one that fits has an archive for this platform
    // whose SHA-256 the database records: only such a file can be checked, and an install that
    // every program loads (the toolkit, the system PATH) takes no other.
    const CudnnRelease *chosen = nullptr;
    const CudnnVariant *variant = nullptr;
    const QList<CudnnRelease> &releases = m_kb.cudnnReleases();
    for (auto release = releases.crbegin(); release != releases.crend(); ++release) {
        if (m_facts.wantedCudnnMajor && release->version.major() != *m_facts.wantedCudnnMajor)
            continue;
        const CudnnVariant *fitting = release->variant(QString::number(major));
        if (!fitting || !fitsGpus(*fitting))
            continue;
        const bool checkable = m_kb.archiveByFile(archiveFileName(platform, release->version, fitting->cuda));
        if (!chosen || checkable) {
            chosen = &*release;
            variant = fitting;
        }
        if (checkable)
            break;
    }
    if (!chosen)
        return;
    Recommendation recommendation;
    recommendation.platform = platform;
    recommendation.cudnn = chosen->version;
    recommendation.newestRelease = chosen == &*releases.crbegin();
    recommendation.cudaVariant = variant->cuda;
    recommendation.archiveFile = archiveFileName(platform, chosen->version, variant->cuda);
    if (const KnownArchive *known = m_kb.archiveByFile(recommendation.archiveFile)) {
        recommendation.sha256 = known->sha256;
        recommendation.url = known->url;
    }
    if (recommendation.url.isEmpty())
        recommendation.url = redistUrl(platform, chosen->version, recommendation.archiveFile);
    if (target && target->version.major() == major) {
        recommendation.targetToolkit = target;
    } else {
        for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
            if (toolkit.version.major() == major &&
                (!recommendation.targetToolkit || toolkit.version > recommendation.targetToolkit->version))
                recommendation.targetToolkit = toolkit;
        }
    }
    Version minimum = driverMinimum(*variant, m_facts.os);
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        for (const CudnnRow &extra : variant->extraRows) {
            if (supportOf(*variant, gpu.computeCapability) != Support::Supported &&
                supportOf(extra, gpu.computeCapability) == Support::Supported &&
                driverMinimum(extra, m_facts.os) > minimum)
                minimum = driverMinimum(extra, m_facts.os);
        }
    }
    if (recommendation.targetToolkit) {
        const Version toolkitMinimum = lowestDriverFor(recommendation.targetToolkit->version);
        if (toolkitMinimum > minimum)
            minimum = toolkitMinimum;
    }
    recommendation.driverMinimum = minimum;
    recommendation.driverUpdateNeeded = !m_facts.driver.isValid() ||
                                        (minimum.isValid() && m_facts.driver < minimum) ||
                                        (m_maxCuda.isValid() && m_maxCuda.major() < major);
    m_result.recommendation = recommendation;
}

} // namespace judge

} // namespace cudnnsetup
