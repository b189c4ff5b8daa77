#include "TargetPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "common/Sizes.h"
#include "session/SetupSession.h"
#include "session/TargetCheckJob.h"
#include "session/TargetConfig.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSet>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cudnnsetup::wizard {

namespace {

// How long typing in the folder field pauses before the folder is checked (a write test).
constexpr int kTypingPauseMs = 400;
// Rows of PATH shown: as many as it has, within these bounds; beyond them the lists scroll.
constexpr int kLeastPathRows = 3;
constexpr int kMostPathRows = 8;

QLabel *wrappedLabel(QWidget *parent, const QString &name = {})
{
    auto label = new QLabel(parent);
    label->setWordWrap(true);
    if (!name.isEmpty())
        label->setObjectName(name);
    return label;
}

// A scroll area that fits its content again whenever the content's layout changes. QScrollArea
// sizes a resizable widget by its height for the width it gets (word-wrapped labels) only when it
// is resized or told of a layout change; a label that gets a longer text tells only the content.
class FittingScrollArea final : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            QCoreApplication::postEvent(this, new QEvent(QEvent::LayoutRequest));
        return QScrollArea::eventFilter(watched, event);
    }
};

} // namespace

TargetPage::TargetPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("targetPage"));

    // The choices, PATH and its preview take more room than a page has: the page scrolls.
    auto content = new QWidget;
    auto layout = new QVBoxLayout(content);
    QFont bold = font();
    bold.setBold(true);

    m_choicesTitle = new QLabel(content);
    m_choicesTitle->setFont(bold);
    m_choicesLayout = new QVBoxLayout;
    m_choicesLayout->setSpacing(2);
    m_choiceGroup = new QButtonGroup(this);
    connect(m_choiceGroup, &QButtonGroup::idClicked, this, [this](int id) { select(id, std::nullopt); });

    m_folderRow = new QWidget(content);
    m_folder = new QLineEdit(m_folderRow);
    m_folder->setObjectName(QStringLiteral("folderEdit"));
    m_browse = new QPushButton(m_folderRow);
    m_browse->setObjectName(QStringLiteral("browseFolderButton"));
    auto folderLayout = new QHBoxLayout(m_folderRow);
    folderLayout->setContentsMargins(24, 0, 0, 0);
    folderLayout->addWidget(m_folder, 1);
    folderLayout->addWidget(m_browse);
    m_typing = new QTimer(this);
    m_typing->setSingleShot(true);
    m_typing->setInterval(kTypingPauseMs);
    connect(m_typing, &QTimer::timeout, this, &TargetPage::refresh);
    connect(m_folder, &QLineEdit::textEdited, this, [this] {
        m_typing->start();
        Q_EMIT completeChanged();
    });
    connect(m_folder, &QLineEdit::editingFinished, this, [this] {
        if (m_typing->isActive())
            refreshNow();
    });
    connect(m_browse, &QPushButton::clicked, this, &TargetPage::browse);

    m_pathTitle = new QLabel(content);
    m_pathTitle->setFont(bold);
    m_pathNone = new QRadioButton(content);
    m_pathNone->setObjectName(QStringLiteral("pathNone"));
    m_pathUser = new QRadioButton(content);
    m_pathUser->setObjectName(QStringLiteral("pathUser"));
    m_pathSystem = new QRadioButton(content);
    m_pathSystem->setObjectName(QStringLiteral("pathSystem"));
    auto scopeGroup = new QButtonGroup(this);
    scopeGroup->addButton(m_pathNone, int(PathScope::None));
    scopeGroup->addButton(m_pathUser, int(PathScope::User));
    scopeGroup->addButton(m_pathSystem, int(PathScope::System));
    connect(scopeGroup, &QButtonGroup::idClicked, this, [this](int id) {
        m_config.setPathScope(PathScope(id));
        refresh();
    });
    auto scopeRow = new QHBoxLayout;
    scopeRow->addWidget(m_pathNone);
    scopeRow->addWidget(m_pathUser);
    scopeRow->addWidget(m_pathSystem);
    scopeRow->addStretch();
    m_pathNote = wrappedLabel(content, QStringLiteral("pathNote"));

    m_variables = new QCheckBox(content);
    m_variables->setObjectName(QStringLiteral("cudnnVariablesCheck"));
    connect(m_variables, &QCheckBox::toggled, this, [this] { refresh(); });
    m_variablesNote = wrappedLabel(content, QStringLiteral("variablesNote"));
    m_variablesNote->setContentsMargins(24, 0, 0, 0);
    makeSecondaryText(m_variablesNote);

    m_space = wrappedLabel(content, QStringLiteral("spaceLabel"));

    m_findingsTitle = new QLabel(content);
    m_findingsTitle->setFont(bold);
    m_findingsView = new FindingsView(content);

    // PATH now and after, side by side, and what in it works against ours.
    m_preview = new QWidget(content);
    m_preview->setObjectName(QStringLiteral("pathPreview"));
    m_beforeTitle = new QLabel(m_preview);
    m_afterTitle = new QLabel(m_preview);
    const auto makeList = [this](const QString &name) {
        // One column that fits the view: a long folder is cut in its middle, its whole text in
        // the tooltip.
        auto list = new QTreeWidget(m_preview);
        list->setObjectName(name);
        list->setColumnCount(1);
        list->setHeaderHidden(true);
        list->setRootIsDecorated(false);
        list->setSelectionMode(QAbstractItemView::NoSelection);
        list->setFocusPolicy(Qt::TabFocus);
        list->setIconSize(QSize(16, 16));
        list->setTextElideMode(Qt::ElideMiddle);
        list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        return list;
    };
    m_before = makeList(QStringLiteral("pathBefore"));
    m_after = makeList(QStringLiteral("pathAfter"));
    auto arrow = new QLabel(QStringLiteral("→"), m_preview);
    arrow->setAlignment(Qt::AlignCenter);
    auto lists = new QGridLayout;
    lists->addWidget(m_beforeTitle, 0, 0);
    lists->addWidget(m_afterTitle, 0, 2);
    lists->addWidget(m_before, 1, 0);
    lists->addWidget(arrow, 1, 1);
    lists->addWidget(m_after, 1, 2);
    lists->setColumnStretch(0, 1);
    lists->setColumnStretch(2, 1);
    m_problems = new QWidget(m_preview);
    m_problems->setObjectName(QStringLiteral("pathProblems"));
    m_problemsLayout = new QVBoxLayout(m_problems);
    m_problemsLayout->setContentsMargins(0, 0, 0, 0);
    auto previewLayout = new QVBoxLayout(m_preview);
    previewLayout->setContentsMargins(0, 0, 0, 0);
    previewLayout->addLayout(lists);
    previewLayout->addWidget(m_problems);

    m_advancedToggle = new QToolButton(content);
    m_advancedToggle->setObjectName(QStringLiteral("advancedToggle"));
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setAutoRaise(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    m_advanced = new QWidget(content);
    m_advanced->setObjectName(QStringLiteral("advancedSection"));
    auto advancedLayout = new QVBoxLayout(m_advanced);
    advancedLayout->setContentsMargins(0, 0, 0, 0);
    advancedLayout->addWidget(m_preview);
    advancedLayout->addWidget(m_variables);
    advancedLayout->addWidget(m_variablesNote);
    m_advanced->hide();
    connect(m_advancedToggle, &QToolButton::toggled, this, [this](bool open) {
        m_advancedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_advanced->setVisible(open);
    });

    layout->addWidget(m_choicesTitle);
    layout->addLayout(m_choicesLayout);
    layout->addSpacing(6);
    auto pathTitle = new QHBoxLayout;
    pathTitle->addWidget(m_pathTitle);
    pathTitle->addWidget(new InfoIcon(Term::Path, content));
    pathTitle->addStretch();
    layout->addLayout(pathTitle);
    layout->addLayout(scopeRow);
    layout->addWidget(m_pathNote);
    layout->addSpacing(6);
    layout->addWidget(m_space);
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findingsView);
    layout->addWidget(m_advancedToggle);
    layout->addWidget(m_advanced);
    layout->addStretch(1);

    auto scroll = new FittingScrollArea(this);
    scroll->setObjectName(QStringLiteral("targetScroll"));
    // Tab goes to the controls inside, and the area scrolls to show each: the page as a whole is
    // no stop of its own (one without a name to speak).
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto pageLayout = new QVBoxLayout(this);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(scroll);

    retranslate();
}

