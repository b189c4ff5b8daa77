// The archive inspection on archives built entry by entry: NVIDIA's layouts of every era, renamed
// downloads, names that lie about the content, hostile and damaged archives, name encodings and
// NVIDIA's checksums. Every case runs through every zip backend of the build.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "Suite.h"
#include "ZipWriter.h"
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
#include "BuildPaths.h"
#include "TarWriter.h"
#endif
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

Q_DECLARE_METATYPE(cudnnsetup::ZipSource::Backend)

namespace {

QString sha256Of(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

const ArchiveFile *fileAt(const ArchiveReport &report, const QString &path)
{
    for (const ArchiveFile &file : report.files) {
        if (file.path == path)
            return &file;
    }
    return nullptr;
}

} // namespace

class TestArchiveInspector : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString save(const QString &fileName, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(fileName);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
            qFatal("cannot write the test archive");
        return path;
    }

    // Judged with `kb`; without one, the test-made archive stands in for NVIDIA's file of its name.
    static ArchiveReport inspect(const QString &path, bool verifyData = true,
                                 const std::optional<KnowledgeBase> &kb = std::nullopt)
    {
        QFETCH(ZipSource::Backend, backend);
        InspectOptions options;
        options.backend = backend;
        options.verifyData = verifyData;
        auto report =
            inspectArchive(path, (kb ? *kb : archives::databaseKnowing({path})).publishedArchives(), options);
        if (!report)
            qFatal("inspection failed: %s", qPrintable(report.error().details));
        return *report;
    }

