#include "session/NextSteps.h"

#include <algorithm>

namespace cudnnsetup {

namespace {

// PyTorch's wheels carry their own cuDNN: what was installed here changes nothing for it.
std::optional<NextStep> pytorchStep(const PurposeAdvice &advice)
{
    if (advice.purpose != Purpose::PyTorch)
        return std::nullopt;
    const bool fine = !advice.consumers.isEmpty() &&
                      std::all_of(advice.consumers.cbegin(), advice.consumers.cend(),
                                  [](const JudgedConsumer &judged) { return judged.verdict.fine(); });
    if (fine)
        return NextStep{
            QStringLiteral("pytorch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "PyTorch: nothing to do. It brings its own cuDNN "
                                                 "and does not use a system-wide one.")),
            QString(), false};
    return NextStep{QStringLiteral("pytorch"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "PyTorch: %1")).arg(advice.explanation),
                    advice.command, false};
}

// Python 3.8 and later look for the DLLs an extension module loads in its own folders and those
// added with os.add_dll_directory, not on PATH. A venv install does this itself (its .pth file),
// conda's Python searches Library\bin, and a program's own folder is its own business.
std::optional<NextStep> pythonCodeStep(const std::optional<Receipt> &installed)
{
    if (!installed || !installed->target || installed->target->family != OsFamily::Windows)
        return std::nullopt;
    const InstallTarget &target = *installed->target;
    if (target.kind == InstallTarget::Kind::Venv || target.kind == InstallTarget::Kind::Conda ||
        target.kind == InstallTarget::Kind::App)
        return std::nullopt;
    return NextStep{
        QStringLiteral("python-code"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Your own Python code: add this line before it imports a module "
                                             "that uses cuDNN (Python 3.8 and later do not look for DLLs on "
                                             "PATH):")),
        QStringLiteral("import os; os.add_dll_directory(r\"%1\")").arg(target.dllFolder()), true};
}

} // namespace

QList<NextStep> nextSteps(const PurposeAdvice &advice, const std::optional<Receipt> &installed,
                          bool environmentChanged)
{
    QList<NextStep> steps;
    if (const std::optional<NextStep> pytorch = pytorchStep(advice))
        steps.append(*pytorch);
    if (environmentChanged)
        steps.append(
            {QStringLiteral("new-terminal"),
             Text(QT_TRANSLATE_NOOP("cudnnsetup", "Open a new Command Prompt, PowerShell or terminal "
                                                  "window, and restart programs such as PyCharm or "
                                                  "Jupyter: those already open keep the old PATH.")),
             QString(), false});
    if (const std::optional<NextStep> python = pythonCodeStep(installed))
        steps.append(*python);
    return steps;
}

} // namespace cudnnsetup
