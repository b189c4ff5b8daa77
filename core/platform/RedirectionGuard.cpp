#include "platform/RedirectionGuard.h"

#include "common/Logging.h"
#include "platform/Elevation.h"

#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace cudnnsetup {

namespace {

#ifdef Q_OS_WIN
RedirectionGuard enforceRedirectionTrust()
{
    // Looked up rather than linked: a loader without these functions (Wine) still starts the program.
    using SetPolicy = BOOL(WINAPI *)(PROCESS_MITIGATION_POLICY, PVOID, SIZE_T);
    using GetPolicy = BOOL(WINAPI *)(HANDLE, PROCESS_MITIGATION_POLICY, PVOID, SIZE_T);
    const HMODULE kernel = GetModuleHandleW(L"kernel32.dll");
    const auto set = reinterpret_cast<SetPolicy>(
        reinterpret_cast<void *>(GetProcAddress(kernel, "SetProcessMitigationPolicy")));
    const auto get = reinterpret_cast<GetPolicy>(
        reinterpret_cast<void *>(GetProcAddress(kernel, "GetProcessMitigationPolicy")));
    if (!set || !get)
        return RedirectionGuard::NotOffered;
    PROCESS_MITIGATION_REDIRECTION_TRUST_POLICY policy{};
    policy.EnforceRedirectionTrust = 1;
    if (!set(ProcessRedirectionTrustPolicy, &policy, sizeof policy)) {
        qCInfo(lcPlatform) << "Redirection Guard not offered by this Windows:" << GetLastError();
        return RedirectionGuard::NotOffered;
    }
    // Only what Windows reports back counts: a stub that says yes and does nothing is not a guard.
    PROCESS_MITIGATION_REDIRECTION_TRUST_POLICY applied{};
    if (!get(GetCurrentProcess(), ProcessRedirectionTrustPolicy, &applied, sizeof applied) ||
        !applied.EnforceRedirectionTrust) {
        qCInfo(lcPlatform) << "Redirection Guard not confirmed by this Windows";
        return RedirectionGuard::NotOffered;
    }
    qCInfo(lcPlatform) << "Redirection Guard on: junctions made by non-administrators are not followed";
    return RedirectionGuard::On;
}
#endif

} // namespace

RedirectionGuard guardElevatedProcessAgainstUserRedirections(const Elevation &elevation)
{
#ifdef Q_OS_WIN
    if (elevation.isElevated())
        return enforceRedirectionTrust();
#else
    Q_UNUSED(elevation)
#endif
    return RedirectionGuard::NotNeeded;
}

} // namespace cudnnsetup
