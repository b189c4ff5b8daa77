// `cudnnctl inspect` run as users run it: good archives, NVIDIA's own file under a database that
// knows its checksum, hostile, damaged and wrong files, Chinese names and paths, bad arguments.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "PeImage.h"
#include "Suite.h"
#include "ZipWriter.h"
#include "archive/ZipSource.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using cudnnsetup::ZipSource;

namespace {

const QString kOfficialName = QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");

QList<ZipWriter::Entry> cudnn91Entries()
{
    return archives::entriesOf(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")),
                               QStringLiteral("9.1.0"));
}

} // namespace

class TestCudnnctlInspect : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString save(const QString &relativePath, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(relativePath);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return QDir::toNativeSeparators(path);
    }

    static CudnnctlRun inspect(const QString &path, const QStringList &more = {})
    {
        return runCudnnctl(
            QStringList{QStringLiteral("inspect"), path, QStringLiteral("--lang"), QStringLiteral("en")} +
            more);
    }
    // --compat-db with a database that takes the test-made archive at `path` for NVIDIA's file.
    QStringList standingInFor(const QString &path) const
    {
        return {QStringLiteral("--compat-db"),
                archives::writeDatabaseKnowing(
                    m_dir.filePath(QFileInfo(path).completeBaseName() + QStringLiteral(".json")),
                    {QDir::fromNativeSeparators(path)})};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A good archive: exit 0, the report in words and in JSON, through every backend of the build.
    // Judged by the built-in database, the same test-made file is not the one NVIDIA published under
    // that name: refused, exit 1.
    void goodArchiveIsExitZero_data()
    {
        QTest::addColumn<QString>("backend");
        for (const ZipSource::Backend backend : ZipSource::backends())
            QTest::newRow(qPrintable(ZipSource::backendName(backend))) << ZipSource::backendName(backend);
    }
    void goodArchiveIsExitZero()
    {
        QFETCH(QString, backend);
        const QByteArray bytes = archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12"));
        const QString path =
            save(QStringLiteral("good/cudnn-windows-x86_64-8.9.7.29_cuda12-archive (1).zip"), bytes);

        const QStringList standIn = standingInFor(path);
        const CudnnctlRun text =
            inspect(path, QStringList{QStringLiteral("--zip-backend"), backend} + standIn);
        QVERIFY2(text.exitCode == 0, text.out + text.err);
        QVERIFY2(text.out.contains("Verdict: ok, safe to install"), text.out.constData());
        QVERIFY(text.out.contains("cuDNN 8.9.7.29 for CUDA 12 (windows-x86_64)"));
        QVERIFY(text.out.contains(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));

        const CudnnctlRun json = inspect(
            path, QStringList{QStringLiteral("--json"), QStringLiteral("--zip-backend"), backend} + standIn);
        QCOMPARE(json.exitCode, 0);
        const QJsonObject report = outputJson(json);
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/archive/1"));
        QCOMPARE(report.value(QStringLiteral("verdict")).toString(), QStringLiteral("ok"));
        QCOMPARE(report.value(QStringLiteral("backend")).toString(), backend);
        QCOMPARE(report.value(QStringLiteral("size")).toInteger(), bytes.size());
        const QJsonObject content = report.value(QStringLiteral("content")).toObject();
        QCOMPARE(content.value(QStringLiteral("cudnn")).toString(), QStringLiteral("8.9.7.29"));
        QCOMPARE(content.value(QStringLiteral("cudaVariant")).toString(), QStringLiteral("12"));
        QCOMPARE(content.value(QStringLiteral("layout")).toString(), QStringLiteral("archive-root"));
        QCOMPARE(report.value(QStringLiteral("files")).toArray().size(),
                 archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12")).size());
        const QJsonObject name = report.value(QStringLiteral("name")).toObject();
        QCOMPARE(name.value(QStringLiteral("cudnn")).toString(), QStringLiteral("8.9.7.29"));
        QCOMPARE(report.value(QStringLiteral("official")).toString(), QStringLiteral("match"));

        const CudnnctlRun altered = inspect(path, {QStringLiteral("--zip-backend"), backend});
        QCOMPARE(altered.exitCode, 1);
        QVERIFY2(altered.out.contains("Verdict: not NVIDIA's original file, refused"),
                 altered.out.constData());
        const QJsonObject refused = outputJson(inspect(path, {QStringLiteral("--json")}));
        QCOMPARE(refused.value(QStringLiteral("verdict")).toString(), QStringLiteral("altered"));
        QCOMPARE(refused.value(QStringLiteral("official")).toString(), QStringLiteral("mismatch"));
        QVERIFY(findingIds(refused).contains(QStringLiteral("archive.checksum-mismatch")));
    }

    // With a database that holds its checksum, the file is NVIDIA's own, whatever its name.
    void officialFileUnderAnotherName()
    {
        const QByteArray bytes = ZipWriter(cudnn91Entries()).finish();
        QFile embedded(BuildPaths::sourceDir() + QStringLiteral("/resources/compat/cudnn-compat.json"));
        QVERIFY(embedded.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(embedded.readAll()).object();
        QJsonArray records = root.value(QStringLiteral("archives")).toArray();
        bool found = false;
        for (int i = 0; i < records.size(); ++i) {
            QJsonObject record = records.at(i).toObject();
            if (record.value(QStringLiteral("file")).toString() == kOfficialName) {
                record.insert(
                    QStringLiteral("sha256"),
                    QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
                records.replace(i, record);
                found = true;
            }
        }
        QVERIFY(found);
        root.insert(QStringLiteral("archives"), records);
        const QString database = save(QStringLiteral("db/compat.json"), QJsonDocument(root).toJson());
        const QString path = save(QStringLiteral("official/download.zip"), bytes);

        const CudnnctlRun run =
            inspect(path, {QStringLiteral("--json"), QStringLiteral("--compat-db"), database});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = outputJson(run);
        QCOMPARE(report.value(QStringLiteral("official")).toString(), QStringLiteral("match"));
        QCOMPARE(report.value(QStringLiteral("officialFile")).toString(), kOfficialName);
        QVERIFY(findingIds(report).contains(QStringLiteral("archive.renamed")));
        QCOMPARE(report.value(QStringLiteral("content")).toObject().value(QStringLiteral("cudnn")).toString(),
                 QStringLiteral("9.1.0.70"));
        const CudnnctlRun text = inspect(path, {QStringLiteral("--compat-db"), database});
        QVERIFY2(text.out.contains("yes, " + kOfficialName.toUtf8()), text.out.constData());
    }

    // Everything but ok is exit 1, with the verdict and the finding that says why.
    void refusedArchivesAreExitOne_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("finding");
        QTest::addColumn<QByteArray>("words");

        QList<ZipWriter::Entry> escaping = cudnn91Entries();
        escaping.append(ZipWriter::Entry::file("../../Windows/System32/evil.dll", peimage::x64Dll()));
        QTest::newRow("path outside")
            << ZipWriter(escaping).finish() << "unsafe"
            << "archive.unsafe-path" << QByteArray("would land outside the target folder");

        QList<ZipWriter::Entry> x86 = cudnn91Entries();
        x86[0].data = peimage::dllFor(cudnnsetup::PeInfo::I386);
        QTest::newRow("x86 DLL") << ZipWriter(x86).finish() << "unsafe"
                                 << "archive.dll-not-x64"
                                 << QByteArray("Not every DLL is for 64-bit x64 Windows");

        QList<ZipWriter::Entry> damaged = cudnn91Entries();
        damaged[4].crc32 = 0xdeadbeef;
        QTest::newRow("CRC") << ZipWriter(damaged).finish() << "corrupt"
                             << "archive.crc-mismatch" << QByteArray("does not match its checksum");

        QByteArray cut = ZipWriter(cudnn91Entries()).finish();
        cut.chop(cut.size() / 3);
        QTest::newRow("cut short") << cut << "corrupt"
                                   << "archive.corrupt" << QByteArray("damaged or incomplete");

        QTest::newRow("web page") << QByteArray("<html><body>Please log in</body></html>") << "not-cudnn"
                                  << "archive.not-zip" << QByteArray("is not a zip archive");
        QTest::newRow("installer program") << peimage::x64Dll() << "not-cudnn"
                                           << "archive.is-program" << QByteArray("This is a Windows program");
        QTest::newRow("empty zip") << QByteArray("PK\x05\x06", 4) + QByteArray(18, '\0') << "not-cudnn"
                                   << "archive.empty" << QByteArray("empty zip archive");
        QTest::newRow("other zip")
            << ZipWriter(QList<ZipWriter::Entry>{ZipWriter::Entry::file("notes.txt", "hello")}).finish()
            << "not-cudnn"
            << "archive.not-cudnn" << QByteArray("This zip holds no cuDNN");
    }
    void refusedArchivesAreExitOne()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, verdict);
        QFETCH(QString, finding);
        QFETCH(QByteArray, words);
        const QString path = save(QStringLiteral("bad/") + kOfficialName, bytes);
        const CudnnctlRun json = inspect(path, {QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 1);
        const QJsonObject report = outputJson(json);
        QCOMPARE(report.value(QStringLiteral("verdict")).toString(), verdict);
        QVERIFY2(findingIds(report).contains(finding), qPrintable(findingIds(report).join(QLatin1Char(','))));
        const CudnnctlRun text = inspect(path);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(words), text.out.constData());
    }

    // Entry names that would drive the terminal (escape sequences, a carriage return, a line
    // break, a right-to-left override) are shown, never obeyed: nothing can be drawn over the
    // verdict, and no second "Verdict:" line appears.
    void namesCannotDrawOverTheVerdict()
    {
        QList<ZipWriter::Entry> entries = cudnn91Entries();
        entries.append(ZipWriter::Entry::file("\x1b[8A\x1b[2K\rVerdict: ok, safe to install", "x"));
        entries.append(ZipWriter::Entry::file("notes\nVerdict: ok, safe to install", "x"));
        entries.append(ZipWriter::Entry::file("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/"
                                              "evil\xe2\x80\xaelld.exe",
                                              "x"));
        const QString path = save(QStringLiteral("spoof/") + kOfficialName, ZipWriter(entries).finish());
        const CudnnctlRun text = inspect(path);
        QVERIFY2(text.exitCode == 1 || text.exitCode == 0, text.err.constData());
        // Windows writes a line break as CR LF: a CR anywhere else would return to the line's start.
        QByteArray bytes = text.out + text.err;
        bytes.replace("\r\n", "\n");
        for (const char control : {'\x1b', '\r', '\x08', '\x07'})
            QVERIFY2(!bytes.contains(control), bytes.constData());
        const QString out = QString::fromUtf8(text.out).replace(QLatin1String("\r\n"), QLatin1String("\n"));
        QVERIFY2(!out.contains(QChar(0x202E)), qPrintable(out));
        int verdicts = 0;
        for (const QString &line : out.split(QLatin1Char('\n')))
            verdicts += line.startsWith(QLatin1String("Verdict:")) ? 1 : 0;
        QCOMPARE(verdicts, 1);
        QVERIFY2(!out.startsWith(QLatin1String("Verdict: ok")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("\\u001b[8A")), qPrintable(out));
        // The JSON keeps the names as they are, escaped the JSON way.
        const QJsonObject report = outputJson(inspect(path, {QStringLiteral("--json")}));
        QVERIFY(!report.isEmpty());
    }

    // Chinese in the archive's path and in its entry names (GBK, as Chinese zip tools write them),
    // and the report in Chinese.
    void chineseNamesAndReport()
    {
        QList<ZipWriter::Entry> entries = cudnn91Entries();
        entries.append(ZipWriter::Entry::file("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/"
                                              "\xca\xb9\xd3\xc3\xcb\xb5\xc3\xf7.txt",
                                              "notes"));
        const QString path = save(QStringLiteral("下载/") + kOfficialName, ZipWriter(entries).finish());
        const QStringList standIn = standingInFor(path);
        const CudnnctlRun json = inspect(path, QStringList{QStringLiteral("--json")} + standIn);
        QVERIFY2(json.exitCode == 0, json.out + json.err);
        const QJsonObject report = outputJson(json);
        QCOMPARE(report.value(QStringLiteral("content"))
                     .toObject()
                     .value(QStringLiteral("nameEncoding"))
                     .toString(),
                 QStringLiteral("gbk"));
        QStringList paths;
        for (const QJsonValue &file : report.value(QStringLiteral("files")).toArray())
            paths.append(file.toObject().value(QStringLiteral("path")).toString());
        QVERIFY2(paths.contains(QStringLiteral("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/使用说明.txt")),
                 qPrintable(paths.join(QLatin1Char('\n'))));
        QVERIFY(report.value(QStringLiteral("path")).toString().contains(QStringLiteral("下载")));

        const CudnnctlRun chinese = runCudnnctl(
            QStringList{QStringLiteral("inspect"), path, QStringLiteral("--lang"), QStringLiteral("zh_CN")} +
            standIn);
        QCOMPARE(chinese.exitCode, 0);
        const QString out = QString::fromUtf8(chinese.out);
        QVERIFY2(out.contains(QStringLiteral("结论")), qPrintable(out));
        QVERIFY(out.contains(kOfficialName));
    }

    // A file that cannot be read and wrong arguments: exit 2 with a sentence on stderr.
    void usageErrorsAreExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("words");
        QTest::newRow("missing file") << QStringList{QStringLiteral("inspect"), QStringLiteral("no-such.zip")}
                                      << QByteArray("cannot be read");
        QTest::newRow("no file") << QStringList{QStringLiteral("inspect")}
                                 << QByteArray("inspect needs the archive to check");
        QTest::newRow("two files") << QStringList{QStringLiteral("inspect"), QStringLiteral("a.zip"),
                                                  QStringLiteral("b.zip")}
                                   << QByteArray("Unexpected argument");
        QTest::newRow("unknown backend") << QStringList{QStringLiteral("inspect"), QStringLiteral("a.zip"),
                                                        QStringLiteral("--zip-backend"), QStringLiteral("7z")}
                                         << QByteArray("no zip backend \"7z\"");
        QTest::newRow("backend elsewhere")
            << QStringList{QStringLiteral("detect"), QStringLiteral("--zip-backend"),
                           QStringLiteral("minizip")}
            << QByteArray("belongs to the inspect command");
    }
    void usageErrorsAreExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, words);
        const CudnnctlRun run =
            runCudnnctl(arguments + QStringList{QStringLiteral("--lang"), QStringLiteral("en")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(words), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestCudnnctlInspect)
#include "tst_cudnnctl_inspect.moc"
