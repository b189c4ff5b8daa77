// The judge on the archive: its release, variant, tested range, GPUs and zlibwapi.dll.
#include "compat/Judge.h"

#include <algorithm>

namespace cudnnsetup {

namespace judge {

void Judge::checkArchive(const MatchFacts::Archive &archive, const std::optional<MatchFacts::Toolkit> &target)
{
    const QString platform = platformFor(m_facts);
    if (!archive.platform.isEmpty() && archive.platform != platform) {
        add(Finding::error(
            QStringLiteral("match.archive-platform"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "This cuDNN archive is built for %1, but this system needs %2."))
                .arg(archive.platform, platform),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the %1 archive instead.")).arg(platform)));
    }
    const int archiveMajor = cudaMajorOf(archive.cudaVariant);
    const CudnnRelease *release = m_kb.cudnnRelease(archive.cudnn);
    if (!release) {
        add(Finding::warning(
            QStringLiteral("match.cudnn-unknown-release"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 is not in the compatibility database (version "
                                                 "%2), so only its CUDA major can be checked."))
                .arg(text(archive.cudnn), m_kb.version()),
            QString(),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "Use a newer compatibility database (--compat-db) if this release is newer than it."))));
    }
    if (target && target->version.major() != archiveMajor) {
        const QString wanted =
            archiveFileName(platform, archive.cudnn, QString::number(target->version.major()));
        add(Finding::error(
            QStringLiteral("match.cuda-major-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "cuDNN %1 for CUDA %2 does not work with the CUDA %3 toolkit."))
                .arg(text(archive.cudnn), archive.cudaVariant, text(target->version)),
            target->path, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download %1 instead.")).arg(wanted)));
    }
    if (!target)
        checkSomeToolkitFits(archive, archiveMajor, platform, release);
    if (m_maxCuda.isValid() && archiveMajor > m_maxCuda.major()) {
        add(Finding::error(
            QStringLiteral("match.driver-too-old-for-cudnn"),
            Text(QT_TRANSLATE_NOOP(
                     "cudnnsetup",
                     "Driver %1 supports CUDA up to %2, so it cannot run cuDNN built for CUDA %3."))
                .arg(text(m_facts.driver), text(m_maxCuda), archive.cudaVariant),
            QString(), branchFix(Version::parse(QStringLiteral("%1.0").arg(archiveMajor)))));
    }
    const CudnnVariant *variant = release ? release->variant(archive.cudaVariant) : nullptr;
    if (!variant && release)
        variant = release->variantForCudaMajor(archiveMajor);
    if (variant)
        checkVariant(*release, *variant, target);
    checkZlib(archive.cudnn,
              archive.platform.startsWith(QLatin1String("windows")) || m_facts.os == OsFamily::Windows,
              QStringLiteral("cuDNN %1").arg(text(archive.cudnn)));
}

void Judge::checkSomeToolkitFits(const MatchFacts::Archive &archive, int archiveMajor,
                                 const QString &platform, const CudnnRelease *release)
{
    std::optional<MatchFacts::Toolkit> newest;
    std::optional<MatchFacts::Toolkit> newestWithVariant;
    for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
        if (!toolkit.version.isValid())
            continue;
        if (toolkit.version.major() == archiveMajor)
            return; // there is one; the driver decides whether it can run it
        if (m_maxCuda.isValid() && toolkit.version.major() > m_maxCuda.major())
            continue;
        if (!newest || toolkit.version > newest->version)
            newest = toolkit;
        const bool built = !release || release->variantForCudaMajor(toolkit.version.major());
        if (built && (!newestWithVariant || toolkit.version > newestWithVariant->version))
            newestWithVariant = toolkit;
    }
    if (!newest)
        return;
    const Text fix =
        newestWithVariant
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download %1 instead."))
                  .arg(archiveFileName(platform, archive.cudnn,
                                       QString::number(newestWithVariant->version.major())))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a cuDNN release that NVIDIA built for CUDA %1."))
                  .arg(QString::number(newest->version.major()));
    add(Finding::error(
        QStringLiteral("match.no-toolkit-for-archive"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 for CUDA %2 needs the CUDA %2 libraries, but no CUDA "
                                             "%2 toolkit is installed (the newest here is CUDA %3)."))
            .arg(text(archive.cudnn), archive.cudaVariant, text(newest->version)),
        newest->path, fix));
}

void Judge::checkVariant(const CudnnRelease &release, const CudnnVariant &variant,
                         const std::optional<MatchFacts::Toolkit> &target)
{
    QStringList from;
    for (const Version &release : variant.rangeFrom)
        from.append(release.toString());
    const QString borrowed = from.isEmpty() ? QString()
                                            : QStringLiteral(" (inferred from the support matrices of %1)")
                                                  .arg(from.join(QLatin1String(" and ")));
    if (target && target->version.major() == variant.cudaMajor())
        checkTestedRange(release, variant, target->version, borrowed);
    const Version minimum = driverMinimum(variant, m_facts.os);
    if (m_facts.driver.isValid()) {
        if (minimum.isValid() && m_facts.driver < minimum) {
            add(Finding::error(
                QStringLiteral("match.driver-too-old-for-cudnn"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "Driver %1 is too old for cuDNN %2 for CUDA %3, which needs %4 or newer."))
                    .arg(text(m_facts.driver), text(release.version), variant.cuda, text(minimum)),
                QStringLiteral("support matrix%1").arg(borrowed),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                    .arg(text(minimum))));
        } else if (!minimum.isValid()) {
            add(Finding::info( // nothing to do about it, as for the toolkit's own minimum
                QStringLiteral("match.cudnn-driver-minimum-unknown"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "NVIDIA's support matrix gives no minimum driver for cuDNN %1 for CUDA %2 on "
                         "this system, so driver %3 cannot be checked against it."))
                    .arg(text(release.version), variant.cuda, text(m_facts.driver)),
                QString()));
        }
    }
    for (const MatchFacts::Gpu &gpu : m_gpus)
        checkGpuAgainstVariant(release, variant, gpu, target, borrowed);
}

