#include "platform/Elevation.h"

#include <string>
#include <vector>

#ifdef Q_OS_WIN
#include <windows.h>

#include <objbase.h>
#include <sddl.h>
#include <shellapi.h>

#include "platform/Win32Handles.h"
#else
#include <unistd.h>
#endif

#include <QDir>

#include "common/Logging.h"
#include "platform/Registry.h"

namespace cudnnsetup {

namespace {

const QString kPolicyKey = QStringLiteral("SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System");

#ifdef Q_OS_WIN
// The process token, closed when it goes.
class ProcessToken
{
public:
    ProcessToken()
    {
        HANDLE token = nullptr;
        if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
            m_handle.reset(token);
    }

    HANDLE handle() const { return m_handle.get(); }

    // A variable-sized token information class (TokenUser, ...); empty when it cannot be read.
    std::vector<BYTE> information(TOKEN_INFORMATION_CLASS type) const
    {
        if (!m_handle)
            return {};
        DWORD size = 0;
        GetTokenInformation(m_handle.get(), type, nullptr, 0, &size);
        if (size == 0)
            return {};
        std::vector<BYTE> buffer(size);
        if (!GetTokenInformation(m_handle.get(), type, buffer.data(), size, &size))
            return {};
        return buffer;
    }

private:
    OwnedHandle m_handle;
};

bool tokenIsMember(HANDLE token, PSID sid)
{
    BOOL member = FALSE;
    return CheckTokenMembership(token, sid, &member) && member;
}
#endif

class HostElevation final : public Elevation
{
public:
    bool isElevated() const override
    {
#ifdef Q_OS_WIN
        const ProcessToken token;
        if (!token.handle())
            return false;
        TOKEN_ELEVATION elevation{};
        DWORD size = 0;
        return GetTokenInformation(token.handle(), TokenElevation, &elevation, sizeof(elevation), &size) &&
               elevation.TokenIsElevated != 0;
#else
        return ::geteuid() == 0;
#endif
    }

    bool isLocalSystem() const override
    {
#ifdef Q_OS_WIN
        const std::vector<BYTE> user = ProcessToken().information(TokenUser);
        if (user.size() < sizeof(TOKEN_USER))
            return false;
        return IsWellKnownSid(reinterpret_cast<const TOKEN_USER *>(user.data())->User.Sid, WinLocalSystemSid);
#else
        return false;
#endif
    }

    QString accountSid() const override
    {
#ifdef Q_OS_WIN
        const std::vector<BYTE> user = ProcessToken().information(TokenUser);
        LPWSTR converted = nullptr;
        if (user.size() < sizeof(TOKEN_USER) ||
            !ConvertSidToStringSidW(reinterpret_cast<const TOKEN_USER *>(user.data())->User.Sid, &converted))
            return {};
        const LocalMemory<wchar_t> text(converted);
        return QString::fromWCharArray(text.get());
#else
        return {};
#endif
    }

    bool isAdministratorsMember() const override
    {
#ifdef Q_OS_WIN
        BYTE sid[SECURITY_MAX_SID_SIZE];
        DWORD sidSize = sizeof(sid);
        if (!CreateWellKnownSid(WinBuiltinAdministratorsSid, nullptr, sid, &sidSize))
            return false;
        if (tokenIsMember(nullptr, sid))
            return true;
        // With UAC on, an administrator's everyday (filtered) token holds Administrators for deny
        // only; the linked token, which the consent prompt hands out, holds it for real.
        const ProcessToken token;
        TOKEN_ELEVATION_TYPE type = TokenElevationTypeDefault;
        DWORD size = 0;
        if (!token.handle() ||
            !GetTokenInformation(token.handle(), TokenElevationType, &type, sizeof(type), &size) ||
            type != TokenElevationTypeLimited)
            return false;
        TOKEN_LINKED_TOKEN linked{};
        if (!GetTokenInformation(token.handle(), TokenLinkedToken, &linked, sizeof(linked), &size))
            return false;
        const OwnedHandle linkedToken(linked.LinkedToken);
        return tokenIsMember(linkedToken.get(), sid);
#else
        return ::geteuid() == 0;
#endif
    }

    UacState uacState() const override
    {
        return uacStateIn(*Registry::forRunningSystem());
    }

