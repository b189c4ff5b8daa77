// NVIDIA's Linux archives as `cudnnctl inspect` reads them through libarchive: the tar headers
// (ustar, pax, GNU, v7), xz, the listing's limits, the safety rules for links, hard links and
// devices, every entry read and held to its declared size, the layout and the version header.
#include "FuzzInput.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzzinput::InputFile archive(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"));
    (void)inspectArchive(archive.write(data, size), KnowledgeBase::embedded().publishedArchives());
    return 0;
}
