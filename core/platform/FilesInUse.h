#pragma once

#include "common/Expected.h"
#include "platform/SystemFailure.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// A running program that holds one of the files asked about (a python.exe that loaded
// cudnn64_8.dll), so the user can be told what to close.
struct ProcessUsingFile
{
    quint32 pid = 0;
    QString name;        // the executable's file name ("python.exe"; Restart Manager's strAppName
                         // where the executable cannot be read); Linux: the executable's or comm's
    QString description; // Windows: Restart Manager's strAppName ("Python", a service's display
                         // name); Linux: the command line
};

// Which programs hold files, and what can be done about a file that cannot be replaced now.
// An interface so that tests inject fakes (Wine's Restart Manager reports nothing, and Linux
// never refuses to replace a file in use).
class FilesInUse
{
public:
    virtual ~FilesInUse() = default;

    // The processes that hold any of `hostPaths` open or loaded, each once, by pid. Windows: the
    // Restart Manager (RmStartSession, RmRegisterResources, RmGetList); Linux: /proc/*/fd and
    // /proc/*/maps, best effort (other users' processes are seen only by root). A path that does
    // not exist is held by nobody. An error ("files-in-use.unknown") when nothing could be asked.
    virtual Expected<QList<ProcessUsingFile>> processesUsing(const QStringList &hostPaths) const = 0;

    // Has Windows remove `hostPath` at its next start (MoveFileExW with no new name and
    // MOVEFILE_DELAY_UNTIL_REBOOT, recorded in PendingFileRenameOperations): for a file that stays
    // loaded by running programs. Needs an administrator or LocalSystem; "not supported" off Windows.
    virtual SystemResult removeAtReboot(const QString &hostPath) const = 0;

    // Whether a failed durable::rename / remove failed because another process uses the file
    // rather than for lack of rights: on Windows a sharing or lock violation, or "access denied"
    // on a file that another process has loaded or open (told by opening it for writing, then by
    // the Restart Manager); ETXTBSY elsewhere.
    virtual bool isInUseError(const SystemFailure &failure) const = 0;

    // The running system's.
    static const FilesInUse &host();
};

} // namespace cudnnsetup
