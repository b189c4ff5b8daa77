#pragma once

#include <QWizardPage>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace cudnnsetup {
class DetectionJob;
class SetupSession;
struct SystemSnapshot;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// What this computer has for CUDA and cuDNN, found off the GUI thread and shown plainly, with what
// is missing and why it matters.
class HardwarePage final : public QWizardPage
{
    Q_OBJECT

public:
    // The item data role (column 0) of the system table's rows that holds each row's Status, as
    // its icon shows it.
    static constexpr int kStatusRole = Qt::UserRole;

    explicit HardwarePage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    bool isDetecting() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void startDetection();
    void showProgress(double fraction, const QString &text);
    void showSnapshot();
    // The rows of the system table, one kind of part each.
    void addSystemRow(const SystemSnapshot &snapshot);
    void addGpuRows(const SystemSnapshot &snapshot);
    void addDriverRow(const SystemSnapshot &snapshot);
    void addToolkitRows(const SystemSnapshot &snapshot);
    void addCudnnRows(const SystemSnapshot &snapshot);
    void addPythonRows(const SystemSnapshot &snapshot);
    void showHeadline(const SystemSnapshot &snapshot);
    void showCannotRun(const SystemSnapshot &snapshot);
    void saveReport();
    void retranslate();

    SetupSession *m_session;
    DetectionJob *m_job = nullptr;
    SummaryBanner *m_summary = nullptr;
    QLabel *m_noGpu = nullptr; // what to do without an NVIDIA GPU or a working driver
    QTreeWidget *m_system = nullptr;
    QLabel *m_findingsTitle = nullptr;
    FindingsView *m_findings = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_again = nullptr;
    QPushButton *m_save = nullptr;
};

} // namespace cudnnsetup::wizard
