// Where each file of an archive goes in a target (placeFiles), for NVIDIA's layouts.
#include "CudnnArchiveLists.h"
#include "InstallTargetWorkstation.h"
#include "Suite.h"
#include "ZipWriter.h"
#include "archive/ArchiveInspector.h"
#include "install/FilePlacement.h"
#include "install/InstallTarget.h"

#include <QTest>

using namespace cudnnsetup;

class TestFilePlacement : public QObject, private InstallTargetWorkstation
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWorkstation(); }

    // DLLs beside each other, headers, import libraries, the licence renamed; nothing else.
    void placeFiles_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("dlls");
        QTest::addColumn<int>("headers");
        QTest::addColumn<int>("libs");
        for (const QString &spec : {QStringLiteral("dir"), QStringLiteral("user"), QStringLiteral("cuda"),
                                    QStringLiteral("conda:torch"), QStringLiteral("venv:") + kVenv}) {
            const QByteArray name = spec.left(5).toLatin1();
            QTest::newRow("8.9.7 " + name) << "8.9.7" << spec << 7 << 9 << 14;
            QTest::newRow("9.1 " + name) << "9.1" << spec << 8 << 7 << 16;
            QTest::newRow("9.18 " + name) << "9.18" << spec << 8 << 7 << 16;
        }
        QTest::newRow("8.2 cuda-rooted, licence beside cuda") << "8.2"
                                                              << "dir" << 7 << 9 << 7;
    }

    void placeFiles()
    {
        QFETCH(QString, archive);
        QFETCH(QString, spec);
        QFETCH(int, dlls);
        QFETCH(int, headers);
        QFETCH(int, libs);
        const ArchiveReport &report = this->archive(archive);
        const InstallTarget target = this->target(spec, archive);
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        QCOMPARE(planned.size(), dlls + headers + libs + 1);
        int seenDlls = 0;
        int seenHeaders = 0;
        int seenLibs = 0;
        int licences = 0;
        const SystemPaths paths(OsFamily::Windows);
        for (const PlannedFile &file : planned) {
            const QString name = file.archivePath.mid(file.archivePath.lastIndexOf(QLatin1Char('/')) + 1);
            QVERIFY(file.entry >= 0);
            QCOMPARE(report.files.at(file.entry).path, file.archivePath);
            QCOMPARE(file.size, report.files.at(file.entry).size);
            switch (file.kind) {
            case ArchiveFile::Kind::Library:
            case ArchiveFile::Kind::OtherDll:
                ++seenDlls;
                QCOMPARE(file.destination, target.dllFolder() + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::Header:
                ++seenHeaders;
                QCOMPARE(file.destination, target.pathOf(target.includeFolder) + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::ImportLibrary:
                ++seenLibs;
                QCOMPARE(file.destination, target.pathOf(target.libFolder) + QLatin1Char('\\') + name);
                break;
            case ArchiveFile::Kind::Other:
                ++licences;
                QVERIFY2(name == QLatin1String("LICENSE") ||
                             name == QLatin1String("NVIDIA_SLA_cuDNN_Support.txt"),
                         qPrintable(file.archivePath));
                QCOMPARE(file.destination, target.dllFolder() + QStringLiteral("\\cudnn-LICENSE.txt"));
                break;
            }
            QVERIFY(paths.isAbsolute(file.destination));
            QVERIFY(!file.destination.contains(QLatin1Char('/')));
        }
        QCOMPARE(seenDlls, dlls);
        QCOMPARE(seenHeaders, headers);
        QCOMPARE(seenLibs, libs);
        QCOMPARE(licences, 1);
    }

    // Two entries that would land on one file: the first wins, the second is not planned.
    void placeFilesKeepsTheFirstOfTwo()
    {
        QStringList files = archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const QString root = archives::windowsRoot(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        files.append(root + QStringLiteral("/bin/extra/cudnn64_9.dll"));
        const ArchiveReport report =
            inspectZip(QStringLiteral("twice.zip"),
                       ZipWriter(archives::entriesOf(files, QStringLiteral("9.1.0.70"))).finish());
        const InstallTarget target = this->target(QStringLiteral("dir:D:\\cudnn"));
        const QList<PlannedFile> planned = cudnnsetup::placeFiles(report, target);
        int count = 0;
        for (const PlannedFile &file : planned) {
            if (file.destination == QLatin1String("D:\\cudnn\\bin\\cudnn64_9.dll")) {
                ++count;
                QCOMPARE(file.archivePath, root + QStringLiteral("/bin/cudnn64_9.dll"));
            }
        }
        QCOMPARE(count, 1);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestFilePlacement)
#include "tst_fileplacement.moc"
