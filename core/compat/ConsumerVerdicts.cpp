#include "compat/ConsumerVerdicts.h"

#include <algorithm>

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>

#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"
#include "detect/VersionParsers.h"

namespace cudnnsetup {

namespace {

QString text(const Version &version)
{
    return version.isValid() ? version.toString() : QStringLiteral("?");
}

// "sm_86" -> 8.6 and "", "sm_100a" -> 10.0 and "a", "compute_120f" -> 12.0 and "f".
struct GpuArch
{
    Version capability;
    QChar suffix;
};

std::optional<GpuArch> parseArch(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^(?:sm|compute)_(\\d+)([af]?)$"));
    const QRegularExpressionMatch match = pattern.match(name);
    if (!match.hasMatch())
        return std::nullopt;
    const int number = match.captured(1).toInt();
    GpuArch arch;
    arch.capability = Version::parse(QStringLiteral("%1.%2").arg(number / 10).arg(number % 10));
    arch.suffix = match.captured(2).isEmpty() ? QChar() : match.captured(2).at(0);
    return arch;
}

// SASS of a compute capability runs on a GPU of the same major and an equal or later minor (8.0's
// on 8.6); an "f" (family) build likewise; an "a" build only on its own capability.
bool sassRuns(const GpuArch &arch, const Version &gpu)
{
    if (arch.suffix == QLatin1Char('a'))
        return arch.capability == gpu.truncated(2);
    return arch.capability.major() == gpu.major() && arch.capability.minor() <= gpu.minor();
}

// PTX the driver can compile for the GPU: any earlier or equal capability; "f" within its family,
// "a" only for its own capability.
bool ptxCompiles(const GpuArch &arch, const Version &gpu)
{
    if (arch.suffix == QLatin1Char('a'))
        return arch.capability == gpu.truncated(2);
    if (arch.suffix == QLatin1Char('f'))
        return sassRuns(arch, gpu);
    return arch.capability <= gpu.truncated(2);
}

Text gpuName(const MatchFacts::Gpu &gpu)
{
    const Text name =
        gpu.name.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")) : Text::verbatim(gpu.name);
    if (!gpu.computeCapability.isValid())
        return name;
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (compute capability %2)"))
        .arg(name, gpu.computeCapability.toString());
}

// The driver to get for CUDA `cuda`: NVIDIA's minimum for that release here, else its major's
// minor-version floor, else the first branch that runs it.
Version driverFor(const KnowledgeBase &kb, OsFamily os, const Version &cuda)
{
    if (const Version exact = kb.toolkitMinimumDriver(os, cuda); exact.isValid())
        return exact;
    if (const MinorCompat *compat = kb.minorCompat(cuda.major())) {
        const Version floor = os == OsFamily::Windows ? compat->windowsMin : compat->linuxMin;
        if (floor.isValid())
            return floor;
    }
    const int branch = kb.firstBranchSupporting(cuda.truncated(2));
    return branch > 0 ? Version::parse(QString::number(branch)) : Version();
}

QString folderOf(const QString &path)
{
    const int at = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
    return at > 0 ? path.left(at) : path;
}

bool isTorchFamily(const QString &name)
{
    return name == QLatin1String("torch") || name == QLatin1String("torchvision") ||
           name == QLatin1String("torchaudio");
}

bool isTensorflow(const QString &name)
{
    return name == QLatin1String("tensorflow") || name.startsWith(QLatin1String("tensorflow-"));
}

bool isJax(const QString &name)
{
    return name == QLatin1String("jax") || name == QLatin1String("jaxlib") ||
           name.startsWith(QLatin1String("jax-cuda"));
}

class ConsumerJudge
{
public:
    ConsumerJudge(const MatchFacts &facts, const KnowledgeBase &kb)
        : m_facts(facts)
        , m_kb(kb)
        , m_maxCuda(facts.driverMaxCuda.isValid() ? facts.driverMaxCuda : kb.maxCudaForDriver(facts.driver))
    {
        for (MatchFacts::Gpu gpu : facts.gpus) {
            if (!gpu.computeCapability.isValid() && !gpu.name.isEmpty()) {
                if (const auto cc = kb.computeCapabilityForGpu(gpu.name))
                    gpu.computeCapability = *cc;
            }
            m_gpus.append(gpu);
        }
    }

    const QList<MatchFacts::Gpu> &gpus() const { return m_gpus; }
    Version maxCuda() const { return m_maxCuda; }

