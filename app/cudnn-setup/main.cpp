// cudnn-setup: the wizard. Parses arguments, sets the language, shows the wizard.
#include "DialogQuestionHandler.h"
#include "SetupWizard.h"
#include "common/Logging.h"
#include "common/Translations.h"
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
    QApplication::setApplicationName(QStringLiteral("cuDNN Setup"));
    QApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));

    QCommandLineParser parser;
    const QCommandLineOption langOption(QStringLiteral("lang"), QStringLiteral("en or zh_CN"),
                                        QStringLiteral("LANG"));
    const QCommandLineOption rootOption(
        QStringLiteral("system-root"), QStringLiteral("inspect the system under DIR"), QStringLiteral("DIR"));
    const QCommandLineOption logOption(QStringLiteral("log"), QStringLiteral("write the log to FILE"),
                                       QStringLiteral("FILE"));
    parser.addOptions({langOption, rootOption, logOption});
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    logging::configure(false);
    if (parser.isSet(logOption))
        logging::writeTo(parser.value(logOption));
    const QString language = parser.isSet(langOption) ? parser.value(langOption)
                                                      : Translations::languageForLocale(QLocale::system());
    if (!Translations::install(language))
        Translations::install(QStringLiteral("en"));

    QString root;
    if (parser.isSet(rootOption)) {
        root = parser.value(rootOption);
        if (!QFileInfo(root).isDir()) {
            QMessageBox::critical(
                nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                QApplication::translate("cudnn-setup", "The system root %1 is not a folder.").arg(root));
            return 2;
        }
        root = QDir(root).absolutePath();
    }
    SetupSession session(root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root));
    wizard::SetupWizard wizard(&session);
    session.setQuestionHandler(std::make_shared<wizard::DialogQuestionHandler>(&wizard));
    wizard.show();
    return app.exec();
}
