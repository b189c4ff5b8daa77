// cudnnctl with --lang zh_CN over the sandbox workstation: every command's words are Chinese. What
// may stay in Latin letters is what is not words: paths, file names, versions, options, hashes,
// environment variable names, and the product and program names of the allowlist below.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "common/TerminalWrap.h"

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

// Names, not words: products, programs, units and the like, as they are written in Chinese text.
const QSet<QString> kAllowed{
    QStringLiteral("NVIDIA"),       QStringLiteral("CUDA"),       QStringLiteral("cuDNN"),
    QStringLiteral("PyTorch"),      QStringLiteral("torch"),      QStringLiteral("Python"),
    QStringLiteral("Windows"),      QStringLiteral("Linux"),      QStringLiteral("WSL"),
    QStringLiteral("conda"),        QStringLiteral("venv"),       QStringLiteral("pip"),
    QStringLiteral("JAX"),          QStringLiteral("TensorFlow"), QStringLiteral("ONNX"),
    QStringLiteral("Runtime"),      QStringLiteral("OpenCV"),     QStringLiteral("DNN"),
    QStringLiteral("GPU"),          QStringLiteral("PATH"),       QStringLiteral("DLL"),
    QStringLiteral("ZIP"),          QStringLiteral("SHA"),        QStringLiteral("JSON"),
    QStringLiteral("KB"),           QStringLiteral("MB"),         QStringLiteral("GB"),
    QStringLiteral("GeForce"),      QStringLiteral("RTX"),        QStringLiteral("Ti"),
    QStringLiteral("cudnnctl"),     QStringLiteral("nvcc"),       QStringLiteral("Tesla"),
    QStringLiteral("PaddlePaddle"), QStringLiteral("TITAN"),      QStringLiteral("x64"),
    QStringLiteral("PTX"),          QStringLiteral("dry"),        QStringLiteral("run"),
    QStringLiteral("Archive"),      QStringLiteral("stub"),       QStringLiteral("UAC"),
    QStringLiteral("Ubuntu"),       QStringLiteral("Debian"),     QStringLiteral("ldconfig"),
    QStringLiteral("ms"),           QStringLiteral("System32"),   QStringLiteral("bin"),
    QStringLiteral("include"),
    QStringLiteral("lib"), // folder names of an archive's layout
};

// The words of `text` in Latin letters that are neither names nor part of a path, file name,
// version, option or other token with punctuation or digits in it; what is quoted (“…”, a command
// to type) is not words either.
QStringList englishWords(QString text)
{
    static const QRegularExpression quoted(QStringLiteral("“[^”]*”|\"[^\"\n]*\""));
    text.remove(quoted);
    static const QRegularExpression token(QStringLiteral("[^\\s\\x{3000}-\\x{303F}\\x{4E00}-\\x{9FFF}"
                                                         "\\x{FF00}-\\x{FFEF}\"'“”‘’]+"));
    static const QRegularExpression word(QStringLiteral("^[A-Za-z]+$"));
    QStringList found;
    for (const QRegularExpressionMatch &match : token.globalMatch(text)) {
        QString candidate = match.captured();
        // A word may end a clause: "…of CUDA," or "(x64)".
        while (!candidate.isEmpty() && QStringLiteral(",.;:!?()[]").contains(candidate.back()))
            candidate.chop(1);
        while (!candidate.isEmpty() && QStringLiteral("([").contains(candidate.front()))
            candidate.remove(0, 1);
        if (!word.match(candidate).hasMatch() || kAllowed.contains(candidate))
            continue;
        if (candidate.size() > 1 && candidate == candidate.toUpper())
            continue; // an environment variable or an acronym: CUDA_PATH's kind
        found.append(candidate);
    }
    return found;
}

} // namespace

