// The reader of pasted errors: every case of the corpus in tests/fixtures/errors (real texts from
// public threads, each beside its expected signatures) read right, each field from the forms users
// paste it in, and the encodings their tools write.
#include "BuildPaths.h"
#include "Sandbox.h"
#include "Suite.h"
#include "platform/FileSystem.h"
#include "platform/LegacyText.h"
#include "verify/ErrorLog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QStringEncoder>
#include <QTest>

using namespace cudnnsetup;

namespace {

QString corpusFolder()
{
    return BuildPaths::fixtures() + QStringLiteral("/errors");
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString compact(const QJsonValue &value)
{
    return QString::fromUtf8(value.isArray()
                                 ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                 : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

LogSignature only(const QString &text)
{
    const ErrorLog log = readErrorLog(text);
    if (log.signatures.size() != 1) {
        qWarning().noquote() << "expected one signature, got" << compact(log.toJson());
        return {};
    }
    return log.signatures.first();
}

} // namespace

class TestErrorLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each case: NAME.txt as it was posted, NAME.json with its address and expected signatures.
    void corpus_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList cases = QDir(corpusFolder()).entryList({QStringLiteral("*.json")}, QDir::Files);
        for (const QString &file : cases) {
            const QString name = file.chopped(5);
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void corpus()
    {
        QFETCH(QString, name);
        const QJsonObject expected = readJson(QStringLiteral("%1/%2.json").arg(corpusFolder(), name));
        QVERIFY2(expected.value(QStringLiteral("source")).toString().startsWith(QLatin1String("https://")),
                 "each case names the thread it was taken from");
        QFile text(QStringLiteral("%1/%2.txt").arg(corpusFolder(), name));
        QVERIFY(text.open(QIODevice::ReadOnly));
        const ErrorLog log = readErrorLog(errorLogText(text.readAll()));
        const QJsonValue found = log.toJson().value(QStringLiteral("signatures"));
        const QJsonValue wanted = expected.value(QStringLiteral("signatures"));
        QVERIFY2(found == wanted,
                 qPrintable(QStringLiteral("\nfound:  %1\nwanted: %2").arg(compact(found), compact(wanted))));
    }

    // The corpus covers every kind and has texts that are not cuDNN problems at all.
    void corpusCoversEveryKind()
    {
        QSet<QString> kinds;
        int negatives = 0;
        int cases = 0;
        for (const QString &file : QDir(corpusFolder()).entryList({QStringLiteral("*.json")}, QDir::Files)) {
            ++cases;
            const QJsonArray signatures = readJson(corpusFolder() + QLatin1Char('/') + file)
                                              .value(QStringLiteral("signatures"))
                                              .toArray();
            negatives += signatures.isEmpty() ? 1 : 0;
            for (const QJsonValue &signature : signatures)
                kinds.insert(signature.toObject().value(QStringLiteral("kind")).toString());
        }
        QVERIFY2(cases >= 30, qPrintable(QString::number(cases)));
        QVERIFY(negatives >= 4);
        for (const char *kind :
             {"missing-library", "version-mismatch", "gpu-arch-unsupported", "driver-too-old",
              "cpu-only-build", "cudnn-status", "crash-code", "wsl-libcuda"})
            QVERIFY2(kinds.contains(QLatin1String(kind)), kind);
    }

    void versionsFromNumbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("loaded");
        QTest::addColumn<QString>("expected");
        QTest::newRow("cuDNN 8 numbers")
            << "Loaded runtime CuDNN library: 8907 but source was compiled with: 8600."
            << "8.9.7"
            << "8.6.0";
        QTest::newRow("cuDNN 9 numbers")
            << "Found cuDNN version 90100, but JAX was built against version 90501"
            << "9.1.0"
            << "9.5.1";
        QTest::newRow("as written")
            << "Loaded runtime CuDNN library: 9.10.1 but source was compiled with: 9.13.1"
            << "9.10.1"
            << "9.13.1";
    }
    void versionsFromNumbers()
    {
        QFETCH(QString, text);
        const LogSignature signature = only(text);
        QCOMPARE(signature.kind, QStringLiteral("version-mismatch"));
        QTEST(signature.loadedCudnn, "loaded");
        QTEST(signature.expectedCudnn, "expected");
    }

    void driverCudaFromNumber_data()
    {
        QTest::addColumn<QString>("found");
        QTest::addColumn<QString>("cuda");
        QTest::newRow("12.8") << "12080"
                              << "12.8";
        QTest::newRow("11.4") << "11040"
                              << "11.4";
        QTest::newRow("13.0") << "13000"
                              << "13.0";
    }
    void driverCudaFromNumber()
    {
        QFETCH(QString, found);
        const LogSignature signature = only(
            QStringLiteral("RuntimeError: The NVIDIA driver on your system is too old (found version %1).")
                .arg(found));
        QCOMPARE(signature.kind, QStringLiteral("driver-too-old"));
        QTEST(signature.driverCuda, "cuda");
    }

    // What dlerror names is what was missing; the library that needed it stays the library.
    void dlerrorNamesTheMissingDependency()
    {
        const LogSignature signature = only(
            QStringLiteral("W dso_loader.cc:64] Could not load dynamic library 'libcudnn_ops_infer.so.8'; "
                           "dlerror: libcublasLt.so.11: cannot open shared object file: No such file or "
                           "directory"));
        QCOMPARE(signature.kind, QStringLiteral("missing-library"));
        QCOMPARE(signature.library, QStringLiteral("libcudnn_ops_infer.so.8"));
        QCOMPARE(signature.dependency, QStringLiteral("libcublasLt.so.11"));
        QCOMPARE(signature.cudnnMajor, 8);
        const Finding explained = explainSignature(signature);
        QVERIFY2(explained.message.toEnglish().contains(QLatin1String("libcublasLt.so.11")),
                 qPrintable(explained.message.toEnglish()));
    }

    // cuDNN's own words when it ends a program (verify's probe) over a library it loads by name, amid
    // other output.
    void cudnnsOwnLoadFailuresAreRecognised_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("library");
        QTest::addColumn<int>("code");
        QTest::newRow("sub-library not found")
            << QStringLiteral(
                   "probe: starting\r\nCould not locate cudnn_graph64_9.dll. Please make sure it is "
                   "in your library path!\r\nInvalid handle. Cannot load symbol cudnnCreate\r\n")
            << QStringLiteral("cudnn_graph64_9.dll") << 0;
        QTest::newRow("zlib not found (8.x)")
            << QStringLiteral("Could not locate zlibwapi.dll. Please make sure it is in your library path!")
            << QStringLiteral("zlibwapi.dll") << 0;
        QTest::newRow("32-bit zlib")
            << QStringLiteral("Could not load library zlibwapi.dll. Error code 193. Please verify that the "
                              "library is built correctly for your processor architecture (32-bit, 64-bit)")
            << QStringLiteral("zlibwapi.dll") << 193;
        QTest::newRow("cuDNN 8 sub-library")
            << QStringLiteral(
                   "Could not load library cudnn_cnn_infer64_8.dll. Error code 126\nPlease make sure "
                   "cudnn_cnn_infer64_8.dll is in your library path!")
            << QStringLiteral("cudnn_cnn_infer64_8.dll") << 126;
        QTest::newRow("Linux")
            << QStringLiteral(
                   "Could not locate libcudnn_graph.so.9. Please make sure it is in your library path!")
            << QStringLiteral("libcudnn_graph.so.9") << 0;
    }
    void cudnnsOwnLoadFailuresAreRecognised()
    {
        QFETCH(QString, output);
        const LogSignature failure = only(output);
        QCOMPARE(failure.kind, QStringLiteral("missing-library"));
        QTEST(failure.library, "library");
        QTEST(int(failure.code.value_or(0)), "code");
    }

    // NVIDIA's cudnn64_9.dll of one release beside sub-libraries of another: the function it looks
    // for by name is missing, and the explanation says the set is mixed.
    void missingSymbolIsAMixedSet()
    {
        const LogSignature signature =
            only(QStringLiteral("probe: loading\r\nCould not load symbol cudnnGetVersion. Error code 127. "
                                "Program will terminate.\r\n"));
        QCOMPARE(signature.kind, QStringLiteral("missing-library"));
        QCOMPARE(signature.symbol, QStringLiteral("cudnnGetVersion"));
        QCOMPARE(signature.code, std::optional<qint64>(127));
        QVERIFY(signature.library.isEmpty());
        QCOMPARE(signature.toJson().value(QStringLiteral("symbol")).toString(),
                 QStringLiteral("cudnnGetVersion"));
        QCOMPARE(LogSignature::fromJson(signature.toJson()), signature);
        const Finding explained = explainSignature(signature);
        QVERIFY2(explained.message.toEnglish().contains(QLatin1String("different releases")),
                 qPrintable(explained.message.toEnglish()));
        QVERIFY(explained.fix.toEnglish().contains(QLatin1String("one cuDNN release, all of them")));
    }

    // A key line deep in a long log, and one glued to progress-bar updates that only \r separates:
    // found, with the line counted by line feeds.
    void keyLineBuriedOrGlued()
    {
        QString log;
        for (int i = 0; i < 5000; ++i)
            log += QStringLiteral("  File \"/srv/app/module%1.py\", line %1, in step\n").arg(i);
        log +=
            QStringLiteral("model.bin:  10%|#         | 0.3G/3.09G\rmodel.bin: 100%|##########| 3.09G/3.09G "
                           "[00:55<00:00, 55.2MB/s]Could not locate cudnn_graph64_9.dll. Please make sure it "
                           "is in your library path!\r\n");
        log += QStringLiteral("more output\n").repeated(100);
        const LogSignature signature = only(log);
        QCOMPARE(signature.line, 5001);
        QCOMPARE(signature.library, QStringLiteral("cudnn_graph64_9.dll"));
        QCOMPARE(signature.cudnnMajor, 9);
    }

    // A log that prints the same failure for each thread or retry gives it once, at its first line;
    // different failures each count.
    void repeatsCountOnce()
    {
        const QString line = QStringLiteral("Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n");
        const ErrorLog log =
            readErrorLog(QStringLiteral("start\n") + line.repeated(50) +
                         QStringLiteral("Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED\n"));
        QCOMPARE(log.signatures.size(), 2);
        QCOMPARE(log.signatures.at(0).line, 2);
        QCOMPARE(log.signatures.at(1).line, 52);
        QCOMPARE(log.signatures.at(1).status, QStringLiteral("CUDNN_STATUS_ALLOC_FAILED"));
    }

    // Chinese Windows' own words without a WinError number still carry the code.
    void chineseSystemWords_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("code");
        QTest::newRow("module") << "ImportError: DLL load failed while importing _C: 找不到指定的模块。"
                                << 126;
        QTest::newRow("procedure") << "ImportError: DLL load failed while importing _C: 找不到指定的程序。"
                                   << 127;
    }
    void chineseSystemWords()
    {
        QFETCH(QString, text);
        const LogSignature signature = only(text);
        QCOMPARE(signature.kind, QStringLiteral("missing-library"));
        QTEST(int(signature.code.value_or(0)), "code");
    }