    Expected<int> runElevated(const QString &program, const QStringList &arguments, const QString &workingDir,
                              const ElevatedStart &start) const override
    {
        const QString parameters = windowsCommandLine(arguments);
#ifdef Q_OS_WIN
        qCInfo(lcPlatform) << "running with administrator rights:" << QDir::toNativeSeparators(program)
                           << parameters << "in" << QDir::toNativeSeparators(workingDir);
        const std::wstring file = QDir::toNativeSeparators(program).toStdWString();
        const std::wstring parameterText = parameters.toStdWString();
        const std::wstring directory = QDir::toNativeSeparators(workingDir).toStdWString();
        // ShellExecuteEx may hand the work to shell extensions, which need COM on this thread.
        const HRESULT com = CoInitializeEx(nullptr, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
        SHELLEXECUTEINFOW info{};
        info.cbSize = sizeof(info);
        // NOASYNC: the prompt and the start are over when it returns; FLAG_NO_UI: failures come
        // back as errors, not as Windows' own message boxes (the consent prompt still shows).
        info.fMask = SEE_MASK_NOCLOSEPROCESS | SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI;
        info.lpVerb = L"runas";
        info.lpFile = file.c_str();
        info.lpParameters = parameterText.empty() ? nullptr : parameterText.c_str();
        info.lpDirectory = directory.empty() ? nullptr : directory.c_str();
        info.nShow = SW_HIDE; // the elevated run applies a plan and reports through its files
        // The consent prompt belongs to the caller's window, so it is not left behind it.
        info.hwnd = reinterpret_cast<HWND>(start.ownerWindow);
        const bool started = ShellExecuteExW(&info);
        DWORD error = started ? 0 : GetLastError();
        if (SUCCEEDED(com))
            CoUninitialize();
        const QString what = QStringLiteral("ShellExecuteEx runas \"%1\" %2")
                                 .arg(QDir::toNativeSeparators(program), parameters);
        if (!started) {
            // Some failures set only hInstApp (SE_ERR_*, numbered as the Win32 errors they mean).
            if (error == 0)
                error = DWORD(reinterpret_cast<quintptr>(info.hInstApp));
            qCWarning(lcPlatform) << "the start with administrator rights failed: error" << error;
            return startFailure(
                error, program,
                QStringLiteral("%1: error %2: %3").arg(what).arg(error).arg(qt_error_string(int(error))));
        }
        const OwnedHandle process(info.hProcess);
        if (!process) {
            // The shell handled it without a process of its own (DDE, or, with UAC off, nothing).
            qCWarning(lcPlatform) << "the start with administrator rights gave no process";
            return startFailure(0, program, QStringLiteral("%1: no process came back").arg(what));
        }
        while (WaitForSingleObject(process.get(), 200) == WAIT_TIMEOUT) {
            if (start.whileWaiting)
                start.whileWaiting();
        }
        DWORD exitCode = 0;
        const bool gotCode = GetExitCodeProcess(process.get(), &exitCode);
        const DWORD codeError = gotCode ? 0 : GetLastError();
        if (!gotCode)
            return startFailure(codeError, program,
                                QStringLiteral("%1: its exit code cannot be read: error %2: %3")
                                    .arg(what)
                                    .arg(codeError)
                                    .arg(qt_error_string(int(codeError))));
        qCInfo(lcPlatform) << "the program run with administrator rights exited with" << exitCode;
        return int(exitCode);
#else
        Q_UNUSED(start)
        qCInfo(lcPlatform) << "no way to run" << program << "with administrator rights on this system";
        return Finding::error(
            QStringLiteral("elevation.unavailable"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Starting a program with administrator rights works on Windows only.")),
            QStringLiteral("runElevated %1 %2 in %3: no UAC on this system")
                .arg(program, parameters, workingDir),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run the command as root instead, for example with sudo.")));
#endif
    }
};

} // namespace

std::optional<Finding> Elevation::whyElevationCannotWork() const
{
    if (isElevated() || isAdministratorsMember() || uacState() != UacState::DisabledByPolicy)
        return std::nullopt;
    return Finding::error(
        QStringLiteral("elevation.uac-off"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "This account is not an administrator and User Account "
                                             "Control is turned off, so administrator rights cannot be "
                                             "requested.")),
        QStringLiteral("not elevated, not a member of BUILTIN\\Administrators, HKLM\\%1 EnableLUA = 0")
            .arg(kPolicyKey),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose a per-user target, or sign in as an administrator "
                                             "and run it again.")));
}

const Elevation &Elevation::host()
{
    static const HostElevation elevation;
    return elevation;
}

QString Elevation::helperStartFolder()
{
#ifdef Q_OS_WIN
    wchar_t folder[MAX_PATH + 1] = {};
    const UINT length = GetSystemDirectoryW(folder, MAX_PATH + 1);
    // It fails only for a buffer too small, which this is not; even then no folder of the caller's
    // (an environment variable is the caller's too).
    if (length == 0 || length > MAX_PATH)
        return QStringLiteral("C:/Windows/System32");
    return QDir::fromNativeSeparators(QString::fromWCharArray(folder, int(length)));
#else
    return QStringLiteral("/");
#endif
}

QString Elevation::windowsCommandLine(const QStringList &arguments)
{
    QString line;
    for (const QString &argument : arguments) {
        if (!line.isEmpty())
            line += QLatin1Char(' ');
        const bool needsQuotes = argument.isEmpty() || argument.contains(QLatin1Char(' ')) ||
                                 argument.contains(QLatin1Char('\t')) ||
                                 argument.contains(QLatin1Char('\n')) ||
                                 argument.contains(QLatin1Char('\v')) || argument.contains(QLatin1Char('"'));
        if (!needsQuotes) {
            // Backslashes not followed by a quote are taken literally.
            line += argument;
            continue;
        }
        line += QLatin1Char('"');
        qsizetype backslashes = 0;
        for (const QChar c : argument) {
            if (c == QLatin1Char('\\')) {
                ++backslashes;
                continue;
            }
            if (c == QLatin1Char('"')) {
                // 2n+1 backslashes and the quote: n backslashes and a literal quote.
                line += QString(backslashes * 2 + 1, QLatin1Char('\\'));
            } else {
                line += QString(backslashes, QLatin1Char('\\'));
            }
            line += c;
            backslashes = 0;
        }
        // Before the closing quote, 2n backslashes read back as n.
        line += QString(backslashes * 2, QLatin1Char('\\'));
        line += QLatin1Char('"');
    }
    return line;
}

UacState Elevation::uacStateIn(const Registry &registry)
{
    if (!registry.isAvailable())
        return UacState::Unknown;
    const std::optional<RegistryValue> value =
        registry.value(RegistryHive::LocalMachine, kPolicyKey, QStringLiteral("EnableLUA"));
    // A missing value is not read as Windows' default: unknown is not a guess.
    if (!value || value->type != RegistryValue::DWord)
        return UacState::Unknown;
    return value->number == 0 ? UacState::DisabledByPolicy : UacState::Enabled;
}

QString Elevation::uacStateName(UacState state)
{
    switch (state) {
    case UacState::Enabled:
        return QStringLiteral("enabled");
    case UacState::DisabledByPolicy:
        return QStringLiteral("disabled-by-policy");
    case UacState::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Finding Elevation::startFailure(quint32 systemError, const QString &program, const QString &details)
{
    constexpr quint32 kErrorCancelled = 1223; // ERROR_CANCELLED: "No" in the consent prompt
    if (systemError == kErrorCancelled)
        return Finding::error(
            QStringLiteral("elevation.declined"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The administrator permission was declined; nothing was changed.")),
            details,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Run it again and choose Yes when Windows asks for "
                                                 "permission, or choose a per-user target.")));
    return Finding::error(
        QStringLiteral("elevation.failed"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be started with administrator rights."))
            .arg(QDir::toNativeSeparators(program)),
        details,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check that the program exists and that this account may run "
                                             "programs as an administrator.")));
}

Finding Elevation::userTargetAsSystem()
{
    return Finding::error(
        QStringLiteral("elevation.system-user-target"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "This runs as the SYSTEM account, so the per-user PATH would "
                                             "be SYSTEM's own and no person's; it is not changed.")),
        QStringLiteral("token user S-1-5-18 (LocalSystem), per-user target"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose the system PATH (--path system), or run it as the "
                                             "user whose PATH should change.")));
}

} // namespace cudnnsetup
