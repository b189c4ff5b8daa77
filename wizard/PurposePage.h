#pragma once

#include "compat/PurposeAdvice.h"
#include "detect/SystemSnapshot.h"

#include <QFutureWatcher>
#include <QList>
#include <QMap>
#include <QWizardPage>

class QButtonGroup;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace cudnnsetup {
class SetupSession;
}

namespace cudnnsetup::wizard {

// What cuDNN is for, asked before anything is recommended; core's advice for the answer. Where the
// answer needs no system-wide cuDNN (PyTorch, TensorFlow on Windows) Finish is offered here; Next
// always goes on to the install.
class PurposePage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit PurposePage(SetupSession *session, QWidget *parent = nullptr);
    ~PurposePage() override;

    void initializePage() override;
    bool isComplete() const override;
    // Commits the program cuDNN goes beside, if that is the answer, so the next pages serve it.
    bool validatePage() override;

    const PurposeAdvice &advice() const { return m_advice; }
    // Reads the programs in `folder` (off the GUI thread) and picks it: "Choose folder…" ends here.
    void scanProgramFolder(const QString &folder);
    bool isScanning() const { return m_scanning; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QRadioButton *addChoice(Purpose purpose, const QString &name);
    Purpose chosen() const;
    QList<ConsumerInfo> consumers() const;
    void fillFolders();
    void chooseFolder();
    void showAdvice();
    void retranslate();

    SetupSession *m_session;
    QButtonGroup *m_choices = nullptr;
    QMap<Purpose, QRadioButton *> m_buttons;
    QGroupBox *m_question = nullptr;
    QComboBox *m_folders = nullptr;
    QPushButton *m_browse = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_explanation = nullptr;
    QLineEdit *m_command = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_programs = nullptr;
    QLabel *m_finishHint = nullptr;
    PurposeAdvice m_advice;
    QList<ConsumerInfo> m_scanned; // the programs of the folders chosen with "Choose folder…"
    QFutureWatcher<QList<ConsumerInfo>> m_scan;
    bool m_scanning = false; // until its result is in: the future ends before the watcher says so
};

} // namespace cudnnsetup::wizard
