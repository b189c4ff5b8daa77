#include "ArchivePage.h"

#include "Artwork.h"
#include "DownloadSourceDialog.h"
#include "FactsTree.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "SummaryBanner.h"
#include "common/Sizes.h"
#include "compat/KnowledgeBase.h"
#include "report/DownloadText.h"
#include "session/DownloadJob.h"
#include "session/InspectionJob.h"
#include "session/SetupSession.h"

#include <algorithm>

#include <QCheckBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

namespace {

const QString kFolderSetting = QStringLiteral("archive/folder");

// The one local .zip file a drag carries, or nothing: anything else is not taken.
QString droppedArchive(const QMimeData *mime)
{
    if (!mime || mime->urls().size() != 1 || !mime->urls().first().isLocalFile())
        return {};
    const QString path = mime->urls().first().toLocalFile();
    return path.endsWith(QLatin1String(".zip"), Qt::CaseInsensitive) ? path : QString();
}

} // namespace

ArchivePage::ArchivePage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("archivePage"));
    setAcceptDrops(true);

    QLayout *recommendationRow = newRecommendationRow();
    QLayout *pathRow = newPathRow();
    QLayout *progressRow = newProgressRow();

    m_summary =
        new SummaryBanner(QStringLiteral("summary"), SummaryBanner::WithoutStatus::KeepIconRoom, this);
    QFont bold = font();
    bold.setBold(true);

    m_facts = newFactsTree(QStringLiteral("archiveFacts"), this);
    // The libraries fold under their count: the findings matter more.
    m_facts->setRootIsDecorated(true);
    m_facts->setItemsExpandable(true);

    m_findingsTitle = new QLabel(this);
    m_findingsTitle->setFont(bold);
    m_findings = new FindingsView(this);
    m_override = new QCheckBox(this);
    m_override->setObjectName(QStringLiteral("overrideCheck"));
    connect(m_override, &QCheckBox::toggled, this, [this](bool checked) {
        m_session->setBlockersOverridden(checked);
        Q_EMIT completeChanged();
    });
    connect(m_session, &SetupSession::matchChanged, this, [this] {
        m_override->setChecked(m_session->blockersOverridden());
        if (isVisible() && !isInspecting() && !isDownloading())
            showReport();
        Q_EMIT completeChanged();
    });

    auto layout = new QVBoxLayout(this);
    layout->addLayout(recommendationRow);
    layout->addLayout(pathRow);
    layout->addLayout(progressRow);
    layout->addWidget(m_summary);
    // The findings first, with the room they ask for; the facts take what is left, and scroll.
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findings);
    layout->addWidget(m_override);
    layout->addWidget(m_facts, 1);

    m_progress->hide();
    m_cancel->hide();
    retranslate();
}

QLayout *ArchivePage::newRecommendationRow()
{
    m_recommendation = new QLabel(this);
    m_recommendation->setObjectName(QStringLiteral("recommendationLabel"));
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_recommendation->setOpenExternalLinks(true);
    m_useDownloaded = new QPushButton(this);
    m_useDownloaded->setObjectName(QStringLiteral("useDownloadedButton"));
    connect(m_useDownloaded, &QPushButton::clicked, this, [this] {
        const QString found = m_session->downloadedRecommendation();
        if (!found.isEmpty())
            chooseArchive(found);
    });
    m_downloadButton = new QPushButton(this);
    m_downloadButton->setObjectName(QStringLiteral("downloadButton"));
    connect(m_downloadButton, &QPushButton::clicked, this, &ArchivePage::downloadRecommendation);
    m_sourceButton = new QPushButton(this);
    m_sourceButton->setObjectName(QStringLiteral("downloadSettingsButton"));
    m_sourceButton->setFlat(true);
    connect(m_sourceButton, &QPushButton::clicked, this, &ArchivePage::editSource);
    auto recommendationButtons = new QVBoxLayout;
    recommendationButtons->addWidget(m_useDownloaded);
    recommendationButtons->addWidget(m_downloadButton);
    recommendationButtons->addWidget(m_sourceButton);
    recommendationButtons->addStretch(1);
    auto recommendationRow = new QHBoxLayout;
    recommendationRow->addWidget(m_recommendation, 1);
    recommendationRow->addLayout(recommendationButtons);
    return recommendationRow;
}

