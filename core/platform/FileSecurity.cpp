#include "platform/FileSecurity.h"

#include "common/Logging.h"
#include "platform/SystemContext.h"
#include "platform/Win32Paths.h"

#include <QDir>
#include <QFileInfo>

#ifdef Q_OS_WIN
#include <qt_windows.h>

#include <aclapi.h>
#include <sddl.h>
#endif

namespace cudnnsetup {

namespace {

class NoFileSecurity final : public FileSecurity
{
public:
    DescriptorAnswer descriptorOf(const QString &) const override { return DescriptorAnswer::noAclSystem(); }
    SystemResult protect(const QString &, const QString &) const override { return {}; }
};

#ifdef Q_OS_WIN
class WindowsFileSecurity final : public FileSecurity
{
public:
    DescriptorAnswer descriptorOf(const QString &hostPath) const override
    {
        const std::wstring name = win32Path(hostPath);
        const SECURITY_INFORMATION what = OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        const DWORD read = GetNamedSecurityInfoW(name.c_str(), SE_FILE_OBJECT, what, nullptr, nullptr,
                                                 nullptr, nullptr, &descriptor);
        if (read != ERROR_SUCCESS)
            return unreadable(hostPath,
                              QStringLiteral("GetNamedSecurityInfoW: %1").arg(qt_error_string(int(read))));
        LPWSTR text = nullptr;
        const BOOL converted = ConvertSecurityDescriptorToStringSecurityDescriptorW(
            descriptor, SDDL_REVISION_1, what, &text, nullptr);
        const DWORD conversionError = converted ? DWORD(ERROR_SUCCESS) : GetLastError();
        LocalFree(descriptor);
        if (!converted)
            return unreadable(hostPath,
                              QStringLiteral("ConvertSecurityDescriptorToStringSecurityDescriptorW: %1")
                                  .arg(qt_error_string(int(conversionError))));
        const QString sddl = QString::fromWCharArray(text);
        LocalFree(text);
        const DescriptorAnswer answer = DescriptorAnswer::fromSddl(sddl);
        if (answer.kind == DescriptorAnswer::Kind::Unreadable)
            qCWarning(lcPlatform).noquote()
                << "security descriptor of" << hostPath << "not understood:" << answer.problem;
        return answer;
    }

    SystemResult protect(const QString &hostPath, const QString &sddl) const override
    {
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(reinterpret_cast<LPCWSTR>(sddl.utf16()),
                                                                  SDDL_REVISION_1, &descriptor, nullptr)) {
            const DWORD error = GetLastError();
            return SystemFailure{
                QStringLiteral("%1: %2").arg(sddl, qt_error_string(int(error))), int(error), {}};
        }
        BOOL present = FALSE;
        BOOL defaulted = FALSE;
        PACL dacl = nullptr;
        PSID owner = nullptr;
        GetSecurityDescriptorDacl(descriptor, &present, &dacl, &defaulted);
        GetSecurityDescriptorOwner(descriptor, &owner, &defaulted);
        std::wstring name = win32Path(hostPath);
        const DWORD result = SetNamedSecurityInfoW(name.data(), SE_FILE_OBJECT,
                                                   OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION |
                                                       PROTECTED_DACL_SECURITY_INFORMATION,
                                                   owner, nullptr, dacl, nullptr);
        LocalFree(descriptor);
        if (result != ERROR_SUCCESS)
            return SystemFailure{QStringLiteral("%1: %2").arg(hostPath, qt_error_string(int(result))),
                                 int(result),
                                 {hostPath}};
        return {};
    }

private:
    static DescriptorAnswer unreadable(const QString &hostPath, const QString &problem)
    {
        qCWarning(lcPlatform).noquote() << "no security descriptor for" << hostPath << problem;
        return DescriptorAnswer::unreadable(problem);
    }
};
#endif

} // namespace

DescriptorAnswer DescriptorAnswer::noAclSystem()
{
    return {};
}

DescriptorAnswer DescriptorAnswer::unreadable(const QString &problem)
{
    DescriptorAnswer answer;
    answer.kind = Kind::Unreadable;
    answer.problem = problem;
    return answer;
}

DescriptorAnswer DescriptorAnswer::fromSddl(const QString &sddl)
{
    const Expected<SecurityDescriptor> parsed = SecurityDescriptor::fromSddl(sddl);
    if (!parsed)
        return unreadable(parsed.error().details);
    DescriptorAnswer answer;
    answer.kind = Kind::Read;
    answer.descriptor = *parsed;
    return answer;
}

std::optional<WriteAudit> DescriptorAnswer::audit(ObjectRole role, const QStringList &alsoTrusted) const
{
    switch (kind) {
    case Kind::NoAclSystem:
        return std::nullopt;
    case Kind::Unreadable:
        return WriteAudit::ofUnreadable(problem);
    case Kind::Read:
        return security::auditWriters(descriptor, role, alsoTrusted);
    }
    return std::nullopt;
}

std::shared_ptr<FileSecurity> FileSecurity::forRunningSystem()
{
#ifdef Q_OS_WIN
    return std::make_shared<WindowsFileSecurity>();
#else
    return none();
#endif
}

std::shared_ptr<FileSecurity> FileSecurity::none()
{
    return std::make_shared<NoFileSecurity>();
}

std::optional<WritableFolder> firstWritableFolder(const SystemContext &context, const QString &folder,
                                                  const QStringList &alsoTrusted)
{
    const SystemPaths &paths = context.paths();
    const QString start = paths.normalize(folder);
    for (QString current = start; !current.isEmpty(); current = paths.parent(current)) {
        const QString host = context.files().toHost(current);
        if (host.isEmpty())
            break;
        if (!QFileInfo::exists(host))
            continue;
        const std::optional<WriteAudit> audit = context.fileSecurity().descriptorOf(host).audit(
            current == start ? ObjectRole::LibraryFolder : ObjectRole::Ancestor, alsoTrusted);
        if (audit && !audit->trusted())
            return WritableFolder{current, *audit};
        if (paths.parent(current) == current)
            break;
    }
    return std::nullopt;
}

} // namespace cudnnsetup