void TargetPage::initializePage()
{
    // Back here from the Install page, the configuration as the user left it; else what the wizard
    // recommends.
    const std::optional<InstallTarget> kept =
        m_session->hasTarget() ? std::optional(m_session->target()) : std::nullopt;
    // The session keeps the variables and the PATH fixes with the target: the same target chosen
    // again keeps them.
    m_config = m_session->targetConfig().value_or(TargetConfig());
    const bool variables = m_config.variablesWanted();
    m_config.setProgram(m_session->program());
    if (m_session->hasSnapshot() && m_session->hasArchive())
        m_config.setFacts(m_session->snapshot(), m_session->archive(), m_session->context(),
                          m_session->database().database, m_session->persistentEnvironment());
    buildChoices();
    const std::optional<InstallTarget> proposed = kept ? kept : m_config.proposed();
    m_recommended = m_config.choiceOf(m_config.proposed());
    const int index = std::max(m_config.choiceOf(proposed), 0);
    {
        const QSignalBlocker blocker(m_variables);
        m_variables->setChecked(variables);
    }
    select(index, proposed);
}

void TargetPage::buildChoices()
{
    for (Choice &choice : m_choices) {
        m_choiceGroup->removeButton(choice.button);
        delete choice.button;
        delete choice.details;
    }
    m_choices.clear();
    m_choicesLayout->removeWidget(m_folderRow);
    int counts[6] = {};
    for (const TargetChoice &offered : m_config.choices()) {
        const InstallTarget::Kind kind = offered.selection.kind;
        InstallTarget named;
        named.kind = kind;
        const QString name = QStringLiteral("target-") + named.kindName();
        const int number = counts[int(kind)]++;
        const bool single = kind == InstallTarget::Kind::Folder || kind == InstallTarget::Kind::UserFolder;
        Choice choice;
        choice.button = new QRadioButton(m_choicesTitle->parentWidget());
        choice.button->setObjectName(single ? name : name + QLatin1Char('-') + QString::number(number));
        choice.details = wrappedLabel(m_choicesTitle->parentWidget());
        choice.details->setObjectName(choice.button->objectName() + QStringLiteral("-details"));
        choice.details->setContentsMargins(24, 0, 0, 4);
        makeSecondaryText(choice.details);
        choice.details->setTextFormat(Qt::RichText);
        m_choiceGroup->addButton(choice.button, int(m_choices.size()));
        m_choicesLayout->addWidget(choice.button);
        if (kind == InstallTarget::Kind::Folder)
            m_choicesLayout->addWidget(m_folderRow);
        m_choicesLayout->addWidget(choice.details);
        m_choices.append(choice);
    }
    m_folder->setText(m_config.folder());
    updateTexts();
}

