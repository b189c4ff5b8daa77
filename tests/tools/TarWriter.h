#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// Tar archives for tests, through libarchive's writer (Linux builds): NVIDIA's Linux archive as it
// is, and hostile ones a well-behaved tool would not write (devices, hard links, absolute and
// climbing names, forged sizes).
struct TarEntry
{
    enum class Type
    {
        File,
        Directory,
        Symlink,
        HardLink,
        CharDevice,
        Fifo,
    };
    QByteArray name;
    QByteArray data;       // a file's
    QByteArray linkTarget; // a link's, stored as given
    Type type = Type::File;

    static TarEntry file(const QByteArray &name, const QByteArray &data)
    {
        return {name, data, {}, Type::File};
    }
    static TarEntry symlink(const QByteArray &name, const QByteArray &target)
    {
        return {name, {}, target, Type::Symlink};
    }
};

namespace tarwriter {

// `entries` as a pax tar, xz-compressed unless `xz` is false.
QByteArray write(const QList<TarEntry> &entries, bool xz = true);
// An uncompressed tar of one file, "`name`", whose header declares `declaredSize` bytes that the
// archive does not hold (a bomb's or a forger's header).
QByteArray withDeclaredSize(const QByteArray &name, qint64 declaredSize);
// A tar.xz of `entries` followed by `zeroBytes` of zeros as one more file `name`, written to
// `path` as it is compressed (a bomb: hundreds of MiB from a few hundred KiB). False on failure.
bool writeBomb(const QString &path, const QList<TarEntry> &entries, const QByteArray &name, qint64 zeroBytes);

} // namespace tarwriter

namespace archives {

// NVIDIA's Linux archive `version` for `cudaVariant` as a tar, as linuxZip() fills its files, with the
// links NVIDIA's has beside each library: libX.so -> libX.so.9 -> libX.so.9.19.0.
QList<TarEntry> linuxTarEntries(const QString &version, const QString &cudaVariant);
QByteArray linuxTarXz(const QString &version, const QString &cudaVariant);

} // namespace archives
