// The zip layer as `cudnnctl inspect` drives it, on every backend of the build: the end records,
// the central directory, the safety rules, every entry inflated and held to its CRC, the DLLs' PE
// headers, the version header, the layout and the library set.
#include "FuzzInput.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzzinput::InputFile archive(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"));
    const QString &path = archive.write(data, size);
    for (const ZipSource::Backend backend : ZipSource::backends()) {
        InspectOptions options;
        options.backend = backend;
        (void)inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options);
    }
    return 0;
}
