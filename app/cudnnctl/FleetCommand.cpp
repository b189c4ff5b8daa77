#include "FleetCommand.h"
#include "CommandContext.h"

#include "common/ExitCodes.h"
#include "platform/Console.h"
#include "platform/DurableFiles.h"
#include "report/FleetSummary.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

using namespace cudnnsetup;

namespace {

int usage(const QString &message)
{
    console::error(message + QLatin1Char('\n'));
    return exitcode::UsageError;
}

} // namespace

int runFleetCommand(const FleetRequest &request)
{
    if (request.subcommand != QLatin1String("summarize") || request.folder.isEmpty())
        return usage(
            QCoreApplication::translate("cudnnctl", "fleet needs a folder: cudnnctl fleet summarize FOLDER"));
    if (!QFileInfo(request.folder).isDir())
        return usage(QCoreApplication::translate("cudnnctl", "The reports folder %1 is not a folder.")
                         .arg(QDir::toNativeSeparators(request.folder)));
    int staleDays = 7;
    if (!request.staleDays.isEmpty()) {
        bool ok = false;
        staleDays = request.staleDays.toInt(&ok);
        if (!ok || staleDays < 0 || staleDays > 3650)
            return usage(QCoreApplication::translate(
                "cudnnctl", "--stale-days needs a number of days between 0 and 3650."));
    }
    const FleetSummary summary =
        summarizeFleet(QDir(request.folder).absolutePath(), QDateTime::currentDateTimeUtc(), staleDays);
    if (!request.htmlFile.isEmpty()) {
        const QString partial = request.htmlFile + QStringLiteral(".partial");
        if (const SystemResult written =
                durable::write(fleetSummaryHtml(summary).toUtf8(), partial, request.htmlFile);
            !written) {
            durable::discard(partial);
            return usage(QCoreApplication::translate("cudnnctl", "The page %1 could not be written: %2")
                             .arg(QDir::toNativeSeparators(request.htmlFile), written.error().message));
        }
    }
    if (request.json)
        console::out(QString::fromUtf8(QJsonDocument(summary.toJson()).toJson(QJsonDocument::Indented)));
    else
        console::out(fleetSummaryText(summary));
    const bool agree = std::all_of(summary.items.cbegin(), summary.items.cend(),
                                   [](const FleetItem &item) { return item.outliers.isEmpty(); });
    return agree && summary.stale.isEmpty() ? exitcode::Success : exitcode::ProblemsFound;
}

int fleetCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    FleetRequest request;
    request.subcommand = context.positional.value(1);
    request.folder = context.positional.value(2);
    request.htmlFile = absolutePath(parser, QStringLiteral("html"));
    request.staleDays = parser.value(QStringLiteral("stale-days"));
    request.json = context.json;
    return runFleetCommand(request);
}