const TargetChoice *TargetPage::current() const
{
    const int index = m_config.chosen();
    return index >= 0 && index < m_config.choices().size() ? &m_config.choices().at(index) : nullptr;
}

void TargetPage::select(int index, const std::optional<InstallTarget> &proposed)
{
    if (index < 0 || index >= m_choices.size())
        return;
    const InstallTarget::Kind kind = m_config.choices().at(index).selection.kind;
    m_choices.at(index).button->setChecked(true);
    if (proposed && proposed->kind == kind && kind == InstallTarget::Kind::Folder) {
        m_folder->setText(proposed->root);
        m_config.setFolder(proposed->root);
    }
    m_config.choose(index,
                    proposed && proposed->kind == kind ? std::optional(proposed->pathScope) : std::nullopt);
    m_folder->setEnabled(kind == InstallTarget::Kind::Folder);
    m_browse->setEnabled(kind == InstallTarget::Kind::Folder);
    refresh();
}

void TargetPage::refreshNow()
{
    m_typing->stop();
    refresh();
}

void TargetPage::refresh()
{
    m_typing->stop();
    m_checkFindings.clear();
    m_freeBytes.reset();
    if (m_check) {
        // What the old check still reports is not about the target chosen now.
        disconnect(m_check, nullptr, this, nullptr);
        m_check->deleteLater();
        m_check = nullptr;
    }
    m_config.setFolder(m_folder->text());
    m_config.setVariablesWanted(m_variables->isChecked());
    if (!current()) {
        m_session->setTargetConfig(m_config);
        updateTexts();
        Q_EMIT completeChanged();
        return;
    }
    if (!m_config.isReady()) {
        m_checkFindings = m_config.findings();
    } else {
        ChangeOptions planned;
        planned.cudnnVariables = m_config.cudnnVariables();
        // The folder's write test runs off this thread: a slow share does not freeze the page.
        m_check =
            new TargetCheckJob(m_config.target(), m_session->archive(), m_session->context(), planned, this);
        connect(m_check, &TargetCheckJob::checked, this, [this](const Findings &findings, qint64 freeBytes) {
            m_checkFindings = findings;
            m_freeBytes = freeBytes;
            m_check->deleteLater();
            m_check = nullptr;
            showSpace();
            showPreview();
            Q_EMIT completeChanged();
        });
        m_check->start();
    }
    refreshPath();
    updateTexts();
    Q_EMIT completeChanged();
}