void Judge::checkTestedRange(const CudnnRelease &release, const CudnnVariant &variant, const Version &toolkit,
                             const QString &borrowed)
{
    const Version minor = toolkit.truncated(2);
    const bool below = variant.cudaMin.isValid() && minor < variant.cudaMin;
    const bool above = variant.cudaMax.isValid() && minor > variant.cudaMax;
    if (!below && !above)
        return;
    const Text range =
        variant.cudaMin.isValid() && variant.cudaMax.isValid()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA %1 to %2"))
                  .arg(text(variant.cudaMin), text(variant.cudaMax))
        : variant.cudaMin.isValid()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA %1 and newer")).arg(text(variant.cudaMin))
            : Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA up to %1")).arg(text(variant.cudaMax));
    // A range borrowed from an earlier release says so: the newer release may well be tested
    // with newer toolkits, NVIDIA just published no matrix for it.
    const Text message =
        variant.rangeFrom.isEmpty()
            ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                     "NVIDIA tested cuDNN %1 for CUDA %2 with %3; this toolkit is "
                                     "%4. It usually works, but that combination is untested."))
                  .arg(text(release.version), variant.cuda)
                  .arg(range)
                  .arg(text(toolkit))
        : variant.rangeFrom.size() == 1
            ? Text(QT_TRANSLATE_NOOP(
                       "cudnnsetup",
                       "NVIDIA published no support matrix for cuDNN %1; the nearest published one "
                       "(cuDNN %2 for CUDA %3) lists %4, and this toolkit is %5. It usually "
                       "works, but that combination is not known to be tested."))
                  .arg(text(release.version), text(variant.rangeFrom.first()), variant.cuda)
                  .arg(range)
                  .arg(text(toolkit))
            : Text(QT_TRANSLATE_NOOP(
                       "cudnnsetup",
                       "NVIDIA published no support matrix for cuDNN %1; from the nearest published "
                       "ones (cuDNN %2 and %3 for CUDA %4) it is taken to support %5, the narrower "
                       "where they differ, and this toolkit is %6. It usually works, but that "
                       "combination is not known to be tested."))
                  .arg(text(release.version), text(variant.rangeFrom.first()), text(variant.rangeFrom.last()),
                       variant.cuda)
                  .arg(range)
                  .arg(text(toolkit));
    add(Finding::warning(QStringLiteral("match.toolkit-outside-tested-range"), message,
                         QStringLiteral("support matrix range %1-%2%3")
                             .arg(text(variant.cudaMin), text(variant.cudaMax), borrowed)));
}

