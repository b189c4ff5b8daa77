#include "archive/EntryPass.h"

#include <algorithm>

#include "archive/ZipSource.h"
#include "binary/PeReader.h"
#include "detect/VersionParsers.h"

namespace cudnnsetup {

namespace {

// Enough of a DLL for its PE headers (the DOS stub, NT headers and section table).
constexpr qint64 kPeHeadBytes = 64 * 1024;
// A cudnn_version.h is a few hundred bytes; anything far larger is not one.
constexpr qint64 kMaxHeaderBytes = 1 << 20;
// The main library is a small dispatcher (a few hundred KiB); it is read whole for its version
// resource, which sits at the end. A far larger one is not read whole.
constexpr qint64 kMaxMainLibraryBytes = 16 << 20;

} // namespace

EntryPass::EntryPass(ZipSource &source, ArchiveReport &report, const QList<int> &fileIndexOfEntry,
                     const InspectOptions &options)
    : m_source(source)
    , m_report(report)
    , m_fileOfEntry(fileIndexOfEntry)
    , m_options(options)
{
}

bool EntryPass::run()
{
    const QList<ZipEntry> &entries = m_source.entries();
    QList<int> order;
    qint64 total = 0;
    qint64 largest = 0;
    for (const ZipEntry &entry : entries) {
        if (m_fileOfEntry.at(entry.index) >= 0) {
            order.append(entry.index);
            total += entry.compressedSize;
            largest = std::max(largest, entry.uncompressedSize);
        }
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return entries.at(a).localHeaderOffset < entries.at(b).localHeaderOffset;
    });
    qint64 done = 0;
    // No larger than the largest entry needs, and one byte more to see one that is longer.
    QByteArray buffer(std::clamp<qint64>(largest + 1, 1, 1 << 20), Qt::Uninitialized);
    for (const int index : order) {
        const ZipEntry &entry = entries.at(index);
        ArchiveFile &file = m_report.files[m_fileOfEntry.at(index)];
        if (!file.linkTarget.isEmpty())
            continue; // no data: what it names is read as itself
        const bool dll = file.path.endsWith(QLatin1String(".dll"), Qt::CaseInsensitive);
        const bool versionHeader =
            m_report.layout.versionHeader == index && entry.uncompressedSize <= kMaxHeaderBytes;
        const bool mainLibrary =
            dll && m_report.layout.mainLibrary == index && entry.uncompressedSize <= kMaxMainLibraryBytes;
        if (!m_options.verifyData && !dll && !versionHeader)
            continue;
        auto stream = m_source.openEntry(index);
        if (!stream) {
            m_report.findings.append(stream.error());
            return true;
        }
        QByteArray kept;
        qint64 inflated = 0;
        bool ended = false;
        // The buffer is larger than a DLL's head, so a quick look reads one block.
        for (;;) {
            if (m_options.cancelled && m_options.cancelled())
                return false;
            const qint64 got = (*stream)->read(buffer.data(), buffer.size());
            if (got < 0) {
                corrupt(file.path, (*stream)->errorString());
                return true;
            }
            if (got == 0) {
                ended = true;
                break;
            }
            if (mainLibrary || versionHeader)
                kept.append(buffer.constData(), got);
            else if (dll && kept.size() < kPeHeadBytes)
                kept.append(buffer.constData(), std::min(got, kPeHeadBytes - kept.size()));
            inflated += got;
            if (!m_options.verifyData && dll && !mainLibrary && kept.size() >= kPeHeadBytes)
                break; // the headers are all a quick look needs
            if (m_options.verifyData && m_options.progress && entry.uncompressedSize > 0)
                m_options.progress(done + entry.compressedSize * inflated / entry.uncompressedSize, total);
        }
        // A quick look that got the whole entry in its first read still holds it to its CRC;
        // the stream knows the CRC only once it has said where the data ends.
        if (!ended && inflated == entry.uncompressedSize) {
            const qint64 got = (*stream)->read(buffer.data(), buffer.size());
            if (got != 0) {
                corrupt(file.path,
                        got < 0 ? (*stream)->errorString() : QStringLiteral("longer than declared"));
                return true;
            }
            ended = true;
        }
        if (ended && !(*stream)->crcMatches()) {
            m_report.findings.append(Finding::error(
                QStringLiteral("archive.crc-mismatch"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The data of \"%1\" does not match its checksum: the "
                                                     "archive is damaged."))
                    .arg(file.path),
                QStringLiteral("CRC-32 %1 expected").arg(entry.crc32, 8, 16, QLatin1Char('0'))));
            return true;
        }
        done += entry.compressedSize;
        if (m_options.verifyData && m_options.progress)
            m_options.progress(done, total);
        if (dll)
            checkDll(file, kept);
        if (versionHeader)
            m_headerVersion = versions::fromCudnnHeader(kept);
        if (mainLibrary) {
            if (const auto pe = pe::read(bufferSource(kept)))
                m_libraryVersion = pe->fileVersion;
        }
    }
    reportDlls();
    return true;
}

void EntryPass::corrupt(const QString &path, const QString &why)
{
    m_report.findings.append(Finding::error(
        QStringLiteral("archive.corrupt"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "\"%1\" cannot be unpacked: the archive is damaged or incomplete."))
            .arg(path),
        why));
}

void EntryPass::checkDll(ArchiveFile &file, const QByteArray &head)
{
    const auto pe = pe::readHeaders(head);
    if (!pe) {
        m_notPe.append(file.path);
        return;
    }
    file.machine = pe->machineName();
    if (pe->machine != PeInfo::Amd64 || !pe->pe32Plus)
        m_notX64.append(QStringLiteral("%1 (%2)").arg(file.path, file.machine));
}

void EntryPass::reportDlls()
{
    if (!m_notX64.isEmpty()) {
        m_report.findings.append(Finding::error(
            QStringLiteral("archive.dll-not-x64"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Not every DLL is for 64-bit x64 Windows, such as %1: this "
                                                 "is not an x64 cuDNN package, or it was tampered with."))
                .arg(m_notX64.first()),
            m_notX64.join(QStringLiteral(", "))));
    }
    if (!m_notPe.isEmpty()) {
        m_report.findings.append(Finding::error(
            QStringLiteral("archive.dll-invalid"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "\"%1\" is named like a DLL but is not a Windows program "
                                                 "file: the archive is damaged."))
                .arg(m_notPe.first()),
            m_notPe.join(QStringLiteral(", "))));
    }
}

} // namespace cudnnsetup
