#include "InstallPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "SummaryBanner.h"
#include "common/Logging.h"
#include "session/InstallJob.h"
#include "session/SetupSession.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWizard>

#include <algorithm>
#include <cmath>

namespace cudnnsetup::wizard {

namespace {

constexpr int kProgressSteps = 1000;

// Programs people keep open while they install cuDNN, which keep the PATH and variables they were
// started with: their executables on Windows and on Linux.
struct KnownProgram
{
    const char *name;
    QStringList executables;
};

const QList<KnownProgram> &knownPrograms()
{
    static const QList<KnownProgram> programs = {
        {QT_TRANSLATE_NOOP("cudnnsetup::wizard::InstallPage",
                           "Command Prompt, PowerShell and Windows Terminal windows"),
         {QStringLiteral("cmd.exe"), QStringLiteral("powershell.exe"), QStringLiteral("pwsh.exe"),
          QStringLiteral("WindowsTerminal.exe"), QStringLiteral("bash"), QStringLiteral("zsh"),
          QStringLiteral("fish"), QStringLiteral("gnome-terminal-server"), QStringLiteral("konsole"),
          QStringLiteral("xterm")}},
        {QT_TRANSLATE_NOOP("cudnnsetup::wizard::InstallPage", "PyCharm"),
         {QStringLiteral("pycharm64.exe"), QStringLiteral("pycharm.exe"), QStringLiteral("pycharm"),
          QStringLiteral("pycharm.sh")}},
        {QT_TRANSLATE_NOOP("cudnnsetup::wizard::InstallPage", "Visual Studio Code"),
         {QStringLiteral("Code.exe"), QStringLiteral("code")}},
        {QT_TRANSLATE_NOOP("cudnnsetup::wizard::InstallPage",
                           "Jupyter (the server, and with it its kernels)"),
         {QStringLiteral("jupyter-lab.exe"), QStringLiteral("jupyter-notebook.exe"),
          QStringLiteral("jupyter.exe"), QStringLiteral("jupyter-lab"), QStringLiteral("jupyter-notebook"),
          QStringLiteral("jupyter")}},
    };
    return programs;
}

} // namespace

InstallPage::InstallPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("installPage"));
    setCommitPage(true);
    QFont bold = font();
    bold.setBold(true);

    m_summaryTitle = new QLabel(this);
    m_summaryTitle->setObjectName(QStringLiteral("summaryTitle"));
    m_summaryTitle->setFont(bold);
    m_summary = new QFrame(this);
    m_summary->setObjectName(QStringLiteral("installSummary"));
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summaryLayout = new QFormLayout(m_summary);
    m_summaryLayout->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_summaryLayout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_summaryLayout->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);

    m_replaceInUse = new QPushButton(this);
    m_replaceInUse->setObjectName(QStringLiteral("replaceInUseButton"));
    m_replaceInUse->hide();
    connect(m_replaceInUse, &QPushButton::clicked, this, [this] { startInstall(true); });
    auto installRow = new QHBoxLayout;
    installRow->addStretch();
    installRow->addWidget(m_replaceInUse);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("installProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_cancel = new QPushButton(this);
    m_cancel->setObjectName(QStringLiteral("cancelInstallButton"));
    connect(m_cancel, &QPushButton::clicked, this, &InstallPage::cancelInstall);
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("stepLabel"));
    m_step->setTextFormat(Qt::PlainText);
    // Never wider than the page: a long step is cut rather than widen it.
    m_step->setMinimumWidth(1);
    m_step->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_eta = new QLabel(this);
    m_eta->setObjectName(QStringLiteral("etaLabel"));
    auto stepRow = new QHBoxLayout;
    stepRow->addWidget(m_step, 1);
    stepRow->addWidget(m_eta);

    m_result = new SummaryBanner(QStringLiteral("result"), SummaryBanner::WithoutStatus::UseIconRoom, this);
    m_receipt = new QLabel(this);
    m_receipt->setObjectName(QStringLiteral("receiptLabel"));
    m_receipt->setWordWrap(true);
    m_receipt->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_restartTitle = new QLabel(this);
    m_restartTitle->setObjectName(QStringLiteral("restartTitle"));
    m_restartTitle->setWordWrap(true);
    m_restart = new QLabel(this);
    m_restart->setObjectName(QStringLiteral("restartList"));
    m_restart->setTextFormat(Qt::RichText);
    m_restart->setWordWrap(true);
    m_findingsTitle = new QLabel(this);
    m_findingsTitle->setFont(bold);
    m_findings = new FindingsView(this);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_summaryTitle);
    layout->addWidget(m_summary);
    layout->addWidget(m_result);
    layout->addLayout(installRow);
    layout->addLayout(progressRow);
    layout->addLayout(stepRow);
    layout->addWidget(m_receipt);
    layout->addWidget(m_restartTitle);
    layout->addWidget(m_restart);
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findings, 1);

    connect(m_session, &SetupSession::targetChanged, this, [this] {
        if (isVisible() && !isInstalling())
            showSummary();
    });
    retranslate();
}

