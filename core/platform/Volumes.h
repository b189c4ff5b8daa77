#pragma once

#include <QString>

#include <optional>

namespace cudnnsetup {

// What one real write test found: a uniquely named file created (one byte written) and removed.
struct WriteProbe
{
    bool ok = false;
    QString folder; // the host folder the file was made in (or the file in the way)
    // The system refused for lack of rights (not a read-only medium, not a file in the way).
    bool accessDenied = false;
    bool notAFolder = false; // `folder` is a file, so nothing can be created below it
    bool elevated = false;   // this process already runs as an administrator (root)
    QString error;           // the system's message, for the details

    // Administrator rights would have let the write through.
    bool adminWouldHelp() const { return !ok && accessDenied && !elevated; }
};

// The host's volumes, as an install needs them: free space, which volume a path is on (a staged
// file is renamed into place, which works on one volume only), and whether a folder can really be
// written. Paths are host paths; a path that does not exist yet is judged by the nearest folder
// above it that does. Virtual so that tests can say how much space there is.
class Volumes
{
public:
    virtual ~Volumes() = default;

    // Bytes this user may still write on the volume that holds `hostPath`; -1 when unknown.
    virtual qint64 freeBytes(const QString &hostPath) const;
    // What names the volume that holds `hostPath` (its mount point and device); empty when unknown.
    virtual QString volumeId(const QString &hostPath) const;
    // Creates a uniquely named file in `hostFolder`, writes a byte, flushes and removes it. A
    // folder that does not exist is not created: the test runs in the nearest one above it.
    virtual WriteProbe tryWrite(const QString &hostFolder) const;
    // Whether this process may delete or rename the existing file `hostFile`, as replacing it needs
    // (Windows: opening it for DELETE, which the file's own ACL or its folder's "delete children"
    // grants; elsewhere: write and search rights on its folder, and the sticky bit's owner rule).
    // Changes nothing. A file another program holds is no question of rights: ok.
    virtual WriteProbe tryReplace(const QString &hostFile) const;

    // Whether two paths are on one volume; nullopt when either volume is unknown.
    std::optional<bool> sameVolume(const QString &hostA, const QString &hostB) const;

    // `hostPath` itself if it exists, else the nearest existing path above it (which may be a
    // file); empty when nothing along the way exists.
    static QString nearestExisting(const QString &hostPath);
    // `hostPath` as another logon session sees it, for a program started with administrator rights
    // (which, unless EnableLinkedConnections is set, sees neither this session's network drives nor
    // its subst drives): on Windows a subst drive is replaced by the folder it stands for, and a
    // network drive by its UNC path (\\server\share\...). Any other path, and any other system, as
    // it is.
    static QString pathForOtherSessions(const QString &hostPath);
    // Whether this process runs as an administrator (an elevated token on Windows, root elsewhere):
    // Elevation::host().isElevated().
    static bool isElevated();

    // The running host's volumes.
    static const Volumes &host();
};

} // namespace cudnnsetup
