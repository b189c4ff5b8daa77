#pragma once

// The whole wizard on a sandbox workstation, driven as a user drives it: shared by the suites that
// walk its paths (tst_wizardflow, tst_accessibility). Header-only, like WizardPageTests.h.

#include "BuildPaths.h"
#include "InstallPage.h"
#include "RepairPage.h"
#include "SetupWizard.h"
#include "VerifyPage.h"
#include "WizardPageTests.h"
#include "common/Translations.h"

#include <QCoreApplication>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>

#include <functional>
#include <memory>

namespace wizardpagetests {

// An install, a verification in a fresh process and the doctor's detection; Wine starts slowly.
constexpr int kWorkTimeoutMs = 120000;

inline void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

// The workstation's wizard, shown in `language`, its probes run by the built cudnnctl.
struct Flow
{
    explicit Flow(Workstation &machine, const QString &language)
        : Flow(machine.session, language)
    {
    }
    // The wizard of another machine's session (tst_win_screenshot's laptop on Wine's own drive).
    Flow(cudnnsetup::SetupSession &session, const QString &language)
    {
        using namespace cudnnsetup::wizard;
        cudnnsetup::Translations::install(language);
        wizard = std::make_unique<SetupWizard>(&session);
        wizard->resize(820, 700);
        qobject_cast<VerifyPage *>(wizard->page(SetupWizard::Page_Verify))
            ->setProbeProgram(BuildPaths::cudnnctl());
        qobject_cast<RepairPage *>(wizard->page(SetupWizard::Page_Repair))
            ->setProbeProgram(BuildPaths::cudnnctl());
        wizard->show();
        visited.append(wizard->currentId());
    }

    template <typename Widget>
    Widget *find(const QString &name) const
    {
        return wizard->currentPage()->findChild<Widget *>(name);
    }
    // Next, as the user clicks it; false when the wizard did not move.
    bool next()
    {
        const int before = wizard->currentId();
        waitUntilComplete(*wizard);
        wizard->next();
        if (wizard->currentId() == before)
            return false;
        visited.append(wizard->currentId());
        return true;
    }
    void chooseTask(const QString &radio) { find<QRadioButton>(radio)->click(); }
    void shoot(const QString &name)
    {
        settle();
        saveScreenshot(wizard.get(),
                       QStringLiteral("flow-%1-%2.png").arg(name, cudnnsetup::Translations::current()));
    }
    template <typename Page>
    Page *page() const
    {
        return qobject_cast<Page *>(wizard->currentPage());
    }

    std::unique_ptr<cudnnsetup::wizard::SetupWizard> wizard;
    QList<int> visited;
};

// Installs the workstation's archive into the CUDA toolkit through the wizard's Install path;
// stops on the Install page, done. `onPage` looks at each page as it is shown, the Install page
// before and after the install.
inline bool installThroughWizard(Flow &flow, const std::function<void()> &onPage = {})
{
    const auto look = [&] {
        if (onPage) {
            settle();
            onPage();
        }
    };
    for (int step = 0; step < 6; ++step) {
        look();
        if (!flow.next())
            return false;
    }
    auto install = flow.page<cudnnsetup::wizard::InstallPage>();
    if (!install)
        return false;
    look();
    // The wizard's commit button, "Install", starts it; the page stays until it is done.
    flow.wizard->button(QWizard::CommitButton)->click();
    if (!QTest::qWaitFor([&] { return !install->isInstalling(); }, kWorkTimeoutMs))
        return false;
    look();
    return install->isComplete();
}

} // namespace wizardpagetests
