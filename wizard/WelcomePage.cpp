#include "WelcomePage.h"

#include "common/Translations.h"
#include "install/Installer.h"
#include "session/SetupSession.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QRadioButton>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

WelcomePage::WelcomePage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
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

    m_tasks = new QGroupBox(this);
    m_tasks->setObjectName(QStringLiteral("taskGroup"));
    m_taskGroup = new QButtonGroup(this);
    auto tasksLayout = new QVBoxLayout(m_tasks);
    m_install = addTask(SetupTask::Install, QStringLiteral("installTask"));
    m_repair = addTask(SetupTask::Repair, QStringLiteral("repairTask"));
    m_uninstall = addTask(SetupTask::Uninstall, QStringLiteral("uninstallTask"));
    for (const TaskChoice &choice : {m_install, m_repair, m_uninstall}) {
        tasksLayout->addWidget(choice.button);
        tasksLayout->addWidget(choice.explanation);
    }
    m_install.button->setChecked(true);

    auto form = new QFormLayout;
    form->addRow(m_languageLabel, m_language);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addSpacing(12);
    layout->addLayout(form);
    layout->addSpacing(12);
    layout->addWidget(m_tasks);
    layout->addStretch();
    readReceipts();
    retranslate();
}

WelcomePage::TaskChoice WelcomePage::addTask(SetupTask task, const QString &name)
{
    TaskChoice choice;
    choice.button = new QRadioButton(m_tasks);
    choice.button->setObjectName(name + QStringLiteral("Radio"));
    choice.explanation = new QLabel(m_tasks);
    choice.explanation->setObjectName(name + QStringLiteral("Explanation"));
    choice.explanation->setWordWrap(true);
    // Indented under its button, as the button's own second line.
    const int indent = choice.button->sizeHint().height() + 4;
    choice.explanation->setContentsMargins(indent, 0, 0, 4);
    choice.explanation->setBuddy(choice.button);
    m_taskGroup->addButton(choice.button, int(task));
    return choice;
}

void WelcomePage::initializePage()
{
    // Coming back after an install or an uninstall: the receipts may have changed.
    readReceipts();
    retranslate();
}

void WelcomePage::readReceipts()
{
    m_hasReceipts = !installedReceipts(m_session->context()).isEmpty();
    m_uninstall.button->setEnabled(m_hasReceipts);
    if (!m_hasReceipts && m_uninstall.button->isChecked())
        m_install.button->setChecked(true);
}

SetupTask WelcomePage::task() const
{
    return SetupTask(m_taskGroup->checkedId());
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
        tr("<p><b>What it does:</b> checks this computer's NVIDIA graphics card, driver, CUDA and Python, "
           "tells you which cuDNN fits, installs it and proves that it works.</p>"
           "<p><b>What you need:</b> the NVIDIA driver for your graphics card, about 1.5 GB of free disk "
           "space, and about 5 minutes.</p>"
           "<p><b>Nothing changes</b> on your computer until you press Install.</p>"));
    m_languageLabel->setText(tr("&Language:"));
    m_language->setAccessibleName(tr("Language"));
    m_tasks->setTitle(tr("What do you want to do?"));

    const auto word = [](const TaskChoice &choice, const QString &text, const QString &accessibleName,
                         const QString &explanation) {
        choice.button->setText(text);
        choice.button->setAccessibleName(accessibleName);
        choice.button->setAccessibleDescription(explanation);
        choice.explanation->setText(explanation);
    };
    word(m_install, tr("&Install cuDNN"), tr("Install cuDNN"),
         tr("Check this computer, choose NVIDIA's cuDNN archive and a folder, install it and verify that it "
            "loads."));
    word(m_repair, tr("&Repair an installation"), tr("Repair an installation"),
         tr("Find what keeps the cuDNN already on this computer from loading, and fix it."));
    word(m_uninstall, tr("&Uninstall"), tr("Uninstall"),
         m_hasReceipts
             ? tr("Uninstall what cuDNN Setup installed: its files, PATH entry and variables.")
             : tr("Not available: cuDNN Setup has not installed cuDNN on this computer, so there is "
                  "nothing of its own to uninstall."));
}

} // namespace cudnnsetup::wizard