void InstallPage::initializePage()
{
    // A cancelled or failed install changed nothing: coming here again is a fresh start.
    if (m_session->hasInstallOutcome() && !m_session->installOutcome().succeeded())
        m_session->clearInstallOutcome();
    m_running.clear();
    showSummary();
    showOutcome();
}

bool InstallPage::isInstalling() const
{
    return m_job && m_job->isRunning();
}

bool InstallPage::isInstalled() const
{
    return !isInstalling() && m_session->hasInstallOutcome() && m_session->installOutcome().succeeded();
}

// Install (the commit button) is offered as soon as there is something to install.
bool InstallPage::isComplete() const
{
    return isInstalled() || (!isInstalling() && m_session->hasArchive() && m_session->hasTarget());
}

bool InstallPage::validatePage()
{
    if (isInstalled())
        return true;
    startInstall();
    return false;
}

void InstallPage::setBackAllowed(bool allowed)
{
    // QWizard disables Back on the page entered from a commit page: from the moment the install
    // starts the Target page counts as one, until an install that changed nothing gives it back.
    if (!wizard())
        return;
    const QList<int> visited = wizard()->visitedIds();
    const int self = visited.indexOf(wizard()->currentId());
    if (self > 0) {
        if (QWizardPage *previous = wizard()->page(visited.at(self - 1)))
            previous->setCommitPage(!allowed);
    }
    Q_EMIT completeChanged(); // QWizard looks at its buttons again
}

void InstallPage::startInstall(bool replaceInUse)
{
    if (isInstalling() || !m_session->hasArchive() || !m_session->hasTarget())
        return;
    if (m_job) {
        disconnect(m_job, nullptr, this, nullptr);
        m_job->deleteLater();
    }
    m_session->clearInstallOutcome();
    TargetConfig config = *m_session->targetConfig();
    config.setReplaceInUse(replaceInUse);
    InstallJob::Request request;
    request.plan = *config.plan(); // ready: the session has a target
    request.archive = m_session->archive();
    request.ownerWindow = window()->winId();
    m_job = new InstallJob(request, m_session->context(), m_session->persistentEnvironment(), this);
    connect(m_job, &InstallJob::progress, this, &InstallPage::showProgress);
    connect(m_job, &InstallJob::finished, this,
            [this](const ChangeOutcome &outcome, const QStringList &running) {
                m_running = running;
                m_session->setInstallOutcome(outcome);
                setBackAllowed(!outcome.succeeded());
                showSummary();
                showOutcome();
                Q_EMIT completeChanged();
            });
    setBackAllowed(false);
    m_job->start();
    showProgress(0, tr("Starting…"), -1);
    showOutcome();
    Q_EMIT completeChanged();
}

void InstallPage::cancelInstall()
{
    if (!isInstalling())
        return;
    m_job->cancel();
    m_cancel->setEnabled(false);
    m_step->setText(tr("Cancelling: undoing what was done so far…"));
    m_eta->clear();
}

