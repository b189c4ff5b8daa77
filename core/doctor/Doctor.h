#pragma once

#include "common/Finding.h"
#include "detect/SystemSnapshot.h"
#include "install/Installer.h"
#include "install/Receipt.h"
#include "verify/ErrorLog.h"
#include "verify/VerifyReport.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class KnowledgeBase;

// A change the doctor offers for one finding, made of install operations (journalled, undoable,
// kept in a receipt so `cudnnctl uninstall ID` reverses it). Never applied unasked.
struct Repair
{
    QString id;          // stable: "repair.remove-path-entry", "repair.move-aside", ...
    Text summary;        // one line: what it does, in the user's language
    QList<Text> preview; // the exact changes in words, one per line (PATH before and after, a file renamed)
    QList<QJsonObject> steps; // {"operation": name, "arguments": {...}} for Operation::create
    bool needsAdministrator = false;

    QJsonObject toJson() const;
    static Repair fromJson(const QJsonObject &object);
};

// One thing wrong (or worth knowing), with the fix in words and, where a safe one exists, a Repair.
struct Diagnosis
{
    Finding finding;
    // The failure mode of the reference list (failure-modes.md #1-#15) this is, 0 for others.
    int failureMode = 0;
    std::optional<Repair> repair;

    QJsonObject toJson() const;
    static Diagnosis fromJson(const QJsonObject &object);
};

// What `cudnnctl doctor --json` prints: schema cudnn-setup/doctor/1.
struct DoctorReport
{
    static constexpr char kSchema[] = "cudnn-setup/doctor/1";

    QList<Diagnosis> diagnoses;
    // The cuDNN copies found and, per consumer, which one it loads ("fresh process", each torch).
    QJsonObject copies;
    // What a pasted error log (--from-log) holds, when one was given; each signature is also a
    // diagnosis "log.<kind>" in plain words, first in `diagnoses`.
    std::optional<ErrorLog> log;

    bool healthy() const; // no error among the findings; warnings may remain
    int count(Severity severity) const;
    QJsonObject toJson() const;
    static DoctorReport fromJson(const QJsonObject &object);
};

// What changed between two diagnoses of one machine (before and after a repair, or "Diagnose
// again"): each problem (error or warning) of either, as fixed, still open or new. A problem is the
// same in both when its id and its words are, else when its id is (its words name a version or a
// path that changed); notes are not problems and are left out.
struct DiagnosisChanges
{
    QList<Diagnosis> fixed;     // from `before`
    QList<Diagnosis> stillOpen; // from `after`
    QList<Diagnosis> found;     // new in `after`

    bool isEmpty() const { return fixed.isEmpty() && stillOpen.isEmpty() && found.isEmpty(); }
};
DiagnosisChanges compareDiagnoses(const DoctorReport &before, const DoctorReport &after);

// What the doctor looks at.
struct DoctorInput
{
    SystemSnapshot snapshot;
    std::optional<VerifyReport> verify; // the probe of the copy in use, when one was run
    QList<Receipt> receipts;            // what cuDNN Setup installed here
    // The archive the user offers for replacing mismatched DLLs (host path), optional.
    QString archive;
    // The error the user saw, read from the text they pasted, optional.
    std::optional<ErrorLog> log;
};

// The rules: one per failure mode that can occur on this machine, over the snapshot, the probe,
// the receipts and the stored (registry) environment.
DoctorReport diagnose(const DoctorInput &input, const SystemContext &context,
                      const PersistentEnvironment &environment, const KnowledgeBase &database);

// Applies the chosen repairs as one transaction with a receipt (result "repaired"), under the
// machine's install lock; any failure rolls all of them back.
ChangeOutcome applyRepairs(const QList<Repair> &repairs, const SystemContext &context,
                           std::shared_ptr<PersistentEnvironment> environment,
                           const ChangeOptions &options = {});

} // namespace cudnnsetup
