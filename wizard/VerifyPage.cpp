#include "VerifyPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "SetupWizard.h"
#include "SummaryBanner.h"
#include "report/ReportFiles.h"
#include "report/VerifyText.h"
#include "session/SetupSession.h"
#include "session/VerifyJob.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cudnnsetup::wizard {

namespace {

// The checks verify() makes, in its order.
const QStringList &stageIds()
{
    static const QStringList ids = {QStringLiteral("load"),        QStringLiteral("dependencies"),
                                    QStringLiteral("version"),     QStringLiteral("handle"),
                                    QStringLiteral("convolution"), QStringLiteral("framework")};
    return ids;
}

Status statusOf(VerifyStage::Status status)
{
    switch (status) {
    case VerifyStage::Status::Passed:
        return Status::Ok;
    case VerifyStage::Status::Failed:
        return Status::Error;
    case VerifyStage::Status::Skipped:
        break;
    }
    return Status::Info;
}

bool sameSubject(const VerifyReport &report, const VerifySubject &subject)
{
    return report.directory == subject.directory && report.receiptId == subject.receiptId;
}

} // namespace

VerifyPage::VerifyPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("verifyPage"));
    // Finish stays offered when a check failed and Next leads to the Repair page.
    setFinalPage(true);
    QFont bold = font();
    bold.setBold(true);

    m_subjectLabel = new QLabel(this);
    m_subjectLabel->setObjectName(QStringLiteral("subjectLabel"));
    m_subjectLabel->setWordWrap(true);
    m_subjectLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_summary = new SummaryBanner(QStringLiteral("summary"), SummaryBanner::WithoutStatus::UseIconRoom, this);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("verifyProgress"));
    m_progress->setRange(0, int(stageIds().size()));
    m_progress->setTextVisible(false);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("stepLabel"));
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_step, 1);
    progressRow->addWidget(m_progress, 1);

    m_list = new QWidget;
    m_list->setObjectName(QStringLiteral("stageList"));
    m_listLayout = new QVBoxLayout(m_list);
    m_listLayout->setContentsMargins(0, 0, 0, 0);
    for (const QString &id : stageIds())
        rowFor(id);
    m_listLayout->addStretch();
    auto scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("stageScroll"));
    scroll->setWidget(m_list);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::StyledPanel);

    m_findings = new FindingsView(this);

    m_noteLabel = new QLabel(this);
    m_noteLabel->setObjectName(QStringLiteral("noteLabel"));
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_again = new QPushButton(this);
    m_again->setObjectName(QStringLiteral("verifyAgainButton"));
    connect(m_again, &QPushButton::clicked, this, &VerifyPage::startVerification);
    m_copy = new QPushButton(this);
    m_copy->setObjectName(QStringLiteral("copyReportButton"));
    connect(m_copy, &QPushButton::clicked, this, &VerifyPage::copyReport);
    m_save = new QPushButton(this);
    m_save->setObjectName(QStringLiteral("saveReportButton"));
    connect(m_save, &QPushButton::clicked, this, &VerifyPage::chooseSaveFolder);
    auto buttons = new QHBoxLayout;
    buttons->addWidget(m_noteLabel, 1);
    buttons->addWidget(m_again);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_save);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_subjectLabel);
    layout->addWidget(m_summary);
    layout->addLayout(progressRow);
    layout->addWidget(scroll, 3);
    layout->addWidget(m_findings, 1);
    layout->addLayout(buttons);

    // The verification shown is the session's: one made here, or one given to it.
    connect(m_session, &SetupSession::verifyReportChanged, this, [this] {
        if (isVerifying())
            return;
        m_stages = m_session->hasVerifyReport() ? m_session->verifyReport().stages : QList<VerifyStage>();
        if (m_session->hasVerifyReport())
            m_nothingToVerify.reset();
        showStages();
        showState();
        // QWizard asks nextId() again only when told the page changed.
        setFinalPage(true);
    });
    retranslate();
}

void VerifyPage::initializePage()
{
    const Expected<VerifySubject> subject = m_session->verifySubject();
    if (!isVerifying() && subject && m_session->hasVerifyReport() &&
        sameSubject(m_session->verifyReport(), *subject)) {
        m_subject = *subject;
        m_stages = m_session->verifyReport().stages;
        showStages();
        showState();
        return;
    }
    startVerification();
}

bool VerifyPage::isVerifying() const
{
    return m_job && m_job->isRunning();
}

bool VerifyPage::isComplete() const
{
    return !isVerifying();
}

