// KnowledgeBase::parse: the compatibility database's JSON, one reader per table, checked as read.
#include "compat/KnowledgeBase.h"

#include <algorithm>
#include <optional>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace cudnnsetup {

namespace {

// Walks the JSON and remembers the first rule broken, with the path to it
// ("cudnnReleases[12].variants[0].cudaMin: not a dotted version").
class Reader
{
public:
    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

    void fail(const QString &path, const QString &what)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("%1: %2").arg(path, what);
    }

    QJsonArray array(const QJsonObject &object, const QString &path, const char *key)
    {
        const QJsonValue value = object.value(QLatin1String(key));
        if (!value.isArray())
            fail(path + QLatin1Char('.') + QLatin1String(key), QStringLiteral("an array is required"));
        return value.toArray();
    }

    QJsonObject object(const QJsonValue &value, const QString &path)
    {
        if (!value.isObject())
            fail(path, QStringLiteral("an object is required"));
        return value.toObject();
    }

    QString string(const QJsonObject &object, const QString &path, const char *key, bool nullable = false)
    {
        const QJsonValue value = object.value(QLatin1String(key));
        if (value.isString() && !value.toString().isEmpty())
            return value.toString();
        if (!(nullable && (value.isNull() || value.isUndefined())))
            fail(path + QLatin1Char('.') + QLatin1String(key),
                 QStringLiteral("a non-empty string is required"));
        return {};
    }

    Version version(const QJsonObject &object, const QString &path, const char *key, bool nullable = true)
    {
        const QJsonValue value = object.value(QLatin1String(key));
        if (nullable && (value.isNull() || value.isUndefined()))
            return {};
        const Version parsed = Version::parse(value.toString());
        if (!parsed.isValid())
            fail(path + QLatin1Char('.') + QLatin1String(key),
                 QStringLiteral("a dotted version is required"));
        return parsed;
    }

    QList<Version> versions(const QJsonObject &object, const QString &path, const char *key)
    {
        QList<Version> list;
        const QJsonValue value = object.value(QLatin1String(key));
        if (value.isNull() || value.isUndefined())
            return list;
        const QJsonArray items = value.toArray();
        if (!value.isArray())
            fail(path + QLatin1Char('.') + QLatin1String(key),
                 QStringLiteral("an array of versions is required"));
        for (const QJsonValue &item : items) {
            const Version parsed = Version::parse(item.toString());
            if (!parsed.isValid())
                fail(path + QLatin1Char('.') + QLatin1String(key),
                     QStringLiteral("\"%1\" is not a version").arg(item.toString()));
            list.append(parsed);
        }
        return list;
    }

    void sourced(const QJsonObject &object, const QString &path, const QHash<QString, QString> &sources,
                 SourcedRecord &record)
    {
        const QJsonValue value = object.value(QStringLiteral("sources"));
        if (!value.isArray() || value.toArray().isEmpty()) {
            fail(path + QStringLiteral(".sources"), QStringLiteral("every record names its sources"));
            return;
        }
        const QJsonArray items = value.toArray();
        for (const QJsonValue &item : items) {
            if (!sources.contains(item.toString()))
                fail(path + QStringLiteral(".sources"),
                     QStringLiteral("unknown source \"%1\"").arg(item.toString()));
            record.sources.append(item.toString());
        }
        record.derived = object.value(QStringLiteral("derived")).toBool(false);
    }

private:
    QString m_error;
};

QString at(const char *section, qsizetype index)
{
    return QStringLiteral("%1[%2]").arg(QLatin1String(section)).arg(index);
}

CudnnRow readRow(Reader &r, const QJsonObject &object, const QString &path,
                 const QHash<QString, QString> &sources)
{
    CudnnRow row;
    row.cudaMin = r.version(object, path, "cudaMin");
    row.cudaMax = r.version(object, path, "cudaMax");
    row.linuxDriverMin = r.version(object, path, "linuxDriverMin");
    row.windowsDriverMin = r.version(object, path, "windowsDriverMin");
    row.computeCapabilities = r.versions(object, path, "computeCapabilities");
    row.minimumComputeCapability = r.version(object, path, "minimumComputeCapability");
    // One release (files of before 2026-12-02) or the published ones on both sides.
    row.rangeFrom = object.value(QStringLiteral("rangeFrom")).isString()
                        ? QList<Version>{r.version(object, path, "rangeFrom")}
                        : r.versions(object, path, "rangeFrom");
    if (row.cudaMin.isValid() && row.cudaMax.isValid() && row.cudaMax < row.cudaMin)
        r.fail(path, QStringLiteral("cudaMax is below cudaMin"));
    r.sourced(object, path, sources, row);
    return row;
}

