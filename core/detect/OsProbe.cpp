#include "detect/OsProbe.h"

#include "binary/ElfReader.h"
#include "binary/PeReader.h"
#include "common/Logging.h"
#include "platform/HostInfo.h"
#include "platform/SystemContext.h"

#include <QBuffer>
#include <QRegularExpression>

namespace cudnnsetup {

namespace {

QString osReleaseValue(const QByteArray &content, const QString &key)
{
    const QList<QByteArray> lines = content.split('\n');
    for (const QByteArray &raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (!line.startsWith(key + QLatin1Char('=')))
            continue;
        QString value = line.mid(key.size() + 1).trimmed();
        if (value.size() >= 2 &&
            (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\''))) &&
            value.endsWith(value.at(0)))
            value = value.mid(1, value.size() - 2);
        return value;
    }
    return {};
}

void probeLinux(const SystemContext &context, OsInfo &os)
{
    const FileSystem &files = context.files();
    for (const QString &path : {QStringLiteral("/etc/os-release"), QStringLiteral("/usr/lib/os-release")}) {
        const auto content = files.read(path, 64 * 1024);
        if (!content)
            continue;
        os.name = osReleaseValue(*content, QStringLiteral("PRETTY_NAME"));
        os.version = osReleaseValue(*content, QStringLiteral("VERSION_ID"));
        if (os.name.isEmpty())
            os.name = osReleaseValue(*content, QStringLiteral("NAME"));
        break;
    }
    if (const auto release = files.read(QStringLiteral("/proc/sys/kernel/osrelease"), 4096))
        os.kernel = QString::fromUtf8(*release).trimmed();

    if (context.isLive()) {
        os.arch = hostinfo::nativeArchitecture();
    } else if (const auto head = files.readHead(QStringLiteral("/bin/sh"), 64)) {
        // An image's architecture is that of its programs.
        const auto elf = elf::readHeader(*head);
        if (elf)
            os.arch = elf->machineName();
    }

    // WSL: the kernel says so ("...-microsoft-standard-WSL2"; WSL 1 "...-Microsoft").
    QString procVersion;
    if (const auto version = files.read(QStringLiteral("/proc/version"), 4096))
        procVersion = QString::fromUtf8(*version);
    const QString distribution = context.environment().value(QStringLiteral("WSL_DISTRO_NAME"));
    const bool microsoftKernel = procVersion.contains(QLatin1String("microsoft"), Qt::CaseInsensitive) ||
                                 os.kernel.contains(QLatin1String("microsoft"), Qt::CaseInsensitive);
    if (microsoftKernel || !distribution.isNull()) {
        WslInfo wsl;
        const bool wsl1 =
            procVersion.contains(QLatin1String("-Microsoft")) && !procVersion.contains(QLatin1String("WSL2"));
        wsl.version = wsl1 ? 1 : 2;
        wsl.distribution = distribution;
        os.wsl = wsl;
    }
}

void probeWindows(const SystemContext &context, OsInfo &os)
{
    if (context.isLive()) {
        os.arch = hostinfo::nativeArchitecture();
        const Registry &registry = context.registry();
        const QString key = QStringLiteral("SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion");
        const auto text = [&](const char *name) {
            const auto value = registry.value(RegistryHive::LocalMachine, key, QLatin1String(name));
            return value ? value->text : QString();
        };
        const auto number = [&](const char *name) {
            const auto value = registry.value(RegistryHive::LocalMachine, key, QLatin1String(name));
            return value && value->type == RegistryValue::DWord ? qint64(value->number) : qint64(-1);
        };
        const qint64 major = number("CurrentMajorVersionNumber");
        const qint64 minor = number("CurrentMinorVersionNumber");
        const QString build = text("CurrentBuildNumber");
        const qint64 ubr = number("UBR");
        if (major >= 0 && !build.isEmpty()) {
            os.version = QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(build);
            if (ubr >= 0)
                os.version += QStringLiteral(".%1").arg(ubr);
        }
        os.name = text("ProductName");
        // ProductName still says "Windows 10" on Windows 11; the build number tells them apart.
        if (build.toInt() >= 22000 && os.name.startsWith(QLatin1String("Windows 10")))
            os.name.replace(0, 10, QStringLiteral("Windows 11"));
        const QString displayVersion = text("DisplayVersion");
        if (!displayVersion.isEmpty())
            os.name += QStringLiteral(" ") + displayVersion;
        return;
    }
    // An offline image: the kernel's own version resource and machine say what it is.
    const QString kernel = QStringLiteral("C:\\Windows\\System32\\ntoskrnl.exe");
    const QString host = context.files().toHost(kernel);
    if (host.isEmpty() || !context.files().isFile(kernel))
        return;
    const auto pe = pe::readFile(host);
    if (!pe)
        return;
    os.arch = pe->machineName();
    if (pe->fileVersion.isValid()) {
        os.version = pe->fileVersion.toString();
        os.name =
            pe->fileVersion.part(2) >= 22000 ? QStringLiteral("Windows 11") : QStringLiteral("Windows 10");
    }
}

} // namespace

OsInfo probeOs(const SystemContext &context, Findings &findings)
{
    OsInfo os;
    os.family = osFamilyName(context.family());
    if (context.family() == OsFamily::Windows)
        probeWindows(context, os);
    else
        probeLinux(context, os);

    if (os.family == QLatin1String("windows") && os.arch == QLatin1String("arm64")) {
        findings.append(Finding::error(
            QStringLiteral("os.windows-arm64"),
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "This is Windows on ARM. NVIDIA publishes cuDNN for Windows only for x64 PCs.")),
            QStringLiteral("native machine: arm64"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use an x64 PC with an NVIDIA GPU for CUDA and cuDNN."))));
    }
    if (os.wsl) {
        if (os.wsl->version == 1) {
            findings.append(Finding::error(
                QStringLiteral("os.wsl1"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "This is WSL 1, which cannot use the GPU.")), os.kernel,
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Convert the distribution to WSL 2 (wsl --set-version "
                                                     "<name> 2) and run this again inside it."))));
        } else {
            findings.append(Finding::info(
                QStringLiteral("os.wsl2"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "This is Linux under WSL 2. The GPU driver comes from Windows; cuDNN "
                                       "must be installed here, inside Linux, for Linux programs.")),
                QStringLiteral("kernel %1, distribution %2").arg(os.kernel, os.wsl->distribution),
                Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup", "Install the NVIDIA driver on Windows only (never a Linux driver inside "
                                  "WSL), and the Linux cuDNN archive inside this distribution."))));
        }
    }
    qCDebug(lcDetect) << "os" << os.family << os.name << os.version << os.arch << os.kernel;
    return os;
}

} // namespace cudnnsetup
