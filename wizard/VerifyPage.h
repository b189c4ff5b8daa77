#pragma once

#include "common/Finding.h"
#include "verify/Verifier.h"
#include "verify/VerifyReport.h"

#include <QList>
#include <QWizardPage>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace cudnnsetup {
class SetupSession;
class VerifyJob;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// After the install: proves that cuDNN works. What the install placed (else the copy a freshly
// started program loads) is loaded in a fresh process, its dependencies walked, its version
// asked, a handle made and a convolution run on the GPU, and torch asked which cuDNN it uses; off
// the GUI thread, each check shown as it ends: an icon and a word, what was found, what to do when
// it failed, the technical details on demand, and how long it took. The report can be copied as
// text or saved as files. When a check failed, Next leads to the Repair page.
class VerifyPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit VerifyPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    int nextId() const override;

    bool isVerifying() const;
    void startVerification();
    // The program that runs the probe (`cudnnctl probe`); empty: the cudnnctl beside this program.
    void setProbeProgram(const QString &program) { m_probeProgram = program; }

    // The verification as text (verifyText) on the clipboard.
    void copyReport();
    // Writes the report files (report.json, report.html, environment_versions.txt) into `folder`
    // and says on the page where they are, or why they are not; false when they are not.
    bool saveReport(const QString &folder);

protected:
    void changeEvent(QEvent *event) override;

private:
    // One check of the list, kept so that a language switch words it again.
    struct StageRow
    {
        QString id;
        QWidget *widget = nullptr;
        QLabel *icon = nullptr;
        QLabel *name = nullptr;
        QLabel *status = nullptr;
        QLabel *time = nullptr;
        QLabel *message = nullptr;
        QLabel *fix = nullptr;
        QToolButton *detailsButton = nullptr;
        QLabel *details = nullptr;
    };

    StageRow &rowFor(const QString &id);
    void showStage(StageRow &row, const VerifyStage *stage, bool next);
    void showStages();
    void showState();
    void chooseSaveFolder();
    void retranslate();

    SetupSession *m_session;
    VerifyJob *m_job = nullptr;
    QString m_probeProgram;
    // The checks of the verification shown: as they end while it runs, then the report's.
    QList<VerifyStage> m_stages;
    std::optional<VerifySubject> m_subject;
    std::optional<Finding> m_nothingToVerify;
    QString m_note; // what Copy or Save last did

    QLabel *m_subjectLabel = nullptr;
    SummaryBanner *m_summary = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_step = nullptr;
    QWidget *m_list = nullptr;
    QVBoxLayout *m_listLayout = nullptr;
    QList<StageRow> m_rows;
    FindingsView *m_findings = nullptr;
    QLabel *m_noteLabel = nullptr;
    QPushButton *m_again = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_save = nullptr;
};

} // namespace cudnnsetup::wizard
