// The judge on the driver and the CUDA toolkits.
#include "compat/Judge.h"

#include <algorithm>

namespace cudnnsetup {

namespace judge {

void Judge::checkDriverPresent()
{
    if (m_facts.driver.isValid())
        return;
    add(Finding::error(
        QStringLiteral("match.driver-missing"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "There is no working NVIDIA driver, so no CUDA program can run.")),
        QString(),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Install the current NVIDIA driver for this GPU from nvidia.com/drivers."))));
}

std::optional<MatchFacts::Toolkit> Judge::chooseTarget() const
{
    if (m_facts.targetToolkit)
        return m_facts.targetToolkit;
    std::optional<MatchFacts::Toolkit> best;
    for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
        if (!toolkit.version.isValid())
            continue;
        if (m_facts.archive && toolkit.version.major() != cudaMajorOf(m_facts.archive->cudaVariant))
            continue;
        if (m_maxCuda.isValid() && toolkit.version.major() > m_maxCuda.major())
            continue;
        if (!best || toolkit.version > best->version)
            best = toolkit;
    }
    return best;
}

Version Judge::minorCompatFloor(int cudaMajor) const
{
    const MinorCompat *compat = m_kb.minorCompat(cudaMajor);
    if (!compat)
        return {};
    return m_facts.os == OsFamily::Windows ? compat->windowsMin : compat->linuxMin;
}

Version Judge::lowestDriverFor(const Version &toolkit) const
{
    const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit);
    const Version floor = minorCompatFloor(toolkit.major());
    if (floor.isValid() && (!exact.isValid() || floor < exact))
        return floor;
    return exact;
}

Version Judge::driverToAdvise(const Version &toolkit) const
{
    const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit);
    return exact.isValid() ? exact : minorCompatFloor(toolkit.major());
}

void Judge::checkToolkitDriver(const MatchFacts::Toolkit &toolkit)
{
    if (!m_facts.driver.isValid())
        return;
    const int major = toolkit.version.major();
    const Version floor = minorCompatFloor(major);
    const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit.version);
    const QString details =
        QStringLiteral("driver %1, reports CUDA %2; toolkit %3; minor-version minimum %4, release minimum %5")
            .arg(text(m_facts.driver), text(m_maxCuda), text(toolkit.version), text(floor), text(exact));
    const Version lowest = lowestDriverFor(toolkit.version);
    if (lowest.isValid() && m_facts.driver < lowest) {
        const Version wanted = driverToAdvise(toolkit.version);
        add(Finding::error(
            QStringLiteral("match.driver-too-old-for-toolkit"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Driver %1 is too old for CUDA %2, which needs driver %3 or newer."))
                .arg(text(m_facts.driver), text(toolkit.version), text(lowest)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer.")).arg(text(wanted))));
        return;
    }
    if (m_maxCuda.isValid() && m_maxCuda.major() < major) {
        add(Finding::error(
            QStringLiteral("match.driver-too-old-for-toolkit"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Driver %1 supports CUDA up to %2, so it cannot run CUDA %3."))
                .arg(text(m_facts.driver), text(m_maxCuda), text(toolkit.version)),
            details, branchFix(toolkit.version)));
        return;
    }
    if (!lowest.isValid()) {
        // NVIDIA prints no minimum here (CUDA 13 on Windows): unknown, never "fine" — but a note,
        // not a warning, since nothing can be done about it (the CUDA the driver runs is judged
        // on its own above).
        add(Finding::info(
            QStringLiteral("match.driver-minimum-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "NVIDIA publishes no minimum driver for CUDA %1 on this system, so "
                                   "driver %2 cannot be checked against it (the driver reports CUDA %3)."))
                .arg(text(toolkit.version), text(m_facts.driver), text(m_maxCuda)),
            details));
        return;
    }
    if (exact.isValid() && m_facts.driver < exact) {
        add(Finding::info(
            QStringLiteral("match.driver-minor-version-compatibility"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Driver %1 runs CUDA %2 through minor-version compatibility (the "
                                   "toolkit's own minimum is %3); code that needs newer driver features, "
                                   "such as compiling newer PTX at run time, can fail."))
                .arg(text(m_facts.driver), text(toolkit.version), text(exact)),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Update the driver to %1 or newer to use every feature of this toolkit."))
                .arg(text(exact))));
    }
}

void Judge::checkUnusableToolkits()
{
    if (!m_maxCuda.isValid())
        return;
    for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
        if (!toolkit.version.isValid() || toolkit.version.major() <= m_maxCuda.major())
            continue;
        add(Finding::warning(
            QStringLiteral("match.toolkit-needs-newer-driver"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA %1 toolkit in %2 cannot be used: driver %3 "
                                                 "runs CUDA up to %4."))
                .arg(text(toolkit.version), toolkit.path, text(m_facts.driver), text(m_maxCuda)),
            QString(), branchFix(toolkit.version)));
    }
}

Text Judge::branchFix(const Version &cuda) const
{
    Version wanted = driverToAdvise(cuda);
    if (const int branch = m_kb.firstBranchSupporting(cuda); !wanted.isValid() && branch > 0)
        wanted = Version::parse(QStringLiteral("%1.00").arg(branch));
    if (wanted.isValid())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer.")).arg(text(wanted));
    return Text(
        QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to the newest one NVIDIA offers for this GPU."));
}

void Judge::checkGpusAgainstCuda(int cudaMajor)
{
    const Version minimum = m_kb.minimumComputeCapabilityForCuda(cudaMajor);
    if (!minimum.isValid())
        return;
    for (const MatchFacts::Gpu &gpu : m_gpus) {
        if (!gpu.computeCapability.isValid() || gpu.computeCapability >= minimum)
            continue;
        add(Finding::error(
            QStringLiteral("match.gpu-unsupported-by-cuda"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "CUDA %1 no longer supports %2: it needs compute capability %3 or newer."))
                .arg(cudaMajor)
                .arg(gpuText(m_kb, gpu))
                .arg(text(minimum)),
            QString(), newestCudaFix(gpu.computeCapability)));
    }
}

int Judge::newestCudaFor(const Version &cc) const
{
    for (int major = 20; major >= 9; --major) {
        const Version minimum = m_kb.minimumComputeCapabilityForCuda(major);
        if (minimum.isValid() && cc >= minimum)
            return major;
    }
    return 0;
}

Text Judge::newestCudaFix(const Version &cc) const
{
    const int major = newestCudaFor(cc);
    if (major > 0)
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use CUDA %1 and the cuDNN archive for CUDA %1, the "
                                                    "newest that still support this GPU."))
            .arg(major);
    return {};
}

} // namespace judge

} // namespace cudnnsetup
