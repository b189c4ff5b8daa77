#include "compat/PurposeAdvice.h"

#include <algorithm>

#include "common/Logging.h"
#include "common/Surface.h"
#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"

namespace cudnnsetup {

namespace {

bool isTorch(const JudgedConsumer &judged)
{
    return judged.found && judged.consumer.name == QLatin1String("torch");
}

QList<JudgedConsumer> foundOnly(const QList<JudgedConsumer> &judged)
{
    QList<JudgedConsumer> found;
    std::copy_if(judged.cbegin(), judged.cend(), std::back_inserter(found),
                 [](const JudgedConsumer &entry) { return entry.found; });
    return found;
}

const JudgedConsumer *firstProblem(const QList<JudgedConsumer> &judged)
{
    const auto problem = std::find_if(judged.cbegin(), judged.cend(),
                                      [](const JudgedConsumer &entry) { return !entry.verdict.fine(); });
    return problem == judged.cend() ? nullptr : &*problem;
}

Text namesOf(const QList<JudgedConsumer> &judged)
{
    QStringList names;
    for (const JudgedConsumer &entry : judged) {
        const QString name = entry.consumer.version.isEmpty()
                                 ? entry.consumer.name
                                 : QStringLiteral("%1 %2").arg(entry.consumer.name, entry.consumer.version);
        if (!names.contains(name))
            names.append(name);
    }
    return Text::list(names);
}

// PyTorch's wheels carry their own cuDNN: only the build for this GPU and driver matters, installed
// or not. The line to copy is the verdict's fix where torch needs one, else a fresh install's.
PurposeAdvice pytorchAdvice(const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                            const KnowledgeBase &kb)
{
    PurposeAdvice advice;
    advice.purpose = Purpose::PyTorch;
    advice.systemCudnnNeeded = false;
    advice.headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "PyTorch brings its own cuDNN: no system-wide "
                                                           "cuDNN is needed."));
    const QList<JudgedConsumer> judged = *judgeFor(QStringLiteral("torch"), consumers, facts, kb);
    advice.consumers = foundOnly(judged);
    // Not installed yet counts as a problem too: its fix is the install line.
    if (const JudgedConsumer *problem = firstProblem(judged)) {
        advice.explanation = problem->verdict.fix;
        advice.command = problem->verdict.command;
        return advice;
    }
    const QList<JudgedConsumer> fresh = *judgeFor(QStringLiteral("torch"), {}, facts, kb);
    advice.explanation =
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 runs on this GPU and finds its cuDNN: nothing to do. To "
                                             "install PyTorch for this GPU in another environment:"))
            .arg(namesOf(advice.consumers));
    advice.command = fresh.first().verdict.command;
    if (advice.command.isEmpty())
        advice.explanation = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 runs on this GPU and finds its cuDNN: "
                                                                  "nothing to do."))
                                 .arg(namesOf(advice.consumers));
    return advice;
}

// What the programs found need, and their one fix. A system-wide cuDNN helps only a program that
// misses the cuDNN it needs; none found: the wizard goes on to install one.
PurposeAdvice programAdvice(Purpose purpose, const QList<JudgedConsumer> &judged)
{
    PurposeAdvice advice;
    advice.purpose = purpose;
    advice.consumers = foundOnly(judged);
    if (advice.consumers.isEmpty()) {
        const JudgedConsumer &absent = judged.first();
        advice.headline = absent.verdict.summary;
        if (absent.verdict.fixKind == QLatin1String("wsl2")) {
            advice.systemCudnnNeeded = false;
            advice.explanation = absent.verdict.fix;
            advice.command = absent.verdict.command;
        } else {
            advice.explanation =
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Install it first, or go on: the next pages install a "
                                                     "system-wide cuDNN that programs can find."));
        }
        return advice;
    }
    const JudgedConsumer *problem = firstProblem(advice.consumers);
    if (!problem) {
        advice.systemCudnnNeeded = false;
        advice.headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 runs on this GPU and finds the cuDNN it "
                                                               "needs: nothing to install."))
                              .arg(namesOf(advice.consumers));
        return advice;
    }
    advice.systemCudnnNeeded = problem->verdict.fixKind == QLatin1String("cudnn-beside");
    advice.beside = problem->verdict.beside;
    advice.headline = problem->verdict.summary;
    advice.explanation = problem->verdict.fix;
    // The wizard's next pages fetch cuDNN themselves: cudnnctl's download command is the command
    // line's way, not one to paste from the wizard.
    if (!(advice.systemCudnnNeeded && surface() == Surface::Wizard))
        advice.command = problem->verdict.command;
    return advice;
}