template <typename T, typename Key>
bool ascending(const QList<T> &items, Key key)
{
    return std::is_sorted(items.cbegin(), items.cend(),
                          [&](const T &a, const T &b) { return key(a) < key(b); });
}

QHash<QString, QString> readSources(Reader &r, const QJsonObject &root)
{
    QHash<QString, QString> urls;
    const QJsonObject sources = r.object(root.value(QStringLiteral("sources")), QStringLiteral("sources"));
    for (auto it = sources.constBegin(); it != sources.constEnd(); ++it) {
        const QString url = it.value().toObject().value(QStringLiteral("url")).toString();
        if (!url.startsWith(QLatin1String("http")))
            r.fail(QStringLiteral("sources.") + it.key(), QStringLiteral("a URL is required"));
        urls.insert(it.key(), url);
    }
    return urls;
}

QList<ToolkitDriver> readToolkits(Reader &r, const QJsonObject &root, const QHash<QString, QString> &sources)
{
    QList<ToolkitDriver> list;
    const QJsonArray toolkits = r.array(root, QStringLiteral("$"), "cudaToolkits");
    for (qsizetype i = 0; i < toolkits.size(); ++i) {
        const QString path = at("cudaToolkits", i);
        const QJsonObject object = r.object(toolkits.at(i), path);
        ToolkitDriver toolkit;
        toolkit.version = r.version(object, path, "version", false);
        toolkit.label = object.value(QStringLiteral("label")).toString();
        toolkit.linuxMin = r.version(object, path, "linuxMin");
        toolkit.windowsMin = r.version(object, path, "windowsMin");
        r.sourced(object, path, sources, toolkit);
        list.append(toolkit);
    }
    return list;
}

QList<MinorCompat> readMinorCompat(Reader &r, const QJsonObject &root, const QHash<QString, QString> &sources)
{
    QList<MinorCompat> list;
    const QJsonArray minor = r.array(root, QStringLiteral("$"), "minorVersionCompatibility");
    for (qsizetype i = 0; i < minor.size(); ++i) {
        const QString path = at("minorVersionCompatibility", i);
        const QJsonObject object = r.object(minor.at(i), path);
        MinorCompat compat;
        compat.cudaMajor = object.value(QStringLiteral("cudaMajor")).toInt();
        if (compat.cudaMajor <= 0)
            r.fail(path + QStringLiteral(".cudaMajor"), QStringLiteral("a CUDA major is required"));
        compat.linuxMin = r.version(object, path, "linuxMin");
        compat.windowsMin = r.version(object, path, "windowsMin");
        r.sourced(object, path, sources, compat);
        list.append(compat);
    }
    return list;
}

QList<DriverBranch> readDriverBranches(Reader &r, const QJsonObject &root,
                                       const QHash<QString, QString> &sources)
{
    QList<DriverBranch> list;
    const QJsonArray branches = r.array(root, QStringLiteral("$"), "driverBranches");
    for (qsizetype i = 0; i < branches.size(); ++i) {
        const QString path = at("driverBranches", i);
        const QJsonObject object = r.object(branches.at(i), path);
        DriverBranch branch;
        branch.branch = object.value(QStringLiteral("branch")).toInt();
        if (branch.branch <= 0)
            r.fail(path + QStringLiteral(".branch"), QStringLiteral("a branch number is required"));
        branch.maxCuda = r.version(object, path, "maxCuda", false);
        branch.evidence = object.value(QStringLiteral("evidence")).toString();
        r.sourced(object, path, sources, branch);
        list.append(branch);
    }
    if (!ascending(list, [](const DriverBranch &b) { return b.branch; }))
        r.fail(QStringLiteral("driverBranches"), QStringLiteral("branches must be sorted ascending"));
    return list;
}

