// Where cuDNN goes as one widget-free configuration: what the Target page, cudnnctl's options and
// answer files fill, checked, and the one install plan it makes.
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "platform/MemoryEnvironment.h"
#include "session/TargetConfig.h"

#include <QJsonDocument>
#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kCuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.9");
const QString kConda = QStringLiteral("C:\\Users\\lab\\miniconda3\\envs\\torch");
const QString kVenv = QStringLiteral("C:\\Users\\lab\\venvs\\dl");
const QString kOldCudnn = QStringLiteral("C:\\tools\\cudnn8\\bin");

QString json(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// A Windows machine with a CUDA 12.9 toolkit, a conda env, a venv and an older cuDNN on the user's
// PATH, and a cuDNN 9 archive for CUDA 12.
struct Machine
{
    Sandbox sandbox;
    SystemSnapshot snapshot;
    ArchiveReport archive;
    std::shared_ptr<MemoryEnvironment> environment = std::make_shared<MemoryEnvironment>();

    Machine()
    {
        trees::windowsSystem(sandbox);
        trees::windowsToolkit(sandbox, QStringLiteral("12.9.1"));
        sandbox.mkdir(kConda + QStringLiteral("\\conda-meta"));
        sandbox.write(kVenv + QStringLiteral("\\pyvenv.cfg"), "version = 3.12.3\n");
        sandbox.write(kVenv + QStringLiteral("\\Scripts\\python.exe"), "MZ");
        snapshot.os.family = QStringLiteral("windows");
        CudaToolkit toolkit;
        toolkit.version = QStringLiteral("12.9.1");
        toolkit.path = kCuda;
        snapshot.cudaToolkits.append(toolkit);
        snapshot.pythons = {
            trees::pythonInstall(kConda + QStringLiteral("\\python.exe"), QStringLiteral("conda")),
            trees::pythonInstall(kVenv + QStringLiteral("\\Scripts\\python.exe"), QStringLiteral("venv"))};
        CudnnCopy old;
        old.version = QStringLiteral("8.9.7");
        old.directory = kOldCudnn;
        snapshot.cudnn.append(old);
        archive.path = sandbox.root() + QStringLiteral("/cudnn.zip");
        archive.cudaVariant = QStringLiteral("12");
        archive.cudnn = Version::parse(QStringLiteral("9.19.0.56"));
        archive.platform = QStringLiteral("windows-x86_64");
        archive.sha256 = QString(64, QLatin1Char('a'));
        archive.size = 1000;
        environment->set(EnvironmentScope::User, QStringLiteral("Path"),
                         {kOldCudnn + QStringLiteral(";%SystemRoot%\\system32"), true});
    }
    SystemContext context() const { return trees::windowsLaptopContext(sandbox); }
    // The configuration of the page: the machine's facts, PATH changeable.
    TargetConfig page() const
    {
        TargetConfig config;
        config.setFacts(snapshot, archive, context(), KnowledgeBase::embedded(), environment);
        return config;
    }
    int choice(const TargetConfig &config, InstallTarget::Kind kind) const
    {
        for (int i = 0; i < config.choices().size(); ++i) {
            if (config.choices().at(i).selection.kind == kind)
                return i;
        }
        return -1;
    }
};

} // namespace

class TestTargetConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // cudnnctl's options and answer files are checked where they are read, each wrong one named.
    void optionsAreChecked_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("variables");
        QTest::addColumn<QString>("ifInUse");
        QTest::addColumn<QString>("id"); // empty: accepted
        QTest::newRow("all defaults") << ""
                                      << ""
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("all given") << "dir:C:\\cudnn"
                                   << "user"
                                   << "system"
                                   << "restart"
                                   << "";
        QTest::newRow("--path") << "dir"
                                << "everyone"
                                << ""
                                << ""
                                << "request.invalid";
        QTest::newRow("--cudnn-variables") << "dir"
                                           << ""
                                           << "machine"
                                           << ""
                                           << "request.invalid";
        QTest::newRow("--if-in-use") << "dir"
                                     << ""
                                     << ""
                                     << "kill"
                                     << "request.invalid";
        QTest::newRow("unknown kind") << "folder:C:\\cudnn"
                                      << ""
                                      << ""
                                      << ""
                                      << "target.unknown-kind";
        QTest::newRow("venv without a folder") << "venv"
                                               << ""
                                               << ""
                                               << ""
                                               << "target.unknown-kind";
        QTest::newRow("app with an empty folder") << "app:"
                                                  << ""
                                                  << ""
                                                  << ""
                                                  << "target.unknown-kind";
    }
    void optionsAreChecked()
    {
        QFETCH(QString, target);
        QFETCH(QString, path);
        QFETCH(QString, variables);
        QFETCH(QString, ifInUse);
        QFETCH(QString, id);
        const Expected<TargetConfig> config = TargetConfig::fromOptions(target, path, variables, ifInUse);
        QCOMPARE(config.ok() ? QString() : config.error().id, id);
        if (!config)
            QVERIFY(config.error().message.source() != nullptr); // translated, not verbatim
    }

    // Each kind of --target makes the plan the typed target, variables and in-use option the
    // command line asked for: the target as resolveTarget makes it from the same text, the
    // archive as inspected.
    void eachKindMakesItsPlan_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("scope");
        QTest::newRow("toolkit the match chose")
            << "cuda"
            << "" << int(InstallTarget::Kind::CudaToolkit) << int(PathScope::None);
        QTest::newRow("toolkit by version")
            << "cuda:12.9"
            << "" << int(InstallTarget::Kind::CudaToolkit) << int(PathScope::None);
        QTest::newRow("own folder") << "dir"
                                    << "" << int(InstallTarget::Kind::Folder) << int(PathScope::System);
        QTest::newRow("own folder, user PATH")
            << "dir:C:\\cudnn"
            << "user" << int(InstallTarget::Kind::Folder) << int(PathScope::User);
        QTest::newRow("user folder") << "user"
                                     << "" << int(InstallTarget::Kind::UserFolder) << int(PathScope::User);
        QTest::newRow("conda by name") << "conda:torch"
                                       << "" << int(InstallTarget::Kind::Conda) << int(PathScope::None);
        QTest::newRow("venv") << QStringLiteral("venv:") + kVenv << "" << int(InstallTarget::Kind::Venv)
                              << int(PathScope::None);
        QTest::newRow("app") << "app:C:\\Apps\\Whisper"
                             << "none" << int(InstallTarget::Kind::App) << int(PathScope::None);
        QTest::newRow("default, no PATH")
            << ""
            << "none" << int(InstallTarget::Kind::CudaToolkit) << int(PathScope::None);
    }
    void eachKindMakesItsPlan()
    {
        QFETCH(QString, target);
        QFETCH(QString, path);
        QFETCH(int, kind);
        QFETCH(int, scope);
        const Machine machine;
        Expected<TargetConfig> config =
            TargetConfig::fromOptions(target, path, QStringLiteral("user"), QStringLiteral("restart"));
        QVERIFY(config);
        TargetConfig filled = *config;
        QVERIFY(!filled.plan()); // nothing to resolve against yet
        filled.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded());
        const Expected<InstallPlan> plan = filled.plan();
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().message.toEnglish()));
        QCOMPARE(int(plan->target.kind), kind);
        QCOMPARE(int(plan->target.pathScope), scope);
        const std::optional<PathScope> given = path.isEmpty() ? std::nullopt : pathScopeFromName(path);
        const Expected<InstallTarget> expected =
            target.isEmpty()
                ? Expected<InstallTarget>(defaultTarget(machine.snapshot, machine.archive, machine.context()))
                : targetFromSpec(target, given, machine.snapshot, machine.archive, machine.context());
        QVERIFY(expected);
        QCOMPARE(json(plan->target.toJson()), json(expected->toJson()));
        QCOMPARE(json(plan->archive.toJson()),
                 json(ArchiveIdentity::of(machine.archive.path, machine.archive).toJson()));
        QCOMPARE(plan->cudnnVariables, std::optional(EnvironmentScope::User));
        QVERIFY(plan->replaceInUse);
        const ChangeOptions options = filled.changeOptions();
        QCOMPARE(options.cudnnVariables, plan->cudnnVariables);
        QVERIFY(options.replaceInUse);
    }

    // A target this machine does not have is a finding, and no plan.
    void badTargetIsAFinding_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("id");
        QTest::newRow("no such toolkit") << "cuda:11.8"
                                         << ""
                                         << "target.no-toolkit";
        QTest::newRow("no such env") << "conda:tensorflow"
                                     << ""
                                     << "target.no-conda-env";
        QTest::newRow("not a venv") << "venv:C:\\nowhere"
                                    << ""
                                    << "target.not-a-venv";
        QTest::newRow("app on PATH") << "app:C:\\Apps\\Whisper"
                                     << "system"
                                     << "target.app-path";
    }
    void badTargetIsAFinding()
    {
        QFETCH(QString, target);
        QFETCH(QString, path);
        QFETCH(QString, id);
        const Machine machine;
        TargetConfig config = *TargetConfig::fromOptions(target, path, {}, {});
        config.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded());
        QVERIFY(!config.isReady());
        QCOMPARE(config.findings().size(), 1);
        QCOMPARE(config.findings().first().id, id);
        QCOMPARE(config.plan().error().id, id);
    }

    // The page's choices: each place starts with its own PATH, only the scopes it offers, and none
    // where PATH cannot be changed (Linux, --system-root).
    void choicesStartWithTheirPath()
    {
        const Machine machine;
        TargetConfig config = machine.page();
        QCOMPARE(config.choices().size(), 5); // the toolkit, a folder, a user folder, conda, venv
        QCOMPARE(config.choiceOf(config.proposed()),
                 machine.choice(config, InstallTarget::Kind::CudaToolkit));

        config.choose(machine.choice(config, InstallTarget::Kind::Folder));
        QCOMPARE(config.pathScope(), std::optional(PathScope::System));
        QCOMPARE(config.offeredPathScopes(),
                 (QList<PathScope>{PathScope::None, PathScope::User, PathScope::System}));
        QVERIFY(config.choiceNeedsAdmin(config.chosen())); // under Program Files, the system PATH
        QVERIFY(config.target().root.startsWith(QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN")));

        // The system PATH is not one a per-user folder offers: kept, it becomes the user's.
        config.choose(machine.choice(config, InstallTarget::Kind::UserFolder), PathScope::System);
        QCOMPARE(config.pathScope(), std::optional(PathScope::User));
        QCOMPARE(config.offeredPathScopes(), (QList<PathScope>{PathScope::None, PathScope::User}));
        QVERIFY(!config.choiceNeedsAdmin(config.chosen()));

        config.choose(machine.choice(config, InstallTarget::Kind::Conda), PathScope::User);
        QCOMPARE(config.pathScope(), std::optional(PathScope::None));
        QCOMPARE(config.target().root, kConda);

        TargetConfig linux;
        linux.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded(),
                       PersistentEnvironment::unavailable());
        linux.choose(machine.choice(linux, InstallTarget::Kind::Folder));
        QCOMPARE(linux.pathScope(), std::optional(PathScope::None));
        QCOMPARE(linux.offeredPathScopes(), QList<PathScope>{PathScope::None});
    }

    // Issue 32: the program cuDNN is for (a speech app that needs cuDNN 8) is offered first, as
    // "Only for this program", and proposed: its folder, no PATH change, no administrator.
    void programFolderIsOfferedAndProposed()
    {
        const Machine machine;
        const QString folder = QStringLiteral("C:\\Apps\\whisper");
        machine.sandbox.write(folder + QStringLiteral("\\ctranslate2.dll"), "MZ");
        TargetConfig config;
        config.setProgram(CudnnBeside{QStringLiteral("ctranslate2"), folder, 8, 12});
        config.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded(),
                        machine.environment);
        QCOMPARE(config.choices().size(), 6); // the program's folder, then the five of the machine
        const TargetChoice &first = config.choices().first();
        QCOMPARE(first.selection.kind, InstallTarget::Kind::App);
        QCOMPARE(first.name, QStringLiteral("ctranslate2"));
        QCOMPARE(first.where, folder);
        QCOMPARE(config.choiceOf(config.proposed()), 0);
        QVERIFY(!config.choiceNeedsAdmin(0));
        config.choose(0);
        QVERIFY(config.isReady());
        QCOMPARE(config.target().kind, InstallTarget::Kind::App);
        QCOMPARE(config.target().root, folder);
        QCOMPARE(config.pathScope(), std::optional(PathScope::None));
        QCOMPARE(config.offeredPathScopes(), QList<PathScope>{PathScope::None});
        QVERIFY(!config.changesPath());

        // Without a program, the machine's choices only, and the toolkit proposed.
        config.setProgram(std::nullopt);
        config.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded(),
                        machine.environment);
        QCOMPARE(config.choices().size(), 5);
        QCOMPARE(config.proposed()->kind, InstallTarget::Kind::CudaToolkit);
    }

    // A typed folder is the folder of its own, as typed (a relative one is kept for the checks).
    void typedFolderIsTheTarget()
    {
        const Machine machine;
        TargetConfig config = machine.page();
        config.choose(machine.choice(config, InstallTarget::Kind::Folder));
        config.setFolder(QStringLiteral("  D:\\cudnn "));
        QCOMPARE(config.target().root, QStringLiteral("D:\\cudnn"));
        config.setFolder(QStringLiteral("cudnn"));
        QCOMPARE(config.target().root, QStringLiteral("cudnn"));
        // Another choice keeps the typed folder for when the user comes back.
        config.choose(machine.choice(config, InstallTarget::Kind::UserFolder));
        QCOMPARE(config.folder(), QStringLiteral("cudnn"));
    }

    // The CUDNN_* variables asked for on the page go where the target does: machine-wide for one
    // that needs an administrator, this user's otherwise; nowhere where they cannot be written.
    void variablesFollowTheTarget()
    {
        const Machine machine;
        TargetConfig config = machine.page();
        config.setVariablesWanted(true);
        config.choose(machine.choice(config, InstallTarget::Kind::Folder));
        QCOMPARE(config.cudnnVariables(), std::optional(EnvironmentScope::System));
        config.choose(machine.choice(config, InstallTarget::Kind::UserFolder));
        QCOMPARE(config.cudnnVariables(), std::optional(EnvironmentScope::User));
        QCOMPARE(config.plan()->cudnnVariables, std::optional(EnvironmentScope::User));
        config.setVariablesWanted(false);
        QCOMPARE(config.cudnnVariables(), std::nullopt);

        TargetConfig linux;
        linux.setFacts(machine.snapshot, machine.archive, machine.context(), KnowledgeBase::embedded(),
                       PersistentEnvironment::unavailable());
        linux.setVariablesWanted(true);
        linux.choose(machine.choice(linux, InstallTarget::Kind::UserFolder));
        QCOMPARE(linux.cudnnVariables(), std::nullopt);
    }

    // The PATH the target goes into, analysed with the one expansion (%SystemRoot% is the
    // session's), previewed with the ticked fixes; the ticks last only for the same entry in the
    // same PATH, and go with the plan's options only where a PATH changes.
    void pathPreviewAndFixes()
    {
        const Machine machine;
        TargetConfig config = machine.page();
        config.choose(machine.choice(config, InstallTarget::Kind::UserFolder));
        QVERIFY(config.changesPath());
        config.analysePath();
        QCOMPARE(config.pathAnalysis().problems.size(), 1);
        const PathProblem &stale = config.pathAnalysis().problems.first();
        QCOMPARE(stale.kind, PathProblem::Kind::OtherCudnn);
        QVERIFY(!stale.fixes.isEmpty());
        QVERIFY(config.pathEditor(EnvironmentScope::User)
                    .sameEntry(QStringLiteral("%SystemRoot%\\System32"),
                               QStringLiteral("C:\\Windows\\system32")));

        const PathFix removal = stale.fixes.first();
        config.setPathFixes({removal});
        const Expected<PathPreview> preview = config.pathPreview();
        QVERIFY(preview);
        QCOMPARE(preview->before.first(), kOldCudnn);
        QCOMPARE(preview->after.first(), config.target().dllFolder());
        QCOMPARE(config.changeOptions().pathFixes, QList<PathFix>{removal});
        config.analysePath(); // read again: the same PATH keeps its ticks
        QCOMPARE(config.pathFixes(), QList<PathFix>{removal});

        config.setPathScope(PathScope::None);
        QVERIFY(!config.changesPath());
        QVERIFY(config.changeOptions().pathFixes.isEmpty());
        QVERIFY(config.pathFixes().isEmpty()); // offered for another PATH
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTargetConfig)
#include "tst_targetconfig.moc"
