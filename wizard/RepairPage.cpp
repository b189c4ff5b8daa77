#include "RepairPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "PathTextView.h"
#include "SummaryBanner.h"
#include "session/RepairJob.h"
#include "session/SetupSession.h"

#include <QCheckBox>
#include <QDropEvent>
#include <QEvent>
#include <QFile>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

namespace {

constexpr int kPreviewLines = 7;

} // namespace

RepairPage::RepairPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("repairPage"));
    QFont bold = font();
    bold.setBold(true);

    m_summary = new SummaryBanner(QStringLiteral("summary"), SummaryBanner::WithoutStatus::UseIconRoom, this);
    m_hint = new QLabel(m_summary);
    m_hint->setObjectName(QStringLiteral("hintLabel"));
    m_hint->setWordWrap(true);
    m_summary->addBelow(m_hint);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("busyIndicator"));
    m_progress->setRange(0, 0); // how long a detection or a repair takes is not known ahead
    m_progress->setTextVisible(false);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("stepLabel"));
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_step, 1);
    progressRow->addWidget(m_progress, 1);

    makeOutcomeBox(bold);

    m_changes = new QLabel(this);
    m_changes->setObjectName(QStringLiteral("changesLabel"));
    m_changes->setWordWrap(true);
    m_changes->setTextFormat(Qt::PlainText);
    m_changes->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QWidget *scroll = newDiagnosisList(bold);

    m_previewTitle = new QLabel(this);
    m_previewTitle->setFont(bold);
    m_preview = new PathTextView(kPreviewLines, this);
    m_preview->setObjectName(QStringLiteral("previewText"));
    m_previewTitle->setBuddy(m_preview);

    QLayout *pasteRow = newPasteBox(bold);

    m_again = new QPushButton(this);
    m_again->setObjectName(QStringLiteral("diagnoseAgainButton"));
    connect(m_again, &QPushButton::clicked, this, &RepairPage::startDiagnosis);
    m_apply = new QPushButton(this);
    m_apply->setObjectName(QStringLiteral("applyButton"));
    connect(m_apply, &QPushButton::clicked, this, &RepairPage::applySelected);
    auto buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_again);
    buttons->addWidget(m_apply);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(progressRow);
    layout->addWidget(m_outcomeBox);
    layout->addWidget(m_changes);
    layout->addWidget(m_pasteTitle);
    layout->addWidget(m_pasted);
    layout->addLayout(pasteRow);
    layout->addWidget(m_listTitle);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_previewTitle);
    layout->addWidget(m_preview);
    layout->addLayout(buttons);

    connect(m_session, &SetupSession::verifyReportChanged, this,
            [this] { m_repairedSinceVerification = false; });
    // The diagnosis shown is the session's: one made here, or one given to it.
    connect(m_session, &SetupSession::doctorReportChanged, this, [this] {
        // A diagnosis given to the session is compared with nothing made here.
        if (!m_changingReport)
            m_previous.reset();
        if (!isBusy())
            showDiagnoses();
    });
    retranslate();
}

void RepairPage::makeOutcomeBox(const QFont &bold)
{
    m_outcomeBox = new QFrame(this);
    m_outcomeBox->setObjectName(QStringLiteral("outcomeBox"));
    m_outcomeBox->setFrameShape(QFrame::StyledPanel);
    m_outcomeIcon = new QLabel(m_outcomeBox);
    m_outcomeIcon->setFixedSize(kRowIconSize, kRowIconSize);
    m_result = new QLabel(m_outcomeBox);
    m_result->setObjectName(QStringLiteral("resultLabel"));
    m_result->setWordWrap(true);
    m_result->setFont(bold);
    m_changed = new QLabel(m_outcomeBox);
    m_changed->setObjectName(QStringLiteral("changedLabel"));
    m_changed->setWordWrap(true);
    m_changed->setTextFormat(Qt::PlainText);
    m_changed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_undo = new QLabel(m_outcomeBox);
    m_undo->setObjectName(QStringLiteral("undoLabel"));
    m_undo->setWordWrap(true);
    m_undo->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_outcomeFindings = new FindingsView(m_outcomeBox);
    m_outcomeFindings->setObjectName(QStringLiteral("outcomeFindings"));
    m_outcomeFindings->setSizeAdjustPolicy(
        QAbstractScrollArea::AdjustToContents); // no more room than it fills
    // No less either: the one or two findings of a repair read whole, not behind scroll arrows.
    m_outcomeFindings->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    auto outcomeLayout = new QGridLayout(m_outcomeBox);
    outcomeLayout->addWidget(m_outcomeIcon, 0, 0, Qt::AlignTop);
    outcomeLayout->addWidget(m_result, 0, 1);
    outcomeLayout->addWidget(m_changed, 1, 1);
    outcomeLayout->addWidget(m_undo, 2, 1);
    outcomeLayout->addWidget(m_outcomeFindings, 3, 1);
    outcomeLayout->setColumnStretch(1, 1);
}

