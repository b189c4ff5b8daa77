#include "RepairPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "PathTextView.h"
#include "UninstallPage.h"
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
#include <QStyle>
#include <QVBoxLayout>
#include <QtMath>

#include <algorithm>

namespace cudnnsetup::wizard {

namespace {

constexpr int kPreviewLines = 7;

// Ticks `box` when the label it watches is clicked.
class TickOnClick final : public QObject
{
public:
    TickOnClick(QCheckBox *box, QObject *parent)
        : QObject(parent)
        , m_box(box)
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::MouseButtonRelease && m_box->isEnabled())
            m_box->click();
        return QObject::eventFilter(watched, event);
    }

private:
    QCheckBox *m_box;
};

bool changedSomething(const ChangeOutcome &outcome)
{
    return outcome.status == ChangeOutcome::Status::Done ||
           outcome.status == ChangeOutcome::Status::DoneRestartNeeded;
}

// A repair and its exact changes, as the preview and "what changed" list them.
QString changesOf(const QList<Repair> &repairs)
{
    QStringList lines;
    for (const Repair &repair : repairs) {
        lines.append(repair.summary.toString());
        for (const Text &line : repair.preview)
            lines.append(QStringLiteral("    ") + line.toString());
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

RepairPage::RepairPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("repairPage"));
    QFont bold = font();
    bold.setBold(true);

    m_summaryIcon = new QLabel(this);
    m_summaryIcon->setFixedSize(kSummaryIconSize, kSummaryIconSize);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setFont(bold);
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("hintLabel"));
    m_hint->setWordWrap(true);
    auto summaryText = new QVBoxLayout;
    summaryText->addWidget(m_summary);
    summaryText->addWidget(m_hint);
    auto summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summaryIcon, 0, Qt::AlignTop);
    summaryRow->addLayout(summaryText, 1);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("busyIndicator"));
    m_progress->setRange(0, 0); // how long a detection or a repair takes is not known ahead
    m_progress->setTextVisible(false);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("stepLabel"));
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_step, 1);
    progressRow->addWidget(m_progress, 1);

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

    m_changes = new QLabel(this);
    m_changes->setObjectName(QStringLiteral("changesLabel"));
    m_changes->setWordWrap(true);
    m_changes->setTextFormat(Qt::PlainText);
    m_changes->setTextInteractionFlags(Qt::TextSelectableByMouse);

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

    m_previewTitle = new QLabel(this);
    m_previewTitle->setFont(bold);
    m_preview = new PathTextView(kPreviewLines, this);
    m_preview->setObjectName(QStringLiteral("previewText"));
    m_previewTitle->setBuddy(m_preview);

    // The error the user saw, pasted or dropped as a log file.
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
    layout->addLayout(summaryRow);
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
        m_repairedSinceVerification = m_repairedSinceVerification || changedSomething(outcome);
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