void InstallPage::showProgress(double fraction, const QString &text, int secondsLeft)
{
    if (!isInstalling())
        return;
    m_progress->setValue(int(std::lround(fraction * kProgressSteps)));
    if (m_job->isCancelling())
        return; // the rollback says nothing more until it ends
    // A step names a file or a folder: a long one is cut in its middle (once the label has its width).
    const int width = m_step->contentsRect().width();
    m_step->setText(width > 50 ? m_step->fontMetrics().elidedText(text, Qt::ElideMiddle, width) : text);
    m_step->setToolTip(text);
    m_step->setAccessibleName(text);
    if (secondsLeft < 0)
        m_eta->setText(tr("Estimating the time left…"));
    else if (secondsLeft < 60)
        m_eta->setText(tr("About %n second(s) left", nullptr, std::max(1, secondsLeft)));
    else
        m_eta->setText(tr("About %n minute(s) left", nullptr, (secondsLeft + 59) / 60));
}

void InstallPage::showSummary()
{
    while (m_summaryLayout->rowCount() > 0)
        m_summaryLayout->removeRow(0);
    const bool done = m_session->hasInstallOutcome() && m_session->installOutcome().succeeded();
    m_summaryTitle->setText(done ? tr("What was done") : tr("What will be done"));
    if (!m_session->hasArchive() || !m_session->hasTarget())
        return;
    const ArchiveReport &archive = m_session->archive();
    const InstallTarget &target = m_session->target();
    const auto add = [this](const QString &key, const QString &label, const QString &value) {
        auto name = new QLabel(label, m_summary);
        auto text = new QLabel(value, m_summary);
        text->setObjectName(QStringLiteral("summary-") + key);
        text->setTextFormat(Qt::PlainText);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setAccessibleName(label);
        if (key != QLatin1String("path")) {
            m_summaryLayout->addRow(name, text);
            return;
        }
        // "PATH" means nothing to a student: its (i) says what it is.
        auto nameBox = new QWidget(m_summary);
        auto nameRow = new QHBoxLayout(nameBox);
        nameRow->setContentsMargins(0, 0, 0, 0);
        name->setParent(nameBox);
        nameRow->addWidget(name);
        nameRow->addWidget(new InfoIcon(Term::Path, nameBox));
        nameRow->addStretch();
        m_summaryLayout->addRow(nameBox, text);
    };
    add(QStringLiteral("archive"), tr("Archive"),
        tr("%1 (cuDNN %2 for CUDA %3)")
            .arg(QFileInfo(archive.path).fileName(), archive.cudnn.toString(),
                 archive.cudaVariant.isEmpty() ? tr("unknown") : archive.cudaVariant));
    QString kind;
    switch (target.kind) {
    case InstallTarget::Kind::CudaToolkit:
        kind = tr("the CUDA %1 toolkit").arg(target.toolkitVersion.truncated(2).toString());
        break;
    case InstallTarget::Kind::Folder:
        kind = tr("a folder of its own");
        break;
    case InstallTarget::Kind::UserFolder:
        kind = tr("a folder for you only");
        break;
    case InstallTarget::Kind::Conda:
        kind = tr("a conda environment");
        break;
    case InstallTarget::Kind::Venv:
        kind = tr("a Python virtual environment");
        break;
    case InstallTarget::Kind::App:
        kind = tr("the folder of one program");
        break;
    }
    add(QStringLiteral("into"), tr("Into"), tr("%1, %2").arg(kind, target.root));
    add(QStringLiteral("dlls"), tr("DLLs in"), target.dllFolder());
    if (target.kind == InstallTarget::Kind::Venv)
        add(QStringLiteral("pth"), tr("How programs find it"), target.pthFile());
    add(QStringLiteral("path"), tr("PATH"),
        target.pathScope == PathScope::System ? tr("%1 added to the system PATH").arg(target.dllFolder())
        : target.pathScope == PathScope::User ? tr("%1 added to your PATH").arg(target.dllFolder())
                                              : tr("Not changed"));
    const QList<PathFix> &fixes = m_session->pathFixes();
    if (!fixes.isEmpty() && target.pathScope != PathScope::None) {
        // Chosen on the Target page among the clean-ups offered; done in the same write as ours.
        QStringList chosen;
        for (const PathFix &fix : fixes)
            chosen.append(fix.action == PathFix::Action::Remove
                              ? tr("Remove %1").arg(fix.entry)
                              : tr("Move %1 behind the cuDNN folder").arg(fix.entry));
        add(QStringLiteral("cleanup"), tr("PATH clean-up"), chosen.join(QLatin1Char('\n')));
    }
    const std::optional<EnvironmentScope> variables = m_session->cudnnVariables();
    add(QStringLiteral("variables"), tr("Variables"),
        !variables ? tr("CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY not set")
        : *variables == EnvironmentScope::System
            ? tr("CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for all users")
            : tr("CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY set for you"));
    // Once installed, "Needed" would read as a request still open.
    add(QStringLiteral("admin"), tr("Administrator"),
        !target.needsAdmin(m_session->context()) ? tr("Not needed")
        : done                                   ? tr("Used for this install")
                                                 : tr("Needed"));
}

