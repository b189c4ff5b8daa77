#pragma once

#include "common/Expected.h"
#include "common/Version.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"
#include "install/InstallTarget.h"
#include "platform/SystemContext.h"
#include "session/UnattendedRun.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

// What every workstation of a lab must have, as lab IT wants it (`cudnnctl baseline export`):
// written from a machine set up by hand or from the answer file the room is installed with, and
// read back by `cudnnctl status --against` on each machine. A file of its own (JSON, schema
// cudnn-setup/baseline/1) so it can be kept on the lab's share and under version control.
struct Baseline
{
    static constexpr char kSchema[] = "cudnn-setup/baseline/1";

    // Where the cuDNN's DLL folder must stand on PATH (what a freshly started program loads).
    enum class PathPosition
    {
        Any,   // listed, anywhere (or no PATH at all for scope none)
        First, // the copy a new program loads: no other cuDNN before it
    };
    struct Consumer
    {
        QString name; // as `check --for` takes it: torch, tensorflow, onnxruntime, ctranslate2, app:FOLDER
        QList<int> cudnnMajors; // the cuDNN majors it may use; empty: any
    };

    QString created;       // ISO 8601, UTC
    QString madeFrom;      // "machine" or "answer-file"
    Version driverMinimum; // invalid: no minimum
    Version cudnn;         // 9.1.0.70
    int cudaMajor = 0;     // the archive's CUDA variant
    QString archive;       // the archive a repair installs from; empty: none known (no repair file)
    InstallTarget target;  // kind, folder and the PATH scope of its DLL folder
    PathPosition pathPosition = PathPosition::Any;
    QList<Consumer> consumers;
    QStringList verification; // the stages the last verification must have passed: load, handle, convolution

    static QString pathPositionName(PathPosition position); // "any", "first"
    QJsonObject toJson() const;
    // Strict: the schema id exactly, every key known and of its type, versions that parse, a
    // target as receipts keep it. Errors are "baseline.invalid" (translated, the key in the details).
    static Expected<Baseline> fromJson(const QJsonObject &object);
    // The file read and parsed: "baseline.unreadable" when it cannot be read or is no JSON object.
    static Expected<Baseline> read(const QString &file);
};

// The baseline of this machine: the newest intact install cuDNN Setup made (its cuDNN, archive,
// target and PATH scope), whether its DLL folder is what a new program loads, the driver it runs
// (or `driverMinimum` when given), the programs judged to work here, and the stages its last
// verification passed. "baseline.no-install" when cuDNN Setup installed nothing intact here.
Expected<Baseline> baselineOfMachine(const SystemContext &context, const SystemSnapshot &snapshot,
                                     const KnowledgeBase &kb, const Version &driverMinimum);
// The baseline an answer file sets up: its archive (whose name tells cuDNN and CUDA), target and
// PATH (the target's own choice when path= is left out), the three stages when it verifies; the
// driver and programs as for baselineOfMachine.
Expected<Baseline> baselineOfAnswerFile(const UnattendedSettings &answers, const SystemContext &context,
                                        const SystemSnapshot &snapshot, const KnowledgeBase &kb,
                                        const Version &driverMinimum);

} // namespace cudnnsetup