void TargetPage::refreshPath()
{
    m_fixes.clear();
    m_problemTexts.clear();
    m_systemTitle = nullptr;
    while (QLayoutItem *item = m_problemsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_config.analysePath();

    const auto addProblem = [this](const PathProblem &problem, bool offerFixes) {
        auto row = new QWidget(m_problems);
        auto icon = new QLabel(row);
        icon->setPixmap(statusIcon(statusFor(problem.finding.severity)).pixmap(kRowIconSize, kRowIconSize));
        auto text = wrappedLabel(row, problem.finding.id);
        text->setText(breakablePath(problem.finding.message.toString()));
        text->setAccessibleName(problem.finding.message.toString());
        m_problemTexts.append({text, problem.finding});
        text->setToolTip(detailsTip(problem.finding.details));
        auto column = new QVBoxLayout;
        column->addWidget(text);
        QList<QCheckBox *> boxes;
        for (const PathFix &fix : problem.fixes) {
            if (!offerFixes)
                break;
            auto box = new QCheckBox(row);
            box->setObjectName(QStringLiteral("pathFix-%1-%2")
                                   .arg(fix.action == PathFix::Action::Remove ? QStringLiteral("remove")
                                                                              : QStringLiteral("move"))
                                   .arg(fix.index));
            box->setText(fixText(fix.action));
            // The ticks of this PATH's fixes, as the configuration kept them for the same PATH.
            box->setChecked(m_config.pathFixes().contains(fix));
            column->addWidget(box);
            boxes.append(box);
            m_fixes.append({fix, box});
        }
        for (QCheckBox *box : boxes) {
            // Of one entry's fixes one at most: it is moved or removed, not both.
            connect(box, &QCheckBox::toggled, this, [this, box, boxes](bool checked) {
                if (checked) {
                    for (QCheckBox *other : boxes) {
                        if (other != box)
                            other->setChecked(false);
                    }
                }
                m_config.setPathFixes(chosenFixes());
                m_session->setTargetConfig(m_config);
                showPreview();
                Q_EMIT completeChanged();
            });
        }
        auto rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 2, 0, 2);
        rowLayout->addWidget(icon, 0, Qt::AlignTop);
        rowLayout->addLayout(column, 1);
        m_problemsLayout->addWidget(row);
    };
    for (const PathProblem &problem : m_config.pathAnalysis().problems)
        addProblem(problem, true);
    // The system PATH comes before the user's in every new program: shown, not offered for change.
    for (PathProblem problem : m_config.systemPathProblems()) {
        if (!m_systemTitle) {
            m_systemTitle = wrappedLabel(m_problems, QStringLiteral("systemPathTitle"));
            m_systemTitle->setText(systemPathTitle());
            m_problemsLayout->addWidget(m_systemTitle);
        }
        problem.finding.id = QStringLiteral("system-") + problem.finding.id;
        // Nothing on this page changes the system PATH: a note, not a warning.
        problem.finding.severity = Severity::Info;
        addProblem(problem, false);
    }
    m_session->setTargetConfig(m_config);
    showPreview();
}

