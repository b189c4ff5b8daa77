#include "verify/LibraryProbe.h"

#include <algorithm>
#include <memory>
#include <vector>

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>

#include "common/Logging.h"
#include "detect/VersionParsers.h"
#include "platform/LibraryLoader.h"
#include "verify/CudaApi.h"
#include "verify/GpuCheck.h"

namespace cudnnsetup {

namespace {

QJsonValue optionalValue(const std::optional<int> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonValue optionalValue(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonValue optionalValue(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

template <typename T>
std::optional<T> optionalFrom(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    if constexpr (std::is_same_v<T, double>)
        return value.toDouble();
    else
        return static_cast<T>(value.toInteger());
}

Finding invalidResult(const QString &details)
{
    return Finding::error(
        QStringLiteral("probe.invalid"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The library check gave an answer that cannot be read.")),
        details);
}

Finding invalidRequest(const QString &details)
{
    return Finding::error(
        QStringLiteral("probe.invalid-request"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The library check was given a request that cannot be read.")),
        details);
}

} // namespace

QJsonObject ProbeRequest::toJson() const
{
    return {{QStringLiteral("libraries"), QJsonArray::fromStringList(libraries)},
            {QStringLiteral("cudartCandidates"), QJsonArray::fromStringList(cudartCandidates)},
            {QStringLiteral("gpu"), gpu},
            {QStringLiteral("model"), loadModelName(model)},
            {QStringLiteral("dllDirectories"), QJsonArray::fromStringList(dllDirectories)},
            {QStringLiteral("consumerModules"), QJsonArray::fromStringList(consumerModules)},
            {QStringLiteral("runtimeLoads"), QJsonArray::fromStringList(runtimeLoads)}};
}

Expected<ProbeRequest> ProbeRequest::fromJson(const QJsonObject &object)
{
    const QJsonValue libraries = object.value(QStringLiteral("libraries"));
    const QJsonValue candidates = object.value(QStringLiteral("cudartCandidates"));
    const QJsonArray modules = object.value(QStringLiteral("consumerModules")).toArray();
    if (!libraries.isArray() || (libraries.toArray().isEmpty() && modules.isEmpty()) || !candidates.isArray())
        return invalidRequest(
            QStringLiteral("probe request: \"libraries\" (non-empty, unless "
                           "\"consumerModules\" is) and \"cudartCandidates\" arrays expected"));
    ProbeRequest request;
    for (const QJsonValue &value : modules)
        request.consumerModules.append(value.toString());
    for (const QJsonValue &value : libraries.toArray())
        request.libraries.append(value.toString());
    for (const QJsonValue &value : candidates.toArray())
        request.cudartCandidates.append(value.toString());
    request.gpu = object.value(QStringLiteral("gpu")).toBool(true);
    const std::optional<LoadModel> model =
        loadModelFromName(object.value(QStringLiteral("model")).toString(QStringLiteral("program")));
    if (!model)
        return invalidRequest(QStringLiteral("probe request: \"model\" is program, python or conda"));
    request.model = *model;
    for (const QJsonValue &value : object.value(QStringLiteral("dllDirectories")).toArray())
        request.dllDirectories.append(value.toString());
    for (const QJsonValue &value : object.value(QStringLiteral("runtimeLoads")).toArray())
        request.runtimeLoads.append(value.toString());
    return request;
}

QJsonObject ProbeResult::toJson() const
{
    QJsonArray loadArray;
    for (const ProbeLoad &load : loads) {
        loadArray.append(QJsonObject{{QStringLiteral("name"), load.name},
                                     {QStringLiteral("loadedFrom"), load.loadedFrom},
                                     {QStringLiteral("errorCode"), load.errorCode},
                                     {QStringLiteral("errorString"), load.errorString},
                                     {QStringLiteral("milliseconds"), load.milliseconds}});
    }
    QJsonArray steps;
    for (const auto &[step, milliseconds] : gpu.milliseconds)
        steps.append(
            QJsonObject{{QStringLiteral("step"), step}, {QStringLiteral("milliseconds"), milliseconds}});
    const QJsonObject gpuObject{{QStringLiteral("status"), ProbeGpu::statusName(gpu.status)},
                                {QStringLiteral("reason"), gpu.reason},
                                {QStringLiteral("stage"), gpu.stage},
                                {QStringLiteral("cudartLoadedFrom"), gpu.cudartLoadedFrom},
                                {QStringLiteral("cudaRuntimeVersion"), optionalValue(gpu.cudaRuntimeVersion)},
                                {QStringLiteral("cudaDriverVersion"), optionalValue(gpu.cudaDriverVersion)},
                                {QStringLiteral("cudaError"), optionalValue(gpu.cudaError)},
                                {QStringLiteral("cudaErrorName"), gpu.cudaErrorName},
                                {QStringLiteral("cudnnStatus"), optionalValue(gpu.cudnnStatus)},
                                {QStringLiteral("cudnnStatusName"), gpu.cudnnStatusName},
                                {QStringLiteral("deviceCount"), gpu.deviceCount},
                                {QStringLiteral("deviceName"), gpu.deviceName},
                                {QStringLiteral("maxAbsoluteError"), optionalValue(gpu.maxAbsoluteError)},
                                {QStringLiteral("tolerance"), gpu.tolerance},
                                {QStringLiteral("milliseconds"), steps}};
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("loads"), loadArray},
            {QStringLiteral("cudnnVersion"), optionalValue(cudnnVersion)},
            {QStringLiteral("cudnnCudartVersion"), optionalValue(cudnnCudartVersion)},
            {QStringLiteral("cudnnBound"), QJsonArray::fromStringList(cudnnBound)},
            {QStringLiteral("gpu"), gpuObject},
            {QStringLiteral("totalMilliseconds"), totalMilliseconds}};
}

Expected<ProbeResult> ProbeResult::fromJson(const QJsonObject &object)
{
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return invalidResult(QStringLiteral("schema %1 expected").arg(QLatin1String(kSchema)));
    const QJsonValue loads = object.value(QStringLiteral("loads"));
    const QJsonValue gpuValue = object.value(QStringLiteral("gpu"));
    if (!loads.isArray() || !gpuValue.isObject())
        return invalidResult(QStringLiteral("probe result: \"loads\" array and \"gpu\" object expected"));

    ProbeResult result;
    for (const QJsonValue &value : loads.toArray()) {
        const QJsonObject load = value.toObject();
        result.loads.append({load.value(QStringLiteral("name")).toString(),
                             load.value(QStringLiteral("loadedFrom")).toString(),
                             load.value(QStringLiteral("errorCode")).toInt(),
                             load.value(QStringLiteral("errorString")).toString(),
                             load.value(QStringLiteral("milliseconds")).toDouble()});
    }
    result.cudnnVersion = optionalFrom<qint64>(object.value(QStringLiteral("cudnnVersion")));
    result.cudnnCudartVersion = optionalFrom<qint64>(object.value(QStringLiteral("cudnnCudartVersion")));
    result.totalMilliseconds = object.value(QStringLiteral("totalMilliseconds")).toDouble();
    for (const QJsonValue &value : object.value(QStringLiteral("cudnnBound")).toArray())
        result.cudnnBound.append(value.toString());

    const QJsonObject gpu = gpuValue.toObject();
    const std::optional<CheckStatus> status =
        checkStatusFromName(gpu.value(QStringLiteral("status")).toString());
    if (!status)
        return invalidResult(QStringLiteral("probe result: unknown GPU status \"%1\"")
                                 .arg(gpu.value(QStringLiteral("status")).toString()));
    result.gpu.status = *status;
    result.gpu.reason = gpu.value(QStringLiteral("reason")).toString();
    result.gpu.stage = gpu.value(QStringLiteral("stage")).toString();
    result.gpu.cudartLoadedFrom = gpu.value(QStringLiteral("cudartLoadedFrom")).toString();
    result.gpu.cudaRuntimeVersion = optionalFrom<int>(gpu.value(QStringLiteral("cudaRuntimeVersion")));
    result.gpu.cudaDriverVersion = optionalFrom<int>(gpu.value(QStringLiteral("cudaDriverVersion")));
    result.gpu.cudaError = optionalFrom<int>(gpu.value(QStringLiteral("cudaError")));
    result.gpu.cudaErrorName = gpu.value(QStringLiteral("cudaErrorName")).toString();
    result.gpu.cudnnStatus = optionalFrom<int>(gpu.value(QStringLiteral("cudnnStatus")));
    result.gpu.cudnnStatusName = gpu.value(QStringLiteral("cudnnStatusName")).toString();
    result.gpu.deviceCount = gpu.value(QStringLiteral("deviceCount")).toInt();
    result.gpu.deviceName = gpu.value(QStringLiteral("deviceName")).toString();
    result.gpu.maxAbsoluteError = optionalFrom<double>(gpu.value(QStringLiteral("maxAbsoluteError")));
    result.gpu.tolerance = gpu.value(QStringLiteral("tolerance")).toDouble();
    for (const QJsonValue &value : gpu.value(QStringLiteral("milliseconds")).toArray()) {
        const QJsonObject step = value.toObject();
        result.gpu.milliseconds.append({step.value(QStringLiteral("step")).toString(),
                                        step.value(QStringLiteral("milliseconds")).toDouble()});
    }
    return result;
}

namespace {

// One load for the probe's record: what was asked, what the loader answered, and how long it took.
ProbeLoad probeLoad(const QString &name, const LoadResult &load, const QElapsedTimer &timer)
{
    ProbeLoad entry;
    entry.name = name;
    entry.milliseconds = elapsedMilliseconds(timer);
    entry.errorCode = load.errorCode;
    entry.errorString = load.errorString;
    if (load.library)
        entry.loadedFrom = load.library->loadedPath();
    return entry;
}

// ProbeRequest::runtimeLoads, as `module` would load them; each stays loaded.
void loadAtRunTime(const QStringList &names, const LoadedLibrary &module, const LibraryLoader &loader,
                   LibraryLoader::Search search, std::vector<std::unique_ptr<LoadedLibrary>> &loaded,
                   QList<ProbeLoad> &loads)
{
    QStringList folders = module.searchFolders();
    if (folders.isEmpty())
        folders = {QFileInfo(module.loadedPath()).absolutePath()};
    const QStringList mapped = LibraryLoader::loadedModules();
    for (const QString &name : names) {
        const bool inAlready = std::any_of(mapped.cbegin(), mapped.cend(), [&name](const QString &path) {
            return QFileInfo(path).fileName().compare(name, Qt::CaseInsensitive) == 0;
        });
        if (inAlready)
            continue;
        QString path = name;
        for (const QString &folder : std::as_const(folders)) {
            if (QFileInfo::exists(QDir(folder).filePath(name))) {
                path = QDir(folder).filePath(name);
                break;
            }
        }
        QElapsedTimer timer;
        timer.start();
        LoadResult load = loader.load(path, search);
        loads.append(probeLoad(name, load, timer));
        if (load.library) {
            load.library->keepLoaded();
            loaded.push_back(std::move(load.library));
        }
    }
}

} // namespace

ProbeResult runProbe(const ProbeRequest &request, const LibraryLoader &loader)
{
    QElapsedTimer total;
    total.start();
    ProbeResult result;
    std::vector<std::unique_ptr<LoadedLibrary>> loaded; // released when the probe is done, not before
    std::vector<const LoadedLibrary *> cudnnLibraries;  // the loaded ones, in request order
    const LoadedLibrary *mainLibrary = nullptr;
    LibraryLoader::Search search = LibraryLoader::Search::Standard;
    if (request.model == LoadModel::PythonDllDirectories) {
        LibraryLoader::searchLikePython(request.dllDirectories);
        search = LibraryLoader::Search::Safe; // the default folders and the DLL's own
    } else if (request.model == LoadModel::CondaActivated) {
        search = LibraryLoader::Search::AlteredSearchPath;
    }
    const bool consumer = !request.consumerModules.isEmpty();
    const LoadedLibrary *firstModule = nullptr;
    for (const QString &name : request.libraries + request.consumerModules) {
        QElapsedTimer timer;
        timer.start();
        LoadResult load = loader.load(name, search);
        const bool first = result.loads.isEmpty();
        result.loads.append(probeLoad(name, load, timer));
        if (!load.library)
            continue;
        if (consumer)
            load.library->keepLoaded();
        if (consumer && !firstModule && request.consumerModules.contains(name))
            firstModule = load.library.get();
        if (first && !consumer)
            mainLibrary = load.library.get();
        if (!consumer)
            cudnnLibraries.push_back(load.library.get());
        loaded.push_back(std::move(load.library));
    }

    if (firstModule)
        loadAtRunTime(request.runtimeLoads, *firstModule, loader, search, loaded, result.loads);
    if (consumer) {
        for (const QString &path : LibraryLoader::loadedModules()) {
            if (versions::isCudnnLibraryName(QFileInfo(path).fileName()))
                result.cudnnBound.append(path);
        }
        // Loaded already: this only asks the loader for the module the program got, the main
        // library first (a sub-library answers through it too).
        QStringList mainFirst = result.cudnnBound;
        std::stable_partition(mainFirst.begin(), mainFirst.end(), [](const QString &path) {
            return versions::isMainCudnnLibraryName(QFileInfo(path).fileName());
        });
        for (const QString &path : std::as_const(mainFirst)) {
            LoadResult again = loader.load(path, search);
            if (again.library && again.library->symbol("cudnnGetVersion")) {
                mainLibrary = again.library.get();
                loaded.push_back(std::move(again.library));
                break;
            }
        }
    }
    if (mainLibrary) {
        if (const auto getVersion = mainLibrary->function<SizeFn>("cudnnGetVersion"))
            result.cudnnVersion = qint64(getVersion());
        if (const auto getCudartVersion = mainLibrary->function<SizeFn>("cudnnGetCudartVersion"))
            result.cudnnCudartVersion = qint64(getCudartVersion());
    }

    if (!request.gpu) {
        result.gpu.reason = QStringLiteral("the GPU check was not asked for");
    } else if (!mainLibrary) {
        result.gpu.reason =
            request.libraries.isEmpty()
                ? QStringLiteral("no library was named")
                : QStringLiteral("the main library %1 did not load").arg(request.libraries.first());
    } else {
        runGpuCheck(result.gpu, cudnnLibraries, request.cudartCandidates, loader);
    }
    qCDebug(lcCore) << "probe: GPU stage" << ProbeGpu::statusName(result.gpu.status) << result.gpu.stage
                    << result.gpu.reason;
    result.totalMilliseconds = elapsedMilliseconds(total);
    return result;
}

} // namespace cudnnsetup
