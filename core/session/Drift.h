#pragma once

#include "common/Text.h"
#include "compat/KnowledgeBase.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"
#include "session/Baseline.h"
#include "session/UnattendedRun.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

// One thing a baseline asks for, as this machine has it.
struct DriftItem
{
    enum class State
    {
        Compliant,
        Drifted, // differs, and the repair file brings it back
        Broken,  // differs in a way the repair file cannot fix (the driver, a program's build,
                 // LD_LIBRARY_PATH)
        Unknown, // could not be read here: never taken for compliant
    };

    QString id;       // "driver", "cudnn.version", "cudnn.files", "path.entry", "path.order",
                      // "consumer.torch", "verification.load", ...
    QString expected; // as the baseline says it
    QString actual;   // as this machine has it; empty: unknown or absent
    State state = State::Compliant;
    Text fix; // what brings it back, in words (empty when compliant)

    bool repairable() const { return state == State::Drifted; }
    static QString stateName(State state); // "compliant", "drifted", "broken", "unknown"
    QJsonObject toJson() const;
};

// `cudnnctl status --against BASELINE`: each item of the baseline, judged on this machine.
struct DriftReport
{
    static constexpr char kSchema[] = "cudnn-setup/drift/1";

    QString baselineFile;
    // What this machine has, as found (empty, nullopt: unknown or absent): for Intune's settings.
    QString cudnnVersion; // the install in the baseline's target, else the copy in its DLL folder
    std::optional<int> cudaMajor;
    QString driverVersion;
    QList<DriftItem> items;                   // every item checked, in the baseline's order
    std::optional<UnattendedSettings> repair; // the answer file that repairs the drifted items

    // The Nagios convention: 0 compliant, 1 drifted and repairable, 2 broken, 3 unknown. Broken
    // wins over unknown, unknown over drifted.
    int exitCode() const;
    DriftItem::State verdict() const;
    QList<DriftItem> differences() const;

    QJsonObject toJson() const;
    // The one-line JSON an Intune custom compliance discovery script returns: one flat setting per
    // item (deploy/intune/cudnn-compliance-rules.json names them).
    QJsonObject intuneJson() const;
    // For a person: the verdict, then each item that differs with its fix.
    QString text() const;
};

DriftReport compareWithBaseline(const Baseline &baseline, const SystemContext &context,
                                const SystemSnapshot &snapshot, const KnowledgeBase &kb);

} // namespace cudnnsetup
