#include "archive/TarSource.h"

#include "archive/ArchiveSafety.h"
#include "common/Logging.h"

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <memory>

namespace cudnnsetup {

namespace {
// xz's stream header, and where a POSIX (or GNU) tar header says "ustar".
constexpr char kXzMagic[] = "\xFD"
                            "7zXZ";
constexpr qint64 kUstarMagicOffset = 257;
constexpr int kChecksumOffset = 148;
constexpr int kChecksumSize = 8;
} // namespace

bool looksLikeTar(const QString &hostPath)
{
    QFile file(hostPath);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(512);
    if (head.startsWith(QByteArray(kXzMagic, 5) + '\0'))
        return true;
    if (head.size() < 512)
        return false;
    if (head.mid(kUstarMagicOffset, 5) == "ustar")
        return true;
    // Old tars (v7, GNU volume labels) say nothing of "ustar": their header's checksum says tar.
    const QByteArray field = head.mid(kChecksumOffset, kChecksumSize).trimmed();
    bool octal = false;
    const uint stored =
        QString::fromLatin1(field.left(field.indexOf('\0') < 0 ? field.size() : field.indexOf('\0')))
            .trimmed()
            .toUInt(&octal, 8);
    uint sum = 0;
    for (int i = 0; i < 512; ++i)
        sum += i >= kChecksumOffset && i < kChecksumOffset + kChecksumSize ? uint(' ')
                                                                           : uint(quint8(head.at(i)));
    return octal && stored == sum;
}

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE

namespace {

constexpr qint64 kReadBlock = 1 << 20;
constexpr quint16 kUtf8Flag = 0x0800;
constexpr quint16 kMadeOnUnix = 3 << 8;

// One pass of libarchive over the file, front to back, every read shown to the observer.
class TarReader
{
public:
    TarReader(const QString &hostPath, ReadObserver observer)
        : m_file(hostPath)
        , m_observer(std::move(observer))
        , m_buffer(kReadBlock, Qt::Uninitialized)
    {
    }
    ~TarReader()
    {
        if (m_archive)
            archive_read_free(m_archive);
    }
    TarReader(const TarReader &) = delete;
    TarReader &operator=(const TarReader &) = delete;

    // False when the file cannot be opened (errorString() says why).
    bool open()
    {
        if (!m_file.open(QIODevice::ReadOnly)) {
            m_error = m_file.errorString();
            return false;
        }
        m_archive = archive_read_new();
        // Only what NVIDIA's archives are: tar (ustar, pax, GNU) plain or xz-compressed.
        archive_read_support_filter_xz(m_archive);
        archive_read_support_format_tar(m_archive);
        if (archive_read_open(m_archive, this, nullptr, &TarReader::readCallback, nullptr) != ARCHIVE_OK) {
            m_error = QString::fromUtf8(archive_error_string(m_archive));
            return false;
        }
        return true;
    }

    // The next header, nullptr at the end; `failed` tells an error (errorString()).
    archive_entry *next(bool &failed)
    {
        archive_entry *entry = nullptr;
        const int result = archive_read_next_header(m_archive, &entry);
        failed = result != ARCHIVE_OK && result != ARCHIVE_WARN && result != ARCHIVE_EOF;
        if (failed)
            m_error = QString::fromUtf8(archive_error_string(m_archive));
        return result == ARCHIVE_OK || result == ARCHIVE_WARN ? entry : nullptr;
    }
    qint64 headerPosition() const { return archive_read_header_position(m_archive); }
    // As archive_read_data: bytes, 0 at the end, negative on an error.
    qint64 readData(char *data, qint64 maxSize)
    {
        const la_ssize_t got = archive_read_data(m_archive, data, size_t(maxSize));
        if (got < 0)
            m_error = QString::fromUtf8(archive_error_string(m_archive));
        return got;
    }
    QString errorString() const { return m_error; }

    int index = -1;     // the entry whose header was read last
    int generation = 0; // which stream may read: a newer openEntry() ends the older one

private:
    static la_ssize_t readCallback(archive *archive, void *self, const void **buffer)
    {
        auto *reader = static_cast<TarReader *>(self);
        const qint64 offset = reader->m_file.pos();
        const qint64 got = reader->m_file.read(reader->m_buffer.data(), reader->m_buffer.size());
        if (got < 0) {
            archive_set_error(archive, EIO, "%s", qPrintable(reader->m_file.errorString()));
            return -1;
        }
        if (got > 0 && reader->m_observer)
            reader->m_observer(offset, reader->m_buffer.constData(), got);
        *buffer = reader->m_buffer.constData();
        return la_ssize_t(got);
    }

