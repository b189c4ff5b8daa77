#pragma once

#include "binary/PeReader.h"

#include <algorithm>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QtEndian>

#include <utility>

// PE images built byte by byte, with every part where a test can find and damage it.
namespace peimage {

// Little-endian values written at chosen offsets of a growing buffer.
class ByteBuilder
{
public:
    ByteBuilder() = default;
    explicit ByteBuilder(const QByteArray &data)
        : m_data(data)
    {
    }

    QByteArray data() const { return m_data; }
    int size() const { return int(m_data.size()); }

    void u8(int at, quint8 value)
    {
        ensure(at + 1);
        m_data[at] = char(value);
    }
    void u16(int at, quint16 value)
    {
        ensure(at + 2);
        qToLittleEndian<quint16>(value, m_data.data() + at);
    }
    void u32(int at, quint32 value)
    {
        ensure(at + 4);
        qToLittleEndian<quint32>(value, m_data.data() + at);
    }
    void u64(int at, quint64 value)
    {
        ensure(at + 8);
        qToLittleEndian<quint64>(value, m_data.data() + at);
    }
    void bytes(int at, const QByteArray &value)
    {
        ensure(at + int(value.size()));
        std::copy(value.cbegin(), value.cend(), m_data.begin() + at);
    }
    // Zero-terminated ASCII.
    void ascii(int at, const QByteArray &text) { bytes(at, text + '\0'); }
    // Zero-terminated UTF-16LE.
    void utf16(int at, const QString &text)
    {
        for (int i = 0; i < text.size(); ++i)
            u16(at + 2 * i, text.at(i).unicode());
        u16(at + 2 * int(text.size()), 0);
    }
    int append(const QByteArray &value)
    {
        const int at = size();
        bytes(at, value);
        return at;
    }
    void align(int alignment)
    {
        while (size() % alignment != 0)
            m_data.append('\0');
    }

private:
    void ensure(int end)
    {
        if (m_data.size() < end)
            m_data.append(QByteArray(end - m_data.size(), '\0'));
    }

    QByteArray m_data;
};

struct ImageSpec
{
    quint16 machine = cudnnsetup::PeInfo::Amd64;
    bool pe32Plus = true;
    quint16 characteristics = 0x2022; // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE | DLL
    quint16 subsystem = 3;            // WINDOWS_CUI
    quint16 dllCharacteristics = 0x0160;
    QList<QByteArray> imports;
    QList<QByteArray> delayImports;
    bool delayVaBased = false; // Visual C++ 6 style: attributes 0, fields are VAs
    QList<int> fileVersion;    // four parts; empty: no .rsrc section
    QList<int> productVersion;
    QByteArray certificate; // appended as a WIN_CERTIFICATE when not empty
    int rdataPadding = 0;   // zero bytes at the end of .rdata, for tests to fill
    QByteArray rdataData;   // more bytes at the end of .rdata (strings a program uses)
    // More sections after the others, e.g. {".nv_fatb", containers}.
    QList<std::pair<QByteArray, QByteArray>> sections = {};
};

// The image and where its parts are, so tests can damage them.
struct Image
{
    QByteArray bytes;
    int lfanew = 0x80;
    int coff = 0;                // COFF header (after "PE\0\0")
    int optional = 0;            // optional header
    int numberOfRvaAndSizes = 0; // file offset of the field
    int directories = 0;         // file offset of data directory 0
    int rdataRaw = 0;
    quint32 rdataVa = 0;
    int paddingRaw = 0; // rdataPadding
    quint32 paddingVa = 0;
    int rsrcRaw = 0; // resource directory root
    int rsrcLevel2 = 0;
    int rsrcLevel3 = 0;
    int versionRaw = 0;
    int certificateOffset = 0;
};

Image buildImage(const ImageSpec &spec);
// A plain DLL for `machine` (PE32+ unless x86), as archives hold them.
QByteArray dllFor(quint16 machine);
QByteArray x64Dll();

} // namespace peimage