QLayout *ArchivePage::newPathRow()
{
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("archivePath"));
    m_path->setClearButtonEnabled(true);
    // A file dropped on the field is chosen like one dropped anywhere else on the page, not
    // typed into it as a file:// address.
    m_path->setAcceptDrops(false);
    connect(m_path, &QLineEdit::returnPressed, this, [this] { chooseArchive(m_path->text().trimmed()); });
    m_browse = new QPushButton(this);
    m_browse->setObjectName(QStringLiteral("browseButton"));
    connect(m_browse, &QPushButton::clicked, this, &ArchivePage::browse);
    auto pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browse);
    return pathRow;
}

QLayout *ArchivePage::newProgressRow()
{
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_cancel = new QPushButton(this);
    m_cancel->setObjectName(QStringLiteral("cancelInspectionButton"));
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (isDownloading())
            m_download->cancel();
        else if (m_job)
            m_job->cancel();
    });
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    return progressRow;
}

void ArchivePage::initializePage()
{
    if (m_session->hasArchive() && m_path->text().isEmpty() && !isInspecting())
        m_path->setText(QDir::toNativeSeparators(m_session->archive().path)); // chosen before, elsewhere
    showReport();
}

void ArchivePage::showRecommendation()
{
    const std::optional<Recommendation> recommendation =
        m_session->hasMatch() ? m_session->match().recommendation : std::nullopt;
    if (!recommendation) {
        m_recommendation->hide();
        m_useDownloaded->hide();
        m_downloadButton->hide();
        m_sourceButton->hide();
        m_path->setPlaceholderText(tr("The cuDNN archive (.zip) from NVIDIA"));
        return;
    }
    const QString file = recommendation->archiveFile.toHtmlEscaped();
    m_recommendation->setText(
        tr("Recommended for this computer: %1<br>cuDNN %2 for CUDA %3, from NVIDIA's download page.")
            .arg(recommendation->url.isEmpty()
                     ? QStringLiteral("<b>%1</b>").arg(file)
                     : QStringLiteral("<a href=\"%1\">%2</a>").arg(recommendation->url.toHtmlEscaped(), file),
                 recommendation->cudnn.toString(), recommendation->cudaVariant));
    m_recommendation->setAccessibleName(
        tr("Recommended for this computer: %1").arg(recommendation->archiveFile));
    // Once a fitting archive is chosen, it is not the moment to send the user shopping.
    const bool fittingChosen = m_session->hasArchive() &&
                               m_session->archive().verdict == ArchiveReport::Verdict::Ok &&
                               m_session->match().compatible();
    m_recommendation->setVisible(!fittingChosen);
    const KnownArchive *known = m_session->database().database.archiveByFile(recommendation->archiveFile);
    m_downloadButton->setText(known && known->size > 0
                                  ? tr("&Download it for me (%1)").arg(shownSize(known->size))
                                  : tr("&Download it for me"));
    const auto source = ArchiveSource::parse(m_session->archiveSource());
    m_downloadButton->setToolTip(tr("Downloads %1 from %2 into %3, checks it and opens it here.")
                                     .arg(recommendation->archiveFile,
                                          !source || source->isNvidia() ? tr("NVIDIA") : source->location(),
                                          QDir::toNativeSeparators(m_session->downloadsFolder())));
    m_downloadButton->setVisible(!fittingChosen && !isDownloading());
    m_sourceButton->setVisible(!fittingChosen && !isDownloading());
    m_path->setPlaceholderText(recommendation->archiveFile);
    const QString downloaded = m_session->downloadedRecommendation();
    const bool chosen =
        m_session->hasArchive() && QFileInfo(m_session->archive().path) == QFileInfo(downloaded);
    m_useDownloaded->setVisible(!downloaded.isEmpty() && !chosen);
    m_useDownloaded->setToolTip(QDir::toNativeSeparators(downloaded));
}

bool ArchivePage::isInspecting() const
{
    return m_job && m_job->isRunning();
}

bool ArchivePage::isDownloading() const
{
    return m_download && m_download->isRunning();
}

