#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;

namespace cudnnsetup::wizard {

// What this program does, and the language it speaks (switched on the spot).
class WelcomePage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget *parent = nullptr);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void languageChosen(int index);

    QLabel *m_intro = nullptr;
    QLabel *m_languageLabel = nullptr;
    QComboBox *m_language = nullptr;
};

} // namespace cudnnsetup::wizard