CudnnVariant readVariant(Reader &r, const QJsonObject &variantObject, const QString &variantPath,
                         const QHash<QString, QString> &sources)
{
    CudnnVariant variant;
    static_cast<CudnnRow &>(variant) = readRow(r, variantObject, variantPath, sources);
    variant.cuda = r.string(variantObject, variantPath, "cuda");
    if (!Version::parse(variant.cuda).isValid())
        r.fail(variantPath + QStringLiteral(".cuda"), QStringLiteral("a CUDA version is required"));
    const QJsonArray extra = variantObject.value(QStringLiteral("extraRows")).toArray();
    for (qsizetype e = 0; e < extra.size(); ++e) {
        const QString extraPath = variantPath + QStringLiteral(".extraRows[%1]").arg(e);
        variant.extraRows.append(readRow(r, r.object(extra.at(e), extraPath), extraPath, sources));
    }
    return variant;
}

QList<CudnnRelease> readCudnnReleases(Reader &r, const QJsonObject &root,
                                      const QHash<QString, QString> &sources)
{
    QList<CudnnRelease> list;
    const QJsonArray releases = r.array(root, QStringLiteral("$"), "cudnnReleases");
    for (qsizetype i = 0; i < releases.size(); ++i) {
        const QString path = at("cudnnReleases", i);
        const QJsonObject object = r.object(releases.at(i), path);
        CudnnRelease release;
        release.version = r.version(object, path, "version", false);
        release.date = object.value(QStringLiteral("date")).toString();
        const QJsonArray variants = r.array(object, path, "variants");
        for (qsizetype v = 0; v < variants.size(); ++v) {
            const QString variantPath = path + QStringLiteral(".variants[%1]").arg(v);
            release.variants.append(
                readVariant(r, r.object(variants.at(v), variantPath), variantPath, sources));
        }
        r.sourced(object, path, sources, release);
        list.append(release);
    }
    if (!ascending(list, [](const CudnnRelease &c) { return c.version; }))
        r.fail(QStringLiteral("cudnnReleases"), QStringLiteral("releases must be sorted ascending"));
    return list;
}

QList<KnownArchive> readArchives(Reader &r, const QJsonObject &root, const QHash<QString, QString> &sources)
{
    static const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
    const QJsonArray archives = r.array(root, QStringLiteral("$"), "archives");
    QSet<QString> files;
    QList<KnownArchive> published;
    for (qsizetype i = 0; i < archives.size(); ++i) {
        const QString path = at("archives", i);
        const QJsonObject object = r.object(archives.at(i), path);
        KnownArchive archive;
        archive.file = r.string(object, path, "file");
        archive.platform = r.string(object, path, "platform");
        archive.cudnn = r.version(object, path, "cudnn", false);
        archive.cuda = object.value(QStringLiteral("cuda")).toString();
        archive.sha256 = r.string(object, path, "sha256").toLower();
        if (!hex64.match(archive.sha256).hasMatch())
            r.fail(path + QStringLiteral(".sha256"), QStringLiteral("64 hexadecimal digits are required"));
        archive.size = object.value(QStringLiteral("size")).isDouble()
                           ? qint64(object.value(QStringLiteral("size")).toDouble())
                           : -1;
        archive.url = object.value(QStringLiteral("url")).toString();
        archive.confidence = r.string(object, path, "confidence");
        if (files.contains(archive.file))
            r.fail(path + QStringLiteral(".file"),
                   QStringLiteral("\"%1\" is listed twice").arg(archive.file));
        files.insert(archive.file);
        r.sourced(object, path, sources, archive);
        published.append(archive);
    }
    return published;
}

QList<GpuPattern> readGpus(Reader &r, const QJsonObject &root, const QHash<QString, QString> &sources)
{
    QList<GpuPattern> list;
    const QJsonArray gpus = r.array(root, QStringLiteral("$"), "gpus");
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        const QString path = at("gpus", i);
        const QJsonObject object = r.object(gpus.at(i), path);
        GpuPattern gpu;
        gpu.pattern =
            QRegularExpression(r.string(object, path, "pattern"), QRegularExpression::CaseInsensitiveOption);
        if (!gpu.pattern.isValid())
            r.fail(path + QStringLiteral(".pattern"), gpu.pattern.errorString());
        gpu.computeCapability = r.version(object, path, "computeCapability", false);
        gpu.architecture = r.string(object, path, "architecture");
        gpu.jetson = object.value(QStringLiteral("jetson")).toBool(false);
        r.sourced(object, path, sources, gpu);
        list.append(gpu);
    }
    return list;
}

