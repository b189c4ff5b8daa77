#include "Suite.h"
#include "platform/SystemPaths.h"

#include <QTest>

using namespace cudnnsetup;

class TestSystemPaths : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void normalizeWindows_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("forward slashes") << "c:/Program Files/NVIDIA"
                                         << "C:\\Program Files\\NVIDIA";
        QTest::newRow("trailing separator") << "C:\\CUDA\\v12.2\\"
                                            << "C:\\CUDA\\v12.2";
        QTest::newRow("doubled separators") << "C:\\\\CUDA\\\\bin"
                                            << "C:\\CUDA\\bin";
        QTest::newRow("dot dot") << "C:\\CUDA\\v12.2\\bin\\..\\lib"
                                 << "C:\\CUDA\\v12.2\\lib";
        QTest::newRow("dot dot above drive") << "C:\\..\\x"
                                             << "C:\\x";
        QTest::newRow("drive root") << "c:\\"
                                    << "C:\\";
        QTest::newRow("UNC") << "\\\\server\\share\\cudnn"
                             << "\\\\server\\share\\cudnn";
    }
    void normalizeWindows()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(SystemPaths(OsFamily::Windows).normalize(input), expected);
    }

    void joinParentFileName()
    {
        const SystemPaths win(OsFamily::Windows);
        QCOMPARE(win.join(QStringLiteral("C:\\CUDA"), QStringLiteral("bin\\x64")),
                 QStringLiteral("C:\\CUDA\\bin\\x64"));
        QCOMPARE(win.parent(QStringLiteral("C:\\CUDA\\bin")), QStringLiteral("C:\\CUDA"));
        QCOMPARE(win.parent(QStringLiteral("C:\\CUDA")), QStringLiteral("C:\\"));
        QCOMPARE(win.parent(QStringLiteral("C:\\")), QString());
        QCOMPARE(win.fileName(QStringLiteral("C:\\CUDA\\bin\\cudnn64_9.dll")),
                 QStringLiteral("cudnn64_9.dll"));

        const SystemPaths linux(OsFamily::Linux);
        QCOMPARE(linux.join(QStringLiteral("/usr/local"), QStringLiteral("cuda/lib64")),
                 QStringLiteral("/usr/local/cuda/lib64"));
        QCOMPARE(linux.parent(QStringLiteral("/usr")), QStringLiteral("/"));
        QCOMPARE(linux.parent(QStringLiteral("/")), QString());
    }

    void equalityFollowsTheFamily()
    {
        QVERIFY(SystemPaths(OsFamily::Windows)
                    .equal(QStringLiteral("C:\\CUDA\\BIN\\"), QStringLiteral("c:/cuda/bin")));
        QVERIFY(!SystemPaths(OsFamily::Linux).equal(QStringLiteral("/usr/Lib"), QStringLiteral("/usr/lib")));
        QVERIFY(SystemPaths(OsFamily::Windows)
                    .startsWith(QStringLiteral("C:\\CUDA\\bin"), QStringLiteral("c:\\cuda")));
        QVERIFY(!SystemPaths(OsFamily::Windows)
                     .startsWith(QStringLiteral("C:\\CUDA2\\bin"), QStringLiteral("C:\\CUDA")));
    }

    void splitList()
    {
        const SystemPaths win(OsFamily::Windows);
        QCOMPARE(win.splitList(QStringLiteral("C:\\a;;\"C:\\b;c\";C:\\d;")),
                 (QStringList{QStringLiteral("C:\\a"), QStringLiteral("C:\\b;c"), QStringLiteral("C:\\d")}));
        QCOMPARE(SystemPaths(OsFamily::Linux).splitList(QStringLiteral("/a::/b:")),
                 (QStringList{QStringLiteral("/a"), QStringLiteral("/b")}));
    }

    void reservedNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("windows");
        QTest::newRow("CON") << "CON" << true;
        QTest::newRow("nul with extension") << "nul.txt" << true;
        QTest::newRow("COM1") << "COM1" << true;
        QTest::newRow("LPT9.dll") << "LPT9.dll" << true;
        QTest::newRow("superscript") << QStringLiteral("COM\u00B9") << true;
        QTest::newRow("console input") << "CONIN$" << true;
        QTest::newRow("space before dot") << "AUX .h" << true;
        QTest::newRow("trailing dot") << "cudnn64_9.dll." << true;
        QTest::newRow("trailing space") << "cudnn64_9.dll " << true;
        QTest::newRow("COM0") << "COM0" << false;
        QTest::newRow("COM10") << "COM10" << false;
        QTest::newRow("CONSOLE") << "CONSOLE.txt" << false;
        QTest::newRow("ordinary") << "cudnn_ops64_9.dll" << false;
        QTest::newRow("contains nul") << "nullable.h" << false;
    }
    void reservedNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, windows);
        QCOMPARE(SystemPaths(OsFamily::Windows).isReservedName(name), windows);
        QVERIFY(!SystemPaths(OsFamily::Linux).isReservedName(name));
        QVERIFY(SystemPaths(OsFamily::Linux).isReservedName(QStringLiteral("..")));
    }

    void expandVariables()
    {
        const auto lookup = [](const QString &name) -> QString {
            if (name.compare(QLatin1String("SystemRoot"), Qt::CaseInsensitive) == 0)
                return QStringLiteral("C:\\Windows");
            return {};
        };
        const SystemPaths win(OsFamily::Windows);
        QCOMPARE(win.expandVariables(QStringLiteral("%SystemRoot%\\system32;%UNSET%\\x"), lookup),
                 QStringLiteral("C:\\Windows\\system32;%UNSET%\\x"));
        // An unknown "% of %" stays whole, so "SystemRoot%" after it is text, as Windows reads it.
        QCOMPARE(win.expandVariables(QStringLiteral("50% of %SystemRoot%"), lookup),
                 QStringLiteral("50% of %SystemRoot%"));
        QCOMPARE(win.expandVariables(QStringLiteral("%%SystemRoot%%"), lookup),
                 QStringLiteral("%%SystemRoot%%"));
        QCOMPARE(win.expandVariables(QStringLiteral("100%"), lookup), QStringLiteral("100%"));
        const SystemPaths linux(OsFamily::Linux);
        QCOMPARE(linux.expandVariables(QStringLiteral("${SystemRoot}/a:$SystemRoot/b:$NOPE"), lookup),
                 QStringLiteral("C:\\Windows/a:C:\\Windows/b:$NOPE"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestSystemPaths)
#include "tst_systempaths.moc"
