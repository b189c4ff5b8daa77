#include "BaselineCommands.h"
#include "CommandContext.h"

#include "common/ExitCodes.h"
#include "detect/Detector.h"
#include "platform/Console.h"
#include "platform/DurableFiles.h"
#include "session/Baseline.h"
#include "session/Drift.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>

using namespace cudnnsetup;

namespace {

void printError(const Finding &finding)
{
    QString text = finding.message.toString() + QLatin1Char('\n');
    if (!finding.details.isEmpty())
        text += finding.details + QLatin1Char('\n');
    if (!finding.fix.isEmpty())
        text += finding.fix.toString() + QLatin1Char('\n');
    console::error(text);
}

// Written whole or not at all: a share's reader never sees half a file.
bool writeFile(const QString &path, const QByteArray &content)
{
    if (const SystemResult written = durable::write(content, path + QStringLiteral(".partial"), path);
        !written) {
        console::error(QCoreApplication::translate("cudnnctl", "%1 cannot be written: %2")
                           .arg(QDir::toNativeSeparators(path), written.error().message) +
                       QLatin1Char('\n'));
        return false;
    }
    return true;
}

SystemSnapshot detectQuietly(const BaselineRequest &request, const SystemContext &context)
{
    DetectOptions detect = request.detect;
    detect.probePythons = false; // what their files tell is enough to judge the programs
    return detectSystem(context, detect);
}

} // namespace

int runBaselineExport(const BaselineRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    const Version driver = Version::parse(request.driver);
    if (!request.driver.isEmpty() && !driver.isValid()) {
        console::error(
            QCoreApplication::translate("cudnnctl", "--driver takes a version such as 560.94, not \"%1\".")
                .arg(request.driver) +
            QLatin1Char('\n'));
        return exitcode::UsageError;
    }
    const SystemSnapshot snapshot = detectQuietly(request, context);
    Expected<Baseline> baseline = Finding();
    if (request.fromAnswer.isEmpty()) {
        baseline = baselineOfMachine(context, snapshot, kb, driver);
        if (!baseline) {
            printError(baseline.error());
            return exitcode::ProblemsFound;
        }
    } else {
        const Expected<UnattendedSettings> answers = UnattendedSettings().withAnswerFile(request.fromAnswer);
        if (!answers) {
            printError(answers.error());
            return exitcode::UsageError;
        }
        baseline = baselineOfAnswerFile(*answers, context, snapshot, kb, driver);
        if (!baseline) {
            printError(baseline.error());
            return exitcode::UsageError;
        }
    }
    const QByteArray json = QJsonDocument(baseline->toJson()).toJson(QJsonDocument::Indented);
    if (request.outFile.isEmpty()) {
        console::out(QString::fromUtf8(json));
        return exitcode::Success;
    }
    if (!writeFile(request.outFile, json))
        return exitcode::UsageError;
    console::out(QDir::toNativeSeparators(request.outFile) + QLatin1Char('\n'));
    return exitcode::Success;
}

int runStatusAgainst(const BaselineRequest &request, const SystemContext &context, const KnowledgeBase &kb)
{
    const QString format = request.json ? QStringLiteral("json") : request.format;
    static const QStringList formats{QString(), QStringLiteral("text"), QStringLiteral("json"),
                                     QStringLiteral("intune"), QStringLiteral("sccm")};
    if (!formats.contains(format)) {
        console::error(
            QCoreApplication::translate("cudnnctl", "--format takes text, json, intune or sccm, not \"%1\".")
                .arg(format) +
            QLatin1Char('\n'));
        return exitcode::Unknown;
    }
    const Expected<Baseline> baseline = Baseline::read(request.against);
    if (!baseline) {
        printError(baseline.error());
        return exitcode::Unknown;
    }
    DriftReport report = compareWithBaseline(*baseline, context, detectQuietly(request, context), kb);
    report.baselineFile = request.against;

    // Intune and ConfigMgr read stdout and stderr as the verdict: nothing else goes there.
    const bool forTools = format == QLatin1String("intune") || format == QLatin1String("sccm");
    if (!request.repairFile.isEmpty()) {
        if (report.repair) {
            if (!writeFile(request.repairFile, report.repair->toAnswerFile()))
                return exitcode::Unknown;
        } else {
            // A repair file left by an earlier run would repair what is no longer there.
            if (const SystemResult removed = durable::remove(request.repairFile); !removed) {
                console::error(
                    QCoreApplication::translate("cudnnctl", "%1 cannot be removed: %2")
                        .arg(QDir::toNativeSeparators(request.repairFile), removed.error().message) +
                    QLatin1Char('\n'));
                return exitcode::Unknown;
            }
            if (!forTools && report.verdict() != DriftItem::State::Compliant)
                console::error(QCoreApplication::translate("cudnnctl",
                                                           "No repair file was written: nothing that "
                                                           "differs here can be repaired by one.") +
                               QLatin1Char('\n'));
        }
    }

    if (format == QLatin1String("json")) {
        console::out(QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented)));
    } else if (format == QLatin1String("intune")) {
        // Intune reads the discovery script's output as one compact line of JSON.
        console::out(QString::fromUtf8(QJsonDocument(report.intuneJson()).toJson(QJsonDocument::Compact)) +
                     QLatin1Char('\n'));
    } else if (format == QLatin1String("sccm")) {
        // ConfigMgr's script detection: exit 0 with something on stdout is "installed", exit 0 with
        // nothing on stdout and nothing on stderr "not installed" (so it runs the install); anything
        // on stderr, or another exit code, is "unknown": kept for a baseline that cannot be read.
        if (report.verdict() == DriftItem::State::Compliant)
            console::out(report.text());
        return exitcode::Success;
    } else {
        console::out(report.text());
    }
    if (format == QLatin1String("intune"))
        return exitcode::Success; // Intune takes a discovery script that fails as an error, not as
                                  // non-compliant
    return report.exitCode();
}

BaselineRequest baselineRequest(const CommandContext &context, const QCommandLineParser &parser)
{
    BaselineRequest request;
    request.outFile = absolutePath(parser, QStringLiteral("out"));
    request.fromAnswer = absolutePath(parser, QStringLiteral("from-answer"));
    request.driver = parser.value(QStringLiteral("driver"));
    request.against = absolutePath(parser, QStringLiteral("against"));
    request.format = parser.value(QStringLiteral("format"));
    request.repairFile = absolutePath(parser, QStringLiteral("repair-file"));
    request.json = context.json;
    request.detect = context.detect;
    return request;
}

int baselineCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    if (context.positional.value(1) != QLatin1String("export"))
        return usageError(QCoreApplication::translate("cudnnctl",
                                                      "baseline takes one action: cudnnctl baseline "
                                                      "export --out FILE"));
    return runBaselineExport(baselineRequest(context, parser), context.system(), context.database.database);
}
