#pragma once

#include "common/Expected.h"
#include "common/Finding.h"
#include "loader/DependencyWalker.h"
#include "verify/LibraryProbe.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// One stage of a verification, as the Verify page shows it: ✓ / ✗ / skipped, in plain words, with
// the fix when it failed.
struct VerifyStage
{
    using Status = CheckStatus;
    QString id; // "load", "dependencies", "version", "handle", "convolution", "framework"
    Status status = Status::Skipped;
    Text message;
    QString details;
    Text fix;
    double milliseconds = 0;

    static QString statusName(Status status) { return checkStatusName(status); }
    static std::optional<Status> statusFromName(const QString &name) { return checkStatusFromName(name); }
    QJsonObject toJson() const;
    static VerifyStage fromJson(const QJsonObject &object);
};

// A framework (torch) asked in its own process which cuDNN it uses.
struct FrameworkCheck
{
    QString python;       // the interpreter
    QString torchVersion; // "2.9.0+cu130"; null when torch is not importable
    QString torchCuda;    // torch.version.cuda; null for a CPU-only build
    std::optional<bool> cudaAvailable;
    QString cudnnVersion;    // torch.backends.cudnn.version() as "9.19.0"
    QString cudnnLoadedFrom; // the cuDNN file torch mapped
    // True when that file is the checked set's own; false when torch brought or found another.
    std::optional<bool> usesCheckedCudnn;
    std::optional<bool> convolutionPassed;
    QString error; // why it could not be asked, or what failed (English, from Python)
    double milliseconds = 0;

    QJsonObject toJson() const;
    static FrameworkCheck fromJson(const QJsonObject &object);
};

// The result of `cudnnctl verify`: schema cudnn-setup/verify/1.
struct VerifyReport
{
    static constexpr char kSchema[] = "cudnn-setup/verify/1";

    QDateTime createdAt;
    // The cuDNN set checked: its folder (inspected system's path), its library file names, where
    // the choice came from ("receipt", "target", "detected"), the receipt id when there is one.
    QString directory;
    QStringList libraries;
    QString subjectSource;
    QString receiptId;
    QString expectedVersion;    // what the receipt or the headers say: "9.19.0"
    QString cudnnVersion;       // what cudnnGetVersion() answered, decoded: "9.19.0"
    QString cudaToolkitVersion; // the toolkit the set belongs to or the one CUDA_PATH names
    // The environment the probe ran with (PATH / LD_LIBRARY_PATH entries, in order).
    QStringList probePath;
    QString probeEnvironmentSource; // "registry" (rebuilt from HKLM + HKCU), "process"

    ProbeResult probe;
    // When a fresh program loads another copy (the load stage's verify.shadowed): the probe run
    // again with the checked folder first on PATH / LD_LIBRARY_PATH. The version, handle and
    // convolution stages then describe the copy asked about.
    std::optional<ProbeResult> targetProbe;
    DependencyWalk dependencies;
    QList<FrameworkCheck> frameworks;
    QList<VerifyStage> stages;
    Findings findings;
    double totalMilliseconds = 0;

    // The library a freshly started program loaded for the main name (cudnn64_9.dll), or null.
    QString loadedFrom() const;
    const VerifyStage *stage(const QString &id) const;
    // No stage failed (skipped ones are reported, not failures).
    bool passed() const;
    // cuDNN did work on the GPU: the handle and the convolution stages both passed. A verification
    // that passed without it passed in part only.
    bool ranOnGpu() const;

    QJsonObject toJson() const;
    static Expected<VerifyReport> fromJson(const QJsonObject &object);
};

} // namespace cudnnsetup