QList<QPair<Version, QString>> readArchitectures(Reader &r, const QJsonObject &root,
                                                 const QHash<QString, QString> &sources)
{
    QList<QPair<Version, QString>> list;
    const QJsonArray architectures = r.array(root, QStringLiteral("$"), "architectures");
    for (qsizetype i = 0; i < architectures.size(); ++i) {
        const QString path = at("architectures", i);
        const QJsonObject object = r.object(architectures.at(i), path);
        const QString name = r.string(object, path, "name");
        for (const Version &cc : r.versions(object, path, "computeCapabilities"))
            list.append({cc, name});
        SourcedRecord record;
        r.sourced(object, path, sources, record);
    }
    return list;
}

QHash<int, Version> readCudaArchitectureSupport(Reader &r, const QJsonObject &root,
                                                const QHash<QString, QString> &sources)
{
    QHash<int, Version> minimumCc;
    const QJsonArray support = r.array(root, QStringLiteral("$"), "cudaArchitectureSupport");
    for (qsizetype i = 0; i < support.size(); ++i) {
        const QString path = at("cudaArchitectureSupport", i);
        const QJsonObject object = r.object(support.at(i), path);
        const int major = object.value(QStringLiteral("cudaMajor")).toInt();
        if (major <= 0)
            r.fail(path + QStringLiteral(".cudaMajor"), QStringLiteral("a CUDA major is required"));
        minimumCc.insert(major, r.version(object, path, "minimumComputeCapability", false));
        SourcedRecord record;
        r.sourced(object, path, sources, record);
    }
    return minimumCc;
}

TorchBuild readTorchBuild(Reader &r, const QJsonObject &build, const QString &buildPath,
                          const QHash<QString, QString> &sources)
{
    TorchBuild entry{r.version(build, buildPath, "cuda", false), r.version(build, buildPath, "cudnn"),
                     build.value(QStringLiteral("channel")).toString(),
                     r.version(build, buildPath, "toolkit"), std::nullopt};
    if (build.contains(QStringLiteral("architectures"))) {
        const QString archPath = buildPath + QStringLiteral(".architectures");
        const QJsonObject archs = r.object(build.value(QStringLiteral("architectures")), archPath);
        TorchArchitectures architectures;
        architectures.sass = r.versions(archs, archPath, "sass");
        architectures.ptx = r.versions(archs, archPath, "ptx");
        for (const QJsonValue &system : archs.value(QStringLiteral("ptxOn")).toArray())
            architectures.ptxOn.append(system.toString());
        if (architectures.sass.isEmpty())
            r.fail(archPath + QStringLiteral(".sass"), QStringLiteral("a build carries some SASS"));
        if (!entry.toolkit.isValid() || entry.toolkit.truncated(2) != entry.cuda.truncated(2))
            r.fail(buildPath + QStringLiteral(".toolkit"),
                   QStringLiteral("a build with architectures names its CUDA release"));
        r.sourced(archs, archPath, sources, architectures);
        entry.architectures = architectures;
    }
    return entry;
}

QList<TorchRelease> readTorchReleases(Reader &r, const QJsonObject &root,
                                      const QHash<QString, QString> &sources)
{
    QList<TorchRelease> list;
    const QJsonArray torch = r.array(root, QStringLiteral("$"), "pytorch");
    for (qsizetype i = 0; i < torch.size(); ++i) {
        const QString path = at("pytorch", i);
        const QJsonObject object = r.object(torch.at(i), path);
        TorchRelease release;
        release.torch = r.version(object, path, "torch", false);
        const QJsonArray builds = r.array(object, path, "builds");
        for (qsizetype b = 0; b < builds.size(); ++b) {
            const QString buildPath = path + QStringLiteral(".builds[%1]").arg(b);
            release.builds.append(readTorchBuild(r, r.object(builds.at(b), buildPath), buildPath, sources));
        }
        r.sourced(object, path, sources, release);
        list.append(release);
    }
    return list;
}

