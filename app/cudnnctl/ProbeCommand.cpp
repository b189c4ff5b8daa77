#include "ProbeCommand.h"
#include "CommandContext.h"

#include "common/ExitCodes.h"
#include "platform/Console.h"
#include "platform/LibraryLoader.h"
#include "verify/LibraryProbe.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cstdlib>

using namespace cudnnsetup;

namespace {

// The parent process logs this; nobody reads it on a screen.
int unreadable(const QString &requestFile, const QString &why)
{
    console::error(QStringLiteral("cudnnctl probe: cannot read the request %1: %2\n").arg(requestFile, why));
    return exitcode::UsageError;
}

} // namespace

int runProbeCommand(const QString &requestFile)
{
    QFile file(requestFile);
    if (!file.open(QIODevice::ReadOnly))
        return unreadable(requestFile, file.errorString());
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject())
        return unreadable(requestFile, parseError.error == QJsonParseError::NoError
                                           ? QStringLiteral("not a JSON object")
                                           : parseError.errorString());
    const Expected<ProbeRequest> request = ProbeRequest::fromJson(document.object());
    if (!request)
        return unreadable(requestFile, request.error().details);

    const ProbeResult result = runProbe(*request, LibraryLoader());
    console::out(QString::fromUtf8(QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact)) +
                 QLatin1Char('\n'));
    // A program's modules stay loaded (LoadedLibrary::keepLoaded), and their exit handlers are not
    // run: the answer is out, and a module whose handlers fault outside its program (JAX's XLA
    // plugin on the H200) must not turn a load that worked into a crash.
    if (!request->consumerModules.isEmpty())
        std::_Exit(exitcode::Success);
    return exitcode::Success;
}

int probeCommand(const CommandContext &, const QCommandLineParser &parser)
{
    return runProbeCommand(parser.value(QStringLiteral("request")));
}