int VerifyPage::nextId() const
{
    const bool failed = !isVerifying() && m_session->hasVerifyReport() && !m_session->verifyReport().passed();
    return failed ? SetupWizard::Page_Repair : -1;
}

void VerifyPage::startVerification()
{
    if (isVerifying())
        return;
    if (m_job) {
        disconnect(m_job, nullptr, this, nullptr);
        m_job->deleteLater();
        m_job = nullptr;
    }
    m_stages.clear();
    m_note.clear();
    m_nothingToVerify.reset();
    m_subject.reset();
    m_session->clearVerifyReport();
    const Expected<VerifySubject> subject = m_session->verifySubject();
    if (!subject) {
        m_nothingToVerify = subject.error();
    } else {
        m_subject = *subject;
        VerifyOptions options;
        options.probeProgram = m_probeProgram;
        m_job = new VerifyJob(m_session->context(),
                              m_session->hasSnapshot() ? m_session->snapshot() : SystemSnapshot(), *subject,
                              options, this);
        connect(m_job, &VerifyJob::stageFinished, this, [this](const VerifyStage &stage) {
            m_stages.append(stage);
            showStages();
        });
        connect(m_job, &VerifyJob::finished, this, [this](const VerifyReport &report) {
            m_session->setVerifyReport(report);
            Q_EMIT completeChanged();
        });
        m_job->start();
    }
    showStages();
    showState();
    Q_EMIT completeChanged();
}

VerifyPage::StageRow &VerifyPage::rowFor(const QString &id)
{
    for (StageRow &row : m_rows) {
        if (row.id == id)
            return row;
    }
    StageRow row;
    row.id = id;
    row.widget = new QWidget(m_list);
    row.widget->setObjectName(QStringLiteral("stage-") + id);
    const auto label = [&](const QString &part) {
        auto created = new QLabel(row.widget);
        created->setObjectName(QStringLiteral("stage-%1-%2").arg(id, part));
        return created;
    };
    row.icon = label(QStringLiteral("icon"));
    row.icon->setFixedSize(kRowIconSize, kRowIconSize);
    row.name = label(QStringLiteral("name"));
    QFont bold = row.name->font();
    bold.setBold(true);
    row.name->setFont(bold);
    row.status = label(QStringLiteral("status"));
    row.time = label(QStringLiteral("time"));
    row.time->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    row.message = label(QStringLiteral("message"));
    row.message->setWordWrap(true);
    row.message->setTextFormat(Qt::PlainText);
    row.message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row.fix = label(QStringLiteral("fix"));
    row.fix->setWordWrap(true);
    row.fix->setTextFormat(Qt::RichText); // escaped, set in italics
    row.fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row.detailsButton = new QToolButton(row.widget);
    row.detailsButton->setObjectName(QStringLiteral("stage-%1-detailsButton").arg(id));
    row.detailsButton->setCheckable(true);
    row.detailsButton->setAutoRaise(true);
    row.detailsButton->setArrowType(Qt::RightArrow);
    row.detailsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    row.detailsButton->setFocusPolicy(Qt::StrongFocus);
    // Flat when open too: a checked tool button draws as a pressed grey box, which reads as a
    // button held down, not as a section shown. A dotted line still shows keyboard focus.
    row.detailsButton->setStyleSheet(
        QStringLiteral("QToolButton { border: 1px solid transparent; background: transparent; }"
                       "QToolButton:focus { border: 1px dotted palette(highlight); }"));
    row.details = label(QStringLiteral("details"));
    row.details->setWordWrap(true);
    row.details->setTextFormat(Qt::PlainText);
    row.details->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    row.details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    row.details->hide();
    QToolButton *button = row.detailsButton;
    QLabel *details = row.details;
    connect(button, &QToolButton::toggled, this, [button, details](bool shown) {
        button->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
        details->setVisible(shown);
    });

    auto grid = new QGridLayout(row.widget);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setVerticalSpacing(2);
    grid->addWidget(row.icon, 0, 0, Qt::AlignTop);
    if (id == QLatin1String("handle")) {
        // "Handle" means nothing to a student: its (i) says what getting one proves.
        auto name = new QHBoxLayout;
        name->setSpacing(4);
        name->addWidget(row.name);
        name->addWidget(new InfoIcon(Term::Handle, row.widget));
        name->addStretch();
        grid->addLayout(name, 0, 1);
    } else {
        grid->addWidget(row.name, 0, 1);
    }
    grid->addWidget(row.status, 0, 2);
    grid->addWidget(row.time, 0, 3);
    grid->addWidget(row.message, 1, 1, 1, 3);
    grid->addWidget(row.fix, 2, 1, 1, 3);
    grid->addWidget(row.detailsButton, 3, 1, 1, 3, Qt::AlignLeft);
    grid->addWidget(row.details, 4, 1, 1, 3);
    grid->setColumnStretch(2, 1);
    // A stage verify() does not list among its six goes after them, before the stretch.
    m_listLayout->insertWidget(int(m_rows.size()), row.widget);
    m_rows.append(row);
    return m_rows.last();
}

