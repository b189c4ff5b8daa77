// The ELF reader on any bytes: the header, the program headers, the dynamic section's strings.
#include "FuzzInput.h"
#include "binary/ElfReader.h"
#include "binary/PeReader.h"

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzzinput::bytes(data, size);
    (void)elf::readHeader(input);
    (void)elf::readDynamic(bufferSource(input));
    return 0;
}
