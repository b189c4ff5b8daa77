#include "compat/ConsumerJudge.h"

#include <algorithm>

#include <QRegularExpression>

#include "compat/KnowledgeBase.h"
#include "detect/VersionParsers.h"

namespace cudnnsetup {

namespace {

QString versionText(const Version &version)
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

} // namespace

bool ConsumerJudge::isTorchFamily(const QString &name)
{
    return name == QLatin1String("torch") || name == QLatin1String("torchvision") ||
           name == QLatin1String("torchaudio");
}

bool ConsumerJudge::isTensorflow(const QString &name)
{
    return name == QLatin1String("tensorflow") || name.startsWith(QLatin1String("tensorflow-"));
}

bool ConsumerJudge::isJax(const QString &name)
{
    return name == QLatin1String("jax") || name == QLatin1String("jaxlib") ||
           name.startsWith(QLatin1String("jax-cuda"));
}

QString ConsumerJudge::folderOf(const QString &path)
{
    const int at = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
    return at > 0 ? path.left(at) : path;
}

ConsumerJudge::ConsumerJudge(const MatchFacts &facts, const KnowledgeBase &kb)
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

ConsumerVerdict ConsumerJudge::judge(const ConsumerInfo &consumer) const
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
        verdict.fix =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Make %1 reachable for it: install the CUDA %2 toolkit, or "
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

ConsumerVerdict ConsumerJudge::judgeAbsent(const QString &what) const
{
    ConsumerVerdict verdict;
    verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No %1 was found here.")).arg(what);
    if (what == QLatin1String("torch")) {
        torchFix(QStringLiteral("torch"), false, verdict);
        return verdict;
    }
    if (what == QLatin1String("tensorflow") && windowsNative() &&
        m_kb.tensorflowLastNativeWindowsGpu().isValid()) {
        wslFix(Text(QT_TRANSLATE_NOOP("cudnnsetup", "TensorFlow newer than %1 has no GPU build for native "
                                                    "Windows."))
                   .arg(m_kb.tensorflowLastNativeWindowsGpu().toString()),
               verdict);
        return verdict;
    }
    verdict.fixKind = QStringLiteral("install");
    verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install %1, then check again.")).arg(what);
    return verdict;
}

Text ConsumerJudge::gpusText() const
{
    QList<Text> names;
    for (const MatchFacts::Gpu &gpu : m_gpus)
        names.append(gpuName(gpu));
    return names.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")) : Text::list(names);
}

bool ConsumerJudge::nativeWindowsCpuOnly(const ConsumerInfo &consumer, const Text &name,
                                         ConsumerVerdict &verdict) const
{
    if (!windowsNative())
        return false;
    const Version version = Version::parse(consumer.version.section(QLatin1Char('.'), 0, 2));
    if (isTensorflow(consumer.name) && version.isValid() && m_kb.tensorflowLastNativeWindowsGpu().isValid() &&
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

void ConsumerJudge::judgeCudnn(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
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
            found.append(copy->version.isEmpty() ? copy->path
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

void ConsumerJudge::judgeRuns(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
{
    if (consumer.cudaMajor && m_maxCuda.isValid() && *consumer.cudaMajor > m_maxCuda.major()) {
        verdict.runs = ConsumerVerdict::Runs::No;
        verdict.summary =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is built for CUDA %2, but driver %3 runs "
                                                 "CUDA up to %4."))
                .arg(name, Text::verbatim(QString::number(*consumer.cudaMajor)),
                     Text::verbatim(versionText(m_facts.driver)), Text::verbatim(versionText(m_maxCuda)));
        if (isTorchFamily(consumer.name))
            torchFix(consumer.name, true, verdict);
        else
            driverFix(Version::parse(QStringLiteral("%1.0").arg(*consumer.cudaMajor)), verdict);
        return;
    }
    if (m_gpus.isEmpty()) {
        verdict.runs = ConsumerVerdict::Runs::CannotTell;
        verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No NVIDIA GPU is known here, so whether %1 "
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
        if (ptxSettlesRuns(consumer, name, gpu, verdict))
            return;
        viaPtx = true;
    }
    verdict.runs = ConsumerVerdict::Runs::Yes;
    if (verdict.findsCudnn != ConsumerVerdict::FindsCudnn::Yes)
        verdict.summary =
            viaPtx ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 runs on %2 by having the driver "
                                                          "compile its PTX (slow on first use)."))
                         .arg(name, gpusText())
                   : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has GPU code for %2.")).arg(name, gpusText());
}

bool ConsumerJudge::ptxSettlesRuns(const ConsumerInfo &consumer, const Text &name, const MatchFacts::Gpu &gpu,
                                   ConsumerVerdict &verdict) const
{
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
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 has no GPU code for %2 except PTX of CUDA %3, which "
                                                 "driver %4 (CUDA %5) cannot compile."))
                .arg(name, gpuName(gpu), Text::verbatim(lowest.toString()),
                     Text::verbatim(versionText(m_facts.driver)), Text::verbatim(versionText(m_maxCuda)));
        if (isTorchFamily(consumer.name))
            torchFix(consumer.name, true, verdict);
        else
            driverFix(highest, verdict);
        return true;
    }
    if (unmapped || !m_maxCuda.isValid() || m_maxCuda.truncated(2) < highest) {
        verdict.runs = ConsumerVerdict::Runs::CannotTell;
        verdict.summary =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 can run on %2 only by compiling its PTX (ISA %3), and "
                                                 "whether driver %4 can is not known."))
                .arg(name, gpuName(gpu), Text::list(consumer.ptxIsa),
                     Text::verbatim(versionText(m_facts.driver)));
        return true;
    }
    return false;
}

void ConsumerJudge::noCode(const ConsumerInfo &consumer, const Text &name, const MatchFacts::Gpu &gpu,
                           ConsumerVerdict &verdict) const
{
    verdict.runs = ConsumerVerdict::Runs::No;
    verdict.summary = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 carries GPU code for %2 only, none of which "
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

} // namespace cudnnsetup
