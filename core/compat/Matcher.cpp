#include "compat/Matcher.h"

#include "compat/ArchiveName.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"

#include <QJsonValue>

#include <algorithm>

namespace cudnnsetup {

namespace {

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

// NVIDIA's download folder for the archives of cuDNN 8.5 and later (reference: NV_REDIST_INDEX);
// empty where that layout does not hold.
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

enum class Support
{
    Supported,
    Unsupported,
    NewerThanListed,
    Unknown,
};

// A GPU runs code built for an earlier minor of its own major (8.6 runs 8.0's), so a listed
// capability of the same major and a lower or equal minor covers it.
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

class Judge
{
public:
    Judge(const MatchFacts &facts, const KnowledgeBase &kb)
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

    MatchResult run()
    {
        if (m_facts.os == OsFamily::Windows && m_facts.arch == QLatin1String("arm64")) {
            add(Finding::error(
                QStringLiteral("match.windows-arm64"),
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup",
                    "NVIDIA publishes cuDNN for Windows only for x64 PCs; this is Windows on ARM.")),
                QStringLiteral("os windows, arch arm64"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN."))));
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

private:
    void add(const Finding &finding) { m_result.findings.append(finding); }

    Version lowestCc() const
    {
        Version lowest;
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            if (gpu.computeCapability.isValid() && (!lowest.isValid() || gpu.computeCapability < lowest))
                lowest = gpu.computeCapability;
        }
        return lowest;
    }

    // A GPU whose compute capability nobody knows could be any architecture: nothing that depends on
    // it is judged, and the verdict is "cannot tell", never "compatible".
    void checkGpus()
    {
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            if (gpu.computeCapability.isValid())
                continue;
            const Text name = gpu.name.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU"))
                                                 : Text::verbatim(gpu.name);
            add(Finding::warning(
                QStringLiteral("match.gpu-cannot-tell"),
                Text(
                    QT_TRANSLATE_NOOP("cudnnsetup",
                                      "Cannot tell whether %1 can run CUDA and cuDNN: its compute capability "
                                      "is not known (NVIDIA's table in the compatibility database does not "
                                      "list this name)."))
                    .arg(name),
                QStringLiteral("gpu \"%1\", database %2").arg(gpu.name, m_kb.version()),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Look the GPU up on developer.nvidia.com/cuda-gpus and "
                                                     "run the check again with --sm X.Y."))));
        }
    }

    // A driver that reports a CUDA, or a toolkit, newer than any the database knows: the machine
    // is newer than the facts, which is said rather than guessed past.
    void checkDatabaseAge()
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

