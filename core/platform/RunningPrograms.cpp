#include "platform/RunningPrograms.h"

#ifdef Q_OS_WIN
#include <qt_windows.h>
// After windows.h, whose types it uses.
#include <tlhelp32.h>

#include "platform/Win32Handles.h"
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

#include "common/Logging.h"

namespace cudnnsetup {

QStringList RunningPrograms::names() const
{
    QSet<QString> names;
#ifdef Q_OS_WIN
    const OwnedHandle snapshot = owned(CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0));
    if (!snapshot) {
        qCWarning(lcPlatform) << "the running processes cannot be listed:"
                              << qt_error_string(int(GetLastError()));
        return {};
    }
    PROCESSENTRY32W entry;
    entry.dwSize = sizeof(entry);
    for (BOOL more = Process32FirstW(snapshot.get(), &entry); more;
         more = Process32NextW(snapshot.get(), &entry))
        names.insert(QString::fromWCharArray(entry.szExeFile));
#else
    const QDir proc(QStringLiteral("/proc"));
    const QStringList entries = proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : entries) {
        bool number = false;
        pid.toUInt(&number);
        if (!number)
            continue;
        // The executable's name where this user may read it, and comm (what the process calls
        // itself, at most 15 characters): a script such as jupyter-lab runs python as its
        // executable.
        const QString executable = QFileInfo(proc.filePath(pid + QStringLiteral("/exe"))).symLinkTarget();
        if (!executable.isEmpty())
            names.insert(QFileInfo(executable).fileName());
        QFile comm(proc.filePath(pid + QStringLiteral("/comm")));
        if (comm.open(QIODevice::ReadOnly)) {
            const QString name = QString::fromUtf8(comm.readAll()).trimmed();
            if (!name.isEmpty())
                names.insert(name);
        }
    }
#endif
    QStringList sorted(names.cbegin(), names.cend());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

namespace {

class NoRunningPrograms final : public RunningPrograms
{
public:
    QStringList names() const override { return {}; }
};

} // namespace

std::shared_ptr<const RunningPrograms> RunningPrograms::forRunningSystem()
{
    static const auto programs = std::make_shared<const RunningPrograms>();
    return programs;
}

std::shared_ptr<const RunningPrograms> RunningPrograms::none()
{
    static const auto programs = std::make_shared<const NoRunningPrograms>();
    return programs;
}

} // namespace cudnnsetup
