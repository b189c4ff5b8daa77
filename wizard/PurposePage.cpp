#include "PurposePage.h"

#include "detect/Consumers.h"
#include "session/SetupSession.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace cudnnsetup::wizard {

PurposePage::PurposePage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("purposePage"));
    m_question = new QGroupBox(this);
    m_choices = new QButtonGroup(this);
    auto choices = new QVBoxLayout(m_question);
    choices->addWidget(addChoice(Purpose::PyTorch, QStringLiteral("pytorch")));
    choices->addWidget(addChoice(Purpose::TensorFlow, QStringLiteral("tensorflow")));
    choices->addWidget(addChoice(Purpose::OnnxRuntime, QStringLiteral("onnxruntime")));
    auto program = new QHBoxLayout;
    program->addWidget(addChoice(Purpose::Program, QStringLiteral("program")));
    m_folders = new QComboBox(this);
    m_folders->setObjectName(QStringLiteral("programFolderCombo"));
    m_folders->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_folders->setMinimumContentsLength(24);
    program->addWidget(m_folders, 1);
    m_browse = new QPushButton(this);
    m_browse->setObjectName(QStringLiteral("programFolderButton"));
    program->addWidget(m_browse);
    choices->addLayout(program);
    choices->addWidget(addChoice(Purpose::OwnCode, QStringLiteral("ownCode")));
    choices->addWidget(addChoice(Purpose::NotSure, QStringLiteral("notSure")));
    m_buttons.value(Purpose::NotSure)->setChecked(true);
    connect(m_choices, &QButtonGroup::idClicked, this, &PurposePage::showAdvice);
    connect(m_folders, &QComboBox::activated, this, [this] {
        m_buttons.value(Purpose::Program)->setChecked(true);
        showAdvice();
    });
    connect(m_browse, &QPushButton::clicked, this, &PurposePage::chooseFolder);

    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("adviceHeadline"));
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_explanation = new QLabel(this);
    m_explanation->setObjectName(QStringLiteral("adviceExplanation"));
    m_explanation->setWordWrap(true);
    m_command = new QLineEdit(this);
    m_command->setObjectName(QStringLiteral("adviceCommand"));
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copy = new QPushButton(this);
    m_copy->setObjectName(QStringLiteral("copyCommandButton"));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_command->text()); });
    auto command = new QHBoxLayout;
    command->addWidget(m_command, 1);
    command->addWidget(m_copy);
    m_programs = new QLabel(this);
    m_programs->setObjectName(QStringLiteral("advicePrograms"));
    m_programs->setWordWrap(true);
    m_programs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_finishHint = new QLabel(this);
    m_finishHint->setObjectName(QStringLiteral("finishHint"));
    m_finishHint->setWordWrap(true);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_question);
    layout->addSpacing(8);
    layout->addWidget(m_headline);
    layout->addWidget(m_explanation);
    layout->addLayout(command);
    layout->addWidget(m_programs);
    layout->addWidget(m_finishHint);
    layout->addStretch();

    connect(&m_scan, &QFutureWatcher<QList<ConsumerInfo>>::finished, this, [this] {
        m_scanned.append(m_scan.result());
        m_scanning = false;
        showAdvice();
    });
    retranslate();
}

PurposePage::~PurposePage()
{
    m_scan.waitForFinished();
}

QRadioButton *PurposePage::addChoice(Purpose purpose, const QString &name)
{
    auto button = new QRadioButton(this);
    button->setObjectName(name + QStringLiteral("Radio"));
    m_choices->addButton(button, int(purpose));
    m_buttons.insert(purpose, button);
    return button;
}

Purpose PurposePage::chosen() const
{
    return Purpose(m_choices->checkedId());
}

QList<ConsumerInfo> PurposePage::consumers() const
{
    QList<ConsumerInfo> all =
        m_session->hasSnapshot() ? m_session->snapshot().consumers : QList<ConsumerInfo>{};
    return all + m_scanned;
}

void PurposePage::initializePage()
{
    fillFolders();
    showAdvice();
}

bool PurposePage::isComplete() const
{
    return !isScanning();
}

bool PurposePage::validatePage()
{
    m_session->setProgram(m_advice.beside);
    return true;
}

void PurposePage::fillFolders()
{
    const QString current = m_folders->currentText();
    m_folders->clear();
    m_folders->addItems(consumerFolders(consumers()));
    m_folders->setCurrentIndex(std::max(0, m_folders->findText(current)));
}

void PurposePage::chooseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("The program's folder"));
    if (!folder.isEmpty())
        scanProgramFolder(QDir::toNativeSeparators(folder));
}

