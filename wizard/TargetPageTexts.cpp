// TargetPage's texts: what each choice is for, PATH's note, the space needed, and the words made
// again when the language changes.
#include "TargetPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "common/Sizes.h"
#include "session/TargetConfig.h"

#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStringList>
#include <QToolButton>
#include <QTreeWidget>

namespace cudnnsetup::wizard {

void TargetPage::updateTexts()
{
    updateChoiceTexts();
    updatePathTexts();
    updateVariablesNote();
    updateAdvancedToggle();
    showSpace();
    showPreview();
}

void TargetPage::updateChoiceTexts()
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
}

// PATH: what can be chosen, and why not where it cannot.
void TargetPage::updatePathTexts()
{
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
}

void TargetPage::updateVariablesNote()
{
    const bool changeable = m_config.environmentChangeable();
    m_variables->setEnabled(changeable && m_config.isReady());
    const std::optional<EnvironmentScope> variables = m_config.cudnnVariables();
    if (!changeable)
        m_variablesNote->setText(tr("Not available on this system."));
    else if (variables)
        m_variablesNote->setText(*variables == EnvironmentScope::System
                                     ? tr("For building OpenCV, ONNX Runtime or TensorFlow from source; set "
                                          "for all users.")
                                     : tr("For building OpenCV, ONNX Runtime or TensorFlow from source; set "
                                          "for you only."));
    else
        m_variablesNote->setText(tr("For building OpenCV, ONNX Runtime or TensorFlow from source."));
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