    ConsumerVerdict judge(const ConsumerInfo &consumer) const
    {
        ConsumerVerdict verdict;
        const Text name = Text::verbatim(consumer.version.isEmpty()
                                             ? consumer.name
                                             : QStringLiteral("%1 %2").arg(consumer.name, consumer.version));
        judgeCudnn(consumer, name, verdict);
        // A framework that has no GPU build here at all comes first: nothing else would help.
        if (nativeWindowsCpuOnly(consumer, name, verdict))
            return verdict;
        judgeRuns(consumer, name, verdict);
        if (!verdict.fixKind.isEmpty())
            return verdict; // the runs verdict already prescribed the fix
        if (verdict.findsCudnn == ConsumerVerdict::FindsCudnn::No) {
            cudnnFix(consumer, name, verdict);
            return verdict;
        }
        if (!verdict.missing.isEmpty()) {
            verdict.summary =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs %2, and its own search for libraries does not "
                                                     "reach it."))
                    .arg(name, Text::list(verdict.missing));
            verdict.fixKind = QStringLiteral("install");
            verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                 "Make %1 reachable for it: install the CUDA %2 toolkit, or "
                                                 "put those libraries beside its files in %3."))
                              .arg(Text::list(verdict.missing),
                                   Text::verbatim(consumer.cudaMajor ? QString::number(*consumer.cudaMajor)
                                                                     : QStringLiteral("?")),
                                   Text::verbatim(folderOf(consumer.files.value(0))));
            return verdict;
        }
        if (verdict.fine()) {
            verdict.fixKind = QStringLiteral("nothing");
            verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Nothing to do."));
            return verdict;
        }
        // Unknown, not wrong: nothing in its files asks for a change.
        verdict.fixKind = QStringLiteral("none");
        verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Nothing its files show can be fixed from here; "
                                                           "whether it works shows when it runs."));
        return verdict;
    }

    // The fix for a program that is not there: torch from the index for this GPU and driver.
    ConsumerVerdict judgeAbsent(const QString &what) const
    {
        ConsumerVerdict verdict;
        verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No %1 was found here.")).arg(what);
        if (what == QLatin1String("torch")) {
            torchFix(QStringLiteral("torch"), false, verdict);
            return verdict;
        }
        if (what == QLatin1String("tensorflow") && windowsNative() &&
            m_kb.tensorflowLastNativeWindowsGpu().isValid()) {
            wslFix(
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "TensorFlow newer than %1 has no GPU build for native "
                                                     "Windows."))
                    .arg(m_kb.tensorflowLastNativeWindowsGpu().toString()),
                verdict);
            return verdict;
        }
        verdict.fixKind = QStringLiteral("install");
        verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install %1, then check again.")).arg(what);
        return verdict;
    }

    std::optional<TorchIndex> torchIndex() const
    {
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            if (!gpu.computeCapability.isValid())
                return std::nullopt;
        }
        if (m_gpus.isEmpty())
            return std::nullopt;
        const QString system =
            m_facts.os == OsFamily::Windows ? QStringLiteral("windows") : QStringLiteral("linux");
        std::optional<std::pair<const TorchRelease *, const TorchBuild *>> updateDriver;
        const QList<TorchRelease> &releases = m_kb.torchReleases();
        for (auto release = releases.crbegin(); release != releases.crend(); ++release) {
            const TorchBuild *best = nullptr;
            for (const TorchBuild &build : release->builds) {
                if (build.channel == QLatin1String("experimental") || !build.architectures ||
                    !coversGpus(*build.architectures, build.cuda, system))
                    continue;
                if (m_maxCuda.isValid() && build.cuda.major() > m_maxCuda.major()) {
                    if (!updateDriver)
                        updateDriver = std::make_pair(&*release, &build);
                    continue;
                }
                if (!best || preferred(build, *best))
                    best = &build;
            }
            if (best)
                return index(*release, *best, false);
        }
        if (updateDriver)
            return index(*updateDriver->first, *updateDriver->second, true);
        return std::nullopt;
    }

