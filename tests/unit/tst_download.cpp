// Downloads from a real HTTP(S) server on 127.0.0.1 (tests/tools/LoopbackHttpServer) in NVIDIA's
// redist layout, and from folders: resumed after a dropped connection and after a restart, refused
// when tampered with or when a mirror contradicts NVIDIA's checksum, never left under the final
// name unless verified.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "LoopbackHttpServer.h"
#include "Suite.h"
#include "UnderWine.h"
#include "compat/KnowledgeBase.h"
#include "download/ArchiveDownload.h"
#include "download/RedistManifest.h"
#include "platform/HttpTransfer.h"
#include "platform/Sha256.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslKey>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace cudnnsetup;
using testtools::LoopbackHttpServer;

namespace {

const QString kVersion = QStringLiteral("9.10.0.56");
const QString kFile = QStringLiteral("cudnn-windows-x86_64-9.10.0.56_cuda12-archive.zip");
const QString kRelative = QStringLiteral("cudnn/windows-x86_64/") + kFile;

// A test-made archive under NVIDIA's name, and the database that takes it for NVIDIA's file.
struct Fixture
{
    QTemporaryDir dir;
    QByteArray archive = archives::windowsZip(kVersion, QStringLiteral("12"));
    KnowledgeBase database;
    QString out;

    Fixture()
    {
        const QString madePath = dir.filePath(QStringLiteral("made/") + kFile);
        QDir().mkpath(QFileInfo(madePath).path());
        QFile made(madePath);
        made.open(QIODevice::WriteOnly);
        made.write(archive);
        made.close();
        database = archives::databaseKnowing({madePath});
        out = dir.filePath(QStringLiteral("downloads"));
    }

    DownloadRequest request(const ArchiveSource &source) const
    {
        DownloadRequest request;
        request.cudnn = Version::parse(QStringLiteral("9.10.0"));
        request.cudaMajor = 12;
        request.source = source;
        request.outFolder = out;
        request.retryDelayMs = 10;
        request.stallTimeoutMs = 5000;
        return request;
    }

    QString finalPath() const { return out + QLatin1Char('/') + kFile; }
    QString partPath() const { return finalPath() + QStringLiteral(".part"); }
};

ArchiveSource webSource(const LoopbackHttpServer &server, const QString &below = QString())
{
    return *ArchiveSource::parse(server.baseUrl().toString() + below);
}

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A source's manifest of a release the database does not know, listing its archive under `relativePath`.
QByteArray futureManifest(const QString &relativePath, const QByteArray &content)
{
    const QString file = QStringLiteral("cudnn-windows-x86_64-9.99.0.12_cuda13-archive.zip");
    QJsonObject root = QJsonDocument::fromJson(archives::redistManifest(QStringLiteral("9.99.0.12"), file,
                                                                        Sha256::of(content), content.size()))
                           .object();
    QJsonObject cudnn = root.value(QStringLiteral("cudnn")).toObject();
    QJsonObject platform = cudnn.value(QStringLiteral("windows-x86_64")).toObject();
    QJsonObject entry = platform.value(QStringLiteral("cuda13")).toObject();
    entry.insert(QStringLiteral("relative_path"), relativePath);
    platform.insert(QStringLiteral("cuda13"), entry);
    cudnn.insert(QStringLiteral("windows-x86_64"), platform);
    root.insert(QStringLiteral("cudnn"), cudnn);
    return QJsonDocument(root).toJson();
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

// The HTTPS test server's certificate (for "localhost", signed by tests/fixtures/tls/ca.pem) and key.
struct ServerIdentity
{
    QList<QSslCertificate> chain =
        QSslCertificate::fromPath(BuildPaths::fixtures() + QStringLiteral("/tls/server.pem"));
    QSslKey key;

    ServerIdentity()
    {
        QFile file(BuildPaths::fixtures() + QStringLiteral("/tls/server-key.pem"));
        if (file.open(QIODevice::ReadOnly))
            key = QSslKey(&file, QSsl::Rsa);
    }
    bool isValid() const { return !chain.isEmpty() && !key.isNull(); }
};

QStringList ids(const Findings &findings)
{
    QStringList list;
    for (const Finding &finding : findings)
        list << finding.id;
    return list;
}

} // namespace

class TestDownload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manifestAndSource()
    {
        const auto manifest = RedistManifest::parse(
            archives::redistManifest(kVersion, kFile, QStringLiteral("AB"), 42), QStringLiteral("m.json"));
        QVERIFY(manifest);
        QCOMPARE(manifest->version.toString(), kVersion);
        QVERIFY(manifest->file(kFile));
        QCOMPARE(manifest->file(QStringLiteral("windows-x86_64"), 12)->relativePath, kRelative);
        QCOMPARE(manifest->file(kFile)->sha256, QStringLiteral("ab"));
        QCOMPARE(manifest->file(kFile)->size, 42);
        QVERIFY(!manifest->file(QStringLiteral("windows-x86_64"), 11));
        QCOMPARE(RedistManifest::parse("{\"cudnn\": 1}", QStringLiteral("x")).error().id,
                 QStringLiteral("download.manifest-invalid"));
        QCOMPARE(
            RedistManifest::fileNames(Version::parse(QStringLiteral("8.9.7.29"))),
            (QStringList{QStringLiteral("redistrib_8.9.7.json"), QStringLiteral("redistrib_8.9.7.29.json")}));

