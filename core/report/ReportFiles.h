#pragma once

#include "common/Expected.h"
#include "detect/SystemSnapshot.h"
#include "doctor/Doctor.h"
#include "install/Receipt.h"
#include "verify/VerifyReport.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

// Everything one support report holds (`cudnnctl report`, the wizard's "Save report").
struct ReportInput
{
    static constexpr char kSchema[] = "cudnn-setup/report/1";

    SystemSnapshot snapshot;
    std::optional<VerifyReport> verify;
    std::optional<DoctorReport> doctor;
    QList<Receipt> receipts;
    QString tool; // "cudnn-setup 0.1.0"
    QDateTime createdAt;
};

// The three renderings of one report.
QJsonObject reportJson(const ReportInput &input); // report.json
// report.html: one self-contained XHTML page, every heading and message in English and in
// Simplified Chinese, whatever language is current.
QString reportHtml(const ReportInput &input);
QString environmentVersionsText(const ReportInput &input); // environment_versions.txt

// Writes report.json, report.html and environment_versions.txt into `folder` (created if needed)
// and returns their paths. Each file is written whole under a temporary name and then renamed, so
// a failure leaves no half-written file.
Expected<QStringList> writeReport(const ReportInput &input, const QString &folder);

// What every report writer says: `folder` made (report.folder when it cannot be), and a file of
// it that could not be written (report.write).
Expected<void> makeReportFolder(const QString &folder);
Finding reportWriteFailure(const QString &path, const QString &details);

// One sentence for the user about what writeReport() did in `folder`: the files it wrote, or why not.
QString writeReportMessage(const QString &folder, const Expected<QStringList> &written);

} // namespace cudnnsetup
