// What the Finish page tells the user to do next: PyTorch's line (nothing to do, or its one fix),
// a new terminal only when PATH or a variable changed, and the os.add_dll_directory line for
// programmers only where their Python would not find the cuDNN installed.
#include "Suite.h"
#include "session/NextSteps.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

PurposeAdvice pytorch(bool fine)
{
    PurposeAdvice advice;
    advice.purpose = Purpose::PyTorch;
    advice.systemCudnnNeeded = false;
    JudgedConsumer torch;
    torch.consumer.name = QStringLiteral("torch");
    torch.verdict.runs = fine ? ConsumerVerdict::Runs::Yes : ConsumerVerdict::Runs::No;
    torch.verdict.findsCudnn = ConsumerVerdict::FindsCudnn::Yes;
    advice.consumers = {torch};
    if (!fine) {
        advice.explanation = Text::verbatim(QStringLiteral("Install the build for this GPU:"));
        advice.command =
            QStringLiteral("pip install torch --index-url https://download.pytorch.org/whl/cu128");
    }
    return advice;
}

Receipt installedInto(InstallTarget::Kind kind, OsFamily family = OsFamily::Windows)
{
    InstallTarget target;
    target.kind = kind;
    target.family = family;
    target.root = family == OsFamily::Windows ? QStringLiteral("C:\\cudnn") : QStringLiteral("/opt/cudnn");
    target.binFolder = family == OsFamily::Windows ? QStringLiteral("bin") : QStringLiteral("lib");
    Receipt receipt;
    receipt.target = target;
    return receipt;
}

QStringList ids(const QList<NextStep> &steps)
{
    QStringList result;
    for (const NextStep &step : steps)
        result.append(step.id);
    return result;
}

} // namespace

class TestNextSteps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // torch runs and finds its own cuDNN: nothing to do, nothing to copy.
    void pytorchThatWorksNeedsNothing()
    {
        const QList<NextStep> steps = nextSteps(pytorch(true), std::nullopt, false);
        QCOMPARE(ids(steps), QStringList{QStringLiteral("pytorch")});
        QCOMPARE(steps.first().text.toString(),
                 QStringLiteral("PyTorch: nothing to do. It brings its own cuDNN and does not use a "
                                "system-wide one."));
        QVERIFY(steps.first().code.isEmpty());
        QVERIFY(!steps.first().forProgrammers);
    }

    // torch that does not run here: its one fix, and the line to copy.
    void pytorchWithAProblemGetsItsFix()
    {
        const PurposeAdvice advice = pytorch(false);
        const QList<NextStep> steps = nextSteps(advice, std::nullopt, false);
        QCOMPARE(ids(steps), QStringList{QStringLiteral("pytorch")});
        QCOMPARE(steps.first().text.toString(), QStringLiteral("PyTorch: Install the build for this GPU:"));
        QCOMPARE(steps.first().code, advice.command);
    }

    // No PyTorch line unless PyTorch is what cuDNN is for (chosen, or the programs found say so).
    void otherPurposesSayNothingOfPyTorch()
    {
        PurposeAdvice advice;
        advice.purpose = Purpose::OwnCode;
        QVERIFY(nextSteps(advice, std::nullopt, false).isEmpty());
    }

    void newTerminalOnlyWhenTheEnvironmentChanged_data()
    {
        QTest::addColumn<bool>("changed");
        QTest::newRow("PATH changed") << true;
        QTest::newRow("nothing changed") << false;
    }
    void newTerminalOnlyWhenTheEnvironmentChanged()
    {
        QFETCH(bool, changed);
        const QList<NextStep> steps = nextSteps(PurposeAdvice(), std::nullopt, changed);
        QCOMPARE(ids(steps).contains(QStringLiteral("new-terminal")), changed);
    }

    void pythonLineWhereItsDllsAreNotFound_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("family");
        QTest::addColumn<bool>("shown");
        QTest::newRow("CUDA toolkit")
            << int(InstallTarget::Kind::CudaToolkit) << int(OsFamily::Windows) << true;
        QTest::newRow("own folder") << int(InstallTarget::Kind::Folder) << int(OsFamily::Windows) << true;
        QTest::newRow("per-user folder")
            << int(InstallTarget::Kind::UserFolder) << int(OsFamily::Windows) << true;
        QTest::newRow("venv: its .pth does it")
            << int(InstallTarget::Kind::Venv) << int(OsFamily::Windows) << false;
        QTest::newRow("conda: Library\\bin is searched")
            << int(InstallTarget::Kind::Conda) << int(OsFamily::Windows) << false;
        QTest::newRow("a program's folder")
            << int(InstallTarget::Kind::App) << int(OsFamily::Windows) << false;
        QTest::newRow("Linux has no add_dll_directory")
            << int(InstallTarget::Kind::Folder) << int(OsFamily::Linux) << false;
    }
    void pythonLineWhereItsDllsAreNotFound()
    {
        QFETCH(int, kind);
        QFETCH(int, family);
        QFETCH(bool, shown);
        const QList<NextStep> steps =
            nextSteps(PurposeAdvice(), installedInto(InstallTarget::Kind(kind), OsFamily(family)), false);
        QCOMPARE(ids(steps), shown ? QStringList{QStringLiteral("python-code")} : QStringList());
        if (shown) {
            QVERIFY(steps.first().forProgrammers);
            QCOMPARE(steps.first().code,
                     QStringLiteral("import os; os.add_dll_directory(r\"C:\\cudnn\\bin\")"));
        }
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestNextSteps)
#include "tst_nextsteps.moc"
