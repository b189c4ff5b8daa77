// Loader, cuDNN and CUDA error codes in plain words: each known code to its name and cause, unknown
// ones to a fallback, and cuDNN 8's numbers kept apart from cuDNN 9's.
#include "Suite.h"
#include "verify/LoadErrors.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace cudnnsetup;

namespace {

// The enumerators `NAME = number` of a C header, where the header is installed.
QList<std::pair<QString, qint64>> enumerators(const QString &header, const QString &prefix)
{
    QFile file(header);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<std::pair<QString, qint64>> result;
    static const QRegularExpression line(QStringLiteral(R"(^\s*(\w+)\s*=\s*(\d+)\s*,?\s*(/\*.*)?$)"));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (const QString &text : lines) {
        const auto match = line.match(text);
        if (match.hasMatch() && match.captured(1).startsWith(prefix))
            result.append({match.captured(1), match.captured(2).toLongLong()});
    }
    return result;
}

void verifyComplete(const ErrorExplanation &explanation)
{
    QVERIFY(!explanation.name.isEmpty());
    QVERIFY(!explanation.cause.toEnglish().isEmpty());
    QVERIFY(!explanation.fix.toEnglish().isEmpty());
    QVERIFY2(!explanation.cause.toEnglish().contains(QLatin1String("%1")), qPrintable(explanation.name));
}

} // namespace

