#include "SetupWizard.h"

#include "ArchivePage.h"
#include "Artwork.h"
#include "FinishPage.h"
#include "HardwarePage.h"
#include "InstallPage.h"
#include "MatchPage.h"
#include "PurposePage.h"
#include "RepairPage.h"
#include "TargetPage.h"
#include "UninstallPage.h"
#include "VerifyPage.h"
#include "WelcomePage.h"

#include "common/Surface.h"
#include "common/Translations.h"

#include <QApplication>
#include <QEvent>
#include <QMetaObject>

namespace cudnnsetup::wizard {

SetupWizard::SetupWizard(SetupSession *session, QWidget *parent)
    : QWizard(parent)
{
    setObjectName(QStringLiteral("setupWizard"));
    // From now on, advice in core's messages names this wizard's buttons, not cudnnctl's commands.
    setSurface(Surface::Wizard);
    setWizardStyle(platformWizardStyle());
    setOption(QWizard::NoBackButtonOnStartPage);
    // Cancel is offered only while there is something to cancel: not on the summary, and not once
    // an install or an uninstall has been made (closing the window then takes nothing back).
    setOption(QWizard::NoCancelButtonOnLastPage);
    connect(session, &SetupSession::installOutcomeChanged, this, [this, session] {
        setOption(QWizard::NoCancelButton,
                  session->hasInstallOutcome() && session->installOutcome().succeeded());
    });
    setWindowIcon(QIcon(logo(128, 1.0)));
    setPixmap(QWizard::LogoPixmap, logo(64, devicePixelRatioF()));
    setPage(Page_Welcome, new WelcomePage(session, this));
    setPage(Page_Hardware, new HardwarePage(session, this));
    setPage(Page_Purpose, new PurposePage(session, this));
    setPage(Page_Match, new MatchPage(session, this));
    setPage(Page_Archive, new ArchivePage(session, this));
    setPage(Page_Target, new TargetPage(session, this));
    setPage(Page_Install, new InstallPage(session, this));
    setPage(Page_Verify, new VerifyPage(session, this));
    auto repair = new RepairPage(session, this);
    // As on the Install page: Finish closes at once, Next shows the summary first.
    repair->setFinalPage(true);
    setPage(Page_Repair, repair);
    setPage(Page_Uninstall, new UninstallPage(session, this));
    setPage(Page_Finish, new FinishPage(session, this));
    if (qEnvironmentVariableIsSet(kExitAfterFirstPaint))
        page(Page_Welcome)->installEventFilter(this);
    setStartId(Page_Welcome);
    setMinimumSize(760, 560);
    retranslate();
}

// Windows draws its own wizards (Vista to 11) as Aero wizards: the title under a plain top band that
// holds Back, no banner. Qt would choose that itself on its Windows platform, but any explicit style
// (retranslate() sets one) overrides its choice, so it is made here. Elsewhere, and offscreen, the
// modern header with the logo.
QWizard::WizardStyle SetupWizard::platformWizardStyle()
{
    return QGuiApplication::platformName() == QLatin1String("windows") ? AeroStyle : ModernStyle;
}

SetupTask SetupWizard::task() const
{
    return static_cast<const WelcomePage *>(page(Page_Welcome))->task();
}

int SetupWizard::nextId() const
{
    switch (currentId()) {
    case Page_Welcome:
        return task() == SetupTask::Uninstall ? Page_Uninstall : Page_Hardware;
    case Page_Hardware:
        return task() == SetupTask::Repair ? Page_Repair : Page_Purpose;
    case Page_Purpose:
        return Page_Match;
    case Page_Verify:
        // The Verify page says whether a failed check leads to the Repair page.
        return currentPage()->nextId() == -1 ? Page_Finish : currentPage()->nextId();
    case Page_Repair:
    case Page_Uninstall:
        return Page_Finish;
    case Page_Finish:
        return -1;
    default:
        return QWizard::nextId();
    }
}

bool SetupWizard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && watched == page(Page_Welcome)) {
        watched->removeEventFilter(this);
        // Queued: the rest of this paint reaches the screen first.
        QMetaObject::invokeMethod(qApp, &QCoreApplication::quit, Qt::QueuedConnection);
    }
    return QWizard::eventFilter(watched, event);
}

void SetupWizard::reject()
{
    if (auto install = qobject_cast<InstallPage *>(currentPage()); install && install->isInstalling()) {
        install->cancelInstall();
        return;
    }
    if (auto repair = qobject_cast<RepairPage *>(currentPage()); repair && repair->isRepairing()) {
        repair->cancelRepair();
        return;
    }
    // An uninstall is one short transaction: it ends (or rolls back) before the wizard may close.
    if (auto uninstall = qobject_cast<UninstallPage *>(currentPage());
        uninstall && uninstall->isUninstalling())
        return;
    QWizard::reject();
}

void SetupWizard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizard::changeEvent(event);
}

// Chinese text needs a font that has it. The families Windows ships come first (Microsoft YaHei
// since Vista, SimSun before it), then what Linux distributions carry; Qt falls back further for
// any character still missing. English keeps the system's font, with sans-serif fallbacks where
// that font is missing (Wine has no Segoe UI, and would draw a serif).
void SetupWizard::applyLanguageFont()
{
    static const QStringList defaultFamilies = QApplication::font().families().isEmpty()
                                                   ? QStringList{QApplication::font().family()}
                                                   : QApplication::font().families();
    QFont font = QApplication::font();
    if (Translations::current() == QLatin1String("zh_CN")) {
        font.setFamilies({QStringLiteral("Microsoft YaHei UI"), QStringLiteral("Microsoft YaHei"),
                          QStringLiteral("SimSun"), QStringLiteral("Noto Sans CJK SC"),
                          QStringLiteral("WenQuanYi Micro Hei")});
    } else {
        font.setFamilies(defaultFamilies + QStringList{QStringLiteral("Segoe UI"),
                                                       QStringLiteral("Noto Sans"),
                                                       QStringLiteral("DejaVu Sans")});
    }
    if (font != QApplication::font())
        QApplication::setFont(font);
}

void SetupWizard::retranslate()
{
    applyLanguageFont();
    setWindowTitle(tr("cuDNN Setup"));
    // QWizard words its own buttons only when the style is set or the page changes; setting the
    // style again re-reads them from Qt's translation.
    const WizardStyle style = wizardStyle();
    setWizardStyle(style == ModernStyle ? ClassicStyle : ModernStyle);
    setWizardStyle(style);
}

} // namespace cudnnsetup::wizard
