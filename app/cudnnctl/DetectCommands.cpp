#include "DetectCommands.h"

#include "CommandContext.h"
#include "common/ExitCodes.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/Matcher.h"
#include "compat/WhatIf.h"
#include "detect/Detector.h"
#include "report/CheckReport.h"
#include "report/SnapshotText.h"

#include <QCommandLineParser>
#include <QCoreApplication>

using namespace cudnnsetup;

int detectCommand(const CommandContext &context, const QCommandLineParser &)
{
    const KnowledgeBase &kb = context.database.database;
    const SystemSnapshot snapshot = detectSystem(context.system(), context.detect);
    const QList<JudgedConsumer> judged =
        judgeConsumers(snapshot.consumers, MatchFacts::fromSnapshot(snapshot), kb);
    if (context.json)
        writeJson(snapshotJsonWithVerdicts(snapshot, judged));
    else
        writeOut(snapshotText(snapshot) +
                 (judged.isEmpty()
                      ? QString()
                      : QLatin1Char('\n') +
                            QCoreApplication::translate("cudnnsetup", "Programs that use cuDNN/CUDA") +
                            QLatin1Char('\n') + consumerVerdictsText(judged)));
    return hasErrors(snapshot.findings) ? exitcode::ProblemsFound : exitcode::Success;
}

int checkCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    const DatabaseChoice &database = context.database;
    const SystemSnapshot snapshot = detectSystem(context.system(), context.detect);
    WhatIf whatIf;
    whatIf.os = parser.value(QStringLiteral("os"));
    whatIf.arch = parser.value(QStringLiteral("arch"));
    whatIf.driver = parser.value(QStringLiteral("driver"));
    whatIf.cuda = parser.value(QStringLiteral("cuda"));
    whatIf.sm = parser.value(QStringLiteral("sm"));
    whatIf.gpu = parser.value(QStringLiteral("gpu"));
    whatIf.cudnn = parser.value(QStringLiteral("cudnn"));
    const auto facts = applyWhatIf(MatchFacts::fromSnapshot(snapshot), whatIf, database.database);
    if (!facts)
        return usageError(facts.error().message.toString());
    MatchResult result = match(*facts, database.database);
    result.findings = database.findings + result.findings;
    const QString forWhat = parser.value(QStringLiteral("for"));
    const auto judged =
        forWhat.isEmpty()
            ? Expected<QList<JudgedConsumer>>(judgeConsumers(snapshot.consumers, *facts, database.database))
            : judgeFor(context.forConsumer, snapshot.consumers, *facts, database.database);
    if (!judged)
        return usageError(judged.error().message.toString());
    if (context.json)
        writeJson(checkJson(*facts, result, database, *judged, forWhat));
    else
        writeOut(checkText(*facts, result, database, *judged, forWhat));
    if (!forWhat.isEmpty())
        return consumersCompatible(*judged) == true ? exitcode::Success : exitcode::ProblemsFound;
    return result.compatible() ? exitcode::Success : exitcode::ProblemsFound;
}
