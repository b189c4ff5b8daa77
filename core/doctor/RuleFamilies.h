#pragma once

#include "doctor/DoctorRules.h"

namespace cudnnsetup {

// The doctor's rules by family, each family in its own file, and what they share. runDoctorRules
// (DoctorRules.cpp) runs them in order.
namespace doctorrules {

// The order a freshly started program's PATH is built in: the machine's entries, then the user's.
extern const QList<EnvironmentScope> kScopes;

Diagnosis diagnosis(const Finding &finding, int failureMode, std::optional<Repair> repair = std::nullopt);
// A finding of another part (the matcher, the zlibwapi check) told as the doctor's own.
Finding renamed(Finding finding, const QString &id);
Text versionOf(const CudnnCopy &copy);           // "of unknown version" when unknown
QString mainLibrary(OsFamily family, int major); // cudnn64_9.dll, libcudnn.so.9
bool hasLibrary(const DoctorFacts &facts, const CudnnCopy &copy, const QString &name);
bool pythonAtLeast(const PythonInstall &python, int major, int minor);
// Several PATH repairs (one per scope) as one.
void mergeInto(std::optional<Repair> &merged, const Repair &repair);

// LibraryRules.cpp: what the files of a copy say.
void zlibwapiRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void incompleteSetRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void mixedReleaseRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void probeRules(const DoctorFacts &facts, const QList<Diagnosis> &earlier, QList<Diagnosis> &out);
void architectureRules(const DoctorFacts &facts, QList<Diagnosis> &out);
// ShadowRules.cpp: another copy found first.
void shadowingRules(const DoctorFacts &facts, QList<Diagnosis> &out);
// PathRules.cpp: PATH itself.
void notOnPathRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void pythonPathRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void truncatedPathRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void writableSystemPathRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void cudaPathRules(const DoctorFacts &facts, QList<Diagnosis> &out);
// EnvironmentRules.cpp: the driver, the matcher's verdict, and the environment programs start in.
void notInitializedRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void matcherRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void virtualStoreRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void environmentRules(const DoctorFacts &facts, QList<Diagnosis> &out);
void wslRules(const DoctorFacts &facts, QList<Diagnosis> &out);

} // namespace doctorrules

} // namespace cudnnsetup
