// `cudnnctl doctor --from-log` run as users run it: the error they saw, from a file or piped in,
// read and explained beside the doctor's own findings, in JSON and in both languages.
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "common/ExitCodes.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {

QStringList doctorOn(const Sandbox &sandbox, const QString &log, const QString &language)
{
    return {QStringLiteral("doctor"), QStringLiteral("--from-log"), log,     QStringLiteral("--system-root"),
            sandbox.root(),           QStringLiteral("--lang"),     language};
}

QByteArray fixture(const QString &name)
{
    return Sandbox::readFixture(QStringLiteral("errors/") + name);
}

} // namespace

class TestCudnnctlFromLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A torch traceback naming a venv of the inspected system: the signature in the JSON contract,
    // explained first among the diagnoses, the venv's folder recognised.
    void explainsALogFromThisSystem()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::workstation(sandbox);
        sandbox.mkdir(QStringLiteral("/home/ana/venv/lib/python3.12/site-packages/torch/lib"));
        QTemporaryDir folder;
        const QString log = folder.filePath(QStringLiteral("error.txt"));
        QFile file(log);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "Traceback (most recent call last):\n  File \"/home/ana/train.py\", line 1, in <module>\n"
            "OSError: /home/ana/venv/lib/python3.12/site-packages/torch/lib/libcudnn_graph.so.9: cannot "
            "open shared object file: No such file or directory\n");
        file.close();
        const CudnnctlRun run = runCudnnctl(
            doctorOn(sandbox, log, QStringLiteral("en")) << QStringLiteral("--json"), sandboxEnvironment());
        QCOMPARE(run.exitCode, int(cudnnsetup::exitcode::ProblemsFound));
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/doctor/1"));
        const QJsonArray signatures =
            report.value(QStringLiteral("log")).toObject().value(QStringLiteral("signatures")).toArray();
        QCOMPARE(signatures,
                 (QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("missing-library")},
                                         {QStringLiteral("line"), 3},
                                         {QStringLiteral("library"), QStringLiteral("libcudnn_graph.so.9")},
                                         {QStringLiteral("cudnnMajor"), 9}}}));
        const QJsonObject first = report.value(QStringLiteral("diagnoses")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("log.missing-library"));
        QVERIFY2(
            first.value(QStringLiteral("message"))
                .toString()
                .contains(QLatin1String("/home/ana/venv/lib/python3.12/site-packages/torch/lib named in the "
                                        "error exists on this system")),
            qPrintable(first.value(QStringLiteral("message")).toString()));
        QVERIFY(!first.value(QStringLiteral("fix")).toString().isEmpty());
    }

    // "-" reads the standard input; a GBK paste from a Chinese console is explained in Chinese.
    void readsStandardInputInChinese()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::workstation(sandbox);
        const CudnnctlRun run = runCudnnctl(doctorOn(sandbox, QStringLiteral("-"), QStringLiteral("zh_CN")),
                                            sandboxEnvironment(), BuildPaths::cudnnctl(), {},
                                            fixture(QStringLiteral("chatglm3-69-winerror-126-gbk.txt")));
        QCOMPARE(run.exitCode, int(cudnnsetup::exitcode::ProblemsFound));
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(
            text.startsWith(QStringLiteral("你粘贴的错误：\n1. [错误] 无法加载 cudnn_cnn_infer64_8.dll。")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("文字第 9 行：OSError: [WinError 126] 找不到指定的模块。")));
        QVERIFY(text.contains(QStringLiteral("本系统：")));
    }

    // Out of memory is not a cuDNN problem: "not recognised", nothing invented, and no signature.
    void notRecognisedInventsNothing()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "runs the Linux tree's programs");
        Sandbox sandbox;
        trees::workstation(sandbox);
        const QString oom =
            Sandbox::fixturePath(QStringLiteral("errors/negative-mgfn-35-cuda-out-of-memory.txt"));
        const CudnnctlRun text =
            runCudnnctl(doctorOn(sandbox, oom, QStringLiteral("en")), sandboxEnvironment());
        QVERIFY2(text.out.startsWith("The error you pasted:\n   Not recognised:"), text.out.constData());
        QVERIFY(!text.out.contains("[error] log."));
        const CudnnctlRun json = runCudnnctl(
            doctorOn(sandbox, oom, QStringLiteral("en")) << QStringLiteral("--json"), sandboxEnvironment());
        const QJsonObject report = outputJson(json);
        QCOMPARE(report.value(QStringLiteral("log")).toObject().value(QStringLiteral("signatures")).toArray(),
                 QJsonArray());
        for (const QJsonValue &diagnosis : report.value(QStringLiteral("diagnoses")).toArray())
            QVERIFY(!diagnosis.toObject()
                         .value(QStringLiteral("id"))
                         .toString()
                         .startsWith(QLatin1String("log.")));
    }

    // A log that cannot be read is a usage error that names it; the doctor does not run.
    void unreadableLogIsAUsageError()
    {
        Sandbox sandbox;
        const CudnnctlRun run =
            runCudnnctl(doctorOn(sandbox, QStringLiteral("/nonexistent/error.txt"), QStringLiteral("en")),
                        sandboxEnvironment());
        QCOMPARE(run.exitCode, int(cudnnsetup::exitcode::UsageError));
        // The path as the program made it absolute: "Z:/nonexistent/…" under Wine.
        QVERIFY2(run.err.contains("/nonexistent/error.txt cannot be read."), run.err.constData());
        QVERIFY2(run.err.contains("The log "), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlFromLog)
#include "tst_cudnnctl_fromlog.moc"
