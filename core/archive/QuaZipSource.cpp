#include "archive/QuaZipSource.h"

#include <quazip/quazip.h>
#include <quazip/unzip.h>

#include "archive/UnzipSource.h"

namespace cudnnsetup {

namespace {
// QuaZip's unzip functions, reached through getUnzFile(): QuaZipFileInfo64 decodes names with a
// codec, where the raw bytes are wanted.
struct QuaZipLibrary
{
    static constexpr ZipSource::Backend kBackend = ZipSource::Backend::QuaZip;
    using Handle = unzFile;
    using FileInfo = unz_file_info64;
    using FilePos = unz64_file_pos;
    static constexpr int kOk = UNZ_OK;
    static constexpr int kEndOfList = UNZ_END_OF_LIST_OF_FILE;
    static constexpr auto goToFirstFile = &unzGoToFirstFile;
    static constexpr auto goToNextFile = &unzGoToNextFile;
    static constexpr auto currentFileInfo = &unzGetCurrentFileInfo64;
    static constexpr auto currentOffset = &unzGetOffset64;
    static constexpr auto goToFilePos = &unzGoToFilePos64;
    static constexpr auto openCurrentFile = &unzOpenCurrentFile3;
    static constexpr auto currentDataOffset = &unzGetCurrentFileZStreamPos64;
    static constexpr auto closeCurrentFile = &unzCloseCurrentFile;

    Handle open(QIODevice *device, QString *details)
    {
        m_zip = std::make_unique<QuaZip>(device);
        m_zip->setAutoClose(false); // the device belongs to the source
        if (!m_zip->open(QuaZip::mdUnzip)) {
            *details = QStringLiteral("QuaZip::open: %1").arg(m_zip->getZipError());
            return nullptr;
        }
        return m_zip->getUnzFile();
    }

    std::unique_ptr<QuaZip> m_zip;
};
} // namespace

Expected<std::unique_ptr<ZipSource>> openWithQuaZip(const QString &hostPath, const ReadObserver &observer)
{
    return UnzipSource<QuaZipLibrary>::open(hostPath, observer);
}

} // namespace cudnnsetup
