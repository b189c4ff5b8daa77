#include "install/Zlibwapi.h"

#include "common/Logging.h"
#include "loader/SearchOrder.h"
#include "platform/Sha256.h"

#include <algorithm>
#include <utility>

#include <QFile>
#include <QMap>
#include <QSet>

namespace cudnnsetup {

namespace {

// ---- The embedded DLL ----------------------------------------------------------------------------

struct Embedded
{
    QByteArray bytes;
    QString sha256;
};

const Embedded &embedded()
{
    static const Embedded value = [] {
        Embedded result;
#ifdef CUDNNSETUP_HAVE_ZLIBWAPI
        QFile file(QString::fromLatin1(kZlibwapiResource));
        if (file.open(QIODevice::ReadOnly))
            result.bytes = file.readAll();
        if (!result.bytes.isEmpty())
            result.sha256 = Sha256::of(result.bytes);
        else
            qCWarning(lcInstall).noquote()
                << "zlibwapi.dll: the resource" << kZlibwapiResource << "cannot be read";
#endif
        return result;
    }();
    return value;
}

// ---- Reading a DLL's imports ---------------------------------------------------------------------

// A stream is read in blocks; the PE reader's reads are served from those kept.
constexpr qint64 kBlock = 64 * 1024;
// One read of the PE reader spans a few blocks at most (a version resource is up to 64 KiB).
constexpr qint64 kMaxBlocksPerRead = 4;
// Passes over a stream: the headers, then what they point at, then what that points at. Real DLLs
// need two or three; the bound keeps a hostile one from being read over and over.
constexpr int kMaxPasses = 6;
constexpr qint64 kSkipBuffer = 1024 * 1024;
// At most this many blocks are kept (16 MiB); real DLLs need a handful.
constexpr qint64 kMaxBlocks = 256;

// The bytes of a DLL that can only be read front to back. The PE reader gets the blocks read so
// far; a read of a block not there yet comes back short and is noted. Then one pass over the
// stream fetches every noted block with its neighbours (import names lie next to the import
// descriptors), and the reader runs again, until it asks for nothing new.
class StreamedBytes
{
public:
    explicit StreamedBytes(DllImage::StreamOpener open)
        : m_open(std::move(open))
    {
    }

    QByteArray read(qint64 offset, qint64 size)
    {
        QByteArray out;
        if (offset < 0 || size <= 0)
            return out;
        const qint64 end = offset + size;
        qint64 at = offset;
        while (at < end) {
            if (m_length >= 0 && at >= m_length)
                break; // the stream's real end
            const qint64 block = at / kBlock;
            const auto found = m_blocks.constFind(block);
            if (found == m_blocks.cend()) {
                const qint64 last = std::min((end - 1) / kBlock, block + kMaxBlocksPerRead - 1);
                for (qint64 b = block; b <= last; ++b) {
                    if (!m_blocks.contains(b))
                        m_missing.insert(b);
                }
                break;
            }
            const qint64 inBlock = at - block * kBlock;
            if (inBlock >= found->size())
                break;
            const qint64 take = std::min(end - at, qint64(found->size()) - inBlock);
            out.append(found->constData() + inBlock, take);
            at += take;
        }
        return out;
    }

    void want(qint64 block) { m_missing.insert(block); }
    bool missing() const { return !m_missing.isEmpty(); }
    QString error() const { return m_error; }
    qint64 bytesRead() const { return m_bytesRead; }
    int opens() const { return m_opens; }

