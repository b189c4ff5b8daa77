#include "InspectCommand.h"

#include "CommandContext.h"
#include "archive/ArchiveInspector.h"
#include "common/ExitCodes.h"
#include "report/ArchiveText.h"

#include <QCommandLineParser>
#include <QCoreApplication>

using namespace cudnnsetup;

int inspectCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    InspectOptions options;
    const QString backendOption = QStringLiteral("zip-backend");
    if (parser.isSet(backendOption)) {
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            if (ZipSource::backendName(backend) == parser.value(backendOption))
                options.backend = backend;
        }
        if (!options.backend)
            return usageError(QCoreApplication::translate("cudnnctl", "This build has no zip backend \"%1\".")
                                  .arg(parser.value(backendOption)));
    }
    const auto report =
        inspectArchive(context.positional.at(1), context.database.database.publishedArchives(), options);
    if (!report)
        return usageError(report.error().message.toString());
    if (context.json)
        writeJson(report->toJson());
    else
        writeOut(archiveText(*report));
    return report->verdict == ArchiveReport::Verdict::Ok ? exitcode::Success : exitcode::ProblemsFound;
}
