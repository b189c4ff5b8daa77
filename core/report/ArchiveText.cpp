#include "report/ArchiveText.h"

#include "archive/ArchiveInspector.h"
#include "common/Sizes.h"
#include "report/TextTable.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace cudnnsetup {

namespace {

// The layout in words, by the cuDNN releases that used it: JSON keeps the ids ("archive-root").
QString layoutText(CudnnLayout::Kind kind)
{
    switch (kind) {
    case CudnnLayout::Kind::CudaRoot:
        return QCoreApplication::translate("cudnnsetup",
                                           "as cuDNN 8.2 and earlier (cuda/bin, include, lib/x64)");
    case CudnnLayout::Kind::ArchiveRoot:
        return QCoreApplication::translate("cudnnsetup", "as cuDNN 8.3 to 9.17 (bin, include, lib/x64)");
    case CudnnLayout::Kind::ArchiveRootX64:
        return QCoreApplication::translate("cudnnsetup",
                                           "as cuDNN 9.18 and later (bin/x64, include, lib/x64)");
    case CudnnLayout::Kind::Linux:
        return QCoreApplication::translate("cudnnsetup", "as NVIDIA's Linux archives (lib, include)");
    case CudnnLayout::Kind::Other:
        return QCoreApplication::translate("cudnnsetup", "not where NVIDIA's archives put them");
    case CudnnLayout::Kind::NotCudnn:
        break;
    }
    return QCoreApplication::translate("cudnnsetup", "no cuDNN files");
}

} // namespace

QString archiveText(const ArchiveReport &report)
{
    QString verdict;
    switch (report.verdict) {
    case ArchiveReport::Verdict::Ok:
        verdict = QCoreApplication::translate("cudnnsetup", "Verdict: ok, safe to install");
        break;
    case ArchiveReport::Verdict::Unsafe:
        verdict = QCoreApplication::translate("cudnnsetup", "Verdict: unsafe, refused");
        break;
    case ArchiveReport::Verdict::Corrupt:
        verdict = QCoreApplication::translate("cudnnsetup", "Verdict: corrupt, refused");
        break;
    case ArchiveReport::Verdict::Altered:
        verdict = QCoreApplication::translate("cudnnsetup", "Verdict: not NVIDIA's original file, refused");
        break;
    case ArchiveReport::Verdict::NotCudnn:
        verdict = QCoreApplication::translate("cudnnsetup", "Verdict: not a cuDNN archive");
        break;
    }
    TextTable table;
    table.row(QCoreApplication::translate("cudnnsetup", "File"),
              QStringLiteral("%1 (%2)").arg(QFileInfo(report.path).fileName(), shownSize(report.size)));
    table.row(QStringLiteral("SHA-256"), report.sha256);
    switch (report.official) {
    case ArchiveReport::Official::Match:
        table.row(QCoreApplication::translate("cudnnsetup", "NVIDIA's file"),
                  QCoreApplication::translate("cudnnsetup", "yes, %1").arg(report.officialFile));
        break;
    case ArchiveReport::Official::Mismatch:
        table.row(
            QCoreApplication::translate("cudnnsetup", "NVIDIA's file"),
            QCoreApplication::translate("cudnnsetup", "NO: the checksum differs from the published one"));
        break;
    case ArchiveReport::Official::Unknown:
        table.row(
            QCoreApplication::translate("cudnnsetup", "NVIDIA's file"),
            QCoreApplication::translate("cudnnsetup", "unknown: no published checksum to compare with"));
        break;
    }
    if (report.claimed)
        table.row(QCoreApplication::translate("cudnnsetup", "File name says"),
                  QCoreApplication::translate("cudnnsetup", "cuDNN %1 for CUDA %2 (%3)")
                      .arg(report.claimed->cudnn.toString(), report.claimed->cudaVariant,
                           report.claimed->platform));
    if (report.layout.isCudnn()) {
        const QString unknown = QCoreApplication::translate("cudnnsetup", "unknown");
        table.row(QCoreApplication::translate("cudnnsetup", "Content"),
                  QCoreApplication::translate("cudnnsetup", "cuDNN %1 for CUDA %2 (%3)")
                      .arg(report.cudnn.isValid() ? report.cudnn.toString() : unknown,
                           report.cudaVariant.isEmpty() ? unknown : report.cudaVariant,
                           report.platform.isEmpty() ? unknown : report.platform));
        table.row(QCoreApplication::translate("cudnnsetup", "Layout"),
                  QCoreApplication::translate("cudnnsetup", "%1, libraries in %2")
                      .arg(layoutText(report.layout.kind), report.layout.libraryFolder.isEmpty()
                                                               ? report.layout.includeFolder
                                                               : report.layout.libraryFolder));
    }
    if (report.entryCount > 0)
        table.row(QCoreApplication::translate("cudnnsetup", "Entries"),
                  QCoreApplication::translate("cudnnsetup", "%1 (%2 unpacked), names %3")
                      .arg(QString::number(report.entryCount), shownSize(report.unpackedSize),
                           report.nameEncoding.toUpper()));
    QString out = verdict + QStringLiteral("\n\n") + table.text();
    if (!report.findings.isEmpty())
        out += QLatin1Char('\n') + findingsText(report.findings);
    return out;
}

} // namespace cudnnsetup
