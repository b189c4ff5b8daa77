// A DLL planted beside cuDNN Setup's programs (a copy started from a download folder, where anyone
// can drop files) is not loaded into them: both take the DLLs they load themselves from System32
// only. The planted NVML stand-in leaves a marker beside itself when a process loads it.
#include "BuildPaths.h"
#include "Cudnnctl.h"
#include "Suite.h"
#include "platform/LibraryLoader.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

class TestWinPlanted : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void driverDllBesideTheProgramIsNotLoaded()
    {
        QTemporaryDir downloads;
        QVERIFY(downloads.isValid());
        const QString program = downloads.filePath(QStringLiteral("cudnnctl.exe"));
        const QString planted = downloads.filePath(QStringLiteral("nvml.dll"));
        const QString marker = planted + QStringLiteral(".loaded");
        QVERIFY(QFile::copy(BuildPaths::cudnnctl(), program));
        QVERIFY(QFile::copy(BuildPaths::standins() + QStringLiteral("/planted/nvml.dll"), planted));

        // Detection asks the driver's NVML first: the live system, with its driver API.
        const CudnnctlRun detected =
            runCudnnctl({QStringLiteral("detect"), QStringLiteral("--json")},
                        QProcessEnvironment::systemEnvironment(), program, downloads.path());
        QVERIFY2(detected.exitCode == 0 || detected.exitCode == 1, detected.out + detected.err);
        QVERIFY(!outputJson(detected).isEmpty());
        QVERIFY2(!QFileInfo::exists(marker), "cudnnctl.exe loaded the nvml.dll planted beside it");

        // The marker is real: a process that does load the planted file leaves it.
        const LoadResult loaded = LibraryLoader().load(planted, LibraryLoader::Search::Safe);
        QVERIFY2(loaded.library, qPrintable(loaded.errorString));
        QVERIFY(QFileInfo::exists(marker));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinPlanted)
#include "tst_win_planted.moc"
