#pragma once

#include <QWizard>

namespace cudnnsetup {
class SetupSession;
}

namespace cudnnsetup::wizard {

// What the user came to do, chosen on the Welcome page; it decides the pages that follow.
enum class SetupTask
{
    Install,   // Hardware, Purpose, Match, Archive, Target, Install, Verify (Repair when a check failed)
    Repair,    // Hardware, Repair
    Uninstall, // Uninstall
};

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
        Page_Repair, // after Verify when a check failed, or after Hardware when repairing
        Page_Uninstall,
        Page_Finish,
        Page_Purpose, // after Hardware when installing: what cuDNN is for (last, so ids stay put)
    };

    // With this variable set the program quits as soon as its first page has been painted: the
    // startup benchmark times the process from its start to that moment.
    static constexpr char kExitAfterFirstPaint[] = "CUDNN_SETUP_EXIT_AFTER_FIRST_PAINT";

    explicit SetupWizard(SetupSession *session, QWidget *parent = nullptr);

    SetupTask task() const;
    // The wizard style native to the platform the window is drawn by: Aero on Windows, modern elsewhere.
    static WizardStyle platformWizardStyle();
    int nextId() const override;

    // Cancel, Escape and closing the window: while cuDNN is being installed or repaired they cancel
    // the change (which rolls back) instead of closing the wizard under it.
    void reject() override;

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslate();
    void applyLanguageFont();
};

} // namespace cudnnsetup::wizard