bool ArchivePage::isComplete() const
{
    return !isInspecting() && !isDownloading() && m_session->hasArchive() &&
           m_session->archive().verdict == ArchiveReport::Verdict::Ok && m_session->mayProceed();
}

QString ArchivePage::browseFolder() const
{
    const QString last = QSettings().value(kFolderSetting).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    return QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
}

void ArchivePage::browse()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Choose the cuDNN archive"), browseFolder(),
                                     tr("cuDNN archives (cudnn*.zip);;Zip archives (*.zip);;All files (*)"));
    if (!path.isEmpty())
        chooseArchive(path);
}

void ArchivePage::editSource()
{
    DownloadSourceDialog dialog(m_session->archiveSource(), this);
    if (dialog.exec() == QDialog::Accepted) {
        m_session->setArchiveSource(dialog.source());
        showRecommendation();
    }
}

void ArchivePage::downloadRecommendation()
{
    if (isDownloading() || isInspecting())
        return;
    const auto request = m_session->recommendedDownload();
    if (!request) {
        m_failure = request.error();
        showReport();
        return;
    }
    m_failure.reset();
    m_session->clearArchive();
    delete m_download;
    m_download = new DownloadJob(*request, m_session->database().database, this);
    const QString file = m_session->match().recommendation->archiveFile;
    connect(m_download, &DownloadJob::progress, this, [this, file](const DownloadProgress &progress) {
        m_progress->setRange(0, progress.total > 0 ? 100 : 0);
        if (progress.total > 0)
            m_progress->setValue(int(progress.done * 100 / progress.total));
        m_summary->setPending(tr("Downloading %1…").arg(file) + QLatin1Char('\n') +
                              downloadProgressText(progress));
    });
    connect(m_download, &DownloadJob::finished, this, [this](const DownloadReport &report) {
        m_progress->setRange(0, 100);
        if (report.ok()) {
            chooseArchive(report.path);
            return;
        }
        const auto error =
            std::find_if(report.findings.cbegin(), report.findings.cend(),
                         [](const Finding &finding) { return finding.severity == Severity::Error; });
        if (error != report.findings.cend())
            m_failure = *error;
        showReport();
        Q_EMIT completeChanged();
    });
    m_facts->clear();
    m_findings->clear();
    m_findingsTitle->hide();
    m_override->hide();
    m_useDownloaded->hide();
    m_downloadButton->hide();
    m_sourceButton->hide();
    m_summary->setPending(tr("Downloading %1…").arg(file));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->setText(tr("Cancel download"));
    m_cancel->show();
    m_download->start();
    Q_EMIT completeChanged();
}

void ArchivePage::chooseArchive(const QString &hostPath)
{
    if (hostPath.isEmpty())
        return;
    if (m_job) {
        // Whatever the old check still reports (a result queued just before this) is not about
        // the archive now chosen.
        disconnect(m_job, nullptr, this, nullptr);
        m_job->cancel();
        m_job->deleteLater();
    }
    m_failure.reset();
    m_useDownloaded->hide();
    m_path->setText(QDir::toNativeSeparators(hostPath));
    QSettings().setValue(kFolderSetting, QFileInfo(hostPath).absolutePath());
    m_session->clearArchive();
    m_job = new InspectionJob(hostPath, m_session->database().database, this);
    connect(m_job, &InspectionJob::progress, this,
            [this](double fraction) { m_progress->setValue(int(fraction * 100)); });
    connect(m_job, &InspectionJob::finished, this, [this](const ArchiveReport &report) {
        m_session->setArchive(report); // re-judges the match, which shows the report
        showReport();
        Q_EMIT completeChanged();
    });
    connect(m_job, &InspectionJob::failed, this, [this](const Finding &problem) {
        m_failure = problem;
        showReport();
        Q_EMIT completeChanged();
    });
    connect(m_job, &InspectionJob::cancelled, this, [this] {
        showReport();
        Q_EMIT completeChanged();
    });
    m_facts->clear();
    m_findings->clear();
    m_findingsTitle->hide();
    m_override->hide();
    m_summary->setPending(tr("Checking %1…").arg(QFileInfo(hostPath).fileName()));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->setText(tr("Cancel check"));
    m_cancel->show();
    m_job->start();
    Q_EMIT completeChanged();
}

