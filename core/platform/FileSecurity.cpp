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

#include "platform/Win32Handles.h"
#endif

namespace cudnnsetup {

namespace {

class NoFileSecurity final : public FileSecurity
{
public:
    DescriptorAnswer descriptorOf(const QString &) const override { return DescriptorAnswer::noAclSystem(); }
    SystemResult protect(const QString &, const QString &) const override { return {}; }
    SystemResult makeFolder(const QString &hostPath, const QString &) const override
    {
        if (!QDir().mkdir(hostPath))
            return SystemFailure{QStringLiteral("%1: mkdir failed").arg(hostPath), 0, {hostPath}};
        return {};
    }
};

#ifdef Q_OS_WIN
class WindowsFileSecurity final : public FileSecurity
{
public:
    DescriptorAnswer descriptorOf(const QString &hostPath) const override
    {
        const std::wstring name = win32Path(hostPath);
        const SECURITY_INFORMATION what = OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;
        PSECURITY_DESCRIPTOR read = nullptr;
        const DWORD readError = GetNamedSecurityInfoW(name.c_str(), SE_FILE_OBJECT, what, nullptr, nullptr,
                                                      nullptr, nullptr, &read);
        const LocalMemory<void> descriptor(read);
        if (readError != ERROR_SUCCESS)
            return unreadable(
                hostPath, QStringLiteral("GetNamedSecurityInfoW: %1").arg(qt_error_string(int(readError))));
        LPWSTR converted = nullptr;
        if (!ConvertSecurityDescriptorToStringSecurityDescriptorW(descriptor.get(), SDDL_REVISION_1, what,
                                                                  &converted, nullptr))
            return unreadable(hostPath,
                              QStringLiteral("ConvertSecurityDescriptorToStringSecurityDescriptorW: %1")
                                  .arg(qt_error_string(int(GetLastError()))));
        const LocalMemory<wchar_t> text(converted);
        const QString sddl = QString::fromWCharArray(text.get());
        const DescriptorAnswer answer = DescriptorAnswer::fromSddl(sddl);
        if (answer.kind == DescriptorAnswer::Kind::Unreadable)
            qCWarning(lcPlatform).noquote()
                << "security descriptor of" << hostPath << "not understood:" << answer.problem;
        return answer;
    }

    SystemResult protect(const QString &hostPath, const QString &sddl) const override
    {
        const DescriptorFromSddl made(sddl);
        if (!made.descriptor)
            return made.failure(sddl);
        BOOL present = FALSE;
        BOOL defaulted = FALSE;
        PACL dacl = nullptr;
        PSID owner = nullptr;
        GetSecurityDescriptorDacl(made.descriptor, &present, &dacl, &defaulted);
        GetSecurityDescriptorOwner(made.descriptor, &owner, &defaulted);
        const std::wstring name = win32Path(hostPath);
        // Listing and traversing too: the system passes the inheritable entries on to what is in it.
        const OwnedHandle folder = owned(CreateFileW(
            name.c_str(), READ_CONTROL | WRITE_DAC | WRITE_OWNER | FILE_LIST_DIRECTORY | FILE_TRAVERSE,
            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
            FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
        if (!folder)
            return failure(hostPath, GetLastError());
        BY_HANDLE_FILE_INFORMATION information{};
        if (!GetFileInformationByHandle(folder.get(), &information))
            return failure(hostPath, GetLastError());
        if ((information.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ||
            !(information.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
            return SystemFailure{
                QStringLiteral("%1 is a link, a junction or a file, not a plain folder").arg(hostPath),
                int(ERROR_DIRECTORY),
                {hostPath}};
        const DWORD result = SetSecurityInfo(folder.get(), SE_FILE_OBJECT,
                                             OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION |
                                                 PROTECTED_DACL_SECURITY_INFORMATION,
                                             owner, nullptr, dacl, nullptr);
        if (result != ERROR_SUCCESS)
            return failure(hostPath, result);
        return {};
    }

    SystemResult makeFolder(const QString &hostPath, const QString &sddl) const override
    {
        const DescriptorFromSddl made(sddl);
        if (!made.descriptor)
            return made.failure(sddl);
        SECURITY_ATTRIBUTES attributes{sizeof(SECURITY_ATTRIBUTES), made.descriptor, FALSE};
        const std::wstring name = win32Path(hostPath);
        if (!CreateDirectoryW(name.c_str(), &attributes))
            return failure(hostPath, GetLastError());
        return {};
    }

private:
    // A security descriptor made from SDDL, freed with it.
    struct DescriptorFromSddl
    {
        LocalMemory<void> made;
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        DWORD error = ERROR_SUCCESS;

        explicit DescriptorFromSddl(const QString &sddl)
        {
            if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(reinterpret_cast<LPCWSTR>(sddl.utf16()),
                                                                      SDDL_REVISION_1, &descriptor, nullptr))
                error = GetLastError();
            made.reset(descriptor);
        }

        SystemFailure failure(const QString &sddl) const
        {
            return {QStringLiteral("%1: %2").arg(sddl, qt_error_string(int(error))), int(error), {}};
        }
    };

    static SystemFailure failure(const QString &hostPath, DWORD error)
    {
        return {QStringLiteral("%1: %2").arg(hostPath, qt_error_string(int(error))), int(error), {hostPath}};
    }

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
