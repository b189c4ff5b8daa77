// The PE reader on any bytes: headers, imports, delay imports, version resource, certificate table.
#include "FuzzInput.h"
#include "binary/PeReader.h"

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzzinput::bytes(data, size);
    (void)pe::read(bufferSource(input));
    (void)pe::readHeaders(input);
    return 0;
}
