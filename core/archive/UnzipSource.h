#pragma once

#include "archive/CheckedEntryStream.h"
#include "archive/ZipSource.h"
#include "common/Logging.h"
#include "platform/ObservedFile.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace cudnnsetup {

// What both backends share. Their libraries speak the same unzip API (QuaZip bundles its own copy
// of minizip), but the two headers cannot meet in one file; so each backend instantiates
// UnzipSource with a table of its library's functions, and everything else is written once.
class UnzipSourceBase : public ZipSource
{
protected:
    UnzipSourceBase(const QString &hostPath, const ReadObserver &observer);

    // "archive.unreadable" when the file cannot be opened.
    std::optional<Finding> openFile();
    // Why the library found no zip: a file that starts as a zip has lost its end (a download cut
    // short); anything else is not a zip.
    Finding notOpened(const QString &details);
    // Takes the library's view of an entry after checking it against the file: the central record
    // where the library says, with the same sizes (and the stored local header offset, which the
    // library does not hand out), and data that lies inside the file.
    std::optional<Finding> addEntry(ZipEntry entry, qint64 centralRecordOffset,
                                    const QByteArray &centralExtra);
    // What must hold before an entry's data is read: a method that can be read, no encryption, and a
    // local header whose name is the central directory's (the libraries compare only its length);
    // for a Zip64 entry, which the library does not open, one that agrees with the central record in
    // what the library would otherwise check. Returns where the entry's data starts, by that header.
    Expected<qint64> checkBeforeReading(int index);
    Finding corrupt(const QString &details) const;
    void logOpened() const;

    QString m_hostPath;
    ObservedFile m_file;
    struct CentralRecord
    {
        qint64 offset = 0; // as the library counts
        // A Zip64 marker in the record: read without the library (see addEntry).
        bool zip64 = false;
    };
    QList<CentralRecord> m_centralRecords; // one per entry
};

// `Library` describes one unzip library: kBackend; the types Handle, FileInfo (unz_file_info64)
// and FilePos (unz64_file_pos); the codes kOk and kEndOfList; the functions goToFirstFile,
// goToNextFile, currentFileInfo, currentOffset, goToFilePos, openCurrentFile, currentDataOffset and
// closeCurrentFile; and a member `Handle open(QIODevice *, QString *details)`
// whose handle it closes when destroyed.
template <typename Library>
class UnzipSource final : public UnzipSourceBase
{
public:
    static Expected<std::unique_ptr<ZipSource>> open(const QString &hostPath, const ReadObserver &observer)
    {
        std::unique_ptr<UnzipSource> source(new UnzipSource(hostPath, observer));
        if (std::optional<Finding> error = source->openFile())
            return *error;
        QString details;
        source->m_handle = source->m_library.open(&source->m_file, &details);
        if (!source->m_handle)
            return source->notOpened(details);
        if (std::optional<Finding> error = source->readDirectory())
            return *error;
        source->logOpened();
        return std::unique_ptr<ZipSource>(std::move(source));
    }

    Backend backend() const override { return Library::kBackend; }

    Expected<std::unique_ptr<ZipEntryStream>> openEntry(int index) override
    {
        m_openEntry.reset(); // the previous stream reads no further
        const Expected<qint64> dataOffset = checkBeforeReading(index);
        if (!dataOffset.ok())
            return dataOffset.error();
        const qint64 compressedSize = m_entries.at(index).compressedSize;
        if (m_centralRecords.at(index).zip64) {
            m_openEntry = std::make_shared<OpenEntry>(nullptr, &m_file, *dataOffset, compressedSize);
            return std::unique_ptr<ZipEntryStream>(
                std::make_unique<CheckedEntryStream>(m_entries.at(index), m_openEntry));
        }
        typename Library::FilePos position{};
        position.pos_in_zip_directory = static_cast<quint64>(m_centralRecords.at(index).offset);
        position.num_of_file = static_cast<quint64>(index);
        int method = 0;
        int status = Library::goToFilePos(m_handle, &position);
        if (status == Library::kOk)
            status = Library::openCurrentFile(m_handle, &method, nullptr, 1 /* raw */, nullptr);
        if (status != Library::kOk)
            return corrupt(QStringLiteral("entry %1: unzOpenCurrentFile3 failed: %2").arg(index).arg(status));
        m_openEntry = std::make_shared<OpenEntry>(m_handle, &m_file, *dataOffset, compressedSize);
        // The library must read the data that follows the local header checked above.
        const auto libraryDataOffset = static_cast<qint64>(Library::currentDataOffset(m_handle));
        if (libraryDataOffset != *dataOffset) {
            m_openEntry.reset();
            return corrupt(
                QStringLiteral("entry %1: the library reads its data at %2, the local header says %3")
                    .arg(index)
                    .arg(libraryDataOffset)
                    .arg(*dataOffset));
        }
        return std::unique_ptr<ZipEntryStream>(
            std::make_unique<CheckedEntryStream>(m_entries.at(index), m_openEntry));
    }

private:
    using UnzipSourceBase::UnzipSourceBase;

