#include "Sandbox.h"
#include "compat/KnowledgeBase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace cudnnsetup;

namespace {

QJsonObject minimal()
{
    return QJsonDocument::fromJson(Sandbox::readFixture(QStringLiteral("compat/minimal.json"))).object();
}

QByteArray bytes(const QJsonObject &object)
{
    return QJsonDocument(object).toJson();
}

} // namespace

class TestKnowledgeBase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsAValidDatabase()
    {
        const auto kb = KnowledgeBase::parse(bytes(minimal()));
        QVERIFY2(kb, qPrintable(kb.ok() ? QString() : kb.error().details));
        QCOMPARE(kb->version(), QStringLiteral("2099.01.01"));
        // Table 3: the exact update, else the major.minor's GA.
        QCOMPARE(
            kb->toolkitMinimumDriver(OsFamily::Windows, Version::parse(QStringLiteral("12.0.1"))).toString(),
            QStringLiteral("528.33"));
        QCOMPARE(
            kb->toolkitMinimumDriver(OsFamily::Windows, Version::parse(QStringLiteral("12.0"))).toString(),
            QStringLiteral("527.41"));
        QCOMPARE(
            kb->toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("12.0.1"))).toString(),
            QStringLiteral("525.85.12"));
        QVERIFY(!kb->toolkitMinimumDriver(OsFamily::Windows, Version::parse(QStringLiteral("13.0")))
                     .isValid()); // N/A stays unknown
        QVERIFY(!kb->toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("11.8"))).isValid());
        // Branches: a Windows build number belongs to the branch below it; 565 reports 12.7.
        QCOMPARE(kb->maxCudaForDriver(Version::parse(QStringLiteral("528.33"))).toString(),
                 QStringLiteral("12.0"));
        QCOMPARE(kb->maxCudaForDriver(Version::parse(QStringLiteral("566.36"))).toString(),
                 QStringLiteral("12.7"));
        QCOMPARE(kb->maxCudaForDriver(Version::parse(QStringLiteral("610.43.02"))).toString(),
                 QStringLiteral("13.0"));
        QVERIFY(!kb->maxCudaForDriver(Version::parse(QStringLiteral("470.82.01"))).isValid());
        QVERIFY(kb->cudnnRelease(Version::parse(QStringLiteral("8.9.6"))));
        QVERIFY(kb->cudnnRelease(Version::parse(QStringLiteral("8.9.6.50"))));
        QVERIFY(!kb->cudnnRelease(Version::parse(QStringLiteral("8.9.7"))));
        QCOMPARE(kb->cudnnRelease(Version::parse(QStringLiteral("8.9.6")))
                     ->variantForCudaMajor(12)
                     ->cudaMax.toString(),
                 QStringLiteral("12.2"));
        QVERIFY(kb->archiveBySha256(
            QStringLiteral("0000000000000000000000000000000000000000000000000000000000000001")));
        QVERIFY(kb->archiveByFile(QStringLiteral("CUDNN-windows-x86_64-8.9.6.50_cuda12-archive.zip")));
    }

    void gpuNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("computeCapability");
        QTest::newRow("desktop") << "NVIDIA GeForce RTX 4090"
                                 << "8.9";
        QTest::newRow("laptop") << "NVIDIA GeForce RTX 4070 Laptop GPU"
                                << "8.9";
        QTest::newRow("max-q") << "NVIDIA GeForce RTX 4080 Laptop GPU with Max-Q Design"
                               << "8.9";
        QTest::newRow("trademark") << "NVIDIA(R) GeForce RTX 4060 Ti"
                                   << "8.9";
        QTest::newRow("unknown") << "NVIDIA Quantum Widget 9000"
                                 << "";
    }
    void gpuNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, computeCapability);
        const auto kb = KnowledgeBase::parse(bytes(minimal()));
        const auto cc = kb->computeCapabilityForGpu(name);
        QCOMPARE(cc ? cc->toString() : QString(), computeCapability);
    }

    void refusesBrokenDatabases_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("problem");
        QTest::newRow("wrong schema") << "schema"
                                      << "schema";
        QTest::newRow("bad version in a row") << "toolkitVersion"
                                              << "cudaToolkits[0].version";
        QTest::newRow("unknown source") << "source"
                                        << "unknown source";
        QTest::newRow("bad hash") << "hash"
                                  << "64 hexadecimal";
        QTest::newRow("unsorted branches") << "branches"
                                           << "sorted";
        QTest::newRow("range backwards") << "range"
                                         << "below cudaMin";
        QTest::newRow("bad pattern") << "pattern"
                                     << "gpus[0].pattern";
    }
    void refusesBrokenDatabases()
    {
        QFETCH(QString, key);
        QFETCH(QString, problem);
        QJsonObject db = minimal();
        const auto edit = [&](const char *section, int index, const char *field, const QJsonValue &value) {
            QJsonArray array = db.value(QLatin1String(section)).toArray();
            QJsonObject item = array.at(index).toObject();
            item.insert(QLatin1String(field), value);
            array.replace(index, item);
            db.insert(QLatin1String(section), array);
        };
        if (key == QLatin1String("schema"))
            db.insert(QStringLiteral("schema"), QStringLiteral("something-else/1"));
        else if (key == QLatin1String("toolkitVersion"))
            edit("cudaToolkits", 0, "version", QStringLiteral("twelve"));
        else if (key == QLatin1String("source"))
            edit("driverBranches", 0, "sources", QJsonArray{QStringLiteral("NOWHERE")});
        else if (key == QLatin1String("hash"))
            edit("archives", 0, "sha256", QStringLiteral("abc"));
        else if (key == QLatin1String("branches"))
            edit("driverBranches", 0, "branch", 999);
        else if (key == QLatin1String("range")) {
            QJsonArray releases = db.value(QStringLiteral("cudnnReleases")).toArray();
            QJsonObject release = releases.at(0).toObject();
            QJsonArray variants = release.value(QStringLiteral("variants")).toArray();
            QJsonObject variant = variants.at(0).toObject();
            variant.insert(QStringLiteral("cudaMin"), QStringLiteral("12.5")); // above its cudaMax, 12.2
            variants.replace(0, variant);
            release.insert(QStringLiteral("variants"), variants);
            releases.replace(0, release);
            db.insert(QStringLiteral("cudnnReleases"), releases);
        } else if (key == QLatin1String("pattern"))
            edit("gpus", 0, "pattern", QStringLiteral("(unclosed"));
        const auto kb = KnowledgeBase::parse(bytes(db));
        QVERIFY(!kb);
        QCOMPARE(kb.error().id, QStringLiteral("compat-db.invalid"));
        QVERIFY2(kb.error().details.contains(problem), qPrintable(kb.error().details));
    }

    void refusesNonJson()
    {
        QVERIFY(!KnowledgeBase::parse(QByteArray("{\"schema\": ")));
        QVERIFY(!KnowledgeBase::parse(QByteArray("[]")));
        QVERIFY(!KnowledgeBase::parse(QByteArray()));
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeBase)
#include "tst_knowledgebase.moc"
