// The matcher against the embedded database: one row per fact family of
// ../shared/reference/nvidia-compat.md, with the values written from its tables.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "Suite.h"
#include "compat/ConsumerVerdicts.h"
#include "compat/CudaNumbers.h"
#include "compat/DatabaseChoice.h"
#include "compat/KnowledgeBase.h"
#include "compat/Matcher.h"
#include "compat/WhatIf.h"
#include "detect/SystemSnapshot.h"
#include "install/ArchiveCustody.h"
#include "report/CheckReport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QTest>

using namespace cudnnsetup;

namespace {

// A row's machine: what-if values as `cudnnctl check` takes them, plus the facts only detection
// gives, as words: "python32", "torch:2.7.1+cpu", "torch:2.7.1+cu128=12.8", "tf:2.15.0",
// "zlib-missing", "wsl2", "toolkit:12.9.1" (a detected toolkit, none of them chosen).
MatchFacts factsFor(const QString &os, const QString &driver, const QString &cuda, const QString &gpu,
                    const QString &cudnn, const QStringList &extras)
{
    WhatIf whatIf;
    whatIf.os = os;
    whatIf.driver = driver;
    whatIf.cuda = cuda;
    if (gpu.startsWith(QLatin1String("sm:")))
        whatIf.sm = gpu.mid(3);
    else
        whatIf.gpu = gpu;
    whatIf.cudnn = cudnn;
    MatchFacts base;
    if (extras.contains(QStringLiteral("arm64")))
        whatIf.arch = QStringLiteral("arm64");
    const auto facts = applyWhatIf(base, whatIf, KnowledgeBase::embedded());
    if (!facts)
        qFatal("bad row: %s", qPrintable(facts.error().message.toString()));
    MatchFacts result = *facts;
    for (const QString &extra : extras) {
        MatchFacts::Python python;
        python.path = QStringLiteral("C:\\Python\\python.exe");
        python.bits = 64;
        if (extra == QLatin1String("python32")) {
            python.bits = 32;
        } else if (extra.startsWith(QLatin1String("torch:"))) {
            const QString spec = extra.mid(6);
            python.hasTorch = true;
            python.torchVersion = spec.section(QLatin1Char('='), 0, 0);
            python.torchCuda = Version::parse(spec.section(QLatin1Char('='), 1));
        } else if (extra.startsWith(QLatin1String("tf:"))) {
            python.tensorflow = Version::parse(extra.mid(3));
        } else if (extra.startsWith(QLatin1String("toolkit:"))) {
            const Version version = Version::parse(extra.mid(8));
            result.toolkits.append(
                {version, QStringLiteral("C:\\CUDA\\v") + version.truncated(2).toString()});
            continue;
        } else {
            if (extra == QLatin1String("zlib-missing"))
                result.zlibwapi = QStringList();
            if (extra == QLatin1String("wsl2"))
                result.wsl2 = true;
            continue;
        }
        result.pythons.append(python);
    }
    return result;
}

QStringList list(std::initializer_list<const char *> items)
{
    QStringList result;
    for (const char *item : items)
        result.append(QString::fromUtf8(item));
    return result;
}

QString describe(const MatchResult &result)
{
    QStringList lines;
    for (const Finding &finding : result.findings)
        lines.append(QStringLiteral("%1:%2 %3")
                         .arg(severityName(finding.severity), finding.id, finding.message.toEnglish()));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestMatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findings_data()
    {
        QTest::addColumn<QString>("os");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QStringList>("extras");
        QTest::addColumn<QStringList>("expected"); // "severity:id", each must be there
        QTest::addColumn<QStringList>("absent");   // ids that must not be there
        QTest::addColumn<bool>("compatible");

        const QString rtx3060 = QStringLiteral("NVIDIA GeForce RTX 3060 Laptop GPU");
        const QString none;
        const QStringList no;

        // Table 3 and the minor-version compatibility table: Windows and Linux minimums differ.
        QTest::newRow("win 12.0 GA exactly at 527.41")
            << "windows"
            << "527.41"
            << "12.0" << rtx3060 << none << no << no
            << list({"match.driver-too-old-for-toolkit", "match.driver-minor-version-compatibility"}) << true;
        QTest::newRow("win 12.0 GA with R520 522.06")
            << "windows"
            << "522.06"
            << "12.0" << rtx3060 << none << no << list({"error:match.driver-too-old-for-toolkit"}) << no
            << false;
        QTest::newRow("linux 12.0 GA exactly at 525.60.13")
            << "linux"
            << "525.60.13"
            << "12.0" << rtx3060 << none << no << no << list({"match.driver-too-old-for-toolkit"}) << true;
        QTest::newRow("win 12.0 GA with the Linux minimum 525.60.13")
            << "windows"
            << "525.60.13"
            << "12.0" << rtx3060 << none << no << list({"error:match.driver-too-old-for-toolkit"}) << no
            << false;
        QTest::newRow("win 12.2 through minor-version compatibility at 528.33")
            << "windows"
            << "528.33"
            << "12.2" << rtx3060 << none << no << list({"info:match.driver-minor-version-compatibility"})
            << list({"match.driver-too-old-for-toolkit"}) << true;
        QTest::newRow("win 12.2 below the minor-version floor")
            << "windows"
            << "527.41"
            << "12.2" << rtx3060 << none << no << list({"error:match.driver-too-old-for-toolkit"}) << no
            << false;
        QTest::newRow("win 12.2 Update 2 at its own 537.13")
            << "windows"
            << "537.13"
            << "12.2.2" << rtx3060 << none << no << no
            << list({"match.driver-too-old-for-toolkit", "match.driver-minor-version-compatibility"}) << true;
        QTest::newRow("win 13.0: NVIDIA prints no minimum")
            << "windows"
            << "580.88"
            << "13.0" << rtx3060 << none << no << list({"info:match.driver-minimum-unknown"})
            << list({"match.driver-too-old-for-toolkit"}) << true;
        QTest::newRow("linux 13.0 GA at 580.65.06")
            << "linux"
            << "580.65.06"
            << "13.0" << rtx3060 << none << no << no
            << list({"match.driver-minimum-unknown", "match.driver-too-old-for-toolkit"}) << true;
        QTest::newRow("linux R535 cannot run 13.0")
            << "linux"
            << "535.104.05"
            << "13.0" << rtx3060 << none << no << list({"error:match.driver-too-old-for-toolkit"}) << no
            << false;
        QTest::newRow("R565 reports 12.7 and runs 12.8 through minor-version compatibility")
            << "windows"
            << "566.36"
            << "12.8" << rtx3060 << none << no << list({"info:match.driver-minor-version-compatibility"})
            << no << true;
        QTest::newRow("no driver") << "windows" << none << "12.2" << rtx3060 << none << no
                                   << list({"error:match.driver-missing"}) << no << false;

        // cuDNN variants: 8.9.7 has _cuda11 and _cuda12; the CUDA 12 range is 12.0-12.2.
        QTest::newRow("8.9.7 cuda11 archive with the 12.2 toolkit")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip" << no
            << list({"error:match.cuda-major-mismatch"}) << no << false;
        QTest::newRow("8.9.7 cuda12 archive with the 12.2 toolkit")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip" << no << no
            << list({"match.cuda-major-mismatch", "match.toolkit-outside-tested-range"}) << true;
        QTest::newRow("8.9.7 cuda12 archive with the 12.4 toolkit")
            << "windows"
            << "551.61"
            << "12.4" << rtx3060 << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip" << no
            << list({"warning:match.toolkit-outside-tested-range"}) << list({"match.cuda-major-mismatch"})
            << true;
        QTest::newRow("bare 8.9.7 takes the toolkit's variant")
            << "windows"
            << "522.06"
            << "11.8" << rtx3060 << "8.9.7" << no << no << list({"match.cuda-major-mismatch"}) << true;
        QTest::newRow("cuDNN driver minimum: 8.9.7 cuda11 on R450 Linux 450.80.02")
            << "linux"
            << "450.80.02" << none << rtx3060 << "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz" << no
            << no << list({"match.driver-too-old-for-cudnn"}) << true;
        QTest::newRow("cuDNN for CUDA 12 on an R520 driver")
            << "windows"
            << "522.06" << none << rtx3060 << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip" << no
            << list({"error:match.driver-too-old-for-cudnn"}) << no << false;
        // cuDNN needs its own CUDA major's libraries: toolkits of other majors only cannot serve it.
        QTest::newRow("cuDNN for CUDA 11 beside CUDA 12 and 13 toolkits")
            << "windows"
            << "581.57" << none << rtx3060 << "cudnn-windows-x86_64-9.10.1.4_cuda11-archive.zip"
            << list({"toolkit:12.9.1", "toolkit:13.0.2"}) << list({"error:match.no-toolkit-for-archive"})
            << no << false;
        QTest::newRow("cuDNN for CUDA 12 beside CUDA 12 and 13 toolkits")
            << "windows"
            << "581.57" << none << rtx3060 << "cudnn-windows-x86_64-9.10.1.4_cuda12-archive.zip"
            << list({"toolkit:12.9.1", "toolkit:13.0.2"}) << no << list({"match.no-toolkit-for-archive"})
            << true;
        QTest::newRow("cuDNN for CUDA 12 and no toolkit at all")
            << "windows"
            << "581.57" << none << rtx3060 << "cudnn-windows-x86_64-9.10.1.4_cuda12-archive.zip" << no << no
            << list({"match.no-toolkit-for-archive"}) << true;
        QTest::newRow("hyphenated archive name from a blog post")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86-64-8.9.7.29-cuda11-archive.zip" << no
            << list({"error:match.cuda-major-mismatch"}) << no << false;
        QTest::newRow("a release newer than the database")
            << "windows"
            << "580.88" << none << rtx3060 << "cudnn-windows-x86_64-9.99.0.1_cuda13-archive.zip" << no
            << list({"warning:match.cudnn-unknown-release"}) << no << true;
        QTest::newRow("Windows archive on Linux")
            << "linux"
            << "580.65.06" << none << rtx3060 << "cudnn-windows-x86_64-9.17.0.29_cuda13-archive.zip" << no
            << list({"error:match.archive-platform"}) << no << false;

        // GPU architecture: 9.17 starts at Turing; CUDA 12 drops Kepler, CUDA 13 Maxwell to Volta.
        QTest::newRow("9.17 drops Pascal") << "windows"
                                           << "551.61"
                                           << "12.4"
                                           << "NVIDIA GeForce GTX 1080"
                                           << "cudnn-windows-x86_64-9.17.0.29_cuda12-archive.zip" << no
                                           << list({"error:match.gpu-unsupported-by-cudnn"}) << no << false;
        QTest::newRow("9.10.2 still runs Pascal")
            << "windows"
            << "551.61"
            << "12.4"
            << "NVIDIA GeForce GTX 1080"
            << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip" << no << no
            << list({"match.gpu-unsupported-by-cudnn", "match.gpu-unsupported-by-cuda"}) << true;
        QTest::newRow("Kepler on CUDA 12")
            << "windows"
            << "551.61"
            << "12.4"
            << "sm:3.5" << none << no << list({"error:match.gpu-unsupported-by-cuda"}) << no << false;
        QTest::newRow("Volta on CUDA 13")
            << "linux"
            << "580.65.06"
            << "13.0"
            << "sm:7.0" << none << no << list({"error:match.gpu-unsupported-by-cuda"}) << no << false;
        QTest::newRow("Turing on CUDA 13") << "linux"
                                           << "580.65.06"
                                           << "13.0"
                                           << "NVIDIA GeForce RTX 2080 Ti" << none << no << no
                                           << list({"match.gpu-unsupported-by-cuda"}) << true;
        QTest::newRow("Blackwell with 9.10.2 needs 570.65 on Windows")
            << "windows"
            << "566.36"
            << "12.8"
            << "NVIDIA GeForce RTX 5090"
            << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip" << no
            << list({"error:match.gpu-driver-too-old"}) << list({"match.gpu-unsupported-by-cudnn"}) << false;
        QTest::newRow("Blackwell with 9.10.2 at Linux's 570.26")
            << "linux"
            << "570.26"
            << "12.8"
            << "NVIDIA GeForce RTX 5090"
            << "cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz" << no << no
            << list({"match.gpu-driver-too-old", "match.gpu-unsupported-by-cudnn",
                     "match.gpu-needs-newer-cuda"})
            << true;
        QTest::newRow("Blackwell with 9.10.2 and the 12.6 toolkit")
            << "windows"
            << "572.61"
            << "12.6"
            << "NVIDIA GeForce RTX 5090"
            << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip" << no
            << list({"error:match.gpu-needs-newer-cuda"}) << no << false;
        QTest::newRow("unknown GPU name") << "windows"
                                          << "551.61"
                                          << "12.4"
                                          << "NVIDIA Quantum Widget 9000" << none << no
                                          << list({"warning:match.gpu-cannot-tell"}) << no << false;
        QTest::newRow("Max-Q laptop name") << "windows"
                                           << "551.61"
                                           << "12.4"
                                           << "NVIDIA GeForce RTX 4080 Laptop GPU with Max-Q Design" << none
                                           << no << no << list({"match.gpu-cannot-tell"}) << true;

        // The platform.
        QTest::newRow("Windows on ARM") << "windows"
                                        << "551.61" << none << rtx3060 << none << list({"arm64"})
                                        << list({"error:match.windows-arm64"}) << no << false;
        QTest::newRow("WSL 2") << "linux"
                               << "551.61" << none << rtx3060 << none << list({"wsl2"})
                               << list({"info:match.wsl2"}) << no << true;

        // zlibwapi.dll: cuDNN 8.3 to 9.1 on Windows.
        QTest::newRow("8.9.7 without zlibwapi.dll")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"
            << list({"zlib-missing"}) << list({"error:match.zlibwapi-missing"}) << no << false;
        QTest::newRow("9.1.0 without zlibwapi.dll")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"
            << list({"zlib-missing"}) << list({"error:match.zlibwapi-missing"}) << no << false;
        QTest::newRow("9.10.2 needs no zlibwapi.dll")
            << "windows"
            << "537.13"
            << "12.2" << rtx3060 << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip"
            << list({"zlib-missing"}) << no << list({"match.zlibwapi-missing"}) << true;
        QTest::newRow("8.2 needs no zlibwapi.dll")
            << "windows"
            << "471.11"
            << "11.4" << rtx3060 << "cudnn-11.4-windows-x64-v8.2.2.26.zip" << list({"zlib-missing"}) << no
            << list({"match.zlibwapi-missing"}) << true;

        // Frameworks.
        QTest::newRow("32-bit Python") << "windows"
                                       << "551.61" << none << rtx3060 << none << list({"python32"})
                                       << list({"warning:match.python-32bit"}) << no << true;
        QTest::newRow("CPU-only torch") << "windows"
                                        << "551.61" << none << rtx3060 << none << list({"torch:2.7.1+cpu"})
                                        << list({"warning:match.torch-cpu-only"}) << no << true;
        QTest::newRow("torch cu128 on R565")
            << "windows"
            << "566.36" << none << rtx3060 << none << list({"torch:2.7.1+cu128=12.8"})
            << list({"info:match.torch-minor-version-compatibility"})
            << list({"match.torch-cuda-newer-than-driver"}) << true;
        QTest::newRow("torch cu130 on R565")
            << "windows"
            << "566.36" << none << rtx3060 << none << list({"torch:2.9.0+cu130=13.0"})
            << list({"error:match.torch-cuda-newer-than-driver"}) << no << false;
        QTest::newRow("TensorFlow 2.15 on native Windows")
            << "windows"
            << "551.61" << none << rtx3060 << none << list({"tf:2.15.0"})
            << list({"warning:match.tensorflow-windows"}) << no << true;
        QTest::newRow("TensorFlow 2.10 on native Windows")
            << "windows"
            << "551.61" << none << rtx3060 << none << list({"tf:2.10.1"}) << no
            << list({"match.tensorflow-windows"}) << true;
        QTest::newRow("TensorFlow 2.15 on Linux")
            << "linux"
            << "550.54.14" << none << rtx3060 << none << list({"tf:2.15.0"}) << no
            << list({"match.tensorflow-windows"}) << true;
    }

    void findings()
    {
        QFETCH(QString, os);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, gpu);
        QFETCH(QString, cudnn);
        QFETCH(QStringList, extras);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);
        QFETCH(bool, compatible);

