// TargetPage's PATH: the problems reading it found, the clean-ups offered, and the preview of it
// before and after.
#include "TargetPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "session/SetupSession.h"
#include "session/TargetConfig.h"

#include <QCheckBox>
#include <QColor>
#include <QFont>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QPalette>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cudnnsetup::wizard {

namespace {

// Rows of PATH shown: as many as it has, within these bounds; beyond them the lists scroll.
constexpr int kLeastPathRows = 3;
constexpr int kMostPathRows = 8;

} // namespace

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
        m_config.pathEditor(environmentScopeOf(m_config.target().pathScope).value_or(EnvironmentScope::User));
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

} // namespace cudnnsetup::wizard