QString TargetPage::fixText(PathFix::Action action)
{
    return action == PathFix::Action::Remove ? tr("Remove it from PATH")
                                             : tr("Move it behind the cuDNN folder");
}

QString TargetPage::systemPathTitle()
{
    return tr("In the system PATH, which Windows puts before yours:");
}

QList<PathFix> TargetPage::chosenFixes() const
{
    QList<PathFix> fixes;
    for (const FixBox &fix : m_fixes) {
        if (fix.box->isChecked())
            fixes.append(fix.fix);
    }
    return fixes;
}

void TargetPage::showPreview()
{
    m_before->clear();
    m_after->clear();
    // The target's checks, then what reading PATH found (each once), then what the preview finds.
    m_findings = m_checkFindings;
    for (const Finding &finding : m_config.pathFindings()) {
        if (std::none_of(m_findings.cbegin(), m_findings.cend(), [&](const Finding &f) {
                return f.id == finding.id && f.details == finding.details;
            }))
            m_findings.append(finding);
    }
    const bool shown = m_config.changesPath();
    m_preview->setVisible(shown);
    const Expected<PathPreview> preview = m_config.pathPreview();
    if (!shown || !preview) {
        if (!preview)
            m_findings.append(preview.error());
        m_findingsView->setFindings(m_findings);
        m_findingsTitle->setVisible(!m_findings.isEmpty());
        return;
    }
    const QString ours = m_config.target().dllFolder();
    const PathEditor pathEditor =
        m_config.pathEditor(m_config.target().pathScope == PathScope::System ? EnvironmentScope::Machine
                                                                             : EnvironmentScope::User);
    const QList<PathFix> &fixes = m_config.pathFixes();

    QSet<QString> removed;
    QSet<QString> moved;
    for (const PathFix &fix : fixes)
        (fix.action == PathFix::Action::Remove ? removed : moved).insert(fix.entry);
    QHash<QString, Severity> problems;
    for (const PathProblem &problem : m_config.pathAnalysis().problems)
        problems.insert(problem.entry, problem.finding.severity);
    QColor highlight = palette().color(QPalette::Highlight);
    highlight.setAlpha(60);
    const auto markOurs = [&](QTreeWidgetItem *item) {
        QFont font = item->font(0);
        font.setBold(true);
        item->setFont(0, font);
        item->setBackground(0, highlight);
        item->setIcon(0, statusIcon(Status::Ok));
        item->setToolTip(0, tr("The folder that holds the cuDNN DLLs: %1").arg(item->text(0)));
        item->setData(0, Qt::UserRole, true);
    };
    bool oursSeen = false;
    for (const QString &entry : preview->before) {
        auto item = new QTreeWidgetItem(m_before, {entry});
        item->setToolTip(0, entry);
        if (!oursSeen && pathEditor.sameEntry(entry, ours)) {
            markOurs(item);
            oursSeen = true;
        } else if (problems.contains(entry)) {
            item->setIcon(0, statusIcon(statusFor(problems.value(entry))));
        }
        if (removed.contains(entry) || moved.contains(entry)) {
            QFont font = item->font(0);
            font.setStrikeOut(removed.contains(entry));
            font.setItalic(moved.contains(entry));
            item->setFont(0, font);
        }
    }
    oursSeen = false;
    for (const QString &entry : preview->after) {
        auto item = new QTreeWidgetItem(m_after, {entry});
        item->setToolTip(0, entry);
        if (!oursSeen && pathEditor.sameEntry(entry, ours)) {
            markOurs(item);
            oursSeen = true;
            m_after->scrollToItem(item);
        } else if (problems.contains(entry) && !moved.contains(entry)) {
            item->setIcon(0, statusIcon(statusFor(problems.value(entry))));
        }
    }
    const int rows = std::clamp(int(std::max(preview->before.size(), preview->after.size())), kLeastPathRows,
                                kMostPathRows);
    for (QTreeWidget *list : {m_before, m_after}) {
        const int row = std::max(list->fontMetrics().height(), list->iconSize().height()) + 4;
        list->setFixedHeight(rows * row + 2 * list->frameWidth());
    }
    // What the edited PATH would be as a whole: too long for Windows' own tools, or for Windows.
    m_findings += m_config.pathLengthWarnings();
    m_findingsView->setFindings(m_findings);
    m_findingsTitle->setVisible(!m_findings.isEmpty());
}

