#include "detect/GpuProbe.h"

#include "binary/PeReader.h"
#include "common/Logging.h"
#include "detect/NvidiaSmiParser.h"
#include "detect/VersionParsers.h"
#include "platform/SystemContext.h"

#include <QRegularExpression>

namespace cudnnsetup {

namespace {

// The CUDA driver API encodes versions as 1000 * major + 10 * minor.
QString cudaFromDriverInteger(int version)
{
    if (version <= 0)
        return {};
    return QStringLiteral("%1.%2").arg(version / 1000).arg((version % 1000) / 10);
}

// ---- NVML and the CUDA driver API: the running system only ---------------------------------

// nvml.h, stable since NVML 10.
struct NvmlMemory
{
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct NvmlPciInfo
{
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};
using NvmlDevice = void *;

struct NvmlReading
{
    bool answered = false;
    QList<GpuInfo> gpus;
    QString driverVersion;
    QString maxCuda;
    QString error;
};

NvmlReading readNvml(const SystemContext &context)
{
    NvmlReading reading;
    LoadResult loaded;
    if (context.family() == OsFamily::Windows) {
        loaded = context.libraries().load(QStringLiteral("nvml.dll"), LibraryLoader::Search::System32);
        if (!loaded.library) {
            // Drivers before the DCH packages kept NVML beside nvidia-smi.
            const QString programFiles = context.environment().value(QStringLiteral("ProgramFiles"));
            if (!programFiles.isEmpty()) {
                loaded = context.libraries().load(context.paths().join(
                    programFiles, QStringLiteral("NVIDIA Corporation\\NVSMI\\nvml.dll")));
            }
        }
    } else {
        loaded =
            context.libraries().load(QStringLiteral("libnvidia-ml.so.1"), LibraryLoader::Search::Standard);
    }
    if (!loaded.library) {
        reading.error = loaded.errorString;
        return reading;
    }
    const LoadedLibrary &nvml = *loaded.library;
    using InitFn = int (*)();
    using StringFn = int (*)(char *, unsigned int);
    using IntFn = int (*)(int *);
    using CountFn = int (*)(unsigned int *);
    using HandleFn = int (*)(unsigned int, NvmlDevice *);
    using DeviceStringFn = int (*)(NvmlDevice, char *, unsigned int);
    using MemoryFn = int (*)(NvmlDevice, NvmlMemory *);
    using CapabilityFn = int (*)(NvmlDevice, int *, int *);
    using PciFn = int (*)(NvmlDevice, NvmlPciInfo *);

    const auto init = nvml.function<InitFn>("nvmlInit_v2");
    const auto shutdown = nvml.function<InitFn>("nvmlShutdown");
    if (!init || !shutdown) {
        reading.error = QStringLiteral("nvmlInit_v2 not exported by %1").arg(nvml.loadedPath());
        return reading;
    }
    const int initStatus = init();
    if (initStatus != 0) {
        reading.error = QStringLiteral("nvmlInit_v2 returned %1").arg(initStatus);
        return reading;
    }
    reading.answered = true;

    char text[96] = {};
    if (const auto driverVersion = nvml.function<StringFn>("nvmlSystemGetDriverVersion");
        driverVersion && driverVersion(text, sizeof(text)) == 0)
        reading.driverVersion = QString::fromLatin1(text);
    int cuda = 0;
    auto cudaVersion = nvml.function<IntFn>("nvmlSystemGetCudaDriverVersion_v2");
    if (!cudaVersion)
        cudaVersion = nvml.function<IntFn>("nvmlSystemGetCudaDriverVersion");
    if (cudaVersion && cudaVersion(&cuda) == 0)
        reading.maxCuda = cudaFromDriverInteger(cuda);

    const auto count = nvml.function<CountFn>("nvmlDeviceGetCount_v2");
    const auto handleByIndex = nvml.function<HandleFn>("nvmlDeviceGetHandleByIndex_v2");
    const auto name = nvml.function<DeviceStringFn>("nvmlDeviceGetName");
    const auto uuid = nvml.function<DeviceStringFn>("nvmlDeviceGetUUID");
    const auto memory = nvml.function<MemoryFn>("nvmlDeviceGetMemoryInfo");
    const auto capability = nvml.function<CapabilityFn>("nvmlDeviceGetCudaComputeCapability");
    const auto pci = nvml.function<PciFn>("nvmlDeviceGetPciInfo_v3");
    unsigned int devices = 0;
    if (count && handleByIndex && count(&devices) == 0) {
        for (unsigned int i = 0; i < devices && i < 64; ++i) {
            NvmlDevice device = nullptr;
            if (handleByIndex(i, &device) != 0)
                continue;
            GpuInfo gpu;
            gpu.index = int(i);
            gpu.source = QStringLiteral("nvml");
            char buffer[96] = {};
            if (name && name(device, buffer, sizeof(buffer)) == 0)
                gpu.name = QString::fromUtf8(buffer);
            char uuidBuffer[96] = {};
            if (uuid && uuid(device, uuidBuffer, sizeof(uuidBuffer)) == 0)
                gpu.uuid = QString::fromLatin1(uuidBuffer);
            NvmlMemory memoryInfo{};
            if (memory && memory(device, &memoryInfo) == 0)
                gpu.memoryMiB = qint64(memoryInfo.total / (1024 * 1024));
            int major = 0;
            int minor = 0;
            if (capability && capability(device, &major, &minor) == 0)
                gpu.computeCapability = QStringLiteral("%1.%2").arg(major).arg(minor);
            NvmlPciInfo pciInfo{};
            if (pci && pci(device, &pciInfo) == 0)
                gpu.pciBusId = QString::fromLatin1(pciInfo.busId);
            reading.gpus.append(gpu);
        }
    }
    shutdown();
    return reading;
}

QString readCudaDriverVersion(const SystemContext &context)
{
    const QString name =
        context.family() == OsFamily::Windows ? QStringLiteral("nvcuda.dll") : QStringLiteral("libcuda.so.1");
    const LoadResult loaded = context.libraries().load(name, context.family() == OsFamily::Windows
                                                                 ? LibraryLoader::Search::System32
                                                                 : LibraryLoader::Search::Standard);
    if (!loaded.library)
        return {};
    using DriverVersionFn = int (*)(int *);
    const auto driverVersion = loaded.library->function<DriverVersionFn>("cuDriverGetVersion");
    int version = 0;
    if (!driverVersion || driverVersion(&version) != 0)
        return {};
    return cudaFromDriverInteger(version);
}

// ---- nvidia-smi -----------------------------------------------------------------------------

QStringList nvidiaSmiPlaces(const SystemContext &context)
{
    if (context.family() == OsFamily::Windows) {
        return {QStringLiteral("C:\\Windows\\System32"),
                QStringLiteral("C:\\Program Files\\NVIDIA Corporation\\NVSMI")};
    }
    return {QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin"),
            QStringLiteral("/usr/local/nvidia/bin"), QStringLiteral("/usr/lib/wsl/lib"),
            QStringLiteral("/bin")};
}

struct SmiReading
{
    bool found = false;
    nvidiasmi::DriverFailure failure = nvidiasmi::DriverFailure::None;
    QList<GpuInfo> gpus;
    QString driverVersion;
    QString maxCuda;
    QString cudaRaw;
    QString smiVersion;
    QString failureText;
};

QString outputOf(const ProcessResult &result)
{
    return QString::fromLocal8Bit(result.standardOutput + result.standardError);
}

bool handleRunProblems(const QString &program, const ProcessResult &result, const DetectOptions &options,
                       SmiReading &reading, Findings &findings)
{
    if (result.cancelled)
        return true;
    if (result.timedOut) {
        findings.append(Finding::warning(
            QStringLiteral("nvidia-smi.timeout"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "nvidia-smi did not answer within %1 seconds and was stopped."))
                .arg(options.toolTimeoutMs / 1000),
            program,
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The driver may be hung. Restart the computer and run this again."))));
        return true;
    }
    if (!result.started) {
        findings.append(
            Finding::warning(QStringLiteral("nvidia-smi.failed"),
                             Text(QT_TRANSLATE_NOOP("cudnnsetup", "nvidia-smi could not be started.")),
                             QStringLiteral("%1: %2").arg(program, result.summary())));
        return true;
    }
    const QString output = outputOf(result);
    if (nvidiasmi::isDriverFailure(output)) {
        reading.failure = nvidiasmi::driverFailure(output);
        reading.failureText = output.trimmed();
        return true;
    }
    return false;
}

SmiReading readNvidiaSmi(const SystemContext &context, const DetectOptions &options, bool needTable,
                         Findings &findings)
{
    SmiReading reading;
    const QString program = context.toolToRun(QStringLiteral("nvidia-smi"), nvidiaSmiPlaces(context));
    if (program.isEmpty())
        return reading;
    reading.found = true;

    const QString format = QStringLiteral("--format=csv,noheader,nounits");
    QStringList fields = nvidiasmi::queryFields();
    ProcessResult query =
        context.run(program, {QStringLiteral("--query-gpu=") + fields.join(QLatin1Char(',')), format},
                    options.toolTimeoutMs, options.cancel);
    if (query.started && !query.timedOut && nvidiasmi::isInvalidFieldError(outputOf(query))) {
        fields = nvidiasmi::queryFieldsLegacy(); // drivers before compute_cap existed
        query = context.run(program, {QStringLiteral("--query-gpu=") + fields.join(QLatin1Char(',')), format},
                            options.toolTimeoutMs, options.cancel);
    }
    if (handleRunProblems(program, query, options, reading, findings))
        return reading;
    if (query.exitCode == 0) {
        const auto rows = nvidiasmi::parseQuery(QString::fromLocal8Bit(query.standardOutput), fields);
        if (rows) {
            for (const nvidiasmi::QueryRow &row : *rows) {
                GpuInfo gpu;
                gpu.index = row.index;
                gpu.name = row.name;
                gpu.uuid = row.uuid;
                gpu.pciBusId = row.busId;
                gpu.memoryMiB = row.memoryTotalMiB;
                gpu.computeCapability = row.computeCapability;
                gpu.source = QStringLiteral("nvidia-smi");
                reading.gpus.append(gpu);
                if (reading.driverVersion.isEmpty())
                    reading.driverVersion = row.driverVersion;
            }
        } else {
            findings.append(rows.error());
        }
    }
    if (!needTable && !reading.gpus.isEmpty())
        return reading;

    // The table's header is where the driver says which CUDA it supports.
    const ProcessResult table = context.run(program, {}, options.toolTimeoutMs, options.cancel);
    if (handleRunProblems(program, table, options, reading, findings))
        return reading;
    const auto parsed = nvidiasmi::parseTable(QString::fromLocal8Bit(table.standardOutput));
    if (!parsed) {
        findings.append(parsed.error());
        return reading;
    }
    reading.smiVersion = parsed->smiVersion;
    reading.cudaRaw = parsed->cudaRaw;
    reading.maxCuda = parsed->cudaVersion;
    if (!parsed->driverVersion.isEmpty())
        reading.driverVersion = parsed->driverVersion;
    if (reading.gpus.isEmpty()) {
        for (const nvidiasmi::TableGpu &row : parsed->gpus) {
            GpuInfo gpu;
            gpu.index = row.index;
            gpu.name = row.name;
            gpu.pciBusId = row.busId;
            gpu.memoryMiB = row.memoryTotalMiB;
            gpu.source = QStringLiteral("nvidia-smi");
            reading.gpus.append(gpu);
        }
    }
    return reading;
}

// ---- What the system lists without a working driver --------------------------------------------

void readWindowsAdapters(const SystemContext &context, GpuProbeResult &result)
{
    const Registry &registry = context.registry();
    if (!registry.isAvailable())
        return;
    const QString displayClass =
        QStringLiteral("SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}");
    const QStringList adapters = registry.subKeys(RegistryHive::LocalMachine, displayClass);
    QList<GpuInfo> found;
    QString driverVersion;
    for (const QString &adapter : adapters) {
        const QString key = displayClass + QLatin1Char('\\') + adapter;
        const auto matching =
            registry.value(RegistryHive::LocalMachine, key, QStringLiteral("MatchingDeviceId"));
        if (!matching || !matching->text.contains(QLatin1String("VEN_10DE"), Qt::CaseInsensitive))
            continue;
        GpuInfo gpu;
        gpu.index = int(found.size());
        gpu.source = QStringLiteral("registry");
        if (const auto description =
                registry.value(RegistryHive::LocalMachine, key, QStringLiteral("DriverDesc")))
            gpu.name = description->text;
        found.append(gpu);
        if (const auto version =
                registry.value(RegistryHive::LocalMachine, key, QStringLiteral("DriverVersion"))) {
            const Version nvidia = versions::nvidiaDriverFromWindowsFileVersion(version->text);
            if (nvidia.isValid())
                driverVersion = nvidia.toString();
        }
    }
    if (result.gpus.isEmpty())
        result.gpus = found;
    if (!result.driver && !driverVersion.isEmpty()) {
        DriverInfo driver;
        driver.version = driverVersion;
        driver.source = QStringLiteral("registry");
        result.driver = driver;
    }
}

// The driver's user-mode CUDA library carries the driver's version ("32.0.15.6094" is 560.94): on an
// offline image, where no driver runs and the registry is not this system's, it is what tells.
void readNvcudaVersion(const SystemContext &context, GpuProbeResult &result)
{
    const QString nvcuda = QStringLiteral("C:\\Windows\\System32\\nvcuda.dll");
    if (result.driver || !context.files().isFile(nvcuda))
        return;
    const auto pe = pe::readFile(context.files().toHost(nvcuda));
    if (!pe || !pe->fileVersion.isValid())
        return;
    const Version nvidia = versions::nvidiaDriverFromWindowsFileVersion(pe->fileVersion.toString());
    if (!nvidia.isValid())
        return;
    DriverInfo driver;
    driver.version = nvidia.toString();
    driver.source = QStringLiteral("nvcuda.dll");
    result.driver = driver;
}

QString pciDeviceName(const SystemContext &context, const QString &deviceId)
{
    for (const QString &path :
         {QStringLiteral("/usr/share/misc/pci.ids"), QStringLiteral("/usr/share/hwdata/pci.ids")}) {
        const auto content = context.files().read(path, 8 * 1024 * 1024);
        if (!content)
            continue;
        const qsizetype vendor = content->indexOf("\n10de  ");
        if (vendor < 0)
            return {};
        const QByteArray needle = "\n\t" + deviceId.toLatin1() + "  ";
        const qsizetype nextVendor = [&] {
            for (qsizetype i = content->indexOf('\n', vendor + 1); i >= 0 && i + 1 < content->size();
                 i = content->indexOf('\n', i + 1)) {
                const char c = content->at(i + 1);
                if (c != '\t' && c != '#' && c != '\n')
                    return i;
            }
            return content->size();
        }();
        const qsizetype at = content->indexOf(needle, vendor);
        if (at < 0 || at > nextVendor)
            return {};
        const qsizetype start = at + needle.size();
        return QString::fromUtf8(content->mid(start, content->indexOf('\n', start) - start)).trimmed();
    }
    return {};
}

void readLinuxKernel(const SystemContext &context, GpuProbeResult &result)
{
    const FileSystem &files = context.files();
    // The kernel module says which driver is loaded even when nvidia-smi is missing or broken.
    if (!result.driver) {
        if (const auto version = files.read(QStringLiteral("/proc/driver/nvidia/version"), 64 * 1024)) {
            static const QRegularExpression pattern(
                QStringLiteral("NVRM version:.*?\\s(\\d{3}\\.\\d+(?:\\.\\d+)?)\\s"));
            const auto match = pattern.match(QString::fromUtf8(*version));
            if (match.hasMatch()) {
                DriverInfo driver;
                driver.version = match.captured(1);
                driver.source = QStringLiteral("/proc/driver/nvidia/version");
                result.driver = driver;
            }
        }
    }
    if (!result.gpus.isEmpty())
        return;
    const QString procGpus = QStringLiteral("/proc/driver/nvidia/gpus");
    for (const QString &busId : files.entries(procGpus, {}, FileSystem::Dirs)) {
        const auto info =
            files.read(procGpus + QLatin1Char('/') + busId + QStringLiteral("/information"), 64 * 1024);
        if (!info)
            continue;
        GpuInfo gpu;
        gpu.index = int(result.gpus.size());
        gpu.pciBusId = busId;
        gpu.source = QStringLiteral("/proc/driver/nvidia");
        const QList<QByteArray> lines = info->split('\n');
        for (const QByteArray &line : lines) {
            const QString text = QString::fromUtf8(line);
            const QString key = text.section(QLatin1Char(':'), 0, 0).trimmed();
            const QString value = text.section(QLatin1Char(':'), 1).trimmed();
            if (key == QLatin1String("Model"))
                gpu.name = value;
            else if (key == QLatin1String("GPU UUID"))
                gpu.uuid = value;
        }
        result.gpus.append(gpu);
    }
    if (!result.gpus.isEmpty())
        return;
    // No driver at all: the PCI bus still lists the card (vendor 0x10de, display class 0x03xx).
    const QString pci = QStringLiteral("/sys/bus/pci/devices");
    for (const QString &device : files.entries(pci)) {
        const QString base = pci + QLatin1Char('/') + device + QLatin1Char('/');
        const auto vendor = files.read(base + QStringLiteral("vendor"), 64);
        const auto deviceClass = files.read(base + QStringLiteral("class"), 64);
        if (!vendor || !deviceClass || vendor->trimmed() != "0x10de" ||
            !deviceClass->trimmed().startsWith("0x03"))
            continue;
        GpuInfo gpu;
        gpu.index = int(result.gpus.size());
        gpu.pciBusId = device;
        gpu.source = QStringLiteral("pci");
        if (const auto id = files.read(base + QStringLiteral("device"), 64)) {
            const QString deviceId = QString::fromLatin1(id->trimmed()).remove(QStringLiteral("0x"));
            gpu.name = pciDeviceName(context, deviceId);
            if (gpu.name.isEmpty())
                gpu.name = QStringLiteral("NVIDIA [10de:%1]").arg(deviceId);
        }
        result.gpus.append(gpu);
    }
}

Finding driverFailureFinding(nvidiasmi::DriverFailure failure, const QString &output)
{
    using nvidiasmi::DriverFailure;
    switch (failure) {
    case DriverFailure::VersionMismatch:
        return Finding::error(
            QStringLiteral("driver.version-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The NVIDIA driver was updated, but the old one is still running.")),
            output,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Restart the computer to finish the driver update.")));
    case DriverFailure::GpuLost:
        return Finding::error(
            QStringLiteral("driver.gpu-lost"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "A GPU stopped responding to the driver.")), output,
            Text(QT_TRANSLATE_NOOP(
                "cudnnsetup",
                "Restart the computer. If it happens again, check the GPU's power cables and cooling.")));
    case DriverFailure::NoDevices:
        return Finding::error(
            QStringLiteral("driver.no-devices"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The NVIDIA driver is running but sees no GPU.")), output,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Check that the GPU is seated and enabled in the firmware "
                                                 "settings, and that the installed driver supports it.")));
    case DriverFailure::NotCommunicating:
    case DriverFailure::NvmlError:
    case DriverFailure::None:
        break;
    }
    return Finding::error(
        QStringLiteral("driver.not-working"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The NVIDIA driver is installed but does not respond.")), output,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Restart the computer. If that does not help, reinstall the "
                                             "NVIDIA driver (choose a clean installation).")));
}

QString gpuNames(const QList<GpuInfo> &gpus)
{
    QStringList names;
    for (const GpuInfo &gpu : gpus)
        names.append(gpu.name.isEmpty() ? QStringLiteral("NVIDIA GPU") : gpu.name);
    names.removeDuplicates();
    return names.join(QStringLiteral(", "));
}

} // namespace