    static void addBackendColumn()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        for (const ZipSource::Backend backend : ZipSource::backends())
            QTest::newRow(qPrintable(ZipSource::backendName(backend))) << backend;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // NVIDIA's layouts of every era: the true version from cudnn_version.h (8.x and 9.x
    // formulas), the build number from the name, the CUDA variant from the archive's top folder.
    void recognisesEveryEra_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("headerVersion");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("libraryFolder");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QString>("cudaVariant");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "8.2 cuda/ root")
                << backend << QStringLiteral("cudnn-11.4-windows-x64-v8.2.4.15.zip")
                << archives::cudaRootFiles(8) << QStringLiteral("8.2.4") << QStringLiteral("cuda-root")
                << QStringLiteral("cuda/bin") << QStringLiteral("8.2.4.15") << QString();
            QTest::newRow(tag + "8.3 _cuda11.5")
                << backend << QStringLiteral("cudnn-windows-x86_64-8.3.3.40_cuda11.5-archive.zip")
                << archives::windowsFiles(QStringLiteral("8.3.3.40"), QStringLiteral("11.5"))
                << QStringLiteral("8.3.3") << QStringLiteral("archive-root")
                << QStringLiteral("cudnn-windows-x86_64-8.3.3.40_cuda11.5-archive/bin")
                << QStringLiteral("8.3.3.40") << QStringLiteral("11.5");
            QTest::newRow(tag + "8.5 _cuda11")
                << backend << QStringLiteral("cudnn-windows-x86_64-8.5.0.96_cuda11-archive.zip")
                << archives::windowsFiles(QStringLiteral("8.5.0.96"), QStringLiteral("11"))
                << QStringLiteral("8.5.0") << QStringLiteral("archive-root")
                << QStringLiteral("cudnn-windows-x86_64-8.5.0.96_cuda11-archive/bin")
                << QStringLiteral("8.5.0.96") << QStringLiteral("11");
            QTest::newRow(tag + "8.9.7 _cuda12")
                << backend << QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip")
                << archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12"))
                << QStringLiteral("8.9.7") << QStringLiteral("archive-root")
                << QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive/bin")
                << QStringLiteral("8.9.7.29") << QStringLiteral("12");
            QTest::newRow(tag + "9.1 bin/")
                << backend << QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip")
                << archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"))
                << QStringLiteral("9.1.0") << QStringLiteral("archive-root")
                << QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin")
                << QStringLiteral("9.1.0.70") << QStringLiteral("12");
            QTest::newRow(tag + "9.18 bin/x64")
                << backend << QStringLiteral("cudnn-windows-x86_64-9.18.0.77_cuda13-archive.zip")
                << archives::windowsFiles(QStringLiteral("9.18.0.77"), QStringLiteral("13"))
                << QStringLiteral("9.18.0") << QStringLiteral("archive-root-x64")
                << QStringLiteral("cudnn-windows-x86_64-9.18.0.77_cuda13-archive/bin/x64")
                << QStringLiteral("9.18.0.77") << QStringLiteral("13");
        }
    }
    void recognisesEveryEra()
    {
        QFETCH(QString, fileName);
        QFETCH(QStringList, files);
        QFETCH(QString, headerVersion);
        const QByteArray bytes = ZipWriter(archives::entriesOf(files, headerVersion)).finish();
        const ArchiveReport report = inspect(save(fileName, bytes), true, KnowledgeBase::embedded());
        // NVIDIA published a checksum for most of these names, and a test-made file is not theirs:
        // refused as altered, though everything else about it is read.
        const KnownArchive *published = KnowledgeBase::embedded().archiveByFile(fileName);
        const bool altered = published && !published->sha256.isEmpty();
        const QString verdict = altered ? QStringLiteral("altered") : QStringLiteral("ok");

        QCOMPARE(report.verdictName(), verdict);
        QTEST(report.layout.kindName(), "layout");
        QTEST(report.layout.libraryFolder, "libraryFolder");
        QTEST(report.cudnn.toString(), "cudnn");
        QTEST(report.cudaVariant, "cudaVariant");
        QCOMPARE(report.platform, QStringLiteral("windows-x86_64"));
        QCOMPARE(report.entryCount, files.size());
        QCOMPARE(report.files.size(), files.size());
        QCOMPARE(report.sha256, sha256Of(bytes));
        QCOMPARE(report.official,
                 altered ? ArchiveReport::Official::Mismatch : ArchiveReport::Official::Unknown);
        QVERIFY(!findingIds(report.findings).contains(QStringLiteral("archive.name-mismatch")));
        int libraries = 0;
        for (const ArchiveFile &file : report.files) {
            if (file.path.endsWith(QLatin1String(".dll"))) {
                QCOMPARE(file.machine, QStringLiteral("x64"));
                QCOMPARE(file.kind, ArchiveFile::Kind::Library);
                ++libraries;
            }
        }
        QCOMPARE(libraries, headerVersion.startsWith(QLatin1Char('9')) ? 8 : 7);
        const QJsonObject json = report.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/archive/1"));
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), verdict);
        QCOMPARE(json.value(QStringLiteral("content")).toObject().value(QStringLiteral("cudnn")).toString(),
                 report.cudnn.toString());
    }

    // A browser's " (1)", hyphens for underscores: the name is still understood and agrees.
    void toleratesRenamedDownloads_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QString>("fileName");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "copy suffix")
                << backend << QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive (1).zip");
            QTest::newRow(tag + "hyphens")
                << backend << QStringLiteral("cudnn-windows-x86-64-8.9.7.29-cuda12-archive.zip");
        }
    }
    void toleratesRenamedDownloads()
    {
        QFETCH(QString, fileName);
        const ArchiveReport report =
            inspect(save(fileName, archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12"))),
                    true, KnowledgeBase::embedded());
        QVERIFY(report.claimed);
        QCOMPARE(report.claimed->cudnn.toString(), QStringLiteral("8.9.7.29"));
        QCOMPARE(report.claimed->cudaVariant, QStringLiteral("12"));
        QCOMPARE(report.cudnn.toString(), QStringLiteral("8.9.7.29"));
        QVERIFY2(!findingIds(report.findings).contains(QStringLiteral("archive.name-mismatch")),
                 qPrintable(findingIds(report.findings).join(QLatin1Char(' '))));
        // NVIDIA's record of 8.9.7.29 for CUDA 12 has a checksum, which this test archive lacks: the
        // renamed name is still held to it.
        QCOMPARE(report.official, ArchiveReport::Official::Mismatch);
        QVERIFY(findingIds(report.findings).contains(QStringLiteral("archive.checksum-mismatch")));
        QCOMPARE(report.verdictName(), QStringLiteral("altered"));
    }

    // What the name claims against what the content is.
    void reportsNameAgainstContent_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("contentVersion");
        QTest::addColumn<QString>("contentCuda");
        QTest::addColumn<QString>("expected"); // text the finding must contain
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "version")
                << backend << QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip")
                << QStringLiteral("8.9.7.29") << QStringLiteral("12")
                << QStringLiteral("says cuDNN 9.1.0.70, but the archive holds cuDNN 8.9.7");
            QTest::newRow(tag + "CUDA")
                << backend << QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip")
                << QStringLiteral("8.9.7.29") << QStringLiteral("12")
                << QStringLiteral("for CUDA 11, but the archive is for CUDA 12");
        }
    }
    void reportsNameAgainstContent()
    {
        QFETCH(QString, fileName);
        QFETCH(QString, contentVersion);
        QFETCH(QString, contentCuda);
        QFETCH(QString, expected);
        const ArchiveReport report =
            inspect(save(fileName, archives::windowsZip(contentVersion, contentCuda)), true,
                    archives::databaseWithoutChecksums());
        QStringList messages;
        for (const Finding &finding : report.findings) {
            if (finding.id == QLatin1String("archive.name-mismatch"))
                messages.append(finding.message.toString());
        }
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.first().contains(expected), qPrintable(messages.first()));
        QCOMPARE(report.cudaVariant, contentCuda);
        QCOMPARE(report.verdictName(), QStringLiteral("ok")); // a warning: the content is what counts
    }

    // The very file NVIDIA published, saved under another name: official, and the build number
    // and CUDA variant come from NVIDIA's record.
    void matchesNvidiasChecksum_data() { addBackendColumn(); }
    void matchesNvidiasChecksum()
    {
        const QString official = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        const QByteArray bytes = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const KnowledgeBase kb = archives::databaseWithChecksum(official, sha256Of(bytes));
        const ArchiveReport report = inspect(save(QStringLiteral("download.zip"), bytes), true, kb);
        QCOMPARE(report.official, ArchiveReport::Official::Match);
        QCOMPARE(report.officialFile, official);
        QVERIFY(findingIds(report.findings).contains(QStringLiteral("archive.renamed")));
        QCOMPARE(report.cudnn.toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(report.cudaVariant, QStringLiteral("12"));
        QCOMPARE(report.verdictName(), QStringLiteral("ok"));

        // One byte of the same archive changed (the LICENSE text, CRC and all): no longer NVIDIA's.
        const ArchiveReport changed = inspect(
            save(official, archives::alteredWindowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"))),
            true, kb);
        QCOMPARE(changed.official, ArchiveReport::Official::Mismatch);
        const Finding *mismatch = nullptr;
        for (const Finding &finding : changed.findings) {
            if (finding.id == QLatin1String("archive.checksum-mismatch"))
                mismatch = &finding;
        }
        QVERIFY(mismatch);
        // No one may wave it through: lab IT must never roll an altered file out.
        QCOMPARE(mismatch->severity, Severity::Error);
        QCOMPARE(changed.verdictName(), QStringLiteral("altered"));
        QVERIFY(mismatch->details.contains(sha256Of(bytes)));
    }

    // An inspection without the hash (an install's, which takes it while unpacking) says everything
    // else the same; judged later, its report is the one a whole inspection makes.
    void judgesTheChecksumLater_data() { addBackendColumn(); }
    void judgesTheChecksumLater()
    {
        QFETCH(ZipSource::Backend, backend);
        const QString official = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        const QByteArray bytes = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        const KnowledgeBase kb = archives::databaseWithChecksum(official, sha256Of(bytes));
        const QStringList checksumIds{QStringLiteral("archive.renamed"),
                                      QStringLiteral("archive.checksum-mismatch"),
                                      QStringLiteral("archive.checksum-unknown")};
        const QList<std::pair<QString, QByteArray>> cases{
            {QStringLiteral("download.zip"), bytes}, // NVIDIA's, renamed
            {official,
             archives::alteredWindowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"))}, // altered
            {QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda11-archive.zip"), bytes}, // not in the list
        };
        for (const auto &[fileName, content] : cases) {
            const QString path = save(fileName, content);
            InspectOptions options;
            options.backend = backend;
            const auto whole = inspectArchive(path, kb.publishedArchives(), options);
            options.hashArchive = false;
            const auto withoutHash = inspectArchive(path, kb.publishedArchives(), options);
            QVERIFY(whole && withoutHash);
            ArchiveReport later = *withoutHash;
            QVERIFY(later.sha256.isEmpty());
            QCOMPARE(later.official, ArchiveReport::Official::Unknown);
            for (const QString &id : findingIds(later.findings))
                QVERIFY2(!checksumIds.contains(id), qPrintable(id));
            // Without the hash only the checksum can still refuse it (as altered), once it is judged.
            QCOMPARE(later.verdict, ArchiveReport::Verdict::Ok);
            judgeChecksum(later, sha256Of(content), kb.publishedArchives());
            QCOMPARE(later.toJson(), whole->toJson());
        }
    }

    // The SHA-256 is the file's, whether every entry is inflated or only the DLLs' heads are read.
    void hashesTheWholeFile_data() { addBackendColumn(); }
    void hashesTheWholeFile()
    {
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        // Incompressible data after the DLLs: bytes no entry read touches in a quick look.
        QByteArray noise(3 << 20, Qt::Uninitialized);
        for (qsizetype i = 0; i < noise.size(); ++i)
            noise[i] = char((i * 2654435761u) >> 13);
        entries.append(
            ZipWriter::Entry::file("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/noise.bin", noise, 0));
        const QByteArray bytes = ZipWriter(entries).finish();
        const QString path = save(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), bytes);
        QCOMPARE(inspect(path, true).sha256, sha256Of(bytes));
        QCOMPARE(inspect(path, false).sha256, sha256Of(bytes));
    }

    // A quick look reads a DLL of less than its read buffer whole, and then holds it to its CRC:
    // a good one passes, a damaged one does not.
    void quickLookChecksWholeSmallDlls_data() { addBackendColumn(); }
    void quickLookChecksWholeSmallDlls()
    {
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        QByteArray dll = peimage::x64Dll();
        while (dll.size() < 300 * 1024)
            dll += QByteArray::number(dll.size());
        entries[0].data = dll; // cudnn64_9.dll, about the size of NVIDIA's
        const QString name = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
        QCOMPARE(inspect(save(name, ZipWriter(entries).finish()), false).verdictName(), QStringLiteral("ok"));
        entries[0].crc32 = 0x12345678;
        const ArchiveReport damaged = inspect(save(name, ZipWriter(entries).finish()), false);
        QCOMPARE(damaged.verdictName(), QStringLiteral("corrupt"));
        QVERIFY(findingIds(damaged.findings).contains(QStringLiteral("archive.crc-mismatch")));
    }

    // DLLs for another processor in an x64 package: refused.
    void refusesDllsThatAreNotX64_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<quint16>("machine");
        QTest::addColumn<QString>("name");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "x86") << backend << quint16(PeInfo::I386) << QStringLiteral("x86");
            QTest::newRow(tag + "ARM64") << backend << quint16(PeInfo::Arm64) << QStringLiteral("arm64");
        }
    }
    void refusesDllsThatAreNotX64()
    {
        QFETCH(quint16, machine);
        QFETCH(QString, name);
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        entries[2].data = peimage::dllFor(machine);
        const ArchiveReport report = inspect(save(
            QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), ZipWriter(entries).finish()));
        QCOMPARE(report.verdictName(), QStringLiteral("unsafe"));
        QVERIFY(findingIds(report.findings).contains(QStringLiteral("archive.dll-not-x64")));
        const ArchiveFile *file = fileAt(report, QString::fromUtf8(entries[2].name));
        QVERIFY(file);
        QCOMPARE(file->machine, name);
        // A quick look reads the DLLs' heads too.
        QCOMPARE(inspect(report.path, false).verdictName(), QStringLiteral("unsafe"));
    }

    // Hostile archives: refused as a whole, and nothing of them is inflated.
    void refusesHostileArchives_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<int>("variant");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("finding");
        const struct
        {
            const char *tag;
            const char *verdict;
            const char *finding;
        } cases[] = {
            {"parent path", "unsafe", "archive.unsafe-path"},
            {"absolute path", "unsafe", "archive.unsafe-path"},
            {"drive letter", "unsafe", "archive.unsafe-path"},
            {"backslash parent", "unsafe", "archive.unsafe-path"},
            {"symlink", "unsafe", "archive.unsafe-symlink"},
            {"encrypted", "unsafe", "archive.unsafe-encrypted"},
            {"duplicate in another case", "unsafe", "archive.unsafe-duplicate"},
            {"declared ratio of a bomb", "unsafe", "archive.unsafe-ratio"},
            {"more data than declared", "corrupt", "archive.corrupt"},
            {"CRC that does not match", "corrupt", "archive.crc-mismatch"},
            {"DLL that is no program", "corrupt", "archive.dll-invalid"},
            // Found by fuzz_archive: Zip64 sizes whose sum is past the largest qint64.
            {"Zip64 sizes adding up past 2^63", "unsafe", "archive.unsafe-size"},
        };
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            for (int i = 0; i < int(std::size(cases)); ++i)
                QTest::newRow(
                    (ZipSource::backendName(backend) + QLatin1Char(':') + QLatin1String(cases[i].tag))
                        .toLatin1())
                    << backend << i << QString::fromLatin1(cases[i].verdict)
                    << QString::fromLatin1(cases[i].finding);
        }
    }
    void refusesHostileArchives()
    {
        QFETCH(int, variant);
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        const QByteArray root = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/";
        switch (variant) {
        case 0:
            entries.append(ZipWriter::Entry::file(root + "../../evil.dll", peimage::x64Dll()));
            break;
        case 1:
            entries.append(ZipWriter::Entry::file("/etc/evil", "x"));
            break;
        case 2:
            entries.append(ZipWriter::Entry::file("C:/Windows/System32/evil.dll", peimage::x64Dll()));
            break;
        case 3:
            entries.append(ZipWriter::Entry::file(root + "bin\\..\\..\\..\\evil.dll", peimage::x64Dll()));
            break;
        case 4:
            entries.append(
                ZipWriter::Entry::symlink(root + "bin/link.dll", "/windows/system32/kernel32.dll"));
            break;
        case 5:
            entries[3].encrypted = true;
            break;
        case 6:
            entries.append(ZipWriter::Entry::file(root + "BIN/CUDNN64_9.DLL", peimage::x64Dll()));
            break;
        case 7: {
            ZipWriter::Entry bomb = ZipWriter::Entry::file(root + "bin/bomb.dll", QByteArray(4096, '\0'));
            bomb.declaredSize = quint64(6) << 30;
            entries.append(bomb);
            break;
        }
        case 8: {
            ZipWriter::Entry liar = ZipWriter::Entry::file(root + "include/big.h", QByteArray(1 << 20, 'a'));
            liar.declaredSize = 100;
            entries.append(liar);
            break;
        }
        case 9:
            entries[9].crc32 = 0x12345678;
            break;
        case 10:
            entries[1].data = "this is not a DLL";
            break;
        case 11:
            for (const char *name : {"bin/a.dll", "bin/b.dll"}) {
                ZipWriter::Entry huge = ZipWriter::Entry::file(root + name, QByteArray(64, '\0'));
                huge.zip64 = true;
                huge.declaredSize = quint64(5) << 60;
                entries.append(huge);
            }
            break;
        }
        const ArchiveReport report = inspect(save(
            QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), ZipWriter(entries).finish()));
        QTEST(report.verdictName(), "verdict");
        QFETCH(QString, finding);
        QVERIFY2(findingIds(report.findings).contains(finding),
                 qPrintable(findingIds(report.findings).join(QLatin1Char(' '))));
        for (const Finding &problem : report.findings) {
            if (problem.id == finding) {
                QCOMPARE(problem.severity, Severity::Error);
                QVERIFY(!problem.message.toString().isEmpty());
            }
        }
    }

    // Damaged downloads and files that are no zip: clear findings, never a failed inspection.
    void judgesFilesThatAreNoCudnnZip_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<int>("variant");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QStringList>("findings");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "cut short") << backend << 0 << QStringLiteral("corrupt")
                                             << QStringList{QStringLiteral("archive.corrupt")};
            QTest::newRow(tag + "text file") << backend << 1 << QStringLiteral("not-cudnn")
                                             << QStringList{QStringLiteral("archive.not-zip")};
            QTest::newRow(tag + "a program")
                << backend << 2 << QStringLiteral("not-cudnn")
                << QStringList{QStringLiteral("archive.not-zip"), QStringLiteral("archive.is-program")};
            QTest::newRow(tag + "zip of something else") << backend << 3 << QStringLiteral("not-cudnn")
                                                         << QStringList{QStringLiteral("archive.not-cudnn")};
            QTest::newRow(tag + "empty file") << backend << 4 << QStringLiteral("not-cudnn")
                                              << QStringList{QStringLiteral("archive.not-zip")};
        }
    }
    void judgesFilesThatAreNoCudnnZip()
    {
        QFETCH(int, variant);
        QByteArray bytes;
        switch (variant) {
        case 0:
            bytes = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
            bytes.truncate(bytes.size() * 2 / 3);
            break;
        case 1:
            bytes = "<html>Sign in to download cuDNN</html>";
            break;
        case 2:
            bytes = peimage::x64Dll();
            break;
        case 3:
            bytes = ZipWriter(QList<ZipWriter::Entry>{
                                  ZipWriter::Entry::file("photos/cat.jpg", QByteArray(2000, 'c')),
                                  ZipWriter::Entry::file("readme.txt", "hello")})
                        .finish();
            break;
        }
        const ArchiveReport report =
            inspect(save(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), bytes));
        QTEST(report.verdictName(), "verdict");
        QFETCH(QStringList, findings);
        for (const QString &id : findings)
            QVERIFY2(findingIds(report.findings).contains(id),
                     qPrintable(findingIds(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(report.sha256, sha256Of(bytes));
    }

    // UTF-8 flagged names as they are; unflagged ones as GBK when a Chinese tool made the archive,
    // CP437 otherwise (the documented rule in archive/EntryNames.h).
    void decodesEntryNames_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QByteArray>("rawName");
        QTest::addColumn<bool>("utf8Flag");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("encoding");
        const QByteArray root = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/";
        const QString rootText = QString::fromLatin1(root);
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "UTF-8 flag")
                << backend << root + "\xe8\xaf\xb4\xe6\x98\x8e.txt" << true
                << rootText + QStringLiteral("说明.txt") << QStringLiteral("ascii");
            QTest::newRow(tag + "GBK") << backend << root + "\xcb\xb5\xc3\xf7.txt" << false
                                       << rootText + QStringLiteral("说明.txt") << QStringLiteral("gbk");
            QTest::newRow(tag + "CP437") << backend << root + "caf\x82.txt" << false
                                         << rootText + QStringLiteral("café.txt") << QStringLiteral("cp437");
        }
    }
    void decodesEntryNames()
    {
        QFETCH(QByteArray, rawName);
        QFETCH(bool, utf8Flag);
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        ZipWriter::Entry named = ZipWriter::Entry::file(rawName, "notes");
        named.utf8Name = utf8Flag;
        entries.append(named);
        const ArchiveReport report = inspect(save(
            QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), ZipWriter(entries).finish()));
        QCOMPARE(report.verdictName(), QStringLiteral("ok"));
        QFETCH(QString, path);
        QVERIFY2(fileAt(report, path), qPrintable(report.files.last().path));
        QTEST(report.nameEncoding, "encoding");
    }

    // Zip64 entries (as 7-Zip and Windows write large archives) read like any other, on both backends.
    void readsZip64Entries_data() { addBackendColumn(); }
    void readsZip64Entries()
    {
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        for (ZipWriter::Entry &entry : entries)
            entry.zip64 = true;
        const ArchiveReport report = inspect(save(
            QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), ZipWriter(entries).finish()));
        QCOMPARE(report.verdictName(), QStringLiteral("ok"));
        QCOMPARE(report.cudnn.toString(), QStringLiteral("9.1.0.70"));
        QCOMPARE(report.files.size(), entries.size());
    }

    // Both backends see the same archive the same way.
    void backendsAgree()
    {
        if (ZipSource::backends().size() < 2)
            QSKIP("this build has one zip backend");
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12")),
                                QStringLiteral("8.9.7"));
        entries.append(
            ZipWriter::Entry::file("cudnn-windows-x86_64-8.9.7.29_cuda12-archive/\xcb\xb5\xc3\xf7.txt", "x"));
        const QString path = save(QStringLiteral("cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip"),
                                  ZipWriter(entries).finish());
        QJsonObject reports[2];
        for (int i = 0; i < 2; ++i) {
            InspectOptions options;
            options.backend = ZipSource::backends().at(i);
            auto report = inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options);
            QVERIFY(report);
            reports[i] = report->toJson();
            reports[i].remove(QStringLiteral("backend"));
        }
        QCOMPARE(reports[0], reports[1]);
    }

    // Progress rises to the whole, and a cancel ends the inspection with "archive.cancelled".
    void reportsProgressAndCancels_data() { addBackendColumn(); }
    void reportsProgressAndCancels()
    {
        QFETCH(ZipSource::Backend, backend);
        const QString path = save(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"),
                                  archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        for (const bool verifyData : {true, false}) {
            QList<QPair<qint64, qint64>> calls;
            InspectOptions options;
            options.backend = backend;
            options.verifyData = verifyData;
            options.progress = [&calls](qint64 done, qint64 total) { calls.append({done, total}); };
            QVERIFY(inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options));
            QVERIFY(!calls.isEmpty());
            for (int i = 1; i < calls.size(); ++i)
                QVERIFY(calls.at(i).first >= calls.at(i - 1).first);
            QCOMPARE(calls.last().first, calls.last().second);
        }

        InspectOptions options;
        options.backend = backend;
        int asked = 0;
        options.cancelled = [&asked] { return ++asked > 3; };
        const auto cancelled = inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options);
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().id, QStringLiteral("archive.cancelled"));
    }

    // NVIDIA's archives hold every library of their major; one holding fewer installs "fine" and
    // fails in the program that first needs the missing one, so it is refused, naming what is missing.
    void refusesIncompleteLibrarySets_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QStringList>("removed");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "9.1 without graph") << backend << QStringLiteral("9.1.0.70")
                                                     << QStringList{QStringLiteral("cudnn_graph64_9.dll")};
            QTest::newRow(tag + "9.18 without engines")
                << backend << QStringLiteral("9.18.0.77")
                << QStringList{QStringLiteral("cudnn_engines_precompiled64_9.dll"),
                               QStringLiteral("cudnn_engines_runtime_compiled64_9.dll")};
            QTest::newRow(tag + "8.9.7 without cnn_infer")
                << backend << QStringLiteral("8.9.7.29")
                << QStringList{QStringLiteral("cudnn_cnn_infer64_8.dll")};
            QTest::newRow(tag + "9.1 main library alone")
                << backend << QStringLiteral("9.1.0.70")
                << QStringList{QStringLiteral("cudnn_graph64_9.dll"), // named: the one loaded first
                               QStringLiteral("cudnn_adv64_9.dll"),
                               QStringLiteral("cudnn_cnn64_9.dll"),
                               QStringLiteral("cudnn_engines_precompiled64_9.dll"),
                               QStringLiteral("cudnn_engines_runtime_compiled64_9.dll"),
                               QStringLiteral("cudnn_heuristic64_9.dll"),
                               QStringLiteral("cudnn_ops64_9.dll")};
        }
    }
    void refusesIncompleteLibrarySets()
    {
        QFETCH(QString, version);
        QFETCH(QStringList, removed);
        QStringList files = archives::windowsFiles(version, QStringLiteral("12"));
        files.removeIf(
            [&](const QString &path) { return removed.contains(path.section(QLatin1Char('/'), -1)); });
        const QString name = archives::windowsRoot(version, QStringLiteral("12")) + QStringLiteral(".zip");
        const QByteArray bytes =
            ZipWriter(archives::entriesOf(files, version.section(QLatin1Char('.'), 0, 2))).finish();
        for (const bool verifyData : {true, false}) {
            const ArchiveReport report = inspect(save(name, bytes), verifyData);
            QCOMPARE(report.verdictName(), QStringLiteral("corrupt"));
            const Finding *incomplete = nullptr;
            for (const Finding &finding : report.findings) {
                if (finding.id == QLatin1String("archive.incomplete"))
                    incomplete = &finding;
            }
            QVERIFY2(incomplete, qPrintable(findingIds(report.findings).join(QLatin1Char(' '))));
            QVERIFY2(incomplete->message.toString().contains(removed.first()),
                     qPrintable(incomplete->message.toString()));
            for (const QString &missing : removed)
                QVERIFY2(incomplete->details.contains(missing), qPrintable(incomplete->details));
        }
    }

    // NVIDIA stamps cudnn64_N.dll with the release: the stamp gives the build number, stands in
    // for a missing header, and a stamp that contradicts the header is a mixed archive, refused.
    void crossChecksTheMainLibrarysStamp_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        QTest::addColumn<QList<int>>("stamp");
        QTest::addColumn<bool>("withHeader");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("cudnn");
        QTest::addColumn<QString>("finding");
        for (const ZipSource::Backend backend : ZipSource::backends()) {
            const QByteArray tag = ZipSource::backendName(backend).toLatin1() + ':';
            QTest::newRow(tag + "agrees") << backend << QList<int>{9, 1, 0, 70} << true
                                          << QStringLiteral("ok") << QStringLiteral("9.1.0.70") << QString();
            QTest::newRow(tag + "another release")
                << backend << QList<int>{9, 2, 0, 82} << true << QStringLiteral("corrupt")
                << QStringLiteral("9.1.0") << QStringLiteral("archive.version-disagrees");
            QTest::newRow(tag + "no header")
                << backend << QList<int>{9, 2, 0, 82} << false << QStringLiteral("ok")
                << QStringLiteral("9.2.0.82") << QStringLiteral("archive.version-from-library");
            QTest::newRow(tag + "not a release stamp")
                << backend << QList<int>{6, 14, 11, 9000} << true << QStringLiteral("ok")
                << QStringLiteral("9.1.0") << QString();
        }
    }
    void crossChecksTheMainLibrarysStamp()
    {
        QFETCH(QList<int>, stamp);
        QFETCH(bool, withHeader);
        QFETCH(QString, finding);
        QStringList files = archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        if (!withHeader)
            files.removeIf(
                [](const QString &path) { return path.endsWith(QLatin1String("/cudnn_version.h")); });
        QList<ZipWriter::Entry> entries = archives::entriesOf(files, QStringLiteral("9.1.0"));
        peimage::ImageSpec spec;
        spec.fileVersion = stamp;
        spec.productVersion = stamp;
        QVERIFY(entries.first().name.endsWith("/cudnn64_9.dll"));
        entries.first().data = peimage::buildImage(spec).bytes;
        // No name to take the build number from: it comes from the stamp or not at all.
        const ArchiveReport report =
            inspect(save(QStringLiteral("download.zip"), ZipWriter(entries).finish()), false);
        QTEST(report.verdictName(), "verdict");
        QTEST(report.cudnn.toString(), "cudnn");
        if (!finding.isEmpty())
            QVERIFY2(findingIds(report.findings).contains(finding),
                     qPrintable(findingIds(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(report.toJson()
                     .value(QStringLiteral("content"))
                     .toObject()
                     .value(QStringLiteral("libraryVersion"))
                     .toString(),
                 stamp.first() == 9 ? report.libraryVersion.toString() : QString());
    }

    // An archive that would expand like a bomb is refused before a byte is inflated, however honest
    // its declared sizes: 400 MiB of zeros deflate to well under a megabyte.
    void refusesArchivesThatExpandLikeBombs_data() { addBackendColumn(); }
    void refusesArchivesThatExpandLikeBombs()
    {
        QList<ZipWriter::Entry> entries =
            archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                                QStringLiteral("9.1.0"));
        entries.append(ZipWriter::Entry::file("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/zeros.bin",
                                              QByteArray(400 << 20, '\0')));
        const QString path = save(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"),
                                  ZipWriter(entries).finish());
        const ArchiveReport report = inspect(path);
        QCOMPARE(report.verdictName(), QStringLiteral("unsafe"));
        QVERIFY(findingIds(report.findings).contains(QStringLiteral("archive.unsafe-ratio")));
        QVERIFY(!report.cudnn.isValid()); // nothing was inflated, the header included
    }

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
    // NVIDIA's Linux archive as it is: a tar.xz whose libraries carry their soname links. Read by
    // libarchive whatever zip backend was asked for, the links kept as links, the version from the
    // header, and judged against NVIDIA's checksum like a zip.
    void readsNvidiasLinuxTarXz()
    {
        const QString path = save(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"),
                                  archives::linuxTarXz(QStringLiteral("9.19.0.56"), QStringLiteral("13")));
        const auto report = inspectArchive(path, archives::databaseKnowing({path}).publishedArchives());
        QVERIFY(report);
        QVERIFY2(report->verdict == ArchiveReport::Verdict::Ok,
                 qPrintable(findingIds(report->findings).join(QLatin1Char(' '))));
        QCOMPARE(report->backend, QStringLiteral("libarchive"));
        QCOMPARE(report->layout.kind, CudnnLayout::Kind::Linux);
        QCOMPARE(report->platform, QStringLiteral("linux-x86_64"));
        QCOMPARE(report->cudnn.toString(), QStringLiteral("9.19.0.56"));
        QCOMPARE(report->cudaVariant, QStringLiteral("13"));
        QCOMPARE(report->official, ArchiveReport::Official::Match);
        QVERIFY(report->claimed);
        QCOMPARE(report->claimed->extension, QStringLiteral("tar.xz"));
        const QString lib = QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/");
        const ArchiveFile *soname = fileAt(*report, lib + QStringLiteral("libcudnn.so.9"));
        const ArchiveFile *devLink = fileAt(*report, lib + QStringLiteral("libcudnn.so"));
        const ArchiveFile *real = fileAt(*report, lib + QStringLiteral("libcudnn.so.9.19.0"));
        QVERIFY(soname && devLink && real);
        QCOMPARE(soname->linkTarget, QStringLiteral("libcudnn.so.9.19.0"));
        QCOMPARE(devLink->linkTarget, QStringLiteral("libcudnn.so.9"));
        QVERIFY(real->linkTarget.isEmpty());
        QVERIFY(real->size > 0);
        // Its folders are folders, not files.
        QVERIFY(!fileAt(*report, lib.chopped(1)));
        // The same through the other zip backends' option, and the SHA-256 is the file's.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(report->sha256, sha256Of(file.readAll()));
    }

    // Hostile tars, each NVIDIA's archive with one entry added: refused as a whole, with the finding
    // of what it is, before a byte is inflated.
    void refusesHostileTars_data()
    {
        QTest::addColumn<QByteArray>("tar");
        QTest::addColumn<QString>("finding");
        const QList<TarEntry> nvidias =
            archives::linuxTarEntries(QStringLiteral("9.19.0.56"), QStringLiteral("13"));
        const QByteArray lib = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/";
        const auto with = [&](QList<TarEntry> added) { return tarwriter::write(nvidias + added); };
        TarEntry hardLink{lib + "libcudnn_evil.so", {}, "/etc/shadow", TarEntry::Type::HardLink};
        TarEntry device{lib + "libcudnn_null.so", {}, {}, TarEntry::Type::CharDevice};
        TarEntry fifo{lib + "pipe", {}, {}, TarEntry::Type::Fifo};
        QTest::newRow("link out of its folder")
            << with({TarEntry::symlink(lib + "libcudnn_x.so", "../include/cudnn.h")})
            << "archive.unsafe-link";
        QTest::newRow("absolute link")
            << with({TarEntry::symlink(lib + "libcudnn_x.so", "/etc/passwd")}) << "archive.unsafe-link";
        QTest::newRow("link into a subfolder")
            << with({TarEntry::symlink(lib + "libcudnn_x.so", "sub/libcudnn.so.9.19.0")})
            << "archive.unsafe-link";
        QTest::newRow("link to a missing member")
            << with({TarEntry::symlink(lib + "libcudnn_x.so", "libcudnn_x.so.9")})
            << "archive.unsafe-link-missing";
        QTest::newRow("links in a loop") << with({TarEntry::symlink(lib + "libloop_a.so", "libloop_b.so"),
                                                  TarEntry::symlink(lib + "libloop_b.so", "libloop_a.so")})
                                         << "archive.unsafe-link-missing";
        QTest::newRow("chain ending out of the folder")
            << with({TarEntry::symlink(lib + "libchain.so", "libchain.so.1"),
                     TarEntry::symlink(lib + "libchain.so.1", "../../etc/passwd")})
            << "archive.unsafe-link";
        QTest::newRow("file through a link") << with({TarEntry::symlink(lib + "evil", "libcudnn.so.9.19.0"),
                                                      TarEntry::file(lib + "evil/x", "x")})
                                             << "archive.unsafe-duplicate";
        QTest::newRow("absolute name")
            << with({TarEntry::file("/etc/cron.d/evil", "* * * * * root sh")}) << "archive.unsafe-path";
        QTest::newRow("climbing name")
            << with({TarEntry::file(lib + "../../../evil", "x")}) << "archive.unsafe-path";
        QTest::newRow("hard link") << with({hardLink}) << "archive.unsafe-hardlink";
        QTest::newRow("device node") << with({device}) << "archive.unsafe-special";
        QTest::newRow("fifo") << with({fifo}) << "archive.unsafe-special";
        QTest::newRow("huge declared size")
            << tarwriter::withDeclaredSize(lib + "libcudnn.so.9.19.0", 100LL << 30) << "archive.unsafe-size";
    }
    void refusesHostileTars()
    {
        QFETCH(QByteArray, tar);
        QFETCH(QString, finding);
        const QString path = save(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"), tar);
        const auto report = inspectArchive(path, archives::databaseWithoutChecksums().publishedArchives());
        QVERIFY(report);
        QStringList seen;
        for (const Finding &problem : report->findings)
            seen.append(problem.id + QStringLiteral(": ") + problem.details);
        QVERIFY2(report->verdictName() == QLatin1String("unsafe"), qPrintable(seen.join(QLatin1Char('\n'))));
        QVERIFY2(findingIds(report->findings).contains(finding), qPrintable(seen.join(QLatin1Char('\n'))));
        QVERIFY(!report->cudnn.isValid()); // nothing was inflated, the header included
    }

    // A tar.xz that unpacks like a bomb (300 MiB of zeros in well under a MiB) is refused while it is
    // listed, before its data is unpacked.
    void refusesTarBombs()
    {
        const QString path =
            m_dir.filePath(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"));
        QVERIFY(tarwriter::writeBomb(
            path, archives::linuxTarEntries(QStringLiteral("9.19.0.56"), QStringLiteral("13")),
            "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/zeros.bin", 300LL << 20));
        QVERIFY(QFileInfo(path).size() < (4 << 20));
        const auto report = inspectArchive(path, archives::databaseWithoutChecksums().publishedArchives());
        QVERIFY(report);
        QCOMPARE(report->verdictName(), QStringLiteral("unsafe"));
        QVERIFY2(findingIds(report->findings).contains(QStringLiteral("archive.unsafe-ratio")),
                 qPrintable(findingIds(report->findings).join(QLatin1Char(' '))));
    }

    // libarchive's own test suite's hostile tars (tests/fixtures/libarchive/README.md): each is
    // judged with a finding, never read as cuDNN, never a crash.
    void judgesLibarchivesHostileTars_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("finding");
        QTest::newRow("hard link") << "test_compat_tar_hardlink_1.tar"
                                   << "unsafe"
                                   << "archive.unsafe-hardlink";
        QTest::newRow("empty file name") << "test_read_format_tar_empty_filename.tar"
                                         << "unsafe"
                                         << "archive.unsafe-path";
        QTest::newRow("invalid pax size") << "test_read_format_tar_invalid_pax_size.tar"
                                          << "corrupt"
                                          << "archive.corrupt";
        QTest::newRow("names not in UTF-8") << "test_pax_filename_encoding.tar"
                                            << "unsafe"
                                            << "archive.unsafe-name";
        QTest::newRow("GNU volume label only") << "test_read_format_tar_empty_with_gnulabel.tar"
                                               << "not-cudnn"
                                               << "archive.empty";
    }
    void judgesLibarchivesHostileTars()
    {
        QFETCH(QString, file);
        const auto report = inspectArchive(BuildPaths::fixtures() + QStringLiteral("/libarchive/") + file,
                                           archives::databaseWithoutChecksums().publishedArchives());
        QVERIFY(report);
        QTEST(report->verdictName(), "verdict");
        QFETCH(QString, finding);
        QVERIFY2(findingIds(report->findings).contains(finding),
                 qPrintable(findingIds(report->findings).join(QLatin1Char(' '))));
    }
#else
    // A build without libarchive (the MinGW one) refuses NVIDIA's Linux archive, saying what it is,
    // whether xz-compressed or a plain tar.
    void refusesTarsWithoutLibarchive_data()
    {
        QTest::addColumn<QByteArray>("head");
        QByteArray ustar(1024, '\0');
        ustar.replace(0, 5, "cudnn");
        ustar.replace(257, 5, "ustar");
        QTest::newRow("tar.xz") << QByteArray("\xFD"
                                              "7zXZ\0\0\x04",
                                              8) +
                                       QByteArray(256, '\0');
        QTest::newRow("tar") << ustar;
    }
    void refusesTarsWithoutLibarchive()
    {
        QFETCH(QByteArray, head);
        const QString path = save(QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"), head);
        const auto report = inspectArchive(path, archives::databaseWithoutChecksums().publishedArchives());
        QVERIFY(report);
        QCOMPARE(report->verdictName(), QStringLiteral("not-cudnn"));
        QVERIFY2(findingIds(report->findings).contains(QStringLiteral("archive.tar-unsupported")),
                 qPrintable(findingIds(report->findings).join(QLatin1Char(' '))));
    }
#endif

    void refusesUnreadablePaths_data()
    {
        addBackendColumn();
    }
    void refusesUnreadablePaths()
    {
        QFETCH(ZipSource::Backend, backend);
        InspectOptions options;
        options.backend = backend;
        for (const QString &path : {m_dir.filePath(QStringLiteral("missing.zip")), m_dir.path()}) {
            const auto report = inspectArchive(path, KnowledgeBase::embedded().publishedArchives(), options);
            QVERIFY(!report);
            QCOMPARE(report.error().id, QStringLiteral("archive.unreadable"));
        }
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestArchiveInspector)
#include "tst_archiveinspector.moc"
