#include "compat/ConsumerJudge.h"

#include <algorithm>

#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"

namespace cudnnsetup {

namespace {

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

} // namespace

std::optional<TorchIndex> ConsumerJudge::torchIndex() const
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

bool ConsumerJudge::preferred(const TorchBuild &candidate, const TorchBuild &best) const
{
    if (!m_maxCuda.isValid())
        return candidate.cuda > best.cuda;
    const bool candidateWithin = candidate.cuda <= m_maxCuda;
    const bool bestWithin = best.cuda <= m_maxCuda;
    if (candidateWithin != bestWithin)
        return candidateWithin;
    return candidateWithin ? candidate.cuda > best.cuda : candidate.cuda < best.cuda;
}

bool ConsumerJudge::coversGpus(const TorchArchitectures &archs, const Version &cuda,
                               const QString &system) const
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

TorchIndex ConsumerJudge::index(const TorchRelease &release, const TorchBuild &build,
                                bool driverUpdateNeeded) const
{
    TorchIndex choice;
    choice.torch = release.torch;
    choice.cuda = build.cuda.truncated(2);
    choice.tag = QStringLiteral("cu%1%2").arg(build.cuda.major()).arg(build.cuda.minor());
    choice.url = QStringLiteral("https://download.pytorch.org/whl/%1").arg(choice.tag);
    choice.driverMinimum = driverFor(m_kb, m_facts.os, build.toolkit.isValid() ? build.toolkit : build.cuda);
    choice.driverUpdateNeeded = driverUpdateNeeded;
    return choice;
}

void ConsumerJudge::wslFix(const Text &why, ConsumerVerdict &verdict) const
{
    verdict.runs = ConsumerVerdict::Runs::No;
    verdict.summary = why;
    verdict.fixKind = QStringLiteral("wsl2");
    verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use WSL 2: install a Linux distribution with "
                                                       "\"wsl --install\", then install the GPU build "
                                                       "inside it (the Windows driver serves it)."));
    verdict.command = QStringLiteral("wsl --install");
}

void ConsumerJudge::driverFix(const Version &cuda, ConsumerVerdict &verdict) const
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

void ConsumerJudge::torchFix(const QString &package, bool installed, ConsumerVerdict &verdict) const
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
    verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install torch from PyTorch's %1 index: its builds "
                                                       "(torch %2, CUDA %3) carry GPU code for %4 and run on "
                                                       "this driver."))
                      .arg(Text::verbatim(index->tag), Text::verbatim(index->torch.toString()),
                           Text::verbatim(index->cuda.toString()), gpusText());
    verdict.command = pip.arg(packages, index->url);
}

void ConsumerJudge::cudnnFix(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const
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
    verdict.fix = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put cuDNN %1 for CUDA %2 beside it, for this program "
                                                       "only: download %3 and install its libraries into %4, "
                                                       "with no PATH change."))
                      .arg(Text::verbatim(recommendation->cudnn.truncated(3).toString()),
                           Text::verbatim(recommendation->cudaVariant),
                           Text::verbatim(recommendation->archiveFile), Text::verbatim(folder));
    // Two steps, one a line: the download into the folder the command runs in, then the install
    // of that file beside the program (its libraries only, no PATH change, undone by uninstall).
    const auto quoted = [](const QString &argument) {
        return argument.contains(QLatin1Char(' ')) ? QStringLiteral("\"%1\"").arg(argument) : argument;
    };
    verdict.command = QStringLiteral("cudnnctl download --cudnn %1 --cuda %2 --out .\n"
                                     "cudnnctl install --archive %3 --target %4")
                          .arg(recommendation->cudnn.toString(), recommendation->cudaVariant,
                               quoted(recommendation->archiveFile), quoted(QStringLiteral("app:") + folder));
}

} // namespace cudnnsetup
