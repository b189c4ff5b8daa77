#pragma once

#include "SetupWizard.h"

#include <QWizardPage>

class QButtonGroup;
class QComboBox;
class QGroupBox;
class QLabel;
class QRadioButton;

namespace cudnnsetup {
class SetupSession;
}

namespace cudnnsetup::wizard {

// What this program does, the language it speaks (switched on the spot), and what the user came
// to do: install cuDNN, repair an installation, or uninstall one that cuDNN Setup made (offered
// only when there is one, by its receipt).
class WelcomePage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit WelcomePage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    SetupTask task() const;
    bool canUninstall() const { return m_hasReceipts; }

protected:
    void changeEvent(QEvent *event) override;

private:
    struct TaskChoice
    {
        QRadioButton *button = nullptr;
        QLabel *explanation = nullptr;
    };
    TaskChoice addTask(SetupTask task, const QString &name);
    void readReceipts();
    void retranslate();
    void languageChosen(int index);

    SetupSession *m_session;
    bool m_hasReceipts = false;
    QLabel *m_intro = nullptr;
    QLabel *m_languageLabel = nullptr;
    QComboBox *m_language = nullptr;
    QGroupBox *m_tasks = nullptr;
    QButtonGroup *m_taskGroup = nullptr;
    TaskChoice m_install;
    TaskChoice m_repair;
    TaskChoice m_uninstall;
};

} // namespace cudnnsetup::wizard
