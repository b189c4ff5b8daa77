#include "detect/SystemSnapshot.h"

#include "common/Version.h"
#include "platform/SystemPaths.h"

#include <QJsonArray>

namespace cudnnsetup {

namespace {

QJsonValue str(const QString &value)
{
    return value.isNull() ? QJsonValue() : QJsonValue(value);
}

QString str(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isString() ? value.toString() : QString();
}

QJsonValue optInt(const std::optional<int> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

std::optional<int> optInt(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isDouble() ? std::optional<int>(value.toInt()) : std::nullopt;
}

QJsonArray strings(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QStringList strings(const QJsonObject &object, const char *key)
{
    QStringList list;
    const QJsonArray array = object.value(QLatin1String(key)).toArray();
    for (const QJsonValue &value : array)
        list.append(value.toString());
    return list;
}

template <typename T, typename F>
QJsonArray array(const QList<T> &items, F toJson)
{
    QJsonArray result;
    for (const T &item : items)
        result.append(toJson(item));
    return result;
}

template <typename T, typename F>
QList<T> list(const QJsonObject &object, const char *key, F fromJson)
{
    QList<T> result;
    const QJsonArray items = object.value(QLatin1String(key)).toArray();
    for (const QJsonValue &value : items)
        result.append(fromJson(value.toObject()));
    return result;
}

QJsonObject osToJson(const OsInfo &os)
{
    QJsonObject object{{QStringLiteral("family"), str(os.family)},
                       {QStringLiteral("name"), str(os.name)},
                       {QStringLiteral("version"), str(os.version)},
                       {QStringLiteral("arch"), str(os.arch)},
                       {QStringLiteral("kernel"), str(os.kernel)}};
    if (os.wsl) {
        object.insert(QStringLiteral("wsl"),
                      QJsonObject{{QStringLiteral("version"), os.wsl->version},
                                  {QStringLiteral("distribution"), str(os.wsl->distribution)}});
    } else {
        object.insert(QStringLiteral("wsl"), QJsonValue());
    }
    return object;
}

OsInfo osFromJson(const QJsonObject &object)
{
    OsInfo os;
    os.family = str(object, "family");
    os.name = str(object, "name");
    os.version = str(object, "version");
    os.arch = str(object, "arch");
    os.kernel = str(object, "kernel");
    if (object.value(QStringLiteral("wsl")).isObject()) {
        const QJsonObject wsl = object.value(QStringLiteral("wsl")).toObject();
        os.wsl = WslInfo{wsl.value(QStringLiteral("version")).toInt(2), str(wsl, "distribution")};
    }
    return os;
}

QJsonObject gpuToJson(const GpuInfo &gpu)
{
    return {
        {QStringLiteral("index"), gpu.index},
        {QStringLiteral("name"), str(gpu.name)},
        {QStringLiteral("computeCapability"), str(gpu.computeCapability)},
        {QStringLiteral("memoryMiB"), gpu.memoryMiB >= 0 ? QJsonValue(double(gpu.memoryMiB)) : QJsonValue()},
        {QStringLiteral("uuid"), str(gpu.uuid)},
        {QStringLiteral("pciBusId"), str(gpu.pciBusId)},
        {QStringLiteral("source"), str(gpu.source)}};
}

GpuInfo gpuFromJson(const QJsonObject &object)
{
    GpuInfo gpu;
    gpu.index = object.value(QStringLiteral("index")).toInt(-1);
    gpu.name = str(object, "name");
    gpu.computeCapability = str(object, "computeCapability");
    const QJsonValue memory = object.value(QStringLiteral("memoryMiB"));
    gpu.memoryMiB = memory.isDouble() ? qint64(memory.toDouble()) : -1;
    gpu.uuid = str(object, "uuid");
    gpu.pciBusId = str(object, "pciBusId");
    gpu.source = str(object, "source");
    return gpu;
}

QJsonObject toolkitToJson(const CudaToolkit &toolkit)
{
    return {{QStringLiteral("version"), str(toolkit.version)},
            {QStringLiteral("path"), str(toolkit.path)},
            {QStringLiteral("source"), str(toolkit.source)},
            {QStringLiteral("versionSource"), str(toolkit.versionSource)},
            {QStringLiteral("binDir"), str(toolkit.binDir)},
            {QStringLiteral("libDir"), str(toolkit.libDir)}};
}

CudaToolkit toolkitFromJson(const QJsonObject &object)
{
    CudaToolkit toolkit;
    toolkit.version = str(object, "version");
    toolkit.path = str(object, "path");
    toolkit.source = str(object, "source");
    toolkit.versionSource = str(object, "versionSource");
    toolkit.binDir = str(object, "binDir");
    toolkit.libDir = str(object, "libDir");
    return toolkit;
}

QJsonObject cudnnToJson(const CudnnCopy &copy)
{
    return {{QStringLiteral("version"), str(copy.version)},
            {QStringLiteral("path"), str(copy.path)},
            {QStringLiteral("directory"), str(copy.directory)},
            {QStringLiteral("cudaMajor"), optInt(copy.cudaMajor)},
            {QStringLiteral("source"), str(copy.source)},
            {QStringLiteral("versionSource"), str(copy.versionSource)},
            {QStringLiteral("headerPath"), str(copy.headerPath)},
            {QStringLiteral("owner"), str(copy.owner)},
            {QStringLiteral("libraries"), strings(copy.libraries)},
            {QStringLiteral("loadOrder"), optInt(copy.loadOrder)}};
}

CudnnCopy cudnnFromJson(const QJsonObject &object)
{
    CudnnCopy copy;
    copy.version = str(object, "version");
    copy.path = str(object, "path");
    copy.directory = str(object, "directory");
    copy.cudaMajor = optInt(object, "cudaMajor");
    copy.source = str(object, "source");
    copy.versionSource = str(object, "versionSource");
    copy.headerPath = str(object, "headerPath");
    copy.owner = str(object, "owner");
    copy.libraries = strings(object, "libraries");
    copy.loadOrder = optInt(object, "loadOrder");
    return copy;
}

QJsonObject pythonToJson(const PythonInstall &python)
{
    QJsonObject object{{QStringLiteral("path"), str(python.path)},
                       {QStringLiteral("names"), strings(python.names)},
                       {QStringLiteral("version"), str(python.version)},
                       {QStringLiteral("bits"), python.bits ? QJsonValue(python.bits) : QJsonValue()},
                       {QStringLiteral("arch"), str(python.arch)},
                       {QStringLiteral("source"), str(python.source)},
                       {QStringLiteral("tensorflow"), str(python.tensorflow)},
                       {QStringLiteral("probeError"), str(python.probeError)},
                       {QStringLiteral("factsFrom"), str(python.factsFrom)}};
    QJsonArray frameworks;
    for (const FrameworkInfo &framework : python.frameworks)
        frameworks.append(QJsonObject{{QStringLiteral("name"), framework.name},
                                      {QStringLiteral("version"), str(framework.version)},
                                      {QStringLiteral("cuda"), str(framework.cuda)},
                                      {QStringLiteral("cudnn"), str(framework.cudnn)},
                                      {QStringLiteral("cudnnLoadedFrom"), str(framework.cudnnLoadedFrom)}});
    object.insert(QStringLiteral("frameworks"), frameworks);
    if (python.torch) {
        const TorchInfo &torch = *python.torch;
        object.insert(QStringLiteral("torch"),
                      QJsonObject{{QStringLiteral("version"), str(torch.version)},
                                  {QStringLiteral("cuda"), str(torch.cuda)},
                                  {QStringLiteral("cudnn"), str(torch.cudnn)},
                                  {QStringLiteral("cudnnLoadedFrom"), str(torch.cudnnLoadedFrom)},
                                  {QStringLiteral("cudaAvailable"),
                                   torch.cudaAvailable ? QJsonValue(*torch.cudaAvailable) : QJsonValue()}});
    } else {
        object.insert(QStringLiteral("torch"), QJsonValue());
    }
    return object;
}

PythonInstall pythonFromJson(const QJsonObject &object)
{
    PythonInstall python;
    python.path = str(object, "path");
    python.names = strings(object, "names");
    python.version = str(object, "version");
    python.bits = object.value(QStringLiteral("bits")).toInt(0);
    python.arch = str(object, "arch");
    python.source = str(object, "source");
    python.tensorflow = str(object, "tensorflow");
    python.probeError = str(object, "probeError");
    python.factsFrom = str(object, "factsFrom");
    for (const QJsonValue &value : object.value(QStringLiteral("frameworks")).toArray()) {
        const QJsonObject framework = value.toObject();
        python.frameworks.append({str(framework, "name"), str(framework, "version"), str(framework, "cuda"),
                                  str(framework, "cudnn"), str(framework, "cudnnLoadedFrom")});
    }
    if (object.value(QStringLiteral("torch")).isObject()) {
        const QJsonObject torchObject = object.value(QStringLiteral("torch")).toObject();
        TorchInfo torch;
        torch.version = str(torchObject, "version");
        torch.cuda = str(torchObject, "cuda");
        torch.cudnn = str(torchObject, "cudnn");
        torch.cudnnLoadedFrom = str(torchObject, "cudnnLoadedFrom");
        const QJsonValue available = torchObject.value(QStringLiteral("cudaAvailable"));
        if (available.isBool())
            torch.cudaAvailable = available.toBool();
        python.torch = torch;
    }
    return python;
}

ConsumerInfo consumerFromJson(const QJsonObject &object)
{
    ConsumerInfo consumer;
    consumer.name = str(object, "name");
    consumer.version = str(object, "version");
    consumer.location = str(object, "location");
    consumer.files = strings(object, "files");
    const QJsonObject needs = object.value(QStringLiteral("needs")).toObject();
    consumer.cudnnMajor = optInt(needs, "cudnnMajor");
    consumer.cublasMajor = optInt(needs, "cublasMajor");
    consumer.cudaMajor = optInt(needs, "cudaMajor");
    const QJsonObject archs = object.value(QStringLiteral("archs")).toObject();
    consumer.sass = strings(archs, "sass");
    consumer.sassInPart = strings(archs, "sassInPart");
    consumer.ptx = strings(archs, "ptx");
    consumer.ptxIsa = strings(archs, "ptxIsa");
    const QJsonObject resolves = object.value(QStringLiteral("resolves")).toObject();
    for (auto it = resolves.constBegin(); it != resolves.constEnd(); ++it) {
        if (!it->isObject()) {
            consumer.resolves.append({it.key(), std::nullopt});
            continue;
        }
        const QJsonObject copy = it->toObject();
        consumer.resolves.append({it.key(), ResolvedLibrary{str(copy, "path"), str(copy, "version")}});
    }
    return consumer;
}

QJsonObject environmentToJson(const EnvironmentInfo &environment)
{
    return {{QStringLiteral("CUDA_PATH"), str(environment.cudaPath)},
            {QStringLiteral("cudaPathToolkit"), str(environment.cudaPathToolkit)},
            {QStringLiteral("CUDA_VISIBLE_DEVICES"), str(environment.cudaVisibleDevices)},
            {QStringLiteral("CUDA_MODULE_LOADING"), str(environment.cudaModuleLoading)},
            {QStringLiteral("path"), strings(environment.path)},
            {QStringLiteral("libraryPath"), strings(environment.libraryPath)},
            {QStringLiteral("pathStale"),
             environment.pathStale ? QJsonValue(*environment.pathStale) : QJsonValue()}};
}

EnvironmentInfo environmentFromJson(const QJsonObject &object)
{
    EnvironmentInfo environment;
    environment.cudaPath = str(object, "CUDA_PATH");
    environment.cudaPathToolkit = str(object, "cudaPathToolkit");
    environment.cudaVisibleDevices = str(object, "CUDA_VISIBLE_DEVICES");
    environment.cudaModuleLoading = str(object, "CUDA_MODULE_LOADING");
    environment.path = strings(object, "path");
    environment.libraryPath = strings(object, "libraryPath");
    const QJsonValue stale = object.value(QStringLiteral("pathStale"));
    if (stale.isBool())
        environment.pathStale = stale.toBool();
    return environment;
}

} // namespace

QJsonObject consumerToJson(const ConsumerInfo &consumer)
{
    QJsonObject resolves;
    for (const auto &[library, copy] : consumer.resolves)
        resolves.insert(library,
                        copy ? QJsonValue(QJsonObject{{QStringLiteral("path"), str(copy->path)},
                                                      {QStringLiteral("version"), str(copy->version)}})
                             : QJsonValue());
    return {
        {QStringLiteral("name"), str(consumer.name)},
        {QStringLiteral("version"), str(consumer.version)},
        {QStringLiteral("location"), str(consumer.location)},
        {QStringLiteral("files"), strings(consumer.files)},
        {QStringLiteral("needs"), QJsonObject{{QStringLiteral("cudnnMajor"), optInt(consumer.cudnnMajor)},
                                              {QStringLiteral("cublasMajor"), optInt(consumer.cublasMajor)},
                                              {QStringLiteral("cudaMajor"), optInt(consumer.cudaMajor)}}},
        {QStringLiteral("archs"), QJsonObject{{QStringLiteral("sass"), strings(consumer.sass)},
                                              {QStringLiteral("sassInPart"), strings(consumer.sassInPart)},
                                              {QStringLiteral("ptx"), strings(consumer.ptx)},
                                              {QStringLiteral("ptxIsa"), strings(consumer.ptxIsa)}}},
        {QStringLiteral("resolves"), resolves}};
}

QString FrameworkInfo::displayName() const
{
    return name == QLatin1String("jax") ? QStringLiteral("JAX") : QStringLiteral("PaddlePaddle");
}

const CudnnCopy *copyHolding(const QList<CudnnCopy> &copies, const QString &path, const SystemPaths &paths)
{
    if (path.isEmpty())
        return nullptr;
    const QString directory = paths.parent(path);
    const QString name = paths.fileName(path);
    for (const CudnnCopy &copy : copies) {
        if (paths.equal(copy.directory, directory) && copy.libraries.contains(name, paths.caseSensitivity()))
            return &copy;
    }
    return nullptr;
}

const CudnnCopy *SystemSnapshot::cudnnLoadedByDefault() const
{
    // Each major has its own library name (cudnn64_8.dll, cudnn64_9.dll), so each can have a
    // first copy; the newest is the one new programs ask for.
    const CudnnCopy *newest = nullptr;
    for (const CudnnCopy &copy : cudnn) {
        if (copy.loadOrder == 1 &&
            (!newest || Version::parse(copy.version) > Version::parse(newest->version)))
            newest = &copy;
    }
    return newest;
}

QJsonObject SystemSnapshot::toJson() const
{
    QJsonObject object;
    object.insert(QStringLiteral("schema"), QLatin1String(kSchema));
    object.insert(QStringLiteral("createdAt"), createdAt.toUTC().toString(Qt::ISODate));
    object.insert(QStringLiteral("systemRoot"), str(systemRoot));
    object.insert(QStringLiteral("os"), osToJson(os));
    object.insert(QStringLiteral("gpus"), array(gpus, gpuToJson));
    if (driver) {
        object.insert(QStringLiteral("driver"),
                      QJsonObject{{QStringLiteral("version"), str(driver->version)},
                                  {QStringLiteral("maxCuda"), str(driver->maxCuda)},
                                  {QStringLiteral("source"), str(driver->source)},
                                  {QStringLiteral("maxCudaSource"), str(driver->maxCudaSource)},
                                  {QStringLiteral("working"), driver->working}});
    } else {
        object.insert(QStringLiteral("driver"), QJsonValue());
    }
    object.insert(QStringLiteral("cudaToolkits"), array(cudaToolkits, toolkitToJson));
    object.insert(QStringLiteral("cudnn"), array(cudnn, cudnnToJson));
    const CudnnCopy *loaded = cudnnLoadedByDefault();
    object.insert(QStringLiteral("cudnnLoadedByDefault"), loaded ? QJsonValue(loaded->path) : QJsonValue());
    object.insert(QStringLiteral("zlibwapi"), strings(zlibwapi));
    object.insert(QStringLiteral("pythons"), array(pythons, pythonToJson));
    object.insert(QStringLiteral("consumers"), array(consumers, consumerToJson));
    object.insert(QStringLiteral("environment"), environmentToJson(environment));
    object.insert(QStringLiteral("findings"), array(findings, [](const Finding &f) { return f.toJson(); }));
    return object;
}

Expected<SystemSnapshot> SystemSnapshot::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema)) {
        return Finding::error(
            QStringLiteral("snapshot.schema"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "This is not a cuDNN Setup system snapshot (schema %1 expected)."))
                .arg(QLatin1String(kSchema)),
            QStringLiteral("schema: %1").arg(object.value(QStringLiteral("schema")).toString()));
    }
    SystemSnapshot snapshot;
    snapshot.createdAt =
        QDateTime::fromString(object.value(QStringLiteral("createdAt")).toString(), Qt::ISODate);
    snapshot.systemRoot = str(object, "systemRoot");
    snapshot.os = osFromJson(object.value(QStringLiteral("os")).toObject());
    snapshot.gpus = list<GpuInfo>(object, "gpus", gpuFromJson);
    if (object.value(QStringLiteral("driver")).isObject()) {
        const QJsonObject driverObject = object.value(QStringLiteral("driver")).toObject();
        DriverInfo driver;
        driver.version = str(driverObject, "version");
        driver.maxCuda = str(driverObject, "maxCuda");
        driver.source = str(driverObject, "source");
        driver.maxCudaSource = str(driverObject, "maxCudaSource");
        driver.working = driverObject.value(QStringLiteral("working")).toBool(true);
        snapshot.driver = driver;
    }
    snapshot.cudaToolkits = list<CudaToolkit>(object, "cudaToolkits", toolkitFromJson);
    snapshot.cudnn = list<CudnnCopy>(object, "cudnn", cudnnFromJson);
    snapshot.zlibwapi = strings(object, "zlibwapi");
    snapshot.pythons = list<PythonInstall>(object, "pythons", pythonFromJson);
    snapshot.consumers = list<ConsumerInfo>(object, "consumers", consumerFromJson);
    snapshot.environment = environmentFromJson(object.value(QStringLiteral("environment")).toObject());
    snapshot.findings = list<Finding>(object, "findings", Finding::fromJson);
    return snapshot;
}

} // namespace cudnnsetup
