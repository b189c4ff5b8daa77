#pragma once

#include "common/Text.h"
#include "common/Version.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/Matcher.h"

#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

class KnowledgeBase;
struct TorchArchitectures;
struct TorchBuild;
struct TorchRelease;

// Judges the programs of one machine (judgeConsumer, judgeConsumers, judgeFor): whether each runs
// on its GPUs and finds its cuDNN (ConsumerJudge.cpp), and the one fix to give
// (ConsumerJudgeFixes.cpp).
class ConsumerJudge final
{
public:
    ConsumerJudge(const MatchFacts &facts, const KnowledgeBase &kb);

    const QList<MatchFacts::Gpu> &gpus() const { return m_gpus; }
    Version maxCuda() const { return m_maxCuda; }

    ConsumerVerdict judge(const ConsumerInfo &consumer) const;
    // The fix for a program that is not there: torch from the index for this GPU and driver.
    ConsumerVerdict judgeAbsent(const QString &what) const;
    std::optional<TorchIndex> torchIndex() const;

    // Package names: "tensorflow", "tensorflow-gpu", ...; "jax", "jaxlib", "jax-cuda12-plugin", ...
    static bool isTensorflow(const QString &name);
    static bool isJax(const QString &name);

private:
    static bool isTorchFamily(const QString &name); // torch, torchvision, torchaudio
    static QString folderOf(const QString &path);   // of a file, with / or \ as separator

    bool windowsNative() const { return m_facts.os == OsFamily::Windows && !m_facts.wsl2; }

    // Of two builds the driver runs: the higher CUDA not above the driver's, before one above it.
    bool preferred(const TorchBuild &candidate, const TorchBuild &best) const;
    bool coversGpus(const TorchArchitectures &archs, const Version &cuda, const QString &system) const;
    TorchIndex index(const TorchRelease &release, const TorchBuild &build, bool driverUpdateNeeded) const;
    Text gpusText() const;

    bool nativeWindowsCpuOnly(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const;
    // Whether each cuDNN name it asks for reaches a copy of the major it needs; the other CUDA
    // libraries it needs that reach nothing go to `missing`.
    void judgeCudnn(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const;
    // Which GPU code runs on each GPU; the first GPU it cannot run on decides.
    void judgeRuns(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const;
    // Only PTX can run on `gpu`: whether the driver can compile it. True when that settles the
    // verdict (it cannot, or whether it can is not known).
    bool ptxSettlesRuns(const ConsumerInfo &consumer, const Text &name, const MatchFacts::Gpu &gpu,
                        ConsumerVerdict &verdict) const;
    void noCode(const ConsumerInfo &consumer, const Text &name, const MatchFacts::Gpu &gpu,
                ConsumerVerdict &verdict) const;

    void wslFix(const Text &why, ConsumerVerdict &verdict) const;
    void driverFix(const Version &cuda, ConsumerVerdict &verdict) const;
    // `installed`: replace the build there (pip keeps a torch of the same version otherwise).
    void torchFix(const QString &package, bool installed, ConsumerVerdict &verdict) const;
    // The newest cuDNN of the major it needs, for its CUDA major, that supports the GPUs: beside it.
    void cudnnFix(const ConsumerInfo &consumer, const Text &name, ConsumerVerdict &verdict) const;

    const MatchFacts &m_facts;
    const KnowledgeBase &m_kb;
    Version m_maxCuda;
    QList<MatchFacts::Gpu> m_gpus;
};

} // namespace cudnnsetup