    QFile m_file;
    ReadObserver m_observer;
    QByteArray m_buffer;
    archive *m_archive = nullptr;
    QString m_error;
};

QByteArray utf8OrRaw(const char *utf8, const char *raw)
{
    return utf8 ? QByteArray(utf8) : QByteArray(raw);
}

// One entry's data, held to its declared size (libarchive's tar reader stops at it anyway; a
// shorter one is a truncated archive).
class TarEntryStream final : public ZipEntryStream
{
public:
    TarEntryStream(std::shared_ptr<TarReader> reader, qint64 declaredSize)
        : m_reader(std::move(reader))
        , m_generation(m_reader->generation)
        , m_declared(declaredSize)
    {
    }

    qint64 read(char *data, qint64 maxSize) override
    {
        if (m_failed)
            return -1;
        if (m_reader->generation != m_generation)
            return fail(QStringLiteral("another entry was opened"));
        if (m_finished)
            return 0;
        const qint64 got = m_reader->readData(data, std::min(maxSize, m_declared - m_produced + 1));
        if (got < 0)
            return fail(m_reader->errorString());
        m_produced += got;
        if (m_produced > m_declared)
            return fail(QStringLiteral("longer than declared"));
        if (got == 0) {
            if (m_produced != m_declared)
                return fail(QStringLiteral("%1 of %2 bytes").arg(m_produced).arg(m_declared));
            m_finished = true;
        }
        return got;
    }
    // A tar has no CRC: the size, and xz's own checks of its blocks, vouch for the data.
    bool crcMatches() const override { return m_finished && m_produced == m_declared; }
    QString errorString() const override { return m_error; }

private:
    qint64 fail(const QString &why)
    {
        m_failed = true;
        m_error = why;
        return -1;
    }

    std::shared_ptr<TarReader> m_reader;
    int m_generation = 0;
    qint64 m_declared = 0;
    qint64 m_produced = 0;
    bool m_finished = false;
    bool m_failed = false;
    QString m_error;
};

class TarSource final : public ZipSource
{
public:
    TarSource(QString hostPath, ReadObserver observer)
        : m_hostPath(std::move(hostPath))
        , m_observer(std::move(observer))
    {
    }

    Backend backend() const override { return Backend::Libarchive; }

    // Lists every entry, stopping at the first that takes the archive beyond the limits: listing
    // unpacks every byte before the last header, which a bomb must not make it do.
    std::optional<Finding> list()
    {
        m_archiveSize = QFileInfo(m_hostPath).size();
        auto reader = std::make_shared<TarReader>(m_hostPath, m_observer);
        if (!reader->open())
            return unreadableOrCorrupt(*reader);
        const ArchiveLimits limits;
        qint64 total = 0;
        for (;;) {
            bool failed = false;
            archive_entry *header = reader->next(failed);
            if (failed)
                return corrupt(reader->errorString());
            if (!header)
                break;
            ZipEntry entry;
            entry.index = int(m_entries.size());
            entry.rawName = utf8OrRaw(archive_entry_pathname_utf8(header), archive_entry_pathname(header));
            entry.flags = kUtf8Flag;
            entry.versionMadeBy = kMadeOnUnix;
            entry.externalAttributes = quint32(archive_entry_mode(header) & 0xFFFF) << 16;
            entry.uncompressedSize = archive_entry_size_is_set(header) ? archive_entry_size(header) : 0;
            entry.compressedSize = entry.uncompressedSize;
            entry.localHeaderOffset = reader->headerPosition();
            entry.streamed = true;
            if (const char *hardLink = archive_entry_hardlink(header)) {
                entry.hardLink = true;
                entry.linkTarget = utf8OrRaw(archive_entry_hardlink_utf8(header), hardLink);
            } else if (const char *symlink = archive_entry_symlink(header)) {
                entry.linkTarget = utf8OrRaw(archive_entry_symlink_utf8(header), symlink);
            }
            total += std::max<qint64>(entry.uncompressedSize, 0);
            m_entries.append(entry);
            const bool tooMany = m_entries.size() > limits.maxEntries ||
                                 entry.uncompressedSize > limits.maxEntrySize || total > limits.maxTotalSize;
            const bool bomb = total > limits.ratioCheckedAbove &&
                              double(total) > limits.maxOverallRatio * double(m_archiveSize);
            if (tooMany || bomb) {
                return Finding::error(
                    tooMany ? QStringLiteral("archive.unsafe-size") : QStringLiteral("archive.unsafe-ratio"),
                    Text(QT_TRANSLATE_NOOP(
                             "cudnnsetup",
                             "The archive declares %1 entries and %2 GB so far from a file of %3 "
                             "MB, beyond what any cuDNN archive holds: it is not read further."))
                        .arg(QString::number(m_entries.size()),
                             QString::number(double(total) / double(1LL << 30), 'f', 1),
                             QString::number(m_archiveSize >> 20)),
                    QStringLiteral(
                        "%1 entries, %2 bytes declared up to \"%3\"; limits %4 entries, %5 bytes each, %6 "
                        "in all, %7 times the file above %8")
                        .arg(m_entries.size())
                        .arg(total)
                        .arg(QString::fromUtf8(entry.rawName))
                        .arg(limits.maxEntries)
                        .arg(limits.maxEntrySize)
                        .arg(limits.maxTotalSize)
                        .arg(limits.maxOverallRatio)
                        .arg(limits.ratioCheckedAbove));
            }
        }
        if (m_entries.isEmpty()) {
            return Finding::error(
                QStringLiteral("archive.empty"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 is an empty tar archive: it holds no files."))
                    .arg(QDir::toNativeSeparators(m_hostPath)),
                QStringLiteral("no entries"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Download the cuDNN archive again: the download may have "
                                       "stopped before it began.")));
        }
        qCInfo(lcCore) << "tar archive" << m_hostPath << "lists" << m_entries.size() << "entries," << total
                       << "bytes declared";
        return std::nullopt;
    }

