#include "Sandbox.h"
#include "Suite.h"
#include "detect/SystemSnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace cudnnsetup;

namespace {
// `written` holds every key and value of `recorded`, at every depth (it may hold more).
bool keepsEveryRecordedValue(const QJsonValue &written, const QJsonValue &recorded)
{
    if (recorded.isObject()) {
        const QJsonObject object = recorded.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!keepsEveryRecordedValue(written.toObject().value(it.key()), it.value())) {
                qWarning() << "differs at" << it.key();
                return false;
            }
        }
        return written.isObject();
    }
    if (recorded.isArray()) {
        const QJsonArray items = recorded.toArray();
        if (!written.isArray() || written.toArray().size() != items.size())
            return false;
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (!keepsEveryRecordedValue(written.toArray().at(i), items.at(i)))
                return false;
        }
        return true;
    }
    return written == recorded;
}
} // namespace

class TestSnapshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // What cudnnctl printed on the real H200 machine reads back through the schema unchanged.
    void realH200Recording()
    {
        const QJsonDocument document = QJsonDocument::fromJson(
            Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect.json")));
        QVERIFY(document.isObject());
        const auto snapshot = SystemSnapshot::fromJson(document.object());
        QVERIFY(snapshot);
        // Every value recorded survives reading and writing back (keys added since are extra).
        const QJsonObject written = snapshot->toJson();
        const QJsonObject recorded = document.object();
        QVERIFY(keepsEveryRecordedValue(written, recorded));
        QCOMPARE(SystemSnapshot::fromJson(written)->toJson(), written);

        QCOMPARE(snapshot->os.name, QStringLiteral("Ubuntu 24.04.3 LTS"));
        QCOMPARE(snapshot->gpus.size(), 1);
        QCOMPARE(snapshot->gpus.first().name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(snapshot->gpus.first().computeCapability, QStringLiteral("9.0"));
        QCOMPARE(snapshot->gpus.first().source, QStringLiteral("nvml"));
        QVERIFY(snapshot->driver);
        QVERIFY(snapshot->driver->version.startsWith(QLatin1String("580.")));
        QCOMPARE(snapshot->driver->maxCuda, QStringLiteral("13.0"));
        QCOMPARE(snapshot->driver->maxCudaSource, QStringLiteral("cuDriverGetVersion"));
        QCOMPARE(snapshot->cudaToolkits.size(), 1);
        QCOMPARE(snapshot->cudaToolkits.first().path, QStringLiteral("/usr/local/cuda-13.0"));
        QCOMPARE(snapshot->cudaToolkits.first().version, QStringLiteral("13.0.2"));

        QCOMPARE(snapshot->cudnn.size(), 2);
        QStringList sources;
        for (const CudnnCopy &copy : snapshot->cudnn) {
            sources.append(copy.source + QLatin1Char(' ') + copy.version);
            QCOMPARE(copy.cudaMajor, std::optional<int>(13));
        }
        sources.sort();
        QCOMPARE(sources, (QStringList{QStringLiteral("pip 9.19.0"), QStringLiteral("system 9.14.0")}));
        QCOMPARE(snapshot->cudnnLoadedByDefault()->path,
                 QStringLiteral("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"));

        // torch loads the wheel's cuDNN, not the system's (the point collect_env misses).
        const PythonInstall &torchPython = snapshot->pythons.first();
        QVERIFY(torchPython.torch);
        QCOMPARE(torchPython.torch->cudnn, QStringLiteral("9.19.0"));
        QVERIFY(torchPython.torch->cudnnLoadedFrom.contains(QLatin1String("site-packages/nvidia/cudnn/lib")));
    }

    void schemaIsChecked()
    {
        QVERIFY(!SystemSnapshot::fromJson(QJsonObject{}));
        QVERIFY(!SystemSnapshot::fromJson(
            QJsonObject{{QStringLiteral("schema"), QStringLiteral("cudnn-setup/snapshot/2")}}));
    }

    void unknownStaysNull()
    {
        SystemSnapshot snapshot;
        CudnnCopy copy;
        copy.path = QStringLiteral("C:\\Windows\\System32\\cudnn64_8.dll");
        snapshot.cudnn.append(copy);
        const QJsonObject json = snapshot.toJson();
        QVERIFY(json.value(QStringLiteral("driver")).isNull());
        const QJsonObject copyJson = json.value(QStringLiteral("cudnn")).toArray().first().toObject();
        QVERIFY(copyJson.value(QStringLiteral("version")).isNull());
        QVERIFY(copyJson.value(QStringLiteral("cudaMajor")).isNull());
        QVERIFY(copyJson.value(QStringLiteral("loadOrder")).isNull());
        QVERIFY(json.value(QStringLiteral("cudnnLoadedByDefault")).isNull());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