    void checkDriverPresent()
    {
        if (m_facts.driver.isValid())
            return;
        add(Finding::error(
            QStringLiteral("match.driver-missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "There is no working NVIDIA driver, so no CUDA program can run.")),
            QString(),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup", "Install the current NVIDIA driver for this GPU from nvidia.com/drivers."))));
    }

    // The toolkit cuDNN goes with: the one chosen, else the newest the driver can run whose
    // major matches the chosen archive, if any.
    std::optional<MatchFacts::Toolkit> chooseTarget() const
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

    Version minorCompatFloor(int cudaMajor) const
    {
        const MinorCompat *compat = m_kb.minorCompat(cudaMajor);
        if (!compat)
            return {};
        return m_facts.os == OsFamily::Windows ? compat->windowsMin : compat->linuxMin;
    }

    // The oldest driver a toolkit runs on: its own minimum, lowered to its major's minor-version
    // compatibility floor where that is lower (12.2 runs on 528.33 through it; 12.0 GA needs only
    // its own 527.41). Invalid when NVIDIA prints neither.
    Version lowestDriverFor(const Version &toolkit) const
    {
        const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit);
        const Version floor = minorCompatFloor(toolkit.major());
        if (floor.isValid() && (!exact.isValid() || floor < exact))
            return floor;
        return exact;
    }

    // The driver to advise for CUDA `toolkit`: NVIDIA's minimum for its release on this system, else
    // the minor-version floor of its major; invalid when NVIDIA prints neither.
    Version driverToAdvise(const Version &toolkit) const
    {
        const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit);
        return exact.isValid() ? exact : minorCompatFloor(toolkit.major());
    }

    void checkToolkitDriver(const MatchFacts::Toolkit &toolkit)
    {
        if (!m_facts.driver.isValid())
            return;
        const int major = toolkit.version.major();
        const Version floor = minorCompatFloor(major);
        const Version exact = m_kb.toolkitMinimumDriver(m_facts.os, toolkit.version);
        const QString details =
            QStringLiteral(
                "driver %1, reports CUDA %2; toolkit %3; minor-version minimum %4, release minimum %5")
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
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                    .arg(text(wanted))));
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
                Text(
                    QT_TRANSLATE_NOOP("cudnnsetup",
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
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "Update the driver to %1 or newer to use every feature of this toolkit."))
                    .arg(text(exact))));
        }
    }

    // Toolkits passed over because the driver cannot run their major: the user has them for a
    // reason, so say what it takes to use them.
    void checkUnusableToolkits()
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

    // The driver to get, as a version a student can compare with the one installed: NVIDIA's
    // minimum for this toolkit on this system (else its minor-version floor) where it prints one,
    // else the lowest version of the branch (580.00: no driver of another system's table is borrowed).
    Text branchFix(const Version &cuda) const
    {
        Version wanted = driverToAdvise(cuda);
        if (const int branch = m_kb.firstBranchSupporting(cuda); !wanted.isValid() && branch > 0)
            wanted = Version::parse(QStringLiteral("%1.00").arg(branch));
        if (wanted.isValid())
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer."))
                .arg(text(wanted));
        return Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                      "Update the driver to the newest one NVIDIA offers for this GPU."));
    }

    void checkGpusAgainstCuda(int cudaMajor)
    {
        const Version minimum = m_kb.minimumComputeCapabilityForCuda(cudaMajor);
        if (!minimum.isValid())
            return;
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            if (!gpu.computeCapability.isValid() || gpu.computeCapability >= minimum)
                continue;
            add(Finding::error(
                QStringLiteral("match.gpu-unsupported-by-cuda"),
                Text(QT_TRANSLATE_NOOP(
                         "cudnnsetup",
                         "CUDA %1 no longer supports %2: it needs compute capability %3 or newer."))
                    .arg(cudaMajor)
                    .arg(gpuText(m_kb, gpu))
                    .arg(text(minimum)),
                QString(), newestCudaFix(gpu.computeCapability)));
        }
    }

    // The newest CUDA major that still builds for `cc`.
    int newestCudaFor(const Version &cc) const
    {
        for (int major = 20; major >= 9; --major) {
            const Version minimum = m_kb.minimumComputeCapabilityForCuda(major);
            if (minimum.isValid() && cc >= minimum)
                return major;
        }
        return 0;
    }

    Text newestCudaFix(const Version &cc) const
    {
        const int major = newestCudaFor(cc);
        if (major > 0)
            return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use CUDA %1 and the cuDNN archive for CUDA %1, the "
                                                        "newest that still support this GPU."))
                .arg(major);
        return {};
    }

    void checkArchive(const MatchFacts::Archive &archive, const std::optional<MatchFacts::Toolkit> &target)
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

    // cuDNN loads its CUDA major's cudart and cuBLAS: with toolkits of other majors only, none of
    // them can serve it (frameworks bring their own cuDNN, so they do not change that). The fix
    // names this release for the newest toolkit the driver runs, where NVIDIA built one for it.
    void checkSomeToolkitFits(const MatchFacts::Archive &archive, int archiveMajor, const QString &platform,
                              const CudnnRelease *release)
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
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "Choose a cuDNN release that NVIDIA built for CUDA %1."))
                      .arg(QString::number(newest->version.major()));
        add(Finding::error(
            QStringLiteral("match.no-toolkit-for-archive"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "cuDNN %1 for CUDA %2 needs the CUDA %2 libraries, but no CUDA "
                                   "%2 toolkit is installed (the newest here is CUDA %3)."))
                .arg(text(archive.cudnn), archive.cudaVariant, text(newest->version)),
            newest->path, fix));
    }

    void checkVariant(const CudnnRelease &release, const CudnnVariant &variant,
                      const std::optional<MatchFacts::Toolkit> &target)
    {
        QStringList from;
        for (const Version &release : variant.rangeFrom)
            from.append(release.toString());
        const QString borrowed = from.isEmpty()
                                     ? QString()
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

    void checkTestedRange(const CudnnRelease &release, const CudnnVariant &variant, const Version &toolkit,
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
                      .arg(text(release.version), text(variant.rangeFrom.first()),
                           text(variant.rangeFrom.last()), variant.cuda)
                      .arg(range)
                      .arg(text(toolkit));
        add(Finding::warning(QStringLiteral("match.toolkit-outside-tested-range"), message,
                             QStringLiteral("support matrix range %1-%2%3")
                                 .arg(text(variant.cudaMin), text(variant.cudaMax), borrowed)));
    }

    void checkGpuAgainstVariant(const CudnnRelease &release, const CudnnVariant &variant,
                                const MatchFacts::Gpu &gpu, const std::optional<MatchFacts::Toolkit> &target,
                                const QString &borrowed)
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
                    Text(QT_TRANSLATE_NOOP(
                             "cudnnsetup",
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
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install CUDA %1 or newer."))
                        .arg(text(extra.cudaMin))));
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
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "Choose a cuDNN release whose support matrix lists "
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

    void checkZlib(const Version &cudnn, bool windows, const QString &what)
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
            QStringLiteral("cuDNN %1-%2 need it")
                .arg(text(m_kb.zlibNeededFrom()), text(m_kb.zlibNeededBefore())),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Download %1 and put dll_x64\\zlibwapi.dll beside the cuDNN DLLs."))
                .arg(m_kb.zlibArchiveUrl())));
    }

    void checkInstalledZlib()
    {
        for (const MatchFacts::Copy &copy : m_facts.installedCudnn)
            checkZlib(copy.version, m_facts.os == OsFamily::Windows, copy.path);
    }

    void checkPythons()
    {
        for (const MatchFacts::Python &python : m_facts.pythons) {
            if (python.bits == 32) {
                add(Finding::warning(
                    QStringLiteral("match.python-32bit"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is a 32-bit Python; cuDNN and CUDA exist only "
                                                         "for 64-bit programs, so it can never use them."))
                        .arg(python.path),
                    QString(),
                    Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup",
                        "Install a 64-bit Python (python.org's \"Windows installer (64-bit)\")."))));
            }
            if (python.hasTorch && !python.torchCuda.isValid()) {
                add(Finding::warning(
                    QStringLiteral("match.torch-cpu-only"),
                    Text(QT_TRANSLATE_NOOP(
                             "cudnnsetup",
                             "torch %1 in %2 is a CPU-only build: it will never use the GPU or cuDNN."))
                        .arg(python.torchVersion, python.path),
                    QString(), torchFix()));
            }
            if (python.hasTorch && python.torchCuda.isValid() && m_maxCuda.isValid()) {
                if (python.torchCuda.major() > m_maxCuda.major()) {
                    add(Finding::error(
                        QStringLiteral("match.torch-cuda-newer-than-driver"),
                        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "torch %1 is built for CUDA %2, but the driver supports CUDA "
                                               "up to %3: torch.cuda.is_available() will be False."))
                            .arg(python.torchVersion, text(python.torchCuda), text(m_maxCuda)),
                        python.path, branchFix(python.torchCuda)));
                } else if (python.torchCuda > m_maxCuda) {
                    add(Finding::info(
                        QStringLiteral("match.torch-minor-version-compatibility"),
                        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                               "torch %1 is built for CUDA %2 and the driver reports %3: it "
                                               "runs through minor-version compatibility."))
                            .arg(python.torchVersion, text(python.torchCuda), text(m_maxCuda)),
                        python.path));
                }
            }
            if (python.hasTorch && python.torchCuda.isValid())
                adviseOnBundledCudnn(python);
            if (m_facts.os == OsFamily::Windows && !m_facts.wsl2 && python.tensorflow.isValid() &&
                python.tensorflow.truncated(2) > m_kb.tensorflowLastNativeWindowsGpu()) {
                add(Finding::warning(
                    QStringLiteral("match.tensorflow-windows"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "TensorFlow %1 in %2 cannot use the GPU on native "
                                                         "Windows; the last version that could is %3."))
                        .arg(python.tensorflow.toString(), python.path,
                             m_kb.tensorflowLastNativeWindowsGpu().toString()),
                    QString(),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run TensorFlow under WSL 2, or install TensorFlow "
                                                         "%1 with CUDA 11.2 and cuDNN 8.1."))
                        .arg(m_kb.tensorflowLastNativeWindowsGpu().toString())));
            }
            // JAX publishes its CUDA builds for Linux only: on native Windows it runs on the CPU.
            if (m_facts.os == OsFamily::Windows && !m_facts.wsl2 && !python.jax.isEmpty()) {
                add(Finding::warning(
                    QStringLiteral("match.jax-windows"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "JAX %1 in %2 cannot use the GPU on native Windows: "
                                                         "JAX's CUDA builds exist for Linux only."))
                        .arg(python.jax, python.path),
                    QString(),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run JAX under WSL 2 and install its CUDA build "
                                                         "there, as JAX's installation guide says."))));
            }
        }
    }

    // A CUDA build of torch carries its own cuDNN: who uses only PyTorch needs no system cuDNN. Its
    // version as torch reported it, else as PyTorch's release matrix gives it for that build.
    void adviseOnBundledCudnn(const MatchFacts::Python &python)
    {
        Version cudnn = python.torchCudnn;
        const Version torch = Version::parse(python.torchVersion.section(QLatin1Char('+'), 0, 0));
        for (const TorchRelease &release : m_kb.torchReleases()) {
            if (cudnn.isValid() || release.torch != torch.truncated(2))
                continue;
            for (const TorchBuild &build : release.builds) {
                if (build.cuda == python.torchCuda.truncated(2))
                    cudnn = build.cudnn;
            }
        }
        // Who does need one is said in the same sentence: the reason to install anyway.
        const Text message =
            !cudnn.isValid()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "torch %1 in %2 brings its own cuDNN. If PyTorch is all you use, "
                                         "you need no system-wide cuDNN, only a driver that runs CUDA %3; "
                                         "one is for TensorFlow 2.10 and older on Windows, ONNX Runtime "
                                         "with CUDA, OpenCV's DNN module, building from source and C/C++ "
                                         "programs."))
                      .arg(python.torchVersion, python.path, text(python.torchCuda.truncated(2)))
            : python.torchCudnnFile.isEmpty()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "torch %1 in %2 brings its own cuDNN %3. If PyTorch is all you "
                                         "use, you need no system-wide cuDNN, only a driver that runs CUDA "
                                         "%4; one is for TensorFlow 2.10 and older on Windows, ONNX Runtime "
                                         "with CUDA, OpenCV's DNN module, building from source and C/C++ "
                                         "programs."))
                      .arg(python.torchVersion, python.path, text(cudnn), text(python.torchCuda.truncated(2)))
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "torch %1 in %2 brings its own cuDNN %3 (%4). If PyTorch is all "
                                         "you use, you need no system-wide cuDNN, only a driver that runs "
                                         "CUDA %5; one is for TensorFlow 2.10 and older on Windows, ONNX "
                                         "Runtime with CUDA, OpenCV's DNN module, building from source and "
                                         "C/C++ programs."))
                      .arg(python.torchVersion, python.path, text(cudnn), python.torchCudnnFile)
                      .arg(text(python.torchCuda.truncated(2)));
        add(Finding::info(QStringLiteral("match.framework-brings-cudnn"), message, python.path));
    }

    // "pip install torch --index-url …/cuNNN": the index of the newest torch build that carries
    // code for these GPUs and that the driver runs (torchIndexFor, as the consumer verdicts say it);
    // with no GPU known, the newest build the driver runs.
    Text torchFix() const
    {
        const Text fix =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install a CUDA build: pip install torch "
                                                 "--index-url https://download.pytorch.org/whl/%1"));
        if (const std::optional<TorchIndex> index = torchIndexFor(m_facts, m_kb))
            return fix.arg(index->tag);
        const QList<TorchRelease> &releases = m_kb.torchReleases();
        for (auto release = releases.crbegin(); release != releases.crend(); ++release) {
            Version best;
            for (const TorchBuild &build : release->builds) {
                if (build.channel == QLatin1String("experimental"))
                    continue;
                if ((!m_maxCuda.isValid() || build.cuda <= m_maxCuda) && build.cuda > best)
                    best = build.cuda;
            }
            if (best.isValid())
                return fix.arg(QStringLiteral("cu%1%2").arg(best.major()).arg(best.minor()));
        }
        return {};
    }

    // `major`, or the newest CUDA major below it that still builds for the oldest GPU.
    int cudaMajorForGpus(int major, const Version &lowest) const
    {
        while (major > 0 && lowest.isValid() && m_kb.minimumComputeCapabilityForCuda(major).isValid() &&
               lowest < m_kb.minimumComputeCapabilityForCuda(major))
            --major;
        return major;
    }

    // A build fits when its support matrix lists every GPU. A build whose list is unknown fits only
    // a GPU whose own capability is unknown: for a known GPU it would be a guess.
    bool fitsGpus(const CudnnVariant &variant) const
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

    void recommend(const std::optional<MatchFacts::Toolkit> &target)
    {
        const QString platform = platformFor(m_facts);
        const Version lowest = lowestCc();
        int major = 0;
        if (target) {
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

        const QList<CudnnRelease> &releases = m_kb.cudnnReleases();
        for (auto release = releases.crbegin(); release != releases.crend(); ++release) {
            if (m_facts.wantedCudnnMajor && release->version.major() != *m_facts.wantedCudnnMajor)
                continue;
            const CudnnVariant *variant = release->variant(QString::number(major));
            if (!variant || !fitsGpus(*variant))
                continue;
            Recommendation recommendation;
            recommendation.platform = platform;
            recommendation.cudnn = release->version;
            recommendation.cudaVariant = variant->cuda;
            recommendation.archiveFile = archiveFileName(platform, release->version, variant->cuda);
            if (const KnownArchive *known = m_kb.archiveByFile(recommendation.archiveFile)) {
                recommendation.sha256 = known->sha256;
                recommendation.url = known->url;
            }
            if (recommendation.url.isEmpty())
                recommendation.url = redistUrl(platform, release->version, recommendation.archiveFile);
            if (target && target->version.major() == major) {
                recommendation.targetToolkit = target;
            } else {
                for (const MatchFacts::Toolkit &toolkit : m_facts.toolkits) {
                    if (toolkit.version.major() == major &&
                        (!recommendation.targetToolkit ||
                         toolkit.version > recommendation.targetToolkit->version))
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
            return;
        }
    }

    const MatchFacts &m_facts;
    const KnowledgeBase &m_kb;
    Version m_maxCuda;
    QList<MatchFacts::Gpu> m_gpus;
    MatchResult m_result;
};

} // namespace

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
