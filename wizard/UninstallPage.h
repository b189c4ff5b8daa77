#pragma once

#include "install/Installer.h"

#include <QWizardPage>

#include <optional>

class QLabel;
class QProgressBar;
class QTreeWidget;

namespace cudnnsetup {
class SetupSession;
class UninstallJob;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// The installs cuDNN Setup made, by their receipts (id, cuDNN version, folder, date): the user
// picks one, sees what uninstalling it removes, and the wizard's commit button, "Uninstall", takes
// it back off the GUI thread (files, PATH entry, variables); done, the summary follows, and a
// failure stays here with its findings. A commit page: once an install is gone there is no going
// back to choose it again.
class UninstallPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit UninstallPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    // The commit button: starts the uninstall (and stays here) until it is done, then goes on.
    bool validatePage() override;
    void cleanupPage() override;
    bool isUninstalling() const;
    // The id of the receipt chosen in the list; empty when none is.
    QString chosenReceipt() const;
    void startUninstall();
    // The last uninstall and the receipt it took back (none before one).
    const std::optional<ChangeOutcome> &outcome() const { return m_outcome; }
    const std::optional<Receipt> &uninstalled() const { return m_uninstalled; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void listReceipts();
    void showState();
    void retranslate();

    SetupSession *m_session;
    UninstallJob *m_job = nullptr;
    QList<std::pair<Receipt, QString>> m_receipts; // as installedReceipts() lists them, with their files
    std::optional<ChangeOutcome> m_outcome;
    std::optional<Receipt> m_uninstalled;
    QLabel *m_intro = nullptr;
    QTreeWidget *m_list = nullptr;
    QLabel *m_previewTitle = nullptr;
    QLabel *m_preview = nullptr;
    QProgressBar *m_progress = nullptr;
    SummaryBanner *m_result = nullptr;
    FindingsView *m_findings = nullptr;
};

// Receipt facts as the Uninstall and Finish pages show them.
QString receiptCudnnVersion(const Receipt &receipt);
QString receiptFolder(const Receipt &receipt);
QString receiptDate(const Receipt &receipt);

} // namespace cudnnsetup::wizard
