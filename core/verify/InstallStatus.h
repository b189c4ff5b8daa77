#pragma once

#include "common/Finding.h"
#include "install/InstallTarget.h"
#include "install/Receipt.h"
#include "verify/VerificationRecord.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace cudnnsetup {

class SystemContext;

// Which install a fleet's detection rule asks about.
struct StatusQuery
{
    QString cudnnVersion;                // a version prefix ("9.1", "9.1.0.70"); empty: any
    std::optional<InstallTarget> target; // its kind and folder must match; nullopt: any
};

// The answer to "is this install present?" (`cudnnctl status`): a receipt of cuDNN Setup whose
// files are all still there with their SHA-256, with the last verification recorded beside it.
struct InstallStatus
{
    static constexpr char kSchema[] = "cudnn-setup/status/1";

    std::optional<Receipt> receipt; // the matching, intact install; nullopt: not installed
    QString receiptPath;            // host path
    std::optional<VerificationRecord> verified;
    Finding reason;  // why it is not installed (when receipt is nullopt)
    QString changed; // status.changed: the first file of the install that is gone or differs

    bool installed() const { return receipt.has_value(); }
    // "cuDNN 9.1.0.70 for CUDA 12 installed in C:\... (receipt ID, verified 2026-12-01T02:00:00Z)"
    QString line() const;
    QJsonObject toJson() const;
};

// The newest install cuDNN Setup made (not a repair, not a per-user part) that matches `query`
// and whose files are unchanged.
InstallStatus installStatus(const SystemContext &context, const StatusQuery &query);

} // namespace cudnnsetup
