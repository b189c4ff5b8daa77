// The parsers of what tools print and files say: nvidia-smi's table and CSV query, nvcc --version,
// CUDA's version.json and version.txt, cudnn_version.h, and the names versions are read from.
#include "FuzzInput.h"
#include "detect/NvidiaSmiParser.h"
#include "detect/VersionParsers.h"

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzzinput::bytes(data, size);
    const QString text = fuzzinput::text(data, size);
    (void)nvidiasmi::parseTable(text);
    (void)nvidiasmi::parseQuery(text, {QStringLiteral("name"), QStringLiteral("compute_cap"),
                                       QStringLiteral("memory.total"), QStringLiteral("driver_version")});
    (void)nvidiasmi::isDriverFailure(text);
    (void)versions::fromNvccOutput(text);
    (void)versions::fromCudaVersionJson(input);
    (void)versions::fromCudaVersionTxt(input);
    (void)versions::fromCudnnHeader(input);
    (void)versions::fromCudnnLibraryName(text);
    (void)versions::cudnnLibraryStem(text);
    (void)versions::fromCudartName(text);
    (void)versions::fromDistInfoName(text);
    (void)versions::nvidiaDriverFromWindowsFileVersion(text);
    return 0;
}