private:
    bool windowsNative() const { return m_facts.os == OsFamily::Windows && !m_facts.wsl2; }

    // Of two builds the driver runs: the higher CUDA not above the driver's, before one above it.
    bool preferred(const TorchBuild &candidate, const TorchBuild &best) const
    {
        if (!m_maxCuda.isValid())
            return candidate.cuda > best.cuda;
        const bool candidateWithin = candidate.cuda <= m_maxCuda;
        const bool bestWithin = best.cuda <= m_maxCuda;
        if (candidateWithin != bestWithin)
            return candidateWithin;
        return candidateWithin ? candidate.cuda > best.cuda : candidate.cuda < best.cuda;
    }

    bool coversGpus(const TorchArchitectures &archs, const Version &cuda, const QString &system) const
    {
        const bool ptxHere = archs.ptxOn.isEmpty() || archs.ptxOn.contains(system);
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            const Version &cc = gpu.computeCapability;
            bool covered = std::any_of(archs.sass.cbegin(), archs.sass.cend(), [&cc](const Version &sass) {
                return sass.major() == cc.major() && sass.minor() <= cc.minor();
            });
            // PTX of the build's CUDA needs a driver that knows that CUDA.
            if (!covered && ptxHere && m_maxCuda.isValid() && cuda.truncated(2) <= m_maxCuda)
                covered = std::any_of(archs.ptx.cbegin(), archs.ptx.cend(),
                                      [&cc](const Version &ptx) { return ptx <= cc.truncated(2); });
            if (!covered)
                return false;
        }
        return true;
    }

    TorchIndex index(const TorchRelease &release, const TorchBuild &build, bool driverUpdateNeeded) const
    {
        TorchIndex choice;
        choice.torch = release.torch;
        choice.cuda = build.cuda.truncated(2);
        choice.tag = QStringLiteral("cu%1%2").arg(build.cuda.major()).arg(build.cuda.minor());
        choice.url = QStringLiteral("https://download.pytorch.org/whl/%1").arg(choice.tag);
        choice.driverMinimum =
            driverFor(m_kb, m_facts.os, build.toolkit.isValid() ? build.toolkit : build.cuda);
        choice.driverUpdateNeeded = driverUpdateNeeded;
        return choice;
    }

    Text gpusText() const
    {
        QList<Text> names;
        for (const MatchFacts::Gpu &gpu : m_gpus)
            names.append(gpuName(gpu));
        return names.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")) : Text::list(names);
    }

    void wslFix(const Text &why, ConsumerVerdict &verdict) const
    {
        verdict.runs = ConsumerVerdict::Runs::No;
        verdict.summary = why;
        verdict.fixKind = QStringLiteral("wsl2");
        verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use WSL 2: install a Linux distribution with "
                                                           "\"wsl --install\", then install the GPU build "
                                                           "inside it (the Windows driver serves it)."));
        verdict.command = QStringLiteral("wsl --install");
    }

    bool nativeWindowsCpuOnly(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
    {
        if (!windowsNative())
            return false;
        const Version version = Version::parse(consumer.version.section(QLatin1Char('.'), 0, 2));
        if (isTensorflow(consumer.name) && version.isValid() &&
            m_kb.tensorflowLastNativeWindowsGpu().isValid() &&
            version.truncated(2) > m_kb.tensorflowLastNativeWindowsGpu()) {
            wslFix(Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot use the GPU on native Windows: the last "
                                                        "TensorFlow that could is %2."))
                       .arg(name, Text::verbatim(m_kb.tensorflowLastNativeWindowsGpu().toString())),
                   verdict);
            return true;
        }
        if (isJax(consumer.name) && m_kb.jaxNativeWindowsGpu() == false) {
            wslFix(Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has no NVIDIA GPU support on native Windows."))
                       .arg(name),
                   verdict);
            return true;
        }
        return false;
    }

    // Whether each cuDNN name it asks for reaches a copy of the major it needs; the other CUDA
    // libraries it needs that reach nothing go to `missing`.
    void judgeCudnn(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
    {
        bool needsCudnn = consumer.cudnnMajor.has_value();
        bool allFound = true;
        QStringList found;
        for (const auto &[library, copy] : consumer.resolves) {
            if (!versions::isCudnnLibraryName(library)) {
                if (!copy)
                    verdict.missing.append(library);
                continue;
            }
            needsCudnn = true;
            const Version version = copy ? Version::parse(copy->version) : Version();
            const bool rightMajor =
                !consumer.cudnnMajor || !version.isValid() || version.major() == *consumer.cudnnMajor;
            if (!copy || !rightMajor) {
                allFound = false;
                if (!verdict.missing.contains(library))
                    verdict.missing.append(library);
            } else {
                found.append(copy->version.isEmpty()
                                 ? copy->path
                                 : QStringLiteral("%1 (%2)").arg(copy->path, copy->version));
            }
        }
        if (!needsCudnn) {
            verdict.findsCudnn = ConsumerVerdict::FindsCudnn::NotNeeded;
            return;
        }
        // A major known from build information, with no library name to follow: unknown, not missing.
        verdict.findsCudnn = !allFound         ? ConsumerVerdict::FindsCudnn::No
                             : found.isEmpty() ? ConsumerVerdict::FindsCudnn::CannotTell
                                               : ConsumerVerdict::FindsCudnn::Yes;
        if (verdict.findsCudnn == ConsumerVerdict::FindsCudnn::Yes)
            verdict.summary =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 finds its cuDNN: %2.")).arg(name, Text::list(found));
    }

    // Which GPU code runs on each GPU; the first GPU it cannot run on decides.
    void judgeRuns(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
    {
        if (consumer.cudaMajor && m_maxCuda.isValid() && *consumer.cudaMajor > m_maxCuda.major()) {
            verdict.runs = ConsumerVerdict::Runs::No;
            verdict.summary =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is built for CUDA %2, but driver %3 runs "
                                                     "CUDA up to %4."))
                    .arg(name, Text::verbatim(QString::number(*consumer.cudaMajor)),
                         Text::verbatim(text(m_facts.driver)), Text::verbatim(text(m_maxCuda)));
            if (isTorchFamily(consumer.name))
                torchFix(consumer.name, true, verdict);
            else
                driverFix(Version::parse(QStringLiteral("%1.0").arg(*consumer.cudaMajor)), verdict);
            return;
        }
        if (m_gpus.isEmpty()) {
            verdict.runs = ConsumerVerdict::Runs::CannotTell;
            verdict.summary =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "No NVIDIA GPU is known here, so whether %1 "
                                                     "runs cannot be told."))
                    .arg(name);
            return;
        }
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            if (gpu.computeCapability.isValid())
                continue;
            verdict.runs = ConsumerVerdict::Runs::CannotTell;
            verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Cannot tell whether %1 runs on %2: its "
                                                                   "compute capability is not known."))
                                  .arg(name, gpuName(gpu));
            if (verdict.findsCudnn == ConsumerVerdict::FindsCudnn::No)
                return; // the cuDNN fix is the one to give; the capability is said in --sm's place
            verdict.fixKind = QStringLiteral("sm");
            verdict.fix =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Look the GPU up on developer.nvidia.com/cuda-gpus "
                                                     "and run the check again with --sm X.Y."));
            return;
        }
        if (consumer.sass.isEmpty() && consumer.ptx.isEmpty()) {
            verdict.runs = ConsumerVerdict::Runs::CannotTell;
            verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 lists no GPU code in its files, so "
                                                                   "whether it runs on %2 cannot be told."))
                                  .arg(name, gpusText());
            return;
        }
        bool viaPtx = false;
        for (const MatchFacts::Gpu &gpu : m_gpus) {
            bool sass = false;
            for (const QString &entry : consumer.sass) {
                const auto arch = parseArch(entry);
                sass = sass || (arch && sassRuns(*arch, gpu.computeCapability));
            }
            if (sass)
                continue;
            bool ptx = false;
            for (const QString &entry : consumer.ptx) {
                const auto arch = parseArch(entry);
                ptx = ptx || (arch && ptxCompiles(*arch, gpu.computeCapability));
            }
            if (!ptx) {
                noCode(consumer, name, gpu, verdict);
                return;
            }
            // The driver compiles PTX only of an ISA its CUDA knows.
            Version lowest, highest;
            bool unmapped = consumer.ptxIsa.isEmpty();
            for (const QString &isa : consumer.ptxIsa) {
                const Version cuda = m_kb.cudaForPtxIsa(Version::parse(isa));
                unmapped = unmapped || !cuda.isValid();
                if (cuda.isValid() && (!lowest.isValid() || cuda < lowest))
                    lowest = cuda;
                if (cuda.isValid() && cuda > highest)
                    highest = cuda;
            }
            if (!unmapped && m_maxCuda.isValid() && m_maxCuda.truncated(2) < lowest) {
                verdict.runs = ConsumerVerdict::Runs::No;
                verdict.summary =
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 has no GPU code for %2 except PTX of CUDA %3, which "
                                           "driver %4 (CUDA %5) cannot compile."))
                        .arg(name, gpuName(gpu), Text::verbatim(lowest.toString()),
                             Text::verbatim(text(m_facts.driver)), Text::verbatim(text(m_maxCuda)));
                if (isTorchFamily(consumer.name))
                    torchFix(consumer.name, true, verdict);
                else
                    driverFix(highest, verdict);
                return;
            }
            if (unmapped || !m_maxCuda.isValid() || m_maxCuda.truncated(2) < highest) {
                verdict.runs = ConsumerVerdict::Runs::CannotTell;
                verdict.summary =
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 can run on %2 only by compiling its PTX (ISA %3), and "
                                           "whether driver %4 can is not known."))
                        .arg(name, gpuName(gpu), Text::list(consumer.ptxIsa),
                             Text::verbatim(text(m_facts.driver)));
                return;
            }
            viaPtx = true;
        }
        verdict.runs = ConsumerVerdict::Runs::Yes;
        if (verdict.findsCudnn != ConsumerVerdict::FindsCudnn::Yes)
            verdict.summary =
                viaPtx
                    ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 runs on %2 by having the driver "
                                                           "compile its PTX (slow on first use)."))
                          .arg(name, gpusText())
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has GPU code for %2.")).arg(name, gpusText());
    }

    void noCode(const ConsumerInfo &consumer, const Text &name, const MatchFacts::Gpu &gpu,
                ConsumerVerdict &verdict) const
    {
        verdict.runs = ConsumerVerdict::Runs::No;
        verdict.summary =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 carries GPU code for %2 only, none of which "
                                                 "runs on %3: \"no kernel image is available\"."))
                .arg(name, Text::list(consumer.sass + consumer.ptx), gpuName(gpu));
        if (isTorchFamily(consumer.name)) {
            torchFix(consumer.name, true, verdict);
            return;
        }
        verdict.fixKind = QStringLiteral("rebuild");
        verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Get a build of %1 made for compute capability %2 "
                                                           "(a newer release, or one built from source)."))
                          .arg(name, Text::verbatim(gpu.computeCapability.toString()));
    }

    void driverFix(const Version &cuda, ConsumerVerdict &verdict) const
    {
        verdict.fixKind = QStringLiteral("driver");
        const Version wanted = driverFor(m_kb, m_facts.os, cuda);
        verdict.fix =
            wanted.isValid()
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer (it runs CUDA %2)."))
                      .arg(wanted.toString(), cuda.truncated(2).toString())
                : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to one that runs CUDA %1."))
                      .arg(cuda.truncated(2).toString());
    }

    // `installed`: replace the build there (pip keeps a torch of the same version otherwise).
    void torchFix(const QString &package, bool installed, ConsumerVerdict &verdict) const
    {
        const std::optional<TorchIndex> index = torchIndex();
        if (!index) {
            verdict.fixKind = QStringLiteral("none");
            verdict.fix =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "No PyTorch build the compatibility database knows "
                                                     "carries GPU code for %1."))
                    .arg(gpusText());
            return;
        }
        const QString packages =
            package == QLatin1String("torch") ? package : QStringLiteral("torch %1").arg(package);
        const QString pip = installed ? QStringLiteral("pip install --force-reinstall %1 --index-url %2")
                                      : QStringLiteral("pip install %1 --index-url %2");
        if (index->driverUpdateNeeded) {
            verdict.fixKind = QStringLiteral("driver");
            verdict.fix =
                index->driverMinimum.isValid()
                    ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to %1 or newer, then install "
                                                           "torch from PyTorch's %2 index (CUDA %3)."))
                          .arg(index->driverMinimum.toString(), index->tag, index->cuda.toString())
                    : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to one that runs CUDA %1, "
                                                           "then install torch from PyTorch's %2 index."))
                          .arg(index->cuda.toString(), index->tag);
            verdict.command = pip.arg(packages, index->url);
            return;
        }
        verdict.fixKind = QStringLiteral("torch-index");
        verdict.fix =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install torch from PyTorch's %1 index: its builds "
                                                 "(torch %2, CUDA %3) carry GPU code for %4 and run on "
                                                 "this driver."))
                .arg(Text::verbatim(index->tag), Text::verbatim(index->torch.toString()),
                     Text::verbatim(index->cuda.toString()), gpusText());
        verdict.command = pip.arg(packages, index->url);
    }

    // The newest cuDNN of the major it needs, for its CUDA major, that supports the GPUs: beside it.
    void cudnnFix(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
    {
        const int cudnnMajor = consumer.cudnnMajor.value_or(0);
        const int cudaMajor =
            consumer.cudaMajor ? *consumer.cudaMajor : (m_maxCuda.isValid() ? m_maxCuda.major() : 0);
        const QString folder = folderOf(consumer.files.value(0));
        verdict.summary =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs cuDNN %2 and does not reach it (%3)."))
                .arg(name, Text::verbatim(cudnnMajor > 0 ? QString::number(cudnnMajor) : QStringLiteral("?")),
                     Text::list(verdict.missing));
        std::optional<Recommendation> recommendation;
        if (cudnnMajor > 0 && cudaMajor > 0) {
            MatchFacts wanted = m_facts;
            wanted.archive.reset();
            wanted.wantedCudnnMajor = cudnnMajor;
            wanted.wantedCudaMajor = cudaMajor;
            recommendation = match(wanted, m_kb).recommendation;
            if (recommendation &&
                recommendation->cudaVariant.section(QLatin1Char('.'), 0, 0).toInt() != cudaMajor)
                recommendation.reset(); // the GPU needs another CUDA than the program's
        }
        if (!recommendation) {
            verdict.fixKind = QStringLiteral("none");
            verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN %1 for CUDA %2 in the compatibility "
                                                               "database supports %3: get a build of the "
                                                               "program made for a newer cuDNN."))
                              .arg(Text::verbatim(QString::number(cudnnMajor)),
                                   Text::verbatim(QString::number(cudaMajor)), gpusText());
            return;
        }
        verdict.fixKind = QStringLiteral("cudnn-beside");
        verdict.beside = CudnnBeside{consumer.name, folder, cudnnMajor, cudaMajor};
        verdict.fix =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put cuDNN %1 for CUDA %2 beside it, for this program "
                                                 "only: download %3 and install its libraries into %4, "
                                                 "with no PATH change."))
                .arg(Text::verbatim(recommendation->cudnn.truncated(3).toString()),
                     Text::verbatim(recommendation->cudaVariant), Text::verbatim(recommendation->archiveFile),
                     Text::verbatim(folder));
        // Two steps, one a line: the download into the folder the command runs in, then the install
        // of that file beside the program (its libraries only, no PATH change, undone by uninstall).
        const auto quoted = [](const QString &argument) {
            return argument.contains(QLatin1Char(' ')) ? QStringLiteral("\"%1\"").arg(argument) : argument;
        };
        verdict.command =
            QStringLiteral("cudnnctl download --cudnn %1 --cuda %2 --out .\n"
                           "cudnnctl install --archive %3 --target %4")
                .arg(recommendation->cudnn.toString(), recommendation->cudaVariant,
                     quoted(recommendation->archiveFile), quoted(QStringLiteral("app:") + folder));
    }

    const MatchFacts &m_facts;
    const KnowledgeBase &m_kb;
    Version m_maxCuda;
    QList<MatchFacts::Gpu> m_gpus;
};

