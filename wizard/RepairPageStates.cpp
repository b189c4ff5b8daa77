// More RepairPage members: what the page shows (the diagnosis's rows, its summary, the preview of
// the ticked repairs, the outcome of the last Apply).
#include "RepairPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "PathTextView.h"
#include "SummaryBanner.h"
#include "UninstallPage.h"
#include "session/RepairJob.h"
#include "session/SetupSession.h"

#include <QCheckBox>
#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace cudnnsetup::wizard {

namespace {

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

    showSummary(busy, repairing);
    const QList<Diagnosis> diagnoses =
        m_session->hasDoctorReport() ? m_session->doctorReport().diagnoses : QList<Diagnosis>();
    const int repairable =
        int(std::count_if(diagnoses.cbegin(), diagnoses.cend(),
                          [](const Diagnosis &diagnosis) { return diagnosis.repair.has_value(); }));
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
    showOutcome(repairing);
}

// The summary: what the doctor found (or finds now).
void RepairPage::showSummary(bool busy, bool repairing)
{
    const QList<Diagnosis> diagnoses =
        m_session->hasDoctorReport() ? m_session->doctorReport().diagnoses : QList<Diagnosis>();
    const auto count = [&](Severity severity) {
        return int(std::count_if(diagnoses.cbegin(), diagnoses.cend(), [&](const Diagnosis &diagnosis) {
            return diagnosis.finding.severity == severity;
        }));
    };
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
    if (busy || summary.isEmpty())
        m_summary->setPending(summary);
    else
        m_summary->setSummary(status, summary);
}

// What the last Apply did.
void RepairPage::showOutcome(bool repairing)
{
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
    const bool changed = outcome.changedNow();
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

} // namespace cudnnsetup::wizard
