#include "platform/HostInfo.h"

#include <QSysInfo>

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <shlobj.h>
#endif

namespace cudnnsetup::hostinfo {

static QString architectureName(const QString &qtName)
{
    if (qtName == QLatin1String("x86_64"))
        return QStringLiteral("x64");
    if (qtName == QLatin1String("i386"))
        return QStringLiteral("x86");
    return qtName; // "arm64", "arm", ...
}

QString processArchitecture()
{
    return architectureName(QSysInfo::buildCpuArchitecture());
}

QString nativeArchitecture()
{
#ifdef Q_OS_WIN
    // IsWow64Process2 (Windows 10 1511+) is the only call that sees through x64 emulation on ARM64.
    using IsWow64Process2Fn = BOOL(WINAPI *)(HANDLE, USHORT *, USHORT *);
    const auto isWow64Process2 = reinterpret_cast<IsWow64Process2Fn>(
        reinterpret_cast<void *>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "IsWow64Process2")));
    if (isWow64Process2) {
        USHORT processMachine = 0;
        USHORT nativeMachine = 0;
        if (isWow64Process2(GetCurrentProcess(), &processMachine, &nativeMachine)) {
            switch (nativeMachine) {
            case 0x8664:
                return QStringLiteral("x64");
            case 0xaa64:
                return QStringLiteral("arm64");
            case 0x014c:
                return QStringLiteral("x86");
            default:
                return QStringLiteral("0x%1").arg(nativeMachine, 4, 16, QLatin1Char('0'));
            }
        }
    }
#endif
    return architectureName(QSysInfo::currentCpuArchitecture());
}

QString programDataFolder()
{
#ifdef Q_OS_WIN
    PWSTR path = nullptr;
    QString folder;
    if (SUCCEEDED(SHGetKnownFolderPath(FOLDERID_ProgramData, KF_FLAG_DEFAULT, nullptr, &path)))
        folder = QString::fromWCharArray(path);
    CoTaskMemFree(path);
    return folder;
#else
    return {};
#endif
}

QString systemDescription()
{
    return QStringLiteral("%1, kernel %2 %3, %4")
        .arg(QSysInfo::prettyProductName(), QSysInfo::kernelType(), QSysInfo::kernelVersion(),
             nativeArchitecture());
}

QString machineName()
{
    return QSysInfo::machineHostName();
}

} // namespace cudnnsetup::hostinfo
