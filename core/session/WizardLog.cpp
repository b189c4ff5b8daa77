#include "session/WizardLog.h"

#include "install/StateFolders.h"

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

} // namespace cudnnsetup