        QVERIFY(ArchiveSource::parse(QString())->isNvidia());
        QVERIFY(ArchiveSource::parse(QStringLiteral("NVIDIA"))->isNvidia());
        const auto mirror = ArchiveSource::parse(QStringLiteral("https://mirror.lab.example/cudnn"));
        QVERIFY(mirror && mirror->kind == ArchiveSource::Kind::Web);
        QCOMPARE(mirror->url(kRelative).toString(),
                 QStringLiteral("https://mirror.lab.example/cudnn/") + kRelative);
        QTemporaryDir dir;
        const auto folder = ArchiveSource::parse(dir.path());
        QVERIFY(folder && folder->kind == ArchiveSource::Kind::Folder);
        QCOMPARE(ArchiveSource::parse(QUrl::fromLocalFile(dir.path()).toString())->folder, folder->folder);
        QCOMPARE(ArchiveSource::parse(dir.filePath(QStringLiteral("missing"))).error().id,
                 QStringLiteral("download.source-missing"));
        QCOMPARE(ArchiveSource::parse(QStringLiteral("ftp://mirror/cudnn")).error().id,
                 QStringLiteral("download.source-invalid"));
    }

    // --ca-file names one file: no path, or a folder, loads nothing (Qt's loader would read an empty
    // path as the current folder and everything below it).
    void certificatesComeFromTheOneFile()
    {
        const QString tls = BuildPaths::fixtures() + QStringLiteral("/tls");
        QCOMPARE(HttpTransfer::certificatesFromFile(tls + QStringLiteral("/ca.pem")).size(), 1);
        const QString before = QDir::currentPath();
        QDir::setCurrent(tls);
        QVERIFY(HttpTransfer::certificatesFromFile(QString()).isEmpty());
        QDir::setCurrent(before);
        QVERIFY(HttpTransfer::certificatesFromFile(tls).isEmpty());
        QVERIFY(HttpTransfer::certificatesFromFile(tls + QStringLiteral("/*.pem")).isEmpty());
    }

