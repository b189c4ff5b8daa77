#include "report/DownloadText.h"

#include "common/Sizes.h"
#include "download/ArchiveDownload.h"
#include "report/TextTable.h"

#include <QCoreApplication>
#include <QDir>

namespace cudnnsetup {

QString downloadText(const DownloadReport &report)
{
    const DownloadPlan &plan = report.plan;
    QString verdict;
    if (report.ok())
        verdict =
            report.alreadyPresent
                ? QCoreApplication::translate("cudnnsetup", "Already downloaded and intact: nothing fetched")
                : QCoreApplication::translate("cudnnsetup", "Downloaded and checked");
    else
        verdict = QCoreApplication::translate("cudnnsetup", "Not downloaded");
    TextTable table;
    if (!plan.fileName.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "File"),
                  plan.size >= 0 ? QStringLiteral("%1 (%2)").arg(plan.fileName, shownSize(plan.size))
                                 : plan.fileName);
    if (!report.path.isEmpty())
        table.row(QCoreApplication::translate("cudnnsetup", "Saved as"),
                  QDir::toNativeSeparators(report.path));
    const QString from =
        !plan.url.isEmpty() ? plan.url.toDisplayString() : QDir::toNativeSeparators(plan.hostPath);
    table.row(QCoreApplication::translate("cudnnsetup", "From"),
              from.isEmpty() ? report.request.source.location() : from);
    if (!plan.sha256.isEmpty()) {
        QString from;
        switch (plan.checksumFrom) {
        case DownloadPlan::ChecksumFrom::BuiltIn:
            from = QCoreApplication::translate("cudnnsetup", "%1 (NVIDIA's, built into cuDNN Setup)");
            break;
        case DownloadPlan::ChecksumFrom::NvidiaManifest:
            from =
                QCoreApplication::translate("cudnnsetup", "%1 (NVIDIA's, from its download server's list)");
            break;
        case DownloadPlan::ChecksumFrom::Source:
            from = QCoreApplication::translate(
                "cudnnsetup", "%1 (listed by the source, not by NVIDIA's list built into cuDNN Setup)");
            break;
        }
        table.row(QStringLiteral("SHA-256"), from.arg(plan.sha256));
    }
    if (report.resumedFrom > 0)
        table.row(QCoreApplication::translate("cudnnsetup", "Continued"),
                  QCoreApplication::translate("cudnnsetup", "from %1 an earlier download had saved")
                      .arg(shownSize(report.resumedFrom)));
    QString out = verdict + QStringLiteral("\n\n") + table.text();
    if (!report.findings.isEmpty())
        out += QLatin1Char('\n') + findingsText(report.findings);
    return out;
}

QString downloadProgressText(const DownloadProgress &progress)
{
    QStringList parts;
    if (progress.total > 0) {
        parts << QStringLiteral("%1 %").arg(progress.done * 100 / progress.total);
        parts << QCoreApplication::translate("cudnnsetup", "%1 of %2")
                     .arg(shownSize(progress.done), shownSize(progress.total));
    } else {
        parts << shownSize(progress.done);
    }
    if (progress.bytesPerSecond > 0)
        parts << QCoreApplication::translate("cudnnsetup", "%1/s")
                     .arg(shownSize(qint64(progress.bytesPerSecond)));
    // (The minutes are worked out beforehand: lupdate hangs on a division inside translate()'s arguments.)
    const int minutesLeft = int(progress.secondsLeft) / 60;
    if (progress.secondsLeft >= 120)
        parts << QCoreApplication::translate("cudnnsetup", "%n min left", nullptr, minutesLeft);
    else if (progress.secondsLeft >= 0)
        parts << QCoreApplication::translate("cudnnsetup", "%n s left", nullptr, int(progress.secondsLeft));
    return parts.join(QStringLiteral(" · "));
}

} // namespace cudnnsetup