void TargetPage::browse()
{
    const FileSystem &files = m_session->context().files();
    QString start = files.toHost(m_folder->text().trimmed());
    while (!start.isEmpty() && !QFileInfo(start).isDir() && QFileInfo(start).absolutePath() != start)
        start = QFileInfo(start).absolutePath();
    const QString chosen = QFileDialog::getExistingDirectory(this, tr("Choose the folder for cuDNN"), start);
    if (chosen.isEmpty())
        return;
    const QString system = files.fromHost(chosen);
    m_folder->setText(system.isEmpty() ? QDir::toNativeSeparators(chosen) : system);
    refreshNow();
}

bool TargetPage::isComplete() const
{
    return m_config.isReady() && !m_typing->isActive() && !isChecking() && !hasErrors(m_findings);
}

void TargetPage::updateTexts()
{
    for (int index = 0; index < m_choices.size(); ++index) {
        const Choice &choice = m_choices.at(index);
        const TargetChoice &offered = m_config.choices().at(index);
        QString title;
        QString explanation;
        switch (offered.selection.kind) {
        case InstallTarget::Kind::CudaToolkit:
            title = tr("Into the CUDA %1 toolkit (what the common tutorials do)").arg(offered.name);
            explanation = tr("For building programs with this toolkit (nvcc, CMake, Visual Studio): cuDNN "
                             "goes beside CUDA's own files.");
            break;
        case InstallTarget::Kind::Folder:
            title = tr("Into a folder of its own");
            explanation = tr("Keeps cuDNN apart from CUDA, so it can be updated or removed on its own; for "
                             "every user of this computer.");
            break;
        case InstallTarget::Kind::UserFolder:
            title = tr("Into a folder for you only");
            explanation = tr("Only for your user account, in your own profile: for when you cannot or do not "
                             "want to change the whole computer.");
            break;
        case InstallTarget::Kind::Conda:
            title = tr("Into the conda environment %1").arg(offered.name);
            explanation = tr("Only for programs run in this conda environment, such as the PyTorch or "
                             "TensorFlow installed in it.");
            break;
        case InstallTarget::Kind::Venv:
            title = tr("Into the Python virtual environment %1").arg(offered.name);
            explanation = tr("Only for Python in this virtual environment: a .pth file tells Python where "
                             "cuDNN is, whatever PATH says.");
            break;
        case InstallTarget::Kind::App:
            title = tr("Only for this program (%1)").arg(offered.name);
            explanation = tr("Only for this program: its libraries go into its own folder, where it looks "
                             "first; PATH is not changed.");
            break;
        }
        // Whether an administrator is needed, judged by where the files go (and, for the choice in
        // use, by the PATH it changes).
        const QString admin = m_config.choiceNeedsAdmin(index) ? tr("Needs administrator rights.")
                                                               : tr("No administrator rights needed.");
        const bool recommended = index == m_recommended;
        choice.button->setText(recommended ? tr("%1 — recommended").arg(title) : title);
        QStringList lines;
        if (recommended)
            lines.append(QStringLiteral("<b>%1</b>")
                             .arg(recommendationReason(offered.selection.kind).toHtmlEscaped()));
        // The folder on a line of its own, broken between folders when it does not fit.
        if (!offered.where.isEmpty())
            lines.append(breakablePath(offered.where).toHtmlEscaped());
        // What it is for: spelled out for the choice made (a small screen shows every choice at
        // once), in the tooltip of the others.
        const QString purpose = tr("%1 %2", "what a choice is for, then whether it needs an administrator")
                                    .arg(explanation, admin);
        if (choice.button->isChecked())
            lines.append(purpose.toHtmlEscaped());
        choice.button->setToolTip(purpose);
        choice.details->setText(lines.join(QStringLiteral("<br>")));
        choice.details->setVisible(!lines.isEmpty()); // a folder of its own shows its folder in the field
        choice.details->setAccessibleName(choice.details->text());
    }

    // PATH: what can be chosen, and why not where it cannot.
    const TargetChoice *choice = current();
    const QList<PathScope> offered = m_config.offeredPathScopes();
    const bool changeable = m_config.environmentChangeable();
    const bool choosable = offered.size() > 1;
    m_pathNone->setVisible(choosable);
    m_pathUser->setVisible(choosable && offered.contains(PathScope::User));
    m_pathSystem->setVisible(choosable && offered.contains(PathScope::System));
    const PathScope scope = m_config.pathScope().value_or(PathScope::None);
    (scope == PathScope::System ? m_pathSystem
     : scope == PathScope::User ? m_pathUser
                                : m_pathNone)
        ->setChecked(true);
    QString note;
    if (!changeable)
        note = tr("This setup changes PATH and environment variables only on the Windows it runs on, not "
                  "on Linux nor on a system given with --system-root: cuDNN is installed without them.");
    else if (!choice)
        note.clear();
    else if (choice->selection.kind == InstallTarget::Kind::CudaToolkit)
        note = tr("PATH stays as it is: CUDA's installer put this toolkit's DLL folder on it.");
    else if (choice->selection.kind == InstallTarget::Kind::Conda)
        note = tr("PATH stays as it is: conda puts the environment's Library\\bin on it when the environment "
                  "is activated.");
    else if (choice->selection.kind == InstallTarget::Kind::Venv)
        note = tr("PATH stays as it is: Python 3.8 and later do not use it to find DLLs; the .pth file "
                  "tells Python where cuDNN is.");
    else if (scope == PathScope::None)
        note = tr("Without a PATH entry, only programs you point at the folder yourself find cuDNN.");
    else if (m_config.isReady())
        note =
            scope == PathScope::System
                ? tr("%1 is added at the front of the system PATH (for all users), so programs started from "
                     "now on load this cuDNN.")
                      .arg(m_config.target().dllFolder())
                : tr("%1 is added at the front of your own PATH, so programs started from now on load this "
                     "cuDNN.")
                      .arg(m_config.target().dllFolder());
    m_pathNote->setText(breakablePath(note));
    m_pathNote->setVisible(!note.isEmpty());

    m_variables->setEnabled(changeable && m_config.isReady());
    const std::optional<EnvironmentScope> variables = m_config.cudnnVariables();
    if (!changeable)
        m_variablesNote->setText(tr("Not available on this system."));
    else if (variables)
        m_variablesNote->setText(*variables == EnvironmentScope::Machine
                                     ? tr("For building OpenCV, ONNX Runtime or TensorFlow from source; set "
                                          "for all users.")
                                     : tr("For building OpenCV, ONNX Runtime or TensorFlow from source; set "
                                          "for you only."));
    else
        m_variablesNote->setText(tr("For building OpenCV, ONNX Runtime or TensorFlow from source."));
    updateAdvancedToggle();
    showSpace();
    showPreview();
}