        const MatchResult result =
            match(factsFor(os, driver, cuda, gpu, cudnn, extras), KnowledgeBase::embedded());
        const QString all = describe(result);
        for (const QString &wanted : expected) {
            const Finding *finding = result.finding(wanted.section(QLatin1Char(':'), 1));
            QVERIFY2(finding, qPrintable(wanted + QStringLiteral(" missing from\n") + all));
            QCOMPARE(severityName(finding->severity), wanted.section(QLatin1Char(':'), 0, 0));
            QVERIFY2(!finding->message.toEnglish().contains(QLatin1Char('%')), qPrintable(all));
        }
        for (const QString &unwanted : absent)
            QVERIFY2(!result.finding(unwanted), qPrintable(unwanted + QStringLiteral(" in\n") + all));
        QVERIFY2(result.compatible() == compatible, qPrintable(all));
    }

    // The fix names the exact thing to do.
    void fixesNameTheRemedy_data()
    {
        QTest::addColumn<QString>("os");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QStringList>("extras");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("fix");

        const QStringList no;
        QTest::newRow("driver for the 12.0 toolkit")
            << "windows"
            << "522.06"
            << "12.0"
            << "sm:8.6" << QString() << no << "match.driver-too-old-for-toolkit"
            << "Update the driver to 527.41 or newer.";
        QTest::newRow("driver for the 12.2 Update 2 toolkit")
            << "windows"
            << "522.06"
            << "12.2.2"
            << "sm:8.6" << QString() << no << "match.driver-too-old-for-toolkit"
            << "Update the driver to 537.13 or newer.";
        QTest::newRow("variant for the toolkit")
            << "windows"
            << "537.13"
            << "12.2"
            << "sm:8.6"
            << "cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip" << no << "match.cuda-major-mismatch"
            << "Download cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip instead.";
        QTest::newRow("the release built for the newest toolkit that has a variant")
            << "windows"
            << "581.57" << QString() << "sm:8.6"
            << "cudnn-windows-x86_64-9.10.1.4_cuda11-archive.zip"
            << list({"toolkit:12.9.1", "toolkit:13.0.2"}) << "match.no-toolkit-for-archive"
            << "Download cudnn-windows-x86_64-9.10.1.4_cuda12-archive.zip instead.";
        QTest::newRow("no variant of the release for any toolkit here")
            << "windows"
            << "581.57" << QString() << "sm:8.6"
            << "cudnn-windows-x86_64-9.10.1.4_cuda11-archive.zip" << list({"toolkit:13.0.2"})
            << "match.no-toolkit-for-archive"
            << "Choose a cuDNN release that NVIDIA built for CUDA 13.";
        QTest::newRow("Blackwell driver row")
            << "windows"
            << "566.36"
            << "12.8"
            << "NVIDIA GeForce RTX 5090"
            << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip" << no << "match.gpu-driver-too-old"
            << "Update the driver to 570.65 or newer.";
        QTest::newRow("Kepler keeps CUDA 11")
            << "windows"
            << "551.61"
            << "12.4"
            << "sm:3.5" << QString() << no << "match.gpu-unsupported-by-cuda"
            << "Use CUDA 11 and the cuDNN archive for CUDA 11, the newest that "
               "still support this GPU.";
        // NVIDIA prints no Windows minimum for CUDA 13: the branch's lowest version, in full (no
        // "580.xx" a student cannot compare, no Linux minimum borrowed).
        QTest::newRow("torch for CUDA 13 needs R580")
            << "windows"
            << "566.36" << QString() << "sm:8.6" << QString() << list({"torch:2.9.0+cu130=13.0"})
            << "match.torch-cuda-newer-than-driver"
            << "Update the driver to 580.00 or newer.";
        QTest::newRow("CPU-only torch gets the newest CUDA build the driver runs")
            << "windows"
            << "566.36" << QString() << "sm:8.6" << QString() << list({"torch:2.7.1+cpu"})
            << "match.torch-cpu-only"
            << "Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/cu126";
        // A driver for CUDA 13 runs the cu130 builds, which carry no code for Pascal: the index is
        // the newest whose build has it (issue 32: the consumer verdicts' choice).
        QTest::newRow("CPU-only torch on Pascal gets the build for Pascal")
            << "windows"
            << "581.57" << QString() << "sm:6.1" << QString() << list({"torch:2.7.1+cpu"})
            << "match.torch-cpu-only"
            << "Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/cu126";
    }

    void fixesNameTheRemedy()
    {
        QFETCH(QString, os);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, gpu);
        QFETCH(QString, cudnn);
        QFETCH(QStringList, extras);
        QFETCH(QString, id);
        QFETCH(QString, fix);

        const MatchResult result =
            match(factsFor(os, driver, cuda, gpu, cudnn, extras), KnowledgeBase::embedded());
        const Finding *finding = result.finding(id);
        QVERIFY2(finding, qPrintable(describe(result)));
        QCOMPARE(finding->fix.toEnglish(), fix);
    }

    void recommends_data()
    {
        QTest::addColumn<QString>("os");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("driverMinimum");
        QTest::addColumn<bool>("driverUpdate");
        // NVIDIA's current release is on its download page; the others are in its archive.
        QTest::addColumn<bool>("newest");

        // The newest release whose Windows archive the database records with NVIDIA's checksum:
        // 9.28.1's has none, and an install into the toolkit would refuse it.
        QTest::newRow("laptop with the 12.2 toolkit") << "windows"
                                                      << "537.13"
                                                      << "12.2"
                                                      << "NVIDIA GeForce RTX 3060 Laptop GPU"
                                                      << "cudnn-windows-x86_64-9.25.0.15_cuda12-archive.zip"
                                                      << "528.33" << false << false;
        QTest::newRow("H200 with the 13.0 toolkit") << "linux"
                                                    << "580.95.05"
                                                    << "13.0"
                                                    << "NVIDIA H200"
                                                    << "cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz"
                                                    << "580.65.06" << false << true;
        QTest::newRow("Pascal keeps the last release that lists it")
            << "windows"
            << "551.61"
            << "12.4"
            << "NVIDIA GeForce GTX 1080"
            << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip"
            << "528.33" << false << false;
        QTest::newRow("the 12.2 toolkit on an R520 driver needs an update first")
            << "windows"
            << "522.06"
            << "12.2"
            << "NVIDIA GeForce RTX 3060 Laptop GPU"
            << "cudnn-windows-x86_64-9.25.0.15_cuda12-archive.zip"
            << "528.33" << true << false;
        // 9.10.2's matrix has a CUDA 11.8 row, but NVIDIA published no archive of it for CUDA 11:
        // 9.10.1 is the last one recorded.
        QTest::newRow("no toolkit: the driver's CUDA major, whose last archive is 9.10.1")
            << "windows"
            << "522.06" << QString() << "NVIDIA GeForce RTX 3060 Laptop GPU"
            << "cudnn-windows-x86_64-9.10.1.4_cuda11-archive.zip"
            << "452.39" << false << false;
    }

    void recommends()
    {
        QFETCH(QString, os);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(QString, gpu);
        QFETCH(QString, archive);
        QFETCH(QString, driverMinimum);
        QFETCH(bool, driverUpdate);
        QFETCH(bool, newest);

        const MatchFacts facts = factsFor(os, driver, cuda, gpu, QString(), {});
        const MatchResult result = match(facts, KnowledgeBase::embedded());
        QVERIFY2(result.recommendation, qPrintable(describe(result)));
        QCOMPARE(result.recommendation->archiveFile, archive);
        QCOMPARE(result.recommendation->driverMinimum.toString(), driverMinimum);
        QCOMPARE(result.recommendation->driverUpdateNeeded, driverUpdate);
        QCOMPARE(result.recommendation->newestRelease, newest);
        if (!cuda.isEmpty())
            QCOMPARE(result.recommendation->targetToolkit->version.toString(), cuda);
    }

    // Issue 32: a GPU nobody knows the capability of, or a cuDNN build whose GPU list is unknown,
    // is "cannot tell", never "compatible"; --sm settles the first.
    void unknownIsCannotTell_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QString>("cannotTell"); // the finding that leaves it open, or empty
        QTest::addColumn<int>("verdict");
        const QString none;
        const int open = int(MatchResult::Verdict::CannotTell);
        QTest::newRow("a name NVIDIA's table lacks")
            << "NVIDIA Quantum Widget 9000" << none << "match.gpu-cannot-tell" << open;
        QTest::newRow("the same GPU with --sm 8.6")
            << "sm:8.6" << none << none << int(MatchResult::Verdict::Compatible);
        QTest::newRow("a Pascal card with --sm, on CUDA 13")
            << "sm:6.1" << none << none << int(MatchResult::Verdict::Incompatible);
        QTest::newRow("a known GPU and a build without a GPU list")
            << "NVIDIA GeForce RTX 4090"
            << "cudnn-linux-x86_64-9.16.0.29_cuda13-archive.tar.xz"
            << "match.cudnn-cannot-tell" << open;
        QTest::newRow("a known GPU and a build that lists it")
            << "NVIDIA GeForce RTX 4090"
            << "cudnn-linux-x86_64-9.17.0.29_cuda13-archive.tar.xz" << none
            << int(MatchResult::Verdict::Compatible);
    }
    void unknownIsCannotTell()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, cudnn);
        QFETCH(QString, cannotTell);
        QFETCH(int, verdict);
        const MatchResult result = match(factsFor(QStringLiteral("linux"), QStringLiteral("580.95.05"),
                                                  QStringLiteral("13.0"), gpu, cudnn, {}),
                                         KnowledgeBase::embedded());
        const QString all = describe(result);
        QCOMPARE(int(result.verdict()), verdict);
        QVERIFY2(result.compatible() == (verdict == int(MatchResult::Verdict::Compatible)), qPrintable(all));
        for (const QString &id :
             {QStringLiteral("match.gpu-cannot-tell"), QStringLiteral("match.cudnn-cannot-tell")}) {
            const Finding *finding = result.finding(id);
            QVERIFY2(bool(finding) == (id == cannotTell), qPrintable(all));
            if (finding) {
                QCOMPARE(finding->severity, Severity::Warning);
                QVERIFY2(!finding->fix.isEmpty(), qPrintable(all));
            }
        }
        if (cannotTell == QLatin1String("match.gpu-cannot-tell"))
            QVERIFY(result.finding(cannotTell)->fix.toEnglish().contains(QLatin1String("--sm X.Y")));
    }

    // Issue 32: a Pascal GPU with the CUDA 13 toolkit was offered cuDNN 9.16 for CUDA 13 (a build
    // whose GPU list is unknown) beside the finding "use CUDA 12". The offer is now the newest
    // CUDA 12 build whose matrix lists Pascal, as the finding says, of those whose archive the
    // database records (9.10.2's Linux archive for CUDA 12 it does not).
    void pascalOnCuda13IsOfferedTheCuda12Build()
    {
        const MatchResult result =
            match(factsFor(QStringLiteral("linux"), QStringLiteral("580.95.05"), QStringLiteral("13.0"),
                           QStringLiteral("NVIDIA GeForce GTX 1080"), {}, {}),
                  KnowledgeBase::embedded());
        const QString all = describe(result);
        const Finding *finding = result.finding(QStringLiteral("match.gpu-unsupported-by-cuda"));
        QVERIFY2(finding, qPrintable(all));
        QVERIFY2(finding->fix.toEnglish().contains(QLatin1String("CUDA 12")), qPrintable(all));
        QVERIFY2(result.recommendation, qPrintable(all));
        QCOMPARE(result.recommendation->archiveFile,
                 QStringLiteral("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"));
        QVERIFY(!result.recommendation->targetToolkit); // the CUDA 13 toolkit cannot serve it
        // The same card with a CUDA 12 toolkit beside the 13 one: that toolkit is the target.
        MatchFacts facts = factsFor(QStringLiteral("linux"), QStringLiteral("580.95.05"), {},
                                    QStringLiteral("NVIDIA GeForce GTX 1080"), {},
                                    {QStringLiteral("toolkit:13.0.2"), QStringLiteral("toolkit:12.9.1")});
        facts.targetToolkit = facts.toolkits.first();
        const MatchResult withBoth = match(facts, KnowledgeBase::embedded());
        QVERIFY2(withBoth.recommendation, qPrintable(describe(withBoth)));
        QCOMPARE(withBoth.recommendation->cudaVariant, QStringLiteral("12"));
        QVERIFY(withBoth.recommendation->targetToolkit);
        QCOMPARE(withBoth.recommendation->targetToolkit->version.toString(), QStringLiteral("12.9.1"));
    }

    // The README's student: a newer release whose Windows archive the database does not record
    // (so no checksum to check it by) is passed over for the newest one whose archive it records,
    // and that archive passes the custody rule of an install into the recommended toolkit.
    void recommendsTheNewestArchiveWithAChecksum()
    {
        const QString version = QStringLiteral("9.23.2.1");
        const QTemporaryDir folder;
        const QString path =
            folder.filePath(archives::windowsRoot(version, QStringLiteral("12")) + QStringLiteral(".zip"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(archives::windowsZip(version, QStringLiteral("12")));
        file.close();
        // The test-made 9.23.2.1 stands in for NVIDIA's file; the Windows archives of every newer
        // release are left out, though 9.28.1.4, the newest, has a CUDA 12 build.
        QJsonObject root = QJsonDocument::fromJson(archives::databaseJsonKnowing({path})).object();
        QJsonArray records;
        for (const QJsonValue &record : root.value(QStringLiteral("archives")).toArray()) {
            const bool windows =
                record[QStringLiteral("platform")].toString() == QLatin1String("windows-x86_64");
            if (!windows ||
                !(Version::parse(record[QStringLiteral("cudnn")].toString()) > Version::parse(version)))
                records.append(record);
        }
        root.insert(QStringLiteral("archives"), records);
        const auto parsed = KnowledgeBase::parse(QJsonDocument(root).toJson());
        QVERIFY(parsed);
        const KnowledgeBase &knowing = *parsed;
        QCOMPARE(knowing.cudnnReleases().last().version.toString(), QStringLiteral("9.28.1.4"));
        QVERIFY(knowing.cudnnReleases().last().variant(QStringLiteral("12")));

        const MatchFacts facts =
            factsFor(QStringLiteral("windows"), QStringLiteral("537.13"), QStringLiteral("12.2"),
                     QStringLiteral("NVIDIA GeForce RTX 3060 "
                                    "Laptop GPU"),
                     {}, {});
        const MatchResult result = match(facts, knowing);
        QVERIFY2(result.recommendation, qPrintable(describe(result)));
        QCOMPARE(result.recommendation->archiveFile, QFileInfo(path).fileName());
        QCOMPARE(result.recommendation->sha256, knowing.archiveByFile(QFileInfo(path).fileName())->sha256);
        QVERIFY(result.recommendation->targetToolkit);

        InstallTarget toolkit;
        toolkit.kind = InstallTarget::Kind::CudaToolkit;
        toolkit.family = OsFamily::Windows;
        toolkit.root = result.recommendation->targetToolkit->path;
        InspectOptions options;
        options.verifyData = false;
        const auto report = inspectArchive(path, knowing.publishedArchives(), options);
        QVERIFY(report);
        QCOMPARE(report->official, ArchiveReport::Official::Match);
        QVERIFY(!unverifiedArchiveRefusal(*report, toolkit, SystemContext::running(), ArchiveVouching{}));
        // The same file judged by a database that does not record it is refused there.
        const auto unknown =
            inspectArchive(path, archives::databaseWithoutChecksums().publishedArchives(), options);
        QVERIFY(unknown);
        QVERIFY(unverifiedArchiveRefusal(*unknown, toolkit, SystemContext::running(), ArchiveVouching{}));
    }

    void knownArchivesCarryNvidiasChecksum()
    {
        const MatchFacts facts =
            factsFor(QStringLiteral("windows"), QStringLiteral("537.13"), QStringLiteral("12.2"),
                     QStringLiteral("NVIDIA GeForce GTX 1080"), {}, {});
        const MatchResult result = match(facts, KnowledgeBase::embedded());
        QVERIFY(result.recommendation);
        const KnownArchive *known =
            KnowledgeBase::embedded().archiveByFile(result.recommendation->archiveFile);
        QVERIFY(known);
        QCOMPARE(result.recommendation->sha256, known->sha256);
        QCOMPARE(result.recommendation->sha256.size(), 64);
    }

    // A toolkit the driver cannot run is passed over for the recommendation, and said so.
    void toolkitTheDriverCannotRun()
    {
        MatchFacts facts = factsFor(QStringLiteral("windows"), QStringLiteral("522.06"), {},
                                    QStringLiteral("sm:8.6"), {}, {});
        facts.toolkits = {{Version::parse(QStringLiteral("12.4.1")), QStringLiteral("C:\\CUDA\\v12.4")}};
        const MatchResult result = match(facts, KnowledgeBase::embedded());
        const Finding *finding = result.finding(QStringLiteral("match.toolkit-needs-newer-driver"));
        QVERIFY2(finding, qPrintable(describe(result)));
        QCOMPARE(finding->severity, Severity::Warning);
        // A version to compare with the installed one, not a branch: NVIDIA's minimum for 12.4.1.
        QCOMPARE(finding->fix.toEnglish(), QStringLiteral("Update the driver to 551.78 or newer."));
        QVERIFY(result.recommendation);
        QCOMPARE(result.recommendation->cudaVariant, QStringLiteral("11"));
        QVERIFY(!result.recommendation->targetToolkit);
    }

    void armHasNoRecommendation()
    {
        const MatchResult result = match(factsFor(QStringLiteral("windows"), QStringLiteral("551.61"), {},
                                                  QStringLiteral("sm:8.6"), {}, {QStringLiteral("arm64")}),
                                         KnowledgeBase::embedded());
        QVERIFY(!result.recommendation);
    }

    // The four numbers people confuse, each from its own place.
    void fourCudaNumbers()
    {
        const MatchFacts facts = factsFor(QStringLiteral("windows"), QStringLiteral("566.36"),
                                          QStringLiteral("12.4"), QStringLiteral("sm:8.9"),
                                          QStringLiteral("cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip"),
                                          {QStringLiteral("torch:2.7.1+cu118=11.8")});
        const MatchResult result = match(facts, KnowledgeBase::embedded());
        const CudaNumbers numbers = CudaNumbers::of(facts, result, KnowledgeBase::embedded());
        QCOMPARE(numbers.driverMaxCuda.toString(), QStringLiteral("12.7")); // branch 565
        QCOMPARE(numbers.toolkit.toString(), QStringLiteral("12.4"));
        QCOMPARE(numbers.framework.toString(), QStringLiteral("11.8"));
        QCOMPARE(numbers.frameworkName, QStringLiteral("torch 2.7.1+cu118"));
        QCOMPARE(numbers.archiveCuda, QStringLiteral("12"));
        QVERIFY(!numbers.archiveRecommended);

        const MatchFacts bare = factsFor(QStringLiteral("windows"), QStringLiteral("566.36"), {},
                                         QStringLiteral("sm:8.9"), {}, {});
        const CudaNumbers recommended =
            CudaNumbers::of(bare, match(bare, KnowledgeBase::embedded()), KnowledgeBase::embedded());
        QCOMPARE(recommended.archiveCuda, QStringLiteral("12"));
        QVERIFY(recommended.archiveRecommended);
        QVERIFY(!recommended.toolkit.isValid());
    }

    // Issue 35: each number's tile says what it means, judged against the archive's CUDA major.
    void cudaTilesJudgeAgainstTheArchive()
    {
        const auto numbersFor = [](const QString &driver, const QString &cuda, const QString &archive,
                                   const QStringList &extras) {
            const MatchFacts facts =
                factsFor(QStringLiteral("windows"), driver, cuda, QStringLiteral("sm:8.9"), archive, extras);
            return CudaNumbers::of(facts, match(facts, KnowledgeBase::embedded()), KnowledgeBase::embedded());
        };
        using Level = CudaNumbers::Tile::Level;
        const QString cuda13Archive = QStringLiteral("cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip");

        // Driver 566.36 runs CUDA 12.7 at most: too old for the CUDA 13 archive.
        const CudaNumbers tooOld = numbersFor(QStringLiteral("566.36"), {}, cuda13Archive, {});
        QCOMPARE(tooOld.driverTile().value.toEnglish(), QStringLiteral("12.7"));
        QCOMPARE(tooOld.driverTile().verdict.toEnglish(), QStringLiteral("too old for CUDA 13"));
        QCOMPARE(tooOld.driverTile().level, Level::Bad);
        QCOMPARE(tooOld.toolkitTile().value.toEnglish(), QStringLiteral("not installed"));
        QCOMPARE(tooOld.toolkitTile().level, Level::Neutral);
        QCOMPARE(tooOld.frameworkTile().value.toEnglish(), QStringLiteral("not found"));
        QCOMPARE(tooOld.archiveTile().value.toEnglish(), QStringLiteral("13.x"));

        // Driver 580.88 runs CUDA 13; a 13.0.2 toolkit shows as 13.0 and matches; a CPU-only torch
        // is a caution.
        const CudaNumbers fits = numbersFor(QStringLiteral("580.88"), QStringLiteral("13.0.2"), cuda13Archive,
                                            {QStringLiteral("torch:2.9.0+cpu")});
        QCOMPARE(fits.driverTile().verdict.toEnglish(), QStringLiteral("runs the archive's CUDA 13"));
        QCOMPARE(fits.driverTile().level, Level::Good);
        QCOMPARE(fits.toolkitTile().value.toEnglish(), QStringLiteral("13.0"));
        QCOMPARE(fits.toolkitTile().verdict.toEnglish(), QStringLiteral("matches the archive"));
        QCOMPARE(fits.toolkitTile().level, Level::Good);
        QCOMPARE(fits.frameworkTile().value.toEnglish(), QStringLiteral("CPU-only"));
        QCOMPARE(fits.frameworkTile().level, Level::Caution);
    }

    // The H200 machine's recorded snapshot gives what `cudnnctl check --json` printed there.
    void recordedMachineGivesItsRecordedVerdict()
    {
        const auto snapshot = SystemSnapshot::fromJson(
            QJsonDocument::fromJson(
                Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect.json")))
                .object());
        QVERIFY(snapshot);
        const MatchFacts facts = MatchFacts::fromSnapshot(*snapshot);
        const DatabaseChoice database = DatabaseChoice::builtIn();
        QJsonObject judged = checkJson(facts, match(facts, database.database), database, {});
        QJsonObject recorded =
            QJsonDocument::fromJson(
                Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-check.json")))
                .object();
        // The database may have grown since the recording; the verdict on this machine may not.
        for (const char *key : {"compatible", "cuda", "inputs", "findings"})
            QCOMPARE(judged.value(QLatin1String(key)), recorded.value(QLatin1String(key)));
        const QJsonObject recommendation = judged.value(QStringLiteral("recommendation")).toObject();
        QCOMPARE(recommendation.value(QStringLiteral("targetToolkit")),
                 recorded.value(QStringLiteral("recommendation"))
                     .toObject()
                     .value(QStringLiteral("targetToolkit")));
        QCOMPARE(recommendation.value(QStringLiteral("cudaVariant")).toString(), QStringLiteral("13"));
        QCOMPARE(recommendation.value(QStringLiteral("platform")).toString(), QStringLiteral("linux-x86_64"));
    }

    // A CUDA build of torch brings its own cuDNN: the verdict names it (from PyTorch's matrix when
    // torch was not asked) and says who needs a system-wide one; a CPU-only build does not.
    void torchBringsItsOwnCudnn()
    {
        const MatchResult result = match(factsFor(QStringLiteral("windows"), QStringLiteral("572.61"), {},
                                                  QStringLiteral("NVIDIA GeForce RTX 3060"), {},
                                                  {QStringLiteral("torch:2.7.1+cu128=12.8")}),
                                         KnowledgeBase::embedded());
        const Finding *advice = nullptr;
        for (const Finding &finding : result.findings) {
            if (finding.id == QLatin1String("match.framework-brings-cudnn"))
                advice = &finding;
        }
        QVERIFY2(advice, qPrintable(findingIds(result.findings).join(QLatin1Char(' '))));
        QCOMPARE(advice->severity, Severity::Info);
        const QString english = advice->message.toEnglish();
        QVERIFY2(english.contains(QStringLiteral("cuDNN 9.7.1.26")), qPrintable(english));
        QVERIFY2(english.contains(QStringLiteral("ONNX Runtime")), qPrintable(english));
        QVERIFY(result.recommendation); // advice, not a block

        const MatchResult cpu = match(factsFor(QStringLiteral("windows"), QStringLiteral("572.61"), {},
                                               QStringLiteral("NVIDIA GeForce RTX 3060"), {},
                                               {QStringLiteral("torch:2.7.1+cpu")}),
                                      KnowledgeBase::embedded());
        QVERIFY(!findingIds(cpu.findings).contains(QStringLiteral("match.framework-brings-cudnn")));
    }

    // A Jetson module by its product name: JetPack brings its cuDNN, no archive is offered.
    void jetsonIsSentToJetPack()
    {
        const MatchResult result = match(factsFor(QStringLiteral("linux"), QStringLiteral("540.4.0"), {},
                                                  QStringLiteral("Jetson AGX Orin"), {}, {}),
                                         KnowledgeBase::embedded());
        QVERIFY2(findingIds(result.findings).contains(QStringLiteral("match.jetson")),
                 qPrintable(findingIds(result.findings).join(QLatin1Char(' '))));
        QVERIFY(!result.recommendation);
        const MatchResult desktop = match(factsFor(QStringLiteral("linux"), QStringLiteral("580.95.05"), {},
                                                   QStringLiteral("NVIDIA GeForce RTX 3060"), {}, {}),
                                          KnowledgeBase::embedded());
        QVERIFY(!findingIds(desktop.findings).contains(QStringLiteral("match.jetson")));
        QVERIFY(desktop.recommendation);
    }

    // A driver or a toolkit newer than any CUDA the database knows: the verdict says the database
    // is older than the machine and how to give it a newer one, instead of guessing.
    void saysWhenTheDatabaseIsOlder()
    {
        const KnowledgeBase &kb = KnowledgeBase::embedded();
        const Version known = kb.newestKnownCuda();
        QVERIFY(known.isValid());
        MatchFacts facts = factsFor(QStringLiteral("linux"), QStringLiteral("615.71.09"), {},
                                    QStringLiteral("NVIDIA H200"), {}, {});
        facts.driverMaxCuda = known;
        QVERIFY(!findingIds(match(facts, kb).findings).contains(QStringLiteral("match.database-older")));

        const Version newer =
            Version::parse(QStringLiteral("%1.%2").arg(known.major()).arg(known.minor() + 1));
        facts.driverMaxCuda = newer;
        const MatchResult driverNewer = match(facts, kb);
        QVERIFY(findingIds(driverNewer.findings).contains(QStringLiteral("match.database-older")));

        facts.driverMaxCuda = known;
        facts.toolkits.append({Version::parse(QStringLiteral("%1.%2.0").arg(known.major() + 1).arg(0)),
                               QStringLiteral("/usr/local/cuda")});
        const MatchResult toolkitNewer = match(facts, kb);
        for (const Finding &finding : toolkitNewer.findings) {
            if (finding.id == QLatin1String("match.database-older"))
                QVERIFY2(finding.message.toEnglish().contains(kb.version()),
                         qPrintable(finding.message.toEnglish()));
        }
        QVERIFY(findingIds(toolkitNewer.findings).contains(QStringLiteral("match.database-older")));
    }

    // A driver that reports its own newest CUDA is believed over the branch table.
    void reportedCudaWins()
    {
        MatchFacts facts = factsFor(QStringLiteral("linux"), QStringLiteral("580.95.05"),
                                    QStringLiteral("13.0"), QStringLiteral("NVIDIA H200"), {}, {});
        facts.driverMaxCuda = Version::parse(QStringLiteral("13.0"));
        const CudaNumbers numbers =
            CudaNumbers::of(facts, match(facts, KnowledgeBase::embedded()), KnowledgeBase::embedded());
        QCOMPARE(numbers.driverMaxCuda.toString(), QStringLiteral("13.0"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestMatcher)
#include "tst_matcher.moc"
