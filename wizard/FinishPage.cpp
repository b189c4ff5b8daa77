#include "FinishPage.h"

#include "Artwork.h"
#include "InfoIcon.h"
#include "PurposePage.h"
#include "RepairPage.h"
#include "SetupWizard.h"
#include "SummaryBanner.h"
#include "UninstallPage.h"
#include "common/Logging.h"
#include "report/ReportFiles.h"
#include "session/NextSteps.h"
#include "session/SetupSession.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QUrl>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

namespace {

QLabel *newTextLabel(const QString &name, QWidget *parent)
{
    auto label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString item(const QString &text)
{
    return QStringLiteral("<li>") + text.toHtmlEscaped() + QStringLiteral("</li>");
}

// Empties a box of step rows made for the last summary.
void clearRows(QWidget *box)
{
    for (QWidget *row : box->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
        delete row;
}

bool installed(const SetupSession &session)
{
    return session.hasInstallOutcome() && session.installOutcome().receipt &&
           session.installOutcome().succeeded();
}

} // namespace

FinishPage::FinishPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("finishPage"));
    setFinalPage(true);
    QFont bold = font();
    bold.setBold(true);
    m_doneTitle = new QLabel(this);
    m_doneTitle->setFont(bold);
    m_done = newTextLabel(QStringLiteral("doneLabel"), this);

    m_verdict =
        new SummaryBanner(QStringLiteral("verdict"), SummaryBanner::WithoutStatus::KeepIconRoom, this);
    m_verdict->label()->setTextFormat(Qt::PlainText);
    m_verdict->label()->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_nextTitle = new QLabel(this);
    m_nextTitle->setFont(bold);
    m_steps = new QWidget(this);
    m_steps->setObjectName(QStringLiteral("nextSteps"));
    new QVBoxLayout(m_steps);
    m_steps->layout()->setContentsMargins(0, 0, 0, 0);
    m_programmersTitle = new QLabel(this);
    m_programmersTitle->setObjectName(QStringLiteral("programmersTitle"));
    m_programmersTitle->setFont(bold);
    m_programmerSteps = new QWidget(this);
    m_programmerSteps->setObjectName(QStringLiteral("programmerSteps"));
    new QVBoxLayout(m_programmerSteps);
    m_programmerSteps->layout()->setContentsMargins(0, 0, 0, 0);

    m_openLog = new QPushButton(this);
    m_openLog->setObjectName(QStringLiteral("openLogButton"));
    m_save = new QPushButton(this);
    m_save->setObjectName(QStringLiteral("saveReportButton"));
    m_saveAnswers = new QPushButton(this);
    m_saveAnswers->setObjectName(QStringLiteral("saveAnswerFileButton"));
    connect(m_openLog, &QPushButton::clicked, this, &FinishPage::openLog);
    connect(m_save, &QPushButton::clicked, this, &FinishPage::chooseReportFolder);
    connect(m_saveAnswers, &QPushButton::clicked, this, &FinishPage::chooseAnswerFile);
    auto buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_openLog);
    buttons->addWidget(m_save);
    buttons->addWidget(m_saveAnswers);
    m_note = newTextLabel(QStringLiteral("noteLabel"), this);
    m_note->setTextFormat(Qt::PlainText);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_doneTitle);
    layout->addWidget(m_done);
    layout->addWidget(m_verdict);
    layout->addSpacing(8);
    layout->addWidget(m_nextTitle);
    layout->addWidget(m_steps);
    layout->addSpacing(4);
    layout->addWidget(m_programmersTitle);
    layout->addWidget(m_programmerSteps);
    layout->addStretch();
    layout->addLayout(buttons);
    layout->addWidget(m_note);
    retranslate();
}

void FinishPage::initializePage()
{
    m_note->clear();
    showSummary();
}

