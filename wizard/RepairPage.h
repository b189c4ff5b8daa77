#pragma once

#include "doctor/Doctor.h"
#include "install/Installer.h"

#include <QList>
#include <QWizardPage>

#include <optional>

class QCheckBox;
class QFont;
class QFrame;
class QLabel;
class QLayout;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace cudnnsetup {
class RepairJob;
class SetupSession;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class PathTextView;
class SummaryBanner;

// The doctor's findings, each with its severity (an icon and a word), what it means and what to
// do; where the doctor offers a repair, a box to tick (ticked for errors), and below the list the
// exact changes the ticked repairs make. "Apply selected" makes them as one transaction off the GUI
// thread (saying so when administrator rights are needed), then shows what changed, how to undo it
// (`cudnnctl uninstall ID`) and the diagnosis made after it. After a repair or "Diagnose again",
// what changed since the diagnosis before (fixed, still open, new) heads the list. Reached from the
// Verify page when a check failed; the diagnosis is kept when the user goes back and forth.
class RepairPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit RepairPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

    // Diagnosing or repairing.
    bool isBusy() const;
    bool isRepairing() const;
    void startDiagnosis();
    // Makes the ticked repairs; the outcome and the new diagnosis arrive as usual.
    void applySelected();
    // Asks a running repair to stop and roll back.
    void cancelRepair();
    // The repairs ticked now, in the order of the list.
    QList<Repair> selectedRepairs() const;
    // The last Apply: the repairs it asked for and how it went (none before one).
    const QList<Repair> &appliedRepairs() const { return m_applied; }
    const std::optional<ChangeOutcome> &repairOutcome() const { return m_outcome; }
    // The error the user pasted (or dropped as a log file) handed to the session, and a diagnosis
    // made with it: its signatures come first, tied to this computer, with their repairs.
    void diagnosePastedError();
    // The program that runs the verification's probe; empty: the cudnnctl beside this program.
    void setProbeProgram(const QString &program) { m_probeProgram = program; }

protected:
    void changeEvent(QEvent *event) override;
    // A log file dropped on the paste box: its text, decoded as the reader decodes logs.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct DiagnosisRow
    {
        int index = 0; // in the session's DoctorReport
        QLabel *icon = nullptr;
        QLabel *text = nullptr;
        QCheckBox *repair = nullptr;  // null when the doctor offers none
        QLabel *repairText = nullptr; // its words, which wrap (a check box draws one line)
    };

    // The parts of the page, made in the order Tab visits them.
    void makeOutcomeBox(const QFont &bold);
    QWidget *newDiagnosisList(const QFont &bold);
    QLayout *newPasteBox(const QFont &bold);

    void newJob();
    // RepairPageStates.cpp: what the page shows.
    void showDiagnoses();
    void wordRows();
    void showPreview();
    void showState();
    void showSummary(bool busy, bool repairing);
    void showOutcome(bool repairing);
    void showChanges();
    void showPastedVerdict();
    void retranslate();

    SetupSession *m_session;
    RepairJob *m_job = nullptr;
    QString m_probeProgram;
    // The verification in the session predates repairs made here; from then on the doctor
    // verifies again itself.
    bool m_repairedSinceVerification = false;
    std::optional<ChangeOutcome> m_outcome;
    QList<Repair> m_applied; // what the last Apply asked for: its preview is what changed
    // The diagnosis before the one shown (before "Diagnose again" or a repair): what changed since.
    std::optional<DoctorReport> m_previous;
    bool m_changingReport = false; // the session's diagnosis changes through this page

    SummaryBanner *m_summary = nullptr;
    QLabel *m_hint = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_step = nullptr;
    QFrame *m_outcomeBox = nullptr;
    QLabel *m_outcomeIcon = nullptr;
    QLabel *m_result = nullptr;
    QLabel *m_changed = nullptr;
    QLabel *m_undo = nullptr;
    FindingsView *m_outcomeFindings = nullptr;
    QLabel *m_changes = nullptr;
    QLabel *m_listTitle = nullptr;
    QWidget *m_list = nullptr;
    QVBoxLayout *m_listLayout = nullptr;
    QList<DiagnosisRow> m_rows;
    QLabel *m_previewTitle = nullptr;
    PathTextView *m_preview = nullptr;
    QLabel *m_pasteTitle = nullptr;
    QPlainTextEdit *m_pasted = nullptr;
    QPushButton *m_diagnosePasted = nullptr;
    QLabel *m_pastedVerdict = nullptr;
    QPushButton *m_again = nullptr;
    QPushButton *m_apply = nullptr;
};

} // namespace cudnnsetup::wizard
