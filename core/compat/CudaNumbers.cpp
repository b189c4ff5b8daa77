#include "compat/CudaNumbers.h"

#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"

namespace cudnnsetup {

CudaNumbers CudaNumbers::of(const MatchFacts &facts, const MatchResult &result, const KnowledgeBase &kb)
{
    CudaNumbers numbers;
    numbers.driverMaxCuda =
        facts.driverMaxCuda.isValid() ? facts.driverMaxCuda : kb.maxCudaForDriver(facts.driver);
    if (result.recommendation && result.recommendation->targetToolkit)
        numbers.toolkit = result.recommendation->targetToolkit->version;
    else if (facts.targetToolkit)
        numbers.toolkit = facts.targetToolkit->version;
    for (const MatchFacts::Python &python : facts.pythons) {
        if (python.hasTorch) {
            numbers.framework = python.torchCuda;
            numbers.frameworkName = QStringLiteral("torch %1").arg(python.torchVersion);
            break;
        }
    }
    if (facts.archive) {
        numbers.archiveCuda = facts.archive->cudaVariant;
    } else if (result.recommendation) {
        numbers.archiveCuda = result.recommendation->cudaVariant;
        numbers.archiveRecommended = true;
    }
    return numbers;
}

} // namespace cudnnsetup
