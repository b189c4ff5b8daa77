#pragma once

#include "detect/DetectOptions.h"
#include "detect/PythonEnvironments.h"
#include "detect/SystemSnapshot.h"

#include <QJsonObject>

#include <optional>

namespace cudnnsetup {

class SystemContext;

// Each environment's facts from its files (pythonFromFiles); with options.probePythons, each
// interpreter is also asked, in parallel and each with its own deadline, for its version and its
// torch build (version, torch.version.cuda, cuDNN version, whether it sees a GPU and the cuDNN file
// it mapped). One that hangs or crashes is reported with what its files tell.
QList<PythonInstall> probePythons(const SystemContext &context, const QList<PythonEnvironment> &environments,
                                  const DetectOptions &options, Findings &findings);

// The probe's JSON line ("CUDNNSETUP-PROBE {...}") read into `python`; false if there is none.
bool readProbeOutput(const QByteArray &output, PythonInstall &python);
// That JSON line as an object; nullopt if there is none.
std::optional<QJsonObject> probeOutputObject(const QByteArray &output);
// The probe script (resources/probes/python_probe.py), to run as `python -c SCRIPT [--convolution]`.
QString pythonProbeScript();

} // namespace cudnnsetup
