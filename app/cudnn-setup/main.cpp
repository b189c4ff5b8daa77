// cudnn-setup: the wizard. Parses arguments, sets the language, shows the wizard; with --unattended
// it runs without a window (no QApplication) and answers with the installer exit codes.
#include "DialogQuestionHandler.h"
#include "SetupWizard.h"
#include "common/ExitCodes.h"
#include "common/GlobalOptions.h"
#include "common/InstallOptions.h"
#include "common/Logging.h"
#include "common/Translations.h"
#include "install/Installer.h"
#include "platform/Elevation.h"
#include "platform/LibraryLoader.h"
#include "platform/RedirectionGuard.h"
#include "session/SetupSession.h"
#include "session/UnattendedRun.h"
#include "session/WizardLog.h"
#include "verify/Verifier.h"

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QList>
#include <QLocale>
#include <QMessageBox>
#include <QStringList>

#include <cstring>
#include <memory>

using namespace cudnnsetup;

namespace {

constexpr int kInvalidParameter = 87;

bool unattendedRequested(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--unattended") == 0)
            return true;
    }
    return false;
}

// `argc` is the one of main(): the application keeps a reference to it.
std::unique_ptr<QCoreApplication> startApplication(int &argc, char *argv[], bool unattended)
{
    // Unattended: no window at all, so no QApplication (which needs a display on Linux).
    std::unique_ptr<QCoreApplication> application = unattended
                                                        ? std::make_unique<QCoreApplication>(argc, argv)
                                                        : std::make_unique<QApplication>(argc, argv);
    // QSettings' key (HKCU\Software\cuDNN Setup\cuDNN Setup): the Archive page's last folder.
    QCoreApplication::setOrganizationName(QStringLiteral("cuDNN Setup"));
    QCoreApplication::setApplicationName(QStringLiteral("cuDNN Setup"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));
    return application;
}

// The language comes first: the option descriptions and every later text are translated.
void installLanguage()
{
    const QString requested = Translations::languageArgument(QCoreApplication::arguments());
    if (!Translations::install(requested.isEmpty() ? Translations::languageForLocale(QLocale::system())
                                                   : requested))
        Translations::install(QStringLiteral("en"));
}

// The install options as --unattended takes them (cudnnctl install takes the same).
InstallOptions unattendedInstallOptions()
{
    InstallOptions::Descriptions descriptions;
    descriptions.archive =
        QCoreApplication::translate("cudnn-setup", "--unattended: the cuDNN archive (ZIP) to install.");
    descriptions.archiveValueName = QStringLiteral("ZIP");
    descriptions.target = QCoreApplication::translate(
        "cudnn-setup", "--unattended: where to install: cuda[:VERSION], dir[:PATH], "
                       "user, conda:ENV or venv:PATH.");
    descriptions.path = QCoreApplication::translate(
        "cudnn-setup", "--unattended: which PATH gets the DLL folder: user, system "
                       "or none.");
    descriptions.cudnnVariables =
        QCoreApplication::translate("cudnn-setup", "--unattended: also set CUDNN_PATH, CUDNN_INCLUDE_DIR and "
                                                   "CUDNN_LIBRARY, for the user or the system.");
    descriptions.ifInUse = QCoreApplication::translate(
        "cudnn-setup", "--unattended: when programs hold files to be replaced: fail "
                       "or restart (replace them now; those programs keep the old ones until "
                       "they restart, 3010).");
    return InstallOptions(descriptions);
}

