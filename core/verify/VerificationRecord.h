#pragma once

#include "platform/SystemFailure.h"
#include "verify/VerifyReport.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace cudnnsetup {

class SystemContext;

// The last verification of an install, kept beside its receipt as `<receipts>/<id>.verify.json`,
// so that `cudnnctl status` (a fleet's detection rule) can say when the install last worked
// without running the probe again. It lives in core/verify because it is a verification's
// result; the receipt only names where it goes.
struct VerificationRecord
{
    static constexpr char kSchema[] = "cudnn-setup/verification/1";

    QString receiptId;
    QDateTime when; // UTC
    bool passed = false;
    QList<std::pair<QString, QString>> stages; // stage id -> "passed", "failed", "skipped"

    static VerificationRecord of(const VerifyReport &report);
    QJsonObject toJson() const;
    static std::optional<VerificationRecord> fromJson(const QJsonObject &object);
};

// `<receipts>/<id>.verify.json` for the receipt at `receiptPath` (host path, `<receipts>/<id>.json`).
QString verificationRecordPath(const QString &receiptPath, const QString &receiptId);
// Writes the record durably (a crash leaves the old one or the new one).
SystemResult writeVerificationRecord(const QString &receiptPath, const VerificationRecord &record);
// The record beside that receipt; nullopt when there is none or it cannot be read.
std::optional<VerificationRecord> readVerificationRecord(const QString &receiptPath,
                                                         const QString &receiptId);
// Records `report` beside the receipt of its subject, when the subject is an install of cuDNN
// Setup (report.receiptId); nothing to do for another subject.
SystemResult recordVerification(const SystemContext &context, const VerifyReport &report);
// After the install is uninstalled: its record goes with its receipt.
SystemResult removeVerificationRecord(const QString &receiptPath, const QString &receiptId);

} // namespace cudnnsetup
