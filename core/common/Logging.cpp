#include "common/Logging.h"

#include <QDateTime>
#include <QFile>
#include <QMutex>
#include <QMutexLocker>

namespace cudnnsetup {

Q_LOGGING_CATEGORY(lcCore, "cudnnsetup.core")
Q_LOGGING_CATEGORY(lcPlatform, "cudnnsetup.platform")
Q_LOGGING_CATEGORY(lcDetect, "cudnnsetup.detect")
Q_LOGGING_CATEGORY(lcWizard, "cudnnsetup.wizard")
Q_LOGGING_CATEGORY(lcApp, "cudnnsetup.app")
Q_LOGGING_CATEGORY(lcInstall, "cudnnsetup.install")
Q_LOGGING_CATEGORY(lcSession, "cudnnsetup.session")

namespace logging {

namespace {
QMutex g_mutex;
QFile *g_file = nullptr;
QtMessageHandler g_previous = nullptr;

const char *typeName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "info";
}

void fileHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        QMutexLocker lock(&g_mutex);
        if (g_file) {
            const QString line =
                QStringLiteral("%1 %2 %3: %4\n")
                    .arg(QDateTime::currentDateTime().toString(Qt::ISODateWithMs),
                         QString::fromLatin1(typeName(type)),
                         QString::fromLatin1(context.category ? context.category : "default"), message);
            g_file->write(line.toUtf8());
            g_file->flush();
        }
    }
    if (g_previous && type != QtDebugMsg && type != QtInfoMsg)
        g_previous(type, context, message);
}
} // namespace

void configure(bool verbose)
{
    QLoggingCategory::setFilterRules(verbose ? QStringLiteral("cudnnsetup.*=true")
                                             : QStringLiteral("cudnnsetup.*.debug=false\n"
                                                              "cudnnsetup.*.info=false"));
}

QString filePath()
{
    QMutexLocker lock(&g_mutex);
    return g_file ? g_file->fileName() : QString();
}

bool writeTo(const QString &path)
{
    auto file = new QFile(path);
    if (!file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text)) {
        delete file;
        return false;
    }
    QMutexLocker lock(&g_mutex);
    delete g_file;
    g_file = file;
    if (!g_previous)
        g_previous = qInstallMessageHandler(fileHandler);
    // Everything goes to the file, whatever the console shows.
    QLoggingCategory::setFilterRules(QStringLiteral("cudnnsetup.*=true"));
    return true;
}

} // namespace logging
} // namespace cudnnsetup
