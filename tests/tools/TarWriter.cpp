#include "TarWriter.h"

#include "CudnnArchiveLists.h"

#include <archive.h>
#include <archive_entry.h>

#include <QFile>
#include <QFileInfo>

#include <memory>

namespace {

using Writer = std::unique_ptr<archive, decltype(&archive_write_free)>;

Writer newWriter(bool xz)
{
    Writer writer(archive_write_new(), &archive_write_free);
    archive_write_set_format_pax_restricted(writer.get());
    if (xz) {
        archive_write_add_filter_xz(writer.get());
        archive_write_set_filter_option(writer.get(), "xz", "compression-level", "0");
    }
    return writer;
}

bool add(archive *writer, const TarEntry &entry)
{
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> header(archive_entry_new(),
                                                                         &archive_entry_free);
    archive_entry_set_pathname(header.get(), entry.name.constData());
    archive_entry_set_mtime(header.get(), 1700000000, 0);
    switch (entry.type) {
    case TarEntry::Type::File:
        archive_entry_set_filetype(header.get(), AE_IFREG);
        archive_entry_set_perm(header.get(), 0644);
        archive_entry_set_size(header.get(), entry.data.size());
        break;
    case TarEntry::Type::Directory:
        archive_entry_set_filetype(header.get(), AE_IFDIR);
        archive_entry_set_perm(header.get(), 0755);
        break;
    case TarEntry::Type::Symlink:
        archive_entry_set_filetype(header.get(), AE_IFLNK);
        archive_entry_set_perm(header.get(), 0777);
        archive_entry_set_symlink(header.get(), entry.linkTarget.constData());
        break;
    case TarEntry::Type::HardLink:
        archive_entry_set_filetype(header.get(), AE_IFREG);
        archive_entry_set_perm(header.get(), 0644);
        archive_entry_set_hardlink(header.get(), entry.linkTarget.constData());
        break;
    case TarEntry::Type::CharDevice:
        archive_entry_set_filetype(header.get(), AE_IFCHR);
        archive_entry_set_perm(header.get(), 0666);
        archive_entry_set_rdev(header.get(), (1u << 8) | 3u); // /dev/null's 1,3
        break;
    case TarEntry::Type::Fifo:
        archive_entry_set_filetype(header.get(), AE_IFIFO);
        archive_entry_set_perm(header.get(), 0644);
        break;
    }
    if (archive_write_header(writer, header.get()) != ARCHIVE_OK)
        return false;
    if (entry.type == TarEntry::Type::File && !entry.data.isEmpty() &&
        archive_write_data(writer, entry.data.constData(), size_t(entry.data.size())) != entry.data.size())
        return false;
    return true;
}

// The octal checksum field of a 512-byte tar header, counted with the field as spaces.
void resum(QByteArray &header)
{
    header.replace(148, 8, QByteArray(8, ' '));
    unsigned sum = 0;
    for (int i = 0; i < 512; ++i)
        sum += quint8(header.at(i));
    header.replace(148, 8, QByteArray::number(sum, 8).rightJustified(6, '0') + QByteArray("\0 ", 2));
}

} // namespace

