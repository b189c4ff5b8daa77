#pragma once

// The matcher's judge, one class whose checks live in the files named after their subject:
// Matcher.cpp (the order they run in), JudgeToolkits.cpp, JudgeArchives.cpp, JudgePythons.cpp,
// JudgeRecommendation.cpp.
#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"

#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

namespace judge {

QString text(const Version &version); // "?" when invalid
QString platformFor(const MatchFacts &facts);
int cudaMajorOf(const QString &cudaVariant);
QString archiveFileName(const QString &platform, const Version &cudnn, const QString &cudaVariant);
// NVIDIA's download folder for the archives of cuDNN 8.5 and later (reference: NV_REDIST_INDEX);
// empty where that layout does not hold.
QString redistUrl(const QString &platform, const Version &cudnn, const QString &fileName);
Text gpuText(const KnowledgeBase &kb, const MatchFacts::Gpu &gpu);

enum class Support
{
    Supported,
    Unsupported,
    NewerThanListed,
    Unknown,
};

// A GPU runs code built for an earlier minor of its own major (8.6 runs 8.0's), so a listed
// capability of the same major and a lower or equal minor covers it.
Support supportOf(const CudnnRow &row, const Version &cc);
Version driverMinimum(const CudnnRow &row, OsFamily os);

// One judgement of one machine: run() adds each check's findings, then the recommendation.
class Judge
{
public:
    Judge(const MatchFacts &facts, const KnowledgeBase &kb);
    MatchResult run();

private:
    void add(const Finding &finding) { m_result.findings.append(finding); }
    Version lowestCc() const;
    // A GPU whose compute capability nobody knows could be any architecture: nothing that depends on
    // it is judged, and the verdict is "cannot tell", never "compatible".
    void checkGpus();
    // A driver that reports a CUDA, or a toolkit, newer than any the database knows: the machine
    // is newer than the facts, which is said rather than guessed past.
    void checkDatabaseAge();
    void checkDriverPresent();
    // The toolkit cuDNN goes with: the one chosen, else the newest the driver can run whose
    // major matches the chosen archive, if any.
    std::optional<MatchFacts::Toolkit> chooseTarget() const;
    Version minorCompatFloor(int cudaMajor) const;
    // The oldest driver a toolkit runs on: its own minimum, lowered to its major's minor-version
    // compatibility floor where that is lower (12.2 runs on 528.33 through it; 12.0 GA needs only
    // its own 527.41). Invalid when NVIDIA prints neither.
    Version lowestDriverFor(const Version &toolkit) const;
    // The driver to advise for CUDA `toolkit`: NVIDIA's minimum for its release on this system, else
    // the minor-version floor of its major; invalid when NVIDIA prints neither.
    Version driverToAdvise(const Version &toolkit) const;
    void checkToolkitDriver(const MatchFacts::Toolkit &toolkit);
    // Toolkits passed over because the driver cannot run their major: the user has them for a
    // reason, so say what it takes to use them.
    void checkUnusableToolkits();
    // The driver to get, as a version a student can compare with the one installed: NVIDIA's
    // minimum for this toolkit on this system (else its minor-version floor) where it prints one,
    // else the lowest version of the branch (580.00: no driver of another system's table is borrowed).
    Text branchFix(const Version &cuda) const;
    void checkGpusAgainstCuda(int cudaMajor);
    // The newest CUDA major that still builds for `cc`.
    int newestCudaFor(const Version &cc) const;
    Text newestCudaFix(const Version &cc) const;
    void checkArchive(const MatchFacts::Archive &archive, const std::optional<MatchFacts::Toolkit> &target);
    // cuDNN loads its CUDA major's cudart and cuBLAS: with toolkits of other majors only, none of
    // them can serve it (frameworks bring their own cuDNN, so they do not change that). The fix
    // names this release for the newest toolkit the driver runs, where NVIDIA built one for it.
    void checkSomeToolkitFits(const MatchFacts::Archive &archive, int archiveMajor, const QString &platform,
                              const CudnnRelease *release);
    void checkVariant(const CudnnRelease &release, const CudnnVariant &variant,
                      const std::optional<MatchFacts::Toolkit> &target);
    void checkTestedRange(const CudnnRelease &release, const CudnnVariant &variant, const Version &toolkit,
                          const QString &borrowed);
    void checkGpuAgainstVariant(const CudnnRelease &release, const CudnnVariant &variant,
                                const MatchFacts::Gpu &gpu, const std::optional<MatchFacts::Toolkit> &target,
                                const QString &borrowed);
    void checkZlib(const Version &cudnn, bool windows, const QString &what);
    void checkInstalledZlib();
    void checkPythons();
    // A CUDA build of torch carries its own cuDNN: who uses only PyTorch needs no system cuDNN. Its
    // version as torch reported it, else as PyTorch's release matrix gives it for that build.
    void adviseOnBundledCudnn(const MatchFacts::Python &python);
    // "pip install torch --index-url …/cuNNN": the index of the newest torch build that carries
    // code for these GPUs and that the driver runs (torchIndexFor, as the consumer verdicts say it);
    // with no GPU known, the newest build the driver runs.
    Text torchFix() const;
    // `major`, or the newest CUDA major below it that still builds for the oldest GPU.
    int cudaMajorForGpus(int major, const Version &lowest) const;
    // A build fits when its support matrix lists every GPU. A build whose list is unknown fits only
    // a GPU whose own capability is unknown: for a known GPU it would be a guess.
    bool fitsGpus(const CudnnVariant &variant) const;
    void recommend(const std::optional<MatchFacts::Toolkit> &target);
    const MatchFacts &m_facts;
    const KnowledgeBase &m_kb;
    Version m_maxCuda;
    QList<MatchFacts::Gpu> m_gpus;
    MatchResult m_result;
};

} // namespace judge

} // namespace cudnnsetup