QWidget *RepairPage::newDiagnosisList(const QFont &bold)
{
    m_listTitle = new QLabel(this);
    m_listTitle->setObjectName(QStringLiteral("listTitle"));
    m_listTitle->setFont(bold);
    m_list = new QWidget;
    m_list->setObjectName(QStringLiteral("diagnosisList"));
    m_listLayout = new QVBoxLayout(m_list);
    m_listLayout->setContentsMargins(4, 4, 4, 4);
    auto scroll = new QScrollArea(this);
    scroll->setWidget(m_list);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::StyledPanel);
    // The list scrolls by keyboard once focused; a screen reader names it by its title.
    m_listTitle->setBuddy(scroll);
    return scroll;
}

// The error the user saw, pasted or dropped as a log file.
QLayout *RepairPage::newPasteBox(const QFont &bold)
{
    m_pasteTitle = new QLabel(this);
    m_pasteTitle->setFont(bold);
    m_pasted = new QPlainTextEdit(this);
    m_pasted->setObjectName(QStringLiteral("pastedError"));
    m_pasted->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_pasted->setTabChangesFocus(true); // Tab moves on, as on every other box of the wizard
    m_pasted->setFixedHeight(m_pasted->fontMetrics().lineSpacing() * 4 + 12);
    m_pasted->viewport()->installEventFilter(this);
    m_pasteTitle->setBuddy(m_pasted);
    m_diagnosePasted = new QPushButton(this);
    m_diagnosePasted->setObjectName(QStringLiteral("diagnosePastedButton"));
    connect(m_diagnosePasted, &QPushButton::clicked, this, &RepairPage::diagnosePastedError);
    m_pastedVerdict = new QLabel(this);
    m_pastedVerdict->setObjectName(QStringLiteral("pastedVerdict"));
    m_pastedVerdict->setWordWrap(true);
    auto pasteRow = new QHBoxLayout;
    pasteRow->addWidget(m_pastedVerdict, 1);
    pasteRow->addWidget(m_diagnosePasted, 0, Qt::AlignTop);
    return pasteRow;
}

// Coming back keeps the diagnosis and the user's ticks: the rows follow the session's report.
void RepairPage::initializePage()
{
    if (m_session->hasDoctorReport() || isBusy())
        showState();
    else
        startDiagnosis();
}

bool RepairPage::isBusy() const
{
    return m_job && m_job->isRunning();
}

bool RepairPage::isRepairing() const
{
    return m_job && m_job->isRepairing();
}

bool RepairPage::isComplete() const
{
    return !isBusy();
}