QString runsName(ConsumerVerdict::Runs runs)
{
    switch (runs) {
    case ConsumerVerdict::Runs::Yes:
        return QStringLiteral("yes");
    case ConsumerVerdict::Runs::No:
        return QStringLiteral("no");
    case ConsumerVerdict::Runs::CannotTell:
        break;
    }
    return QStringLiteral("cannot-tell");
}

QString findsName(ConsumerVerdict::FindsCudnn finds)
{
    switch (finds) {
    case ConsumerVerdict::FindsCudnn::Yes:
        return QStringLiteral("yes");
    case ConsumerVerdict::FindsCudnn::No:
        return QStringLiteral("no");
    case ConsumerVerdict::FindsCudnn::CannotTell:
        return QStringLiteral("cannot-tell");
    case ConsumerVerdict::FindsCudnn::NotNeeded:
        break;
    }
    return QStringLiteral("not-needed");
}

bool consumerIsFor(const ConsumerInfo &consumer, const QString &what)
{
    if (what == QLatin1String("torch"))
        return consumer.name == what;
    if (what == QLatin1String("tensorflow"))
        return isTensorflow(consumer.name);
    if (what == QLatin1String("onnxruntime"))
        return consumer.name.startsWith(what);
    if (what == QLatin1String("jax"))
        return isJax(consumer.name);
    return consumer.name == what; // ctranslate2
}

} // namespace

