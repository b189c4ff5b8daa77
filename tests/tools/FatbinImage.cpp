#include "FatbinImage.h"

#include "PeImage.h"

namespace fatbinimage {

QByteArray container(const QList<Entry> &entries)
{
    peimage::ByteBuilder body;
    for (const Entry &entry : entries) {
        const int at = body.size();
        const int payload = (entry.payloadSize + 7) & ~7;
        body.u16(at, quint16(entry.kind));
        body.u16(at + 2, 0x0101);
        body.u32(at + 4, quint32(entry.headerSize));
        body.u64(at + 8, quint64(payload));
        body.u32(at + 16, quint32(entry.payloadSize));
        body.u16(at + 24, quint16(entry.kind == Entry::Ptx ? entry.isaMinor : 8));
        body.u16(at + 26, quint16(entry.kind == Entry::Ptx ? entry.isaMajor : 1));
        body.u32(at + 28, quint32(entry.arch));
        quint64 flags = 0x11; // 64-bit code for a Linux host
        if (entry.suffix == QLatin1String("a"))
            flags |= 0x100000;
        else if (entry.suffix == QLatin1String("f"))
            flags |= 0x200000;
        body.u64(at + 40, flags);
        body.bytes(at + entry.headerSize, QByteArray(payload, char(0xA5)));
    }
    peimage::ByteBuilder out;
    out.u32(0, 0xBA55ED50u);
    out.u16(4, 1);  // version
    out.u16(6, 16); // header size
    out.u64(8, quint64(body.size()));
    out.append(body.data());
    return out.data();
}

} // namespace fatbinimage
