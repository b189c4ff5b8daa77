#pragma once

#include <QByteArray>
#include <QList>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>

#include <deque>
#include <functional>
#include <optional>

class QFile;

namespace cudnnsetup {

// Why a transfer stopped short. Each has its own advice for the user (download/DownloadErrors).
enum class TransferFailure
{
    None,
    Offline,          // no name resolution, no route, connection refused or timed out
    NotFound,         // 404 / 410
    HttpStatus,       // any other status that is not a success
    ProxyCredentials, // 407: the proxy wants a user name and password
    Tls,              // the connection could not be secured (certificate, handshake)
    Dropped,          // the connection broke or stalled after it had started
    WriteFailed,      // the local file took fewer bytes than given (disk full, removed drive)
    Cancelled,        // the caller asked to stop
    TooLarge,         // a reply to get() longer than it allows
};

struct TransferResult
{
    TransferFailure failure = TransferFailure::None;
    int httpStatus = 0;
    QString detail; // Qt's or the server's words, for the log and a finding's details
    QUrl finalUrl;  // after redirects
    // fetchInto: the server sent the part asked for (206) rather than the whole file (200), which the
    // caller then has to start over with.
    bool rangeHonoured = false;
    qint64 bytesWritten = 0;         // by this call
    std::optional<qint64> totalSize; // the whole file's size as the server said it (Content-Range/-Length)

    bool ok() const { return failure == TransferFailure::None; }
};

// HTTP(S) through Qt Network with the system's proxy settings (WinHTTP's on Windows, the *_proxy
// variables elsewhere), redirects followed as long as they do not go from https to http, TLS by
// the platform (Schannel on Windows, OpenSSL elsewhere) with the system's trusted certificates and
// any the caller adds (a lab mirror's own CA). Synchronous: the calling thread runs an event loop
// for the duration of a call, so it works on the main thread of a command and in a worker thread.
class HttpTransfer
{
public:
    struct Settings
    {
        // Trusted besides the system's roots, and only for https at caScope's host and port: a
        // mirror's own authority vouches for that mirror, not for NVIDIA or where the mirror redirects.
        QList<QSslCertificate> extraCaCertificates;
        QUrl caScope;
        int stallTimeoutMs = 30000;   // no byte for this long: Dropped
        int connectTimeoutMs = 30000; // no answer at all for this long: Offline
        std::function<bool()> cancelled;
    };

    explicit HttpTransfer(Settings settings);

    // The request every call sends for `url`: system proxy, safe redirects only, identity encoding,
    // the extra certificates where `url` is in their scope, and HTTP/2 only where Qt's is safe
    // (http2Allowed).
    QNetworkRequest request(const QUrl &url) const;

    // Whether Qt `qtVersion` (as QT_VERSION) may speak HTTP/2 for us: only with the fixes for
    // CVE-2023-51714 (HPACK integer overflow; 6.5.4, 6.6.2) and CVE-2024-39936 (requests sent
    // before the TLS handshake was checked; 6.5.7, 6.7.3, 6.8.0), the second never made for 6.6.
    // Debian bookworm's 6.4.2+dfsg-10 patches neither, nor does the MinGW build's 6.4.2; one
    // large file over HTTP/1.1 loses nothing.
    static constexpr bool http2Allowed(int qtVersion)
    {
        return qtVersion >= QT_VERSION_CHECK(6, 7, 3) ||
               (qtVersion >= QT_VERSION_CHECK(6, 5, 7) && qtVersion < QT_VERSION_CHECK(6, 6, 0));
    }

    // The whole body of a small resource (a manifest); at most `maxBytes`.
    TransferResult get(const QUrl &url, QByteArray *body, qint64 maxBytes = 16 << 20) const;

    // Appends `url`'s bytes from `offset` on to `file` (open for writing, positioned at its end, which
    // is `offset`), asking for a range when offset > 0. `onData` sees each piece written, in order: the
    // first `size` bytes of `buffer`, which it may keep (a copy of the QByteArray, not of the bytes)
    // for as long as it needs them; the buffer is filled again only once nobody else holds it.
    // When the server ignores the range (200), the file is emptied first and `onRestart` is called.
    // `onProgress` gets the bytes now in the file and the whole size when known.
    struct Callbacks
    {
        std::function<void(const QByteArray &buffer, qint64 size)> onData;
        std::function<void()> onRestart;
        std::function<void(qint64 inFile, qint64 total)> onProgress;
    };
    TransferResult fetchInto(const QUrl &url, QFile &file, qint64 offset, const Callbacks &callbacks) const;

    // Loads the PEM or DER certificates in `path`; empty when it has none.
    static QList<QSslCertificate> certificatesFromFile(const QString &path);

private:
    Settings m_settings;
    QSslConfiguration m_caScopeTls; // for requests in caScope: the system's roots and the extra ones
};

// Buffers of one size handed out for filling while others are still held elsewhere (a hashing
// thread): a buffer is reused once nobody else holds it, so a transfer allocates, and faults in,
// only as many as are in flight at once, instead of a fresh copy of every piece.
class ReusableBuffers
{
public:
    explicit ReusableBuffers(qsizetype size)
        : m_size(size)
    {
    }
    QByteArray &free();

private:
    qsizetype m_size;
    std::deque<QByteArray> m_buffers; // a deque: references to its elements survive growth
};

} // namespace cudnnsetup
