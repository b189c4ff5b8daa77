#pragma once

#include "common/Finding.h"
#include "install/InstallTarget.h"
#include "install/PathEditor.h"
#include "session/TargetConfig.h"

#include <QList>
#include <QWizardPage>

#include <optional>
#include <utility>

class QButtonGroup;
class QCheckBox;
class QFont;
class QHBoxLayout;
class QToolButton;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTimer;
class QTreeWidget;
class QVBoxLayout;
class QWidget;

namespace cudnnsetup {
class TargetCheckJob;
class SetupSession;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;

// Where cuDNN goes: the places this computer offers (the CUDA toolkit of the archive's major, a
// folder of its own, a per-user folder, the conda envs and venvs detection found), each with who it
// is for and whether it needs an administrator; the one core proposes chosen first. Then how
// programs find it (PATH, previewed entry by entry, with the stale entries it could clean up
// offered, never forced, and the CUDNN_* variables), the space it needs, and core's checks of the
// target: an error keeps the user here. Every choice is committed into the session as it is made.
class TargetPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit TargetPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

    // The page's current findings: checkTarget's, and PATH's own.
    const Findings &findings() const { return m_findings; }
    // Whether the chosen target is being checked (off the GUI thread); its findings come after.
    bool isChecking() const { return m_check != nullptr; }
    // Re-checks a folder typed into the field now, instead of after the pause that waits for the
    // typing to end.
    void refreshNow();

protected:
    void changeEvent(QEvent *event) override;

private:
    // The widgets of an offered place (TargetConfig::choices(), in the same order).
    struct Choice
    {
        QRadioButton *button = nullptr;
        QLabel *details = nullptr;
    };
    // One offered clean-up of PATH and its box.
    struct FixBox
    {
        PathFix fix;
        QCheckBox *box = nullptr;
    };

    // The page's widgets, group by group, made in the order Tab follows (TargetPage.cpp).
    void buildChoiceGroup(QWidget *content, const QFont &bold);
    void buildFolderRow(QWidget *content);
    QHBoxLayout *buildPathScopes(QWidget *content, const QFont &bold); // the row of PATH's choices
    void buildVariables(QWidget *content);
    void buildPathPreview(QWidget *content);
    void buildAdvancedSection(QWidget *content);
    void layOutContent(QWidget *content, QVBoxLayout *layout, QHBoxLayout *scopeRow);
    void showInScrollArea(QWidget *content);
    static QLabel *wrappedLabel(QWidget *parent, const QString &name = {});

    // Choosing the target and checking it (TargetPage.cpp).
    void buildChoices();
    void select(int index, const std::optional<InstallTarget> &proposed);
    void refresh();
    void browse();
    const TargetChoice *current() const;
    // PATH's problems, its clean-ups and its preview (TargetPagePath.cpp).
    void refreshPath();
    void showPreview();
    QList<PathFix> chosenFixes() const;
    static QString fixText(PathFix::Action action);
    static QString systemPathTitle();
    // The texts that follow the choices and the language (TargetPageTexts.cpp).
    void updateTexts();
    void updateChoiceTexts();
    void updatePathTexts();
    void updateVariablesNote();
    void showSpace();
    void updateAdvancedToggle();
    void retranslate();
    static QString recommendationReason(InstallTarget::Kind kind);

    SetupSession *m_session;
    // What the page shows and changes; committed into the session at each change.
    TargetConfig m_config;
    QList<Choice> m_choices;
    int m_recommended = -1;   // the choice the wizard proposes, marked Recommended
    Findings m_findings;      // all shown: the target's checks, reading PATH, the preview's
    Findings m_checkFindings; // the target's own (resolveTarget, checkTarget)
    TargetCheckJob *m_check = nullptr;
    std::optional<qint64> m_freeBytes; // on the chosen target's volume, as its check read it (-1 unknown)
    QList<FixBox> m_fixes;
    QList<std::pair<QLabel *, Finding>> m_problemTexts; // worded again on a language change
    QLabel *m_systemTitle = nullptr;

    QLabel *m_choicesTitle = nullptr;
    QVBoxLayout *m_choicesLayout = nullptr;
    QButtonGroup *m_choiceGroup = nullptr;
    QWidget *m_folderRow = nullptr;
    QLineEdit *m_folder = nullptr;
    QPushButton *m_browse = nullptr;
    QTimer *m_typing = nullptr;
    QLabel *m_pathTitle = nullptr;
    QRadioButton *m_pathNone = nullptr;
    QRadioButton *m_pathUser = nullptr;
    QRadioButton *m_pathSystem = nullptr;
    QLabel *m_pathNote = nullptr;
    QCheckBox *m_variables = nullptr;
    QLabel *m_variablesNote = nullptr;
    QLabel *m_space = nullptr;
    // The PATH preview, its clean-ups and the CUDNN_* variables: for those who want them, folded.
    QToolButton *m_advancedToggle = nullptr;
    QWidget *m_advanced = nullptr;
    QLabel *m_findingsTitle = nullptr;
    FindingsView *m_findingsView = nullptr;
    QWidget *m_preview = nullptr;
    QLabel *m_beforeTitle = nullptr;
    QLabel *m_afterTitle = nullptr;
    QTreeWidget *m_before = nullptr;
    QTreeWidget *m_after = nullptr;
    QWidget *m_problems = nullptr;
    QVBoxLayout *m_problemsLayout = nullptr;
};

} // namespace cudnnsetup::wizard