    Expected<std::unique_ptr<ZipEntryStream>> openEntry(int index) override
    {
        if (index < 0 || index >= m_entries.size())
            return corrupt(QStringLiteral("no entry %1").arg(index));
        // Forward only: an earlier entry is reached by reading the archive again from its start.
        if (!m_reader || m_reader->index >= index) {
            m_reader = std::make_shared<TarReader>(m_hostPath, m_observer);
            if (!m_reader->open()) {
                const Finding problem = unreadableOrCorrupt(*m_reader);
                m_reader.reset();
                return problem;
            }
        }
        ++m_reader->generation;
        archive_entry *header = nullptr;
        while (m_reader->index < index) {
            bool failed = false;
            header = m_reader->next(failed);
            ++m_reader->index;
            if (!header) {
                const QString why = failed ? m_reader->errorString() : QStringLiteral("ends early");
                m_reader.reset();
                return corrupt(why);
            }
        }
        const ZipEntry &entry = m_entries.at(index);
        if (utf8OrRaw(archive_entry_pathname_utf8(header), archive_entry_pathname(header)) != entry.rawName ||
            (archive_entry_size_is_set(header) ? archive_entry_size(header) : 0) != entry.uncompressedSize) {
            m_reader.reset();
            return corrupt(QStringLiteral("entry %1 is not the one listed").arg(index));
        }
        return std::unique_ptr<ZipEntryStream>(
            std::make_unique<TarEntryStream>(m_reader, entry.uncompressedSize));
    }

private:
    Finding unreadableOrCorrupt(const TarReader &reader) const
    {
        if (!QFile(m_hostPath).open(QIODevice::ReadOnly)) {
            return Finding::error(QStringLiteral("archive.unreadable"),
                                  Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
                                      .arg(QDir::toNativeSeparators(m_hostPath)),
                                  reader.errorString());
        }
        return corrupt(reader.errorString());
    }

    Finding corrupt(const QString &details) const
    {
        return Finding::error(
            QStringLiteral("archive.corrupt"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 cannot be read as a tar archive: it is damaged or "
                                                 "incomplete."))
                .arg(QDir::toNativeSeparators(m_hostPath)),
            QStringLiteral("%1 (libarchive): %2").arg(m_hostPath, details),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the cuDNN archive again from NVIDIA.")));
    }

    QString m_hostPath;
    ReadObserver m_observer;
    std::shared_ptr<TarReader> m_reader;
};

} // namespace

Expected<std::unique_ptr<ZipSource>> openWithLibarchive(const QString &hostPath, const ReadObserver &observer)
{
    auto source = std::make_unique<TarSource>(hostPath, observer);
    if (const std::optional<Finding> problem = source->list())
        return *problem;
    return std::unique_ptr<ZipSource>(std::move(source));
}

#endif

} // namespace cudnnsetup