void FinishPage::showSummary()
{
    const auto wizardPage = [this](int id) { return wizard() ? wizard()->page(id) : nullptr; };
    const auto visited = [this](int id) { return wizard() && wizard()->hasVisitedPage(id); };
    QStringList done;
    bool repaired = false;
    bool repairChangedEnvironment = false;
    if (installed(*m_session)) {
        const Receipt &receipt = *m_session->installOutcome().receipt;
        done.append(item(
            tr("cuDNN %1 was installed in %2.").arg(receiptCudnnVersion(receipt), receiptFolder(receipt))));
        m_done->setToolTip(tr("Receipt %1").arg(receipt.id)); // the id the command line and the logs use
    }
    if (auto repair = qobject_cast<RepairPage *>(wizardPage(SetupWizard::Page_Repair));
        repair && visited(SetupWizard::Page_Repair)) {
        const std::optional<ChangeOutcome> &outcome = repair->repairOutcome();
        repaired = outcome && outcome->status == ChangeOutcome::Status::Done;
        repairChangedEnvironment = outcome && outcome->changedEnvironment();
        if (repaired) {
            for (const Repair &applied : repair->appliedRepairs())
                done.append(item(tr("Repaired: %1").arg(applied.summary.toString())));
        } else {
            done.append(item(tr("cuDNN Setup diagnosed this computer; no repair was made.")));
        }
    }
    if (auto uninstall = qobject_cast<UninstallPage *>(wizardPage(SetupWizard::Page_Uninstall));
        uninstall && uninstall->uninstalled()) {
        const Receipt &receipt = *uninstall->uninstalled();
        done.append(item(tr("cuDNN %1 was uninstalled from %2.")
                             .arg(receiptCudnnVersion(receipt), receiptFolder(receipt))));
    }
    if (done.isEmpty())
        done.append(item(tr("Nothing on this computer was changed.")));
    m_done->setText(QStringLiteral("<ul style=\"margin-left:-20px\">") + done.join(QString()) +
                    QStringLiteral("</ul>"));

    // The verification's verdict; without one (the Repair path), the doctor's.
    Status status = Status::Info;
    QString verdict = tr("Verification: not run.");
    if (m_session->hasVerifyReport()) {
        const VerifyReport &report = m_session->verifyReport();
        // Passed with checks skipped (no GPU, another system's files) proves less than a convolution run.
        const bool ranOnGpu = report.ranOnGpu();
        status = !report.passed() ? Status::Error : ranOnGpu ? Status::Ok : Status::Warning;
        verdict = !report.passed() ? tr("Verification: failed. The report names the check that failed.")
                  : ranOnGpu       ? tr("Verification: passed. cuDNN loads and works.")
                             : tr("Verification: passed in part. Some checks were skipped; the Verify page "
                                  "says why.");
    } else if (m_session->hasDoctorReport()) {
        // "Healthy" only when no warning is left either: a green tick over an open warning is a
        // contradiction the user sees at once.
        const DoctorReport &report = m_session->doctorReport();
        const int warnings = report.count(Severity::Warning);
        status = !report.healthy() ? Status::Error : warnings > 0 ? Status::Warning : Status::Ok;
        verdict = !report.healthy() ? tr("Diagnosis: problems remain. The report lists them with what to do.")
                  : warnings > 0
                      ? tr("Diagnosis: nothing stops cuDNN from working, but %n warning(s) remain. The "
                           "Repair page lists them with what to do.",
                           nullptr, warnings)
                      : tr("Diagnosis: healthy. No problem is left.");
    }
    m_verdict->setSummary(status, verdict);

    showNextSteps(repaired && repairChangedEnvironment);

    const bool hasLog = !logging::filePath().isEmpty();
    m_openLog->setEnabled(hasLog);
    m_openLog->setToolTip(hasLog ? QDir::toNativeSeparators(logging::filePath())
                                 : tr("No log could be written on this computer."));
    // Only an install made here can be replayed elsewhere.
    m_saveAnswers->setVisible(installed(*m_session) && m_session->replication());
}

