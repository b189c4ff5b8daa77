#pragma once

#include "common/Expected.h"
#include "common/Version.h"
#include "compat/PublishedArchives.h"
#include "compat/SourcedRecord.h"
#include "platform/SystemPaths.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// NVIDIA's compatibility facts (resources/compat/cudnn-compat.json, schema in SCHEMA.md beside
// it), loaded into typed records. Unknown values stay unknown (invalid Version, nullopt): the
// matcher says "unknown" for them, never "fine".
struct ToolkitDriver : SourcedRecord
{
    Version version; // 12.2.2
    QString label;   // "12.2 Update 2"
    Version linuxMin;
    Version windowsMin;
};

struct MinorCompat : SourcedRecord
{
    int cudaMajor = 0;
    Version linuxMin;
    Version windowsMin;
};

struct DriverBranch : SourcedRecord
{
    int branch = 0;
    Version maxCuda;
    QString evidence;
};

struct CudnnRow : SourcedRecord
{
    Version cudaMin;
    Version cudaMax;
    Version linuxDriverMin;
    Version windowsDriverMin;
    QList<Version> computeCapabilities; // empty when not captured
    Version minimumComputeCapability;   // "SM 3.5 and later" rows
    // The releases whose published matrices this one's values are inferred from (the nearest on
    // each side, the narrower value where they differ); empty for a published row.
    QList<Version> rangeFrom;
};

struct CudnnVariant : CudnnRow
{
    QString cuda; // the archive's variant: "12", "11.5", "10.2"
    QList<CudnnRow> extraRows;

    int cudaMajor() const { return cuda.section(QLatin1Char('.'), 0, 0).toInt(); }
};

struct CudnnRelease : SourcedRecord
{
    Version version; // 9.10.2.21
    QString date;
    QList<CudnnVariant> variants;

    const CudnnVariant *variant(const QString &cuda) const;
    const CudnnVariant *variantForCudaMajor(int major) const;
};

struct GpuPattern : SourcedRecord
{
    QRegularExpression pattern;
    Version computeCapability;
    QString architecture;
    bool jetson = false; // a Jetson module: CUDA and cuDNN come with JetPack
};

// The GPU code a PyTorch build carries, from PyTorch's CUDA support matrix (Linux x86-64 and
// Windows builds).
struct TorchArchitectures : SourcedRecord
{
    QList<Version> sass; // "Pascal(6.0)": SASS for 6.0, which 6.1 and 6.2 run too
    QList<Version> ptx;  // "12.0+PTX"
    QStringList ptxOn;   // the systems whose builds carry that PTX ("linux"); empty: every one
};

struct TorchBuild
{
    Version cuda;
    Version cudnn;
    QString channel;
    Version toolkit; // the CUDA release it is built with (12.8.1); invalid when not recorded
    std::optional<TorchArchitectures> architectures; // nullopt: not recorded, so never offered
};

struct TorchRelease : SourcedRecord
{
    Version torch;
    QList<TorchBuild> builds;
};

class KnowledgeBase
{
public:
    static constexpr char kSchema[] = "cudnn-setup/compat-db/1";

    // Parses and checks a database; the first rule broken is the error.
    static Expected<KnowledgeBase> parse(const QByteArray &json);
    // The database built into the program.
    static const KnowledgeBase &embedded();

    QString version() const { return m_version; }
    QString date() const { return m_date; }
    QString sourceUrl(const QString &key) const { return m_sourceUrls.value(key); }

    // The driver the toolkit release needs on `family` (Table 3): exact release, else the GA of
    // its major.minor; invalid when NVIDIA prints none.
    Version toolkitMinimumDriver(OsFamily family, const Version &toolkit) const;
    const MinorCompat *minorCompat(int cudaMajor) const;
    // The newest CUDA (major.minor) the database knows a release of: a driver or toolkit beyond it
    // is newer than the database.
    Version newestKnownCuda() const;
    // The oldest driver branch that supports `cuda` (major.minor), or 0.
    int firstBranchSupporting(const Version &cuda) const;
    // The newest CUDA a driver supports, from its branch (for a driver newer than every branch
    // listed, at least the newest one's); invalid below the oldest branch.
    Version maxCudaForDriver(const Version &driver) const;

    const QList<CudnnRelease> &cudnnReleases() const { return m_releases; }
    // The release of `version` (given with 3 or 4 parts), or null.
    const CudnnRelease *cudnnRelease(const Version &version) const;
    // What the archive inspector is handed.
    const PublishedArchives &publishedArchives() const { return m_published; }
    const QList<KnownArchive> &archives() const { return m_published.all(); }
    const KnownArchive *archiveBySha256(const QString &sha256) const { return m_published.bySha256(sha256); }
    const KnownArchive *archiveByFile(const QString &fileName) const { return m_published.byFile(fileName); }

    // The record of a GPU's marketing name ("NVIDIA GeForce RTX 4090 Laptop GPU"), or null.
    const GpuPattern *gpu(const QString &name) const;
    // Its compute capability, from that record.
    std::optional<Version> computeCapabilityForGpu(const QString &name) const;
    QString architectureName(const Version &computeCapability) const;
    Version minimumComputeCapabilityForCuda(int cudaMajor) const;

    const QList<TorchRelease> &torchReleases() const { return m_torch; }
    // The oldest CUDA whose driver loads PTX of ISA version `isa` (9.0 -> 13.0); invalid when the
    // database does not map it.
    Version cudaForPtxIsa(const Version &isa) const;
    Version tensorflowLastNativeWindowsGpu() const { return m_tensorflowLastWindowsGpu; }
    // Whether JAX runs on an NVIDIA GPU under native Windows (JAX's supported platforms say no);
    // nullopt when the database does not say.
    std::optional<bool> jaxNativeWindowsGpu() const { return m_jaxNativeWindowsGpu; }
    Version zlibNeededFrom() const { return m_zlibFrom; }
    Version zlibNeededBefore() const { return m_zlibBefore; }
    QString zlibArchiveUrl() const { return m_zlibUrl; }

private:
    QString m_version;
    QString m_date;
    QHash<QString, QString> m_sourceUrls;
    QList<ToolkitDriver> m_toolkits;
    QList<MinorCompat> m_minorCompat;
    QList<DriverBranch> m_branches;
    QList<CudnnRelease> m_releases;
    PublishedArchives m_published;
    QList<GpuPattern> m_gpus;
    QStringList m_gpuSuffixes;
    QList<QPair<Version, QString>> m_architectures; // compute capability -> name
    QHash<int, Version> m_cudaMinimumCc;
    QList<TorchRelease> m_torch;
    QList<QPair<Version, Version>> m_ptxIsa; // PTX ISA -> CUDA
    Version m_tensorflowLastWindowsGpu;
    std::optional<bool> m_jaxNativeWindowsGpu;
    Version m_zlibFrom;
    Version m_zlibBefore;
    QString m_zlibUrl;
};

} // namespace cudnnsetup