void Judge::checkGpuAgainstVariant(const CudnnRelease &release, const CudnnVariant &variant,
                                   const MatchFacts::Gpu &gpu,
                                   const std::optional<MatchFacts::Toolkit> &target, const QString &borrowed)
{
    const Support support = supportOf(variant, gpu.computeCapability);
    if (support == Support::Supported)
        return;
    // Rows that widen the release for newer GPUs (Blackwell) bring their own CUDA and driver needs.
    for (const CudnnRow &extra : variant.extraRows) {
        if (supportOf(extra, gpu.computeCapability) != Support::Supported)
            continue;
        const Version minimum = driverMinimum(extra, m_facts.os);
        if (m_facts.driver.isValid() && minimum.isValid() && m_facts.driver < minimum) {
            add(Finding::error(
                QStringLiteral("match.gpu-driver-too-old"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 needs driver %2 or newer with cuDNN %3 (driver %4 is installed)."))
                    .arg(gpuText(m_kb, gpu), text(minimum), text(release.version), text(m_facts.driver)),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                    .arg(text(minimum))));
        }
        if (target && extra.cudaMin.isValid() && target->version.truncated(2) < extra.cudaMin) {
            add(Finding::error(
                QStringLiteral("match.gpu-needs-newer-cuda"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 needs CUDA %2 or newer with cuDNN %3; the toolkit is %4."))
                    .arg(gpuText(m_kb, gpu), text(extra.cudaMin), text(release.version),
                         text(target->version)),
                QString(),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install CUDA %1 or newer.")).arg(text(extra.cudaMin))));
        }
        return;
    }
    if (support == Support::Unknown) {
        if (gpu.computeCapability.isValid())
            add(Finding::warning(
                QStringLiteral("match.cudnn-cannot-tell"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Cannot tell whether cuDNN %1 for CUDA %2 runs on %3: the "
                                       "compatibility database has no list of the GPUs it supports."))
                    .arg(text(release.version), variant.cuda, gpuText(m_kb, gpu)),
                QStringLiteral("support matrix without compute capabilities%1").arg(borrowed),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a cuDNN release whose support matrix lists "
                                                     "compute capability %1, such as the recommended one."))
                    .arg(text(gpu.computeCapability))));
        return; // a GPU whose capability is unknown was said so by checkGpus()
    }
    if (support == Support::NewerThanListed) {
        add(Finding::warning(
            QStringLiteral("match.gpu-newer-than-cudnn"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "%1 is newer than every GPU cuDNN %2 for CUDA %3 lists; it may work "
                                   "through PTX, but NVIDIA does not support it."))
                .arg(gpuText(m_kb, gpu), text(release.version), variant.cuda),
            borrowed, Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use a newer cuDNN release."))));
        return;
    }
    add(Finding::error(QStringLiteral("match.gpu-unsupported-by-cudnn"),
                       Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 for CUDA %2 does not support %3."))
                           .arg(text(release.version), variant.cuda, gpuText(m_kb, gpu)),
                       QStringLiteral("support matrix%1").arg(borrowed),
                       newestCudaFix(gpu.computeCapability)));
}

void Judge::checkZlib(const Version &cudnn, bool windows, const QString &what)
{
    if (!windows || !m_facts.zlibwapi || !m_facts.zlibwapi->isEmpty())
        return;
    if (cudnn.truncated(3) < m_kb.zlibNeededFrom() || cudnn.truncated(3) >= m_kb.zlibNeededBefore())
        return;
    add(Finding::error(
        QStringLiteral("match.zlibwapi-missing"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs zlibwapi.dll on Windows, and none was found: it "
                                             "fails with \"Could not locate zlibwapi.dll\"."))
            .arg(what),
        QStringLiteral("cuDNN %1-%2 need it").arg(text(m_kb.zlibNeededFrom()), text(m_kb.zlibNeededBefore())),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Download %1 and put dll_x64\\zlibwapi.dll beside the cuDNN DLLs."))
            .arg(m_kb.zlibArchiveUrl())));
}

void Judge::checkInstalledZlib()
{
    for (const MatchFacts::Copy &copy : m_facts.installedCudnn)
        checkZlib(copy.version, m_facts.os == OsFamily::Windows, copy.path);
}

} // namespace judge

} // namespace cudnnsetup
