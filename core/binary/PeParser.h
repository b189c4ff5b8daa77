#pragma once

#include <optional>
#include <utility>

#include <QByteArray>
#include <QList>
#include <QString>

#include "binary/PeReader.h"
#include "common/Finding.h"

namespace cudnnsetup::pe {

struct DataDirectory
{
    quint32 address = 0; // an RVA; a file offset for the certificate table
    quint32 size = 0;
};

struct Section
{
    QString name;
    quint32 virtualAddress = 0;
    quint32 virtualSize = 0;
    quint32 rawSize = 0;
    quint32 rawPointer = 0;
};

// Why a read through an RVA failed.
enum class Problem
{
    None,
    Unmapped,  // the RVA lies in no section (or in its zero-filled tail)
    Truncated, // the section says the bytes are there, the file ends before them
    Invalid,   // the bytes are there but make no sense
};

// The parser behind pe::read: the PE file's headers, tables and version resource, each read
// through bounds-checked offsets.
class PeParser final
{
public:
    explicit PeParser(ByteSource source)
        : m_source(std::move(source))
    {
    }

    // The DOS, COFF and optional headers. `full`: also the whole optional header, the data
    // directories and the section table (else only what `readHeaders` promises).
    std::optional<Finding> parseHeaders(bool full);
    void parseImports();
    void parseDelayImports();
    void parseVersion();
    void parseCertificate();
    void checkSectionExtent();

    PeInfo info;

private:
    QByteArray bytes(qint64 offset, qint64 size) const;
    qint64 rvaToOffset(quint64 rva, qint64 *available) const;
    QByteArray readRva(quint64 rva, qint64 size, Problem *problem) const;
    QString readName(quint64 rva, Problem *problem, QString *why) const;
    DataDirectory directory(int index) const
    {
        return index < m_directories.size() ? m_directories.at(index) : DataDirectory();
    }
    void warn(const QString &id, const Text &message, const QString &details);
    void warnTruncated(const QString &details);
    void warnImports(bool delay, Problem problem, const QString &details);
    void warnVersion(Problem problem, const QString &details);

    // One entry of an IMAGE_RESOURCE_DIRECTORY.
    struct ResourceEntry
    {
        quint32 name = 0;
        quint32 target = 0;
    };
    bool readResourceDirectory(quint64 base, quint32 offset, QList<ResourceEntry> *entries,
                               quint16 *namedCount);
    std::optional<quint32> versionLanguageEntry(quint64 base);
    void parseFixedFileInfo(quint32 dataRva, quint32 dataSize);

    ByteSource m_source;
    quint64 m_imageBase = 0;
    quint32 m_sizeOfHeaders = 0;
    QList<DataDirectory> m_directories;
    QList<Section> m_sections;
};

} // namespace cudnnsetup::pe
