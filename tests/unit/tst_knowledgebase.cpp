#include "Sandbox.h"
#include "Suite.h"
#include "compat/DatabaseChoice.h"
#include "compat/KnowledgeBase.h"

#include <algorithm>

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

QByteArray withVersion(const QString &version)
{
    QJsonObject db = minimal();
    db.insert(QStringLiteral("version"), version);
    return bytes(db);
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
    // The names students' GPUs report, as nvidia-smi prints them (compat-audit.md, section D and
    // its gaps): each to the compute capability NVIDIA gives it.
    void embeddedGpuNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("computeCapability");
        QTest::addColumn<QString>("architecture");
        const char *const rows[][3] = {
            {"NVIDIA GeForce GTX 1080 Ti", "6.1", "Pascal"},
            {"NVIDIA GeForce GTX 1630", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 1650", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 1650 Ti with Max-Q Design", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 1650 SUPER", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 1660 SUPER", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 1660 Ti", "7.5", "Turing"},
            {"NVIDIA GeForce GTX 960M", "5.0", "Maxwell"},
            {"NVIDIA GeForce GTX 980M", "5.2", "Maxwell"},
            {"NVIDIA GeForce 940M", "5.0", "Maxwell"},
            {"NVIDIA GeForce MX450", "7.5", "Turing"},
            {"NVIDIA GeForce MX550", "7.5", "Turing"},
            {"NVIDIA GeForce MX570", "8.6", "Ampere"},
            {"NVIDIA TITAN RTX", "7.5", "Turing"},
            {"NVIDIA GeForce RTX 2050", "8.6", "Ampere"}, // a GA107, not a Turing part
            {"NVIDIA GeForce RTX 2060", "7.5", "Turing"},
            {"NVIDIA GeForce RTX 2080 Super with Max-Q Design", "7.5", "Turing"},
            {"Jetson AGX Orin", "8.7", "Ampere"},
            {"Jetson Orin Nano", "8.7", "Ampere"},
            {"Jetson Xavier NX", "7.2", "Volta"},
            {"Jetson TX2", "6.2", "Pascal"},
            // Outside the GeForce patterns (issue 32): workstation and TITAN names as drivers print them.
            {"NVIDIA TITAN Xp", "6.1", "Pascal"},
            {"NVIDIA TITAN X (Pascal)", "6.1", "Pascal"},
            {"NVIDIA GeForce GTX TITAN X", "5.2", "Maxwell"},
            {"Quadro P1000", "6.1", "Pascal"},
            {"Quadro M1200", "5.0", "Maxwell"},
            {"Quadro K2200", "5.0", "Maxwell"},
            {"Quadro T2000 with Max-Q Design", "7.5", "Turing"},
            {"Quadro GV100", "7.0", "Volta"},
            {"NVIDIA T1000 8GB", "7.5", "Turing"},
            {"NVIDIA RTX A2000 12GB", "8.6", "Ampere"},
            {"NVIDIA RTX 6000 Ada Generation", "8.9", "Ada Lovelace"},
            {"NVIDIA RTX PRO 4000 Blackwell SFF Edition", "12.0", "Blackwell"},
            {"NVIDIA GB10", "12.1", "Blackwell"},
        };
        for (const auto &row : rows)
            QTest::newRow(row[0]) << QString::fromLatin1(row[0]) << QString::fromLatin1(row[1])
                                  << QString::fromLatin1(row[2]);
    }
    void embeddedGpuNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, computeCapability);
        QFETCH(QString, architecture);
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const auto cc = kb.computeCapabilityForGpu(name);
        QVERIFY2(cc, "unknown");
        QCOMPARE(cc->toString(), computeCapability);
        QCOMPARE(kb.architectureName(*cc), architecture);
    }

    // Every GPU of NVIDIA's CUDA GPUs pages (fixtures/compat/cuda-gpus.csv), one row each, with its
    // name as NVIDIA prints it and as the driver reports it (with "NVIDIA " in front).
    void nvidiaTableGpus_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("computeCapability");
        const QList<QByteArray> lines =
            Sandbox::readFixture(QStringLiteral("compat/cuda-gpus.csv")).split('\n');
        int rows = 0;
        for (const QByteArray &line : lines) {
            if (line.isEmpty() || line.startsWith('#') || line.startsWith("name,"))
                continue;
            const QList<QByteArray> fields = line.split(',');
            QVERIFY2(fields.size() == 3, line.constData());
            QTest::newRow(fields.at(0).constData())
                << QString::fromUtf8(fields.at(0)) << QString::fromUtf8(fields.at(1));
            ++rows;
        }
        QVERIFY2(rows > 0, "fixtures/compat/cuda-gpus.csv lists no GPU");
    }
    void nvidiaTableGpus()
    {
        QFETCH(QString, name);
        QFETCH(QString, computeCapability);
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        for (const QString &printed :
             {name, name.startsWith(QLatin1String("NVIDIA ")) ? name : QStringLiteral("NVIDIA ") + name}) {
            const auto cc = kb.computeCapabilityForGpu(printed);
            QVERIFY2(cc, qPrintable(printed + QStringLiteral(": unknown")));
            QCOMPARE(cc->toString(), computeCapability);
            QVERIFY2(!kb.architectureName(*cc).isEmpty(), qPrintable(cc->toString()));
        }
    }

    // From 9.11 cuDNN carries no device code before Turing: releases without a matrix of their
    // own list only what both 9.10.2's and 9.17's matrices list.
    void noPreTuringGpusFromCudnn911()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        for (const CudnnRelease &release : kb.cudnnReleases()) {
            if (release.version < Version::parse(QStringLiteral("9.11")))
                continue;
            for (const CudnnVariant &variant : release.variants) {
                for (const Version &cc : variant.computeCapabilities)
                    QVERIFY2(cc >= Version::parse(QStringLiteral("7.5")),
                             qPrintable(release.version.toString() + QLatin1Char(' ') + cc.toString()));
            }
        }
        // 9.1.0's matrix row for CUDA 12 (12.4, Maxwell to Hopper); the releases up to 9.5's
        // matrix take the narrower of the two rows.
        const CudnnRelease *first = kb.cudnnRelease(Version::parse(QStringLiteral("9.1.0")));
        QVERIFY(first && first->variant(QStringLiteral("12")));
        QCOMPARE(first->variant(QStringLiteral("12"))->cudaMax.toString(), QStringLiteral("12.4"));
        const CudnnRelease *between = kb.cudnnRelease(Version::parse(QStringLiteral("9.3.0")));
        QVERIFY(between && between->variant(QStringLiteral("12")));
        QCOMPARE(between->variant(QStringLiteral("12"))->cudaMax.toString(), QStringLiteral("12.4"));
        QCOMPARE(between->variant(QStringLiteral("12"))->rangeFrom.size(), 2);
        const CudnnRelease *last = kb.cudnnRelease(Version::parse(QStringLiteral("9.10.2")));
        QVERIFY(last && last->variant(QStringLiteral("12")));
        QVERIFY(last->variant(QStringLiteral("12"))
                    ->computeCapabilities.contains(Version::parse(QStringLiteral("6.1"))));
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

    // The database the program carries: NVIDIA's tables as the reference gives them.
    void embeddedDatabase()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        QVERIFY(!kb.version().isEmpty());
        QVERIFY(Version::parse(kb.version()) < Version::parse(QStringLiteral("2099.01.01")));
        const auto windows = [&](const char *toolkit) {
            return kb.toolkitMinimumDriver(OsFamily::Windows, Version::parse(QLatin1String(toolkit)))
                .toString();
        };
        const auto linux = [&](const char *toolkit) {
            return kb.toolkitMinimumDriver(OsFamily::Linux, Version::parse(QLatin1String(toolkit)))
                .toString();
        };
        QCOMPARE(windows("12.0"), QStringLiteral("527.41"));
        QCOMPARE(windows("12.0.1"), QStringLiteral("528.33"));
        QCOMPARE(linux("12.0"), QStringLiteral("525.60.13"));
        QCOMPARE(windows("11.8"), QStringLiteral("520.06"));
        QCOMPARE(windows("12.8"), QStringLiteral("570.65"));
        QCOMPARE(linux("12.8"), QStringLiteral("570.26"));
        QCOMPARE(linux("13.0"), QStringLiteral("580.65.06"));
        QCOMPARE(windows("13.0"), QString()); // Table 3 prints N/A
        QCOMPARE(kb.maxCudaForDriver(Version::parse(QStringLiteral("565.90"))).toString(),
                 QStringLiteral("12.7"));
        QCOMPARE(kb.maxCudaForDriver(Version::parse(QStringLiteral("537.13"))).toString(),
                 QStringLiteral("12.2"));
        QCOMPARE(kb.firstBranchSupporting(Version::parse(QStringLiteral("13.0"))), 580);
        QCOMPARE(kb.firstBranchSupporting(Version::parse(QStringLiteral("12.8.1"))), 570);
        // CUDA 13.4 pairs with branch R615 (its notes publish no exact minimum): a 615.xx driver
        // runs it, one of R610 does not; 13.5's driver is not known.
        QCOMPARE(kb.maxCudaForDriver(Version::parse(QStringLiteral("615.71.09"))).toString(),
                 QStringLiteral("13.4"));
        QCOMPARE(kb.maxCudaForDriver(Version::parse(QStringLiteral("610.43.02"))).toString(),
                 QStringLiteral("13.3"));
        QCOMPARE(
            kb.toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("13.4.1"))).toString(),
            QStringLiteral("615"));
        QVERIFY(
            !kb.toolkitMinimumDriver(OsFamily::Linux, Version::parse(QStringLiteral("13.5.0"))).isValid());
        QCOMPARE(kb.minimumComputeCapabilityForCuda(12).toString(), QStringLiteral("5.0"));
        QCOMPARE(kb.minimumComputeCapabilityForCuda(13).toString(), QStringLiteral("7.5"));

        const CudnnRelease *release = kb.cudnnRelease(Version::parse(QStringLiteral("8.9.7.29")));
        QVERIFY(release);
        QVERIFY(release->variant(QStringLiteral("11")));
        QVERIFY(release->variant(QStringLiteral("12")));
        QCOMPARE(release->variant(QStringLiteral("12"))->cudaMax.toString(), QStringLiteral("12.2"));
        QCOMPARE(release->variant(QStringLiteral("12"))->windowsDriverMin.toString(),
                 QStringLiteral("527.41"));
        const KnownArchive *archive =
            kb.archiveByFile(QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"));
        QVERIFY(archive);
        QVERIFY(archive->sha256.startsWith(QLatin1String("94fc17af")));
        QCOMPARE(kb.archiveBySha256(archive->sha256), archive);
        // What the archive inspector is handed: the same records, with the database's version.
        const PublishedArchives &published = kb.publishedArchives();
        QCOMPARE(published.bySha256(archive->sha256.toUpper()), archive);
        QCOMPARE(published.databaseVersion(), kb.version());
        QVERIFY(published.largestSize() >= archive->size);
        QVERIFY(std::any_of(published.all().cbegin(), published.all().cend(), [&](const KnownArchive &known) {
            return known.size == published.largestSize();
        }));
        QVERIFY(!archive->sources.isEmpty());
        QVERIFY(kb.sourceUrl(archive->sources.first()).startsWith(QLatin1String("http")));

        QCOMPARE(kb.computeCapabilityForGpu(QStringLiteral("NVIDIA H200"))->toString(),
                 QStringLiteral("9.0"));
        QCOMPARE(kb.computeCapabilityForGpu(QStringLiteral("NVIDIA GeForce RTX 4090 Laptop GPU"))->toString(),
                 QStringLiteral("8.9"));
        QVERIFY(!kb.computeCapabilityForGpu(QStringLiteral("NVIDIA GeForce RTX 5090 Ti")));
        QCOMPARE(kb.tensorflowLastNativeWindowsGpu().toString(), QStringLiteral("2.10"));
        QCOMPARE(kb.zlibNeededFrom().toString(), QStringLiteral("8.3.0"));
        QCOMPARE(kb.zlibNeededBefore().toString(), QStringLiteral("9.2.0"));

        // Every record names where it comes from.
        for (const CudnnRelease &each : kb.cudnnReleases()) {
            QVERIFY2(!each.sources.isEmpty(), qPrintable(each.version.toString()));
            for (const CudnnVariant &variant : each.variants)
                QVERIFY2(!variant.sources.isEmpty(), qPrintable(each.version.toString() + variant.cuda));
        }
    }

    void choosesTheDatabase_data()
    {
        QTest::addColumn<QString>("explicitFile"); // written to the sandbox unless empty
        QTest::addColumn<QByteArray>("explicitContent");
        QTest::addColumn<QByteArray>("besideContent"); // cudnn-compat.json beside the program
        QTest::addColumn<QString>("version");          // of the database in use
        QTest::addColumn<bool>("usesAFile");
        QTest::addColumn<QString>("finding"); // "severity:id" or empty

        const QByteArray none;
        const QString builtIn = KnowledgeBase::embedded().version();
        QTest::newRow("nothing: built in") << QString() << none << none << builtIn << false << QString();
        QTest::newRow("newer beside the program")
            << QString() << none << withVersion(QStringLiteral("2099.01.01")) << "2099.01.01" << true
            << QString();
        QTest::newRow("older beside the program is ignored")
            << QString() << none << withVersion(QStringLiteral("2000.01.01")) << builtIn << false
            << QString();
        QTest::newRow("broken beside the program: warning, built in")
            << QString() << none << QByteArray("{\"schema\": ") << builtIn << false
            << "warning:compat-db.unusable";
        QTest::newRow("named newer") << "mine.json" << withVersion(QStringLiteral("2099.01.01")) << none
                                     << "2099.01.01" << true << QString();
        QTest::newRow("named older is used as asked")
            << "mine.json" << withVersion(QStringLiteral("2000.01.01")) << none << "2000.01.01" << true
            << "info:compat-db.older";
        QTest::newRow("named wins over beside")
            << "mine.json" << withVersion(QStringLiteral("2098.01.01"))
            << withVersion(QStringLiteral("2099.01.01")) << "2098.01.01" << true << QString();
        QTest::newRow("named broken: error, built in") << "mine.json" << QByteArray("not json") << none
                                                       << builtIn << false << "error:compat-db.unusable";
        QTest::newRow("named missing: error, built in")
            << "missing.json" << none << none << builtIn << false << "error:compat-db.unusable";
    }

    void choosesTheDatabase()
    {
        QFETCH(QString, explicitFile);
        QFETCH(QByteArray, explicitContent);
        QFETCH(QByteArray, besideContent);
        QFETCH(QString, version);
        QFETCH(bool, usesAFile);
        QFETCH(QString, finding);

        Sandbox sandbox;
        const QString programFolder = sandbox.hostPath(QStringLiteral("/program"));
        sandbox.mkdir(QStringLiteral("/program"));
        if (!besideContent.isEmpty())
            sandbox.write(QStringLiteral("/program/cudnn-compat.json"), besideContent);
        QString explicitPath;
        if (!explicitFile.isEmpty()) {
            explicitPath = sandbox.hostPath(QLatin1Char('/') + explicitFile);
            if (!explicitContent.isEmpty())
                sandbox.write(QLatin1Char('/') + explicitFile, explicitContent);
        }
        const DatabaseChoice choice = DatabaseChoice::choose(explicitPath, programFolder);
        QCOMPARE(choice.database.version(), version);
        QCOMPARE(choice.origin != QLatin1String("embedded"), usesAFile);
        if (finding.isEmpty()) {
            QVERIFY(choice.findings.isEmpty());
        } else {
            QCOMPARE(choice.findings.size(), 1);
            QCOMPARE(severityName(choice.findings.first().severity), finding.section(QLatin1Char(':'), 0, 0));
            QCOMPARE(choice.findings.first().id, finding.section(QLatin1Char(':'), 1));
            QVERIFY(!choice.findings.first().message.toEnglish().contains(QLatin1Char('%')));
        }
    }

    void refusesNonJson()
    {
        QVERIFY(!KnowledgeBase::parse(QByteArray("{\"schema\": ")));
        QVERIFY(!KnowledgeBase::parse(QByteArray("[]")));
        QVERIFY(!KnowledgeBase::parse(QByteArray()));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestKnowledgeBase)
#include "tst_knowledgebase.moc"
