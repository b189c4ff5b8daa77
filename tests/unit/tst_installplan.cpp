// The typed plan of an install and the typed target a receipt keeps: what crosses to the elevated
// helper and what is read back from disk is checked for its shape before any path of it is used.

#include "Suite.h"
#include "install/InstallPlan.h"
#include "install/Receipt.h"
#include "platform/Sha256.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace cudnnsetup;

namespace {

InstallTarget programFiles()
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.root = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.19");
    target.binFolder = QStringLiteral("bin\\x64");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = QStringLiteral("lib\\x64");
    target.pathScope = PathScope::System;
    return target;
}

InstallPlan aPlan()
{
    InstallPlan plan;
    plan.target = programFiles();
    plan.archive.path = QStringLiteral("C:\\Users\\student\\Downloads\\cudnn.zip");
    plan.archive.fileName = QStringLiteral("cudnn.zip");
    plan.archive.sha256 = Sha256::of("an archive");
    plan.archive.size = 10;
    plan.archive.cudnn = Version::parse(QStringLiteral("9.19.0.56"));
    plan.archive.cudaVariant = QStringLiteral("13");
    plan.cudnnVariables = EnvironmentScope::System;
    plan.pathFixes = {{PathFix::Action::MoveBehindOurs, 1,
                       QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin")},
                      {PathFix::Action::Remove, 3, QStringLiteral("%TOOLS%\\cudnn8\\bin")}};
    return plan;
}

} // namespace

class TestInstallPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every kind of target reads back as it was written, with its family and derived paths.
    void targetsReadBackTyped_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<int>("scope");
        QTest::newRow("toolkit") << int(InstallTarget::Kind::CudaToolkit)
                                 << QStringLiteral(
                                        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0")
                                 << int(PathScope::None);
        QTest::newRow("folder") << int(InstallTarget::Kind::Folder) << QStringLiteral("D:\\cudnn")
                                << int(PathScope::System);
        QTest::newRow("user") << int(InstallTarget::Kind::UserFolder)
                              << QStringLiteral("C:\\Users\\张三\\AppData\\Local\\Programs\\NVIDIA\\CUDNN")
                              << int(PathScope::User);
        QTest::newRow("venv") << int(InstallTarget::Kind::Venv) << QStringLiteral("C:\\work\\.venv")
                              << int(PathScope::None);
        QTest::newRow("linux") << int(InstallTarget::Kind::Folder) << QStringLiteral("/opt/cudnn-9.19")
                               << int(PathScope::System);
        QTest::newRow("app") << int(InstallTarget::Kind::App) << QStringLiteral("C:\\Program Files\\Whisper")
                             << int(PathScope::None);
        QTest::newRow("linux app") << int(InstallTarget::Kind::App) << QStringLiteral("/home/ana/whisper")
                                   << int(PathScope::None);
    }

    void targetsReadBackTyped()
    {
        QFETCH(int, kind);
        QFETCH(QString, root);
        QFETCH(int, scope);
        InstallTarget target;
        target.kind = InstallTarget::Kind(kind);
        target.family = root.startsWith(QLatin1Char('/')) ? OsFamily::Linux : OsFamily::Windows;
        target.root = root;
        target.toolkitVersion = Version::parse(QStringLiteral("13.0.2"));
        target.binFolder = QStringLiteral("bin");
        target.includeFolder = QStringLiteral("include");
        target.libFolder =
            target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("lib\\x64");
        target.pathScope = PathScope(scope);
        if (target.kind == InstallTarget::Kind::App) // its libraries go into root itself
            target.binFolder = target.includeFolder = target.libFolder = QString();
        const Expected<InstallTarget> read = InstallTarget::fromJson(target.toJson());
        QVERIFY2(read, qPrintable(read ? QString() : read.error().details));
        QCOMPARE(read->toJson(), target.toJson());
        QCOMPARE(read->family, target.family);
        QCOMPARE(read->dllFolder(), target.dllFolder());
        QCOMPARE(read->ldSoConfFile(), target.ldSoConfFile());
        QCOMPARE(read->pthFile(), target.pthFile());
    }

    // What is not a target's shape is refused before any of its paths is used: a folder that climbs
    // out of the root or is absolute, a relative root, an unknown kind, scope or family, a toolkit
    // without its version, a control character that would start a new line in a file.
    void damagedTargetsAreRefused_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("bin climbs out") << QStringLiteral("binFolder")
                                        << QJsonValue(QStringLiteral("bin\\..\\..\\..\\Windows\\System32"));
        QTest::newRow("lib climbs out")
            << QStringLiteral("libFolder") << QJsonValue(QStringLiteral("../lib"));
        QTest::newRow("bin absolute")
            << QStringLiteral("binFolder") << QJsonValue(QStringLiteral("C:\\Windows\\System32"));
        QTest::newRow("bin rooted") << QStringLiteral("binFolder") << QJsonValue(QStringLiteral("\\Windows"));
        QTest::newRow("bin empty") << QStringLiteral("binFolder") << QJsonValue(QString());
        QTest::newRow("include doubled separator")
            << QStringLiteral("includeFolder") << QJsonValue(QStringLiteral("include\\\\x"));
        QTest::newRow("relative root") << QStringLiteral("root") << QJsonValue(QStringLiteral("cudnn"));
        QTest::newRow("no root") << QStringLiteral("root") << QJsonValue();
        QTest::newRow("line break in root")
            << QStringLiteral("root") << QJsonValue(QStringLiteral("C:\\cudnn\n/etc/evil"));
        QTest::newRow("unknown kind") << QStringLiteral("kind") << QJsonValue(QStringLiteral("system32"));
        QTest::newRow("unknown scope")
            << QStringLiteral("pathScope") << QJsonValue(QStringLiteral("everyone"));
        QTest::newRow("unknown family") << QStringLiteral("family") << QJsonValue(QStringLiteral("beos"));
    }

    void damagedTargetsAreRefused()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QJsonObject json = programFiles().toJson();
        json.insert(key, value);
        const Expected<InstallTarget> read = InstallTarget::fromJson(json);
        QVERIFY(!read);
        QCOMPARE(read.error().id, QStringLiteral("target.invalid"));
        QVERIFY(InstallTarget::fromJson(programFiles().toJson()));
    }

    // Issue 32: an app folder's libraries go into the folder itself and never on a PATH; a target
    // that says "app" and names a folder below it or a PATH scope is no app folder cuDNN Setup made.
    void appTargetsHaveNoFoldersNorPath_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("a bin folder") << QStringLiteral("binFolder") << QJsonValue(QStringLiteral("bin"));
        QTest::newRow("an include folder")
            << QStringLiteral("includeFolder") << QJsonValue(QStringLiteral("include"));
        QTest::newRow("the system PATH")
            << QStringLiteral("pathScope") << QJsonValue(QStringLiteral("system"));
        QTest::newRow("the user PATH") << QStringLiteral("pathScope") << QJsonValue(QStringLiteral("user"));
    }

    void appTargetsHaveNoFoldersNorPath()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        InstallTarget app;
        app.kind = InstallTarget::Kind::App;
        app.root = QStringLiteral("C:\\Apps\\Whisper");
        const Expected<InstallTarget> sound = InstallTarget::fromJson(app.toJson());
        QVERIFY(sound);
        QCOMPARE(sound->spec(), QStringLiteral("app:C:\\Apps\\Whisper"));
        QCOMPARE(sound->dllFolder(), app.root);
        QJsonObject json = app.toJson();
        json.insert(key, value);
        const Expected<InstallTarget> read = InstallTarget::fromJson(json);
        QVERIFY(!read);
        QCOMPARE(read.error().id, QStringLiteral("target.invalid"));
    }

    void toolkitWithoutVersionIsRefused()
    {
        InstallTarget toolkit = programFiles();
        toolkit.kind = InstallTarget::Kind::CudaToolkit;
        QVERIFY(!InstallTarget::fromJson(toolkit.toJson()));
        toolkit.toolkitVersion = Version::parse(QStringLiteral("12.4.1"));
        QVERIFY(InstallTarget::fromJson(toolkit.toJson()));
    }

    // A receipt keeps its target and archive typed; one written before the family was recorded
    // reads a Linux root as Linux's; a repair's names no target; one whose target is damaged is no
    // receipt.
    void receiptsKeepThePlanTyped()
    {
        Receipt receipt;
        receipt.id = QStringLiteral("cudnn-9.19.0.56-cuda13-20261203");
        receipt.archive = aPlan().archive;
        receipt.target = aPlan().target;
        const Expected<Receipt> read = Receipt::fromJson(receipt.toJson());
        QVERIFY(read);
        QVERIFY(read->target);
        QCOMPARE(read->target->toJson(), receipt.target->toJson());
        QCOMPARE(read->archive.toJson(), receipt.archive.toJson());
        QCOMPARE(read->archive.cudnn.toString(), QStringLiteral("9.19.0.56"));

        QJsonObject older = receipt.toJson();
        QJsonObject linuxTarget = older.value(QStringLiteral("target")).toObject();
        linuxTarget.remove(QStringLiteral("family"));
        linuxTarget.insert(QStringLiteral("root"), QStringLiteral("/opt/cudnn"));
        linuxTarget.insert(QStringLiteral("binFolder"), QStringLiteral("lib"));
        older.insert(QStringLiteral("target"), linuxTarget);
        const Expected<Receipt> olderRead = Receipt::fromJson(older);
        QVERIFY(olderRead && olderRead->target);
        QCOMPARE(olderRead->target->family, OsFamily::Linux);
        QCOMPARE(olderRead->target->ldSoConfFile().startsWith(QStringLiteral("/etc/ld.so.conf.d/")), true);

        Receipt repair;
        repair.id = QStringLiteral("repair-1");
        repair.result = QStringLiteral("repaired");
        const Expected<Receipt> repairRead = Receipt::fromJson(repair.toJson());
        QVERIFY(repairRead);
        QVERIFY(!repairRead->target);

        QJsonObject damaged = receipt.toJson();
        QJsonObject bent = damaged.value(QStringLiteral("target")).toObject();
        bent.insert(QStringLiteral("binFolder"), QStringLiteral("..\\..\\Windows\\System32"));
        damaged.insert(QStringLiteral("target"), bent);
        const Expected<Receipt> damagedRead = Receipt::fromJson(damaged);
        QVERIFY(!damagedRead);
        QCOMPARE(damagedRead.error().id, QStringLiteral("receipt.invalid"));
    }

    // A plan reads back whole, the PATH fixes the user ticked included; sealed, it is read only
    // under its own SHA-256, so a fix added after the approval is refused.
    void plansAreSealed()
    {
        const InstallPlan plan = aPlan();
        const Expected<InstallPlan> read = InstallPlan::fromJson(plan.toJson());
        QVERIFY(read);
        QCOMPARE(read->toJson(), plan.toJson());
        QCOMPARE(read->pathFixes, plan.pathFixes);
        InstallPlan moreFixes = plan;
        moreFixes.pathFixes.append({PathFix::Action::Remove, 0, QStringLiteral("C:\\Windows\\system32")});
        QCOMPARE(InstallPlan::unsealed(moreFixes.sealedBytes(), Sha256::of(plan.sealedBytes())).error().id,
                 QStringLiteral("plan.changed"));
        const QByteArray sealed = plan.sealedBytes();
        QVERIFY(InstallPlan::unsealed(sealed, Sha256::of(sealed)));
        QVERIFY(InstallPlan::unsealed(sealed, Sha256::of(sealed).toUpper()));
        QByteArray changed = sealed;
        changed.replace("v9.19", "v9.10");
        const Expected<InstallPlan> refused = InstallPlan::unsealed(changed, Sha256::of(sealed));
        QVERIFY(!refused);
        QCOMPARE(refused.error().id, QStringLiteral("plan.changed"));
        QCOMPARE(InstallPlan::unsealed(sealed, QString()).error().id, QStringLiteral("plan.changed"));
        QCOMPARE(InstallPlan::unsealed("not json", Sha256::of("not json")).error().id,
                 QStringLiteral("plan.invalid"));
    }

    void damagedPlansAreRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("schema") << QStringLiteral("schema")
                                << QJsonValue(QStringLiteral("cudnn-setup/plan/0"));
        QTest::newRow("target") << QStringLiteral("target/binFolder") << QJsonValue(QStringLiteral(".."));
        QTest::newRow("sha256 short")
            << QStringLiteral("archive/sha256") << QJsonValue(QStringLiteral("abc"));
        QTest::newRow("sha256 none") << QStringLiteral("archive/sha256") << QJsonValue();
        QTest::newRow("archive path") << QStringLiteral("archive/path") << QJsonValue(QString());
        QTest::newRow("variables") << QStringLiteral("cudnnVariables") << QJsonValue(QStringLiteral("world"));
        QTest::newRow("replace") << QStringLiteral("replaceInUse") << QJsonValue(QStringLiteral("yes"));
        const auto fix = [](const QJsonValue &action, const QJsonValue &index, const QJsonValue &entry) {
            QJsonObject object{{QStringLiteral("action"), action}, {QStringLiteral("index"), index}};
            if (!entry.isUndefined())
                object.insert(QStringLiteral("entry"), entry);
            return QJsonValue(QJsonArray{object});
        };
        const QJsonValue remove(QStringLiteral("remove"));
        const QJsonValue entry(QStringLiteral("C:\\tools\\bin"));
        QTest::newRow("fixes no list") << QStringLiteral("pathFixes") << QJsonValue(QStringLiteral("all"));
        QTest::newRow("fix action") << QStringLiteral("pathFixes")
                                    << fix(QStringLiteral("run-program"), 1, entry);
        QTest::newRow("fix index below 0") << QStringLiteral("pathFixes") << fix(remove, -1, entry);
        QTest::newRow("fix index fraction") << QStringLiteral("pathFixes") << fix(remove, 1.5, entry);
        QTest::newRow("fix index text")
            << QStringLiteral("pathFixes") << fix(remove, QStringLiteral("1"), entry);
        QTest::newRow("fix entry none") << QStringLiteral("pathFixes") << fix(remove, 1, QJsonValue());
        QTest::newRow("fix entry empty") << QStringLiteral("pathFixes") << fix(remove, 1, QString());
        QTest::newRow("fixes without PATH")
            << QStringLiteral("target/pathScope") << QJsonValue(QStringLiteral("none"));
    }

    void damagedPlansAreRefused()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QJsonObject json = aPlan().toJson();
        const QString outer = path.section(QLatin1Char('/'), 0, 0);
        const QString inner = path.section(QLatin1Char('/'), 1);
        if (inner.isEmpty()) {
            json.insert(outer, value);
        } else {
            QJsonObject part = json.value(outer).toObject();
            if (value.isUndefined() || value.isNull())
                part.remove(inner);
            else
                part.insert(inner, value);
            json.insert(outer, part);
        }
        const Expected<InstallPlan> read = InstallPlan::fromJson(json);
        QVERIFY(!read);
        QCOMPARE(read.error().id, QStringLiteral("plan.invalid"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestInstallPlan)
#include "tst_installplan.moc"
