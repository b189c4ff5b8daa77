#pragma once

#include <QWizard>

namespace cudnnsetup {
class SetupSession;
}

namespace cudnnsetup::wizard {

class SetupWizard final : public QWizard
{
    Q_OBJECT

public:
    enum PageId
    {
        Page_Welcome,
        Page_Hardware,
        Page_Match,
        Page_Archive,
    };

    explicit SetupWizard(SetupSession *session, QWidget *parent = nullptr);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void applyLanguageFont();
};

} // namespace cudnnsetup::wizard