void PurposePage::scanProgramFolder(const QString &folder)
{
    if (isScanning())
        return;
    m_buttons.value(Purpose::Program)->setChecked(true);
    if (m_folders->findText(folder) < 0)
        m_folders->addItem(folder);
    m_folders->setCurrentIndex(m_folders->findText(folder));
    const QList<CudnnCopy> copies =
        m_session->hasSnapshot() ? m_session->snapshot().cudnn : QList<CudnnCopy>{};
    m_scanning = true;
    m_scan.setFuture(QtConcurrent::run([context = m_session->context(), folder, copies] {
        return findConsumers(context, {}, {folder}, copies);
    }));
    m_headline->setText(tr("Reading the program's files…"));
    m_explanation->clear();
    m_command->hide();
    m_copy->hide();
    m_programs->clear();
    m_finishHint->hide();
    Q_EMIT completeChanged();
}

void PurposePage::showAdvice()
{
    if (isScanning())
        return;
    const Purpose purpose = chosen();
    m_advice = advisePurpose(purpose, consumers(), m_session->matchFacts(), m_session->database().database,
                             purpose == Purpose::Program ? m_folders->currentText() : QString());
    m_headline->setText(m_advice.headline.toString());
    m_explanation->setText(m_advice.explanation.toString());
    m_explanation->setVisible(!m_advice.explanation.toString().isEmpty());
    m_command->setText(m_advice.command);
    m_command->setCursorPosition(0);
    m_command->setVisible(!m_advice.command.isEmpty());
    m_copy->setVisible(!m_advice.command.isEmpty());
    QStringList programs;
    for (const JudgedConsumer &judged : m_advice.consumers)
        programs.append(tr("• %1").arg(judged.verdict.summary.toString()));
    m_programs->setText(programs.join(QLatin1Char('\n')));
    m_programs->setVisible(!programs.isEmpty());
    m_finishHint->setVisible(!m_advice.systemCudnnNeeded);
    // Finish stays offered where nothing needs installing; Next still goes on to the install.
    setFinalPage(!m_advice.systemCudnnNeeded);
    Q_EMIT completeChanged();
}

void PurposePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        showAdvice();
    }
    QWizardPage::changeEvent(event);
}

void PurposePage::retranslate()
{
    setTitle(tr("What is cuDNN for?"));
    setSubTitle(tr("Your answer decides whether this computer needs a system-wide cuDNN at all."));
    m_question->setTitle(tr("I will use cuDNN with:"));
    const auto word = [this](Purpose purpose, const QString &text, const QString &tip) {
        QRadioButton *button = m_buttons.value(purpose);
        button->setText(text);
        button->setToolTip(tip);
        button->setAccessibleDescription(tip);
    };
    word(Purpose::PyTorch, tr("&PyTorch"),
         tr("The Python library for deep learning used as \"import torch\"."));
    word(Purpose::TensorFlow, tr("&TensorFlow"),
         tr("The Python library for deep learning used as \"import tensorflow\". On Windows, versions "
            "after 2.10 use the GPU only inside WSL 2 (Windows Subsystem for Linux)."));
    word(Purpose::OnnxRuntime, tr("&ONNX Runtime"),
         tr("Runs trained models saved as .onnx files (\"import onnxruntime\")."));
    word(Purpose::Program, tr("A p&rogram:"),
         tr("A program in a folder of its own, such as a portable ComfyUI or a speech-to-text app. "
            "Pick its folder: its files tell which cuDNN it needs."));
    word(Purpose::OwnCode, tr("&My own C++ code"),
         tr("Code you compile yourself that includes cudnn.h and links the cuDNN library."));
    word(Purpose::NotSure, tr("Not s&ure"), tr("The programs found on this computer decide."));
    m_folders->setToolTip(tr("Folders where programs that use cuDNN were found."));
    m_folders->setAccessibleName(tr("Program folder"));
    m_folders->setPlaceholderText(tr("None found yet: choose its folder"));
    m_browse->setText(tr("Choose fol&der…"));
    m_headline->setToolTip(tr("A system-wide cuDNN is one installed for the whole computer (in the CUDA "
                              "toolkit or a folder of its own) where any program can find it. PyTorch and "
                              "many other programs bring their own copy instead."));
    m_command->setToolTip(tr("Paste this into a terminal (Command Prompt, PowerShell or a Linux shell)."));
    m_command->setAccessibleName(tr("Command to run"));
    m_copy->setText(tr("&Copy"));
    m_copy->setToolTip(tr("Copy the command to the clipboard."));
    m_finishHint->setText(
        tr("No system-wide cuDNN is needed for this: press Finish. Next goes on to install one anyway."));
}

} // namespace cudnnsetup::wizard
