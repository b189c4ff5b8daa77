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
    else // none goes with the archive: the newest installed, so the tile does not say "not installed"
        for (const MatchFacts::Toolkit &toolkit : facts.toolkits)
            numbers.toolkit = qMax(numbers.toolkit, toolkit.version);
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

// Major and minor only: the tiles compare CUDA releases, and "12.9.1" beside "13.0" reads as a
// different kind of number.
static Text shortVersion(const Version &version)
{
    return Text::verbatim(version.truncated(2).toString());
}

static Text notInstalled()
{
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "not installed"));
}

using Level = CudaNumbers::Tile::Level;

CudaNumbers::Tile CudaNumbers::driverTile() const
{
    if (!driverMaxCuda.isValid())
        return {notInstalled(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "no NVIDIA driver found")), Level::Bad};
    const int archiveMajor = archiveCuda.toInt();
    if (archiveMajor <= 0)
        return {shortVersion(driverMaxCuda), Text(QT_TRANSLATE_NOOP("cudnnsetup", "the newest CUDA it runs")),
                Level::Neutral};
    if (driverMaxCuda.major() < archiveMajor)
        return {shortVersion(driverMaxCuda),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "too old for CUDA %1")).arg(archiveCuda), Level::Bad};
    return {shortVersion(driverMaxCuda),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "runs the archive's CUDA %1")).arg(archiveCuda),
            Level::Good};
}

CudaNumbers::Tile CudaNumbers::toolkitTile() const
{
    if (!toolkit.isValid())
        return {notInstalled(), Text(QT_TRANSLATE_NOOP("cudnnsetup", "only needed to build programs")),
                Level::Neutral};
    const int archiveMajor = archiveCuda.toInt();
    if (archiveMajor <= 0)
        return {shortVersion(toolkit), Text(QT_TRANSLATE_NOOP("cudnnsetup", "installed")), Level::Neutral};
    if (toolkit.major() != archiveMajor)
        return {
            shortVersion(toolkit),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "does not match the archive (CUDA %1)")).arg(archiveCuda),
            Level::Bad};
    return {shortVersion(toolkit), Text(QT_TRANSLATE_NOOP("cudnnsetup", "matches the archive")), Level::Good};
}

CudaNumbers::Tile CudaNumbers::frameworkTile() const
{
    if (frameworkName.isEmpty())
        return {Text(QT_TRANSLATE_NOOP("cudnnsetup", "not found")),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "no Python here has PyTorch")), Level::Neutral};
    if (!framework.isValid())
        return {Text(QT_TRANSLATE_NOOP("cudnnsetup", "CPU-only")),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "this PyTorch does not use the GPU")), Level::Caution};
    return {shortVersion(framework), Text(QT_TRANSLATE_NOOP("cudnnsetup", "brings its own CUDA and cuDNN")),
            Level::Good};
}

CudaNumbers::Tile CudaNumbers::archiveTile() const
{
    if (archiveCuda.isEmpty())
        return {Text(QT_TRANSLATE_NOOP("cudnnsetup", "none")),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "no archive fits this computer")), Level::Bad};
    const Text value = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1.x")).arg(archiveCuda);
    if (archiveRecommended)
        return {value, Text(QT_TRANSLATE_NOOP("cudnnsetup", "the recommended download")), Level::Good};
    return {value, Text(QT_TRANSLATE_NOOP("cudnnsetup", "the archive you chose")), Level::Neutral};
}

} // namespace cudnnsetup
