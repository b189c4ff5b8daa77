#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// Fatbin containers built from headers, as nvcc lays them out, with payloads of chosen sizes
// (filled with a byte no header holds), for the reader to walk without any CUDA tool.
namespace fatbinimage {

struct Entry
{
    enum Kind
    {
        Ptx = 1,
        Sass = 2,
    };
    Kind kind = Sass;
    int arch = 80;    // 75, 90, 120
    QString suffix;   // "", "a", "f"
    int isaMajor = 9; // PTX ISA version (PTX entries)
    int isaMinor = 0;
    int payloadSize = 40; // bytes after the entry header (rounded up to 8)
    int headerSize = 64;  // 64, 80, 112: what newer GPUs' entries use
};

// One container holding `entries`.
QByteArray container(const QList<Entry> &entries);

} // namespace fatbinimage