void ArchivePage::showReport()
{
    showRecommendation();
    m_progress->hide();
    m_cancel->hide();
    m_facts->clear();
    if (!m_session->hasArchive()) {
        showNoArchive();
        return;
    }
    const ArchiveReport &report = m_session->archive();
    addFacts(report);

    Findings findings = report.findings;
    findings += m_session->findingsOfArchive();
    m_findings->setFindings(findings);
    m_findingsTitle->setVisible(!findings.isEmpty());
    showVerdict(report, findings);
}

// Why the archive chosen last could not be read, or what to do first.
void ArchivePage::showNoArchive()
{
    if (m_failure) {
        m_summary->setSummary(Status::Error, m_failure->message.toString());
        if (!m_failure->fix.isEmpty()) {
            // What to do about it, and the technical words, under the headline.
            m_findings->setFindings({*m_failure});
            m_findingsTitle->show();
            m_override->hide();
            return;
        }
    } else {
        m_summary->setPending(
            !m_downloadButton->isHidden()
                ? tr("Press “Download it for me”, or choose the cuDNN archive you downloaded "
                     "from NVIDIA, or drop it here. Nothing is installed yet: it is checked "
                     "first.")
                : tr("Choose the cuDNN archive you downloaded from NVIDIA, or drop it here. "
                     "Nothing is installed yet: it is checked first."));
    }
    m_findings->clear();
    m_findingsTitle->hide();
    m_override->hide();
}

// What the archive is: NVIDIA's file or not, its version, what its name claims, what it holds.
void ArchivePage::addFacts(const ArchiveReport &report)
{
    const auto add = [this](Status status, const QString &label, const QString &value) {
        auto item = new QTreeWidgetItem(m_facts, {label, value});
        item->setIcon(0, statusIcon(status));
        item->setToolTip(1, value);
        return item;
    };
    switch (report.official) {
    case ArchiveReport::Official::Match:
        add(Status::Ok, tr("NVIDIA's file"),
            tr("Yes: the checksum is the one NVIDIA published for %1").arg(report.officialFile));
        break;
    case ArchiveReport::Official::Mismatch:
        add(Status::Error, tr("NVIDIA's file"), tr("No: the checksum differs from the one NVIDIA published"));
        break;
    case ArchiveReport::Official::Unknown:
        add(Status::Info, tr("NVIDIA's file"),
            tr("Unknown: NVIDIA's checksum for it is not in the database"));
        break;
    }
    if (report.layout.isCudnn() && report.cudnn.isValid()) {
        const QString unknown = tr("unknown");
        add(Status::Ok, tr("Actual version"),
            tr("cuDNN %1 for CUDA %2 (%3)")
                .arg(report.cudnn.toString(), report.cudaVariant.isEmpty() ? unknown : report.cudaVariant,
                     report.platform.isEmpty() ? unknown : report.platform));
    } else if (report.layout.isCudnn()) {
        add(Status::Warning, tr("Actual version"),
            report.verdict == ArchiveReport::Verdict::Unsafe
                ? tr("Not read: nothing is unpacked from an unsafe archive")
                : tr("Unknown: the archive has no readable cudnn_version.h"));
    }
    if (report.claimed)
        add(Status::Info, tr("File name says"),
            tr("cuDNN %1 for CUDA %2 (%3)")
                .arg(report.claimed->cudnn.toString(), report.claimed->cudaVariant,
                     report.claimed->platform));
    int libraries = 0;
    int headers = 0;
    int importLibraries = 0;
    for (const ArchiveFile &file : report.files) {
        libraries += file.kind == ArchiveFile::Kind::Library;
        headers += file.kind == ArchiveFile::Kind::Header;
        importLibraries += file.kind == ArchiveFile::Kind::ImportLibrary;
    }
    if (!report.files.isEmpty()) {
        QTreeWidgetItem *contents = add(Status::Info, tr("Contents"),
                                        tr("%1 libraries, %2 headers, %3 import libraries; %4 unpacked")
                                            .arg(libraries)
                                            .arg(headers)
                                            .arg(importLibraries)
                                            .arg(shownSize(report.unpackedSize)));
        if (importLibraries > 0)
            markExplained(contents, 1, Term::ImportLibrary);
        // The DLLs (or shared libraries) themselves, inside the archive's top folder: what will
        // be installed.
        const QString root = report.layout.root.isEmpty() ? QString() : report.layout.root + QLatin1Char('/');
        for (const ArchiveFile &file : report.files) {
            if (file.kind != ArchiveFile::Kind::Library && file.kind != ArchiveFile::Kind::OtherDll)
                continue;
            const QString shown =
                !root.isEmpty() && file.path.startsWith(root) ? file.path.mid(root.size()) : file.path;
            auto item = new QTreeWidgetItem(contents, {QString(), shown});
            item->setToolTip(1, file.path);
        }
    }
    add(Status::Info, QStringLiteral("SHA-256"), report.sha256);
}

