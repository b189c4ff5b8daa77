#include "TargetPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "InfoIcon.h"
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
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
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

    // Tab goes through the widgets in the order they are made: these calls keep that order.
    buildChoiceGroup(content, bold);
    buildFolderRow(content);
    QHBoxLayout *scopeRow = buildPathScopes(content, bold);
    buildVariables(content);

    m_space = wrappedLabel(content, QStringLiteral("spaceLabel"));

    m_findingsTitle = new QLabel(content);
    m_findingsTitle->setFont(bold);
    m_findingsView = new FindingsView(content);

    buildPathPreview(content);
    buildAdvancedSection(content);
    layOutContent(content, layout, scopeRow);
    showInScrollArea(content);

    retranslate();
}

QLabel *TargetPage::wrappedLabel(QWidget *parent, const QString &name)
{
    auto label = new QLabel(parent);
    label->setWordWrap(true);
    if (!name.isEmpty())
        label->setObjectName(name);
    return label;
}

void TargetPage::buildChoiceGroup(QWidget *content, const QFont &bold)
{
    m_choicesTitle = new QLabel(content);
    m_choicesTitle->setFont(bold);
    m_choicesLayout = new QVBoxLayout;
    m_choicesLayout->setSpacing(2);
    m_choiceGroup = new QButtonGroup(this);
    connect(m_choiceGroup, &QButtonGroup::idClicked, this, [this](int id) { select(id, std::nullopt); });
}

void TargetPage::buildFolderRow(QWidget *content)
{
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
}

QHBoxLayout *TargetPage::buildPathScopes(QWidget *content, const QFont &bold)
{
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
    return scopeRow;
}

void TargetPage::buildVariables(QWidget *content)
{
    m_variables = new QCheckBox(content);
    m_variables->setObjectName(QStringLiteral("cudnnVariablesCheck"));
    connect(m_variables, &QCheckBox::toggled, this, [this] { refresh(); });
    m_variablesNote = wrappedLabel(content, QStringLiteral("variablesNote"));
    m_variablesNote->setContentsMargins(24, 0, 0, 0);
    makeSecondaryText(m_variablesNote);
}

// PATH now and after, side by side, and what in it works against ours.
void TargetPage::buildPathPreview(QWidget *content)
{
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
}

void TargetPage::buildAdvancedSection(QWidget *content)
{
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
}

void TargetPage::layOutContent(QWidget *content, QVBoxLayout *layout, QHBoxLayout *scopeRow)
{
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
}

void TargetPage::showInScrollArea(QWidget *content)
{
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

} // namespace cudnnsetup::wizard
