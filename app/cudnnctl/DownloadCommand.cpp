#include "DownloadCommand.h"
#include "CommandContext.h"

#include "common/ExitCodes.h"
#include "compat/Matcher.h"
#include "detect/Detector.h"
#include "download/ArchiveDownload.h"
#include "platform/Console.h"
#include "platform/HttpTransfer.h"
#include "report/DownloadText.h"
#include "report/TextTable.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSysInfo>

#include <set>

using namespace cudnnsetup;

namespace {

int usage(const QString &message)
{
    console::error(message + QLatin1Char('\n'));
    return exitcode::UsageError;
}

QString hostPlatform()
{
    if (hostOsFamily() == OsFamily::Windows)
        return QStringLiteral("windows-x86_64");
    return QSysInfo::currentCpuArchitecture() == QLatin1String("arm64") ? QStringLiteral("linux-sbsa")
                                                                        : QStringLiteral("linux-x86_64");
}

} // namespace

int runDownloadCommand(const DownloadCommandRequest &command, const SystemContext &context,
                       const KnowledgeBase &kb)
{
    static const QStringList platforms{QStringLiteral("windows-x86_64"), QStringLiteral("linux-x86_64"),
                                       QStringLiteral("linux-sbsa"), QStringLiteral("linux-aarch64")};
    if (!command.platform.isEmpty() && !platforms.contains(command.platform))
        return usage(QCoreApplication::translate("cudnnctl", "--platform must be one of %1.")
                         .arg(platforms.join(QStringLiteral(", "))));
    const auto source = ArchiveSource::parse(command.source);
    if (!source)
        return usage(
            source.error().message.toString() +
            (source.error().fix.isEmpty() ? QString() : QLatin1Char('\n') + source.error().fix.toString()));
    if (!command.caFile.isEmpty() && HttpTransfer::certificatesFromFile(command.caFile).isEmpty())
        return usage(QCoreApplication::translate("cudnnctl", "%1 holds no certificate (PEM or DER).")
                         .arg(QDir::toNativeSeparators(command.caFile)));

    DownloadRequest request;
    if (command.cudnn.isEmpty()) {
        // What check recommends for this machine.
        const SystemSnapshot snapshot = detectSystem(context, command.detect);
        const MatchResult result = match(MatchFacts::fromSnapshot(snapshot), kb);
        const auto recommended =
            result.recommendation ? requestForArchive(result.recommendation->archiveFile) : std::nullopt;
        if (!recommended) {
            console::error(QCoreApplication::translate(
                               "cudnnctl", "No archive fits this machine yet, so there is nothing to "
                                           "download; name one with --cudnn and --cuda.") +
                           QStringLiteral("\n\n") + findingsText(result.findings));
            return exitcode::ProblemsFound;
        }
        request = *recommended;
    } else {
        request.cudnn = Version::parse(command.cudnn);
        if (!request.cudnn.isValid() || request.cudnn.size() < 3)
            return usage(QCoreApplication::translate("cudnnctl",
                                                     "--cudnn needs a version such as 9.10.2 or 9.10.2.21."));
        request.platform = command.platform.isEmpty() ? hostPlatform() : command.platform;
        if (command.cuda.isEmpty()) {
            std::set<int> majors;
            for (const KnownArchive &archive : kb.archives()) {
                if (archive.platform == request.platform &&
                    archive.cudnn.truncated(request.cudnn.size()) == request.cudnn)
                    majors.insert(archive.cuda.section(QLatin1Char('.'), 0, 0).toInt());
            }
            if (majors.size() != 1) {
                QStringList choices;
                for (const int major : majors)
                    choices << QStringLiteral("--cuda %1").arg(major);
                return usage(choices.isEmpty()
                                 ? QCoreApplication::translate("cudnnctl",
                                                               "Add --cuda with the CUDA major the "
                                                               "archive is for (for example --cuda 12).")
                                 : QCoreApplication::translate("cudnnctl", "cuDNN %1 comes for more than one "
                                                                           "CUDA: add %2.")
                                       .arg(request.cudnn.toString(), choices.join(QStringLiteral(" | "))));
            }
            request.cudaMajor = *majors.begin();
        }
    }
    if (!command.platform.isEmpty())
        request.platform = command.platform;
    if (!command.cuda.isEmpty()) {
        bool ok = false;
        request.cudaMajor = command.cuda.toInt(&ok);
        if (!ok || request.cudaMajor < 9 || request.cudaMajor > 99)
            return usage(
                QCoreApplication::translate("cudnnctl", "--cuda needs the CUDA major, such as 12 or 13."));
    }
    request.source = *source;
    request.outFolder = command.outFolder.isEmpty() ? defaultDownloadFolder() : command.outFolder;
    if (request.outFolder.isEmpty())
        return usage(QCoreApplication::translate("cudnnctl", "This account has no Downloads folder: name "
                                                             "the folder to download into with --out."));
    request.caFile = command.caFile;
    // A line every two seconds: readable in a console and in a log alike.
    QElapsedTimer lastLine;
    request.progress = [&lastLine](const DownloadProgress &progress) {
        if (lastLine.isValid() && lastLine.elapsed() < 2000 && progress.done != progress.total)
            return;
        lastLine.start();
        console::error(downloadProgressText(progress) + QLatin1Char('\n'));
    };

    const DownloadReport report = downloadArchive(request, kb);
    if (command.json)
        console::out(QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented)));
    else
        console::out(downloadText(report));
    return report.ok() ? exitcode::Success : exitcode::ProblemsFound;
}

int downloadCommand(const CommandContext &context, const QCommandLineParser &parser)
{
    DownloadCommandRequest request;
    request.cudnn = parser.value(QStringLiteral("cudnn"));
    request.cuda = parser.value(QStringLiteral("cuda"));
    request.platform = parser.value(QStringLiteral("platform"));
    request.source = parser.value(QStringLiteral("source"));
    request.outFolder = absolutePath(parser, QStringLiteral("out"));
    request.caFile = absolutePath(parser, QStringLiteral("ca-file"));
    request.json = context.json;
    request.detect = context.detect;
    return runDownloadCommand(request, context.system(), context.database.database);
}
