#pragma once

#include "common/Finding.h"

#include <QWizardPage>

#include <optional>

class QCheckBox;
class QLabel;
class QLayout;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace cudnnsetup {
class DownloadJob;
class InspectionJob;
class SetupSession;
struct ArchiveReport;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// The archive the user downloaded: chosen with a file dialog (which starts in the folder used
// last, else Downloads), dropped on the page, or downloaded by the page itself ("Download it for
// me"); inspected off the GUI thread, and shown with its verdict, what it truly holds and whether
// it is NVIDIA's own file. The match is judged again with
// it; an archive that is not safe and intact cannot be taken.
class ArchivePage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit ArchivePage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    bool isInspecting() const;
    // "Download it for me" is fetching the recommended archive.
    bool isDownloading() const;
    // Downloads the recommended archive from the source chosen under Download settings into
    // Downloads, then inspects it as if the user had chosen it.
    void downloadRecommendation();
    // Inspects `hostPath` as if the user had chosen it.
    void chooseArchive(const QString &hostPath);
    // Where the file dialog opens: the folder of the archive chosen last while it exists, else
    // Downloads.
    QString browseFolder() const;

protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void browse();
    void editSource();
    // The parts of the page, made in the order Tab visits them.
    QLayout *newRecommendationRow();
    QLayout *newPathRow();
    QLayout *newProgressRow();
    void showReport();
    void showNoArchive();
    void addFacts(const ArchiveReport &report);
    void showVerdict(const ArchiveReport &report, const Findings &findings);
    void showRecommendation();
    void retranslate();

    SetupSession *m_session;
    InspectionJob *m_job = nullptr;
    DownloadJob *m_download = nullptr;
    // Why the archive chosen last could not be read at all; kept so that it is shown again, in
    // the new language, when the page is redrawn.
    std::optional<Finding> m_failure;
    QLabel *m_recommendation = nullptr;
    QPushButton *m_useDownloaded = nullptr;
    QPushButton *m_downloadButton = nullptr;
    QPushButton *m_sourceButton = nullptr;
    QLineEdit *m_path = nullptr;
    QPushButton *m_browse = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    SummaryBanner *m_summary = nullptr;
    QTreeWidget *m_facts = nullptr;
    QLabel *m_findingsTitle = nullptr;
    FindingsView *m_findings = nullptr;
    QCheckBox *m_override = nullptr;
};

} // namespace cudnnsetup::wizard