std::optional<TorchIndex> torchIndexFor(const MatchFacts &facts, const KnowledgeBase &kb)
{
    return ConsumerJudge(facts, kb).torchIndex();
}

bool ConsumerVerdict::fine() const
{
    return runs == Runs::Yes && (findsCudnn == FindsCudnn::Yes || findsCudnn == FindsCudnn::NotNeeded) &&
           missing.isEmpty();
}

QJsonObject ConsumerVerdict::verdictJson() const
{
    return {{QStringLiteral("runs"), runsName(runs)},
            {QStringLiteral("findsCudnn"), findsName(findsCudnn)},
            {QStringLiteral("missing"), QJsonArray::fromStringList(missing)},
            {QStringLiteral("summary"), summary.toString()}};
}

QJsonObject ConsumerVerdict::fixJson() const
{
    return {{QStringLiteral("kind"), fixKind},
            {QStringLiteral("text"), fix.toString()},
            {QStringLiteral("command"), command.isEmpty() ? QJsonValue() : QJsonValue(command)}};
}

QJsonObject JudgedConsumer::toJson() const
{
    QJsonObject object = consumerToJson(consumer);
    object.insert(QStringLiteral("found"), found);
    object.insert(QStringLiteral("verdict"), verdict.verdictJson());
    object.insert(QStringLiteral("fix"), verdict.fixJson());
    return object;
}