// What the pasted text held: how many known errors (listed first), or that none was recognised.
void RepairPage::showPastedVerdict()
{
    const std::optional<ErrorLog> &pasted = m_session->pastedError();
    m_pastedVerdict->setVisible(pasted.has_value());
    if (!pasted)
        return;
    m_pastedVerdict->setText(
        pasted->recognised()
            ? tr("%n known error(s) in the text: the first rows below say what each means on this computer "
                 "and offer the repair.",
                 nullptr, int(pasted->signatures.size()))
            : tr("Not recognised: the text holds no known cuDNN, CUDA or driver error (out of memory, shape "
                 "errors and missing Python modules are other problems), so nothing is diagnosed from it."));
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

// The rows of the session's diagnosis, made anew: each repair ticked when its finding is an error.
void RepairPage::showDiagnoses()
{
    while (QLayoutItem *item = m_listLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_rows.clear();
    const QList<Diagnosis> diagnoses =
        m_session->hasDoctorReport() ? m_session->doctorReport().diagnoses : QList<Diagnosis>();
    for (int i = 0; i < diagnoses.size(); ++i) {
        const Diagnosis &diagnosis = diagnoses.at(i);
        auto widget = new QWidget(m_list);
        DiagnosisRow row;
        row.index = i;
        row.icon = new QLabel(widget);
        row.icon->setPixmap(
            statusIcon(statusFor(diagnosis.finding.severity)).pixmap(kRowIconSize, kRowIconSize));
        row.text = new QLabel(widget);
        row.text->setObjectName(diagnosis.finding.id);
        row.text->setWordWrap(true);
        row.text->setTextFormat(Qt::RichText); // the texts escaped, the severity bold, the fix in italics
        row.text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        row.text->setToolTip(detailsTip(diagnosis.finding.details));
        auto grid = new QGridLayout(widget);
        grid->setContentsMargins(0, 2, 0, 6);
        grid->addWidget(row.icon, 0, 0, Qt::AlignTop);
        grid->addWidget(row.text, 0, 1);
        grid->setColumnStretch(1, 1);
        if (diagnosis.repair) {
            row.repair = new QCheckBox(widget);
            row.repair->setObjectName(QStringLiteral("repair-") + diagnosis.finding.id);
            row.repair->setChecked(diagnosis.finding.severity == Severity::Error);
            connect(row.repair, &QCheckBox::toggled, this, [this] {
                showPreview();
                showState();
            });
            // The words beside the box wrap long paths; a click on them ticks it, as on a box's own.
            row.repairText = new QLabel(widget);
            row.repairText->setObjectName(QStringLiteral("repairText-") + diagnosis.finding.id);
            row.repairText->setWordWrap(true);
            row.repairText->installEventFilter(new TickOnClick(row.repair, row.repairText));
            auto line = new QHBoxLayout;
            line->addWidget(row.repair, 0, Qt::AlignTop);
            line->addWidget(row.repairText, 1);
            grid->addLayout(line, 1, 1);
        }
        m_listLayout->addWidget(widget);
        m_rows.append(row);
    }
    m_listLayout->addStretch();
    wordRows();
    showPreview();
    showState();
}

void RepairPage::wordRows()
{
    if (!m_session->hasDoctorReport())
        return;
    const QList<Diagnosis> &diagnoses = m_session->doctorReport().diagnoses;
    for (const DiagnosisRow &row : std::as_const(m_rows)) {
        const Diagnosis &diagnosis = diagnoses.at(row.index);
        const Finding &finding = diagnosis.finding;
        QString severity;
        switch (finding.severity) {
        case Severity::Error:
            severity = tr("Error");
            break;
        case Severity::Warning:
            severity = tr("Warning");
            break;
        case Severity::Info:
            severity = tr("Note");
            break;
        }
        const QString message = finding.message.toString();
        // Long paths break between their folders rather than push the list sideways.
        QString body =
            tr("<b>%1:</b> %2").arg(severity.toHtmlEscaped(), breakablePath(message).toHtmlEscaped());
        if (!finding.fix.isEmpty())
            body += QStringLiteral("<br><i>%1</i>")
                        .arg(breakablePath(tr("What to do: %1").arg(finding.fix.toString())).toHtmlEscaped());
        row.text->setText(body);
        row.text->setAccessibleName(tr("%1: %2").arg(severity, message));
        row.icon->setAccessibleName(severity);
        if (row.repair) {
            const Repair &repair = *diagnosis.repair;
            const QString words =
                repair.needsAdministrator
                    ? tr("Repair, with administrator rights: %1").arg(repair.summary.toString())
                    : tr("Repair: %1").arg(repair.summary.toString());
            row.repairText->setText(breakablePath(words));
            row.repair->setAccessibleName(words);
            row.repair->setAccessibleDescription(message);
        }
    }
}

void RepairPage::showPreview()
{
    // As high as its wrapped lines (the placeholder's one when nothing is ticked): an empty box
    // kept its room from the list above it.
    m_preview->setText(changesOf(selectedRepairs()));
}

void RepairPage::showState()
{
    const bool busy = isBusy();
    const bool repairing = isRepairing();
    const QList<Repair> chosen = selectedRepairs();
    const bool asAdministrator = std::any_of(chosen.cbegin(), chosen.cend(),
                                             [](const Repair &repair) { return repair.needsAdministrator; });
    m_progress->setVisible(busy);
    m_step->setVisible(busy);
    if (busy && !(repairing && m_job->isCancelling()))
        m_step->setText(repairing ? tr("Making the repairs: if one of them fails, all are undone…")
                                  : tr("Looking at this computer: the cuDNN copies, PATH, the receipts…"));
    m_again->setEnabled(!busy);
    m_diagnosePasted->setEnabled(!busy);
    showPastedVerdict();
    m_apply->setEnabled(!busy && !chosen.isEmpty());
    m_apply->setText(asAdministrator ? tr("&Apply selected as administrator") : tr("&Apply selected"));
    m_apply->setIcon(asAdministrator ? style()->standardIcon(QStyle::SP_VistaShield) : QIcon());
    for (const DiagnosisRow &row : std::as_const(m_rows)) {
        if (row.repair)
            row.repair->setEnabled(!busy);
    }

    // The summary: what the doctor found (or finds now).
    const QList<Diagnosis> diagnoses =
        m_session->hasDoctorReport() ? m_session->doctorReport().diagnoses : QList<Diagnosis>();
    const auto count = [&](Severity severity) {
        return int(std::count_if(diagnoses.cbegin(), diagnoses.cend(), [&](const Diagnosis &diagnosis) {
            return diagnosis.finding.severity == severity;
        }));
    };
    const int repairable =
        int(std::count_if(diagnoses.cbegin(), diagnoses.cend(),
                          [](const Diagnosis &diagnosis) { return diagnosis.repair.has_value(); }));
    Status status = Status::Ok;
    QString summary;
    if (!busy && m_session->hasDoctorReport()) {
        if (count(Severity::Error) > 0) {
            status = Status::Error;
            summary = tr("%n problem(s) stop cuDNN from working.", nullptr, count(Severity::Error));
        } else if (!diagnoses.isEmpty()) {
            status = count(Severity::Warning) > 0 ? Status::Warning : Status::Info;
            summary = tr("No problem stops cuDNN from working, but %n thing(s) below are worth checking.",
                         nullptr, int(diagnoses.size()));
        } else {
            summary = tr("No problems found.");
        }
    } else if (busy) {
        summary = repairing ? tr("Repairing…") : tr("Looking for what stops cuDNN from working…");
    }
    m_summaryIcon->setVisible(!busy && !summary.isEmpty());
    m_summaryIcon->setPixmap(statusIcon(status).pixmap(kSummaryIconSize, kSummaryIconSize));
    m_summaryIcon->setAccessibleName(summary);
    m_summary->setText(summary);
    m_summary->setAccessibleName(summary);
    m_hint->setVisible(!busy && repairable > 0);
    m_hint->setText(
        tr("Tick what to repair: the box below shows exactly what it changes. Every repair can be "
           "undone."));
    showChanges();
    m_listTitle->setText(m_changes->isVisible() ? tr("What the diagnosis finds now")
                                                : tr("What the diagnosis found"));
    m_list->setAccessibleName(m_listTitle->text());
    m_previewTitle->setVisible(repairable > 0);
    m_preview->setVisible(repairable > 0);
    m_apply->setVisible(repairable > 0);

    // What the last Apply did.
    m_outcomeBox->setVisible(m_outcome.has_value() && !repairing);
    if (!m_outcome)
        return;
    const ChangeOutcome &outcome = *m_outcome;
    Status outcomeStatus = Status::Error;
    QString result;
    switch (outcome.status) {
    case ChangeOutcome::Status::Done:
    case ChangeOutcome::Status::AlreadyDone:
    case ChangeOutcome::Status::DryRun:
        outcomeStatus = Status::Ok;
        result = tr("%n repair(s) made.", nullptr, int(m_applied.size()));
        break;
    case ChangeOutcome::Status::DoneRestartNeeded:
        outcomeStatus = Status::Warning;
        result = tr("%n repair(s) made, but files in use are replaced when Windows next starts: restart the "
                    "computer before you use cuDNN.",
                    nullptr, int(m_applied.size()));
        break;
    case ChangeOutcome::Status::Cancelled:
        outcomeStatus = Status::Warning;
        result = tr("The repairs were cancelled. Everything they had done was undone: nothing was changed.");
        break;
    case ChangeOutcome::Status::Busy:
        result = tr("The repairs were not made: nothing was changed.");
        break;
    case ChangeOutcome::Status::Failed:
    case ChangeOutcome::Status::Crashed:
        result = tr("The repairs failed. Everything they had done was undone: nothing was changed.");
        break;
    }
    m_outcomeIcon->setPixmap(statusIcon(outcomeStatus).pixmap(kRowIconSize, kRowIconSize));
    m_outcomeIcon->setAccessibleName(result);
    m_result->setText(result);
    m_result->setAccessibleName(result);
    const bool changed = changedSomething(outcome);
    m_changed->setVisible(changed);
    m_changed->setText(tr("What changed:") + QLatin1Char('\n') + changesOf(m_applied));
    m_undo->setVisible(changed && outcome.receipt);
    if (outcome.receipt) {
        m_undo->setText(tr("To undo these repairs later, start cuDNN Setup again and choose Uninstall on "
                           "its first page: they are listed as the repair of %1.")
                            .arg(receiptDate(*outcome.receipt)));
        m_undo->setToolTip(outcome.receipt->id); // the id the command line and the logs use
    }
    m_outcomeFindings->setFindings(outcome.findings);
    m_outcomeFindings->setVisible(!outcome.findings.isEmpty());
}

// Since the diagnosis before this one: each problem fixed, still open or new, so that "Diagnose
// again" does not show a fresh list under the same headline.
void RepairPage::showChanges()
{
    const bool compared = !isBusy() && m_previous && m_session->hasDoctorReport();
    const DiagnosisChanges changes =
        compared ? compareDiagnoses(*m_previous, m_session->doctorReport()) : DiagnosisChanges();
    m_changes->setVisible(compared && !changes.isEmpty());
    QStringList lines{tr("Since the last diagnosis: %1 fixed, %2 still open, %3 new.")
                          .arg(changes.fixed.size())
                          .arg(changes.stillOpen.size())
                          .arg(changes.found.size())};
    const auto add = [&lines](const QString &kind, const QList<Diagnosis> &diagnoses) {
        for (const Diagnosis &diagnosis : diagnoses)
            lines.append(kind.arg(diagnosis.finding.message.toString()));
    };
    add(tr("Fixed: %1"), changes.fixed);
    add(tr("Still open: %1"), changes.stillOpen);
    add(tr("New: %1"), changes.found);
    m_changes->setText(lines.join(QLatin1Char('\n')));
    m_changes->setAccessibleName(lines.first());
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
