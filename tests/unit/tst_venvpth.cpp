// The venv's .pth file: one line of ASCII, read back by a real Python under a locale that only
// knows ASCII.
#include "InstallTargetWorkstation.h"
#include "Suite.h"
#include "install/FilePlacement.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

QString findPython()
{
    for (const QString &name : {QStringLiteral("python3"), QStringLiteral("python")}) {
        const QString found = QStandardPaths::findExecutable(name);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

// Runs `siteDir`'s .pth files through site.addsitedir with os.add_dll_directory recorded (it is
// Windows-only); `pretend` makes every folder exist (for Windows paths on a Linux host); `strict`
// runs under the C locale with Python's UTF-8 coercions off, so the locale encoding is ASCII.
struct PythonRun
{
    int exitCode = -1;
    QString encoding;
    int minor = 0; // Python 3.minor
    QStringList calls;
    QByteArray error;
};

PythonRun runPth(const QString &python, const QString &siteDir, bool pretend, bool strict)
{
    static const char script[] =
        "import os, sys, site, locale\n"
        "calls = []\n"
        "os.add_dll_directory = calls.append\n"
        "if sys.argv[2] == 'pretend':\n"
        "    os.path.isdir = lambda p: True\n"
        "site.addsitedir(sys.argv[1])\n"
        "out = ['%s %d' % (locale.getpreferredencoding(False), sys.version_info[1])] + calls\n"
        "sys.stdout.buffer.write('\\n'.join(out).encode('utf-8'))\n";
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("PYTHONUTF8"));
    environment.remove(QStringLiteral("PYTHONIOENCODING"));
    if (strict) {
        environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
        environment.insert(QStringLiteral("LANG"), QStringLiteral("C"));
        environment.insert(QStringLiteral("PYTHONUTF8"), QStringLiteral("0"));
        environment.insert(QStringLiteral("PYTHONCOERCECLOCALE"), QStringLiteral("0"));
    } else {
        environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    }
    process.setProcessEnvironment(environment);
    process.start(python, {QStringLiteral("-S"), QStringLiteral("-c"), QString::fromLatin1(script), siteDir,
                           pretend ? QStringLiteral("pretend") : QStringLiteral("real")});
    PythonRun run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.error = "python did not finish";
        return run;
    }
    run.exitCode = process.exitCode();
    run.error = process.readAllStandardError();
    QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    const QString first = lines.takeFirst();
    run.encoding = first.section(QLatin1Char(' '), 0, 0);
    run.minor = first.section(QLatin1Char(' '), 1).toInt();
    run.calls = lines;
    return run;
}

} // namespace