void FinishPage::showNextSteps(bool repairChangedEnvironment)
{
    const auto visited = [this](int id) { return wizard() && wizard()->hasVisitedPage(id); };
    // What cuDNN is for: as answered on the Purpose page, else as the programs found say.
    PurposeAdvice advice;
    if (visited(SetupWizard::Page_Purpose))
        advice = static_cast<PurposePage *>(wizard()->page(SetupWizard::Page_Purpose))->advice();
    else if (m_session->hasSnapshot())
        advice = advisePurpose(Purpose::NotSure, m_session->snapshot().consumers, m_session->matchFacts(),
                               m_session->database().database);
    const bool install = installed(*m_session);
    const std::optional<Receipt> receipt =
        install ? m_session->installOutcome().receipt : std::optional<Receipt>();
    const QList<NextStep> steps =
        nextSteps(advice, receipt,
                  (install && m_session->installOutcome().changedEnvironment()) || repairChangedEnvironment);

    clearRows(m_steps);
    clearRows(m_programmerSteps);
    const auto addRow = [this](QWidget *box, const QString &id, const QString &text, const QString &code) {
        auto row = new QWidget(box);
        row->setObjectName(QStringLiteral("nextStepRow-") + id);
        auto rowLayout = new QGridLayout(row);
        rowLayout->setContentsMargins(0, 2, 0, 2);
        auto bullet = new QLabel(QStringLiteral("\u2022"), row);
        rowLayout->addWidget(bullet, 0, 0, Qt::AlignTop);
        auto label = new QLabel(text, row);
        label->setObjectName(QStringLiteral("nextStep-") + id);
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto line = new QHBoxLayout;
        line->addWidget(label, 1);
        // PATH is named in the new-terminal line: its (i) says what it is.
        if (id == QLatin1String("new-terminal"))
            line->addWidget(new InfoIcon(Term::Path, row), 0, Qt::AlignTop);
        rowLayout->addLayout(line, 0, 1);
        if (!code.isEmpty()) {
            auto field = new QLineEdit(code, row);
            field->setObjectName(QStringLiteral("nextStepCode-") + id);
            field->setReadOnly(true);
            field->setFont(codeFont());
            field->setCursorPosition(0);
            field->setAccessibleName(text);
            auto copy = new QPushButton(tr("&Copy"), row);
            copy->setObjectName(QStringLiteral("nextStepCopy-") + id);
            copy->setToolTip(tr("Copy this line to the clipboard."));
            connect(copy, &QPushButton::clicked, this, [code] { QApplication::clipboard()->setText(code); });
            auto codeRow = new QHBoxLayout;
            codeRow->addWidget(field, 1);
            codeRow->addWidget(copy);
            rowLayout->addLayout(codeRow, 1, 1);
        }
        rowLayout->setColumnStretch(1, 1);
        box->layout()->addWidget(row);
    };
    bool forProgrammers = false;
    for (const NextStep &step : steps) {
        addRow(step.forProgrammers ? m_programmerSteps : m_steps, step.id, step.text.toString(), step.code);
        forProgrammers = forProgrammers || step.forProgrammers;
    }
    addRow(m_steps, QStringLiteral("keep-log"),
           tr("Keep the log and the report: they say what was found and changed, for support."), QString());
    m_programmersTitle->setVisible(forProgrammers);
    m_programmerSteps->setVisible(forProgrammers);
}

void FinishPage::chooseAnswerFile()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save as answer file"),
                                     QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
                                         QStringLiteral("/cudnn-setup-answers.ini"),
                                     tr("Answer files (*.ini)"));
    if (!path.isEmpty())
        saveAnswerFile(path);
}

bool FinishPage::saveAnswerFile(const QString &path)
{
    const std::optional<UnattendedSettings> settings = m_session->replication();
    QFile file(path);
    const QByteArray content = settings ? settings->toAnswerFile() : QByteArray();
    const bool saved = settings && file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                       file.write(content) == content.size() && file.flush();
    m_note->setText(
        saved ? tr("Answer file saved as %1. On the other computers, run: cudnn-setup.exe --unattended "
                   "--answer-file \"%1\"")
                    .arg(QDir::toNativeSeparators(path))
              : tr("The answer file could not be saved as %1: %2")
                    .arg(QDir::toNativeSeparators(path), file.errorString()));
    return saved;
}

void FinishPage::openLog()
{
    const QString path = logging::filePath();
    if (!path.isEmpty())
        QDesktopServices::openUrl(QUrl::fromLocalFile(path));
}

void FinishPage::chooseReportFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Save the report in"), QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    if (!folder.isEmpty())
        saveReport(folder);
}

bool FinishPage::saveReport(const QString &folder)
{
    const Expected<QStringList> written = writeReport(m_session->reportInput(), folder);
    m_note->setText(writeReportMessage(folder, written));
    return bool(written);
}

void FinishPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void FinishPage::retranslate()
{
    setTitle(tr("Finished"));
    setSubTitle(tr("What was done, and what to do next."));
    m_doneTitle->setText(tr("What was done"));
    m_nextTitle->setText(tr("What to do next"));
    m_programmersTitle->setText(tr("For programmers"));
    m_openLog->setText(tr("Open &log"));
    m_save->setText(tr("&Save report…"));
    m_saveAnswers->setText(tr("Save as &answer file…"));
    m_saveAnswers->setToolTip(
        tr("For lab IT: the choices made here, for cudnn-setup --unattended on other computers."));
    m_note->clear();
    if (wizard() && wizard()->currentPage() == this)
        showSummary();
}

} // namespace cudnnsetup::wizard
