#include "WelcomePage.h"

#include "common/Translations.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

WelcomePage::WelcomePage(QWidget *parent)
    : QWizardPage(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::RichText);
    m_intro->setObjectName(QStringLiteral("introLabel"));

    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    // Each language is named in itself, so anyone can find their own.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(std::max(0, m_language->findData(Translations::current())));
    m_languageLabel = new QLabel(this);
    m_languageLabel->setBuddy(m_language);
    connect(m_language, &QComboBox::currentIndexChanged, this, &WelcomePage::languageChosen);

    auto form = new QFormLayout;
    form->addRow(m_languageLabel, m_language);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addSpacing(12);
    layout->addLayout(form);
    layout->addStretch();
    retranslate();
}

void WelcomePage::languageChosen(int index)
{
    Translations::install(m_language->itemData(index).toString());
}

void WelcomePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void WelcomePage::retranslate()
{
    setTitle(tr("Welcome to cuDNN Setup"));
    setSubTitle(tr("Install NVIDIA cuDNN so that it loads, and prove that it works."));
    m_intro->setText(
        tr("<p>This wizard looks at this computer first: its NVIDIA GPU and driver, the CUDA toolkits, "
           "every copy of cuDNN already on it, and the Python interpreters that will use it.</p>"
           "<p>It tells you in plain words what is there, what is missing, and why it matters. "
           "Nothing on your computer is changed until you say so.</p>"));
    m_languageLabel->setText(tr("&Language:"));
    m_language->setAccessibleName(tr("Language"));
}

} // namespace cudnnsetup::wizard
