#pragma once

#include "common/Finding.h"
#include "detect/SystemSnapshot.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class SystemContext;
struct VerifyOptions;

// One program of `verify --for`: its own native modules loaded in a fresh process by its own search
// rules, and the cuDNN the loader bound, beside what detection predicted it would.
struct ConsumerLoadCheck
{
    ConsumerInfo consumer;
    QStringList modules;            // the native modules loaded, in order (inspected system's paths)
    std::optional<int> neededMajor; // the cuDNN major it needs; nullopt when nothing says
    // Detection's answer (`resolves`): the cuDNN library name and the copy it reaches; no copy when
    // it reaches none.
    QString predictedName;
    std::optional<ResolvedLibrary> predicted;
    QString bound;         // the cuDNN file the loader bound (inspected system's path); empty: none
    QString boundVersion;  // "8.9.7": the library's own cudnnGetVersion, else what detection read of it
    QString versionSource; // "library", "detection", "file-name"; empty with no version
    Findings findings;

    // Its files or build name a cuDNN it needs.
    bool needsCudnn() const;
    // It bound a cuDNN of the major it needs (or needs none), and every module loaded.
    bool passed() const;
    QJsonObject toJson() const;
};

// The result of `cudnnctl verify --for WHAT`: schema cudnn-setup/verify-for/1.
struct ConsumerVerifyReport
{
    static constexpr char kSchema[] = "cudnn-setup/verify-for/1";

    QString what; // "torch", "app:/opt/whisper"
    QList<ConsumerLoadCheck> consumers;
    Findings findings; // about the request as a whole (nothing found, another system's files)

    bool passed() const;
    QJsonObject toJson() const;
};

// Loads each of `consumers` (those `check --for WHAT` chose) in its own fresh probe process: its
// Python package's preloads by full path, then each native module by full path, by the model its
// detection found (Linux: dlopen, its RUNPATH and $ORIGIN; Windows: LoadLibraryExW with
// LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS after AddDllDirectory of the
// folders os.add_dll_directory gives it). No Python is imported. Another system's files (under a
// system root) are not loaded.
ConsumerVerifyReport verifyConsumers(const SystemContext &context, const SystemSnapshot &snapshot,
                                     const QString &what, const QList<ConsumerInfo> &consumers,
                                     const VerifyOptions &options);

} // namespace cudnnsetup