class TestLoadErrors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void windowsCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("causeMentions");
        QTest::addColumn<QString>("fixMentions");
        QTest::newRow("126") << 126 << "ERROR_MOD_NOT_FOUND"
                             << "zlibwapi.dll"
                             << "whole bin folder";
        QTest::newRow("127") << 127 << "ERROR_PROC_NOT_FOUND"
                             << "older or other copy"
                             << "Remove the older copy";
        QTest::newRow("193") << 193 << "ERROR_BAD_EXE_FORMAT"
                             << "32-bit"
                             << "64-bit";
        QTest::newRow("0xC0000135") << int(0xC0000135u) << "STATUS_DLL_NOT_FOUND"
                                    << "126"
                                    << "zlibwapi.dll";
    }
    void windowsCodes()
    {
        QFETCH(int, code);
        QFETCH(QString, name);
        QFETCH(QString, causeMentions);
        QFETCH(QString, fixMentions);
        const ErrorExplanation explanation =
            explainLoaderError(code, QStringLiteral("The specified module could not be found."),
                               QStringLiteral("cudnn_cnn_infer64_8.dll"));
        verifyComplete(explanation);
        QCOMPARE(explanation.name, name);
        QVERIFY2(explanation.cause.toEnglish().contains(causeMentions),
                 qPrintable(explanation.cause.toEnglish()));
        QVERIFY2(explanation.fix.toEnglish().contains(fixMentions), qPrintable(explanation.fix.toEnglish()));
        QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("cudnn_cnn_infer64_8.dll")));
    }

    // dlerror() texts as glibc writes them (and as Python's OSError repeats them).
    void linuxMessages_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("causeMentions");
        QTest::newRow("dependency missing")
            << "libcudnn_ops.so.9: cannot open shared object file: No such file or directory"
            << "cannot open shared object file"
            << "libcudnn_cnn.so.9 needs libcudnn_ops.so.9";
        QTest::newRow("itself missing, through Python")
            << "OSError: libcudnn_cnn.so.9: cannot open shared object file: No such file or directory"
            << "cannot open shared object file"
            << "found libcudnn_cnn.so.9 in none";
        QTest::newRow("undefined symbol") << "/usr/lib/x86_64-linux-gnu/libcudnn_cnn.so.9: undefined symbol: "
                                             "cudnnGetLastErrorString, version "
                                             "libcudnn_graph.so.9"
                                          << "undefined symbol"
                                          << "the function cudnnGetLastErrorString,";
        // Seen on the H200: torch's libtorch_python.so loaded outside Python.
        QTest::newRow("needs the Python interpreter")
            << "/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_python.so: undefined "
               "symbol: PyInstanceMethod_Type"
            << "needs Python"
            << "the interpreter's own function PyInstanceMethod_Type";
        QTest::newRow("wrong ELF class") << "/opt/x/libcudnn_cnn.so.9: wrong ELF class: ELFCLASS32"
                                         << "wrong ELF class"
                                         << "32-bit";
        QTest::newRow("version not found")
            << "/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
               "/usr/local/cuda-13.0/lib64/libcudnn_cnn.so.9)"
            << "version not found"
            << "version GLIBCXX_3.4.32 of libstdc++.so.6";
        QTest::newRow("anything else") << "libcudnn_cnn.so.9: file too short"
                                       << "dlopen"
                                       << "The loader said: libcudnn_cnn.so.9: file too short";
    }
    void linuxMessages()
    {
        QFETCH(QString, message);
        QFETCH(QString, name);
        QFETCH(QString, causeMentions);
        const ErrorExplanation explanation =
            explainLoaderError(0, message, QStringLiteral("libcudnn_cnn.so.9"));
        verifyComplete(explanation);
        QCOMPARE(explanation.name, name);
        QVERIFY2(explanation.cause.toEnglish().contains(causeMentions),
                 qPrintable(explanation.cause.toEnglish()));
    }

    void unknownLoaderCodeQuotesTheLoader()
    {
        const ErrorExplanation explanation = explainLoaderError(
            1114, QStringLiteral("A dynamic link library (DLL) initialization routine failed."),
            QStringLiteral("cudnn64_9.dll"));
        verifyComplete(explanation);
        QCOMPARE(explanation.name, QStringLiteral("Windows error 1114"));
        QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("initialization routine failed")));
        QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("cudnn64_9.dll")));
        // Nothing said: the number at least.
        QVERIFY(explainLoaderError(1114, QString(), QStringLiteral("x.dll"))
                    .cause.toEnglish()
                    .contains(QLatin1String("1114")));
    }

    void cudnnStatuses_data()
    {
        QTest::addColumn<qint64>("status");
        QTest::addColumn<int>("major");
        QTest::addColumn<QString>("name");
        QTest::newRow("8: success") << qint64(0) << 8 << "CUDNN_STATUS_SUCCESS";
        QTest::newRow("8: 1") << qint64(1) << 8 << "CUDNN_STATUS_NOT_INITIALIZED";
        QTest::newRow("8: 3") << qint64(3) << 8 << "CUDNN_STATUS_BAD_PARAM";
        QTest::newRow("8: 6") << qint64(6) << 8 << "CUDNN_STATUS_ARCH_MISMATCH";
        QTest::newRow("8: 11") << qint64(11) << 8 << "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING";
        QTest::newRow("8: 14") << qint64(14) << 8 << "CUDNN_STATUS_VERSION_MISMATCH";
        QTest::newRow("9: 1001") << qint64(1001) << 9 << "CUDNN_STATUS_NOT_INITIALIZED";
        QTest::newRow("9: 1008") << qint64(1008) << 9 << "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED";
        QTest::newRow("9: 2000") << qint64(2000) << 9 << "CUDNN_STATUS_BAD_PARAM";
        QTest::newRow("9: 3005") << qint64(3005) << 9
                                 << "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER";
        QTest::newRow("9: 5002") << qint64(5002) << 9 << "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS";
        QTest::newRow("major unknown, small") << qint64(1) << 0 << "CUDNN_STATUS_NOT_INITIALIZED";
        QTest::newRow("major unknown, large") << qint64(1001) << 0 << "CUDNN_STATUS_NOT_INITIALIZED";
        QTest::newRow("a later major numbers as 9")
            << qint64(3007) << 10 << "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH";
    }
    void cudnnStatuses()
    {
        QFETCH(qint64, status);
        QFETCH(int, major);
        QFETCH(QString, name);
        const ErrorExplanation explanation = explainCudnnStatus(status, major);
        verifyComplete(explanation);
        QCOMPARE(explanation.name, name);
    }

    // failure-modes.md #8: driver too old, or cuDNN built for another CUDA.
    void notInitializedNamesDriverAndCuda()
    {
        for (const auto &[status, major] : {std::pair<qint64, int>{1, 8}, std::pair<qint64, int>{1001, 9}}) {
            const ErrorExplanation explanation = explainCudnnStatus(status, major);
            QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("driver")));
            QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("CUDA version")));
            QVERIFY(explanation.fix.toEnglish().contains(QLatin1String("Update the NVIDIA driver")));
        }
    }

    // The same number means different things in the two numberings.
    void numberingsDiffer()
    {
        QCOMPARE(explainCudnnStatus(2, 8).name, QStringLiteral("CUDNN_STATUS_ALLOC_FAILED"));
        QCOMPARE(explainCudnnStatus(2, 9).name, QStringLiteral("cudnnStatus_t 2"));
        QCOMPARE(explainCudnnStatus(1001, 8).name, QStringLiteral("cudnnStatus_t 1001"));
        QVERIFY(
            explainCudnnStatus(1001, 8).cause.toEnglish().contains(QLatin1String("cuDNN 8 does not define")));
        // cuDNN 8's name for 14 is cuDNN 9's 1002.
        QCOMPARE(explainCudnnStatus(14, 8).cause.toEnglish(), explainCudnnStatus(1002, 9).cause.toEnglish());
    }

    // A cuDNN 9 number this table does not know is explained by its category.
    void unknownCudnn9StatusFallsBackToItsCategory()
    {
        const ErrorExplanation unknown = explainCudnnStatus(3099, 9);
        QCOMPARE(unknown.name, QStringLiteral("cudnnStatus_t 3099"));
        QCOMPARE(unknown.cause.toEnglish(), explainCudnnStatus(3000, 9).cause.toEnglish());
        const ErrorExplanation outside = explainCudnnStatus(9999, 9);
        QCOMPARE(outside.name, QStringLiteral("cudnnStatus_t 9999"));
        verifyComplete(outside);
        QVERIFY(outside.cause.toEnglish().contains(QLatin1String("9999")));
        verifyComplete(explainCudnnStatus(-1, 9));
    }

    // Every status of the installed cuDNN 9 header is explained under its own name.
    void everyCudnn9StatusOfTheHeader()
    {
        const auto statuses = enumerators(QStringLiteral("/usr/local/cuda-13.0/include/cudnn_graph.h"),
                                          QStringLiteral("CUDNN_STATUS_"));
        if (statuses.isEmpty())
            QSKIP("cudnn_graph.h of cuDNN 9 is not in /usr/local/cuda-13.0");
        QVERIFY(statuses.size() >= 45);
        QSet<QString> causes;
        for (const auto &[name, number] : statuses) {
            const ErrorExplanation explanation = explainCudnnStatus(number, 9);
            verifyComplete(explanation);
            QCOMPARE(explanation.name, name);
            causes.insert(explanation.cause.toEnglish());
        }
        QVERIFY(causes.size() > 40); // specific causes, not one text for all
    }

    void cudaErrors_data()
    {
        QTest::addColumn<int>("error");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("2") << 2 << "cudaErrorMemoryAllocation"
                           << "memory";
        QTest::newRow("35") << 35 << "cudaErrorInsufficientDriver"
                            << "driver is older";
        QTest::newRow("46") << 46 << "cudaErrorDevicesUnavailable"
                            << "busy";
        QTest::newRow("100") << 100 << "cudaErrorNoDevice"
                             << "no CUDA-capable GPU";
        QTest::newRow("101") << 101 << "cudaErrorInvalidDevice"
                             << "CUDA_VISIBLE_DEVICES";
        QTest::newRow("209") << 209 << "cudaErrorNoKernelImageForDevice"
                             << "no GPU code";
        QTest::newRow("999") << 999 << "cudaErrorUnknown"
                             << "unknown";
    }
    void cudaErrors()
    {
        QFETCH(int, error);
        QFETCH(QString, name);
        QFETCH(QString, mentions);
        const ErrorExplanation explanation = explainCudaError(error);
        verifyComplete(explanation);
        QCOMPARE(explanation.name, name);
        QVERIFY2(explanation.cause.toEnglish().contains(mentions), qPrintable(explanation.cause.toEnglish()));
    }

    // The numbers agree with the installed CUDA header.
    void cudaNumbersMatchTheHeader()
    {
        const auto errors = enumerators(QStringLiteral("/usr/local/cuda-13.0/include/driver_types.h"),
                                        QStringLiteral("cudaError"));
        if (errors.isEmpty())
            QSKIP("driver_types.h is not in /usr/local/cuda-13.0");
        int known = 0;
        for (const auto &[name, number] : errors) {
            const ErrorExplanation explanation = explainCudaError(int(number));
            verifyComplete(explanation);
            if (explanation.name.startsWith(QLatin1String("cudaError ")))
                continue; // not one of those explained
            QCOMPARE(explanation.name, name);
            ++known;
        }
        QVERIFY(known >= 7);
    }

    void unknownCudaError()
    {
        const ErrorExplanation explanation = explainCudaError(12345);
        verifyComplete(explanation);
        QCOMPARE(explanation.name, QStringLiteral("cudaError 12345"));
        QVERIFY(explanation.cause.toEnglish().contains(QLatin1String("12345")));
    }

    // Logs name statuses, not numbers: both releases' names are known, an invented one is not.
    void statusesByName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("causeMentions");
        QTest::newRow("both releases") << "CUDNN_STATUS_NOT_INITIALIZED"
                                       << "cudnnCreate failed";
        QTest::newRow("cuDNN 9 only") << "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED"
                                      << "sub-libraries";
        QTest::newRow("cuDNN 8 only") << "CUDNN_STATUS_ALLOC_FAILED"
                                      << "allocate memory";
    }
    void statusesByName()
    {
        QFETCH(QString, name);
        QFETCH(QString, causeMentions);
        const std::optional<ErrorExplanation> explanation = explainCudnnStatusName(name);
        QVERIFY(explanation);
        QCOMPARE(explanation->name, name);
        QVERIFY2(explanation->cause.toEnglish().contains(causeMentions),
                 qPrintable(explanation->cause.toEnglish()));
        QVERIFY(!explainCudnnStatusName(QStringLiteral("CUDNN_STATUS_NO_SUCH_THING")));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestLoadErrors)
#include "tst_loaderrors.moc"
