#pragma once

#include "common/Expected.h"
#include "common/Finding.h"

#include <QString>
#include <QStringList>

#include <functional>

#include <optional>

namespace cudnnsetup {

class Registry;

// What the machine's policy says about User Account Control: EnableLUA under
// HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System.
enum class UacState
{
    Enabled,          // EnableLUA is a DWORD other than 0
    DisabledByPolicy, // EnableLUA = 0: no consent prompt, a standard user cannot become an administrator
    Unknown,          // no registry (not Windows), no such value, or a value of another type
};

// How a start with administrator rights is shown and waited for: the window that owns the consent
// prompt (so that it comes up in front of that window, not behind it), and what to do every few
// tenths of a second while the program runs (a caller's cancel is passed on to it there).
struct ElevatedStart
{
    quintptr ownerWindow = 0; // an HWND; 0 for none
    std::function<void()> whileWaiting;
};

// Administrator rights of this process, and starting a program with them. The wizard runs asInvoker;
// when a target needs an administrator it prepares the plan and runs itself elevated to apply it.
// An interface so that tests and the install engine's tests inject fakes: pass `const Elevation &`
// around or take a SystemContext's, and use host() only where no context is at hand yet.
class Elevation
{
public:
    virtual ~Elevation() = default;

    // This process runs as an administrator: an elevated token (TokenElevation) on Windows, root
    // (effective uid 0) elsewhere.
    virtual bool isElevated() const = 0;
    // This process runs as LocalSystem (token user S-1-5-18), as deployment tools run installers;
    // always false off Windows.
    virtual bool isLocalSystem() const = 0;
    // The SID of the account this process runs as ("S-1-5-21-…-1001", "S-1-5-18"); empty off Windows.
    virtual QString accountSid() const = 0;
    // The user belongs to BUILTIN\Administrators, now or through the linked (elevated) token that
    // UAC's consent prompt would give; root elsewhere.
    virtual bool isAdministratorsMember() const = 0;
    virtual UacState uacState() const = 0;
    // Runs `program` with administrator rights (Windows: ShellExecuteExW "runas", which shows the
    // consent prompt unless this process is elevated already), in `workingDir` (helperStartFolder()),
    // without a window, and waits for it.
    // The value is its exit code. Errors: "elevation.declined" (the user said No, ERROR_CANCELLED),
    // "elevation.failed" (anything else), "elevation.unavailable" (not Windows).
    virtual Expected<int> runElevated(const QString &program, const QStringList &arguments,
                                      const QString &workingDir, const ElevatedStart &start) const = 0;

    // "elevation.uac-off" when administrator rights cannot be had by asking: not elevated, not an
    // administrator, and UAC off by policy (ShellExecuteEx "runas" would then start the program
    // without the rights, or not at all). nullopt when asking may work or is not needed.
    std::optional<Finding> whyElevationCannotWork() const;

    // The running system's.
    static const Elevation &host();

    // Where a program run with administrator rights starts (runElevated's `workingDir`): System32
    // (GetSystemDirectoryW), which only administrators may change, never a folder of the caller's,
    // where what it planted would be found first; "/" elsewhere.
    static QString helperStartFolder();

    // The Windows command line that CommandLineToArgvW (and the C runtime) splits back into exactly
    // `arguments`: an argument is quoted when empty or holding blanks or quotes; inside quotes,
    // backslashes are doubled before a quote and at the end, a quote is escaped.
    static QString windowsCommandLine(const QStringList &arguments);
    // The UAC state as `registry` records it.
    static UacState uacStateIn(const Registry &registry);
    // "enabled", "disabled-by-policy", "unknown" (logs and JSON).
    static QString uacStateName(UacState state);
    // The finding for a start with administrator rights that failed with the Windows error
    // `systemError`: ERROR_CANCELLED (1223) is "elevation.declined", anything else
    // "elevation.failed". Fakes answer with it too.
    static Finding startFailure(quint32 systemError, const QString &program, const QString &details);
    // "elevation.system-user-target": a run as LocalSystem (a deployment tool) was asked to change
    // a per-user target, which would be SYSTEM's own profile and no person's.
    static Finding userTargetAsSystem();
};

} // namespace cudnnsetup
