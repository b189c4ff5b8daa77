#pragma once

#include "common/Expected.h"
#include "detect/SystemSnapshot.h"
#include "install/Receipt.h"
#include "loader/LoadModel.h"
#include "verify/ErrorLog.h"
#include "verify/VerifyReport.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace cudnnsetup {

class SystemContext;

// The cuDNN set a verification checks.
struct VerifySubject
{
    QString directory;     // the folder holding the libraries (inspected system's path)
    QStringList libraries; // file names, the main library first
    QString source;        // "receipt", "target", "detected"
    QString receiptId;
    QString expectedVersion; // "9.19.0" where the receipt or the headers say
    std::optional<int> cudaMajor;
    QString toolkitVersion;
    // How the target's consumers load: a program through PATH; a venv's Python from the folders
    // os.add_dll_directory gave it (`dllDirectories`: the install's .pth adds the DLL folder); a
    // conda environment's Python by full path with its own folder first.
    LoadModel loadModel = LoadModel::Program;
    QStringList dllDirectories;
};

// The cuDNN libraries in `folder`, main library first (an error "verify.no-cudnn" when there is
// none). Linux: the soname files (libcudnn_ops.so.9), not their links and versioned files.
Expected<VerifySubject> subjectInFolder(const SystemContext &context, const QString &folder,
                                        const QString &source);
// What a receipt installed: the folder of its cuDNN libraries, the version and CUDA variant of its
// archive, and how its target's consumers load them.
Expected<VerifySubject> subjectFromReceipt(const SystemContext &context, const Receipt &receipt);
// The copy a freshly started process loads, as detection found it; nullopt when none is found.
std::optional<VerifySubject> subjectFromSnapshot(const SystemContext &context,
                                                 const SystemSnapshot &snapshot);

// The environment the probe child gets: what a freshly started program would (Windows: rebuilt
// from the registry's machine and user values, so a stale PATH of this process neither hides nor
// fakes a result; Linux and other systems' trees: this process's, where nothing stores more).
struct ProbeEnvironment
{
    QProcessEnvironment environment;
    QStringList path; // PATH (Windows) / LD_LIBRARY_PATH (Linux) entries, in order
    QString source;   // "registry" | "process"
};
ProbeEnvironment probeEnvironment(const SystemContext &context);

struct VerifyOptions;

// One run of the probe child (`cudnnctl probe`) with `request`, in `environment`.
struct ProbeRun
{
    std::optional<ProbeResult> result;
    QString failure; // why there is no result (English)
    ErrorLog said;   // what the probe printed before it ended (cuDNN's own words), as the log reader reads it
    double milliseconds = 0;
};
ProbeRun runProbeChild(const SystemContext &context, const ProbeRequest &request,
                       const ProbeEnvironment &environment, const VerifyOptions &options);

struct VerifyOptions
{
    // The program that runs the probe (`cudnnctl probe`); host path. Empty: the cudnnctl beside
    // this program.
    QString probeProgram;
    // Interpreters for the framework stage; empty: each detected interpreter that has torch.
    QStringList pythons;
    bool framework = true;
    bool gpu = true;
    int probeTimeoutMs = 120000;
    int pythonTimeoutMs = 180000; // importing torch on Windows can take a minute
    const std::atomic<bool> *cancel = nullptr;
    // Each stage as it ends, for a progress display.
    std::function<void(const VerifyStage &)> stageDone;
};

// Review 2, N11: why a process with administrator rights (or SYSTEM's, as an unattended run has)
// must not load `subject` as a fresh process would: the first of its folder and the folders
// `searched` (the probe's PATH) that others than the administrators (and, elevated, this account)
// may change, as a warning "verify.not-loaded-with-rights"; nullopt without such rights or such a
// folder. verify() then loads nothing and reads the rest from the files.
std::optional<Finding> unsafeToLoadWithRights(const SystemContext &context, const VerifySubject &subject,
                                              const QStringList &searched);

// Verifies `subject`: loads every library by name in a fresh child process, walks the
// dependencies, compares the versions, runs the GPU stage (handle and a small convolution checked
// against the CPU) and, for the chosen Pythons, asks torch which cuDNN it uses.
VerifyReport verify(const SystemContext &context, const SystemSnapshot &snapshot,
                    const VerifySubject &subject, const VerifyOptions &options = {});

// `cudnnctl` beside this program (host path), whether or not it is there: the verifier's probe
// child and the wizard's elevated helper.
QString cudnnctlBesideThisProgram();
// That one; empty when it is not there.
QString defaultProbeProgram();

} // namespace cudnnsetup
