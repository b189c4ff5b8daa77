// The places the Where cuDNN goes page offers, worked out without a widget: the toolkits of the
// archive's CUDA major, a folder of its own, a per-user folder, each real conda env and venv once.
#include "Sandbox.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "session/TargetChoices.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

} // namespace

class TestTargetChoices : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void offersEachPlaceOnce()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString cuda = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\");
        trees::windowsToolkit(sandbox, QStringLiteral("12.9.1"));
        trees::windowsToolkit(sandbox, QStringLiteral("11.8.0"));
        sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\miniconda3\\envs\\torch\\conda-meta"));
        sandbox.write(QStringLiteral("C:\\Users\\lab\\venvs\\dl\\pyvenv.cfg"), "version = 3.12.3\n");
        sandbox.write(QStringLiteral("C:\\Users\\lab\\venvs\\dl\\Scripts\\python.exe"), "MZ");
        sandbox.mkdir(QStringLiteral("C:\\Users\\lab\\not-a-venv\\Scripts"));

        SystemSnapshot snapshot;
        snapshot.os.family = QStringLiteral("windows");
        for (const QString &version : {QStringLiteral("12.9.1"), QStringLiteral("11.8.0")}) {
            CudaToolkit toolkit;
            toolkit.version = version;
            toolkit.path = cuda + QStringLiteral("v") + version.section(QLatin1Char('.'), 0, 1);
            snapshot.cudaToolkits.append(toolkit);
        }
        const QString conda = QStringLiteral("C:\\Users\\lab\\miniconda3\\envs\\torch\\python.exe");
        snapshot.pythons = {
            trees::pythonInstall(conda, QStringLiteral("conda")),
            trees::pythonInstall(conda, QStringLiteral("conda")),
            trees::pythonInstall(QStringLiteral("C:\\Users\\lab\\venvs\\dl\\Scripts\\python.exe"),
                                 QStringLiteral("venv")),
            trees::pythonInstall(QStringLiteral("C:\\Users\\lab\\not-a-venv\\Scripts\\python.exe"),
                                 QStringLiteral("venv"))};
        ArchiveReport archive;
        archive.cudaVariant = QStringLiteral("12");
        archive.cudnn = Version::parse(QStringLiteral("9.19.0.56"));
        archive.platform = QStringLiteral("windows-x86_64");

        const QList<TargetChoice> choices =
            offeredTargets(snapshot, archive, trees::windowsLaptopContext(sandbox));
        QStringList specs;
        for (const TargetChoice &choice : choices)
            specs.append(choice.selection.text());
        QVERIFY2(specs == (QStringList{QStringLiteral("cuda:12.9.1"), QStringLiteral("dir"),
                                       QStringLiteral("user"),
                                       QStringLiteral("conda:C:\\Users\\lab\\miniconda3\\envs\\torch"),
                                       QStringLiteral("venv:C:\\Users\\lab\\venvs\\dl")}),
                 qPrintable(specs.join(QLatin1Char(' '))));
        QCOMPARE(choices.first().name, QStringLiteral("12.9"));
        QCOMPARE(choices.first().where, cuda + QStringLiteral("v12.9"));
        QVERIFY(choices.at(1).where.isEmpty()); // its folder is typed on the page
        QCOMPARE(choices.at(3).name, QStringLiteral("torch"));
        QCOMPARE(choices.at(4).name, QStringLiteral("dl"));
    }

    void eachKindStartsWithItsPath()
    {
        QCOMPARE(int(defaultPathScope(InstallTarget::Kind::Folder)), int(PathScope::System));
        QCOMPARE(int(defaultPathScope(InstallTarget::Kind::UserFolder)), int(PathScope::User));
        for (const InstallTarget::Kind kind :
             {InstallTarget::Kind::CudaToolkit, InstallTarget::Kind::Conda, InstallTarget::Kind::Venv})
            QCOMPARE(int(defaultPathScope(kind)), int(PathScope::None));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTargetChoices)
#include "tst_targetchoices.moc"
