#include "SetupWizard.h"

#include "Artwork.h"
#include "HardwarePage.h"
#include "WelcomePage.h"

#include <QEvent>

namespace cudnnsetup::wizard {

SetupWizard::SetupWizard(SetupSession *session, QWidget *parent)
    : QWizard(parent)
{
    setObjectName(QStringLiteral("setupWizard"));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setOption(QWizard::IndependentPages, false);
    const QPixmap mark = logo(128);
    setWindowIcon(QIcon(mark));
    setPixmap(QWizard::LogoPixmap, logo(64 * devicePixelRatio()));
    setPage(Page_Welcome, new WelcomePage(this));
    setPage(Page_Hardware, new HardwarePage(session, this));
    setStartId(Page_Welcome);
    setMinimumSize(760, 560);
    retranslate();
}

void SetupWizard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizard::changeEvent(event);
}

void SetupWizard::retranslate()
{
    setWindowTitle(tr("cuDNN Setup"));
}

} // namespace cudnnsetup::wizard