namespace tarwriter {

QByteArray write(const QList<TarEntry> &entries, bool xz)
{
    Writer writer = newWriter(xz);
    // Generous: the entries' data, their headers, and what xz adds.
    qint64 room = 1 << 20;
    for (const TarEntry &entry : entries)
        room += entry.data.size() + 4096;
    QByteArray out(room, '\0');
    size_t used = 0;
    if (archive_write_open_memory(writer.get(), out.data(), size_t(out.size()), &used) != ARCHIVE_OK)
        qFatal("libarchive cannot write to memory: %s", archive_error_string(writer.get()));
    for (const TarEntry &entry : entries) {
        if (!add(writer.get(), entry))
            qFatal("libarchive refused %s: %s", entry.name.constData(), archive_error_string(writer.get()));
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK)
        qFatal("libarchive: %s", archive_error_string(writer.get()));
    out.truncate(qsizetype(used));
    return out;
}

QByteArray withDeclaredSize(const QByteArray &name, qint64 declaredSize)
{
    // A ustar header written by hand: libarchive's writer would pad the data to the declared size.
    QByteArray header(512, '\0');
    header.replace(0, name.size(), name);
    // Fields of fixed width, NUL included (a QByteArray from a literal would stop at it).
    const auto put = [&header](int offset, const char *field, int size) {
        header.replace(offset, size, QByteArray(field, size));
    };
    put(100, "0000644", 8);
    put(108, "0000000", 8);
    put(116, "0000000", 8);
    // Base-256 (GNU): the top bit of the first byte, then the size big-endian.
    QByteArray size(12, '\0');
    size[0] = char(0x80);
    for (int i = 11; i >= 4; --i, declaredSize >>= 8)
        size[i] = char(declaredSize & 0xff);
    header.replace(124, 12, size);
    put(136, "14540000000", 12);
    header[156] = '0';
    put(257,
        "ustar\0"
        "00",
        8);
    resum(header);
    // A little data, then the archive's end: far less than declared.
    return header + QByteArray(512, 'x') + QByteArray(1024, '\0');
}

bool writeBomb(const QString &path, const QList<TarEntry> &entries, const QByteArray &name, qint64 zeroBytes)
{
    Writer writer = newWriter(true);
    if (archive_write_open_filename(writer.get(), QFile::encodeName(path).constData()) != ARCHIVE_OK)
        return false;
    for (const TarEntry &entry : entries) {
        if (!add(writer.get(), entry))
            return false;
    }
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> header(archive_entry_new(),
                                                                         &archive_entry_free);
    archive_entry_set_pathname(header.get(), name.constData());
    archive_entry_set_filetype(header.get(), AE_IFREG);
    archive_entry_set_perm(header.get(), 0644);
    archive_entry_set_size(header.get(), zeroBytes);
    if (archive_write_header(writer.get(), header.get()) != ARCHIVE_OK)
        return false;
    const QByteArray zeros(1 << 20, '\0');
    for (qint64 left = zeroBytes; left > 0;) {
        const qint64 chunk = std::min<qint64>(left, zeros.size());
        if (archive_write_data(writer.get(), zeros.constData(), size_t(chunk)) != chunk)
            return false;
        left -= chunk;
    }
    return archive_write_close(writer.get()) == ARCHIVE_OK;
}

} // namespace tarwriter

namespace archives {

QList<TarEntry> linuxTarEntries(const QString &version, const QString &cudaVariant)
{
    QList<TarEntry> entries;
    const QString major = version.section(QLatin1Char('.'), 0, 0);
    // The folders first, as tar writes them.
    const QByteArray root = linuxFiles(version, cudaVariant).first().section(QLatin1Char('/'), 0, 0).toUtf8();
    for (const QByteArray &folder : {root, root + "/include", root + "/lib"})
        entries.append({folder, {}, {}, TarEntry::Type::Directory});
    for (const QString &file : linuxFiles(version, cudaVariant)) {
        const QString name = QFileInfo(file).fileName();
        entries.append(TarEntry::file(file.toUtf8(), linuxFileData(file, version)));
        if (!file.contains(QLatin1String(".so.")))
            continue;
        // libcudnn.so.9 -> libcudnn.so.9.19.0, libcudnn.so -> libcudnn.so.9, as NVIDIA's tar has them.
        const QString folder = file.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/');
        const QString soname = name.section(QLatin1Char('.'), 0, 1) + QLatin1Char('.') + major;
        const QString linkName = name.section(QLatin1Char('.'), 0, 1);
        entries.append(TarEntry::symlink((folder + soname).toUtf8(), name.toUtf8()));
        entries.append(TarEntry::symlink((folder + linkName).toUtf8(), soname.toUtf8()));
    }
    return entries;
}

QByteArray linuxTarXz(const QString &version, const QString &cudaVariant)
{
    return tarwriter::write(linuxTarEntries(version, cudaVariant));
}

} // namespace archives
