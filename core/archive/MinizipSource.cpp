#include "archive/MinizipSource.h"

// Before minizip's header: its functions under the names our copy of the library defines.
#include <MinizipRenames.h>

#include <minizip/unzip.h>

#include "archive/UnzipSource.h"

#include <QIODevice>

namespace cudnnsetup {

namespace {
// minizip's file access, through the source's QIODevice (Unicode paths on Windows, observed reads).
// The device is handed over as the "file name" and stays open: it belongs to the source.
voidpf ZCALLBACK openDevice(voidpf, const void *device, int)
{
    return const_cast<void *>(device);
}

uLong ZCALLBACK readDevice(voidpf, voidpf device, void *buffer, uLong size)
{
    const qint64 count = static_cast<QIODevice *>(device)->read(static_cast<char *>(buffer), size);
    return count < 0 ? 0 : static_cast<uLong>(count);
}

uLong ZCALLBACK writeDevice(voidpf, voidpf, const void *, uLong)
{
    return 0;
}

ZPOS64_T ZCALLBACK tellDevice(voidpf, voidpf device)
{
    return static_cast<ZPOS64_T>(static_cast<QIODevice *>(device)->pos());
}

long ZCALLBACK seekDevice(voidpf, voidpf device, ZPOS64_T offset, int origin)
{
    auto *file = static_cast<QIODevice *>(device);
    qint64 base = 0;
    if (origin == ZLIB_FILEFUNC_SEEK_CUR)
        base = file->pos();
    else if (origin == ZLIB_FILEFUNC_SEEK_END)
        base = file->size();
    const qint64 target = base + static_cast<qint64>(offset);
    return target >= 0 && file->seek(target) ? 0 : -1;
}

int ZCALLBACK closeDevice(voidpf, voidpf)
{
    return 0;
}

int ZCALLBACK deviceError(voidpf, voidpf)
{
    return 0;
}

struct MinizipLibrary
{
    static constexpr ZipSource::Backend kBackend = ZipSource::Backend::Minizip;
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

    MinizipLibrary() = default;
    MinizipLibrary(const MinizipLibrary &) = delete;
    MinizipLibrary &operator=(const MinizipLibrary &) = delete;
    ~MinizipLibrary()
    {
        if (m_handle)
            unzClose(m_handle);
    }

    Handle open(QIODevice *device, QString *details)
    {
        zlib_filefunc64_def functions{};
        functions.zopen64_file = openDevice;
        functions.zread_file = readDevice;
        functions.zwrite_file = writeDevice;
        functions.ztell64_file = tellDevice;
        functions.zseek64_file = seekDevice;
        functions.zclose_file = closeDevice;
        functions.zerror_file = deviceError;
        m_handle = unzOpen2_64(device, &functions);
        if (!m_handle)
            *details = QStringLiteral("unzOpen2_64 failed");
        return m_handle;
    }

    Handle m_handle = nullptr;
};
} // namespace

Expected<std::unique_ptr<ZipSource>> openWithMinizip(const QString &hostPath, const ReadObserver &observer)
{
    return UnzipSource<MinizipLibrary>::open(hostPath, observer);
}

} // namespace cudnnsetup