// The options of cudnn-setup, made once the language is installed. All of its own but --unattended
// belong to --unattended.
struct SetupOptions
{
    GlobalOptions global;
    QCommandLineOption unattended{
        QStringLiteral("unattended"),
        QCoreApplication::translate("cudnn-setup",
                                    "Run without a window (see the options below); the log and a "
                                    "JSON result are written, the exit code says how it went.")};
    QCommandLineOption answer{QStringLiteral("answer-file"),
                              QCoreApplication::translate(
                                  "cudnn-setup", "--unattended: read the [setup] settings from this INI file "
                                                 "(options given here override it)."),
                              QStringLiteral("FILE")};
    QCommandLineOption action{
        QStringLiteral("action"),
        QCoreApplication::translate("cudnn-setup", "--unattended: install (default), repair or uninstall."),
        QStringLiteral("ACTION")};
    QCommandLineOption source{QStringLiteral("archive-source"),
                              QCoreApplication::translate(
                                  "cudnn-setup",
                                  "--unattended without --archive: where to download the recommended archive "
                                  "from: NVIDIA (default), a mirror's URL, or a folder or share."),
                              QStringLiteral("URL|DIR")};
    InstallOptions install = unattendedInstallOptions();
    QCommandLineOption noVerify{
        QStringLiteral("no-verify"),
        QCoreApplication::translate("cudnn-setup", "--unattended: do not verify the install.")};
    QCommandLineOption receipt{
        QStringLiteral("receipt"),
        QCoreApplication::translate("cudnn-setup", "--unattended --action uninstall: the install to remove."),
        QStringLiteral("ID")};

    QList<const QCommandLineOption *> unattendedOnly() const
    {
        return {&answer,   &action,  &install.archive,        &source,         &install.target, &install.path,
                &noVerify, &receipt, &install.cudnnVariables, &install.ifInUse};
    }
};

void describeOptions(QCommandLineParser &parser, const SetupOptions &options)
{
    parser.setApplicationDescription(QCoreApplication::translate(
        "cudnn-setup",
        "The cuDNN Setup wizard. With --unattended it installs, repairs or uninstalls without a window "
        "and exits with the Windows installer codes (0, 3010, 1602, 1603, 1618, 87).\n\n"
        "Windows starts this program without waiting for it: a script sees its exit code only with "
        "\"start /wait cudnn-setup.exe --unattended ...\" or \"Start-Process -Wait -PassThru\". For "
        "scripts, cudnnctl (install, uninstall, status) is the better tool: a console program with the "
        "same exit codes."));
    parser.addOptions(options.global.all());
    parser.addOptions({options.unattended, options.answer, options.action, options.install.archive,
                       options.source, options.install.target, options.install.path, options.noVerify,
                       options.receipt, options.install.cudnnVariables, options.install.ifInUse});
    parser.addHelpOption();
    parser.addVersionOption();
}

// Paths are made absolute here, once: an elevated helper starts in another folder.
QString absolutePath(const QCommandLineParser &parser, const QCommandLineOption &option)
{
    const QString value = parser.value(option);
    return value.isEmpty() ? value : QDir::cleanPath(QFileInfo(value).absoluteFilePath());
}

// Without a window: the answer file's settings, overridden by the options given; the exit code is
// the installer's.
int runUnattended(const QCommandLineParser &parser, const SetupOptions &options)
{
    logging::configure(false);
    guardElevatedProcessAgainstUserRedirections(Elevation::host());
    QString root;
    if (parser.isSet(options.global.systemRoot)) {
        if (!QFileInfo(parser.value(options.global.systemRoot)).isDir())
            return kInvalidParameter;
        root = QDir(parser.value(options.global.systemRoot)).absolutePath();
    }
    const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
    UnattendedSettings settings;
    if (parser.isSet(options.answer)) {
        const Expected<UnattendedSettings> answered = settings.withAnswerFile(parser.value(options.answer));
        if (!answered) {
            qCCritical(lcApp).noquote() << answered.error().message.toString();
            return kInvalidParameter;
        }
        settings = *answered;
    }
    const auto override = [&parser](const QCommandLineOption &option, QString &value) {
        if (parser.isSet(option))
            value = parser.value(option);
    };
    override(options.action, settings.action);
    if (parser.isSet(options.install.archive))
        settings.archive = absolutePath(parser, options.install.archive);
    override(options.source, settings.archiveSource);
    override(options.install.target, settings.target);
    override(options.install.path, settings.path);
    override(options.receipt, settings.receiptId);
    if (parser.isSet(options.global.log))
        settings.logFile = absolutePath(parser, options.global.log);
    override(options.install.cudnnVariables, settings.variables);
    override(options.install.ifInUse, settings.ifInUse);
    if (parser.isSet(options.noVerify))
        settings.verify = false;
    if (settings.logFile.isEmpty())
        settings.logFile =
            defaultUnattendedLog(context, context.elevation().isElevated(), QDateTime::currentDateTimeUtc());
    const DatabaseChoice database = DatabaseChoice::choose(absolutePath(parser, options.global.compatDb),
                                                           QCoreApplication::applicationDirPath());
    if (parser.isSet(options.global.compatDb) && hasErrors(database.findings)) {
        qCCritical(lcApp).noquote() << database.findings.first().message.toString();
        return kInvalidParameter;
    }
    return runUnattendedLogged(settings, context, database.database, defaultProbeProgram(),
                               WizardLogHeader::ofThisRun(context, QCoreApplication::arguments()));
}