void InstallPage::showOutcome()
{
    const bool installing = isInstalling();
    const bool hasOutcome = m_session->hasInstallOutcome();
    const bool done = hasOutcome && m_session->installOutcome().succeeded();
    // The wizard's commit button is the action: Install, then Verify; Finish once installed.
    setButtonText(QWizard::CommitButton, done ? tr("&Verify >") : tr("&Install"));
    setFinalPage(done);
    // Programs hold files it would replace: close them and press Install again, or replace the
    // files all the same (those programs keep the old ones until they restart).
    const bool inUse = !installing && hasOutcome &&
                       std::any_of(m_session->installOutcome().findings.cbegin(),
                                   m_session->installOutcome().findings.cend(), [](const Finding &finding) {
                                       return finding.id == QLatin1String("install.files-in-use");
                                   });
    m_replaceInUse->setVisible(inUse);
    m_progress->setVisible(installing);
    m_cancel->setVisible(installing);
    m_cancel->setEnabled(installing && !m_job->isCancelling());
    m_step->setVisible(installing);
    m_eta->setVisible(installing);
    m_result->setVisible(!installing);
    if (installing || !hasOutcome) {
        m_result->setPending(
            tr("Press Install to put cuDNN in place. It takes a minute or two; you can cancel "
               "until the end, and then nothing is changed."));
        m_receipt->hide();
        m_restartTitle->hide();
        m_restart->hide();
        m_findings->clear();
        m_findingsTitle->hide();
        return;
    }
    const ChangeOutcome &outcome = m_session->installOutcome();
    showResult(outcome);
    showReceipt(outcome);
    showRestartHints(outcome);
    m_findings->setFindings(outcome.findings);
    m_findingsTitle->setVisible(!outcome.findings.isEmpty());
}

void InstallPage::showResult(const ChangeOutcome &outcome)
{
    const QString version = m_session->hasArchive() ? m_session->archive().cudnn.toString() : QString();
    const QString root = m_session->hasTarget() ? m_session->target().root : QString();
    Status status = Status::Error;
    QString text;
    switch (outcome.status) {
    case ChangeOutcome::Status::Done:
    case ChangeOutcome::Status::DryRun:
        status = Status::Ok;
        text = tr("cuDNN %1 is installed in %2.").arg(version, root);
        break;
    case ChangeOutcome::Status::DoneRestartNeeded:
        status = Status::Warning;
        text = tr("cuDNN %1 is installed in %2, but some of the files it replaces are in use: Windows puts "
                  "them in place when it next starts. Restart the computer before you use cuDNN.")
                   .arg(version, root);
        break;
    case ChangeOutcome::Status::AlreadyDone:
        status = Status::Ok;
        text = tr("cuDNN %1 was already installed in %2, intact: nothing was changed.").arg(version, root);
        break;
    case ChangeOutcome::Status::Cancelled:
        status = Status::Warning;
        text = tr("The installation was cancelled. Everything it had done was undone: nothing was changed.");
        break;
    case ChangeOutcome::Status::Busy:
        text =
            tr("Another installation of cuDNN is running, so this one did not start: nothing was changed.");
        break;
    case ChangeOutcome::Status::Failed:
    case ChangeOutcome::Status::Crashed:
        text = tr("The installation failed. Everything it had done was undone: nothing was changed.");
        break;
    }
    m_result->setSummary(status, text);
}