class TestCudnnctlChinese : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The checker itself: words are found, names and tokens are not.
    void findsEnglishWords()
    {
        QCOMPARE(
            englishWords(QStringLiteral("驱动 591.59 最高支持 CUDA 13.0，位于 C:\\Program Files\\NVIDIA。")),
            QStringList());
        QCOMPARE(englishWords(QStringLiteral("运行“cudnnctl doctor --fix”，然后 open a new terminal")),
                 (QStringList{QStringLiteral("open"), QStringLiteral("a"), QStringLiteral("new"),
                              QStringLiteral("terminal")}));
        QCOMPARE(englishWords(QStringLiteral("[note] 系统 (linux, 未知)")),
                 (QStringList{QStringLiteral("note"), QStringLiteral("linux")}));
        QCOMPARE(englishWords(QStringLiteral("cudnn64_9.dll（x64）、CUDA_PATH 和 libcudnn.so.9")),
                 QStringList());
    }

    void commandsSpeakChinese_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *command : {"detect", "check", "inspect", "download", "verify", "doctor", "status"})
            QTest::newRow(command) << QString::fromLatin1(command);
    }
    void commandsSpeakChinese()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        QFETCH(QString, command);
        Sandbox sandbox;
        trees::workstation(sandbox);
        QTemporaryDir archives;
        const archives::StandIn standIn =
            archives::writeStandIn(archives.path(), QStringLiteral("9.19.0.56"), QStringLiteral("12"));
        QStringList arguments{command};
        if (command == QLatin1String("inspect"))
            arguments << standIn.archive;
        if (command == QLatin1String("download")) // from the folder that holds the stand-in
            arguments << QStringLiteral("--cudnn") << QStringLiteral("9.19.0") << QStringLiteral("--cuda")
                      << QStringLiteral("12") << QStringLiteral("--platform")
                      << QStringLiteral("windows-x86_64") << QStringLiteral("--source") << archives.path()
                      << QStringLiteral("--out") << archives.filePath(QStringLiteral("downloaded"));
        arguments << QStringLiteral("--lang") << QStringLiteral("zh_CN") << QStringLiteral("--system-root")
                  << sandbox.root() << QStringLiteral("--compat-db") << standIn.database;
        const CudnnctlRun run = runCudnnctl(arguments, sandboxEnvironment());
        QVERIFY2(run.exitCode != 2, run.err.constData());
        const QString text = QString::fromUtf8(run.out + run.err);
        QVERIFY(!text.trimmed().isEmpty());
        // Ids that only JSON keeps: the archive's layout is said in words.
        static const QRegularExpression layoutId(
            QStringLiteral("(?<![\\w-])(cuda-root|archive-root(-x64)?|not-cudnn)(?![\\w-])"));
        QVERIFY2(!layoutId.match(text).hasMatch(), qPrintable(text));
        const QStringList english = englishWords(text);
        QVERIFY2(
            english.isEmpty(),
            qPrintable(QStringLiteral("English left: %1\n\n%2").arg(english.join(QLatin1Char(' ')), text)));
    }

    // `--help` in Chinese names its argument in Chinese, and every line fits 80
    // terminal columns, where a Chinese character takes two.
    void helpFitsEightyColumns()
    {
        const CudnnctlRun run =
            runCudnnctl({QStringLiteral("--help"), QStringLiteral("--lang"), QStringLiteral("zh_CN")});
        QCOMPARE(run.exitCode, 0);
        const QString text = QString::fromUtf8(run.out);
        QVERIFY(text.contains(QStringLiteral("命令")));
        // Windows writes CRLF: the CR takes no column.
        for (const QString &line : QString(text).remove(QLatin1Char('\r')).split(QLatin1Char('\n')))
            QVERIFY2(cudnnsetup::displayWidth(line) <= 80, qPrintable(line));
        // Command names and option values stay as typed; the argument's own name is Chinese.
        QVERIFY2(!text.contains(QStringLiteral("] command")), qPrintable(text));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlChinese)
#include "tst_cudnnctl_chinese.moc"