ConsumerVerdict judgeConsumer(const ConsumerInfo &consumer, const MatchFacts &facts, const KnowledgeBase &kb)
{
    return ConsumerJudge(facts, kb).judge(consumer);
}

QList<JudgedConsumer> judgeConsumers(const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                                     const KnowledgeBase &kb)
{
    const ConsumerJudge judge(facts, kb);
    QList<JudgedConsumer> judged;
    for (const ConsumerInfo &consumer : consumers)
        judged.append({consumer, judge.judge(consumer), true});
    return judged;
}

QString appFolderOf(const QString &what)
{
    return what.startsWith(QLatin1String("app:")) ? what.mid(4) : QString();
}

Expected<QList<JudgedConsumer>> judgeFor(const QString &what, const QList<ConsumerInfo> &consumers,
                                         const MatchFacts &facts, const KnowledgeBase &kb)
{
    static const QStringList known{QStringLiteral("torch"), QStringLiteral("tensorflow"),
                                   QStringLiteral("onnxruntime"), QStringLiteral("ctranslate2"),
                                   QStringLiteral("jax")};
    const QString folder = appFolderOf(what);
    if (!known.contains(what) && folder.isEmpty())
        return Finding::error(
            QStringLiteral("check.for-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "--for takes torch, tensorflow, onnxruntime, ctranslate2, "
                                                 "jax or app:FOLDER, not \"%1\"."))
                .arg(what));
    const ConsumerJudge judge(facts, kb);
    QList<JudgedConsumer> judged;
    for (const ConsumerInfo &consumer : consumers) {
        const auto clean = [](const QString &path) {
            return QDir::cleanPath(QString(path).replace(QLatin1Char('\\'), QLatin1Char('/')));
        };
        const Qt::CaseSensitivity cases =
            facts.os == OsFamily::Windows ? Qt::CaseInsensitive : Qt::CaseSensitive;
        const bool chosen = folder.isEmpty() ? consumerIsFor(consumer, what)
                                             : clean(consumer.location).compare(clean(folder), cases) == 0;
        if (chosen)
            judged.append({consumer, judge.judge(consumer), true});
    }
    if (judged.isEmpty()) {
        ConsumerInfo absent;
        absent.name = folder.isEmpty() ? what : folder;
        judged.append({absent, judge.judgeAbsent(absent.name), false});
    }
    return judged;
}

QJsonObject snapshotJsonWithVerdicts(const SystemSnapshot &snapshot, const QList<JudgedConsumer> &judged)
{
    QJsonObject object = snapshot.toJson();
    QJsonArray consumers;
    for (const JudgedConsumer &entry : judged)
        consumers.append(entry.toJson());
    object.insert(QStringLiteral("consumers"), consumers);
    return object;
}

} // namespace cudnnsetup
