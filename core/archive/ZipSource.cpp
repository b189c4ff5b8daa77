#include "archive/ZipSource.h"

#ifdef CUDNNSETUP_HAVE_MINIZIP
#include "archive/MinizipSource.h"
#endif
#ifdef CUDNNSETUP_HAVE_QUAZIP
#include "archive/QuaZipSource.h"
#endif

#include <QDir>

namespace cudnnsetup {

namespace {
// Host systems whose external attributes carry a Unix mode in their high 16 bits.
constexpr int kHostUnix = 3;
constexpr int kHostOsX = 19;
constexpr quint32 kFileTypeMask = 0170000;
constexpr quint32 kDirectoryType = 0040000;
constexpr quint32 kSymlinkType = 0120000;
constexpr quint32 kDosDirectoryAttribute = 0x10;

bool unixHost(quint16 versionMadeBy)
{
    const int host = versionMadeBy >> 8;
    return host == kHostUnix || host == kHostOsX;
}
} // namespace

bool ZipEntry::isDirectory() const
{
    if (rawName.endsWith('/') || (externalAttributes & kDosDirectoryAttribute))
        return true;
    return unixHost(versionMadeBy) && ((externalAttributes >> 16) & kFileTypeMask) == kDirectoryType;
}

bool ZipEntry::isSymlink() const
{
    return unixHost(versionMadeBy) && ((externalAttributes >> 16) & kFileTypeMask) == kSymlinkType;
}

QList<ZipSource::Backend> ZipSource::backends()
{
    QList<Backend> compiled;
#ifdef CUDNNSETUP_HAVE_QUAZIP
    compiled.append(Backend::QuaZip);
#endif
#ifdef CUDNNSETUP_HAVE_MINIZIP
    compiled.append(Backend::Minizip);
#endif
    return compiled;
}

QString ZipSource::backendName(Backend backend)
{
    switch (backend) {
    case Backend::QuaZip:
        return QStringLiteral("quazip");
    case Backend::Minizip:
        return QStringLiteral("minizip");
    }
    return {};
}

Expected<std::unique_ptr<ZipSource>> ZipSource::open(const QString &hostPath, Backend backend,
                                                     const ReadObserver &observer)
{
#ifdef CUDNNSETUP_HAVE_QUAZIP
    if (backend == Backend::QuaZip)
        return openWithQuaZip(hostPath, observer);
#endif
#ifdef CUDNNSETUP_HAVE_MINIZIP
    if (backend == Backend::Minizip)
        return openWithMinizip(hostPath, observer);
#endif
    Q_UNUSED(observer)
    return Finding::error(
        QStringLiteral("archive.unreadable"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
            .arg(QDir::toNativeSeparators(hostPath)),
        QStringLiteral("the %1 backend is not part of this build").arg(backendName(backend)));
}

} // namespace cudnnsetup