GpuProbeResult probeGpus(const SystemContext &context, const DetectOptions &options, Findings &findings)
{
    GpuProbeResult result;
    nvidiasmi::DriverFailure failure = nvidiasmi::DriverFailure::None;
    QString failureText;

    if (context.isLive() && options.useDriverApi) {
        const NvmlReading nvml = readNvml(context);
        if (nvml.answered) {
            result.gpus = nvml.gpus;
            if (!nvml.driverVersion.isEmpty()) {
                DriverInfo driver;
                driver.version = nvml.driverVersion;
                driver.source = QStringLiteral("nvml");
                driver.maxCuda = readCudaDriverVersion(context);
                driver.maxCudaSource = QStringLiteral("cuDriverGetVersion");
                if (driver.maxCuda.isEmpty() && !nvml.maxCuda.isEmpty()) {
                    driver.maxCuda = nvml.maxCuda;
                    driver.maxCudaSource = QStringLiteral("nvml");
                }
                result.driver = driver;
            }
        } else {
            qCDebug(lcDetect) << "NVML unavailable:" << nvml.error;
        }
    }

    const bool complete = result.driver && !result.driver->maxCuda.isEmpty() && !result.gpus.isEmpty();
    QString smiDetails;
    if (!complete && !options.cancelled()) {
        const bool needTable = !result.driver || result.driver->maxCuda.isEmpty();
        const SmiReading smi = readNvidiaSmi(context, options, needTable, findings);
        failure = smi.failure;
        failureText = smi.failureText;
        if (result.gpus.isEmpty())
            result.gpus = smi.gpus;
        if (!result.driver && !smi.driverVersion.isEmpty()) {
            DriverInfo driver;
            driver.version = smi.driverVersion;
            driver.source = QStringLiteral("nvidia-smi");
            result.driver = driver;
        }
        if (result.driver && result.driver->maxCuda.isEmpty() && !smi.maxCuda.isEmpty()) {
            result.driver->maxCuda = smi.maxCuda;
            result.driver->maxCudaSource = QStringLiteral("nvidia-smi");
        }
        if (result.driver && result.driver->maxCuda.isEmpty() && !smi.cudaRaw.isNull()) {
            findings.append(Finding::warning(
                QStringLiteral("driver.max-cuda-unknown"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The driver did not say which CUDA versions it supports "
                                                     "(nvidia-smi printed \"%1\")."))
                    .arg(smi.cudaRaw),
                QStringLiteral("nvidia-smi header: CUDA field %1").arg(smi.cudaRaw)));
        }
        if (!smi.smiVersion.isEmpty() && result.driver && smi.smiVersion != result.driver->version)
            smiDetails =
                QStringLiteral("nvidia-smi %1 reports driver %2").arg(smi.smiVersion, result.driver->version);
    }

    if (context.family() == OsFamily::Windows) {
        readWindowsAdapters(context, result);
        readNvcudaVersion(context, result);
    } else
        readLinuxKernel(context, result);

    const bool driverFailure = failure != nvidiasmi::DriverFailure::None;
    if (driverFailure && result.driver)
        result.driver->working = false;
    if (!smiDetails.isEmpty() && result.driver)
        result.driver->source += QStringLiteral(" (%1)").arg(smiDetails);
    if (driverFailure)
        findings.append(driverFailureFinding(failure, failureText));
    if (result.gpus.isEmpty() && !result.driver) {
        findings.append(Finding::error(
            QStringLiteral("gpu.none"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "No NVIDIA GPU was found. cuDNN runs only on NVIDIA GPUs.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "If this computer has an NVIDIA GPU, install its driver "
                                                 "from nvidia.com and run this again."))));
    } else if (!result.driver && !driverFailure) {
        findings.append(Finding::error(
            QStringLiteral("driver.missing"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "An NVIDIA GPU (%1) is present, but no NVIDIA driver is installed."))
                .arg(gpuNames(result.gpus)),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install the current NVIDIA driver for this GPU from "
                                                 "nvidia.com/drivers, restart, and run this again."))));
    }
    qCDebug(lcDetect) << "gpus" << result.gpus.size() << "driver"
                      << (result.driver ? result.driver->version : QString());
    return result;
}

} // namespace cudnnsetup