// `stage`: its result, or null when it has not ended (`next`: it is the one running now) or was
// not run.
void VerifyPage::showStage(StageRow &row, const VerifyStage *stage, bool next)
{
    const QString name = verifyStageName(row.id);
    row.name->setText(name);
    row.detailsButton->setText(tr("Technical details"));
    row.detailsButton->setAccessibleName(tr("Details of %1").arg(name));
    if (!stage) {
        row.icon->clear();
        row.status->setText(!isVerifying() ? tr("Not run") : next ? tr("Checking…") : tr("Waiting"));
        row.time->clear();
        row.message->clear();
        row.message->hide();
        row.fix->hide();
        row.detailsButton->setChecked(false);
        row.detailsButton->hide();
        row.widget->setAccessibleName(tr("%1: %2", "a name and its value").arg(name, row.status->text()));
        return;
    }
    row.icon->setPixmap(statusIcon(statusOf(stage->status)).pixmap(kRowIconSize, kRowIconSize));
    QString word;
    switch (stage->status) {
    case VerifyStage::Status::Passed:
        word = tr("Passed");
        break;
    case VerifyStage::Status::Failed:
        word = tr("Failed");
        break;
    case VerifyStage::Status::Skipped:
        word = tr("Skipped");
        break;
    }
    row.status->setText(word);
    row.icon->setAccessibleName(word);
    if (stage->milliseconds <= 0)
        row.time->clear();
    else if (stage->milliseconds < 1)
        row.time->setText(tr("under 1 ms"));
    else if (stage->milliseconds < 1000)
        row.time->setText(tr("%1 ms").arg(stage->milliseconds, 0, 'f', 0));
    else
        row.time->setText(tr("%1 s").arg(stage->milliseconds / 1000.0, 0, 'f', 1));
    const QString message = stage->message.toString();
    row.message->setText(message);
    row.message->setVisible(!message.isEmpty());
    const bool showFix = stage->status == VerifyStage::Status::Failed && !stage->fix.isEmpty();
    row.fix->setVisible(showFix);
    if (showFix)
        row.fix->setText(
            QStringLiteral("<i>%1</i>").arg(tr("What to do: %1").arg(stage->fix.toString()).toHtmlEscaped()));
    row.details->setText(breakablePath(stage->details)); // wrapped between folders, not mid-name
    row.detailsButton->setVisible(!stage->details.isEmpty());
    if (stage->details.isEmpty())
        row.detailsButton->setChecked(false);
    row.widget->setAccessibleName(tr("%1: %2", "a name and its value").arg(name, word));
    row.widget->setAccessibleDescription(showFix ? message + QLatin1Char('\n') + row.fix->text() : message);
}

void VerifyPage::showStages()
{
    bool nextFound = false;
    for (StageRow &row : m_rows) {
        const auto stage = std::find_if(m_stages.cbegin(), m_stages.cend(),
                                        [&](const VerifyStage &done) { return done.id == row.id; });
        const bool done = stage != m_stages.cend();
        showStage(row, done ? &*stage : nullptr, !done && !nextFound);
        nextFound = nextFound || !done;
        row.widget->setVisible(!m_nothingToVerify);
    }
    for (const VerifyStage &stage : std::as_const(m_stages)) {
        if (!stageIds().contains(stage.id))
            showStage(rowFor(stage.id), &stage, false);
    }
    m_progress->setValue(int(std::min(m_stages.size(), stageIds().size())));
    const auto next = std::find_if(m_rows.cbegin(), m_rows.cend(), [&](const StageRow &row) {
        return std::none_of(m_stages.cbegin(), m_stages.cend(),
                            [&](const VerifyStage &done) { return done.id == row.id; });
    });
    m_step->setText(next != m_rows.cend() ? tr("Checking: %1…").arg(verifyStageName(next->id)) : QString());
}