void TargetPage::showSpace()
{
    if (!m_config.isReady()) {
        m_space->setVisible(false);
        return;
    }
    // The free space is the target check's answer, read off this thread; until it comes, the
    // line keeps its place, greyed.
    m_space->setEnabled(m_freeBytes.has_value());
    if (!m_freeBytes)
        return;
    const qint64 needed = m_config.requiredBytes();
    m_space->setText(
        *m_freeBytes < 0
            ? tr("Space: %1 needed; the free space on that drive could not be read.").arg(shownSize(needed))
            : tr("Space: %1 free on that drive, %2 needed.").arg(shownSize(*m_freeBytes), shownSize(needed)));
    m_space->setVisible(true);
}

QString TargetPage::recommendationReason(InstallTarget::Kind kind)
{
    switch (kind) {
    case InstallTarget::Kind::CudaToolkit:
        return tr("Why: CUDA programs and build tools already look for cuDNN there.");
    case InstallTarget::Kind::Folder:
        return tr("Why: there is no CUDA toolkit for this archive here, and a folder of its own is easy to "
                  "update or remove.");
    case InstallTarget::Kind::UserFolder:
        return tr("Why: it needs no administrator rights.");
    case InstallTarget::Kind::Conda:
    case InstallTarget::Kind::Venv:
        return tr("Why: the programs that use cuDNN here run in this environment.");
    case InstallTarget::Kind::App:
        return tr("Why: this program needs another cuDNN than the rest of the computer.");
    }
    return {};
}