    // One pass front to back for the noted blocks and their neighbours. False when it could
    // fetch nothing new (the stream failed).
    bool fetch()
    {
        QSet<qint64> noted;
        for (const qint64 block : std::as_const(m_missing)) {
            for (qint64 b = std::max<qint64>(0, block - 1); b <= block + 1; ++b) {
                if (!m_blocks.contains(b) && !(m_length >= 0 && b * kBlock >= m_length))
                    noted.insert(b);
            }
        }
        m_missing.clear();
        if (noted.isEmpty())
            return true; // what was asked for lies past the end: nothing to fetch, not a failure
        QList<qint64> wanted(noted.cbegin(), noted.cend());
        std::sort(wanted.begin(), wanted.end());
        // A hostile import table can point everywhere; the blocks kept stay bounded.
        const qint64 room = kMaxBlocks - qint64(m_blocks.size());
        if (room <= 0) {
            m_error = QStringLiteral("more than %1 blocks of %2 bytes asked for").arg(kMaxBlocks).arg(kBlock);
            return false;
        }
        if (wanted.size() > room)
            wanted.resize(room);
        if (!m_stream || wanted.first() * kBlock < m_position) {
            if (!reopen())
                return false;
        }
        bool fetched = false;
        for (const qint64 block : std::as_const(wanted)) {
            if (!skipTo(block * kBlock))
                break;
            QByteArray data(kBlock, Qt::Uninitialized);
            const qint64 got = readFully(data.data(), kBlock);
            if (got < 0)
                break;
            data.truncate(got);
            m_blocks.insert(block, data);
            fetched = true;
            if (got < kBlock)
                break; // the end
        }
        return fetched || m_error.isEmpty();
    }

private:
    bool reopen()
    {
        m_stream.reset();
        m_position = 0;
        if (!m_open) {
            m_error = QStringLiteral("no stream to read");
            return false;
        }
        auto opened = m_open();
        ++m_opens;
        if (!opened) {
            m_error = opened.error().details.isEmpty() ? opened.error().id : opened.error().details;
            return false;
        }
        m_stream = std::move(opened.value());
        return true;
    }

    // Up to `size` bytes; fewer only at the end; -1 on a stream error (the end is then taken to be
    // where it failed).
    qint64 readFully(char *data, qint64 size)
    {
        qint64 done = 0;
        while (done < size) {
            const qint64 got = m_stream->read(data + done, size - done);
            if (got < 0) {
                m_error = m_stream->errorString();
                m_length = m_position;
                return -1;
            }
            if (got == 0) {
                m_length = m_position;
                break;
            }
            done += got;
            m_position += got;
            m_bytesRead += got;
        }
        return done;
    }

    bool skipTo(qint64 offset)
    {
        if (m_position >= offset)
            return true;
        if (m_skip.isEmpty())
            m_skip.resize(kSkipBuffer);
        while (m_position < offset) {
            const qint64 got = readFully(m_skip.data(), std::min<qint64>(kSkipBuffer, offset - m_position));
            if (got < 0)
                return false;
            if (m_length >= 0 && m_position >= m_length && m_position < offset)
                return false;
        }
        return true;
    }

    DllImage::StreamOpener m_open;
    std::unique_ptr<ZipEntryStream> m_stream;
    qint64 m_position = 0; // bytes read from the current stream
    qint64 m_length = -1;  // known once the stream has ended (or failed)
    QMap<qint64, QByteArray> m_blocks;
    QSet<qint64> m_missing;
    QByteArray m_skip;
    QString m_error;
    qint64 m_bytesRead = 0;
    int m_opens = 0;
};

// A problem in the import tables leaves the lists partial (the reader says so in its warnings).
bool importsComplete(const PeInfo &info, QString *why)
{
    for (const Finding &warning : info.warnings) {
        if (warning.id == QLatin1String("pe.imports-corrupt") ||
            warning.id == QLatin1String("pe.truncated")) {
            *why = QStringLiteral("%1: %2").arg(warning.id, warning.details);
            return false;
        }
    }
    return true;
}

struct ImportsRead
{
    std::optional<PeInfo> info; // what could be read
    bool complete = false;
    QString why; // when not complete
};

ImportsRead readImports(const DllImage &dll)
{
    ImportsRead result;
    if (!dll.error.isEmpty()) {
        result.why = dll.error;
        return result;
    }
    if (dll.bytes) {
        const Expected<PeInfo> info = pe::read(dll.bytes);
        if (!info) {
            result.why = QStringLiteral("%1: %2").arg(info.error().id, info.error().details);
            return result;
        }
        result.info = *info;
        result.complete = importsComplete(*info, &result.why);
        return result;
    }
    if (!dll.openStream) {
        result.why = QStringLiteral("no bytes to read");
        return result;
    }

    auto stream = std::make_shared<StreamedBytes>(dll.openStream);
    const ByteSource source = [stream](qint64 offset, qint64 size) { return stream->read(offset, size); };
    stream->want(0);
    bool fetched = stream->fetch();
    std::optional<Expected<PeInfo>> info;
    for (int pass = 1;; ++pass) {
        info = pe::read(source);
        if (!stream->missing() || !fetched || pass >= kMaxPasses)
            break;
        fetched = stream->fetch();
    }
    qCDebug(lcInstall).noquote() << QStringLiteral(
                                        "%1: imports read from a stream in %2 opening(s), %3 bytes")
                                        .arg(dll.name)
                                        .arg(stream->opens())
                                        .arg(stream->bytesRead());
    const QString streamError = stream->error();
    if (!info->ok()) {
        result.why = QStringLiteral("%1: %2").arg(info->error().id, info->error().details);
        if (!streamError.isEmpty())
            result.why += QStringLiteral(" (stream: %1)").arg(streamError);
        return result;
    }
    result.info = info->value();
    if (!streamError.isEmpty()) {
        result.why = QStringLiteral("stream: %1").arg(streamError);
    } else if (stream->missing()) {
        result.why = QStringLiteral("still reading after %1 passes").arg(kMaxPasses);
    } else {
        result.complete = importsComplete(info->value(), &result.why);
    }
    return result;
}

bool namesZlibwapi(const QStringList &imports)
{
    return std::any_of(imports.cbegin(), imports.cend(), [](const QString &name) {
        // The loader adds ".dll" to a name without an extension.
        return name.compare(QLatin1String(kZlibwapiName), Qt::CaseInsensitive) == 0 ||
               name.compare(QLatin1String("zlibwapi"), Qt::CaseInsensitive) == 0;
    });
}

} // namespace

// ---- The embedded DLL ----------------------------------------------------------------------------

bool embeddedZlibwapiAvailable()
{
    return !embedded().bytes.isEmpty();
}

QByteArray embeddedZlibwapi()
{
    return embedded().bytes;
}

QString embeddedZlibwapiSha256()
{
    return embedded().sha256;
}

Finding zlibwapiUnavailable(const QStringList &importers)
{
    return Finding::error(
        QStringLiteral("zlibwapi.unavailable"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 needs zlibwapi.dll, and this build of cuDNN Setup has none "
                                             "to install."))
            .arg(importers.value(0, QLatin1String(kZlibwapiName))),
        QStringLiteral("importing: %1; built without MinGW-w64 zlib (cmake/Zlibwapi.cmake)")
            .arg(importers.join(QStringLiteral(", "))),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Put a 64-bit zlibwapi.dll beside the cuDNN DLLs, or use a "
                                             "build of cuDNN Setup that includes it.")));
}

