// What-if values as people type them on the command line, and the clear refusals.
#include "Suite.h"
#include "compat/KnowledgeBase.h"
#include "compat/WhatIf.h"

#include <QTest>

using namespace cudnnsetup;

class TestWhatIf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typedVersions_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("parsed"); // empty: refused
        QTest::newRow("major") << "12"
                               << "12";
        QTest::newRow("update") << "12.2.1"
                                << "12.2.1";
        QTest::newRow("folder name") << "v12.2"
                                     << "12.2";
        QTest::newRow("driver") << "535.98"
                                << "535.98";
        QTest::newRow("cuDNN with build") << "8.9.7.29"
                                          << "8.9.7.29";
        QTest::newRow("spaces") << " 12.4 "
                                << "12.4";
        QTest::newRow("word") << "abc" << QString();
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("trailing dot") << "12." << QString();
        QTest::newRow("letters inside") << "12.x" << QString();
        QTest::newRow("only v") << "v" << QString();
    }
    void typedVersions()
    {
        QFETCH(QString, typed);
        QFETCH(QString, parsed);
        const Version version = parseTypedVersion(typed);
        QCOMPARE(version.isValid() ? version.toString() : QString(), parsed);
    }

    void refusesBadValues_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::newRow("os") << "os"
                            << "macos";
        QTest::newRow("arch") << "arch"
                              << "riscv";
        QTest::newRow("driver word") << "driver"
                                     << "abc";
        QTest::newRow("driver as a CUDA number") << "driver"
                                                 << "12";
        QTest::newRow("cuda word") << "cuda"
                                   << "abc";
        QTest::newRow("cuda as a driver number") << "cuda"
                                                 << "535.98";
        QTest::newRow("sm word") << "sm"
                                 << "ampere";
        QTest::newRow("sm with three parts") << "sm"
                                             << "8.6.1";
        QTest::newRow("cudnn word") << "cudnn"
                                    << "abc";
        QTest::newRow("cudnn unknown file name") << "cudnn"
                                                 << "cudnn-installer.exe";
    }
    void refusesBadValues()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        WhatIf whatIf;
        QString *field = option == QLatin1String("os")       ? &whatIf.os
                         : option == QLatin1String("arch")   ? &whatIf.arch
                         : option == QLatin1String("driver") ? &whatIf.driver
                         : option == QLatin1String("cuda")   ? &whatIf.cuda
                         : option == QLatin1String("sm")     ? &whatIf.sm
                                                             : &whatIf.cudnn;
        *field = value;
        const auto facts = applyWhatIf(MatchFacts(), whatIf, KnowledgeBase::embedded());
        QVERIFY(!facts);
        QCOMPARE(facts.error().id, QStringLiteral("check.bad-input"));
        const QString message = facts.error().message.toEnglish();
        QVERIFY2(message.contains(QStringLiteral("--") + option) && message.contains(value),
                 qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('%')));
    }

    void archiveNames_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QString>("cudaVariant");
        QTest::newRow("NVIDIA's name") << "cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"
                                       << "windows-x86_64"
                                       << "8.9.7.29"
                                       << "12";
        QTest::newRow("blog post's hyphens") << "cudnn-windows-x86-64-8.9.7.29-cuda12-archive.zip"
                                             << "windows-x86_64"
                                             << "8.9.7.29"
                                             << "12";
        QTest::newRow("browser's copy suffix") << "cudnn-windows-x86_64-9.10.2.21_cuda12-archive (1).zip"
                                               << "windows-x86_64"
                                               << "9.10.2.21"
                                               << "12";
        QTest::newRow("Linux tarball") << "cudnn-linux-x86_64-9.17.0.29_cuda13-archive.tar.xz"
                                       << "linux-x86_64"
                                       << "9.17.0.29"
                                       << "13";
        QTest::newRow("8.3 era") << "cudnn-windows-x86_64-8.3.2.44_cuda11.5-archive.zip"
                                 << "windows-x86_64"
                                 << "8.3.2.44"
                                 << "11.5";
    }
    void archiveNames()
    {
        QFETCH(QString, typed);
        QFETCH(QString, platform);
        QFETCH(QString, cudnn);
        QFETCH(QString, cudaVariant);
        WhatIf whatIf;
        whatIf.cudnn = typed;
        const auto facts = applyWhatIf(MatchFacts(), whatIf, KnowledgeBase::embedded());
        QVERIFY2(facts, qPrintable(facts ? QString() : facts.error().message.toEnglish()));
        QVERIFY(facts->archive);
        QCOMPARE(facts->archive->platform, platform);
        QCOMPARE(facts->archive->cudnn.toString(), cudnn);
        QCOMPARE(facts->archive->cudaVariant, cudaVariant);
    }

    // A bare version names no variant: the toolkit's major picks it, else the driver's.
    void bareVersionTakesAVariant_data()
    {
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("variant");
        QTest::newRow("toolkit 11.8") << "11.8" << QString() << "11";
        QTest::newRow("toolkit 12.2") << "12.2" << QString() << "12";
        QTest::newRow("R520 driver") << QString() << "522.06"
                                     << "11";
        QTest::newRow("R565 driver") << QString() << "566.36"
                                     << "12";
    }
    void bareVersionTakesAVariant()
    {
        QFETCH(QString, cuda);
        QFETCH(QString, driver);
        QFETCH(QString, variant);
        WhatIf whatIf;
        whatIf.cudnn = QStringLiteral("8.9.7");
        whatIf.cuda = cuda;
        whatIf.driver = driver;
        const auto facts = applyWhatIf(MatchFacts(), whatIf, KnowledgeBase::embedded());
        QVERIFY(facts);
        QCOMPARE(facts->archive->cudaVariant, variant);
        QVERIFY(facts->archive->platform.isEmpty()); // a version names no platform
    }

    // Asking about the other OS family leaves this system's software behind, not its GPU.
    void otherOsDropsThisSystemsSoftware()
    {
        MatchFacts detected;
        detected.os = OsFamily::Linux;
        detected.driver = Version::parse(QStringLiteral("580.159.04"));
        detected.gpus = {{QStringLiteral("NVIDIA H200"), Version::parse(QStringLiteral("9.0"))}};
        detected.toolkits = {
            {Version::parse(QStringLiteral("13.0.2")), QStringLiteral("/usr/local/cuda-13.0")}};
        MatchFacts::Python python;
        python.path = QStringLiteral("/opt/torch/.venv/bin/python");
        python.hasTorch = true;
        python.torchCuda = Version::parse(QStringLiteral("13.0"));
        detected.pythons = {python};
        detected.installedCudnn = {{QStringLiteral("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"),
                                    Version::parse(QStringLiteral("9.14.0"))}};
        WhatIf whatIf;
        whatIf.os = QStringLiteral("windows");
        const auto facts = applyWhatIf(detected, whatIf, KnowledgeBase::embedded());
        QVERIFY(facts);
        QCOMPARE(facts->os, OsFamily::Windows);
        QVERIFY(facts->toolkits.isEmpty());
        QVERIFY(facts->pythons.isEmpty());
        QVERIFY(facts->installedCudnn.isEmpty());
        QCOMPARE(facts->gpus.size(), 1);
        QCOMPARE(facts->driver.toString(), QStringLiteral("580.159.04"));

        whatIf.os = QStringLiteral("linux"); // the same family keeps everything
        const auto same = applyWhatIf(detected, whatIf, KnowledgeBase::embedded());
        QCOMPARE(same->toolkits.size(), 1);
        QCOMPARE(same->pythons.size(), 1);
    }

    // What the machine said is replaced, not merged.
    void replacesDetectedValues()
    {
        MatchFacts detected;
        detected.driver = Version::parse(QStringLiteral("580.95.05"));
        detected.driverMaxCuda = Version::parse(QStringLiteral("13.0"));
        detected.gpus = {{QStringLiteral("NVIDIA H200"), Version::parse(QStringLiteral("9.0"))},
                         {QStringLiteral("NVIDIA H200"), Version::parse(QStringLiteral("9.0"))}};
        detected.toolkits = {
            {Version::parse(QStringLiteral("13.0")), QStringLiteral("/usr/local/cuda-13.0")}};
        detected.zlibwapi = QStringList();
        WhatIf whatIf;
        whatIf.os = QStringLiteral("Windows");
        whatIf.driver = QStringLiteral("522.06");
        whatIf.cuda = QStringLiteral("v11.8");
        whatIf.gpu = QStringLiteral("NVIDIA GeForce RTX 3060 Laptop GPU");
        const auto facts = applyWhatIf(detected, whatIf, KnowledgeBase::embedded());
        QVERIFY(facts);
        QCOMPARE(facts->os, OsFamily::Windows);
        QCOMPARE(facts->driver.toString(), QStringLiteral("522.06"));
        QVERIFY(!facts->driverMaxCuda.isValid()); // the branch table answers for a typed driver
        QCOMPARE(facts->gpus.size(), 1);
        QCOMPARE(facts->gpus.first().computeCapability.toString(), QStringLiteral("8.6"));
        QCOMPARE(facts->toolkits.size(), 1);
        QCOMPARE(facts->targetToolkit->version.toString(), QStringLiteral("11.8"));
        QVERIFY(!facts->zlibwapi); // another system's DLLs are not known
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
