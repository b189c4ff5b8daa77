#pragma once

#include "verify/Verifier.h"

namespace cudnnsetup {

// The stages a verification is made of, each built from what the probe process answered
// (LoadStages.cpp, GpuStages.cpp, FrameworkStage.cpp); verify() puts them in order.
namespace verifystages {

VerifyStage makeStage(const QString &id, VerifyStage::Status status, const Text &message,
                      const QString &details = {}, const Text &fix = {}, double milliseconds = 0);

// The folder that holds `hostPath`, as the inspected system names it.
QString folderOf(const SystemContext &context, const QString &hostPath);
// One folder under two names is one folder: /lib is /usr/lib on merged-/usr systems.
bool sameFolder(const SystemContext &context, const QString &a, const QString &b);
Finding incompleteSetFinding(const VerifySubject &subject, const QStringList &missing, int cudnnMajor);

// The probe ended without a result: what it printed, read as a pasted error log is, says why; a set
// of mixed releases is the cause where the files show one.
VerifyStage probeEndedStage(const SystemContext &context, const VerifySubject &subject, const ProbeRun &run,
                            const std::optional<Finding> &mixed, const QStringList &searchPath,
                            Findings &findings);
// The load stage: every library loaded, each from the subject's folder.
VerifyStage loadStage(const SystemContext &context, const VerifySubject &subject, const ProbeResult &probe,
                      Findings &findings);
VerifyStage dependencyStage(const DependencyWalk &walk, bool windows, double milliseconds,
                            Findings &findings);
VerifyStage versionStage(const VerifySubject &subject, const ProbeResult &probe, VerifyReport &report,
                         Findings &findings);

// The handle and convolution stages from the probe's GPU part.
QList<VerifyStage> gpuStages(const ProbeResult &probe, int cudnnMajor, bool asked, Findings &findings);

FrameworkCheck askFramework(const SystemContext &context, const QString &python, const VerifySubject &subject,
                            const ProbeEnvironment &environment, const VerifyOptions &options);
VerifyStage frameworkStage(const QList<FrameworkCheck> &checks, Findings &findings);

} // namespace verifystages

} // namespace cudnnsetup
