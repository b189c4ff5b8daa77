// HTTPS through Windows' own TLS (Schannel) under Wine: a mirror whose certificate a lab's own
// authority signed is refused until that authority is trusted by the system (as Group Policy
// deploys a lab's root certificate), then the archive comes, checked. The server is Python's, run
// by Wine as a Linux program (a TLS stack other than Schannel); Wine's Schannel cannot serve TLS
// from a test's own server (tst_download), nor take --ca-file's certificates as its only roots.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Suite.h"
#include "UnderWine.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <wincrypt.h>

namespace {

const QString kFile = QStringLiteral("cudnn-windows-x86_64-9.10.0.56_cuda12-archive.zip");

// The test CA in (or out of) the current user's Root store. Out: its registry key goes, which is
// where Wine keeps that store (Wine's CertDeleteCertificateFromStore leaves a Root certificate).
bool trustTestAuthority(bool trust)
{
    QFile pem(BuildPaths::fixtures() + QStringLiteral("/tls/ca.pem"));
    if (!pem.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = pem.readAll();
    QByteArray der(8192, Qt::Uninitialized);
    DWORD size = DWORD(der.size());
    if (!CryptStringToBinaryA(text.constData(), DWORD(text.size()), CRYPT_STRING_BASE64HEADER,
                              reinterpret_cast<BYTE *>(der.data()), &size, nullptr, nullptr))
        return false;
    if (!trust) {
        BYTE sha1[20];
        DWORD sha1Size = sizeof sha1;
        if (!CryptHashCertificate(0, CALG_SHA1, 0, reinterpret_cast<const BYTE *>(der.constData()), size,
                                  sha1, &sha1Size))
            return false;
        const QString key =
            QStringLiteral("Software\\Microsoft\\SystemCertificates\\Root\\Certificates\\") +
            QString::fromLatin1(
                QByteArray(reinterpret_cast<const char *>(sha1), int(sha1Size)).toHex().toUpper());
        const LSTATUS deleted = RegDeleteKeyW(HKEY_CURRENT_USER, reinterpret_cast<LPCWSTR>(key.utf16()));
        return deleted == ERROR_SUCCESS || deleted == ERROR_FILE_NOT_FOUND;
    }
    HCERTSTORE store = CertOpenStore(CERT_STORE_PROV_SYSTEM_W, 0, 0, CERT_SYSTEM_STORE_CURRENT_USER, L"Root");
    if (!store)
        return false;
    const bool added = CertAddEncodedCertificateToStore(store, X509_ASN_ENCODING,
                                                        reinterpret_cast<const BYTE *>(der.constData()), size,
                                                        CERT_STORE_ADD_REPLACE_EXISTING, nullptr);
    CertCloseStore(store, 0);
    return added;
}

} // namespace

class TestWinHttps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void schannelTrustsWhatTheSystemTrusts()
    {
        if (!runningUnderWine())
            QSKIP(
                "starts a Linux program for the server: Wine only (real Windows: docs/windows-checklist.md)");
        QTemporaryDir work;
        const QByteArray content = archives::windowsZip(QStringLiteral("9.10.0.56"), QStringLiteral("12"));
        const QString served = work.filePath(QStringLiteral("mirror/cudnn/windows-x86_64/") + kFile);
        QVERIFY(QDir().mkpath(QFileInfo(served).path()));
        QFile file(served);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const QString database =
            archives::writeDatabaseKnowing(work.filePath(QStringLiteral("db.json")), {served});

        // The Linux program reads Linux paths: Wine says where each Windows path lies.
        const auto unixPath = [](const QString &path) {
            using ToUnix = char *(CDECL *)(LPCWSTR);
            const auto toUnix = reinterpret_cast<ToUnix>(reinterpret_cast<void *>(
                GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "wine_get_unix_file_name")));
            char *unix =
                toUnix ? toUnix(reinterpret_cast<LPCWSTR>(QDir::toNativeSeparators(path).utf16())) : nullptr;
            const QString result = unix ? QString::fromUtf8(unix) : path;
            if (unix)
                HeapFree(GetProcessHeap(), 0, unix);
            return result;
        };
        QProcess server;
        server.setProcessChannelMode(QProcess::ForwardedChannels);
        const QString tls = BuildPaths::fixtures() + QStringLiteral("/tls/");
        server.start(QStringLiteral("Z:\\usr\\bin\\python3"),
                     {unixPath(BuildPaths::sourceDir() + QStringLiteral("/tests/tools/https_server.py")),
                      unixPath(work.filePath(QStringLiteral("mirror"))),
                      unixPath(tls + QStringLiteral("server.pem")),
                      unixPath(tls + QStringLiteral("server-key.pem")),
                      unixPath(work.filePath(QStringLiteral("port")))});
        QElapsedTimer waited;
        waited.start();
        QFile portFile(work.filePath(QStringLiteral("port")));
        while (!portFile.exists() && server.state() != QProcess::NotRunning && waited.elapsed() < 20000)
            QTest::qWait(50);
        if (!portFile.open(QIODevice::ReadOnly))
            QSKIP(qPrintable(QStringLiteral("no server: %1").arg(server.errorString())));
        const int port = portFile.readAll().trimmed().toInt();
        QVERIFY(port > 0);

        // Each try in a process of its own, as a user's: Wine's Schannel reads the Root store once
        // a process.
        const QString out = work.filePath(QStringLiteral("downloads"));
        const QStringList download{QStringLiteral("download"),
                                   QStringLiteral("--cudnn"),
                                   QStringLiteral("9.10.0"),
                                   QStringLiteral("--cuda"),
                                   QStringLiteral("12"),
                                   QStringLiteral("--platform"),
                                   QStringLiteral("windows-x86_64"),
                                   QStringLiteral("--source"),
                                   QStringLiteral("https://localhost:%1/").arg(port),
                                   QStringLiteral("--out"),
                                   out,
                                   QStringLiteral("--compat-db"),
                                   database,
                                   QStringLiteral("--json")};
        QVERIFY(trustTestAuthority(false)); // not from an earlier run either
        const CudnnctlRun refused = runCudnnctl(download);
        QCOMPARE(refused.exitCode, 1);
        QCOMPARE(findingIds(outputJson(refused)), QStringList{QStringLiteral("download.tls")});

        QVERIFY(trustTestAuthority(true));
        const CudnnctlRun trusted = runCudnnctl(download);
        QVERIFY(trustTestAuthority(false));
        QVERIFY2(trusted.exitCode == 0, trusted.out + trusted.err);
        QFile result(out + QLatin1Char('/') + kFile);
        QVERIFY(result.open(QIODevice::ReadOnly));
        QCOMPARE(result.readAll(), content);
        server.kill();
        server.waitForFinished();
    }
};

CUDNNSETUP_TEST_MAIN(TestWinHttps)
#include "tst_win_https.moc"