class TestVenvPth : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void pthIsOneLineOfAscii_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QByteArray>("literal");
        QTest::newRow("plain") << "C:\\venv\\bin" << QByteArray("'C:\\\\venv\\\\bin'");
        QTest::newRow("Chinese") << kVenv
                                 << QByteArray("'C:\\\\Users\\\\\\u5f20\\u4e09\\\\\\u9879\\u76ee\\\\.venv'");
        QTest::newRow("quote") << "C:\\it's" << QByteArray("'C:\\\\it\\'s'");
        QTest::newRow("beyond the BMP")
            << QStringLiteral("C:\\\U00020000") << QByteArray("'C:\\\\\\U00020000'");
        QTest::newRow("a control character") << QStringLiteral("C:\\a\tb") << QByteArray("'C:\\\\a\\x09b'");
    }

    void pthIsOneLineOfAscii()
    {
        QFETCH(QString, folder);
        QFETCH(QByteArray, literal);
        const QByteArray content = venvPthContent(folder);
        QCOMPARE(content, "import os; hasattr(os, 'add_dll_directory') and os.path.isdir(" + literal +
                              ") and os.add_dll_directory(" + literal + ")\n");
        QCOMPARE(content.count('\n'), 1);
        for (const char c : content)
            QVERIFY2(uchar(c) < 0x80 && (uchar(c) >= 0x20 || c == '\n'), content.constData());
    }

    // The .pth through a real Python's site module: the folder comes back exactly, even with Python
    // reading it in a locale whose encoding is ASCII.
    void pthThroughPython_data()
    {
        QTest::addColumn<QString>("folder"); // empty: a real Chinese folder on this host
        QTest::addColumn<bool>("pretend");
        QTest::addColumn<bool>("strict");
        QTest::newRow("real Chinese folder") << QString() << false << false;
        QTest::newRow("real Chinese folder, ASCII locale") << QString() << false << true;
        QTest::newRow("Windows venv of a Chinese user, ASCII locale")
            << kVenv + QStringLiteral("\\Lib\\bin") << true << true;
        QTest::newRow("beyond the BMP, ASCII locale")
            << QStringLiteral("C:\\\U0001F600\\\U00020000\\bin") << true << true;
        QTest::newRow("quote and trailing backslash") << QStringLiteral("C:\\it's\\") << true << true;
    }

    void pthThroughPython()
    {
        QFETCH(QString, folder);
        QFETCH(bool, pretend);
        QFETCH(bool, strict);
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("no python3 on this host");
        QTemporaryDir site;
        QVERIFY(site.isValid());
        QTemporaryDir home;
        QVERIFY(home.isValid());
        if (folder.isEmpty()) {
            folder =
                home.filePath(QStringLiteral("\u7528\u6237/\u5f20\u4e09/cudnn_setup.libs/bin")); // 用户/张三
            QVERIFY(QDir().mkpath(folder));
        }
        QFile pth(site.filePath(QStringLiteral("cudnn_setup.pth")));
        QVERIFY(pth.open(QIODevice::WriteOnly));
        pth.write(venvPthContent(folder));
        pth.close();
        const PythonRun run = runPth(python, site.path(), pretend, strict);
        QVERIFY2(run.exitCode == 0, run.error.constData());
        QVERIFY2(run.error.isEmpty(), run.error.constData());
        if (strict && !pretend) {
            // Under an ASCII locale Python cannot even name a Chinese folder: the guard must
            // keep quiet instead of raising.
            QVERIFY2(run.calls.isEmpty() || run.calls == QStringList{folder},
                     qPrintable(run.calls.join(QLatin1Char('|'))));
            return;
        }
        QCOMPARE(run.calls, QStringList{folder});
        if (strict)
            QVERIFY2(!run.encoding.contains(QLatin1String("UTF"), Qt::CaseInsensitive),
                     qPrintable(run.encoding));
    }

    // The guard: a folder that is gone (or a Python without add_dll_directory) changes nothing and
    // prints nothing; the same line written naively in UTF-8 breaks under an ASCII locale, which is
    // why the escapes are there.
    void pthGuards()
    {
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("no python3 on this host");
        QTemporaryDir site;
        QVERIFY(site.isValid());
        QFile pth(site.filePath(QStringLiteral("cudnn_setup.pth")));
        QVERIFY(pth.open(QIODevice::WriteOnly));
        pth.write(venvPthContent(site.filePath(QStringLiteral("gone"))));
        pth.close();
        PythonRun run = runPth(python, site.path(), false, false);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.error.isEmpty(), run.error.constData());
        QCOMPARE(run.calls, QStringList());

        const QString folder = kVenv + QStringLiteral("\\bin");
        QVERIFY(pth.open(QIODevice::WriteOnly | QIODevice::Truncate));
        pth.write("import os; os.add_dll_directory('" +
                  QString(folder).replace(QLatin1Char('\\'), QStringLiteral("\\\\")).toUtf8() + "')\n");
        pth.close();
        run = runPth(python, site.path(), true, true);
        // Python 3.13 reads .pth files as UTF-8 first, so only older ones show the breakage.
        if (run.minor > 0 && run.minor < 13)
            QVERIFY2(run.calls != QStringList{folder}, qPrintable(run.encoding));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestVenvPth)
#include "tst_venvpth.moc"