void InstallPage::showReceipt(const ChangeOutcome &outcome)
{
    const bool succeededNow = outcome.succeeded();
    m_receipt->setVisible(succeededNow && outcome.receipt);
    // Where the receipt is, as the installed system names it (under --system-root, inside its tree).
    const QString systemPath = m_session->context().files().fromHost(outcome.receiptPath);
    const QString receiptPath =
        systemPath.isEmpty() ? QDir::toNativeSeparators(outcome.receiptPath) : systemPath;
    if (outcome.receipt) {
        // Ids and JSON paths are for the command line, the logs and support: in the tooltip.
        m_receipt->setText(
            tr("A record of every file and change is kept, so that Uninstall can undo exactly this "
               "install."));
        m_receipt->setToolTip(tr("Receipt %1, kept in %2").arg(outcome.receipt->id, receiptPath));
    }
}

// PATH or variables changed: programs already running keep the environment they started with.
void InstallPage::showRestartHints(const ChangeOutcome &outcome)
{
    const bool environmentChanged = outcome.changedEnvironment();
    m_restartTitle->setVisible(environmentChanged);
    m_restart->setVisible(environmentChanged);
    if (environmentChanged) {
        m_restartTitle->setText(
            tr("Programs that are already running keep the PATH and variables they started "
               "with. Restart these to see the new ones; programs started from now on see "
               "them at once:"));
        QStringList items;
        for (const RestartHint &hint : programsToRestart(m_running))
            items.append(
                QStringLiteral("<li>%1</li>")
                    .arg((hint.running ? tr("%1 (running now)").arg(hint.name) : hint.name).toHtmlEscaped()));
        m_restart->setText(QStringLiteral("<ul style=\"margin-top:0px; margin-bottom:0px\">%1</ul>")
                               .arg(items.join(QString())));
        m_restart->setAccessibleName(m_restartTitle->text());
    }
}

QList<InstallPage::RestartHint> InstallPage::programsToRestart(const QStringList &running)
{
    QList<RestartHint> hints;
    QList<RestartHint> idle;
    for (const KnownProgram &program : knownPrograms()) {
        const bool seen =
            std::any_of(program.executables.cbegin(), program.executables.cend(),
                        [&](const QString &name) { return running.contains(name, Qt::CaseInsensitive); });
        const RestartHint hint{tr(program.name), seen};
        (seen ? hints : idle).append(hint);
    }
    // The running ones first: those are the ones that need it now.
    return hints + idle;
}

void InstallPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void InstallPage::retranslate()
{
    setTitle(tr("Install"));
    setSubTitle(tr("cuDNN is put in place as one step: if anything goes wrong, or you cancel, everything is "
                   "undone."));
    m_summary->setAccessibleName(tr("What will be done"));
    m_replaceInUse->setText(tr("&Replace them anyway"));
    m_replaceInUse->setToolTip(
        tr("The new files take their place now, for every program started from now on; "
           "the programs that hold the old ones keep them until they are restarted."));
    m_cancel->setText(tr("Cancel installation"));
    m_progress->setAccessibleName(tr("Installation progress"));
    m_findingsTitle->setText(tr("Findings"));
    m_findings->setAccessibleName(tr("Findings"));
    showSummary();
    if (!isInstalling())
        showOutcome();
}

} // namespace cudnnsetup::wizard
