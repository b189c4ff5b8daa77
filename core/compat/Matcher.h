#pragma once

#include "common/Finding.h"
#include "common/Version.h"
#include "platform/SystemPaths.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class KnowledgeBase;
struct SystemSnapshot;

// The facts the matcher judges: taken from detection, any of them replaceable by what-if values
// (`cudnnctl check --driver 522.06 --cuda 12.2 --cudnn 8.9.7.29`).
struct MatchFacts
{
    OsFamily os = OsFamily::Windows;
    QString arch = QStringLiteral("x64"); // "x64" | "arm64" | ...
    bool wsl2 = false;

    Version driver;        // invalid: no driver, or unknown
    Version driverMaxCuda; // the newest CUDA the driver says it supports; invalid when unknown
    bool driverWorking = true;

    struct Gpu
    {
        QString name;
        Version computeCapability; // invalid when unknown
    };
    QList<Gpu> gpus;

    struct Toolkit
    {
        Version version;
        QString path;
    };
    QList<Toolkit> toolkits;
    std::optional<Toolkit> targetToolkit; // the toolkit cuDNN is to go with, when one is chosen

    struct Python
    {
        QString path;
        int bits = 0;
        bool hasTorch = false;
        QString torchVersion;
        Version torchCuda;      // invalid for a CPU-only build
        Version torchCudnn;     // the cuDNN torch reports, when it was asked
        QString torchCudnnFile; // the cuDNN file torch mapped, when it was asked
        Version tensorflow;
        QString jax; // the installed JAX's version, null when there is none
    };
    QList<Python> pythons;

    struct Archive
    {
        QString platform;    // "windows-x86_64", ...
        Version cudnn;       // 8.9.7.29 or 8.9.7
        QString cudaVariant; // "12", "11.5"
    };
    std::optional<Archive> archive; // the chosen (or named) cuDNN archive
    // The cuDNN major the recommendation must be of (a program that loads only cuDNN 8); nullopt: any.
    std::optional<int> wantedCudnnMajor;
    // The CUDA major the recommendation must be built for (a program that brings its own CUDA
    // runtime), whatever the toolkits and the driver; nullopt: theirs.
    std::optional<int> wantedCudaMajor;

    struct Copy
    {
        QString path;
        Version version;
    };
    QList<Copy> installedCudnn;          // copies a program would load (loadOrder 1)
    std::optional<QStringList> zlibwapi; // where zlibwapi.dll is; nullopt when nobody looked

    static MatchFacts fromSnapshot(const SystemSnapshot &snapshot);
};

// The archive that fits the machine best and what must happen before it can be used.
struct Recommendation
{
    QString archiveFile; // NVIDIA's exact file name
    QString platform;
    Version cudnn;
    QString cudaVariant;
    QString sha256; // NVIDIA's published checksum where the database has it
    QString url;
    // NVIDIA's current release, on its cuDNN download page; older ones are on the archive page.
    bool newestRelease = false;
    std::optional<MatchFacts::Toolkit> targetToolkit; // null: no toolkit of that major here
    Version driverMinimum; // what the driver must be at least; invalid when NVIDIA prints none
    bool driverUpdateNeeded = false;

    QJsonObject toJson() const;
};

struct MatchResult
{
    static constexpr char kSchema[] = "cudnn-setup/check/1";

    enum class Verdict
    {
        Compatible,
        CannotTell, // no error, but a fact the verdict needs is unknown (a GPU's compute capability)
        Incompatible,
    };

    Findings findings;
    std::optional<Recommendation> recommendation;

    Verdict verdict() const;
    // Only a known fit is compatible: "cannot tell" is not.
    bool compatible() const { return verdict() == Verdict::Compatible; }
    const Finding *finding(const QString &id) const;
    // The findings that leave the verdict open (match.gpu-cannot-tell, match.cudnn-cannot-tell).
    static bool leavesVerdictOpen(const Finding &finding);
};

// Judges driver, CUDA toolkit, cuDNN release, GPU and frameworks against NVIDIA's tables.
MatchResult match(const MatchFacts &facts, const KnowledgeBase &kb);

} // namespace cudnnsetup
