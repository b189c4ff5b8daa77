#pragma once

#include <QStringList>
#include <QWizardPage>

class QFormLayout;
class QFrame;
class QLabel;
class QProgressBar;
class QPushButton;

namespace cudnnsetup {
struct ChangeOutcome;
class InstallJob;
class SetupSession;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// The point of no return: what will be done (the archive, the target, the PATH change); the
// wizard's own commit button, "Install", starts the install off the GUI thread, with its steps, a
// progress bar and the time left; once installed the same button reads "Verify >". Cancel (here, or the
// wizard's own) rolls everything back. At the end: the receipt, and which running programs must be restarted
// to see the new PATH or variables; or, when it failed, why, and that nothing was changed.
//
// A commit page: once the install has started the user cannot go back to change the target (the
// page before is then marked a commit page too, so QWizard keeps Back disabled); a cancelled or
// failed install, which changed nothing, gives Back again. Finish is offered once cuDNN is installed.
class InstallPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit InstallPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    // The commit button: starts the install (and stays here) until cuDNN is installed, then goes on.
    bool validatePage() override;
    bool isInstalling() const;
    // Installed, intact: the commit button goes on to Verify.
    bool isInstalled() const;

    // `replaceInUse`: files that running programs hold are replaced all the same, those programs
    // keeping the old ones until they restart (the answer to "in use" besides closing them).
    void startInstall(bool replaceInUse = false);
    // Asks a running install to stop and roll back; the outcome arrives as usual.
    void cancelInstall();

    // The programs that keep the environment they started with, as shown at the end: each one's
    // name, and whether it was seen running. `running`: executable names (RunningPrograms::names()).
    struct RestartHint
    {
        QString name;
        bool running = false;
    };
    static QList<RestartHint> programsToRestart(const QStringList &running);

protected:
    void changeEvent(QEvent *event) override;

private:
    void showSummary();
    void showProgress(double fraction, const QString &text, int secondsLeft);
    void showOutcome();
    void showResult(const ChangeOutcome &outcome);
    void showReceipt(const ChangeOutcome &outcome);
    void showRestartHints(const ChangeOutcome &outcome);
    void setBackAllowed(bool allowed);
    void retranslate();

    SetupSession *m_session;
    InstallJob *m_job = nullptr;
    QStringList m_running; // what ran when the install finished, named in the restart list
    QLabel *m_summaryTitle = nullptr;
    QFrame *m_summary = nullptr;
    QFormLayout *m_summaryLayout = nullptr;
    QPushButton *m_replaceInUse = nullptr; // shown when files to replace are in use
    QProgressBar *m_progress = nullptr;
    QLabel *m_step = nullptr;
    QLabel *m_eta = nullptr;
    QPushButton *m_cancel = nullptr;
    SummaryBanner *m_result = nullptr;
    QLabel *m_receipt = nullptr;
    QLabel *m_restartTitle = nullptr;
    QLabel *m_restart = nullptr;
    QLabel *m_findingsTitle = nullptr;
    FindingsView *m_findings = nullptr;
};

} // namespace cudnnsetup::wizard
