#pragma once

#include "binary/PeReader.h"
#include "common/Expected.h"

#include <QStringList>

namespace cudnnsetup {

// The GPU code a library carries in its fatbin: which GPUs can run it as it is (SASS) and which
// can have the driver compile it first (PTX).
struct GpuCode
{
    bool hasFatbin = false; // the file has a fatbin section at all
    // What the library is built for: the architectures in at least half of its containers (one
    // container per compiled source file). "sm_75", "sm_90a", "sm_100f": architecture order, each
    // once. torch 2.11 (cu130) on the H200: 444 containers in libtorch_cuda.so, the six
    // architectures torch.cuda.get_arch_list() names in all 444, sm_103a in 59, sm_89 and sm_121a in
    // one each: a GPU of those runs a few kernels, not the library.
    QStringList sass;
    QStringList ptx;        // "compute_90", "compute_120": likewise
    QStringList sassInPart; // in fewer than half of the containers: some kernels only
    QStringList ptxInPart;
    QStringList ptxIsa; // the PTX ISA versions of the PTX entries, "9.0" (what the driver must know)
    int containers = 0; // container headers read
    int entries = 0;    // entry headers read
    Findings warnings;  // the walk stopped early at damage; the lists hold what came before
};

namespace fatbin {

// The entries of the fatbin containers in `size` bytes at `offset` of `source`. Each container
// starts with a 16-byte header (magic 0xBA55ED50, version, its header size, the size of the entries
// after it); each entry with its own header (kind 1 = PTX, 2 = SASS; header size; payload size;
// the PTX ISA version; the architecture number; flags, 0x100000 for an "a" and 0x200000 for an "f"
// architecture). Only headers are read: the walk seeks from entry to entry past the payloads.
GpuCode readContainers(const ByteSource &source, qint64 offset, qint64 size);

// The fatbin of a PE (.nv_fatb) or ELF (.nv_fatbin) file; `hasFatbin` false when it has none.
Expected<GpuCode> read(const ByteSource &source);

} // namespace fatbin
} // namespace cudnnsetup