// An option of --unattended given to the wizard: said in a message box.
bool refuseUnattendedOnly(const QCommandLineParser &parser, const SetupOptions &options)
{
    for (const QCommandLineOption *option : options.unattendedOnly()) {
        if (parser.isSet(*option)) {
            QMessageBox::critical(nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                                  QApplication::translate("cudnn-setup", "--%1 belongs to --unattended.")
                                      .arg(option->names().first()));
            return true;
        }
    }
    return false;
}

// Every run keeps a log, for the person who asks for help; --log names another file.
void startWizardLog(const QCommandLineParser &parser, const SetupOptions &options)
{
    logging::configure(false);
    logging::writeTo(
        parser.isSet(options.global.log)
            ? absolutePath(parser, options.global.log)
            : newWizardLog(wizardLogFolder(SystemContext::running()), QDateTime::currentDateTime()));
    // First what a support person asks for, so that a run that stops at the next line still says it.
    WizardLogHeader::ofThisRun(SystemContext::running(), QCoreApplication::arguments()).log();
}

// An install that died (power cut, killed) left its journal: settle it before anything else.
void recoverUnfinishedInstall(const SystemContext &context)
{
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
}

int runWizard(const QCommandLineParser &parser, const SetupOptions &options)
{
    if (refuseUnattendedOnly(parser, options))
        return exitcode::UsageError;
    startWizardLog(parser, options);
    guardElevatedProcessAgainstUserRedirections(Elevation::host());

    QString root;
    if (parser.isSet(options.global.systemRoot)) {
        root = parser.value(options.global.systemRoot);
        if (!QFileInfo(root).isDir()) {
            QMessageBox::critical(
                nullptr, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                QApplication::translate("cudnn-setup", "The system root %1 is not a folder.").arg(root));
            return exitcode::UsageError;
        }
        root = QDir(root).absolutePath();
    }
    const DatabaseChoice database = DatabaseChoice::choose(absolutePath(parser, options.global.compatDb),
                                                           QApplication::applicationDirPath());
    if (parser.isSet(options.global.compatDb) && hasErrors(database.findings)) {
        const Finding &problem = database.findings.first();
        // The technical details (English, as logs have them) behind the box's own Details button.
        QMessageBox box(QMessageBox::Critical, QApplication::translate("cudnn-setup", "cuDNN Setup"),
                        problem.message.toString());
        box.setDetailedText(problem.details);
        box.exec();
        return exitcode::UsageError;
    }
    const SystemContext context = root.isEmpty() ? SystemContext::running() : SystemContext::rooted(root);
    recoverUnfinishedInstall(context);
    SetupSession session(context);
    session.setDatabase(database);
    wizard::SetupWizard wizard(&session);
    session.setQuestionHandler(std::make_shared<wizard::DialogQuestionHandler>(&wizard));
    wizard.show();
    return QCoreApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // DLLs from System32 only, never from the folder the program was started from (Downloads).
    LibraryLoader::loadFromSystem32Only();
    const bool unattended = unattendedRequested(argc, argv);
    const std::unique_ptr<QCoreApplication> application = startApplication(argc, argv, unattended);
    installLanguage();
    const SetupOptions options;
    QCommandLineParser parser;
    describeOptions(parser, options);
    parser.process(*application);
    return unattended ? runUnattended(parser, options) : runWizard(parser, options);
}