    // The entry's compressed bytes, read from the file in large blocks once the library has opened
    // the entry (which checks its local header) and agreed where its data starts: the libraries'
    // own reads go 16 KiB at a time and checksum the compressed bytes on the way, which costs
    // more than the inflating. Without a handle, the library did not open the entry.
    class OpenEntry final : public RawEntryReader
    {
    public:
        OpenEntry(typename Library::Handle handle, QIODevice *file, qint64 dataOffset, qint64 compressedSize)
            : m_handle(handle)
            , m_file(file)
            , m_next(dataOffset)
            , m_end(dataOffset + compressedSize)
        {
        }
        ~OpenEntry() override
        {
            if (m_handle)
                Library::closeCurrentFile(m_handle);
        }

        qint64 readRaw(char *data, qint64 maxSize) override
        {
            const qint64 wanted = std::min(maxSize, m_end - m_next);
            if (wanted <= 0)
                return 0;
            if (m_file->pos() != m_next && !m_file->seek(m_next))
                return -1;
            const qint64 count = m_file->read(data, wanted);
            if (count <= 0) {
                qCDebug(lcCore).noquote() << QStringLiteral("reading the entry's data at %1 failed: %2")
                                                 .arg(m_next)
                                                 .arg(m_file->errorString());
                return -1;
            }
            m_next += count;
            return count;
        }

    private:
        typename Library::Handle m_handle;
        QIODevice *m_file;
        qint64 m_next;
        qint64 m_end;
    };

    std::optional<Finding> readDirectory()
    {
        for (int status = Library::goToFirstFile(m_handle); status != Library::kEndOfList;
             status = Library::goToNextFile(m_handle)) {
            typename Library::FileInfo info{};
            if (status == Library::kOk)
                status = Library::currentFileInfo(m_handle, &info, nullptr, 0, nullptr, 0, nullptr, 0);
            QByteArray name(static_cast<qsizetype>(info.size_filename), Qt::Uninitialized);
            QByteArray extra(static_cast<qsizetype>(info.size_file_extra), Qt::Uninitialized);
            if (status == Library::kOk) {
                status = Library::currentFileInfo(m_handle, &info, name.data(), name.size(), extra.data(),
                                                  extra.size(), nullptr, 0);
            }
            if (status != Library::kOk) {
                return corrupt(QStringLiteral("central directory entry %1: unzip error %2")
                                   .arg(m_entries.size())
                                   .arg(status));
            }
            ZipEntry entry;
            entry.rawName = name;
            entry.flags = static_cast<quint16>(info.flag);
            entry.versionMadeBy = static_cast<quint16>(info.version);
            entry.method = static_cast<quint16>(info.compression_method);
            entry.crc32 = static_cast<quint32>(info.crc);
            entry.compressedSize = static_cast<qint64>(info.compressed_size);
            entry.uncompressedSize = static_cast<qint64>(info.uncompressed_size);
            entry.externalAttributes = static_cast<quint32>(info.external_fa);
            const auto centralOffset = static_cast<qint64>(Library::currentOffset(m_handle));
            if (std::optional<Finding> error = addEntry(std::move(entry), centralOffset, extra))
                return error;
        }
        return std::nullopt;
    }

    Library m_library;
    typename Library::Handle m_handle = nullptr;
    std::shared_ptr<OpenEntry> m_openEntry; // destroyed first: closes the entry before the library
};

} // namespace cudnnsetup
