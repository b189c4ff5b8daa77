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
        Page_Target,
        Page_Install,
        Page_Verify,
        Page_Repair, // after Verify, when a check failed
    };

    explicit SetupWizard(SetupSession *session, QWidget *parent = nullptr);

    // Cancel, Escape and closing the window: while cuDNN is being installed or repaired they cancel
    // the change (which rolls back) instead of closing the wizard under it.
    void reject() override;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void applyLanguageFont();
};

} // namespace cudnnsetup::wizard