void TargetPage::updateAdvancedToggle()
{
    // Folded, it still says when something in PATH deserves a look.
    const int problems = int(m_config.pathAnalysis().problems.size());
    m_advancedToggle->setText(
        problems > 0 ? tr("Advanced: PATH before and after, and %n thing(s) in it to look at", "", problems)
                     : tr("Advanced: PATH before and after, CUDNN_* variables"));
}

void TargetPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void TargetPage::retranslate()
{
    setTitle(tr("Where cuDNN goes"));
    setSubTitle(tr("Choose where the files go and how programs will find them. Nothing is changed until you "
                   "press Install on the next page."));
    m_choicesTitle->setText(tr("Install into"));
    m_folder->setAccessibleName(tr("Folder for cuDNN"));
    m_browse->setText(tr("&Browse…"));
    m_pathTitle->setText(tr("PATH"));
    m_pathNone->setText(tr("Leave PATH as it is"));
    m_pathUser->setText(tr("Add to my PATH"));
    m_pathSystem->setText(tr("Add to the system PATH"));
    m_variables->setText(tr("Also set CUDNN_PATH, CUDNN_INCLUDE_DIR and CUDNN_LIBRARY"));
    m_beforeTitle->setText(tr("PATH now"));
    m_afterTitle->setText(tr("PATH after the installation"));
    m_before->setAccessibleName(tr("PATH now"));
    m_after->setAccessibleName(tr("PATH after the installation"));
    m_findingsTitle->setText(tr("Findings"));
    m_findingsView->setAccessibleName(tr("Findings"));
    // Core's messages are translated when shown: the PATH analysis is worded again, not redone (the
    // page may be hidden, and PATH may have changed since, by the install itself).
    for (const auto &[label, finding] : std::as_const(m_problemTexts)) {
        label->setText(breakablePath(finding.message.toString()));
        label->setAccessibleName(finding.message.toString());
    }
    if (m_systemTitle)
        m_systemTitle->setText(systemPathTitle());
    for (const FixBox &fix : std::as_const(m_fixes))
        fix.box->setText(fixText(fix.fix.action));
    updateTexts();
}

} // namespace cudnnsetup::wizard