// ---- DLL images ----------------------------------------------------------------------------------

DllImage DllImage::fromBuffer(const QString &name, const QByteArray &data)
{
    DllImage image;
    image.name = name;
    image.bytes = bufferSource(data);
    return image;
}

DllImage DllImage::fromFile(const SystemContext &context, const QString &path)
{
    const QString host = context.files().toHost(path);
    if (!host.isEmpty())
        return fromHostFile(path, host);
    DllImage image;
    image.name = path;
    image.error = QStringLiteral("%1 cannot be opened: it is not a path of the inspected system").arg(path);
    return image;
}

DllImage DllImage::fromHostFile(const QString &name, const QString &hostPath)
{
    DllImage image;
    image.name = name;
    auto file = std::make_shared<QFile>(hostPath);
    if (!file->open(QIODevice::ReadOnly)) {
        image.error = QStringLiteral("%1 cannot be opened: %2").arg(hostPath, file->errorString());
        return image;
    }
    image.bytes = [file](qint64 offset, qint64 size) -> QByteArray {
        const qint64 total = file->size();
        if (offset < 0 || size <= 0 || offset >= total || !file->seek(offset))
            return {};
        return file->read(std::min(size, total - offset));
    };
    return image;
}

DllImage DllImage::fromZipEntry(ZipSource &zip, int index, const QString &name)
{
    return fromStream(name, [&zip, index]() { return zip.openEntry(index); });
}

DllImage DllImage::fromStream(const QString &name, StreamOpener open)
{
    DllImage image;
    image.name = name;
    image.openStream = std::move(open);
    return image;
}

// ---- Who imports it ------------------------------------------------------------------------------

