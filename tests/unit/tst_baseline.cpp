// Issue 34: a lab's baseline file read back exactly as written and refused, key by key, when it is
// not one this version reads; the verdict of a drift report (the Nagios codes, worst item first)
// with its flat Intune settings; and the PATH entry judged in the baseline's own scope.
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "platform/MemoryEnvironment.h"
#include "session/Baseline.h"
#include "session/Drift.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace cudnnsetup;

Q_DECLARE_METATYPE(QList<DriftItem::State>)

namespace {

// Every field set, with values that cannot be mistaken for defaults.
Baseline populatedBaseline()
{
    Baseline baseline;
    baseline.created = QStringLiteral("2026-12-03T20:05:11Z");
    baseline.madeFrom = QStringLiteral("machine");
    baseline.driverMinimum = Version::parse(QStringLiteral("560.94"));
    baseline.cudnn = Version::parse(QStringLiteral("9.1.0.70"));
    baseline.cudaMajor = 12;
    baseline.archive = QStringLiteral("\\\\deploy\\cudnn\\cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
    baseline.target.kind = InstallTarget::Kind::Folder;
    baseline.target.root = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
    baseline.target.binFolder = QStringLiteral("bin");
    baseline.target.includeFolder = QStringLiteral("include");
    baseline.target.libFolder = QStringLiteral("lib\\x64");
    baseline.target.pathScope = PathScope::System;
    baseline.pathPosition = Baseline::PathPosition::First;
    baseline.consumers = {{QStringLiteral("torch"), {9}}, {QStringLiteral("app:C:\\Apps\\Whisper"), {}}};
    baseline.verification = {QStringLiteral("load"), QStringLiteral("handle")};
    return baseline;
}

// `object` with the value at `path` ("cudnn.version") replaced, or removed when `value` is undefined.
QJsonObject edited(QJsonObject object, const QStringList &path, const QJsonValue &value)
{
    if (path.size() == 1) {
        if (value.isUndefined())
            object.remove(path.first());
        else
            object.insert(path.first(), value);
        return object;
    }
    object.insert(path.first(), edited(object.value(path.first()).toObject(), path.mid(1), value));
    return object;
}

DriftItem driftItem(const QString &id, DriftItem::State state)
{
    DriftItem entry;
    entry.id = id;
    entry.expected = QStringLiteral("x");
    entry.state = state;
    return entry;
}

} // namespace

class TestBaseline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        const Baseline written = populatedBaseline();
        const Expected<Baseline> read = Baseline::fromJson(written.toJson());
        QVERIFY2(read, qPrintable(read.error().details));
        QCOMPARE(read->toJson(), written.toJson());
        QCOMPARE(read->cudnn.toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(read->cudaMajor, 12);
        QCOMPARE(read->archive, written.archive);
        QCOMPARE(read->target.dllFolder(), QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin"));
        QCOMPARE(read->pathPosition, Baseline::PathPosition::First);
        QCOMPARE(read->consumers.size(), 2);
        QCOMPARE(read->consumers.first().cudnnMajors, QList<int>{9});
        QCOMPARE(read->verification, written.verification);

        // Nulls where nothing is asked: no driver minimum, no archive.
        Baseline bare = written;
        bare.driverMinimum = Version();
        bare.archive.clear();
        const QJsonObject json = bare.toJson();
        QVERIFY(json.value(QStringLiteral("driver")).toObject().value(QStringLiteral("minimum")).isNull());
        QVERIFY(json.value(QStringLiteral("cudnn")).toObject().value(QStringLiteral("archive")).isNull());
        const Expected<Baseline> bareRead = Baseline::fromJson(json);
        QVERIFY(bareRead);
        QVERIFY(!bareRead->driverMinimum.isValid());
        QVERIFY(bareRead->archive.isEmpty());
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QJsonValue>("value"); // undefined: the key removed
        QTest::addColumn<QString>("named");    // the key the finding names
        const auto at = [](const char *dotted) {
            return QString::fromLatin1(dotted).split(QLatin1Char('.'));
        };
        QTest::newRow("another schema")
            << at("schema") << QJsonValue(QStringLiteral("cudnn-setup/baseline/2")) << "schema";
        QTest::newRow("no schema") << at("schema") << QJsonValue(QJsonValue::Undefined) << "schema";
        QTest::newRow("a misspelt key") << at("verifcation") << QJsonValue(QJsonArray()) << "verifcation";
        QTest::newRow("a misspelt nested key")
            << at("cudnn.versoin") << QJsonValue(QStringLiteral("9")) << "cudnn.versoin";
        QTest::newRow("no cuDNN") << at("cudnn") << QJsonValue(QJsonValue::Undefined) << "cudnn";
        QTest::newRow("a version that is none")
            << at("cudnn.version") << QJsonValue(QStringLiteral("nine")) << "cudnn.version";
        QTest::newRow("a CUDA major that is none")
            << at("cudnn.cudaMajor") << QJsonValue(QStringLiteral("12")) << "cudnn.cudaMajor";
        QTest::newRow("an archive that is no path")
            << at("cudnn.archive") << QJsonValue(12) << "cudnn.archive";
        QTest::newRow("a driver that is none")
            << at("driver.minimum") << QJsonValue(QStringLiteral("new")) << "driver.minimum";
        QTest::newRow("a relative target")
            << at("target.root") << QJsonValue(QStringLiteral("cudnn")) << "target";
        QTest::newRow("a scope other than the target's")
            << at("path.scope") << QJsonValue(QStringLiteral("user")) << "path.scope";
        QTest::newRow("an unknown position")
            << at("path.position") << QJsonValue(QStringLiteral("last")) << "path.position";
        QTest::newRow("an unknown stage")
            << at("verification") << QJsonValue(QJsonArray{QStringLiteral("gemm")}) << "verification";
        QTest::newRow("an unknown program")
            << at("consumers")
            << QJsonValue(QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("caffe")}}})
            << "consumers.name";
        QTest::newRow("a major that is none")
            << at("consumers")
            << QJsonValue(
                   QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("torch")},
                                          {QStringLiteral("cudnnMajors"), QJsonArray{QStringLiteral("9")}}}})
            << "consumers.cudnnMajors";
    }
    void refusals()
    {
        QFETCH(QStringList, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, named);
        const Expected<Baseline> read = Baseline::fromJson(edited(populatedBaseline().toJson(), path, value));
        QVERIFY(!read);
        QCOMPARE(read.error().id, QStringLiteral("baseline.invalid"));
        QCOMPARE(read.error().details, named);
        QVERIFY2(read.error().message.toString().contains(named),
                 qPrintable(read.error().message.toString()));
        QVERIFY(!read.error().fix.isEmpty());
    }

    // The worst item decides: broken, then unknown, then drifted.
    void verdict_data()
    {
        QTest::addColumn<QList<DriftItem::State>>("states");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        using S = DriftItem::State;
        QTest::newRow("nothing checked") << QList<S>{} << 0 << "compliant";
        QTest::newRow("all compliant") << QList<S>{S::Compliant, S::Compliant} << 0 << "compliant";
        QTest::newRow("one drifted") << QList<S>{S::Compliant, S::Drifted} << 1 << "drifted";
        QTest::newRow("unknown over drifted") << QList<S>{S::Drifted, S::Unknown} << 3 << "unknown";
        QTest::newRow("broken over unknown") << QList<S>{S::Unknown, S::Broken, S::Drifted} << 2 << "broken";
    }
    void verdict()
    {
        QFETCH(QList<DriftItem::State>, states);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        DriftReport report;
        for (int i = 0; i < states.size(); ++i)
            report.items.append(driftItem(QStringLiteral("item.%1").arg(i), states.at(i)));
        QCOMPARE(report.exitCode(), exitCode);
        QCOMPARE(DriftItem::stateName(report.verdict()), verdict);
        QCOMPARE(report.toJson().value(QStringLiteral("exitCode")).toInt(), exitCode);
        QCOMPARE(report.differences().size(), int(states.size() - states.count(DriftItem::State::Compliant)));
    }

    // One setting per group, always there; a group the baseline does not check is compliant, an
    // unknown item is not.
    void intuneSettings()
    {
        DriftReport report;
        report.items = {driftItem(QStringLiteral("driver"), DriftItem::State::Compliant),
                        driftItem(QStringLiteral("cudnn.version"), DriftItem::State::Compliant),
                        driftItem(QStringLiteral("path.entry"), DriftItem::State::Compliant),
                        driftItem(QStringLiteral("path.order"), DriftItem::State::Drifted),
                        driftItem(QStringLiteral("verification.load"), DriftItem::State::Unknown)};
        report.cudnnVersion = QStringLiteral("9.1.0.70");
        report.cudaMajor = 12;
        const QJsonObject flat = report.intuneJson();
        QCOMPARE(flat.value(QStringLiteral("cudnnCompliant")), QJsonValue(false));
        QCOMPARE(flat.value(QStringLiteral("cudnnComplianceState")).toInt(), 3);
        QCOMPARE(flat.value(QStringLiteral("driverCompliant")), QJsonValue(true));
        QCOMPARE(flat.value(QStringLiteral("cudnnVersionCompliant")), QJsonValue(true));
        QCOMPARE(flat.value(QStringLiteral("cudnnFilesCompliant")), QJsonValue(true));
        QCOMPARE(flat.value(QStringLiteral("pathCompliant")), QJsonValue(false));
        QCOMPARE(flat.value(QStringLiteral("consumerCompliant")), QJsonValue(true));
        QCOMPARE(flat.value(QStringLiteral("verificationCompliant")), QJsonValue(false));
        QCOMPARE(flat.value(QStringLiteral("cudnnDifferences")).toString(),
                 QStringLiteral("path.order,verification.load"));
        QCOMPARE(flat.value(QStringLiteral("cudnnVersion")).toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(flat.value(QStringLiteral("cudnnCudaMajor")).toInt(), 12);
        QVERIFY(flat.value(QStringLiteral("driverVersion")).isNull());
    }

    // Where the registry is known, the PATH of the baseline's own scope is judged: the DLL folder
    // on the user PATH does not stand in for the system PATH a lab's baseline asks for. Either way
    // the entry is the repair file's to put back (drifted), with the target and scope named in it.
    void pathEntryInItsScope_data()
    {
        QTest::addColumn<QString>("machinePath");
        QTest::addColumn<QString>("userPath");
        QTest::addColumn<QString>("state");
        const QString folder = populatedBaseline().target.dllFolder();
        QTest::newRow("on the system PATH")
            << QStringLiteral("C:\\Windows;") + folder << QString() << "compliant";
        QTest::newRow("on the user PATH only") << QStringLiteral("C:\\Windows") << folder << "drifted";
        QTest::newRow("on neither") << QStringLiteral("C:\\Windows") << QStringLiteral("C:\\Tools")
                                    << "drifted";
    }
    void pathEntryInItsScope()
    {
        QFETCH(QString, machinePath);
        QFETCH(QString, userPath);
        QFETCH(QString, state);
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const auto stored = std::make_shared<MemoryEnvironment>();
        stored->set(EnvironmentScope::System, QStringLiteral("Path"), {machinePath, true});
        if (!userPath.isEmpty())
            stored->set(EnvironmentScope::User, QStringLiteral("Path"), {userPath, true});
        const SystemContext context = SystemContext::rooted(sandbox.root()).withStoredEnvironment(stored);
        Baseline baseline = populatedBaseline();
        baseline.pathPosition = Baseline::PathPosition::Any;
        baseline.driverMinimum = Version();
        baseline.consumers.clear();
        const DriftReport report =
            compareWithBaseline(baseline, context, SystemSnapshot(), KnowledgeBase::embedded());
        const auto entry =
            std::find_if(report.items.cbegin(), report.items.cend(),
                         [](const DriftItem &item) { return item.id == QLatin1String("path.entry"); });
        QVERIFY(entry != report.items.cend());
        QCOMPARE(DriftItem::stateName(entry->state), state);
        QVERIFY(report.repair); // the cuDNN itself is not installed in the sandbox either
        QCOMPARE(report.repair->target, baseline.target.spec());
        QCOMPARE(report.repair->path, QStringLiteral("system"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestBaseline)
#include "tst_baseline.moc"