void RepairPage::newJob()
{
    if (m_job) {
        disconnect(m_job, nullptr, this, nullptr);
        m_job->deleteLater();
    }
    RepairJob::Request request;
    request.database = m_session->database().database;
    if (const Expected<VerifySubject> subject = m_session->verifySubject())
        request.subject = *subject;
    if (m_session->hasVerifyReport() && !m_repairedSinceVerification)
        request.verify = m_session->verifyReport();
    request.verifyOptions.probeProgram = m_probeProgram;
    request.log = m_session->pastedError();
    request.ownerWindow = window()->winId();
    m_job = new RepairJob(request, m_session->context(), m_session->persistentEnvironment(), this);
    connect(m_job, &RepairJob::repaired, this, [this](const ChangeOutcome &outcome) {
        m_outcome = outcome;
        m_repairedSinceVerification = m_repairedSinceVerification || outcome.changedNow();
        // A repair that changed nothing leaves the diagnosis and the ticks as they were; one that
        // did brings a new diagnosis right after.
        showState();
        Q_EMIT completeChanged();
    });
    connect(m_job, &RepairJob::diagnosed, this, [this](const DoctorReport &report) {
        const QScopedValueRollback<bool> own(m_changingReport, true);
        m_session->setDoctorReport(report);
        Q_EMIT completeChanged();
    });
}

void RepairPage::startDiagnosis()
{
    if (isBusy())
        return;
    newJob();
    if (m_session->hasDoctorReport())
        m_previous = m_session->doctorReport();
    const QScopedValueRollback<bool> own(m_changingReport, true);
    m_session->clearDoctorReport();
    m_job->diagnose();
    showDiagnoses();
    Q_EMIT completeChanged();
}

void RepairPage::diagnosePastedError()
{
    if (isBusy())
        return;
    m_session->setPastedError(m_pasted->toPlainText());
    startDiagnosis();
}

bool RepairPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_pasted->viewport() && event->type() == QEvent::Drop) {
        const auto drop = static_cast<QDropEvent *>(event);
        const QList<QUrl> urls = drop->mimeData()->urls();
        if (!urls.isEmpty() && urls.first().isLocalFile()) {
            // A log as large as the reader takes; the text decoded as a pasted one would be.
            constexpr qint64 kMaxBytes = 64 * 1024 * 1024;
            QFile file(urls.first().toLocalFile());
            if (file.open(QIODevice::ReadOnly) && file.size() <= kMaxBytes)
                m_pasted->setPlainText(errorLogText(file.readAll()));
            drop->acceptProposedAction();
            return true;
        }
    }
    return QWizardPage::eventFilter(watched, event);
}

void RepairPage::applySelected()
{
    const QList<Repair> chosen = selectedRepairs();
    if (isBusy() || chosen.isEmpty())
        return;
    m_applied = chosen;
    m_previous = m_session->doctorReport();
    m_outcome.reset();
    newJob();
    m_job->repair(chosen);
    showState();
    Q_EMIT completeChanged();
}

void RepairPage::cancelRepair()
{
    if (!isRepairing())
        return;
    m_job->cancelRepair();
    m_step->setText(tr("Cancelling: undoing what was done so far…"));
}

QList<Repair> RepairPage::selectedRepairs() const
{
    QList<Repair> chosen;
    if (!m_session->hasDoctorReport())
        return chosen;
    const QList<Diagnosis> &diagnoses = m_session->doctorReport().diagnoses;
    for (const DiagnosisRow &row : m_rows) {
        if (row.repair && row.repair->isChecked() && row.index < diagnoses.size())
            chosen.append(*diagnoses.at(row.index).repair);
    }
    return chosen;
}

void RepairPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void RepairPage::retranslate()
{
    setTitle(tr("Repair"));
    setSubTitle(tr("What stops cuDNN from working on this computer, and the repairs cuDNN Setup can make "
                   "with your consent."));
    m_previewTitle->setText(tr("&Exactly what the ticked repairs change"));
    m_preview->setAccessibleName(tr("Exactly what the ticked repairs change"));
    m_preview->setPlaceholderText(tr("Tick a repair to see exactly what it changes."));
    m_progress->setAccessibleName(tr("Working"));
    m_again->setText(tr("&Diagnose again"));
    m_pasteTitle->setText(tr("&Paste the error you saw (or drop a log file here)"));
    m_pasted->setAccessibleName(tr("Paste the error you saw"));
    m_pasted->setPlaceholderText(tr(
        "A traceback, a loader log, a Windows message: the diagnosis says what it means on this computer."));
    m_diagnosePasted->setText(tr("Diagnose &with this error"));
    wordRows();
    showPreview();
    showState();
}

} // namespace cudnnsetup::wizard