    // A lab mirror without a manifest: NVIDIA's checksum, built in, is the one checked.
    void fromAMirror()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        server.serve(QStringLiteral("/lab/") + kRelative, archive);
        QList<DownloadProgress> progress;
        DownloadRequest request = fixture.request(webSource(server, QStringLiteral("lab")));
        request.progress = [&](const DownloadProgress &p) { progress.append(p); };
        const DownloadReport report = downloadArchive(request, fixture.database);
        QVERIFY2(report.ok(), qPrintable(ids(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(report.path, fixture.finalPath());
        QCOMPARE(contentOf(report.path), fixture.archive);
        QVERIFY(!QFile::exists(fixture.partPath()));
        QCOMPARE(report.plan.checksumFrom, DownloadPlan::ChecksumFrom::BuiltIn);
        QCOMPARE(report.attempts, 1);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().done, fixture.archive.size());
        QCOMPARE(progress.last().total, fixture.archive.size());
        // The mirror was asked for its manifest first (it has none), then for the file.
        QCOMPARE(server.requests().last().path, QStringLiteral("/lab/") + kRelative);
        const QJsonObject json = report.toJson();
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/download/1"));
        QCOMPARE(json.value(QStringLiteral("checksumFrom")).toString(), QStringLiteral("built-in"));
        QCOMPARE(json.value(QStringLiteral("source")).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("mirror"));

        // Asked again: the file is there and intact, nothing is fetched.
        const int before = server.requests().size();
        const DownloadReport again = downloadArchive(request, fixture.database);
        QVERIFY(again.ok() && again.alreadyPresent);
        QCOMPARE(server.requests().size(), before + 2); // the manifest's two names only
    }

    // The connection breaks at 40 %: the same run continues with a range and one file results.
    void droppedConnectionIsResumed()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        archive.dropAfterBytes = fixture.archive.size() * 2 / 5;
        archive.drops = 1;
        server.serve(QLatin1Char('/') + kRelative, archive);
        const DownloadReport report = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QVERIFY2(report.ok(), qPrintable(ids(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(report.attempts, 2);
        QCOMPARE(contentOf(report.path), fixture.archive);
        const auto requests = server.requests();
        QCOMPARE(requests.last().range, "bytes=" + QByteArray::number(archive.dropAfterBytes) + '-');
        QCOMPARE(server.bodyBytesSent(), fixture.archive.size()); // not a byte twice
    }

    // cudnnctl stopped halfway (here: out of attempts): the next run continues from the .part.
    void restartContinuesFromThePart()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        archive.dropAfterBytes = fixture.archive.size() / 2;
        archive.drops = 1;
        server.serve(QLatin1Char('/') + kRelative, archive);
        DownloadRequest request = fixture.request(webSource(server));
        request.attempts = 1;
        const DownloadReport first = downloadArchive(request, fixture.database);
        QVERIFY(!first.ok());
        QCOMPARE(ids(first.findings), QStringList{QStringLiteral("download.dropped")});
        QVERIFY(!QFile::exists(fixture.finalPath()));
        QCOMPARE(QFileInfo(fixture.partPath()).size(), archive.dropAfterBytes);

        const DownloadReport second = downloadArchive(request, fixture.database);
        QVERIFY2(second.ok(), qPrintable(ids(second.findings).join(QLatin1Char(' '))));
        QCOMPARE(second.resumedFrom, archive.dropAfterBytes);
        QCOMPARE(contentOf(second.path), fixture.archive);
        QCOMPARE(server.requests().last().range, "bytes=" + QByteArray::number(archive.dropAfterBytes) + '-');
    }

    // A server that ignores the range sends the whole file again: the part is started over.
    void rangeIgnoredStartsOver()
    {
        Fixture fixture;
        QDir().mkpath(fixture.out);
        QFile part(fixture.partPath());
        part.open(QIODevice::WriteOnly);
        part.write(fixture.archive.left(1000));
        part.close();
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        archive.ignoreRange = true;
        server.serve(QLatin1Char('/') + kRelative, archive);
        const DownloadReport report = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QVERIFY(report.ok());
        QCOMPARE(contentOf(report.path), fixture.archive);
    }

    void redirectIsFollowed()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource moved;
        moved.redirectTo = QStringLiteral("/storage/") + kFile;
        server.serve(QLatin1Char('/') + kRelative, moved);
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        server.serve(QStringLiteral("/storage/") + kFile, archive);
        const DownloadReport report = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QVERIFY2(report.ok(), qPrintable(ids(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(contentOf(report.path), fixture.archive);
    }

    void notFoundAndOffline()
    {
        Fixture fixture;
        {
            LoopbackHttpServer server; // serves nothing: 404
            const DownloadReport report =
                downloadArchive(fixture.request(webSource(server)), fixture.database);
            QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.not-found")});
            QVERIFY(report.findings.first().message.toString().contains(kFile));
        }
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close(); // nothing listens there now
        const DownloadReport report = downloadArchive(
            fixture.request(*ArchiveSource::parse(QStringLiteral("http://127.0.0.1:%1/").arg(port))),
            fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.offline")});
        QVERIFY(!report.findings.first().fix.isEmpty());
        QVERIFY(!QFile::exists(fixture.finalPath()));
        QVERIFY(!QFile::exists(fixture.partPath()));
    }

    // Cancel while a slow server trickles: no final file; the part stays for the next run.
    void cancelLeavesNoFinalFile()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        archive.bytesPerSecond = 4000; // the archive takes about 3 s
        server.serve(QLatin1Char('/') + kRelative, archive);
        DownloadRequest request = fixture.request(webSource(server));
        QList<DownloadProgress> progress;
        request.progress = [&](const DownloadProgress &p) { progress.append(p); };
        // The download's own event loop runs this thread's timers.
        QTimer::singleShot(700, [cancel = request.cancel] { cancel.request(); });
        const DownloadReport report = downloadArchive(request, fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.cancelled")});
        QVERIFY(!QFile::exists(fixture.finalPath()));
        QVERIFY(QFileInfo(fixture.partPath()).size() > 0);
        QVERIFY(QFileInfo(fixture.partPath()).size() < fixture.archive.size());
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.last().bytesPerSecond > 0);
        QVERIFY(progress.last().secondsLeft > 0);
    }

    // The server sends other bytes than NVIDIA's file: refused, and nothing is kept.
    void tamperedArchiveIsRefused()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource archive;
        archive.content = archives::alteredWindowsZip(kVersion, QStringLiteral("12"));
        server.serve(QLatin1Char('/') + kRelative, archive);
        const DownloadReport report = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.checksum-mismatch")});
        QVERIFY(!QFile::exists(fixture.finalPath()));
        QVERIFY(!QFile::exists(fixture.partPath()));
    }

    // A mirror whose manifest gives NVIDIA's file another checksum: refused before any byte of it.
    void mirrorContradictingNvidiaIsRefused()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource manifest;
        manifest.content =
            archives::redistManifest(kVersion, kFile, QString(64, QLatin1Char('e')), fixture.archive.size());
        server.serve(QStringLiteral("/redistrib_9.10.0.json"), manifest);
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        server.serve(QLatin1Char('/') + kRelative, archive);
        const DownloadReport report = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.source-contradicts-nvidia")});
        QCOMPARE(server.bodyBytesSent(), manifest.content.size());
        QVERIFY(!QFile::exists(fixture.finalPath()));
    }

    // A release newer than the program: the source's manifest gives the checksum, and says so.
    void unknownVersionUsesTheSourceManifest()
    {
        Fixture fixture;
        const QString future = QStringLiteral("cudnn-windows-x86_64-9.99.0.12_cuda13-archive.zip");
        const QByteArray content = archives::windowsZip(QStringLiteral("9.99.0.12"), QStringLiteral("13"));
        QTemporaryDir share;
        writeFile(share.filePath(QStringLiteral("redistrib_9.99.0.json")),
                  futureManifest(QStringLiteral("cudnn/windows-x86_64/") + future, content));
        writeFile(share.filePath(QStringLiteral("cudnn/windows-x86_64/") + future), content);
        DownloadRequest request = fixture.request(*ArchiveSource::parse(share.path()));
        request.cudnn = Version::parse(QStringLiteral("9.99.0"));
        request.cudaMajor = 13;
        const DownloadReport report = downloadArchive(request, fixture.database);
        QVERIFY2(report.ok(), qPrintable(ids(report.findings).join(QLatin1Char(' '))));
        QCOMPARE(report.plan.checksumFrom, DownloadPlan::ChecksumFrom::Source);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.checksum-from-source")});
        QCOMPARE(report.toJson().value(QStringLiteral("checksumFrom")).toString(), QStringLiteral("source"));
        QCOMPARE(QFileInfo(report.path).fileName(), future);

        request.cudnn = Version::parse(QStringLiteral("9.98.0"));
        QCOMPARE(ids(downloadArchive(request, fixture.database).findings),
                 QStringList{QStringLiteral("download.unknown-archive")});
    }

    // Over plain http only a checksum built into the program can be trusted: a release known only
    // from the mirror's own manifest is refused before the mirror is asked anything.
    void plainHttpNeedsABuiltInChecksum()
    {
        Fixture fixture;
        const QString future = QStringLiteral("cudnn-windows-x86_64-9.99.0.12_cuda13-archive.zip");
        const QByteArray content = archives::windowsZip(QStringLiteral("9.99.0.12"), QStringLiteral("13"));
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource manifest;
        manifest.content = futureManifest(QStringLiteral("cudnn/windows-x86_64/") + future, content);
        server.serve(QStringLiteral("/redistrib_9.99.0.json"), manifest);
        LoopbackHttpServer::Resource archive;
        archive.content = content;
        server.serve(QStringLiteral("/cudnn/windows-x86_64/") + future, archive);
        DownloadRequest request = fixture.request(webSource(server));
        request.cudnn = Version::parse(QStringLiteral("9.99.0"));
        request.cudaMajor = 13;
        const DownloadReport refused = downloadArchive(request, fixture.database);
        QCOMPARE(ids(refused.findings), QStringList{QStringLiteral("download.insecure-source")});
        QVERIFY(refused.findings.first().fix.toString().contains(QStringLiteral("https://")));
        QVERIFY(server.requests().isEmpty());
        QVERIFY(!QFileInfo::exists(fixture.out));

        // The release the database knows, from the same http mirror: NVIDIA's checksum decides.
        LoopbackHttpServer::Resource known;
        known.content = fixture.archive;
        server.serve(QLatin1Char('/') + kRelative, known);
        const DownloadReport accepted = downloadArchive(fixture.request(webSource(server)), fixture.database);
        QVERIFY2(accepted.ok(), qPrintable(ids(accepted.findings).join(QLatin1Char(' '))));
        QCOMPARE(accepted.plan.checksumFrom, DownloadPlan::ChecksumFrom::BuiltIn);
    }

    void badNamesFromAManifestAreRefused_data()
    {
        QTest::addColumn<QString>("relativePath");
        QTest::newRow("parent folders") << QStringLiteral("../../x.zip");
        QTest::newRow("parent folders, NVIDIA's shape") << QStringLiteral("../../cudnn-x.zip");
        QTest::newRow("backslash parents") << QStringLiteral("cudnn/..\\..\\cudnn-x.zip");
        QTest::newRow("drive") << QStringLiteral("C:\\x.zip");
        QTest::newRow("drive-relative") << QStringLiteral("C:cudnn-x.zip");
        QTest::newRow("absolute") << QStringLiteral("/tmp/cudnn-x.zip");
        QTest::newRow("other server") << QStringLiteral("https://elsewhere.example/cudnn-x.zip");
        QTest::newRow("not an archive name") << QStringLiteral("a/b.zip");
        QTest::newRow("control character") << QStringLiteral("cudnn-x\x1b[2J.zip");
        QTest::newRow("dots in the name") << QStringLiteral("cudnn-..zip");
        QTest::newRow("300 characters")
            << QStringLiteral("cudnn-") + QString(290, QLatin1Char('a')) + QStringLiteral(".zip");
    }

    // A manifest's relative_path becomes a file name and a path below the source: one that could
    // leave the download folder or the source, or is no archive name, is refused before a byte.
    void badNamesFromAManifestAreRefused()
    {
        QFETCH(QString, relativePath);
        Fixture fixture;
        const QByteArray content = archives::windowsZip(QStringLiteral("9.99.0.12"), QStringLiteral("13"));
        QTemporaryDir share;
        writeFile(share.filePath(QStringLiteral("redistrib_9.99.0.json")),
                  futureManifest(relativePath, content));
        // What a name that slipped through would fetch.
        writeFile(share.filePath(QStringLiteral("cudnn-x.zip")), content);
        DownloadRequest request = fixture.request(*ArchiveSource::parse(share.path()));
        request.cudnn = Version::parse(QStringLiteral("9.99.0"));
        request.cudaMajor = 13;
        const DownloadReport report = downloadArchive(request, fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.bad-name")});
        QVERIFY(!QFileInfo::exists(fixture.out));
        QVERIFY(report.findings.first().details.contains(QStringLiteral("relative_path")));
        QVERIFY(!report.findings.first().details.contains(QChar(0x1b)));

        // The same name with the right shape is taken: the refusal was the name's.
        writeFile(share.filePath(QStringLiteral("redistrib_9.99.0.json")),
                  futureManifest(QStringLiteral("cudnn/cudnn-x.zip"), content));
        QVERIFY2(downloadArchive(request, fixture.database).ok(), qPrintable(relativePath));
    }

    // A mirror's manifest that puts even a known archive outside the mirror is not followed.
    void knownArchiveUnderABadPathIsRefused()
    {
        Fixture fixture;
        LoopbackHttpServer server;
        LoopbackHttpServer::Resource manifest;
        manifest.content =
            archives::redistManifest(kVersion, kFile, Sha256::of(fixture.archive), fixture.archive.size())
                .replace("cudnn/windows-x86_64/", "../../");
        server.serve(QStringLiteral("/lab/redistrib_9.10.0.json"), manifest);
        const DownloadReport report =
            downloadArchive(fixture.request(webSource(server, QStringLiteral("lab/"))), fixture.database);
        QCOMPARE(ids(report.findings), QStringList{QStringLiteral("download.bad-name")});
        QCOMPARE(server.requests().size(), 1); // the manifest only
        QVERIFY(!QFileInfo::exists(fixture.out));
    }

    void http2OnlyWhereQtFixedIt_data()
    {
        QTest::addColumn<int>("qtVersion");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("6.4.2 (Debian bookworm, the MinGW build)") << QT_VERSION_CHECK(6, 4, 2) << false;
        QTest::newRow("6.5.6") << QT_VERSION_CHECK(6, 5, 6) << false;
        QTest::newRow("6.5.7") << QT_VERSION_CHECK(6, 5, 7) << true;
        QTest::newRow("6.6.3 (HPACK fixed, CVE-2024-39936 not)") << QT_VERSION_CHECK(6, 6, 3) << false;
        QTest::newRow("6.7.2") << QT_VERSION_CHECK(6, 7, 2) << false;
        QTest::newRow("6.7.3") << QT_VERSION_CHECK(6, 7, 3) << true;
        QTest::newRow("6.8.0") << QT_VERSION_CHECK(6, 8, 0) << true;
    }

    void http2OnlyWhereQtFixedIt()
    {
        QFETCH(int, qtVersion);
        QFETCH(bool, allowed);
        QCOMPARE(HttpTransfer::http2Allowed(qtVersion), allowed);
    }

    // Qt's HTTP/2 before the fixes for CVE-2023-51714 and CVE-2024-39936 is not used: every request
    // says so, with or without a mirror's CA (Qt 6 allows HTTP/2 where a request does not say).
    void requestsSayWhetherHttp2IsAllowed()
    {
        const QString ca = BuildPaths::fixtures() + QStringLiteral("/tls/ca.pem");
        for (const QString &caFile : {QString(), ca}) {
            const HttpTransfer transfer({HttpTransfer::certificatesFromFile(caFile), {}, 1000, 1000, {}});
            for (const char *url : {"https://developer.download.nvidia.com/", "http://mirror.lab.example/"}) {
                const QNetworkRequest request = transfer.request(QUrl(QString::fromLatin1(url)));
                const bool allowed = request.attribute(QNetworkRequest::Http2AllowedAttribute, true).toBool();
                QCOMPARE(allowed, HttpTransfer::http2Allowed(QT_VERSION));
                if (QT_VERSION < QT_VERSION_CHECK(6, 5, 7))
                    QVERIFY(!allowed);
            }
        }
    }

    // A share holding the archives, flat or in the mirror's layout.
    void folderSource()
    {
        Fixture fixture;
        for (const QString &layout : {QString(), QStringLiteral("cudnn/windows-x86_64/")}) {
            QTemporaryDir share;
            QDir().mkpath(share.filePath(layout));
            QFile copy(share.filePath(layout + kFile));
            QVERIFY(copy.open(QIODevice::WriteOnly));
            copy.write(fixture.archive);
            copy.close();
            QDir(fixture.out).removeRecursively();
            const DownloadReport report =
                downloadArchive(fixture.request(*ArchiveSource::parse(share.path())), fixture.database);
            QVERIFY2(report.ok(), qPrintable(ids(report.findings).join(QLatin1Char(' '))));
            QCOMPARE(contentOf(report.path), fixture.archive);
            QCOMPARE(report.toJson()
                         .value(QStringLiteral("source"))
                         .toObject()
                         .value(QStringLiteral("kind"))
                         .toString(),
                     QStringLiteral("folder"));
        }
        QTemporaryDir empty;
        QCOMPARE(ids(downloadArchive(fixture.request(*ArchiveSource::parse(empty.path())), fixture.database)
                         .findings),
                 QStringList{QStringLiteral("download.not-found")});
    }

    // HTTPS from a server whose certificate a test CA signed: refused until that CA is trusted.
    void httpsWithTheMirrorsOwnAuthority()
    {
        if (runningUnderWine())
            QSKIP("Wine's Schannel serves no TLS from a test's own server (GnuTLS takes no private key this "
                  "way)");
        const QString tls = BuildPaths::fixtures() + QStringLiteral("/tls/");
        const ServerIdentity identity;
        QVERIFY(identity.isValid());
        Fixture fixture;
        LoopbackHttpServer server(identity.chain, identity.key);
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        server.serve(QLatin1Char('/') + kRelative, archive);
        DownloadRequest request = fixture.request(webSource(server));
        const DownloadReport untrusted = downloadArchive(request, fixture.database);
        QCOMPARE(ids(untrusted.findings), QStringList{QStringLiteral("download.tls")});
        request.caFile = tls + QStringLiteral("ca.pem");
        const DownloadReport trusted = downloadArchive(request, fixture.database);
        QVERIFY2(trusted.ok(),
                 qPrintable(ids(trusted.findings).join(QLatin1Char(' ')) +
                            (trusted.findings.isEmpty() ? QString() : trusted.findings.first().details)));
        QCOMPARE(contentOf(trusted.path), fixture.archive);
    }

    // --ca-file's authority vouches for the mirror only: not for NVIDIA, and not for a server the
    // mirror redirects to (here the same name on another port), which the system's roots must trust.
    void mirrorsAuthorityIsForTheMirrorOnly()
    {
        const QString ca = BuildPaths::fixtures() + QStringLiteral("/tls/ca.pem");
        const QList<QSslCertificate> extra = HttpTransfer::certificatesFromFile(ca);
        const HttpTransfer transfer(
            {extra, QUrl(QStringLiteral("https://mirror.lab.example/cudnn/")), 1000, 1000, {}});
        const auto trusts = [&](const char *url) {
            return transfer.request(QUrl(QString::fromLatin1(url)))
                .sslConfiguration()
                .caCertificates()
                .contains(extra.first());
        };
        QVERIFY(trusts("https://mirror.lab.example/cudnn/redistrib_9.10.0.json"));
        QVERIFY(trusts("https://MIRROR.lab.example:443/other/"));
        QVERIFY(!trusts("https://developer.download.nvidia.com/compute/cudnn/redist/"));
        QVERIFY(!trusts("https://mirror.lab.example:8443/cudnn/"));
        QVERIFY(!trusts("https://mirror.lab.example.evil.example/cudnn/"));

        if (runningUnderWine())
            QSKIP("Wine's Schannel serves no TLS from a test's own server (GnuTLS takes no private key this "
                  "way)");
        const ServerIdentity identity;
        QVERIFY(identity.isValid());
        Fixture fixture;
        LoopbackHttpServer mirror(identity.chain, identity.key);
        LoopbackHttpServer elsewhere(identity.chain, identity.key);
        LoopbackHttpServer::Resource archive;
        archive.content = fixture.archive;
        elsewhere.serve(QStringLiteral("/storage/") + kFile, archive);
        mirror.serve(QStringLiteral("/storage/") + kFile, archive);
        LoopbackHttpServer::Resource moved;
        moved.redirectTo = elsewhere.baseUrl().toString() + QStringLiteral("storage/") + kFile;
        mirror.serve(QLatin1Char('/') + kRelative, moved);
        DownloadRequest request = fixture.request(webSource(mirror));
        request.caFile = ca;
        const DownloadReport redirected = downloadArchive(request, fixture.database);
        QCOMPARE(ids(redirected.findings), QStringList{QStringLiteral("download.tls")});
        QVERIFY(!QFile::exists(fixture.finalPath()));

        // Redirected within the mirror: its authority still holds.
        moved.redirectTo = QStringLiteral("/storage/") + kFile;
        mirror.serve(QLatin1Char('/') + kRelative, moved);
        const DownloadReport inside = downloadArchive(request, fixture.database);
        QVERIFY2(inside.ok(), qPrintable(ids(inside.findings).join(QLatin1Char(' '))));
        QCOMPARE(contentOf(inside.path), fixture.archive);
    }
};

CUDNNSETUP_TEST_MAIN(TestDownload)
#include "tst_download.moc"
