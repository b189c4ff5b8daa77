#pragma once

#include <QWizardPage>

class QLabel;
class QPushButton;

namespace cudnnsetup {
class SetupSession;
}

namespace cudnnsetup::wizard {

class SummaryBanner;

// The end of every path: what was done (installed where, repaired what, uninstalled which
// receipt), the verification's verdict (an icon and a word), what to do next as core's nextSteps()
// says, one line per use with a Copy button where there is a line to paste, the programmers' lines
// apart, and the log and a support report to keep.
class FinishPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit FinishPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    // Writes the choices just made as an answer file for `cudnn-setup --unattended` at `path`
    // (lab IT: one machine by hand, the rest alike); says on the page how it went.
    bool saveAnswerFile(const QString &path);
    // Writes report.json, report.html and environment_versions.txt into `folder`; says how it went
    // on the page.
    bool saveReport(const QString &folder);

protected:
    void changeEvent(QEvent *event) override;

private:
    void showSummary();
    void showNextSteps(bool repairChangedEnvironment);
    void chooseReportFolder();
    void openLog();
    void chooseAnswerFile();
    void retranslate();

    SetupSession *m_session;
    QLabel *m_doneTitle = nullptr;
    QLabel *m_done = nullptr;
    SummaryBanner *m_verdict = nullptr;
    QLabel *m_nextTitle = nullptr;
    QWidget *m_steps = nullptr;
    QLabel *m_programmersTitle = nullptr;
    QWidget *m_programmerSteps = nullptr;
    QPushButton *m_openLog = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_saveAnswers = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace cudnnsetup::wizard