void VerifyPage::showState()
{
    const bool verifying = isVerifying();
    const bool hasReport = !verifying && m_session->hasVerifyReport();
    m_progress->setVisible(verifying);
    m_step->setVisible(verifying);
    m_again->setEnabled(!verifying);
    m_copy->setEnabled(hasReport);
    m_save->setEnabled(hasReport);
    m_noteLabel->setText(m_note);
    // Next leads to the Repair page only when a check failed; otherwise on to the summary.
    setButtonText(QWizard::NextButton, nextId() == SetupWizard::Page_Repair ? tr("&Repair…") : tr("&Next >"));

    if (m_subject) {
        const bool installed = m_subject->source == QLatin1String("receipt");
        m_subjectLabel->setText(installed
                                    ? tr("Checking what the install placed in %1.")
                                          .arg(QDir::toNativeSeparators(m_subject->directory))
                                    : tr("Checking the cuDNN that a freshly started program loads, in %1.")
                                          .arg(QDir::toNativeSeparators(m_subject->directory)));
        m_subjectLabel->setToolTip(installed ? tr("Receipt %1").arg(m_subject->receiptId) : QString());
    } else {
        m_subjectLabel->clear();
    }
    m_subjectLabel->setVisible(m_subject.has_value());
    m_findings->setFindings(m_nothingToVerify ? Findings{*m_nothingToVerify} : Findings());
    m_findings->setVisible(m_nothingToVerify.has_value());

    Status status = Status::Info;
    QString text;
    if (verifying) {
        text = tr("Verifying… This takes a few seconds, a minute when torch is asked too.");
    } else if (m_nothingToVerify) {
        status = Status::Error;
        text = tr("There is nothing to verify.");
    } else if (hasReport) {
        const VerifyReport &report = m_session->verifyReport();
        const auto failed =
            std::count_if(report.stages.cbegin(), report.stages.cend(), [](const VerifyStage &stage) {
                return stage.status == VerifyStage::Status::Failed;
            });
        const VerifyStage *load = report.stage(QStringLiteral("load"));
        const bool loaded = load && load->status == VerifyStage::Status::Passed;
        if (failed > 0) {
            status = Status::Error;
            text = tr("cuDNN does not work yet: %n check(s) failed. What to do is written under each.",
                      nullptr, int(failed));
        } else if (report.ranOnGpu()) {
            status = Status::Ok;
            text = tr(
                "cuDNN works: it loads as your programs will load it, and it ran a convolution on the GPU.");
        } else if (loaded) {
            text = tr("cuDNN loads as your programs will load it, but it was not run on the GPU: the checks "
                      "below say why.");
        } else {
            // Never more than the checks say: a load that was skipped proves nothing either way.
            text = tr("cuDNN was not loaded here, so these checks prove nothing yet: each says why it was "
                      "skipped.");
        }
    }
    if (verifying || text.isEmpty())
        m_summary->setPending(text);
    else
        m_summary->setSummary(status, text);
}

void VerifyPage::copyReport()
{
    if (isVerifying() || !m_session->hasVerifyReport())
        return;
    QApplication::clipboard()->setText(verifyText(m_session->verifyReport()));
    m_note = tr("The report was copied to the clipboard.");
    showState();
}

void VerifyPage::chooseSaveFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Save the report in a folder"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    if (!folder.isEmpty())
        saveReport(folder);
}

bool VerifyPage::saveReport(const QString &folder)
{
    if (isVerifying() || !m_session->hasVerifyReport())
        return false;
    const Expected<QStringList> written = writeReport(m_session->reportInput(), folder);
    m_note = writeReportMessage(folder, written);
    showState();
    return bool(written);
}

void VerifyPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void VerifyPage::retranslate()
{
    setTitle(tr("Verify"));
    setSubTitle(tr("cuDNN is loaded in a fresh process, as your programs will load it, and run on the GPU."));
    m_list->setAccessibleName(tr("Checks"));
    // The list scrolls by keyboard once focused: that stop bears the list's name too.
    findChild<QScrollArea *>(QStringLiteral("stageScroll"))->setAccessibleName(m_list->accessibleName());
    m_progress->setAccessibleName(tr("Verification progress"));
    m_again->setText(tr("Verify &again"));
    m_copy->setText(tr("&Copy report"));
    m_save->setText(tr("&Save report…"));
    // The note of the last Copy or Save was worded in the language before.
    m_note.clear();
    showStages();
    showState();
}

} // namespace cudnnsetup::wizard
