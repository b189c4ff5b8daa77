#include "session/WizardLog.h"

#include "common/Logging.h"
#include "common/Translations.h"
#include "install/StateFolders.h"
#include "platform/HostInfo.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace cudnnsetup {

QString wizardLogFolder(const SystemContext &context)
{
    const StateFolders folders = StateFolders::of(context);
    if (context.paths().isWindows())
        return folders.logs(folders.user);
    const EnvironmentStore &environment = context.environment();
    QString state = environment.value(QStringLiteral("XDG_STATE_HOME"));
    if (state.isEmpty() && !environment.value(QStringLiteral("HOME")).isEmpty())
        state =
            context.paths().join(environment.value(QStringLiteral("HOME")), QStringLiteral(".local/state"));
    if (state.isEmpty())
        return folders.logs(folders.user);
    return context.files().toHost(context.paths().join(state, QStringLiteral("cudnn-setup/logs")));
}

QString newWizardLog(const QString &folder, const QDateTime &started, int keep)
{
    if (!QDir().mkpath(folder))
        return {};
    const QDir dir(folder);
    // The names sort by time; the newest first.
    const QStringList earlier =
        dir.entryList({QStringLiteral("wizard-*.log")}, QDir::Files, QDir::Name | QDir::Reversed);
    for (qsizetype i = qMax(0, keep - 1); i < earlier.size(); ++i)
        QFile::remove(dir.filePath(earlier.at(i)));
    QString name =
        QStringLiteral("wizard-") + started.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    // Two runs in one second keep a log each.
    QString path = dir.filePath(name + QStringLiteral(".log"));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(name + QStringLiteral("-%1.log").arg(n));
    return path;
}

WizardLogHeader WizardLogHeader::ofThisRun(const SystemContext &context, const QStringList &arguments)
{
    const StateFolders folders = StateFolders::of(context);
    WizardLogHeader header;
    header.version = QStringLiteral(CUDNNSETUP_VERSION);
    header.system = hostinfo::systemDescription();
    header.language = Translations::current();
    header.arguments = arguments;
    header.stateFolders = {folders.machine, folders.user};
    return header;
}

QStringList WizardLogHeader::lines() const
{
    QStringList quoted;
    for (const QString &argument : arguments)
        quoted.append(argument.contains(QLatin1Char(' ')) ? QLatin1Char('"') + argument + QLatin1Char('"')
                                                          : argument);
    QStringList folders;
    for (const QString &folder : stateFolders)
        folders.append(QDir::toNativeSeparators(folder));
    return {
        QStringLiteral("cuDNN Setup %1").arg(version),
        QStringLiteral("system: %1").arg(system),
        QStringLiteral("language: %1").arg(language),
        QStringLiteral("arguments: %1").arg(quoted.join(QLatin1Char(' '))),
        QStringLiteral("state folders: %1").arg(folders.join(QStringLiteral(", "))),
    };
}

void WizardLogHeader::log() const
{
    for (const QString &line : lines())
        qCInfo(lcSession).noquote() << line;
}

} // namespace cudnnsetup
