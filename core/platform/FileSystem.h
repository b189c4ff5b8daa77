#pragma once

#include "common/Expected.h"
#include "platform/SystemPaths.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <functional>

namespace cudnnsetup {

// A read-only view of the inspected system's files. Probes speak the inspected system's paths
// ("/usr/local/cuda", "C:\Program Files\..."); with a root, every such path is read from
// ROOT/... instead, and symbolic links inside the tree resolve inside the root, as in a chroot.
// On a Windows tree the drive letter maps to the root and names match case-insensitively.
class FileSystem
{
public:
    // `root` is a host directory, or empty for the running system itself.
    FileSystem(OsFamily family, const QString &root);

    // The family of the tree under `root`: Windows when it holds Windows\System32.
    static OsFamily detectFamily(const QString &root);

    OsFamily family() const { return m_paths.family(); }
    const SystemPaths &paths() const { return m_paths; }
    bool isRooted() const { return !m_root.isEmpty(); }
    QString root() const { return m_root; }

    // The host path that holds `systemPath`; empty when it cannot exist under the root (a UNC path).
    QString toHost(const QString &systemPath) const;
    // The inspected system's path of a host path under the root (for host paths the system
    // cannot name, the host path itself).
    QString fromHost(const QString &hostPath) const;

    bool exists(const QString &path) const;
    bool isFile(const QString &path) const;
    bool isDir(const QString &path) const;
    bool isExecutable(const QString &path) const;
    qint64 size(const QString &path) const; // -1 if missing
    // The path with every symbolic link resolved (inside the root); empty if it does not exist.
    QString canonical(const QString &path) const;

    enum EntryKind
    {
        Files = 1,
        Dirs = 2,
        FilesAndDirs = Files | Dirs,
    };
    // Names (not paths) in `dir` matching any wildcard of `patterns` (all when empty), sorted;
    // matching is case-insensitive for Windows trees.
    QStringList entries(const QString &dir, const QStringList &patterns = {},
                        EntryKind kind = FilesAndDirs) const;

    // Reads at most `maxBytes` (a larger file is an error: probes never need big files).
    Expected<QByteArray> read(const QString &path, qint64 maxBytes = 4 * 1024 * 1024) const;
    // Reads the first `count` bytes (a header), or fewer if the file is shorter.
    Expected<QByteArray> readHead(const QString &path, qint64 count) const;

private:
    QString resolveLinux(const QString &systemPath, int depth) const;
    QString resolveWindowsCase(const QString &hostPath) const;

    SystemPaths m_paths;
    QString m_root; // host path, no trailing separator; empty for the running system
};

// Reads the host file at `hostPath` from start to end in 1 MiB pieces, handing each to `consume`
// (checksums of large files without holding them); false if it cannot be opened or read.
bool readInPieces(const QString &hostPath, const std::function<void(const char *data, qint64 size)> &consume);

} // namespace cudnnsetup