QList<QPair<Version, Version>> readPtxIsa(Reader &r, const QJsonObject &root,
                                          const QHash<QString, QString> &sources)
{
    QList<QPair<Version, Version>> list;
    const QJsonArray ptxIsa = root.value(QStringLiteral("ptxIsa")).toArray();
    for (qsizetype i = 0; i < ptxIsa.size(); ++i) {
        const QString path = at("ptxIsa", i);
        const QJsonObject object = r.object(ptxIsa.at(i), path);
        list.append({r.version(object, path, "isa", false), r.version(object, path, "cuda", false)});
        SourcedRecord record;
        r.sourced(object, path, sources, record);
    }
    return list;
}

std::optional<bool> readJaxNativeWindowsGpu(Reader &r, const QJsonObject &root,
                                            const QHash<QString, QString> &sources)
{
    if (!root.contains(QStringLiteral("jax")))
        return std::nullopt;
    const QJsonObject jax = r.object(root.value(QStringLiteral("jax")), QStringLiteral("jax"));
    if (!jax.value(QStringLiteral("nativeWindowsGpu")).isBool())
        r.fail(QStringLiteral("jax.nativeWindowsGpu"), QStringLiteral("true or false is required"));
    SourcedRecord jaxRecord;
    r.sourced(jax, QStringLiteral("jax"), sources, jaxRecord);
    return jax.value(QStringLiteral("nativeWindowsGpu")).toBool();
}

} // namespace

Expected<KnowledgeBase> KnowledgeBase::parse(const QByteArray &json)
{
    const auto invalid = [](const QString &details) {
        return Finding::error(
            QStringLiteral("compat-db.invalid"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The compatibility database is not valid.")), details);
    };
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return invalid(
            QStringLiteral("not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset));
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("schema")).toString() != QLatin1String(kSchema))
        return invalid(QStringLiteral("schema: \"%1\", expected \"%2\"")
                           .arg(root.value(QStringLiteral("schema")).toString(), QLatin1String(kSchema)));

    // One table after the other, in the file's order: the first rule broken is the one reported.
    Reader r;
    KnowledgeBase kb;
    kb.m_version = r.string(root, QStringLiteral("$"), "version");
    kb.m_date = r.string(root, QStringLiteral("$"), "date");
    kb.m_sourceUrls = readSources(r, root);
    const QHash<QString, QString> &sources = kb.m_sourceUrls;
    kb.m_toolkits = readToolkits(r, root, sources);
    kb.m_minorCompat = readMinorCompat(r, root, sources);
    kb.m_branches = readDriverBranches(r, root, sources);
    kb.m_releases = readCudnnReleases(r, root, sources);
    kb.m_published = PublishedArchives(readArchives(r, root, sources), kb.m_version);
    kb.m_gpus = readGpus(r, root, sources);
    const QJsonArray suffixes = r.array(root, QStringLiteral("$"), "gpuNameSuffixes");
    for (const QJsonValue &suffix : suffixes)
        kb.m_gpuSuffixes.append(suffix.toString());
    kb.m_architectures = readArchitectures(r, root, sources);
    kb.m_cudaMinimumCc = readCudaArchitectureSupport(r, root, sources);
    kb.m_torch = readTorchReleases(r, root, sources);
    // Optional: a database of before 2026-12-03 has neither; PTX and JAX verdicts then say "cannot tell".
    kb.m_ptxIsa = readPtxIsa(r, root, sources);
    kb.m_jaxNativeWindowsGpu = readJaxNativeWindowsGpu(r, root, sources);

    const QJsonObject tensorflow =
        r.object(root.value(QStringLiteral("tensorflow")), QStringLiteral("tensorflow"));
    kb.m_tensorflowLastWindowsGpu =
        r.version(tensorflow, QStringLiteral("tensorflow"), "lastNativeWindowsGpu", false);
    const QJsonObject zlib = r.object(root.value(QStringLiteral("zlibwapi")), QStringLiteral("zlibwapi"));
    kb.m_zlibFrom = r.version(zlib, QStringLiteral("zlibwapi"), "neededFrom", false);
    kb.m_zlibBefore = r.version(zlib, QStringLiteral("zlibwapi"), "neededBefore", false);
    kb.m_zlibUrl = zlib.value(QStringLiteral("url")).toString();

    if (!r.ok())
        return invalid(r.error());
    return kb;
}

} // namespace cudnnsetup
