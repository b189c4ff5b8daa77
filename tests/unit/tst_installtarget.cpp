// Install targets: every kind's folders for NVIDIA's archives of three eras, --target specs and their
// errors, the proposed target, which targets need an administrator, and a target's JSON.
#include "InstallTargetWorkstation.h"
#include "Suite.h"
#include "install/InstallTarget.h"
#include "install/TargetChecks.h"
#include "install/TargetSpec.h"
#include "platform/SystemContext.h"

#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace cudnnsetup;

class TestInstallTarget : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWorkstation(); }

    // Every kind's folders, for NVIDIA's layouts before and after cuDNN 9.18 moved the DLLs to
    // bin\x64, and for CUDA 12 and 13 toolkits.
    void folders_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("bin");
        QTest::addColumn<QString>("include");
        QTest::addColumn<QString>("lib");
        QTest::addColumn<QString>("pathScope");

        const QString cudnn = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\");
        const QString user = kUser + QStringLiteral("\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\");
        const QString venvBase = QStringLiteral("Lib\\site-packages\\cudnn_setup.libs\\");
        for (const QString &key : {QStringLiteral("8.9.7"), QStringLiteral("9.1"), QStringLiteral("9.18")}) {
            const QString version = QStringLiteral("v") + key.section(QLatin1Char('.'), 0, 1);
            const QString bin =
                key == QLatin1String("9.18") ? QStringLiteral("bin\\x64") : QStringLiteral("bin");
            const QByteArray tag = key.toLatin1();
            QTest::newRow("dir " + tag) << "dir" << key << "dir" << cudnn + version << bin << "include"
                                        << "lib\\x64"
                                        << "system";
            QTest::newRow("dir:PATH " + tag) << "dir:D:/cudnn/" << key << "dir"
                                             << "D:\\cudnn" << bin << "include"
                                             << "lib\\x64"
                                             << "system";
            QTest::newRow("user " + tag) << "user" << key << "user" << user + version << bin << "include"
                                         << "lib\\x64"
                                         << "user";
            QTest::newRow("user:PATH " + tag) << "user:D:/cudnn/" << key << "user"
                                              << "D:\\cudnn" << bin << "include"
                                              << "lib\\x64"
                                              << "user";
            QTest::newRow("conda name " + tag) << "conda:torch" << key << "conda"
                                               << kConda + QStringLiteral("\\envs\\torch") << "Library\\bin"
                                               << "Library\\include"
                                               << "Library\\lib"
                                               << "none";
            QTest::newRow("venv " + tag)
                << QStringLiteral("venv:") + kVenv << key << "venv" << kVenv
                << venvBase + QStringLiteral("bin") << venvBase + QStringLiteral("include")
                << venvBase + QStringLiteral("lib") << "none";
        }
        // The match chooses the newest toolkit of the archive's CUDA major.
        QTest::newRow("cuda, CUDA 12 archive 8.9.7") << "cuda"
                                                     << "8.9.7"
                                                     << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                     << "include"
                                                     << "lib\\x64"
                                                     << "none";
        QTest::newRow("cuda, CUDA 12 archive 9.1") << "cuda"
                                                   << "9.1"
                                                   << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                   << "include"
                                                   << "lib\\x64"
                                                   << "none";
        QTest::newRow("cuda, CUDA 13 archive 9.18") << "cuda"
                                                    << "9.18"
                                                    << "cuda" << kCuda + QStringLiteral("v13.0") << "bin\\x64"
                                                    << "include"
                                                    << "lib\\x64"
                                                    << "none";
        QTest::newRow("cuda:12.2") << "cuda:12.2"
                                   << "9.1"
                                   << "cuda" << kCuda + QStringLiteral("v12.2") << "bin"
                                   << "include"
                                   << "lib\\x64"
                                   << "none";
        QTest::newRow("cuda:12 is the newest 12") << "CUDA:12"
                                                  << "9.1"
                                                  << "cuda" << kCuda + QStringLiteral("v12.4") << "bin"
                                                  << "include"
                                                  << "lib\\x64"
                                                  << "none";
        QTest::newRow("cuda:13.0.88") << "cuda:13.0.88"
                                      << "9.18"
                                      << "cuda" << kCuda + QStringLiteral("v13.0") << "bin\\x64"
                                      << "include"
                                      << "lib\\x64"
                                      << "none";
        QTest::newRow("conda base") << "conda:base"
                                    << "9.1"
                                    << "conda" << kConda << "Library\\bin"
                                    << "Library\\include"
                                    << "Library\\lib"
                                    << "none";
        QTest::newRow("conda by path")
            << QStringLiteral("conda:") + kConda + QStringLiteral("\\envs\\torch\\") << "9.1"
            << "conda" << kConda + QStringLiteral("\\envs\\torch") << "Library\\bin"
            << "Library\\include"
            << "Library\\lib"
            << "none";
    }

    void folders()
    {
        QFETCH(QString, spec);
        QFETCH(QString, archive);
        QFETCH(QString, kind);
        QFETCH(QString, root);
        QFETCH(QString, bin);
        QFETCH(QString, include);
        QFETCH(QString, lib);
        QFETCH(QString, pathScope);

        const auto result =
            targetFromSpec(spec, std::nullopt, workstationSnapshot(), this->archive(archive), context());
        QVERIFY2(result.ok(), qPrintable(result.error().message.toEnglish()));
        const InstallTarget &target = *result;
        QCOMPARE(target.kindName(), kind);
        QCOMPARE(target.root, root);
        QCOMPARE(target.binFolder, bin);
        QCOMPARE(target.includeFolder, include);
        QCOMPARE(target.libFolder, lib);
        QCOMPARE(pathScopeName(target.pathScope), pathScope);
        QCOMPARE(target.dllFolder(), root + QLatin1Char('\\') + bin);
        QCOMPARE(target.stagingFolder(), root + QStringLiteral("\\.cudnn-setup-staging"));
        if (kind == QLatin1String("venv"))
            QCOMPARE(target.pthFile(), root + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.pth"));
        else
            QVERIFY(target.pthFile().isEmpty());
        if (kind == QLatin1String("cuda"))
            QVERIFY(target.toolkitVersion.isValid());
        // Every kind's place passes the rules on this machine.
        const Findings findings = checkTarget(target, this->archive(archive), context());
        QVERIFY2(ids(findings).isEmpty(), qPrintable(describe(findings)));
        // Its spec names the same place for a run under another account (an administrator who
        // approved the prompt, whose profile is another): what the elevated helper is given.
        QProcessEnvironment approving = windowsEnvironment();
        approving.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\admin"));
        approving.insert(QStringLiteral("LOCALAPPDATA"), QStringLiteral("C:\\Users\\admin\\AppData\\Local"));
        const auto again = targetFromSpec(target.spec(), std::nullopt, workstationSnapshot(),
                                          this->archive(archive), windowsContext(m_sandbox, approving));
        QVERIFY2(again.ok(), qPrintable(target.spec()));
        QCOMPARE(again->kindName(), kind);
        QCOMPARE(again->root, root);
        QCOMPARE(again->dllFolder(), target.dllFolder());
    }

    // --path overrides the kind's own PATH scope.
    void pathScopeOverride()
    {
        QCOMPARE(target(QStringLiteral("dir"), QStringLiteral("9.1"), PathScope::None).pathScope,
                 PathScope::None);
        QCOMPARE(target(QStringLiteral("dir"), QStringLiteral("9.1"), PathScope::User).pathScope,
                 PathScope::User);
        QCOMPARE(target(QStringLiteral("cuda"), QStringLiteral("9.1"), PathScope::System).pathScope,
                 PathScope::System);
        QCOMPARE(pathScopeFromName(QStringLiteral("System")), std::optional<PathScope>(PathScope::System));
        QCOMPARE(pathScopeFromName(QStringLiteral("none")), std::optional<PathScope>(PathScope::None));
        QVERIFY(!pathScopeFromName(QStringLiteral("machine")));
    }

    // A toolkit known only from JSON that does not say where its DLLs are: CUDA 13 means bin\x64.
    void cuda13WithoutBinDir()
    {
        SystemSnapshot snapshot = workstationSnapshot();
        for (CudaToolkit &toolkit : snapshot.cudaToolkits)
            toolkit.binDir.clear();
        auto result = targetFromSpec(QStringLiteral("cuda"), std::nullopt, snapshot,
                                     archive(QStringLiteral("9.18")), context());
        QVERIFY(result.ok());
        QCOMPARE(result->binFolder, QStringLiteral("bin\\x64"));
        result = targetFromSpec(QStringLiteral("cuda:12.2"), std::nullopt, snapshot,
                                archive(QStringLiteral("9.1")), context());
        QVERIFY(result.ok());
        QCOMPARE(result->binFolder, QStringLiteral("bin"));
    }

    // The own folder's parent comes from the inspected system's environment, C:\Program Files when
    // it says nothing.
    void programFilesFromTheEnvironment()
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("ProgramFiles"), QStringLiteral("D:\\Programme"));
        const SystemContext german = windowsContext(m_sandbox, environment);
        auto result = targetFromSpec(QStringLiteral("dir"), std::nullopt, workstationSnapshot(),
                                     archive(QStringLiteral("9.1")), german);
        QVERIFY(result.ok());
        QCOMPARE(result->root, QStringLiteral("D:\\Programme\\NVIDIA\\CUDNN\\v9.1"));
        QVERIFY(result->needsAdmin(german)); // system PATH
        InstallTarget noPath = *result;
        noPath.pathScope = PathScope::None;
        QVERIFY(noPath.needsAdmin(german)); // under that Program Files

        const SystemContext bare = windowsContext(m_sandbox, QProcessEnvironment());
        result = targetFromSpec(QStringLiteral("dir"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.18")), bare);
        QVERIFY(result.ok());
        QCOMPARE(result->root, QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.18"));
        QCOMPARE(result->dllFolder(), QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.18\\bin\\x64"));

        // Without LOCALAPPDATA the profile folder tells it; with neither there is no per-user folder.
        QProcessEnvironment profileOnly;
        profileOnly.insert(QStringLiteral("USERPROFILE"), QStringLiteral("C:\\Users\\li"));
        result = targetFromSpec(QStringLiteral("user"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.1")), windowsContext(m_sandbox, profileOnly));
        QVERIFY(result.ok());
        QCOMPARE(result->root,
                 QStringLiteral("C:\\Users\\li\\AppData\\Local\\Programs\\NVIDIA\\CUDNN\\v9.1"));
        result = targetFromSpec(QStringLiteral("user"), std::nullopt, workstationSnapshot(),
                                archive(QStringLiteral("9.1")), bare);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().id, QStringLiteral("target.no-user-folder"));
    }

    void specErrors_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("driverMaxCuda");
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << ""
                               << "9.1"
                               << "13.1"
                               << "target.unknown-kind";
        QTest::newRow("unknown kind") << "folder:C:\\cudnn"
                                      << "9.1"
                                      << "13.1"
                                      << "target.unknown-kind";
        QTest::newRow("conda without a value") << "conda"
                                               << "9.1"
                                               << "13.1"
                                               << "target.unknown-kind";
        QTest::newRow("no such toolkit") << "cuda:11.0"
                                         << "9.1"
                                         << "13.1"
                                         << "target.no-toolkit";
        QTest::newRow("no toolkit version") << "cuda:latest"
                                            << "9.1"
                                            << "13.1"
                                            << "target.no-toolkit";
        QTest::newRow("cuda:10, none installed") << "cuda:10"
                                                 << "8.2"
                                                 << "13.1"
                                                 << "target.no-toolkit";
        // The driver runs CUDA up to 12.8: the CUDA 13 toolkit cannot be the one.
        QTest::newRow("driver too old for the CUDA 13 toolkit") << "cuda"
                                                                << "9.18"
                                                                << "12.8"
                                                                << "target.no-toolkit";
        QTest::newRow("conda name unknown") << "conda:tensorflow"
                                            << "9.1"
                                            << "13.1"
                                            << "target.no-conda-env";
        QTest::newRow("conda path not an env")
            << QStringLiteral("conda:") + kUser + QStringLiteral("\\not-venv") << "9.1"
            << "13.1"
            << "target.no-conda-env";
        QTest::newRow("venv path not a venv")
            << QStringLiteral("venv:") + kUser + QStringLiteral("\\not-venv") << "9.1"
            << "13.1"
            << "target.not-a-venv";
        QTest::newRow("venv path missing") << "venv:D:\\nowhere"
                                           << "9.1"
                                           << "13.1"
                                           << "target.not-a-venv";
        QTest::newRow("venv empty") << "venv:"
                                    << "9.1"
                                    << "13.1"
                                    << "target.not-a-venv";
    }

    void specErrors()
    {
        QFETCH(QString, spec);
        QFETCH(QString, archive);
        QFETCH(QString, driverMaxCuda);
        QFETCH(QString, id);
        const auto result = targetFromSpec(spec, std::nullopt, workstationSnapshot(driverMaxCuda),
                                           this->archive(archive), context());
        QVERIFY2(!result.ok(), qPrintable(result.ok() ? result->root : QString()));
        QCOMPARE(result.error().id, id);
        QCOMPARE(result.error().severity, Severity::Error);
        QVERIFY(!result.error().message.isEmpty());
        QVERIFY(result.error().message.source() != nullptr); // translated, not verbatim
    }

    // Relative paths are kept as given: the app makes them absolute, checkTarget refuses them.
    void relativeSpecsAreKept()
    {
        QCOMPARE(target(QStringLiteral("dir:cudnn\\v9.1")).root, QStringLiteral("cudnn\\v9.1"));
        QCOMPARE(target(QStringLiteral("venv:.venv")).root, QStringLiteral(".venv"));
        QCOMPARE(target(QStringLiteral("dir:")).root, QString());
    }

    void proposedTarget_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("driverMaxCuda");
        QTest::addColumn<bool>("withoutToolkits");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("pathScope");
        QTest::newRow("CUDA 12 archive: the newest 12 toolkit")
            << "9.1"
            << "13.1" << false << "cuda" << kCuda + QStringLiteral("v12.4") << "none";
        QTest::newRow("CUDA 13 archive: the 13 toolkit")
            << "9.18"
            << "13.1" << false << "cuda" << kCuda + QStringLiteral("v13.0") << "none";
        QTest::newRow("driver cannot run CUDA 13: own folder") << "9.18"
                                                               << "12.8" << false << "dir"
                                                               << "C:\\Program Files\\NVIDIA\\CUDNN\\v9.18"
                                                               << "system";
        QTest::newRow("no toolkit: own folder") << "9.1"
                                                << "13.1" << true << "dir"
                                                << "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"
                                                << "system";
        QTest::newRow("no toolkit of CUDA 11: own folder") << "8.2"
                                                           << "13.1" << false << "dir"
                                                           << "C:\\Program Files\\NVIDIA\\CUDNN\\v8.2"
                                                           << "system";
    }

    void proposedTarget()
    {
        QFETCH(QString, archive);
        QFETCH(QString, driverMaxCuda);
        QFETCH(bool, withoutToolkits);
        QFETCH(QString, kind);
        QFETCH(QString, root);
        QFETCH(QString, pathScope);
        SystemSnapshot snapshot = workstationSnapshot(driverMaxCuda);
        if (withoutToolkits)
            snapshot.cudaToolkits.clear();
        if (archive == QLatin1String("8.2")) // CUDA 11.4's archive: only 12 and 13 toolkits here
            snapshot.cudaToolkits.removeFirst();
        const InstallTarget target = defaultTarget(snapshot, this->archive(archive), context());
        QCOMPARE(target.kindName(), kind);
        QCOMPARE(target.root, root);
        QCOMPARE(pathScopeName(target.pathScope), pathScope);
    }

    void needsAdmin_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("scope"); // -1: the kind's own
        QTest::addColumn<bool>("admin");
        QTest::newRow("own folder, system PATH") << "dir" << -1 << true;
        QTest::newRow("own folder under Program Files, no PATH") << "dir" << int(PathScope::None) << true;
        QTest::newRow("Program Files (x86)")
            << "dir:C:\\Program Files (x86)\\cudnn" << int(PathScope::None) << true;
        QTest::newRow("Windows folder") << "dir:c:\\windows\\cudnn" << int(PathScope::None) << true;
        QTest::newRow("D:, user PATH") << "dir:D:\\cudnn" << int(PathScope::User) << false;
        QTest::newRow("D:, system PATH") << "dir:D:\\cudnn" << int(PathScope::System) << true;
        QTest::newRow("Program Files lookalike")
            << "dir:C:\\Program Files2\\cudnn" << int(PathScope::None) << false;
        QTest::newRow("per-user") << "user" << -1 << false;
        QTest::newRow("toolkit under Program Files") << "cuda:12.4" << -1 << true;
        QTest::newRow("conda env") << "conda:torch" << -1 << false;
        QTest::newRow("venv") << QStringLiteral("venv:") + kVenv << -1 << false;
    }

    void needsAdmin()
    {
        QFETCH(QString, spec);
        QFETCH(int, scope);
        QFETCH(bool, admin);
        const InstallTarget target = this->target(spec, QStringLiteral("9.1"),
                                                  scope < 0 ? std::nullopt : std::optional(PathScope(scope)));
        QCOMPARE(target.needsAdmin(context()), admin);
    }

    void json()
    {
        const QJsonObject venv = target(QStringLiteral("venv:") + kVenv).toJson();
        QCOMPARE(venv.value(QStringLiteral("kind")).toString(), QStringLiteral("venv"));
        QCOMPARE(venv.value(QStringLiteral("root")).toString(), kVenv);
        QCOMPARE(venv.value(QStringLiteral("dllFolder")).toString(),
                 kVenv + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.libs\\bin"));
        QCOMPARE(venv.value(QStringLiteral("pthFile")).toString(),
                 kVenv + QStringLiteral("\\Lib\\site-packages\\cudnn_setup.pth"));
        QCOMPARE(venv.value(QStringLiteral("pathScope")).toString(), QStringLiteral("none"));
        QVERIFY(venv.value(QStringLiteral("toolkitVersion")).isNull());
        const QJsonObject cuda = target(QStringLiteral("cuda"), QStringLiteral("9.18")).toJson();
        QCOMPARE(cuda.value(QStringLiteral("toolkitVersion")).toString(), QStringLiteral("13.0.88"));
        QCOMPARE(cuda.value(QStringLiteral("binFolder")).toString(), QStringLiteral("bin\\x64"));
        QVERIFY(cuda.value(QStringLiteral("pthFile")).isNull());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestInstallTarget)
#include "tst_installtarget.moc"