// The folder cuDNN will be in: the toolkit the match chose, else a placeholder for the user's own.
QString cmakeVariables(const MatchFacts &facts, const KnowledgeBase &kb)
{
    const MatchResult result = match(facts, kb);
    const bool windows = facts.os == OsFamily::Windows;
    QString root = windows ? QStringLiteral("C:\\path\\to\\cudnn") : QStringLiteral("/path/to/cudnn");
    QString library = windows ? QStringLiteral("lib\\x64\\cudnn.lib") : QStringLiteral("lib/libcudnn.so");
    if (result.recommendation && result.recommendation->targetToolkit) {
        root = result.recommendation->targetToolkit->path;
        if (!windows)
            library = QStringLiteral("lib64/libcudnn.so"); // a Linux toolkit's libraries
    }
    const QChar separator = windows ? QLatin1Char('\\') : QLatin1Char('/');
    return QStringLiteral("cmake -DCUDNN_INCLUDE_DIR=\"%1%2include\" -DCUDNN_LIBRARY=\"%1%2%3\" ..")
        .arg(root, separator, library);
}

PurposeAdvice ownCodeAdvice(const MatchFacts &facts, const KnowledgeBase &kb)
{
    PurposeAdvice advice;
    advice.purpose = Purpose::OwnCode;
    advice.headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Your own code needs cuDNN's headers and "
                                                           "libraries: the next pages install them into "
                                                           "the CUDA toolkit or a folder of your own."));
    advice.explanation =
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Then tell CMake where they are (the folder is the one you "
                                             "choose on the \"Where cuDNN goes\" page, which can also set "
                                             "these as environment variables):"));
    advice.command = cmakeVariables(facts, kb);
    return advice;
}

QString purposeName(Purpose purpose)
{
    switch (purpose) {
    case Purpose::PyTorch:
        return QStringLiteral("pytorch");
    case Purpose::TensorFlow:
        return QStringLiteral("tensorflow");
    case Purpose::OnnxRuntime:
        return QStringLiteral("onnxruntime");
    case Purpose::Program:
        return QStringLiteral("program");
    case Purpose::OwnCode:
        return QStringLiteral("own-code");
    case Purpose::NotSure:
        break;
    }
    return QStringLiteral("not-sure");
}

PurposeAdvice advise(Purpose purpose, const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                     const KnowledgeBase &kb, const QString &programFolder)
{
    switch (purpose) {
    case Purpose::PyTorch:
        return pytorchAdvice(consumers, facts, kb);
    case Purpose::TensorFlow:
        return programAdvice(purpose, *judgeFor(QStringLiteral("tensorflow"), consumers, facts, kb));
    case Purpose::OnnxRuntime:
        return programAdvice(purpose, *judgeFor(QStringLiteral("onnxruntime"), consumers, facts, kb));
    case Purpose::Program:
        if (programFolder.isEmpty()) {
            PurposeAdvice advice;
            advice.purpose = purpose;
            advice.headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "Choose the program's folder, or one of "
                                                                   "the folders found."));
            return advice;
        }
        return programAdvice(purpose,
                             *judgeFor(QStringLiteral("app:") + programFolder, consumers, facts, kb));
    case Purpose::OwnCode:
        return ownCodeAdvice(facts, kb);
    case Purpose::NotSure:
        break;
    }
    // Not sure: the programs found decide, the first that needs something first.
    const QList<JudgedConsumer> judged = judgeConsumers(consumers, facts, kb);
    if (judged.isEmpty()) {
        PurposeAdvice advice;
        advice.headline = Text(QT_TRANSLATE_NOOP("cudnnsetup", "No program that uses cuDNN was found on "
                                                               "this computer."));
        advice.explanation =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "If you will use PyTorch, choose it above: it brings its "
                                                 "own cuDNN. Otherwise the next pages install a system-wide "
                                                 "cuDNN that programs can find."));
        return advice;
    }
    const JudgedConsumer *problem = firstProblem(judged);
    const QString deciding = problem ? problem->consumer.name : QString();
    if (deciding == QLatin1String("torch") ||
        (!problem && std::any_of(judged.cbegin(), judged.cend(), isTorch)))
        return pytorchAdvice(consumers, facts, kb);
    PurposeAdvice advice = programAdvice(Purpose::Program, judged);
    if (problem && problem->verdict.fixKind == QLatin1String("wsl2"))
        advice.purpose = Purpose::TensorFlow;
    return advice;
}

} // namespace

PurposeAdvice advisePurpose(Purpose purpose, const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                            const KnowledgeBase &kb, const QString &programFolder)
{
    const PurposeAdvice advice = advise(purpose, consumers, facts, kb, programFolder);
    qCInfo(lcCore).noquote() << "cuDNN is for" << purposeName(purpose) << programFolder << "- answered as"
                             << purposeName(advice.purpose) << "from" << advice.consumers.size()
                             << "programs; system-wide cuDNN needed:" << advice.systemCudnnNeeded
                             << "command:" << advice.command;
    return advice;
}

QStringList consumerFolders(const QList<ConsumerInfo> &consumers)
{
    QStringList folders;
    for (const ConsumerInfo &consumer : consumers) {
        if (!consumer.location.isEmpty() && !folders.contains(consumer.location))
            folders.append(consumer.location);
    }
    return folders;
}

} // namespace cudnnsetup
