// cudnn-setup: the wizard. Parses arguments, sets the language, shows the wizard.
#include "DialogQuestionHandler.h"
#include "SetupWizard.h"
#include "common/ExitCodes.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "install/Installer.h"
#include "session/SetupSession.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>

using namespace cudnnsetup;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    // QSettings' key (HKCU\Software\cuDNN Setup\cuDNN Setup): the Archive page's last folder.
    QApplication::setOrganizationName(QStringLiteral("cuDNN Setup"));
    QApplication::setApplicationName(QStringLiteral("cuDNN Setup"));
    QApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));

    // The language comes first: the option descriptions and every later text are translated.
    const QString requested = Translations::languageArgument(QApplication::arguments());
    if (!Translations::install(requested.isEmpty() ? Translations::languageForLocale(QLocale::system())
                                                   : requested))
        Translations::install(QStringLiteral("en"));

    QCommandLineParser parser;
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QApplication::translate("cudnn-setup", "Language of the wizard: en or zh_CN."),
        QStringLiteral("LANG"));
    const QCommandLineOption rootOption(
        QStringLiteral("system-root"),
        QApplication::translate(
            "cudnn-setup", "Inspect the system whose files are under DIR (a mounted image, a test sandbox)."),
        QStringLiteral("DIR"));
    const QCommandLineOption logOption(QStringLiteral("log"),
                                       QApplication::translate("cudnn-setup", "Also write the log to FILE."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption compatOption(
        QStringLiteral("compat-db"),
        QApplication::translate("cudnn-setup",
                                "Use the compatibility database in FILE instead of the built-in one."),
        QStringLiteral("FILE"));
    parser.addOptions({langOption, rootOption, logOption, compatOption});
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    logging::configure(false);
    if (parser.isSet(logOption))
        logging::writeTo(parser.value(logOption));

    QString root;
    if (parser.isSet(rootOption)) {
        root = parser.value(rootOption);
        if (!QFileInfo(root).isDir()) {
            QMessageBox::critical(
                nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                QApplication::translate("cudnn-setup", "The system root %1 is not a folder.").arg(root));
            return exitcode::UsageError;
        }
        root = QDir(root).absolutePath();
    }
    const DatabaseChoice database =
        DatabaseChoice::choose(parser.value(compatOption), QApplication::applicationDirPath());
    if (parser.isSet(compatOption) && hasErrors(database.findings)) {
        const Finding &problem = database.findings.first();
        QMessageBox::critical(nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                              problem.message.toString() + QStringLiteral("\n\n") + problem.details);
        return exitcode::UsageError;
    }
    const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
    // An install that died (power cut, killed) left its journal: settle it before anything else.
    const Findings recovered =
        recoverUnfinished(context, context.isLive() ? PersistentEnvironment::forRunningSystem()
                                                    : PersistentEnvironment::unavailable());
    if (!recovered.isEmpty()) {
        QStringList lines;
        for (const Finding &finding : recovered)
            lines.append(finding.message.toString());
        QMessageBox::information(nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                                 lines.join(QStringLiteral("\n\n")));
    }
    SetupSession session(context);
    session.setDatabase(database);
    wizard::SetupWizard wizard(&session);
    session.setQuestionHandler(std::make_shared<wizard::DialogQuestionHandler>(&wizard));
    wizard.show();
    return app.exec();
}