QStringList dllsImportingZlibwapi(const QList<DllImage> &dlls, Findings *findings)
{
    QStringList importers;
    QStringList unread;
    QStringList why;
    for (const DllImage &dll : dlls) {
        const ImportsRead read = readImports(dll);
        const bool imports =
            read.info && (namesZlibwapi(read.info->imports) || namesZlibwapi(read.info->delayImports));
        if (imports)
            importers.append(dll.name);
        if (!read.complete) {
            unread.append(dll.name);
            why.append(QStringLiteral("%1: %2").arg(dll.name, read.why));
        }
        if (read.info) {
            qCDebug(lcInstall).noquote()
                << QStringLiteral("%1 imports [%2], delay-imports [%3]%4")
                       .arg(dll.name, read.info->imports.join(QStringLiteral(", ")),
                            read.info->delayImports.join(QStringLiteral(", ")),
                            read.complete ? QString() : QStringLiteral(" (read in part: %1)").arg(read.why));
        }
    }
    if (!unread.isEmpty()) {
        qCWarning(lcInstall).noquote() << "zlibwapi.dll: the imports of" << unread.join(QStringLiteral(", "))
                                       << "could not be read completely";
        if (findings) {
            findings->append(Finding::warning(
                QStringLiteral("zlibwapi.imports-unread"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Whether %1 needs zlibwapi.dll is unknown: the list of "
                                                     "DLLs it imports could not be read."))
                    .arg(unread.first()),
                why.join(QStringLiteral("; "))));
        }
    }
    qCInfo(lcInstall).noquote() << QStringLiteral("zlibwapi.dll: %1 of %2 DLLs import it%3")
                                       .arg(importers.size())
                                       .arg(dlls.size())
                                       .arg(importers.isEmpty() ? QString()
                                                                : QStringLiteral(" (%1)").arg(
                                                                      importers.join(QStringLiteral(", "))));
    return importers;
}

// ---- The copy a program would load -----------------------------------------------------------------

std::optional<QString> existingZlibwapi(const SystemContext &context, const QString &dllFolder,
                                        Findings *findings)
{
    if (context.family() != OsFamily::Windows)
        return std::nullopt;
    const SystemPaths &paths = context.paths();
    const FileSystem &files = context.files();

    QStringList order;
    if (paths.isAbsolute(dllFolder))
        order.append(paths.normalize(dllFolder));
    for (const QString &dir : librarySearchOrder(context)) {
        const bool seen =
            std::any_of(order.cbegin(), order.cend(), [&](const QString &d) { return paths.equal(d, dir); });
        if (!seen)
            order.append(dir);
    }

    const QString name = QLatin1String(kZlibwapiName);
    for (const QString &dir : std::as_const(order)) {
        const QString candidate = paths.join(dir, name);
        if (!files.isFile(candidate))
            continue;
        const QString details = QStringLiteral("search order: %1").arg(order.join(QStringLiteral(" | ")));
        // Enough for the PE headers of any real DLL (ArchiveInspector reads the same).
        const Expected<QByteArray> head = files.readHead(candidate, 64 * 1024);
        const Expected<PeInfo> pe = head ? pe::readHeaders(*head) : Expected<PeInfo>(head.error());
        if (!pe || !pe->isDll) {
            qCWarning(lcInstall).noquote()
                << QStringLiteral("zlibwapi.dll found first is not a DLL: %1 (%2)")
                       .arg(candidate, pe ? QStringLiteral("a program, not a DLL") : pe.error().details);
            if (findings) {
                findings->append(Finding::warning(
                    QStringLiteral("zlibwapi.invalid"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 is the first zlibwapi.dll programs would find, "
                                           "but it is not a Windows DLL: cuDNN cannot load it."))
                        .arg(candidate),
                    pe ? details : QStringLiteral("%1; %2").arg(pe.error().details, details),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove or replace %1; cuDNN Setup puts a 64-bit "
                                                         "zlibwapi.dll beside the cuDNN DLLs."))
                        .arg(candidate)));
            }
            return std::nullopt;
        }
        if (pe->machine != PeInfo::Amd64 || !pe->pe32Plus) {
            qCWarning(lcInstall).noquote()
                << QStringLiteral("zlibwapi.dll found first is a %1-bit DLL for %2, not x64: %3")
                       .arg(pe->bits())
                       .arg(pe->machineName(), candidate);
            if (findings) {
                findings->append(Finding::warning(
                    QStringLiteral("zlibwapi.wrong-machine"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 is the first zlibwapi.dll programs would find, "
                                           "but it is a %2-bit DLL for %3, not 64-bit x64: cuDNN "
                                           "cannot load it (Windows error 193)."))
                        .arg(candidate)
                        .arg(qint64(pe->bits()))
                        .arg(pe->machineName()),
                    details,
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Remove or replace %1; cuDNN Setup puts a 64-bit "
                                                         "zlibwapi.dll beside the cuDNN DLLs."))
                        .arg(candidate)));
            }
            return std::nullopt;
        }
        qCInfo(lcInstall).noquote() << "zlibwapi.dll: a 64-bit copy is found first:" << candidate;
        return candidate;
    }
    qCInfo(lcInstall).noquote() << "zlibwapi.dll: none in" << order.join(QStringLiteral(" | "));
    return std::nullopt;
}

} // namespace cudnnsetup