    void notRecognised_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("crash without cuDNN") << "Process finished with exit code -1073740791 (0xC0000409)";
        QTest::newRow("cuDNN loaded fine") << "I cuda_dnn.cc:384] Loaded cuDNN version 8400";
        QTest::newRow("WSL, libcuda found") << "/usr/lib/wsl/lib/libcuda.so.1 loaded";
    }
    void notRecognised()
    {
        QFETCH(QString, text);
        QVERIFY(!readErrorLog(text).recognised());
    }

    void encodings_data()
    {
        const QString text =
            QStringLiteral("OSError: [WinError 126] 找不到指定的模块。 Error loading "
                           "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn64_9.dll\" or one of "
                           "its dependencies.");
        QTest::addColumn<QByteArray>("bytes");
        QStringEncoder utf16be(QStringEncoder::Utf16BE);
        QStringEncoder utf16le(QStringEncoder::Utf16LE);
        QTest::newRow("UTF-8") << text.toUtf8();
        QTest::newRow("UTF-8 with BOM") << QByteArray("\xEF\xBB\xBF") + text.toUtf8();
        QTest::newRow("UTF-16LE with BOM") << QByteArray("\xFF\xFE") + QByteArray(utf16le.encode(text));
        QTest::newRow("UTF-16BE with BOM") << QByteArray("\xFE\xFF") + QByteArray(utf16be.encode(text));
        // "找不到指定的模块" in GBK, as a Chinese console writes it.
        QTest::newRow("GBK") << QByteArray(
            "OSError: [WinError 126] \xD5\xD2\xB2\xBB\xB5\xBD\xD6\xB8\xB6\xA8\xB5\xC4"
            "\xC4\xA3\xBF\xE9\xA1\xA3 Error loading \"C:\\venv\\Lib\\site-packages\\"
            "torch\\lib\\cudnn64_9.dll\" or one of its dependencies.");
    }
    void encodings()
    {
        QFETCH(QByteArray, bytes);
        const QString text = errorLogText(bytes);
        QVERIFY2(text.contains(QStringLiteral("找不到指定的模块")), qPrintable(text));
        const LogSignature signature = only(text);
        QCOMPARE(signature.library, QStringLiteral("cudnn64_9.dll"));
        QCOMPARE(signature.code, std::optional<qint64>(126));
    }

    // Bytes that are no text at all still give a text (nothing is thrown away), and no diagnosis.
    void garbageIsReadWithoutDiagnosis()
    {
        QByteArray bytes;
        for (int i = 0; i < 4096; ++i)
            bytes.append(char((i * 37) & 0xFF));
        QVERIFY(!errorLogText(bytes).isEmpty());
        QVERIFY(!readErrorLog(errorLogText(bytes)).recognised());
    }

    void jsonRoundTrip()
    {
        const ErrorLog log = readErrorLog(QStringLiteral(
            "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
            "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_90.\n"
            "Could not load library cudnn_cnn_infer64_8.dll. Error code 193\n"));
        QCOMPARE(log.signatures.size(), 2);
        const ErrorLog back = ErrorLog::fromJson(log.toJson());
        QCOMPARE(back.toJson(), log.toJson());
        QVERIFY(back.signatures.at(0) == log.signatures.at(0));
        QCOMPARE(back.signatures.at(1).code, std::optional<qint64>(193));
        // Unknown is absent, not invented: no driver, no cuDNN versions.
        const QJsonObject arch = log.toJson().value(QStringLiteral("signatures")).toArray().at(0).toObject();
        QVERIFY(!arch.contains(QStringLiteral("driverCuda")));
        QVERIFY(!arch.contains(QStringLiteral("loadedCudnn")));
    }

    // Every kind in plain words with a fix; the line quoted.
    void everyKindIsExplained_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing-library") << "Could not locate cudnn_ops_infer64_8.dll. Please make sure"
                                         << "cuDNN 8";
        QTest::newRow("version-mismatch")
            << "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0"
            << "8.1.0";
        QTest::newRow("sublibrary mismatch") << "cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"
                                             << "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH";
        QTest::newRow("gpu-arch-unsupported")
            << "RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation"
            << "sm_120";
        QTest::newRow("no kernel image")
            << "CUDA error: no kernel image is available for execution on the device"
            << "no kernel image";
        QTest::newRow("driver-too-old") << "The NVIDIA driver on your system is too old (found version 12080)"
                                        << "12.8";
        QTest::newRow("cpu-only-build") << "AssertionError: Torch not compiled with CUDA enabled"
                                        << "CPU-only";
        QTest::newRow("cudnn-status") << "CUDNN_STATUS_EXECUTION_FAILED"
                                      << "CUDNN_STATUS_EXECUTION_FAILED";
        QTest::newRow("crash-code")
            << "Loaded cuDNN version 8907\nProcess finished with exit code -1073740791"
            << "0xC0000409";
        QTest::newRow("wsl-libcuda") << "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"
                                     << "libcuda.so.1";
    }
    void everyKindIsExplained()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        const LogSignature signature = only(text);
        const Finding finding = explainSignature(signature);
        QCOMPARE(finding.id, QStringLiteral("log.") + signature.kind);
        QCOMPARE(finding.severity, Severity::Error);
        QVERIFY2(finding.message.toEnglish().contains(mentions), qPrintable(finding.message.toEnglish()));
        QVERIFY(!finding.message.toEnglish().contains(QLatin1String("%")));
        QVERIFY(!finding.fix.toEnglish().isEmpty());
        QVERIFY(finding.details.startsWith(QStringLiteral("line %1: ").arg(signature.line)));
    }

    // A folder the error names that exists on the inspected system is said so; one that does not, not.
    void namesFoldersPresentOnTheSystem()
    {
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/home/ana/venv/lib/python3.12/site-packages/torch/lib"));
        const FileSystem files(OsFamily::Linux, sandbox.root());
        const LogSignature present = only(QStringLiteral(
            "OSError: /home/ana/venv/lib/python3.12/site-packages/torch/lib/libcudnn_graph.so.9: cannot open "
            "shared object file: No such file or directory"));
        const QString said = explainSignature(present, &files).message.toEnglish();
        QVERIFY2(said.contains(QLatin1String(
                     "/home/ana/venv/lib/python3.12/site-packages/torch/lib named in the error exists")),
                 qPrintable(said));
        const LogSignature absent = only(QStringLiteral(
            "OSError: /home/bo/venv/lib/libcudnn_graph.so.9: cannot open shared object file: No such file"));
        QVERIFY(!explainSignature(absent, &files).message.toEnglish().contains(QLatin1String("exists")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestErrorLog)
#include "tst_errorlog.moc"