// The headline says what the worst finding says, never more than it.
void ArchivePage::showVerdict(const ArchiveReport &report, const Findings &findings)
{
    const bool matchBlocked = m_session->hasMatch() && !m_session->match().compatible();
    const bool archiveOk = report.verdict == ArchiveReport::Verdict::Ok;
    const bool original = report.official == ArchiveReport::Official::Match;
    m_override->setVisible(archiveOk && matchBlocked);
    if (!archiveOk) {
        switch (report.verdict) {
        case ArchiveReport::Verdict::Unsafe:
            m_summary->setSummary(Status::Error, tr("This archive is unsafe and will not be used."));
            break;
        case ArchiveReport::Verdict::Corrupt:
            m_summary->setSummary(Status::Error, tr("This archive is damaged and will not be used."));
            break;
        case ArchiveReport::Verdict::Altered:
            m_summary->setSummary(Status::Error,
                                  tr("This is not NVIDIA's original file, so it will not be used."));
            break;
        case ArchiveReport::Verdict::NotCudnn:
        case ArchiveReport::Verdict::Ok:
            m_summary->setSummary(Status::Error, tr("This is not a cuDNN archive."));
            break;
        }
    } else if (matchBlocked) {
        m_summary->setSummary(Status::Error,
                              tr("This archive does not fit this computer: the findings below say why."));
    } else {
        const bool warnings = std::any_of(findings.cbegin(), findings.cend(), [](const Finding &finding) {
            return finding.severity == Severity::Warning;
        });
        if (warnings)
            m_summary->setSummary(
                Status::Warning,
                original ? tr("This is NVIDIA's original archive and it fits; read the notes below.")
                         : tr("The archive is undamaged and fits; read the notes below."));
        else
            m_summary->setSummary(
                Status::Ok, original ? tr("This is NVIDIA's original archive, and it fits this computer.")
                                     : tr("The archive is undamaged and fits this computer."));
    }
}

void ArchivePage::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedArchive(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void ArchivePage::dropEvent(QDropEvent *event)
{
    const QString path = droppedArchive(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    chooseArchive(path);
}

void ArchivePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void ArchivePage::retranslate()
{
    setTitle(tr("Your cuDNN archive"));
    setSubTitle(
        tr("The zip from NVIDIA, checked before anything is installed: safe to unpack, intact, and the "
           "right one for this computer."));
    m_path->setAccessibleName(tr("Archive file"));
    m_browse->setText(tr("&Browse…"));
    m_useDownloaded->setText(tr("&Use the one in Downloads"));
    m_cancel->setText(isDownloading() ? tr("Cancel download") : tr("Cancel check"));
    m_sourceButton->setText(tr("Download &settings…"));
    m_progress->setAccessibleName(tr("Progress"));
    m_facts->setHeaderLabels({tr("Question"), tr("Answer")});
    m_facts->setAccessibleName(tr("What the archive is"));
    m_findingsTitle->setText(tr("Findings"));
    m_findings->setAccessibleName(tr("Findings"));
    m_override->setText(tr("I understand these problems and want to &continue anyway"));
    if (isDownloading()) {
        m_summary->setPending(tr("Downloading %1…").arg(m_session->match().recommendation->archiveFile));
    } else if (isInspecting()) {
        showRecommendation();
        m_summary->setPending(tr("Checking %1…").arg(QFileInfo(m_job->path()).fileName()));
    } else {
        showReport();
    }
}

} // namespace cudnnsetup::wizard
